package nodes

// RawOnlyDecoders knows the one decoder that needs no code: "raw", which
// keeps a payload as it came. main.go uses it until the decoders module
// provides the full list.
type RawOnlyDecoders struct{}

// Has reports whether key is "raw".
func (RawOnlyDecoders) Has(key string) bool { return key == "raw" }
