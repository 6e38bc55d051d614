package app

import (
	"context"
	"testing"

	"github.com/fieldhub/fieldhub/modules/gateways"
)

// registeredOnly is a gateways module that only lists gateways.
type registeredOnly struct {
	gateways.Module
	list []*gateways.Gateway
}

func (r registeredOnly) Registered(context.Context, int64) ([]*gateways.Gateway, error) {
	return r.list, nil
}

func TestGatewayNamesMatchEUIsInAnySpelling(t *testing.T) {
	names := gatewayNames{registeredOnly{list: []*gateways.Gateway{
		{Name: "Roof", MacAddress: "AA555A0000000101", Latitude: 59.3, Longitude: 18.1},
	}}}
	got, err := names.Names(context.Background(), 1, []string{"aa555a0000000101", "ttig-12e8"})
	if err != nil {
		t.Fatal(err)
	}
	roof, ok := got["aa555a0000000101"]
	if !ok || roof.Name != "Roof" || *roof.Lat != 59.3 || *roof.Lng != 18.1 {
		t.Fatalf("the lower-case EUI of a registered gateway: got %+v", got)
	}
	if _, ok := got["ttig-12e8"]; ok || len(got) != 1 {
		t.Fatalf("an unregistered gateway id is left out: got %+v", got)
	}
}
