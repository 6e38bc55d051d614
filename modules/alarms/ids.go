package alarms

// Message ids (locale catalog keys) of the module's field errors. The
// required and length messages are the kernel's ("This field must be
// filled in", "Max characters is 255").
const (
	IDPriorityInvalid    = "alarms.priority.invalid"
	IDContactTypeInvalid = "alarms.contactType.invalid"
	IDChannelsNone       = "alarms.contactType.mismatch"
	IDSignalTypeInvalid  = "alarms.signalType.invalid"
	IDDelayInvalid       = "alarms.delay.invalid"
	IDDayInvalid         = "alarms.activeDays.invalid"
	IDLimitsOrder        = "alarms.limits.order"
	IDTriggerRequired    = "alarms.trigger.required"
	IDNumberInvalid      = "alarms.number.invalid"
	IDPhoneCountryCode   = "alarms.phone.countryCode"
	IDEmailInvalid       = "alarms.email.invalid"
	IDTooManyContacts    = "alarms.contacts.tooMany"
	IDTagUnknown         = "alarms.tag.unknown"
	IDAlreadyReset       = "alarms.event.alreadyReset"
	IDNoCompany          = "alarms.company.required"
)

// Message ids of the test call's channel outcomes (TestResult).
const (
	IDTestNoContact  = "alarms.test.noContact"
	IDTestNotChannel = "alarms.test.notChannel"
	IDTestNoProvider = "alarms.test.noProvider"
	IDTestFailed     = "alarms.test.failed"
)

// Message ids of the audit trail's entries about rules (audit.Change).
const (
	AuditCreated = "audit.alarm.created"
	AuditUpdated = "audit.alarm.updated"
	AuditDeleted = "audit.alarm.deleted"
	AuditToggled = "audit.alarm.toggled"
	AuditReset   = "audit.alarm.reset"
)
