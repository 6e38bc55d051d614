package sandbox

import (
	"context"
	"errors"
	"testing"
	"time"
)

type fakeInstance struct {
	id     int
	closed bool
}

func (f *fakeInstance) close() { f.closed = true }

func TestPool(t *testing.T) {
	t.Parallel()
	made := 0
	p := newPool(2, func(context.Context) (*fakeInstance, error) {
		made++
		return &fakeInstance{id: made}, nil
	})
	ctx := context.Background()
	a, _ := p.get(ctx)
	b, _ := p.get(ctx)
	if a == b || made != 2 || !p.busy() {
		t.Fatalf("two calls get two instances: %v %v", a, b)
	}
	// A third call waits for one of them.
	waiting, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := p.get(waiting); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a call beyond the pool's size: %v", err)
	}
	got := make(chan *fakeInstance)
	go func() {
		c, _ := p.get(ctx)
		got <- c
	}()
	p.put(b)
	if c := <-got; c != b {
		t.Errorf("the waiting call gets the instance put back: %v", c)
	}
	// A discarded instance is closed and its place taken by a new one.
	p.discard(a)
	if !a.closed {
		t.Error("discard closes")
	}
	c, _ := p.get(ctx)
	if c == a || made != 3 {
		t.Errorf("after a discard a new instance is made: %v", c)
	}
	p.put(c)
	p.put(b)
	// The last one back is the first one out.
	if d, _ := p.get(ctx); d != b {
		t.Errorf("last in, first out: %v", d)
	} else {
		p.put(d)
	}
	if n := p.trim(time.Now().Add(time.Hour)); n != 0 || !b.closed || !c.closed {
		t.Errorf("trim closes idle instances: %d left", n)
	}
	p.close()
	if _, err := p.get(ctx); !errors.Is(err, ErrClosed) {
		t.Errorf("get after close: %v", err)
	}
}

func TestLogBuffer(t *testing.T) {
	t.Parallel()
	l := logBuffer{max: 24}
	l.line(0, "one")
	l.line(1, "two")
	l.write([]byte("par"))
	l.write([]byte("tial\nnext\n"))
	l.write([]byte("this line is far too long"))
	l.line(2, "dropped")
	got := l.lines()
	want := []string{"one", "warn: two", "partial", "next", "… log cut at 24 bytes"}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %q, want %q", i, got[i], want[i])
		}
	}
}
