package alarms

import (
	"testing"
	"time"
)

func f(v float64) *float64 { return &v }

// TestClassify checks what a value means to analog and digital rules, with
// and without the hysteresis band.
func TestClassify(t *testing.T) {
	one, zero := 1, 0
	cases := []struct {
		name string
		a    Alarm
		v    float64
		prev *int
		want Level
	}{
		{"above the high limit", Alarm{LimitHigh: f(10)}, 10.5, nil, Breach},
		{"at the high limit", Alarm{LimitHigh: f(10)}, 10, nil, Normal},
		{"below the low limit", Alarm{LimitLow: f(2)}, 1.9, nil, Breach},
		{"between the limits", Alarm{LimitLow: f(2), LimitHigh: f(10)}, 5, nil, Normal},
		{"within the band under the high limit", Alarm{LimitHigh: f(10), Advanced: true, Hysteresis: 1}, 9.5, nil, Band},
		{"past the band under the high limit", Alarm{LimitHigh: f(10), Advanced: true, Hysteresis: 1}, 9, nil, Normal},
		{"the band is ignored unless advanced", Alarm{LimitHigh: f(10), Hysteresis: 1}, 9.5, nil, Normal},
		{"within the band over the low limit", Alarm{LimitLow: f(2), Advanced: true, Hysteresis: 1}, 2.5, nil, Band},
		{"digital high on high", Alarm{SignalType: SignalDigital, DigitalTrigger: 1, TriggerHigh: true}, 1, nil, Breach},
		{"digital low on high", Alarm{SignalType: SignalDigital, DigitalTrigger: 1, TriggerHigh: true}, 0, nil, Normal},
		{"digital low on low", Alarm{SignalType: SignalDigital, DigitalTrigger: 1, TriggerLow: true}, 0, nil, Breach},
		{"digital change", Alarm{SignalType: SignalDigital, DigitalTrigger: 1, TriggerHigh: true, TriggerLow: true}, 1, &zero, Breach},
		{"digital no change", Alarm{SignalType: SignalDigital, DigitalTrigger: 1, TriggerHigh: true, TriggerLow: true}, 1, &one, Normal},
	}
	for _, tc := range cases {
		if got := tc.a.Classify(tc.v, tc.prev); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestChannels checks the channels of the priorities, narrowed by the
// contact type.
func TestChannels(t *testing.T) {
	cases := []struct {
		p, c       int
		email, sms bool
	}{
		{PriorityA, ContactBoth, true, true},
		{PriorityB, ContactBoth, false, true},
		{PriorityC, ContactBoth, true, false},
		{PriorityA, ContactEmail, true, false},
		{PriorityA, ContactSMS, false, true},
		{PriorityB, ContactEmail, false, false},
	}
	for _, tc := range cases {
		if e, s := Channels(tc.p, tc.c); e != tc.email || s != tc.sms {
			t.Errorf("priority %d contact %d: email %v sms %v", tc.p, tc.c, e, s)
		}
	}
}

// TestRender checks the placeholders of a message.
func TestRender(t *testing.T) {
	stockholm, _ := time.LoadLocation("Europe/Stockholm")
	facts := Facts{Alarm: "Freezer", Node: "Box 1", DevEUI: "70B3D57ED0000001", Key: "temperature", Value: -12.5,
		Time: time.Date(2026, 1, 2, 23, 30, 0, 0, time.UTC), Zone: stockholm}
	got := Render("{Node} ({deveui}): {key} = {value} at {time}, {unknown} {alarm", facts)
	want := "Box 1 (70B3D57ED0000001): temperature = -12.5 at 2026-01-03 00:30 CET, {unknown} {alarm"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if got := Render("", facts); got != "Freezer: Box 1 temperature is -12.5 at 2026-01-03 00:30 CET" {
		t.Errorf("default: %q", got)
	}
}

// TestActiveOn checks that activeDays are the company's days.
func TestActiveOn(t *testing.T) {
	stockholm, _ := time.LoadLocation("Europe/Stockholm")
	a := Alarm{ActiveDays: []int{6}}                             // saturday
	friNightUTC := time.Date(2026, 1, 2, 23, 30, 0, 0, time.UTC) // a friday in UTC, saturday in Stockholm
	if a.ActiveOn(friNightUTC, time.UTC) || !a.ActiveOn(friNightUTC, stockholm) {
		t.Errorf("saturday in Stockholm only")
	}
}

// TestPhones checks SPEC.md's phone rules.
func TestPhones(t *testing.T) {
	for in, ok := range map[string]bool{"+46 70-123 45 67": true, "0701234567": false, "4670": false, "46abc12345": false} {
		if ValidPhone(NormalisePhone(in)) != ok {
			t.Errorf("%q: want %v", in, ok)
		}
	}
}
