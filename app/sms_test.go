package app_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/kerneltest/smsfake"
	"github.com/fieldhub/fieldhub/kernel/mail"
	"github.com/fieldhub/fieldhub/kernel/sms"
	"github.com/fieldhub/fieldhub/modules/logs"
	"github.com/fieldhub/fieldhub/sdk/sms/smstest"
)

// TestSMSThroughTheSettingsProvider sends the outbox's messages through the
// real plugin processes that the settings choose: a company with its own
// provider (Twilio) through it, a company without one through the global
// provider (46elks), each with the credentials saved (sealed) in the
// settings; the logs list each delivery, and a mail's too.
func TestSMSThroughTheSettingsProvider(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"sms-46elks", "sms-twilio"} {
		if err := os.Rename(smstest.Build(t, "../plugins/"+name), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	const sid = "AC0123456789abcdef0123456789abcdef"
	elks := smsfake.NewElks(t, "u0123", "elks-secret")
	twilio := smsfake.NewTwilio(t, sid, "twilio-secret")
	t.Setenv("SMS_46ELKS_URL", elks.URL()) // the plugins inherit the portal's environment
	t.Setenv("SMS_TWILIO_URL", twilio.URL())

	ta := kerneltest.Start(t, db.SQLite, map[string]string{"FIELDHUB_PLUGIN_DIR": dir}, app.Build)
	root := ta.SuperAdmin(t)
	own := ta.Company(t, root, "Own Provider AB", "own.example")
	plain := ta.Company(t, root, "Global Provider AB", "global.example")
	wrong := ta.Company(t, root, "Wrong Token AB", "wrong.example")
	if r := ta.Call(t, "POST", "/api/settings/global", root, map[string]any{"SMS_PROVIDER": "46elks",
		"ELKS_USERNAME": "u0123", "ELKS_PASSWORD": "elks-secret", "ELKS_SENDER": "Fieldhub"}); r.Status != 200 {
		t.Fatalf("global settings: %d %s", r.Status, r.Body)
	}
	if r := ta.Call(t, "PUT", fmt.Sprintf("/api/settings/company/%d", own.CompanyID), own.CompanyAdminToken, map[string]any{
		"SMS_PROVIDER": "twilio", "TWILIO_NUMBER": "46761042247", "TWILIO_ACCOUNT_SID": sid, "TWILIO_AUTH_TOKEN": "twilio-secret"}); r.Status != 200 {
		t.Fatalf("company settings: %d %s", r.Status, r.Body)
	}

	if r := ta.Call(t, "PUT", fmt.Sprintf("/api/settings/company/%d", wrong.CompanyID), wrong.CompanyAdminToken, map[string]any{
		"SMS_PROVIDER": "twilio", "TWILIO_NUMBER": "46761042247", "TWILIO_ACCOUNT_SID": sid, "TWILIO_AUTH_TOKEN": "not-the-token"}); r.Status != 200 {
		t.Fatalf("company settings: %d %s", r.Status, r.Body)
	}

	ctx := context.Background()
	host := ta.Host()
	for _, m := range []sms.Message{
		{CompanyID: own.CompanyID, To: []string{"46700000001"}, Text: "Freezer 3 is at -12 °C"},
		{CompanyID: plain.CompanyID, To: []string{"46700000002"}, Text: "Water leak in room 2"},
		{CompanyID: wrong.CompanyID, To: []string{"46700000003"}, Text: "Refused"},
	} {
		if err := host.SMS.Enqueue(ctx, host.DB, m); err != nil {
			t.Fatal(err)
		}
	}
	if err := host.Mail.Enqueue(ctx, host.DB, mail.Message{CompanyID: plain.CompanyID, To: []string{"ops@global.example"}, Subject: "Alarm", Text: "Water leak"}); err != nil {
		t.Fatal(err)
	}
	tw := twilio.WaitAccepted(1, 30*time.Second)
	el := elks.WaitAccepted(1, 30*time.Second)
	if len(tw) != 1 || tw[0].To != "+46700000001" || tw[0].From != "+46761042247" || tw[0].Text != "Freezer 3 is at -12 °C" {
		t.Errorf("Twilio got %+v", twilio.Requests())
	}
	if len(el) != 1 || el[0].To != "+46700000002" || el[0].From != "Fieldhub" || el[0].Text != "Water leak in room 2" {
		t.Errorf("46elks got %+v", elks.Requests())
	}

	// The logs: the SMS of each company in its own log, the mail as APP.
	find := func(token string, company int64, typ, messageID string) map[string]any {
		deadline := time.Now().Add(15 * time.Second)
		for {
			r := ta.Call(t, "GET", fmt.Sprintf("/api/logs?type=%s&companyId=%d", typ, company), token, nil)
			for _, e := range r.List() {
				if en := e.(map[string]any); en["messageId"] == messageID {
					return en
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("no %s entry %s in company %d: %s", typ, messageID, company, r.Body)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	en := find(own.CompanyAdminToken, own.CompanyID, logs.TypeSMS, logs.IDEntrySMSSent)
	if data := en["data"].(map[string]any); data["providerId"] != tw[0].ID || data["to"] != "46700000001" {
		t.Errorf("SMS entry %v", en)
	}
	find(plain.CompanyAdminToken, plain.CompanyID, logs.TypeSMS, logs.IDEntrySMSSent)
	find(plain.CompanyAdminToken, plain.CompanyID, logs.TypeApp, logs.IDEntryMailSent)
	// A test message, sent at once, is logged too.
	id, err := host.SMS.SendNow(ctx, sms.Message{CompanyID: plain.CompanyID, To: []string{"46700000004"}, Text: "Test"})
	if err != nil {
		t.Fatal(err)
	}
	if en := find(plain.CompanyAdminToken, plain.CompanyID, logs.TypeSMS, logs.IDEntrySMSSentNow); en["data"].(map[string]any)["providerId"] != id {
		t.Errorf("test SMS entry %v", en)
	}
	// Twilio refused the wrong token: an ERROR that says so, a retry later.
	en = find(wrong.CompanyAdminToken, wrong.CompanyID, logs.TypeError, logs.IDEntrySMSRetry)
	if msg, _ := en["message"].(string); !strings.Contains(msg, "20003") || strings.Contains(msg, "not-the-token") {
		t.Errorf("refusal entry %v", en)
	}
}

// TestSMSThroughAThirdPartyPlugin checks that a plugin other than the
// bundled two, copied into the plugin directory, is offered by the
// settings, is chosen with the generic sender and credentials (sealed), and
// sends: the example plugin of examples/sms-plugin, which writes each
// message into the folder its credentials name.
func TestSMSThroughAThirdPartyPlugin(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	if err := os.Rename(smstest.Build(t, "../examples/sms-plugin"), filepath.Join(dir, "sms-folder")); err != nil {
		t.Fatal(err)
	}
	ta := kerneltest.Start(t, db.SQLite, map[string]string{"FIELDHUB_PLUGIN_DIR": dir}, app.Build)
	root := ta.SuperAdmin(t)
	c := ta.Company(t, root, "Plugin AB", "plugin.example")
	path := fmt.Sprintf("/api/settings/company/%d", c.CompanyID)

	fields := ta.Call(t, "GET", "/api/settings/company/fields", c.CompanyAdminToken, nil)
	if !strings.Contains(string(fields.Body), `"options":["","46elks","twilio","folder"]`) {
		t.Errorf("the provider's options do not offer the plugin: %s", fields.Body)
	}
	for _, bad := range []map[string]any{
		{"SMS_PROVIDER": "missing"},
		{"SMS_PROVIDER": "folder", "SMS_PLUGIN_CREDENTIALS": "folder=%zz"},
	} {
		if r := ta.Call(t, "PUT", path, c.CompanyAdminToken, bad); r.Status != 400 {
			t.Errorf("settings %v: %d %s, want 400", bad, r.Status, r.Body)
		}
	}
	if r := ta.Call(t, "PUT", path, c.CompanyAdminToken, map[string]any{
		"SMS_PROVIDER": "folder", "SMS_PLUGIN_SENDER": "Fieldhub", "SMS_PLUGIN_CREDENTIALS": "folder=" + url.QueryEscape(out)}); r.Status != 200 {
		t.Fatalf("company settings: %d %s", r.Status, r.Body)
	}
	host := ta.Host()
	if err := host.SMS.Enqueue(context.Background(), host.DB, sms.Message{CompanyID: c.CompanyID, To: []string{"46700000009"}, Text: "Tank full"}); err != nil {
		t.Fatal(err)
	}
	host.SMS.Wake()
	var files []string
	kerneltest.WaitFor(t, 30*time.Second, func() bool {
		files, _ = filepath.Glob(filepath.Join(out, "*.json"))
		return len(files) == 1
	}, func() string { return fmt.Sprintf("the plugin's folder holds %v", files) })
	body, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"to": "+46700000009"`, `"from": "Fieldhub"`, `"text": "Tank full"`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("message file %s lacks %s", body, want)
		}
	}
}
