package forwarder

import (
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fieldhub/fieldhub/kernel/egress"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/forwarding"
)

// headers a company may not set: the transport's own and the signature's.
var reservedHeaders = map[string]bool{"Content-Type": true, "Content-Length": true, "Host": true, "Connection": true,
	"Transfer-Encoding": true, forwarding.HeaderSignature: true, forwarding.HeaderTimestamp: true}

// apply validates in onto t (all: a new target, every field given) and
// seals the secret and password.
func (f *Forwarder) apply(t *forwarding.Target, in forwarding.Input, all bool) error {
	v := &errs.Validation{}
	if all || in.Name != nil {
		t.Name = strings.TrimSpace(str(in.Name))
		if t.Name == "" || utf8.RuneCountInString(t.Name) > forwarding.MaxName || !cleanText(t.Name) {
			v.Add("name", forwarding.IDNameInvalid)
		}
	}
	if all || in.Kind != nil {
		t.Kind = strings.ToLower(strings.TrimSpace(str(in.Kind)))
		if t.Kind != forwarding.KindWebhook && t.Kind != forwarding.KindMQTT {
			v.Add("kind", forwarding.IDKindInvalid)
			return v.Err()
		}
	}
	if in.Enabled != nil {
		t.Enabled = *in.Enabled
	}
	if all || in.URL != nil || in.Kind != nil {
		if in.URL != nil || all {
			t.URL = strings.TrimSpace(str(in.URL))
		}
		switch u, ok := parseURL(t.URL, t.Kind); {
		case !ok:
			v.Add("url", forwarding.IDURLInvalid)
		case !f.allowPrivate && !publicHost(u.Hostname()):
			v.Add("url", forwarding.IDURLPrivate)
		}
	}
	if all || in.Headers != nil {
		t.Headers = map[string]string{}
		if in.Headers != nil {
			for k, val := range *in.Headers {
				name := http.CanonicalHeaderKey(strings.TrimSpace(k))
				if name == "" || !validHeaderName(name) || reservedHeaders[name] || len(val) > forwarding.MaxHeaderLen || !cleanText(val) {
					v.Add("headers", forwarding.IDHeadersInvalid)
					break
				}
				t.Headers[name] = strings.TrimSpace(val)
			}
			if len(t.Headers) > forwarding.MaxHeaders {
				v.Add("headers", forwarding.IDHeadersInvalid)
			}
		}
	}
	if in.Secret != nil && *in.Secret != "" {
		s := strings.TrimSpace(*in.Secret)
		if len(s) < 8 || len(s) > forwarding.MaxSecret || !cleanText(s) {
			v.Add("secret", forwarding.IDSecretInvalid)
		}
		t.SealedSecret = f.box.Seal(s)
	} else if in.ClearSecret {
		t.SealedSecret = ""
	}
	if all || in.Username != nil {
		t.Username = strings.TrimSpace(str(in.Username))
		if len(t.Username) > forwarding.MaxUsername || !cleanText(t.Username) {
			v.Add("username", forwarding.IDUsernameInvalid)
		}
	}
	if in.Password != nil && *in.Password != "" {
		if len(*in.Password) > forwarding.MaxPassword || !cleanText(*in.Password) {
			v.Add("password", forwarding.IDPasswordInvalid)
		}
		t.SealedPassword = f.box.Seal(*in.Password)
	} else if in.ClearPassword {
		t.SealedPassword = ""
	}
	if all || in.Topic != nil {
		t.Topic = strings.TrimSpace(str(in.Topic))
	}
	if t.Kind == forwarding.KindMQTT && !validTopic(t.Topic) {
		v.Add("topic", forwarding.IDTopicInvalid)
	}
	if t.Kind == forwarding.KindWebhook && t.SealedSecret == "" && !v.Has("secret") {
		v.Add("secret", forwarding.IDSecretInvalid)
	}
	return v.Err()
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// parseURL reads a target's address: http(s) for a webhook, mqtt(s),
// tcp, ssl or tls for a broker.
func parseURL(s, kind string) (*url.URL, bool) {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.Hostname() == "" || len(s) > forwarding.MaxURL || !cleanText(s) || u.User != nil {
		return nil, false
	}
	switch kind {
	case forwarding.KindWebhook:
		return u, u.Scheme == "http" || u.Scheme == "https"
	case forwarding.KindMQTT:
		switch u.Scheme {
		case "mqtt", "tcp", "mqtts", "ssl", "tls":
			return u, true
		}
	}
	return nil, false
}

// publicHost reports whether a host may be on the public internet: a
// name ("localhost" aside), which is resolved and checked at each
// connection (kernel/egress), or an address egress allows. Telling a
// literal private address at once saves the company a queue that fails.
func publicHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return false
	}
	a, err := netip.ParseAddr(host)
	return err != nil || egress.Check(a) == nil
}

// validTopic reports whether a topic template makes a topic to publish
// to: not empty, no wildcards, no NUL.
func validTopic(s string) bool {
	return s != "" && len(s) <= forwarding.MaxTopic && !strings.ContainsAny(s, "+#\x00") && utf8.ValidString(s)
}

func validHeaderName(s string) bool {
	for _, r := range s {
		if r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("!#$%&'*+-.^_`|~", r)) {
			return false
		}
	}
	return true
}

// cleanText refuses control characters and invalid UTF-8.
func cleanText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}
