// Command sms-twilio is Fieldhub's SMS provider plugin for Twilio
// Programmable Messaging: it posts each message to POST
// /2010-04-01/Accounts/{AccountSid}/Messages.json with HTTP Basic
// authentication (the account SID and auth token).
//
// Credentials: account_sid and auth_token; the request's sender is the
// From number (digits with the country code get a "+"). SMS_TWILIO_URL
// overrides the API's base URL (default https://api.twilio.com), for tests
// against a double.
package main

import "github.com/fieldhub/fieldhub/sdk/sms"

func main() { sms.Serve(twilio{}) }
