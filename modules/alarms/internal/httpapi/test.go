package httpapi

import (
	"net/http"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/alarms"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/rules"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/store"
)

// testInput is the body of POST /alarms/setting/test: a saved rule's id,
// or the channels and contacts of a rule being edited.
type testInput struct {
	AlarmID       int64    `json:"alarmId"`
	Name          string   `json:"name"`
	Priority      *int     `json:"priority"`
	ContactType   *int     `json:"contactType"`
	AlarmContacts []string `json:"alarmContacts"`
	Message       string   `json:"message"`
	TagDataKey    string   `json:"tagDataKey"`
}

// test answers POST /alarms/setting/test: it sends a test message now, on
// each channel the priority and contact type choose, and answers per
// channel what happened (alarms.TestResult).
func (a *API) test(w http.ResponseWriter, r *http.Request) error {
	var in testInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	var al *alarms.Alarm
	if in.AlarmID != 0 {
		var err error
		if al, err = store.Get(r.Context(), a.db, in.AlarmID); err != nil {
			return err
		}
		if err := scoped(r.Context(), al.CompanyID, true); err != nil {
			return err
		}
	} else {
		company, err := a.callerCompany(r)
		if err != nil {
			return err
		}
		if err := scoped(r.Context(), company, true); err != nil {
			return err
		}
		v := &errs.Validation{}
		al = &alarms.Alarm{CompanyID: company, Name: strings.TrimSpace(in.Name), Message: in.Message, TagDataKey: in.TagDataKey,
			Priority: alarms.PriorityA, ContactType: alarms.ContactBoth}
		if in.Priority != nil {
			al.Priority = *in.Priority
		}
		if in.ContactType != nil {
			al.ContactType = *in.ContactType
		}
		if al.Priority < alarms.PriorityA || al.Priority > alarms.PriorityC {
			v.Add("priority", alarms.IDPriorityInvalid)
		}
		if al.ContactType < alarms.ContactSMS || al.ContactType > alarms.ContactBoth {
			v.Add("contactType", alarms.IDContactTypeInvalid)
		}
		al.AlarmContacts = rules.Contacts("alarmContacts", in.AlarmContacts, v)
		if len(al.AlarmContacts) == 0 && !v.Has("alarmContacts") {
			v.Add("alarmContacts", errs.IDRequired)
		}
		if err := v.Err(); err != nil {
			return err
		}
	}
	if al.Name == "" {
		al.Name = "Test"
	}
	loc := a.companyZone(r, al.CompanyID)
	text := "Test message: " + alarms.Render(al.Message, alarms.Facts{Alarm: al.Name, Node: "Test node", DevEUI: "0000000000000000",
		Key: al.TagDataKey, Value: 0, Time: a.now(), Zone: loc})
	return web.OK(w, a.engine.SendTest(r.Context(), al, text))
}
