package decoders

import "strings"

// Search is the part of the catalog that q asks for: the vendors whose
// name or id matches every word of q keep all their models, the others only
// the models whose name, id or description (with the vendor's name) match
// every word; vendors left without models are left out. The codecs are those
// the kept models use, and those whose key matches q. Matching ignores case;
// an empty q is the whole catalog. The catalog holds a few hundred models,
// so one pass in memory answers faster than a query per field would.
func (c *DeviceCatalog) Search(q string) *DeviceCatalog {
	words := strings.Fields(strings.ToLower(q))
	if len(words) == 0 {
		return c
	}
	out := &DeviceCatalog{Vendors: []Vendor{}, Codecs: []DeviceCodec{}}
	used := map[string]bool{}
	for _, v := range c.Vendors {
		vendorText := v.ID + " " + v.Name
		whole := matchesAll(vendorText, words)
		kept := v
		kept.Models = nil
		for _, m := range v.Models {
			if whole || matchesAll(vendorText+" "+m.ModelID+" "+m.Name+" "+m.Description, words) {
				kept.Models = append(kept.Models, m)
				for _, k := range m.DecoderKeys() {
					used[k] = true
				}
			}
		}
		if len(kept.Models) > 0 {
			out.Vendors = append(out.Vendors, kept)
		}
	}
	for _, codec := range c.Codecs {
		if used[codec.Key] || matchesAll(codec.Key+" "+codec.VendorName, words) {
			out.Codecs = append(out.Codecs, codec)
		}
	}
	return out
}

func matchesAll(text string, words []string) bool {
	text = strings.ToLower(text)
	for _, w := range words {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// Codec is the imported codec of key, nil when the catalog has none.
func (c *DeviceCatalog) Codec(key string) *DeviceCodec {
	for i := range c.Codecs {
		if c.Codecs[i].Key == key {
			return &c.Codecs[i]
		}
	}
	return nil
}

// DecoderKeys lists the keys of the imported codecs the model's profiles
// name, each once, in the order of its firmware versions and regions.
func (m *DeviceModel) DecoderKeys() []string {
	var keys []string
	seen := map[string]bool{}
	for _, f := range m.FirmwareVersions {
		for _, p := range f.Profiles {
			if p.DecoderKey != "" && !seen[p.DecoderKey] {
				seen[p.DecoderKey] = true
				keys = append(keys, p.DecoderKey)
			}
		}
	}
	return keys
}

// DeviceDetails is one model of the catalog with its vendor and the
// imported codecs its profiles name (active versions, with their example
// results): the answer of GET /api/devices/{vendorId}/{modelId}.
type DeviceDetails struct {
	Vendor Vendor        `json:"vendor"`
	Model  DeviceModel   `json:"model"`
	Codecs []DeviceCodec `json:"codecs"`
}
