package app

import (
	"context"

	"github.com/fieldhub/fieldhub/kernel/sms"
	"github.com/fieldhub/fieldhub/modules/settings"
)

// smsResolver routes a company's SMS through the provider its settings
// choose (SMS_PROVIDER with that provider's credentials), else through the
// global settings' provider; company 0 is the installation. The settings
// come back with their secrets opened. The credentials are named as the
// bundled plugins read them.
func smsResolver(set settings.Service) sms.Resolver {
	return func(ctx context.Context, companyID int64) (sms.Route, error) {
		if companyID > 0 {
			own, err := set.Company(ctx, companyID)
			if err != nil {
				return sms.Route{}, err
			}
			if own["SMS_PROVIDER"] != "" {
				return smsRoute(own), nil
			}
		}
		global, err := set.Global(ctx)
		if err != nil {
			return sms.Route{}, err
		}
		return smsRoute(global), nil
	}
}

// smsRoute picks the chosen provider's settings.
func smsRoute(s map[string]string) sms.Route {
	switch p := s["SMS_PROVIDER"]; p {
	case "46elks":
		return sms.Route{Provider: p, Sender: s["ELKS_SENDER"],
			Credentials: map[string]string{"username": s["ELKS_USERNAME"], "password": s["ELKS_PASSWORD"]}}
	case "twilio":
		return sms.Route{Provider: p, Sender: s["TWILIO_NUMBER"],
			Credentials: map[string]string{"account_sid": s["TWILIO_ACCOUNT_SID"], "auth_token": s["TWILIO_AUTH_TOKEN"]}}
	default:
		return sms.Route{Provider: p}
	}
}
