package nodes

// Message ids of the module's errors; each is a key of the locale catalogs.
const (
	IDAppNameRequired  = "nodes.application.name.required"
	IDAppNameTooLong   = "nodes.application.name.tooLong"
	IDAppNoCompany     = "nodes.application.noCompany"
	IDAppNetworkServer = "nodes.application.networkServer"
	IDAppChirpStackID  = "nodes.application.chirpstackId"
	IDAppTTSURL        = "nodes.application.ttsUrl"
	IDAppTTSPrivate    = "nodes.application.ttsUrlPrivate"
	IDAppHasTags       = "nodes.application.hasTags"
	IDAppUnknown       = "nodes.application.unknown"
	IDDevEUIFormat     = "nodes.deveui.format"
	IDDevEUITaken      = "nodes.deveui.taken"
	IDAppKeyFormat     = "nodes.appKey.format"
	IDAppEUIFormat     = "nodes.appEui.format"
	IDLatRange         = "nodes.lat.range"
	IDLongRange        = "nodes.long.range"
	IDDecoderUnknown   = "nodes.decoder.unknown"
	IDTextInvalid      = "nodes.text.invalid"
	IDKeyFormat        = "nodes.key.format"
	IDKeyTaken         = "nodes.key.taken"
	IDKeyDecimals      = "nodes.key.decimals"
	IDPoolStatus       = "nodes.pool.status"
	IDTokenInvalid     = "nodes.token.invalid"
)

// Message ids of the limit of refused DevEUI claims (claims.go): a company
// that must wait before it registers a node again ({seconds}), and one
// that is paused ({minutes}).
const (
	IDClaimsSlowed  = "nodes.deveui.claimsSlowed"
	IDClaimsBlocked = "nodes.deveui.claimsBlocked"
)

// Message ids of a node's move to another company (POST
// /api/tag/{tagId}/move): no application, or one of the node's own
// company; an AppKey that does not match the node's; no proof of
// ownership, for a node with an AppKey and for one without.
const (
	IDMoveApplication    = "nodes.move.application"
	IDMoveSameCompany    = "nodes.move.sameCompany"
	IDMoveAppKeyMismatch = "nodes.move.appKeyMismatch"
	IDMoveProof          = "nodes.move.proof"
	IDMoveProofNoAppKey  = "nodes.move.proofNoAppKey"
)

// Message ids of the bulk import of nodes (POST
// /api/companies/{companyId}/nodes/import): a file that is not a CSV or
// XLSX spreadsheet, one without its header row (a devEUI column), one over
// the limits ({max} rows, {mib} MiB), an unknown or repeated column
// ({column}), no file; and the reasons a row is refused: a DevEUI that is
// in an earlier row ({row}), an application name that several
// applications have ({name}), a profile that is not the company's ({name}),
// a profile name or decoder key ({name}, {key}) that several profiles'
// names or decoders' keys match but for case, or profiles not being
// available, a position that is not a number, and
// a new DevEUI left unchecked once the file has named as many other
// companies' DevEUIs as the limit of refused claims lets it learn.
// An apply with refused rows is refused as a whole ({count}).
const (
	IDImportFileType         = "nodes.import.fileType"
	IDImportNoHeader         = "nodes.import.noHeader"
	IDImportTooManyRows      = "nodes.import.tooManyRows"
	IDImportTooLarge         = "nodes.import.tooLarge"
	IDImportUnknownColumn    = "nodes.import.unknownColumn"
	IDImportRepeatedColumn   = "nodes.import.repeatedColumn"
	IDImportNoFile           = "nodes.import.noFile"
	IDImportDuplicate        = "nodes.import.duplicate"
	IDImportAppAmbiguous     = "nodes.import.applicationAmbiguous"
	IDImportProfileUnknown   = "nodes.import.profileUnknown"
	IDImportProfileAmbiguous = "nodes.import.profileAmbiguous"
	IDImportDecoderAmbiguous = "nodes.import.decoderAmbiguous"
	IDImportNoProfiles       = "nodes.import.noProfiles"
	IDImportRefused          = "nodes.import.refused"
	IDImportClaims           = "nodes.import.claims"
	IDImportNumber           = "nodes.import.number"
)

// AuditTagsImported is the audit trail's entry of a bulk import: {created}
// nodes created and {changed} changed.
const AuditTagsImported = "audit.node.imported"

// Message ids of the tag data queries.
const (
	IDTagDataTime       = "nodes.tagdata.time"
	IDTagDataRange      = "nodes.tagdata.range"
	IDTagDataMax        = "nodes.tagdata.max"
	IDTagDataResolution = "nodes.tagdata.resolution"
	IDTagDataWindow     = "nodes.tagdata.window"
	IDTagDataTimeZone   = "nodes.tagdata.tz"
	IDTagDataNoKey      = "nodes.tagdata.noKey"
)

// Message ids of the audit trail's entries about applications, nodes,
// their keys and integration tokens (audit.Change); {name} is the
// application's or node's name, {deveui} the node's, {key} a key's name,
// {label} a token's label (never the token).
const (
	AuditAppCreated   = "audit.application.created"
	AuditAppEdited    = "audit.application.edited"
	AuditAppDeleted   = "audit.application.deleted"
	AuditTagCreated   = "audit.node.created"
	AuditTagEdited    = "audit.node.edited"
	AuditTagDeleted   = "audit.node.deleted"
	AuditTagImage     = "audit.node.imageChanged"
	AuditTagImageGone = "audit.node.imageRemoved"
	AuditKeyAdded     = "audit.node.keyAdded"
	AuditKeyEdited    = "audit.node.keyEdited"
	AuditKeyRemoved   = "audit.node.keyRemoved"
	AuditTokenCreated = "audit.token.created"
	AuditTokenRevoked = "audit.token.revoked"
	AuditPoolStatus   = "audit.pool.statusChanged"
)
