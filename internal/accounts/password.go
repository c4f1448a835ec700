package accounts

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/juizado/juizado/internal/db"
	"golang.org/x/crypto/argon2"
	"gorm.io/gorm"
)

// Argon2id parameters for people's passwords (OWASP's minimum for
// argon2id: 19 MiB, 2 passes, 1 lane). They are stored in each hash, so
// raising them later keeps old hashes verifiable.
const (
	argonMemory  = 19 * 1024 // KiB
	argonTime    = 2
	argonThreads = 1
	argonKeyLen  = 32
	argonSaltLen = 16
)

// Password length bounds, in characters.
const (
	MinPasswordLen = 10
	MaxPasswordLen = 256
)

// ErrWeakPassword is returned by SetPassword for a password outside the
// length bounds.
var ErrWeakPassword = fmt.Errorf("authz: the password must have %d to %d characters", MinPasswordLen, MaxPasswordLen)

// ErrBadCredentials is returned by CheckPassword for an unknown or disabled
// user, a user without a password, or a wrong password (one error for all,
// so that the answer does not tell which).
var ErrBadCredentials = errors.New("authz: wrong user name or password")

// hashSlots bounds the argon2id computations running at once (each takes
// argonMemory), so that a flood of logins cannot exhaust memory.
var hashSlots = make(chan struct{}, 4)

// HashPassword returns the PHC string of an argon2id hash of pw with a
// random salt: $argon2id$v=19$m=...,t=...,p=...$salt$hash.
func HashPassword(pw string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	hashSlots <- struct{}{}
	key := argon2.IDKey([]byte(pw), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	<-hashSlots
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		enc.EncodeToString(salt), enc.EncodeToString(key)), nil
}

// VerifyPassword reports whether pw matches the PHC string phc, in
// constant time.
func VerifyPassword(phc, pw string) bool {
	parts := strings.Split(phc, "$")
	if len(parts) != 6 || parts[1] != "argon2id" || parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return false
	}
	var m uint32
	var t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m == 0 || m > 1<<20 || t == 0 || t > 16 || p == 0 {
		return false
	}
	enc := base64.RawStdEncoding
	salt, err1 := enc.DecodeString(parts[4])
	want, err2 := enc.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 || len(want) > 64 {
		return false
	}
	hashSlots <- struct{}{}
	got := argon2.IDKey([]byte(pw), salt, t, m, p, uint32(len(want)))
	<-hashSlots
	return subtle.ConstantTimeCompare(got, want) == 1
}

// dummyHash is verified against when the user does not exist, so that an
// unknown name costs the same time as a wrong password.
var dummyHash, _ = HashPassword("juizado: no such user")

// CheckPasswordLength returns ErrWeakPassword for a password outside the
// length bounds.
func CheckPasswordLength(pw string) error {
	if n := utf8.RuneCountInString(pw); n < MinPasswordLen || n > MaxPasswordLen || !utf8.ValidString(pw) {
		return ErrWeakPassword
	}
	return nil
}

// SetPassword stores a new argon2id hash of pw for the user (table
// user_passwords; its audit rows hide the hash).
func SetPassword(ctx context.Context, g *gorm.DB, userID int64, pw string) error {
	if err := CheckPasswordLength(pw); err != nil {
		return err
	}
	h, err := HashPassword(pw)
	if err != nil {
		return err
	}
	return db.Conn(ctx, g).Exec(`INSERT INTO user_passwords (user_id, hash) VALUES (?, ?)
		ON CONFLICT (user_id) DO UPDATE SET hash = EXCLUDED.hash, updated_at = now()`, userID, h).Error
}

// HasPassword reports whether the user called name (enabled or not) has a
// password set.
func HasPassword(ctx context.Context, g *gorm.DB, name string) (bool, error) {
	var n int64
	err := db.Conn(ctx, g).Raw("SELECT count(*) FROM user_passwords p JOIN users u ON u.id = p.user_id WHERE u.name = ?", strings.TrimSpace(name)).Scan(&n).Error
	return n > 0, err
}

// CheckPassword returns the enabled user called name whose password is pw,
// or ErrBadCredentials.
func CheckPassword(ctx context.Context, g *gorm.DB, name, pw string) (User, error) {
	var row struct {
		User
		Hash *string
	}
	if len(name) > 200 || len(pw) > 4*MaxPasswordLen {
		return User{}, ErrBadCredentials
	}
	err := db.Conn(ctx, g).Raw(`SELECT u.*, p.hash FROM users u LEFT JOIN user_passwords p ON p.user_id = u.id
		WHERE u.name = ? AND u.disabled_at IS NULL`, name).Scan(&row).Error
	if err != nil {
		return User{}, err
	}
	if row.ID == 0 || row.Hash == nil {
		VerifyPassword(dummyHash, pw)
		return User{}, ErrBadCredentials
	}
	if !VerifyPassword(*row.Hash, pw) {
		return User{}, ErrBadCredentials
	}
	return row.User, nil
}
