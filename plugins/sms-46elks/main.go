// Command sms-46elks is Fieldhub's SMS provider plugin for 46elks
// (https://46elks.com/docs/send-sms): it posts each message to POST
// /a1/sms with HTTP Basic authentication.
//
// Credentials: username and password (the API username and password);
// the request's sender is the from field, a text sender id of 3 to 11
// letters and digits or a number. SMS_46ELKS_URL overrides the API's base
// URL (default https://api.46elks.com), for tests against a double.
package main

import "github.com/fieldhub/fieldhub/sdk/sms"

func main() { sms.Serve(elks{}) }
