package decoders

// Message IDs (locale catalog keys) of the module's errors.
const (
	// IDUnknown: a decoder key that is not in the catalog of the company.
	IDUnknown = "decoders.unknown"
	// IDNotStarted: the sandbox is not running (the module was not
	// started, or the binary lacks quickjs.wasm).
	IDNotStarted = "decoders.notStarted"
	// IDInUse: a decoder that nodes still use cannot be deleted; the
	// error names them (count, nodes).
	IDInUse = "decoders.inUse"
)

// Message IDs of the field errors of a company's own decoders.
const (
	IDKindInvalid    = "decoders.kind.invalid"
	IDNameTaken      = "decoders.name.taken"
	IDSourceInvalid  = "decoders.source.invalid"
	IDSourceTooLarge = "decoders.source.tooLarge"
	IDModuleInvalid  = "decoders.module.invalid"
	IDModuleTooLarge = "decoders.module.tooLarge"
	IDModuleBase64   = "decoders.module.base64"
	// IDCodecOne: a version (or a test call) takes one codec, not two.
	IDCodecOne = "decoders.codec.one"
	// IDVersionUnknown: no such version of the decoder.
	IDVersionUnknown = "decoders.version.unknown"
)

// Message IDs of the field errors of a company's limits.
const (
	IDLimitTime   = "decoders.limits.time"
	IDLimitMemory = "decoders.limits.memory"
)

// Message IDs of the field errors of the test call.
const (
	IDTestHex          = "decoders.test.hex"
	IDTestBase64       = "decoders.test.base64"
	IDTestPayloadLarge = "decoders.test.payloadTooLarge"
	IDTestPayloadOne   = "decoders.test.payloadOne"
	IDTestFPort        = "decoders.test.fPort"
	IDTestCodecNeeded  = "decoders.test.codecNeeded"
)

// Message ids of the audit trail's entries about a company's own decoders
// and its limits (audit.Change); {name} is the decoder's name, {version} a
// version's number. A version's code is never in an entry.
const (
	AuditCreated     = "audit.decoder.created"
	AuditRenamed     = "audit.decoder.renamed"
	AuditDeleted     = "audit.decoder.deleted"
	AuditVersion     = "audit.decoder.versionAdded"
	AuditActivated   = "audit.decoder.activated"
	AuditSwitchedOn  = "audit.decoder.switchedOn"
	AuditLimits      = "audit.decoder.limitsSet"
	AuditLimitsReset = "audit.decoder.limitsReset"
)

// Message ids of the device repository import and the downlink encoders.
const (
	// IDRepoIndex: the archive or folder holds no vendor/index.yaml.
	IDRepoIndex = "decoders.repo.index"
	// IDRepoArchive: the upload is no .tar.gz or .zip archive.
	IDRepoArchive = "decoders.repo.archive"
	// IDNoEncoder: the node's decoder has no encodeDownlink.
	IDNoEncoder = "decoders.encode.none"
	// IDEncodeFailed: the encoder refused the object ({errors}).
	IDEncodeFailed = "decoders.encode.failed"
)
