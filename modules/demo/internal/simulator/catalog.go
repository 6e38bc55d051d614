package simulator

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/modules/demo"
)

// model makes the values of a node's next uplink.
type model func(s *simNode, now time.Time) map[string]any

// demoEUI is the DevEUI of the demo's node n, as demo.Nodes spells it.
func demoEUI(n int) string { return fmt.Sprintf("F1E1D0DE%08X", n) }

// models are the nodes' models by DevEUI: each makes exactly the keys
// demo.Nodes lists for its node.
var models = map[string]model{
	demoEUI(1):  climate(21.5, 42, 1.2),
	demoEUI(2):  climate(22.3, 38, 0.8),
	demoEUI(3):  climate(19.2, 31, 0.2),
	demoEUI(4):  freezer,
	demoEUI(5):  door,
	demoEUI(6):  tank,
	demoEUI(7):  co2,
	demoEUI(8):  tracker,
	demoEUI(9):  energy,
	demoEUI(10): soil,
	demoEUI(11): weather,
	demoEUI(12): parking,
}

// simNode is a node being simulated: its tag and the state of its values.
type simNode struct {
	demo.Node
	model model
	tagID int64
	rng   *rand.Rand
	start time.Time
	last  time.Time // time of the previous uplink
	walks map[string]*walk
	// radio and battery voltage, sent with every uplink
	rssi, snr walk
	// gateways are the indexes (demo.Gateways) of the gateways that hear it.
	gateways    []int
	battery     float64
	drain       float64 // volts per uplink
	fresh       float64 // volts of a new battery
	open        bool
	count       float64
	kwh         float64
	moisture    float64
	parked      bool
	angle       float64
	stoppedTill time.Time
}

func newSimNode(n demo.Node, tagID, seed int64, now time.Time) *simNode {
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(now.UnixNano())))
	s := &simNode{Node: n, model: models[n.DevEUI], tagID: tagID, rng: rng, start: now, last: now, walks: map[string]*walk{},
		gateways: demo.GatewaysOf(int(seed - 1)),
		rssi:     walk{v: -70 - 4*float64(seed), mean: -70 - 4*float64(seed), sd: 1.5, pull: 0.1, lo: -125, hi: -40},
		snr:      walk{v: 8 - 0.8*float64(seed), mean: 8 - 0.8*float64(seed), sd: 0.6, pull: 0.1, lo: -15, hi: 12},
		battery:  3.6 - 0.02*float64(seed), drain: 0.000002, fresh: 3.6,
		moisture: 38, angle: rng.Float64() * 2 * math.Pi}
	// Energy counted since the start of 2026 at the meter's mean power, so
	// that the counter keeps rising across restarts.
	s.kwh = 2.2 * now.Sub(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)).Hours()
	if n.Type == "Parking sensor" { // the battery-heavy one: a radio that wakes often
		s.battery, s.drain, s.fresh = 3.05, 0.0005, 3.05
	}
	return s
}

// uplink returns the next uplink's generic-form body (without devEui).
func (s *simNode) uplink(now time.Time) map[string]any {
	s.battery -= s.drain
	if s.battery < 2.2 { // replaced
		s.battery = s.fresh
	}
	values := s.model(s, now)
	// Named for its unit, as the node's battery voltage (nodes.BatteryOf):
	// a bare `battery` could be read as a percent.
	values["batteryVoltage"] = round(s.battery, 3)
	s.last = now
	rssi, snr := math.Round(s.rssi.step(s.rng)), round(s.snr.step(s.rng), 1)
	// The gateways that hear the node: the nearest as the node's own
	// reading, the second a little weaker.
	var rx []any
	for k, gi := range s.gateways {
		g := demo.Gateways()[gi]
		rx = append(rx, map[string]any{"gatewayId": strings.ToLower(g.EUI), "rssi": rssi - float64(9*k), "snr": round(snr-float64(3*k), 1)})
	}
	return map[string]any{"values": values, "rssi": rssi, "snr": snr, "rxInfo": rx}
}

// walk is a value that drifts at random and is pulled back to its mean.
type walk struct{ v, mean, sd, pull, lo, hi float64 }

func (w *walk) step(r *rand.Rand) float64 {
	w.v += w.pull*(w.mean-w.v) + w.sd*r.NormFloat64()
	w.v = max(w.lo, min(w.hi, w.v))
	return w.v
}

// walkOf returns the node's walk named key, made from init the first time.
func (s *simNode) walkOf(key string, init walk) *walk {
	w, ok := s.walks[key]
	if !ok {
		w = &init
		s.walks[key] = w
	}
	return w
}

func round(v float64, decimals int) float64 {
	p := math.Pow(10, float64(decimals))
	return math.Round(v*p) / p
}

// day is the daily cycle: -1 at 03:00, 1 at 15:00 local (Stockholm) time.
func day(t time.Time) float64 {
	h := float64(t.UTC().Hour()+1) + float64(t.Minute())/60 // CET, near enough
	return math.Sin(2 * math.Pi * (h - 9) / 24)
}

// occupancy is how busy the buildings are: 0 at night and at weekends,
// rising to 1 around midday on working days.
func occupancy(t time.Time) float64 {
	wd := t.UTC().Weekday()
	if wd == time.Saturday || wd == time.Sunday {
		return 0.05
	}
	h := float64(t.UTC().Hour()+1) + float64(t.Minute())/60
	if h < 7 || h > 18 {
		return 0.02
	}
	return math.Sin(math.Pi * (h - 7) / 11)
}

