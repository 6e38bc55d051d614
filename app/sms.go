package app

import (
	"context"
	"net/url"

	"github.com/fieldhub/fieldhub/kernel/sms"
	"github.com/fieldhub/fieldhub/modules/settings"
)

// smsResolver routes a company's SMS through the provider its settings
// choose (SMS_PROVIDER with that provider's credentials), else through the
// global settings' provider; company 0 is the installation. The settings
// come back with their secrets opened. The credentials are named as the
// bundled plugins read them; a third party's plugin gets SMS_PLUGIN_*.
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
	case "":
		return sms.Route{}
	default:
		// A third party's plugin: the sender and the credentials it reads,
		// name=value pairs joined by & (the settings refuse anything else).
		creds := map[string]string{}
		q, _ := url.ParseQuery(s["SMS_PLUGIN_CREDENTIALS"])
		for name := range q {
			creds[name] = q.Get(name)
		}
		return sms.Route{Provider: p, Sender: s["SMS_PLUGIN_SENDER"], Credentials: creds}
	}
}
