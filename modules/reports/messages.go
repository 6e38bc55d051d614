package reports

// Message ids (keys of the locale catalogs) of the module's errors and
// texts.
const (
	IDNoData        = "reports.noData"
	IDFetchFailed   = "reports.fetchFailed"
	IDNoCompany     = "reports.noCompany"
	IDName          = "reports.name.invalid"
	IDType          = "reports.type.invalid"
	IDTempo         = "reports.tempo.invalid"
	IDReferenceDate = "reports.refrenceDate.invalid"
	IDContact       = "reports.contact.invalid"
	IDContacts      = "reports.contacts.tooMany"
	IDNodes         = "reports.nodes.invalid"
	IDNodeUnknown   = "reports.nodes.unknown"
	IDKeys          = "reports.keys.invalid"
	IDResolution    = "reports.resolution.invalid"
	IDFormat        = "reports.format.invalid"
	IDWindow        = "reports.window.invalid"
	IDNoContacts    = "reports.contacts.none"
	// The mail and the log entries of a send.
	IDMailSubject = "reports.mail.subject"
	IDMailBody    = "reports.mail.body"
	IDEntrySent   = "reports.entry.sent"
	IDEntryFailed = "reports.entry.failed"
	IDEntryEmpty  = "reports.entry.empty"
)

// Message ids of the audit trail's entries about reports; {name} is the
// report's name.
const (
	AuditCreated = "audit.report.created"
	AuditEdited  = "audit.report.edited"
	AuditDeleted = "audit.report.deleted"
)
