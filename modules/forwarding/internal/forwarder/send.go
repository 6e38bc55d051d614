package forwarder

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"

	"github.com/eclipse/paho.golang/paho"

	"github.com/fieldhub/fieldhub/kernel/egress"
	"github.com/fieldhub/fieldhub/modules/forwarding"
)

// sender delivers the bodies of one target, in the order given.
type sender interface {
	send(ctx context.Context, body []byte) error
	close()
}

// sender returns the sender of t; its secret and password are opened
// here, so that a delivery never holds them longer than it runs.
func (f *Forwarder) sender(t *forwarding.Target) sender {
	if t.Kind == forwarding.KindMQTT {
		pw, err := f.open(t.SealedPassword)
		return &mqttSender{f: f, t: t, password: pw, openErr: err}
	}
	secret, err := f.open(t.SealedSecret)
	return &webhook{f: f, t: t, secret: secret, openErr: err}
}

func (f *Forwarder) open(sealed string) (string, error) {
	if sealed == "" {
		return "", nil
	}
	s, err := f.box.Open(sealed)
	if err != nil {
		return "", errors.New("the stored secret cannot be opened (the installation's secret changed): enter it again")
	}
	return s, nil
}

// webhook POSTs each body to the target's URL, signed.
type webhook struct {
	f       *Forwarder
	t       *forwarding.Target
	secret  string
	openErr error
}

func (w *webhook) send(ctx context.Context, body []byte) error {
	if w.openErr != nil {
		return w.openErr
	}
	_, err := w.post(ctx, body)
	return err
}

// post sends body and returns the answer's status; an answer other than
// 2xx is an error that names it.
func (w *webhook) post(ctx context.Context, body []byte) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.t.URL, bytes.NewReader(body))
	if err != nil {
		return 0, fmt.Errorf("webhook request: %w", err)
	}
	for k, v := range w.t.Headers {
		req.Header.Set(k, v)
	}
	ts := w.f.now().Unix()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Fieldhub-Forwarding")
	req.Header.Set(forwarding.HeaderTimestamp, strconv.FormatInt(ts, 10))
	req.Header.Set(forwarding.HeaderSignature, forwarding.Sign(w.secret, ts, body))
	resp, err := w.f.http.Do(req)
	if err != nil {
		return 0, unwrapURLError(err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		text := string(bytes.TrimSpace(answer))
		if text != "" {
			text = ": " + clip(text, 200)
		}
		return resp.StatusCode, fmt.Errorf("HTTP %d%s", resp.StatusCode, text)
	}
	return resp.StatusCode, nil
}

func (w *webhook) close() {}

// unwrapURLError drops the method and URL that net/http puts around an
// error: the target's page shows the URL already.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// mqttSender publishes each body with QoS 1 on one connection, opened at
// the first body and closed with the sender. The session is clean and the
// client id unique: the queue the broker would keep is the database's.
type mqttSender struct {
	f        *Forwarder
	t        *forwarding.Target
	password string
	openErr  error
	client   *paho.Client
}

func (m *mqttSender) send(ctx context.Context, body []byte) error {
	if m.openErr != nil {
		return m.openErr
	}
	var u forwarding.Uplink
	if err := json.Unmarshal(body, &u); err != nil {
		return fmt.Errorf("read queued uplink: %w", err)
	}
	if m.client == nil {
		c, err := m.connect(ctx)
		if err != nil {
			return err
		}
		m.client = c
	}
	pctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	if _, err := m.client.Publish(pctx, &paho.Publish{Topic: forwarding.Topic(m.t.Topic, u), QoS: 1, Payload: body}); err != nil {
		m.close() // the next body reconnects
		return fmt.Errorf("MQTT publish: %w", err)
	}
	return nil
}

func (m *mqttSender) connect(ctx context.Context) (*paho.Client, error) {
	u, err := url.Parse(m.t.URL)
	if err != nil {
		return nil, fmt.Errorf("broker URL: %w", err)
	}
	tlsOn := u.Scheme == "mqtts" || u.Scheme == "ssl" || u.Scheme == "tls"
	port := u.Port()
	if port == "" {
		port = "1883"
		if tlsOn {
			port = "8883"
		}
	}
	cctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	conn, err := egress.Dialer(m.f.allowPrivate).DialContext(cctx, "tcp", net.JoinHostPort(u.Hostname(), port))
	if err != nil {
		return nil, fmt.Errorf("connect to the MQTT broker: %w", err)
	}
	if tlsOn {
		tc := tls.Client(conn, &tls.Config{ServerName: u.Hostname(), MinVersion: tls.VersionTLS12})
		if err := tc.HandshakeContext(cctx); err != nil {
			conn.Close()
			return nil, fmt.Errorf("TLS with the MQTT broker: %w", err)
		}
		conn = tc
	}
	suffix := make([]byte, 4)
	_, _ = rand.Read(suffix)
	id := "fieldhub-fwd-" + strconv.FormatInt(m.t.ID, 10) + "-" + hex.EncodeToString(suffix)
	c := paho.NewClient(paho.ClientConfig{Conn: conn, ClientID: id})
	cp := &paho.Connect{ClientID: id, KeepAlive: 30, CleanStart: true, Username: m.t.Username, UsernameFlag: m.t.Username != ""}
	if m.password != "" {
		cp.Password, cp.PasswordFlag = []byte(m.password), true
	}
	ca, err := c.Connect(cctx, cp)
	if err != nil {
		conn.Close()
		if ca != nil && ca.ReasonCode != 0 {
			return nil, fmt.Errorf("the MQTT broker refused the connection (reason code %d)", ca.ReasonCode)
		}
		return nil, fmt.Errorf("connect to the MQTT broker: %w", err)
	}
	return c, nil
}

func (m *mqttSender) close() {
	if m.client != nil {
		_ = m.client.Disconnect(&paho.Disconnect{ReasonCode: 0})
		m.client = nil
	}
}
