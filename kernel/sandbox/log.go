package sandbox

import (
	"bytes"
	"fmt"
)

// logBuffer collects one call's log lines up to max bytes.
type logBuffer struct {
	max     int
	size    int
	cut     bool
	out     []string
	partial []byte
}

var levelPrefix = [...]string{"", "warn: ", "error: "}

// line adds one console line at a level (0 log, 1 warn, 2 error).
func (l *logBuffer) line(level int32, s string) {
	if level > 0 && int(level) < len(levelPrefix) {
		s = levelPrefix[level] + s
	}
	l.add(s)
}

// write takes raw output (a WASM module's stdout and stderr), split into
// lines.
func (l *logBuffer) write(p []byte) {
	for len(p) > 0 && !l.cut {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			if len(l.partial)+len(p) > l.max {
				l.add(string(l.partial) + string(p))
				l.partial = l.partial[:0]
				return
			}
			l.partial = append(l.partial, p...)
			return
		}
		l.add(string(l.partial) + string(p[:i]))
		l.partial = l.partial[:0]
		p = p[i+1:]
	}
}

func (l *logBuffer) add(s string) {
	if l.cut {
		return
	}
	if l.size+len(s) > l.max {
		l.out = append(l.out, fmt.Sprintf("… log cut at %s", formatBytes(int64(l.max))))
		l.cut = true
		return
	}
	l.size += len(s)
	l.out = append(l.out, s)
}

// lines ends the log and returns it.
func (l *logBuffer) lines() []string {
	if len(l.partial) > 0 {
		l.add(string(l.partial))
		l.partial = nil
	}
	return l.out
}
