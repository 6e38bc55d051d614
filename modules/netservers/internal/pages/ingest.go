package pages

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Setup is the network server setup of the application page, a
// nodes.ApplicationSection: where the application's network server is to
// send what it hears (the portal's public address and the ingest route),
// the header that carries the integration token, a checklist of the
// network server's own settings, and a status that turns green when the
// first uplink arrives (the first-uplink island follows the live feed).
type Setup struct {
	host   *kernel.Host
	tokens netservers.CompanyTokens
}

// NewSetup returns the section; register it with the application pages.
func NewSetup(host *kernel.Host, tokens netservers.CompanyTokens) *Setup {
	return &Setup{host: host, tokens: tokens}
}

// setupView is what the section shows of an application.
type setupView struct {
	App *nodes.Application
	// URL is the address to paste into the network server.
	URL string
	// Tokens are the company's integration tokens, newest first.
	Tokens []nodes.Token
	// Last is the node of the application that reported last, nil while
	// none has.
	Last *nodes.Tag
	// Props are the first-uplink island's props (JSON).
	Props string
}

// ApplicationSection draws the setup for a with its nodes tags; see
// nodes.ApplicationSection.
func (s *Setup) ApplicationSection(r *http.Request, a *nodes.Application, tags []*nodes.Tag) (templ.Component, error) {
	list, err := s.tokens.CompanyTokens(r.Context(), a.CompanyID)
	if err != nil {
		return nil, err
	}
	v := &setupView{App: a, URL: ingestURL(s.host.Config.PublicURL, a.NetworkServer), Tokens: list, Last: lastReported(tags)}
	v.Props = firstUplinkProps(a, tags, v.Last)
	return ingestSetup(v), nil
}

// ingestURL is the address a network server of the given kind
// (nodes.NetworkChirpStack, ...) posts to on the portal at publicURL. For
// ChirpStack it has no event parameter: ChirpStack adds ?event=up,
// ?event=join and so on itself.
func ingestURL(publicURL, networkServer string) string {
	base := strings.TrimRight(publicURL, "/")
	switch networkServer {
	case nodes.NetworkChirpStack:
		return base + netservers.RouteChirpStack
	case nodes.NetworkTTS:
		return base + netservers.RouteTTS
	}
	return base + netservers.RouteGeneric
}

// lastReported is the node whose latest report is the newest, nil when no
// node has reported.
func lastReported(tags []*nodes.Tag) *nodes.Tag {
	var last *nodes.Tag
	for _, t := range tags {
		if t.LatestTime != nil && (last == nil || t.LatestTime.After(*last.LatestTime)) {
			last = t
		}
	}
	return last
}

// firstUplinkIsland are the first-uplink island's props: the company whose
// feed it follows (the application's), the application and its
// nodes' DevEUIs (upper case), and the node that reported last.
type firstUplinkIsland struct {
	CompanyID     int64         `json:"companyId,omitempty"`
	ApplicationID int64         `json:"applicationId"`
	DevEUIs       []string      `json:"deveuis"`
	Last          *reportedNode `json:"last,omitempty"`
}

// reportedNode is a node that reported, as the island shows it.
type reportedNode struct {
	Name   string    `json:"name"`
	DevEUI string    `json:"deveui"`
	Time   time.Time `json:"time"`
}

func firstUplinkProps(a *nodes.Application, tags []*nodes.Tag, last *nodes.Tag) string {
	p := firstUplinkIsland{CompanyID: a.CompanyID, ApplicationID: a.ID, DevEUIs: make([]string, len(tags))}
	for i, t := range tags {
		p.DevEUIs[i] = strings.ToUpper(t.DevEUI)
	}
	if last != nil {
		p.Last = &reportedNode{Name: last.Name, DevEUI: strings.ToUpper(last.DevEUI), Time: last.LatestTime.UTC()}
	}
	b, err := json.Marshal(p)
	if err != nil { // strings, numbers and times only: cannot happen
		return "{}"
	}
	return string(b)
}
