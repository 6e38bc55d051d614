package app_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/sdk/client"
)

// TestSDKClient drives the typed client of sdk/ against the real server,
// including the silent renewal of an access token that no longer works.
func TestSDKClient(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	ctx := context.Background()
	if err := ta.App.CreateSuperAdmin(ctx, "root@example.com", kerneltest.Password); err != nil {
		t.Fatal(err)
	}
	c := client.New(ta.URL, nil)
	if _, err := c.Login(ctx, "root@example.com", "wrong password"); !client.IsStatus(err, http.StatusUnauthorized) {
		t.Fatalf("wrong password: %v", err)
	}
	s, err := c.Login(ctx, "root@example.com", kerneltest.Password)
	if err != nil || s.Role != "SuperAdmin" {
		t.Fatalf("login: %+v %v", s, err)
	}
	co, err := c.CreateCompany(ctx, client.Company{Name: "SDK AB", OrgNumber: "556677-8899", InvoiceAdress: "sdk@example.com", Country: "SE"})
	if err != nil || co.CompanyID == 0 {
		t.Fatalf("create company: %+v %v", co, err)
	}
	_, err = c.CreateCompany(ctx, client.Company{OrgNumber: "x"})
	var apiErr *client.APIError
	if !asAPIError(err, &apiErr) || apiErr.Status != 400 || apiErr.Errors["name"][0] != "You must enter a company name" {
		t.Fatalf("invalid company: %v", err)
	}
	u, err := c.CreateUser(ctx, client.User{CompanyID: &co.CompanyID, Email: "dev@sdk.example", FirstName: "Dev", LastName: "Eloper", PhoneNumber: "46701234567", Password: kerneltest.Password})
	if err != nil || u.UserID == 0 {
		t.Fatalf("create user: %+v %v", u, err)
	}
	_, refresh := c.Tokens()
	c.SetTokens("not-a-token", refresh)
	users, err := c.CompanyUsers(ctx, co.CompanyID)
	if err != nil || len(users) != 1 || users[0].Email != "dev@sdk.example" {
		t.Fatalf("after renewal: %+v %v", users, err)
	}
	if access, newRefresh := c.Tokens(); access == "not-a-token" || newRefresh == refresh {
		t.Errorf("tokens were not renewed")
	}
}

func asAPIError(err error, target **client.APIError) bool {
	e, ok := err.(*client.APIError)
	*target = e
	return ok
}
