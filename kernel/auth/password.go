package auth

import (
	"crypto/rand"
	"encoding/base64"
	"errors"

	"golang.org/x/crypto/bcrypt"
)

// HashPassword returns a bcrypt hash of password.
func HashPassword(password string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
	return string(h), err
}

// CheckPassword reports whether password matches hash.
func CheckPassword(hash, password string) bool {
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)) == nil
}

// dummyHash is compared against when a login names no known user, so that the
// answer takes as long as for a known user with a wrong password.
var dummyHash, _ = bcrypt.GenerateFromPassword([]byte("no such user"), bcrypt.DefaultCost)

// BurnPasswordCheck spends the time of one password check.
func BurnPasswordCheck(password string) {
	_ = bcrypt.CompareHashAndPassword(dummyHash, []byte(password))
}

// ErrPasswordTooLong is returned for passwords bcrypt cannot hash.
var ErrPasswordTooLong = bcrypt.ErrPasswordTooLong

// IsPasswordTooLong reports whether err is ErrPasswordTooLong.
func IsPasswordTooLong(err error) bool { return errors.Is(err, bcrypt.ErrPasswordTooLong) }

// RandomToken returns n random bytes as base64url text.
func RandomToken(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return base64.RawURLEncoding.EncodeToString(b)
}
