package widgetdata

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// CompanyInfo is what the company info module shows.
type CompanyInfo struct {
	Name          string  `json:"name"`
	OrgNumber     string  `json:"orgNumber"`
	PostalAddress string  `json:"postalAdress"`
	ContactPhone  string  `json:"contactPhonenumber"`
	ContactEmail  string  `json:"invoiceAdress"`
	Image         *string `json:"image"`
}

// NodeInfo is what the node info and node overview modules (and map pins)
// show of a node.
type NodeInfo struct {
	DevEUI        string     `json:"deveui"`
	Name          string     `json:"name"`
	Lat           *float64   `json:"lat"`
	Long          *float64   `json:"long"`
	Battery       *float64   `json:"battery"`
	RSSI          *float64   `json:"rssi"`
	SNR           *float64   `json:"snr"`
	LatestTime    *time.Time `json:"latestTime"`
	ActiveData    bool       `json:"activeData"`
	LatestValue   any        `json:"latestValue"`
	DataPoints24h int64      `json:"dataPoints24h"`
	// BatteryVoltage is in volts and Battery in percent (nodes.Tag).
	BatteryVoltage *float64 `json:"batteryVoltage"`
}

// Info is the answer of GET .../info.
type Info struct {
	Company *CompanyInfo `json:"company"`
	Nodes   []NodeInfo   `json:"nodes"`
}

// Info answers GET .../info of a module of a company: the company (company
// info modules only) and the nodes the module shows: every node of the
// company for a node overview, and for a map without nodes of its own;
// else its node and the nodes of its series and positions. Through a
// public link (public) the company has no logo, whose route needs a
// session.
func (r *Reader) Info(ctx context.Context, wd *dashboards.Widget, companyID int64, public bool) (*Info, error) {
	out := &Info{Nodes: []NodeInfo{}}
	if wd.Type == dashboards.TypeCompanyInfo {
		c, err := r.accounts.Company(ctx, companyID)
		if err != nil {
			return nil, err
		}
		out.Company = &CompanyInfo{Name: c.Name, OrgNumber: c.OrgNumber, PostalAddress: c.PostalAddress,
			ContactPhone: c.ContactPhone, ContactEmail: c.ContactEmail, Image: c.Image}
		if c.Image == nil && c.ImageVersion != nil {
			img := "/api/companies/" + strconv.FormatInt(c.ID, 10) + "/image?v=" + *c.ImageVersion
			out.Company.Image = &img
		}
		if public {
			out.Company.Image = nil
		}
		return out, nil
	}
	var tags []*nodes.Tag
	refs, err := r.seriesOf(ctx, wd, companyID)
	if err != nil {
		return nil, err
	}
	if wd.Type == dashboards.TypeNodeOverview || (wd.Type == dashboards.TypeMap && wd.Tag == "" && len(refs) == 0) {
		if tags, err = r.nodes.CompanyTags(ctx, companyID); err != nil {
			return nil, err
		}
	} else {
		n := r.nodeInfo(ctx, companyID)
		seen := map[string]bool{}
		euis := []string{}
		if wd.Tag != "" {
			euis = append(euis, wd.Tag)
		}
		for _, ref := range refs {
			euis = append(euis, ref.DevEUI)
		}
		for _, eui := range euis {
			if seen[eui] {
				continue
			}
			seen[eui] = true
			t, err := n.tag(eui)
			if err != nil {
				return nil, err
			}
			if t != nil {
				tags = append(tags, t)
			}
		}
	}
	counts := map[string]int64{}
	if len(tags) > 0 {
		now := time.Now().UTC()
		if counts, err = r.series.CountByNode(ctx, companyID, now.Add(-24*time.Hour), now); err != nil {
			return nil, err
		}
	}
	for _, t := range tags {
		ni := NodeInfo{DevEUI: t.DevEUI, Name: t.Name, Lat: t.Lat, Long: t.Long, Battery: t.Battery, RSSI: t.RSSI,
			LatestTime: t.LatestTime, ActiveData: t.ActiveData, LatestValue: t.LatestValue,
			DataPoints24h: counts[strings.ToLower(t.DevEUI)], BatteryVoltage: t.BatteryVoltage}
		if snr, ok := t.Data["snr"].(float64); ok {
			ni.SNR = &snr
		}
		out.Nodes = append(out.Nodes, ni)
	}
	return out, nil
}
