package gateways

// Message IDs (locale catalog keys) of the module's errors.
const (
	IDBadName      = "gateways.error.badName"
	IDBadEUI       = "gateways.error.badEui"
	IDDuplicateEUI = "gateways.error.duplicateEui"
	IDBadLatitude  = "gateways.error.badLatitude"
	IDBadLongitude = "gateways.error.badLongitude"
	IDNoGeocoder   = "gateways.error.noGeocoder"
	IDGeocodeFail  = "gateways.error.geocodeFailed"
)

// Message IDs of the audit trail (audit.Change); {name} is the gateway's
// name and {user} who changed it.
const (
	AuditCreated = "audit.gateway.created"
	AuditMoved   = "audit.gateway.moved"
	AuditDeleted = "audit.gateway.deleted"
)
