package rules

import (
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/alarms"
)

// FromTemplate is the rule template t makes on node tagID of company: an
// analog rule, active every day, without contacts.
func FromTemplate(company, tagID int64, t alarms.Template) (*alarms.Alarm, error) {
	v := &errs.Validation{}
	t = alarms.CheckTemplate(t, "", v)
	if err := v.Err(); err != nil {
		return nil, err
	}
	return &alarms.Alarm{CompanyID: company, TagID: tagID, Name: t.Name, TagDataKey: t.Key, Message: t.Message,
		LimitHigh: t.LimitHigh, LimitLow: t.LimitLow, Priority: t.Priority, AlarmDelay: t.Delay, Active: true,
		ContactType: alarms.ContactBoth, AlarmContacts: []string{}, EscalationContacts: []string{},
		ActiveDays: []int{0, 1, 2, 3, 4, 5, 6}, SignalType: alarms.SignalAnalog, DigitalTrigger: 1, Armed: true}, nil
}
