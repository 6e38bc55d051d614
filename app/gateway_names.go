package app

import (
	"context"

	"github.com/fieldhub/fieldhub/modules/gateways"
	"github.com/fieldhub/fieldhub/modules/signaltests"
)

// gatewayNames answers the signal tests' question, which registered
// gateways heard a point, from the gateways module.
type gatewayNames struct{ gateways gateways.Module }

func (g gatewayNames) Names(ctx context.Context, companyID int64, euis []string) (map[string]signaltests.GatewayInfo, error) {
	list, err := g.gateways.Registered(ctx, companyID)
	if err != nil {
		return nil, err
	}
	byEUI := make(map[string]*gateways.Gateway, len(list))
	for _, gw := range list {
		byEUI[gw.MacAddress] = gw
	}
	out := map[string]signaltests.GatewayInfo{}
	for _, eui := range euis {
		// Uplinks name a gateway as the network server spells it; the
		// gateways module keeps its EUIs in upper case.
		if gw, ok := byEUI[gateways.NormaliseEUI(eui)]; ok {
			lat, lng := gw.Latitude, gw.Longitude
			out[eui] = signaltests.GatewayInfo{Name: gw.Name, Lat: &lat, Lng: &lng}
		}
	}
	return out, nil
}
