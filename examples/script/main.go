// Command script is an example compiled script: the dew point of the
// triggering uplink's temperature and humidity, written to its node, and a
// notification when the last hour's temperature never fell below it (a
// surface stays wet). It is served through the ABI of
// github.com/fieldhub/fieldhub/sdk/script. Build it with
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o bin/script-example.wasm ./examples/script
//
// and give bin/script-example.wasm, base64, as the "module" of a triggered
// script (POST /api/script/{companyId}).
package main

import (
	"math"
	"time"

	"github.com/fieldhub/fieldhub/sdk/script"
)

func init() {
	script.Run(dewPoint)
}

func dewPoint(h *script.Host) (any, error) {
	t := h.Trigger()
	if t == nil {
		return nil, script.ErrNoTrigger
	}
	temp, ok1 := t.Values["temperature"].(float64)
	hum, ok2 := t.Values["humidity"].(float64)
	if !ok1 || !ok2 || hum <= 0 {
		return "no temperature and humidity", nil
	}
	g := math.Log(hum/100) + 17.62*temp/(243.12+temp)
	dp := math.Round(243.12*g/(17.62-g)*100) / 100
	h.Write(t.TagID, map[string]any{"dew_point": dp}, t.Time)
	wet := true
	for _, p := range h.Range(t.TagID, "temperature", t.Time.Add(-time.Hour), t.Time, 60) {
		if v, ok := p.Value.(float64); ok && v > dp+1 {
			wet = false
		}
	}
	if wet {
		h.Notify(t.Name+": the temperature stayed at the dew point for an hour", "Condensation")
	}
	return dp, nil
}

func main() {}
