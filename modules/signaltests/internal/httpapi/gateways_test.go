package httpapi

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/fieldhub/fieldhub/modules/signaltests"
)

// namer is a gateways module that knows one gateway of company 7.
type namer struct{ asked []string }

func (n *namer) Names(_ context.Context, companyID int64, euis []string) (map[string]signaltests.GatewayInfo, error) {
	if companyID != 7 {
		return nil, errors.New("wrong company")
	}
	n.asked = euis
	lat, lng := 57.7, 11.9
	return map[string]signaltests.GatewayInfo{"aa": {Name: "Roof", Lat: &lat, Lng: &lng}}, nil
}

func TestNameGateways(t *testing.T) {
	n := &namer{}
	a := &API{gateways: n}
	ps := []signaltests.Point{
		{Receptions: []signaltests.Reception{{GatewayID: "aa"}, {GatewayID: "bb"}}},
		{Receptions: []signaltests.Reception{{GatewayID: "bb"}}},
	}
	if err := a.nameGateways(context.Background(), 7, ps); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(n.asked, []string{"aa", "bb"}) {
		t.Errorf("asked for %v, want each gateway once", n.asked)
	}
	if r := ps[0].Receptions[0]; r.Name != "Roof" || *r.Lat != 57.7 || *r.Lng != 11.9 {
		t.Errorf("known gateway %+v", r)
	}
	if r := ps[1].Receptions[0]; r.Name != "" || r.Lat != nil {
		t.Errorf("unknown gateway %+v", r)
	}
	// Without a gateways module the receptions show their ids alone.
	if err := (&API{}).nameGateways(context.Background(), 7, ps); err != nil {
		t.Fatal(err)
	}
}
