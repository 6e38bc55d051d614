package alarms

import (
	"strconv"
	"strings"
	"time"
)

// DefaultMessage is the text of a firing whose rule has no message of its
// own.
const DefaultMessage = "{alarm}: {node} {key} is {value} at {time}"

// Facts fill a message's placeholders.
type Facts struct {
	Alarm  string // the rule's name
	Node   string // the node's name
	DevEUI string
	Key    string
	Value  float64
	Time   time.Time
	// Zone is the company's time zone, in which {time} is written.
	Zone *time.Location
}

// Placeholders are the names a message may hold in braces.
var Placeholders = []string{"alarm", "node", "deveui", "key", "value", "time"}

// Render fills the placeholders of message ({alarm}, {node}, {deveui},
// {key}, {value}, {time}; names in any case) with f; other text, and a
// brace that opens no known name, are kept as written. An empty message is
// DefaultMessage.
func Render(message string, f Facts) string {
	if strings.TrimSpace(message) == "" {
		message = DefaultMessage
	}
	zone := f.Zone
	if zone == nil {
		zone = time.UTC
	}
	values := map[string]string{
		"alarm":  f.Alarm,
		"node":   f.Node,
		"deveui": f.DevEUI,
		"key":    f.Key,
		"value":  strconv.FormatFloat(f.Value, 'f', -1, 64),
		"time":   f.Time.In(zone).Format("2006-01-02 15:04 MST"),
	}
	var b strings.Builder
	for {
		open := strings.IndexByte(message, '{')
		if open < 0 {
			b.WriteString(message)
			return b.String()
		}
		end := strings.IndexByte(message[open:], '}')
		if end < 0 {
			b.WriteString(message)
			return b.String()
		}
		name := strings.ToLower(strings.TrimSpace(message[open+1 : open+end]))
		b.WriteString(message[:open])
		if v, ok := values[name]; ok {
			b.WriteString(v)
		} else {
			b.WriteString(message[open : open+end+1])
		}
		message = message[open+end+1:]
	}
}
