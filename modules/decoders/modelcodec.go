package decoders

// Codec is the decoder key of the model's codec: that of the first
// regional profile with an imported codec, in the last listed firmware
// version that has one; "" when it has none. A device profile made from
// the model, and a node created for it, decode with it.
func (m *DeviceModel) Codec() string {
	for i := len(m.FirmwareVersions) - 1; i >= 0; i-- {
		for _, p := range m.FirmwareVersions[i].Profiles {
			if p.DecoderKey != "" {
				return p.DecoderKey
			}
		}
	}
	return ""
}
