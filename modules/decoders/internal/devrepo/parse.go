// Package devrepo reads The Things Network's device repository
// (TheThingsNetwork/lorawan-devices) in its published layout: the vendor
// folder's index.yaml lists the vendors; each vendor's index.yaml lists its
// device models (endDevices); a model's file names its firmware versions
// with their profiles per region and codec ids; a codec's file
// (<codec id>.yaml) names the JavaScript files of its uplinkDecoder,
// downlinkEncoder and downlinkDecoder, with their examples. It also
// verifies a codec against its examples (verify.go) and opens uploaded
// archives (archive.go).
package devrepo

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"

	"gopkg.in/yaml.v3"
)

// Repository is what Read found.
type Repository struct {
	Vendors []Vendor
	// Codecs by vendor id and codec id.
	Codecs []Codec
	// Problems are the files that could not be read, each with why; what
	// they hold is left out.
	Problems []string
}

// Vendor is one vendor with its models.
type Vendor struct {
	ID, Name, Website, Logo string
	Models                  []Model
}

// Model is one device model.
type Model struct {
	ID, Name, Description, Picture string
	Firmware                       []Firmware
}

// Firmware is one firmware version with its profiles per region.
type Firmware struct {
	Version  string
	Profiles []Profile
}

// Profile is a region's profile of a firmware version.
type Profile struct {
	Region, ID, Codec string
}

// Codec is one codec file with its scripts' source.
type Codec struct {
	Vendor, ID string
	// Source is the script: the uplink decoder's file, followed by the
	// downlink encoder's and decoder's files when they are other files.
	Source   string
	Uplink   []Example
	Downlink []Example // downlinkEncoder's examples
	// HasEncoder tells that the codec file names a downlinkEncoder.
	HasEncoder bool
}

// Example is one of a codec's examples: Input and Output as the file gives
// them.
type Example struct {
	Description string
	FPort       int
	Bytes       []byte
	Data        map[string]any
	// Out is the expected output: data, warnings, errors (uplink), bytes
	// and fPort (downlink).
	OutData     map[string]any
	OutBytes    []byte
	OutFPort    *int
	OutWarnings []string
	OutErrors   []string
	HasData     bool // the output gives data (or bytes)
}

// PictureBase is where a model's photo is linked to: the published
// repository's files, since an import keeps no photos (an archive's are
// skipped) and the photo's name in a checkout is the same there.
const PictureBase = "https://raw.githubusercontent.com/TheThingsNetwork/lorawan-devices/master/"

// idPattern is the repository's spelling of vendor, model and codec ids:
// lower-case letters, digits and dashes.
var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

type vendorIndex struct {
	Vendors []struct {
		ID      string `yaml:"id"`
		Name    string `yaml:"name"`
		Website string `yaml:"website"`
		Logo    string `yaml:"logo"`
		Draft   bool   `yaml:"draft"`
	} `yaml:"vendors"`
}

type modelIndex struct {
	EndDevices []string `yaml:"endDevices"`
}

type modelFile struct {
	Name             string `yaml:"name"`
	Description      string `yaml:"description"`
	FirmwareVersions []struct {
		Version  string `yaml:"version"`
		Profiles map[string]struct {
			ID    string `yaml:"id"`
			Codec string `yaml:"codec"`
		} `yaml:"profiles"`
	} `yaml:"firmwareVersions"`
	Photos struct {
		Main string `yaml:"main"`
	} `yaml:"photos"`
}

type codecPart struct {
	FileName string `yaml:"fileName"`
	Examples []struct {
		Description string `yaml:"description"`
		Input       struct {
			FPort int            `yaml:"fPort"`
			Bytes []int          `yaml:"bytes"`
			Data  map[string]any `yaml:"data"`
		} `yaml:"input"`
		Output *struct {
			Data     map[string]any `yaml:"data"`
			Bytes    []int          `yaml:"bytes"`
			FPort    *int           `yaml:"fPort"`
			Warnings []string       `yaml:"warnings"`
			Errors   []string       `yaml:"errors"`
		} `yaml:"output"`
	} `yaml:"examples"`
}

type codecFile struct {
	UplinkDecoder   *codecPart `yaml:"uplinkDecoder"`
	DownlinkEncoder *codecPart `yaml:"downlinkEncoder"`
	DownlinkDecoder *codecPart `yaml:"downlinkDecoder"`
}

