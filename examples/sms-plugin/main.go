// Command sms-plugin is an example SMS provider plugin for Fieldhub: a
// "provider" that writes each message as a JSON file into a folder, which
// is handy while developing alarms. It shows the three things a plugin
// does: implement sms.Provider, report failures with sms's errors, and
// call sms.Serve from main. It also honours the idempotency key (a second
// request with the same key answers the first message's id and writes
// nothing), so it declares itself sms.Idempotent. See README.md.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/fieldhub/fieldhub/sdk/sms"
)

// folderProvider writes messages into a folder: the request's credential
// "folder", else the environment variable SMS_FOLDER.
type folderProvider struct{}

// stored is one message file.
type stored struct {
	ID     string    `json:"id"`
	To     string    `json:"to"`
	From   string    `json:"from"`
	Text   string    `json:"text"`
	SentAt time.Time `json:"sentAt"`
}

func (folderProvider) Send(ctx context.Context, req sms.Request) (sms.Response, error) {
	dir := req.Credentials["folder"]
	if dir == "" {
		dir = os.Getenv("SMS_FOLDER")
	}
	if dir == "" {
		// Nothing was sent: the plugin could not even start.
		return sms.Response{}, sms.PluginFailed("no folder: set the credential folder or SMS_FOLDER")
	}
	if req.To == "" || req.Text == "" {
		// A refusal that stands: retrying the same request cannot help.
		return sms.Response{}, sms.ProviderRefused("invalid", "a message needs a recipient and a text", false)
	}
	key := req.IdempotencyKey
	if key == "" {
		key = time.Now().Format("20060102T150405.000000000")
	}
	sum := sha256.Sum256([]byte(key))
	id := hex.EncodeToString(sum[:8])
	path := filepath.Join(dir, id+".json")
	body, _ := json.MarshalIndent(stored{ID: id, To: req.To, From: req.Sender, Text: req.Text, SentAt: time.Now().UTC()}, "", "  ")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		// Sent before under this key: answer the same id, send nothing.
		return sms.Response{ID: id, Status: "duplicate"}, nil
	}
	if err != nil {
		// The "provider" (the folder) is unavailable, and nothing was written.
		return sms.Response{}, sms.ProviderUnavailable(err.Error(), true)
	}
	if _, err := f.Write(body); err != nil {
		f.Close()
		os.Remove(path)
		return sms.Response{}, sms.ProviderUnavailable(err.Error(), true)
	}
	if err := f.Close(); err != nil {
		return sms.Response{}, sms.ProviderUnavailable(err.Error(), false)
	}
	return sms.Response{ID: id, Status: "written"}, nil
}

// Idempotent: a repeated key writes nothing new.
func (folderProvider) Idempotent() bool { return true }

func main() { sms.Serve(folderProvider{}) }
