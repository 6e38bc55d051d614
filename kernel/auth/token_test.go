package auth

import (
	"strings"
	"testing"
	"time"
)

func TestTokens(t *testing.T) {
	tokens := NewTokens([]byte("a secret of some length for tests"))
	c := Caller{UserID: 7, Role: CompanyAdmin, CompanyID: 3, SessionID: "s1"}
	expires := time.Now().Add(time.Minute).Truncate(time.Second)
	good := tokens.Issue(c, expires)
	body, sig, _ := strings.Cut(good, ".")
	other := NewTokens([]byte("another secret"))
	cases := []struct {
		name  string
		token string
		ok    bool
	}{
		{"valid", good, true},
		{"expired", tokens.Issue(c, time.Now().Add(-time.Second)), false},
		{"other key", other.Issue(c, time.Now().Add(time.Minute)), false},
		{"tampered body", strings.Replace(body, "C", "D", 1) + "." + sig, false},
		{"no signature", body, false},
		{"empty", "", false},
		{"garbage", "!!!.???", false},
		{"unknown role", tokens.Issue(Caller{UserID: 1, Role: "God"}, time.Now().Add(time.Minute)), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tokens.Verify(tc.token)
			if (err == nil) != tc.ok {
				t.Fatalf("err = %v, want ok=%v", err, tc.ok)
			}
			if tc.ok && (!got.Expires.Equal(expires) || got.Expires.IsZero()) {
				t.Errorf("expires %v, want %v", got.Expires, expires)
			}
			got.Expires = time.Time{}
			if tc.ok && got != c {
				t.Errorf("caller %+v, want %+v", got, c)
			}
		})
	}
}

func TestCompanyScope(t *testing.T) {
	cases := []struct {
		c           Caller
		see, manage bool
	}{
		{Caller{Role: SuperAdmin}, true, true},
		{Caller{Role: User, CompanyID: 5}, true, false},
		{Caller{Role: CompanyAdmin, CompanyID: 5}, true, true},
		{Caller{Role: Admin, CompanyID: 6}, false, false},
		{Caller{Role: User}, false, false},
	}
	for _, tc := range cases {
		if got := tc.c.CanSeeCompany(5); got != tc.see {
			t.Errorf("%+v CanSeeCompany(5) = %v", tc.c, got)
		}
		if got := tc.c.CanManageCompany(5); got != tc.manage {
			t.Errorf("%+v CanManageCompany(5) = %v", tc.c, got)
		}
	}
}

// ended is a SessionCheck of a fixed set of ended sessions.
type ended map[string]bool

func (e ended) Ended(id string) bool { return e[id] }

func TestTokensOfEndedSessionsAreRefused(t *testing.T) {
	tokens := NewTokens([]byte("a secret of some length for tests"))
	expires := time.Now().Add(time.Minute)
	live := tokens.Issue(Caller{UserID: 7, Role: User, SessionID: "live"}, expires)
	over := tokens.Issue(Caller{UserID: 7, Role: User, SessionID: "over"}, expires)
	none := tokens.Issue(Caller{UserID: 7, Role: User}, expires)
	if _, err := tokens.Verify(over); err != nil {
		t.Fatalf("without a check every signed token is good: %v", err)
	}
	tokens.CheckSessions(ended{"over": true})
	if _, err := tokens.Verify(live); err != nil {
		t.Errorf("live session refused: %v", err)
	}
	if _, err := tokens.Verify(over); err == nil {
		t.Errorf("ended session accepted")
	}
	if _, err := tokens.Verify(none); err != nil {
		t.Errorf("a token without a session (a program's own) refused: %v", err)
	}
}

// BenchmarkVerify is what every authenticated request pays for its token,
// without and with the session check (a map of 10,000 ended sessions).
func BenchmarkVerify(b *testing.B) {
	tokens := NewTokens([]byte("a secret of some length for tests"))
	token := tokens.Issue(Caller{UserID: 7, Role: CompanyAdmin, CompanyID: 3, SessionID: "AAAAAAAAAAAAAAAA"}, time.Now().Add(time.Hour))
	b.Run("unchecked", func(b *testing.B) {
		for b.Loop() {
			if _, err := tokens.Verify(token); err != nil {
				b.Fatal(err)
			}
		}
	})
	set := ended{}
	for i := range 10000 {
		set[RandomToken(12)+strings.Repeat("x", i%2)] = true
	}
	tokens.CheckSessions(set)
	b.Run("checked", func(b *testing.B) {
		for b.Loop() {
			if _, err := tokens.Verify(token); err != nil {
				b.Fatal(err)
			}
		}
	})
}