// Read reads the repository whose vendor folder is fsys. Only a missing or
// unreadable index.yaml is an error.
func Read(fsys fs.FS) (*Repository, error) {
	var idx vendorIndex
	if err := readYAML(fsys, "index.yaml", &idx); err != nil {
		return nil, err
	}
	r := &Repository{}
	for _, v := range idx.Vendors {
		if v.Draft || !idPattern.MatchString(v.ID) {
			continue
		}
		var mi modelIndex
		if err := readYAML(fsys, path.Join(v.ID, "index.yaml"), &mi); err != nil {
			if _, statErr := fs.Stat(fsys, v.ID); statErr == nil {
				r.Problems = append(r.Problems, err.Error())
			}
			continue // a vendor without devices: listed, no folder
		}
		vendor := Vendor{ID: v.ID, Name: v.Name, Website: v.Website, Logo: v.Logo}
		codecs := map[string]bool{}
		for _, id := range mi.EndDevices {
			if !idPattern.MatchString(id) {
				r.Problems = append(r.Problems, fmt.Sprintf("%s/index.yaml: device id %q is not a repository id", v.ID, id))
				continue
			}
			m, err := readModel(fsys, v.ID, id)
			if err != nil {
				r.Problems = append(r.Problems, err.Error())
				continue
			}
			for _, f := range m.Firmware {
				for _, p := range f.Profiles {
					if p.Codec != "" {
						codecs[p.Codec] = true
					}
				}
			}
			vendor.Models = append(vendor.Models, m)
		}
		r.Vendors = append(r.Vendors, vendor)
		for _, id := range sortedKeys(codecs) {
			if !idPattern.MatchString(id) {
				r.Problems = append(r.Problems, fmt.Sprintf("%s: codec id %q is not a repository id", v.ID, id))
				continue
			}
			c, err := readCodec(fsys, v.ID, id)
			if err != nil {
				r.Problems = append(r.Problems, err.Error())
				continue
			}
			r.Codecs = append(r.Codecs, c)
		}
	}
	return r, nil
}

func readModel(fsys fs.FS, vendor, id string) (Model, error) {
	var f modelFile
	if err := readYAML(fsys, path.Join(vendor, id+".yaml"), &f); err != nil {
		return Model{}, err
	}
	m := Model{ID: id, Name: f.Name, Description: f.Description}
	if m.Name == "" {
		m.Name = id
	}
	if f.Photos.Main != "" {
		m.Picture = PictureBase + "vendor/" + vendor + "/" + path.Clean("/" + f.Photos.Main)[1:]
	}
	for _, fw := range f.FirmwareVersions {
		v := Firmware{Version: fw.Version, Profiles: []Profile{}}
		for _, region := range sortedKeys(fw.Profiles) {
			p := fw.Profiles[region]
			v.Profiles = append(v.Profiles, Profile{Region: region, ID: p.ID, Codec: p.Codec})
		}
		m.Firmware = append(m.Firmware, v)
	}
	return m, nil
}

func readCodec(fsys fs.FS, vendor, id string) (Codec, error) {
	name := path.Join(vendor, id+".yaml")
	var f codecFile
	if err := readYAML(fsys, name, &f); err != nil {
		return Codec{}, err
	}
	if f.UplinkDecoder == nil || f.UplinkDecoder.FileName == "" {
		return Codec{}, fmt.Errorf("%s: no uplinkDecoder fileName", name)
	}
	c := Codec{Vendor: vendor, ID: id, HasEncoder: f.DownlinkEncoder != nil && f.DownlinkEncoder.FileName != ""}
	seen := map[string]bool{}
	for _, part := range []*codecPart{f.UplinkDecoder, f.DownlinkEncoder, f.DownlinkDecoder} {
		if part == nil || part.FileName == "" || seen[part.FileName] {
			continue
		}
		seen[part.FileName] = true
		b, err := fs.ReadFile(fsys, path.Join(vendor, path.Clean("/" + part.FileName)[1:]))
		if err != nil {
			return Codec{}, fmt.Errorf("%s: %s: %w", name, part.FileName, err)
		}
		if c.Source != "" {
			c.Source += "\n;\n"
		}
		c.Source += string(b)
	}
	c.Uplink = examples(f.UplinkDecoder)
	c.Downlink = examples(f.DownlinkEncoder)
	return c, nil
}

func examples(p *codecPart) []Example {
	if p == nil {
		return nil
	}
	var list []Example
	for _, e := range p.Examples {
		x := Example{Description: e.Description, FPort: e.Input.FPort, Bytes: toBytes(e.Input.Bytes), Data: e.Input.Data}
		if o := e.Output; o != nil {
			x.OutData, x.OutBytes, x.OutFPort, x.OutWarnings, x.OutErrors = o.Data, toBytes(o.Bytes), o.FPort, o.Warnings, o.Errors
			x.HasData = o.Data != nil || o.Bytes != nil
		}
		list = append(list, x)
	}
	return list
}

func toBytes(in []int) []byte {
	if in == nil {
		return nil
	}
	b := make([]byte, len(in))
	for i, v := range in {
		b[i] = byte(v)
	}
	return b
}

func readYAML(fsys fs.FS, name string, v any) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := yaml.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
