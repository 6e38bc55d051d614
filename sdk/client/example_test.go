package client_test

import (
	"context"
	"fmt"

	"github.com/fieldhub/fieldhub/sdk/client"
)

// Example signs in and lists the companies the user may see.
func Example() {
	ctx := context.Background()
	c := client.New("https://portal.example.com", nil)
	if _, err := c.Login(ctx, "ops@example.com", "a long password"); err != nil {
		fmt.Println(err)
		return
	}
	companies, err := c.Companies(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, co := range companies {
		fmt.Println(co.CompanyID, co.Name)
	}
}
