package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/egress"
	"github.com/fieldhub/fieldhub/modules/netservers"
)

// ttsDownlinks is the body of The Things Stack's webhook downlink queue
// operations (ApplicationDownlinks): frm_payload in base64, f_port 1-223
// here, and a correlation id by which its downlink_ack, _nack, _sent and
// _failed webhook messages name the downlink.
type ttsDownlinks struct {
	Downlinks []ttsDownlink `json:"downlinks"`
}

type ttsDownlink struct {
	FRMPayload     []byte   `json:"frm_payload"`
	FPort          int      `json:"f_port"`
	Priority       string   `json:"priority"`
	Confirmed      bool     `json:"confirmed"`
	CorrelationIDs []string `json:"correlation_ids"`
}

// sendTTS pushes d to the end of the device's queue at The Things Stack.
// 200 is success; a refusal (4xx but 408, 425 and 429) is final, and so is
// an address the portal may not reach (kernel/egress); other failures may
// pass. The company is told what kind of failure it was; The Things
// Stack's answer, the address a name resolved to and the resolver's words
// go to the server log.
func (w *Worker) sendTTS(ctx context.Context, t *target, d *netservers.Downlink) error {
	switch {
	case t.app.TTSDownlinkURL == "":
		return final(netservers.IDFailNoTTSURL, errors.New("the application has no The Things Stack downlink URL"))
	case t.ttsKey == "":
		return final(netservers.IDFailNoTTSKey, errors.New("the application has no The Things Stack API key"))
	}
	body, err := json.Marshal(ttsDownlinks{Downlinks: []ttsDownlink{{FRMPayload: d.Bytes(), FPort: d.Port, Priority: "NORMAL",
		Confirmed: d.Confirmed, CorrelationIDs: []string{netservers.DownlinkRefTag + netservers.DownlinkRef(d.ID)}}}})
	if err != nil {
		return final(netservers.IDFailInternal, fmt.Errorf("encode the downlink: %w", err))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ttsDownlinkURL(t.app.TTSDownlinkURL, d.DevEUI), bytes.NewReader(body))
	if err != nil {
		return final(netservers.IDFailBadURL, fmt.Errorf("the application's The Things Stack downlink URL is not usable: %w", err))
	}
	req.Header.Set("Authorization", "Bearer "+t.ttsKey)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "Fieldhub")
	res, err := w.http.Do(req)
	if err != nil {
		return unreachable(err)
	}
	defer res.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(res.Body, 8<<10))
	status := map[string]any{"status": res.Status}
	switch code := res.StatusCode; {
	case code >= 200 && code < 300:
		return nil
	case code == http.StatusRequestTimeout || code == http.StatusTooEarly || code == http.StatusTooManyRequests || code >= 500:
		return passing(netservers.IDFailTTSAnswered, status, fmt.Errorf("The Things Stack answered %s%s", res.Status, ttsReason(answer)))
	default:
		f := &failure{id: netservers.IDFailTTSRefused, args: status, final: true,
			err: fmt.Errorf("The Things Stack refused the downlink: %s%s", res.Status, ttsReason(answer))}
		if name := ttsErrorName(answer); name != "" {
			f.id, f.args["reason"] = netservers.IDFailTTSRefusedBecause, name
		}
		return f
	}
}

// ttsError is the form of The Things Stack's error names
// ("error:pkg/auth/rights:no_application_rights (no rights)").
var ttsError = regexp.MustCompile(`^error:[a-z0-9_/.-]+:[a-z0-9_]+( \([^()]{0,120}\))?$`)

// ttsErrorName is the error name of The Things Stack's error body, which
// tells the company what to mend (its API key's rights, a device it does
// not know); "" for a body of another form, whose text goes to the server
// log only: the portal does not read back what any server answers.
func ttsErrorName(body []byte) string {
	var e struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &e) != nil || !ttsError.MatchString(e.Message) {
		return ""
	}
	return e.Message
}

// unreachable is the failure of a request to The Things Stack that got no
// answer: an address the portal may not reach (final), a name not found, a
// timeout, or another network failure.
func unreachable(err error) error {
	var refused *egress.RefusedError
	var dns *net.DNSError
	var ne net.Error
	switch {
	case errors.As(err, &refused):
		return final(netservers.IDFailPrivateAddress, fmt.Errorf("The Things Stack downlink URL: %w", refused))
	case errors.As(err, &dns) && !dns.IsTimeout:
		return passing(netservers.IDFailUnknownHost, nil, fmt.Errorf("The Things Stack not reachable: %w", err))
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout():
		return passing(netservers.IDFailTimeout, nil, fmt.Errorf("The Things Stack not reachable: %w", err))
	}
	return passing(netservers.IDFailUnreachable, nil, fmt.Errorf("The Things Stack not reachable: %w", err))
}

// ttsDownlinkURL fills in an application's downlink URL for a device:
// {devEui} becomes its DevEUI in lower case, {devId} The Things Stack's
// default end device id, "eui-" and that DevEUI. A URL without them is
// used as it is.
func ttsDownlinkURL(pattern, devEUI string) string {
	eui := strings.ToLower(devEUI)
	return strings.NewReplacer("{devEui}", eui, "{devId}", "eui-"+eui).Replace(pattern)
}

// ttsReason renders the message of The Things Stack's error body
// ({"code": 5, "message": "error:pkg/...:name (text)", "details": [...]}),
// or the start of a body of another shape.
func ttsReason(body []byte) string {
	var e struct {
		Message string `json:"message"`
	}
	text := strings.TrimSpace(string(body))
	if json.Unmarshal(body, &e) == nil && e.Message != "" {
		text = e.Message
	}
	if text == "" {
		return ""
	}
	return ": " + clip(text, 300)
}
