// Package secretbox seals credentials that modules must store and read back
// (an SMS provider's password, say) with AES-256-GCM under a key derived from
// the installation secret, so that a database dump alone does not reveal them.
package secretbox

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
)

// Box seals and opens values.
type Box struct{ aead cipher.AEAD }

// prefix marks a sealed value, so that one stored before sealing is noticed.
const prefix = "sealed:v1:"

// New derives a Box from the installation secret.
func New(secret []byte) *Box {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte("fieldhub secretbox v1"))
	block, _ := aes.NewCipher(mac.Sum(nil))
	aead, _ := cipher.NewGCM(block)
	return &Box{aead: aead}
}

// Seal encrypts plain.
func (b *Box) Seal(plain string) string {
	nonce := make([]byte, b.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		panic(err)
	}
	out := b.aead.Seal(nonce, nonce, []byte(plain), nil)
	return prefix + base64.RawStdEncoding.EncodeToString(out)
}

// ErrNotSealed is returned by Open for a value Seal did not produce, or one
// sealed under another secret.
var ErrNotSealed = errors.New("value is not sealed with this installation's secret")

// Open decrypts a value made by Seal.
func (b *Box) Open(sealed string) (string, error) {
	raw, err := base64.RawStdEncoding.DecodeString(strings.TrimPrefix(sealed, prefix))
	if !strings.HasPrefix(sealed, prefix) || err != nil || len(raw) < b.aead.NonceSize() {
		return "", ErrNotSealed
	}
	n := b.aead.NonceSize()
	plain, err := b.aead.Open(nil, raw[:n], raw[n:], nil)
	if err != nil {
		return "", ErrNotSealed
	}
	return string(plain), nil
}
