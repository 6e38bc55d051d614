package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
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
// 200 is success; a refusal (4xx but 408, 425 and 429) is final, with The
// Things Stack's reason, and so is an address the portal may not reach
// (kernel/egress); other failures may pass.
func (w *Worker) sendTTS(ctx context.Context, t *target, d *netservers.Downlink) error {
	switch {
	case t.app.TTSDownlinkURL == "":
		return final("the application has no The Things Stack downlink URL")
	case t.ttsKey == "":
		return final("the application has no The Things Stack API key")
	}
	body, err := json.Marshal(ttsDownlinks{Downlinks: []ttsDownlink{{FRMPayload: d.Bytes(), FPort: d.Port, Priority: "NORMAL",
		Confirmed: d.Confirmed, CorrelationIDs: []string{netservers.DownlinkRefTag + netservers.DownlinkRef(d.ID)}}}})
	if err != nil {
		return final("encode the downlink: %v", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ttsDownlinkURL(t.app.TTSDownlinkURL, d.DevEUI), bytes.NewReader(body))
	if err != nil {
		return final("the application's The Things Stack downlink URL is not usable: %v", err)
	}
	req.Header.Set("Authorization", "Bearer "+t.ttsKey)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "Fieldhub")
	res, err := w.http.Do(req)
	if err != nil {
		var refused *egress.RefusedError
		if errors.As(err, &refused) {
			return final("The Things Stack downlink URL: %v", refused)
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // not the address again, which the application shows
		}
		return fmt.Errorf("The Things Stack not reachable: %w", err)
	}
	defer res.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(res.Body, 8<<10))
	switch code := res.StatusCode; {
	case code >= 200 && code < 300:
		return nil
	case code == http.StatusRequestTimeout || code == http.StatusTooEarly || code == http.StatusTooManyRequests || code >= 500:
		return fmt.Errorf("The Things Stack answered %s%s", res.Status, ttsReason(answer))
	default:
		return final("The Things Stack refused the downlink: %s%s", res.Status, ttsReason(answer))
	}
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