func climate(temp, hum, people float64) model {
	return func(s *simNode, now time.Time) map[string]any {
		t := s.walkOf("t", walk{v: temp, mean: temp, sd: 0.05, pull: 0.03, lo: temp - 4, hi: temp + 4})
		h := s.walkOf("h", walk{v: hum, mean: hum, sd: 0.3, pull: 0.03, lo: 15, hi: 80})
		return map[string]any{
			"temperature": round(t.step(s.rng)+people*occupancy(now), 1),
			"humidity":    round(h.step(s.rng)+4*people*occupancy(now), 1),
		}
	}
}

func freezer(s *simNode, now time.Time) map[string]any {
	// The compressor runs in cycles of 20 minutes: a saw tooth of 2 °C.
	phase := math.Mod(now.Sub(s.start).Minutes(), 20) / 20
	t := s.walkOf("t", walk{v: 0, mean: 0, sd: 0.05, pull: 0.1, lo: -1, hi: 1})
	v := -19.5 + 2*phase + t.step(s.rng)
	if s.rng.Float64() < 0.01 { // someone leaves the lid open
		v += 3 + 2*s.rng.Float64()
	}
	return map[string]any{"temperature": round(v, 1)}
}

func door(s *simNode, now time.Time) map[string]any {
	if s.open {
		s.open = s.rng.Float64() < 0.3
	} else if s.rng.Float64() < 0.02+0.15*occupancy(now) {
		s.open = true
		s.count++
	}
	return map[string]any{"door": map[string]any{"open": s.open}, "openings": s.count}
}

func tank(s *simNode, now time.Time) map[string]any {
	l := s.walkOf("l", walk{v: 120, mean: 120, sd: 0.4, pull: 0.002, lo: 5, hi: 195})
	w := s.walkOf("w", walk{v: 9, mean: 9, sd: 0.02, pull: 0.01, lo: 2, hi: 20})
	return map[string]any{"level": round(l.step(s.rng), 1), "waterTemperature": round(w.step(s.rng)+1.5*day(now), 1)}
}

func co2(s *simNode, now time.Time) map[string]any {
	c := s.walkOf("c", walk{v: 0, mean: 0, sd: 8, pull: 0.05, lo: -60, hi: 200})
	t := s.walkOf("t", walk{v: 21.4, mean: 21.4, sd: 0.05, pull: 0.03, lo: 18, hi: 26})
	h := s.walkOf("h", walk{v: 41, mean: 41, sd: 0.3, pull: 0.03, lo: 20, hi: 70})
	occ := occupancy(now)
	return map[string]any{
		"co2":         math.Round(430 + 750*occ + c.step(s.rng)),
		"temperature": round(t.step(s.rng)+1.2*occ, 1),
		"humidity":    round(h.step(s.rng)+5*occ, 1),
	}
}

// tracker drives a loop of about 3 km around central Stockholm, with stops.
func tracker(s *simNode, now time.Time) map[string]any {
	const radius = 0.012 // degrees of latitude, about 1.3 km
	dt := now.Sub(s.last).Seconds()
	speed := 0.0
	if now.After(s.stoppedTill) {
		if s.rng.Float64() < 0.02 {
			s.stoppedTill = now.Add(time.Duration(30+s.rng.IntN(90)) * time.Second)
		} else {
			speed = 28 + 14*s.rng.Float64() // km/h
			s.angle += speed / 3.6 * dt / (radius * 111_000)
		}
	}
	lat := 59.3293 + radius*math.Sin(s.angle)
	long := 18.0686 + 2*radius*math.Cos(s.angle) // a degree of longitude is half as long here
	return map[string]any{"lat": round(lat, 6), "long": round(long, 6), "speed": round(speed, 1)}
}

func energy(s *simNode, now time.Time) map[string]any {
	p := s.walkOf("p", walk{v: 0, mean: 0, sd: 40, pull: 0.1, lo: -500, hi: 800})
	watts := 1800 + 1500*occupancy(now) + p.step(s.rng)
	s.kwh += watts * now.Sub(s.last).Hours() / 1000
	return map[string]any{"energy": round(s.kwh, 2), "power": math.Round(watts)}
}

func soil(s *simNode, now time.Time) map[string]any {
	// The bed dries, faster by day, until the irrigation starts.
	s.moisture -= now.Sub(s.last).Hours() * (1.5 + 1.5*max(0, day(now)))
	if s.moisture < 24 {
		s.moisture += 14 + 4*s.rng.Float64()
	}
	t := s.walkOf("t", walk{v: 16, mean: 16, sd: 0.03, pull: 0.02, lo: 5, hi: 30})
	return map[string]any{"soilMoisture": round(s.moisture+0.2*s.rng.NormFloat64(), 1),
		"soilTemperature": round(t.step(s.rng)+2*day(now), 1)}
}

func weather(s *simNode, now time.Time) map[string]any {
	t := s.walkOf("t", walk{v: 0, mean: 0, sd: 0.05, pull: 0.01, lo: -3, hi: 3})
	p := s.walkOf("p", walk{v: 1013, mean: 1013, sd: 0.05, pull: 0.001, lo: 960, hi: 1050})
	w := s.walkOf("w", walk{v: 4, mean: 4, sd: 0.4, pull: 0.05, lo: 0, hi: 25})
	d := day(now)
	return map[string]any{"temperature": round(8+4*d+t.step(s.rng), 1), "humidity": round(78-12*d, 0),
		"pressure": round(p.step(s.rng), 1), "windSpeed": round(w.step(s.rng), 1)}
}

func parking(s *simNode, now time.Time) map[string]any {
	if s.rng.Float64() < 0.03 {
		s.parked = !s.parked
	}
	level := (s.battery - 2.2) / (s.fresh - 2.2) * 100
	return map[string]any{"occupied": s.parked, "batteryLevel": math.Round(max(0, min(100, level)))}
}
