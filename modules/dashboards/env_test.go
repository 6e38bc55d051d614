package dashboards_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// env is a running portal (the whole application, as app.Build makes it)
// on a fresh database: a SuperAdmin ("super"), two companies, Acme and
// Beta, with their CompanyAdmins ("acmeAdmin", "betaAdmin"), a User of Acme
// ("acmeUser"), and in each company an application ({acmeApp}, {betaApp})
// with nodes (Acme: acmeNode with temperature and humidity, acmeNode2;
// Beta: betaNode).
type env struct {
	*kerneltest.Session
	p *kerneltest.Portal[*app.App]
}

const (
	acmeNode  = "70B3D57ED005A1B2"
	acmeNode2 = "70B3D57ED005A1B3"
	betaNode  = "0004A30B001C0530"
)

// newEnv starts the portal; config holds extra options (the weather
// services' addresses).
func newEnv(t *testing.T, d db.Dialect, config map[string]string) *env {
	t.Helper()
	p := kerneltest.Start(t, d, config, app.Build)
	where := map[string]any{"lat": 59.33, "long": 18.06}
	e := &env{p: p, Session: kerneltest.Companies(t, p.Client, p.App,
		kerneltest.CompanySpec{Key: "acme", Name: "Acme", User: true, App: "Field", Nodes: []kerneltest.NodeSpec{
			{Key: "greenhouse", Name: "Greenhouse", DevEUI: acmeNode, More: where}, {Key: "cellar", Name: "Cellar", DevEUI: acmeNode2, More: where}}},
		kerneltest.CompanySpec{Key: "beta", Name: "Beta", App: "Field", Nodes: []kerneltest.NodeSpec{
			{Key: "betaNode", Name: "Beta secret node", DevEUI: betaNode, More: where}}})}
	e.MustDo(t, "acmeAdmin", "POST", "/api/tag/key/add", fmt.Sprintf(`{"tagId":%d,"key":"temperature","label":"Air temperature","unit":"°C","defaultKey":true}`,
		e.tagID(t, "acmeAdmin", acmeNode)), http.StatusCreated, nil)
	return e
}

// tagID finds a node's id through the API.
func (e *env) tagID(t *testing.T, who, eui string) int64 {
	t.Helper()
	var tags []struct {
		ID     int64  `json:"id"`
		DevEUI string `json:"deveui"`
	}
	e.MustDo(t, who, "GET", "/api/tag", "", http.StatusOK, &tags)
	for _, tg := range tags {
		if tg.DevEUI == eui {
			return tg.ID
		}
	}
	t.Fatalf("no tag %s", eui)
	return 0
}

// write stores values of a node of a company: one point per minute back
// from now, newest last.
func (e *env) write(t *testing.T, company, eui, key string, values ...float64) {
	t.Helper()
	s := tsdb.Series{Company: e.ID(t, company), DevEUI: strings.ToLower(eui), Key: key}
	now := time.Now().UTC().Truncate(time.Second)
	pts := make([]tsdb.Point, len(values))
	for i, v := range values {
		pts[i] = tsdb.Number(s, now.Add(-time.Duration(len(values)-1-i)*time.Minute), v)
	}
	if err := e.p.App.Series().Write(context.Background(), pts); err != nil {
		t.Fatal(err)
	}
}

// step is one call and what its answer must hold.
type step = kerneltest.Step[*env]

// run runs steps on a fresh portal of each database.
func run(t *testing.T, config map[string]string, steps []step) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d, config)
		kerneltest.RunSteps(t, e.Session, e, steps)
	})
}

func jsonText(v any) string {
	raw, _ := json.Marshal(v)
	return string(raw)
}
