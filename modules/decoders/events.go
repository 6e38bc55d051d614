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
