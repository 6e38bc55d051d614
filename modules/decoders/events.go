package decoders

// VersionActivated is published once a version of a company's own decoder
// has become the active one and the change is committed: the first
// version of a new decoder, a new version saved active, or a roll back or
// forward. From then on the decoder's uplinks are decoded with it (within a
// few seconds on the other instances).
type VersionActivated struct {
	CompanyID int64
	DecoderID int64
	// Key is the decoder key nodes name it by (CustomKey(DecoderID)).
	Key string
	// Version is the number of the version now active.
	Version int
}

// Topic names the event.
func (VersionActivated) Topic() string { return "decoders.version_activated" }

// DecoderSwitchedOff is published once a company's own decoder has been
// switched off for breaking the sandbox's limits in decodes in a row (see
// SwitchOff), by the instance that switched it off, for what tells people
// about it (the notifications, once they exist). The company's log entry
// comes from the ingest, which sees Output.SwitchOff of the call that was
// the last straw and names that call's node.
type DecoderSwitchedOff struct {
	CompanyID int64
	// Key is the decoder key nodes name it by (CustomKey(DecoderID)).
	Key string
	SwitchOff
}

// Topic names the event.
func (DecoderSwitchedOff) Topic() string { return "decoders.decoder_switched_off" }
