package accounts

import (
	"context"
	"time"

	"github.com/juizado/juizado/internal/db"
	"gorm.io/gorm"
)

// Accounts are the people's accounts over one database: users, their
// sign-in (with the login lockout), their sessions' checks and their API
// tokens. It is the accounts service the HTTP packages call (built once by
// app.New); each method is the package function of the same name on DB.
// Safe for concurrent use.
type Accounts struct {
	DB *gorm.DB
	// Lockout slows and locks repeated failed logins (DefaultLockout).
	Lockout Lockout
}

// FindUser returns the user called name (FindUser).
func (a *Accounts) FindUser(ctx context.Context, name string) (User, error) {
	return FindUser(ctx, a.DB, name)
}

// ActiveUser returns the enabled user id, or ErrNoUser (ActiveUser).
func (a *Accounts) ActiveUser(ctx context.Context, id int64) (User, error) {
	return ActiveUser(ctx, a.DB, id)
}

// SetDisabled disables or enables the user name at now (SetDisabled).
func (a *Accounts) SetDisabled(ctx context.Context, name string, disabled bool, now time.Time) (User, error) {
	return SetDisabled(ctx, a.DB, name, disabled, now)
}

// ListCourtUsers lists the users of court (ListCourtUsers).
func (a *Accounts) ListCourtUsers(ctx context.Context, court string) ([]User, error) {
	return ListCourtUsers(ctx, a.DB, court)
}

// CourtUser returns user id when it belongs to court (CourtUser).
func (a *Accounts) CourtUser(ctx context.Context, court string, id int64) (User, bool, error) {
	return CourtUser(ctx, a.DB, court, id)
}

// CourtJudges lists the enabled judges of court (CourtJudges).
func (a *Accounts) CourtJudges(ctx context.Context, court string) ([]User, error) {
	return CourtJudges(ctx, a.DB, court)
}

// ClubUsers lists the users of club (ClubUsers).
func (a *Accounts) ClubUsers(ctx context.Context, club string) ([]User, error) {
	return ClubUsers(ctx, a.DB, club)
}

// ListTokens lists the API tokens of userID (ListTokens).
func (a *Accounts) ListTokens(ctx context.Context, userID int64) ([]Token, error) {
	return ListTokens(ctx, a.DB, userID)
}

// TokenOwner returns the user id that token id belongs to (TokenOwner).
func (a *Accounts) TokenOwner(ctx context.Context, id int64) (int64, error) {
	return TokenOwner(ctx, a.DB, id)
}

// RevokeToken revokes token id at now (RevokeToken).
func (a *Accounts) RevokeToken(ctx context.Context, id int64, now time.Time) (Token, error) {
	return RevokeToken(ctx, a.DB, id, now)
}

// NewToken issues an API token for userID until expires (zero: no expiry;
// NewToken).
func (a *Accounts) NewToken(ctx context.Context, userID int64, expires time.Time) (string, error) {
	return NewToken(ctx, a.DB, userID, expires)
}

// AuthenticateUntil returns the enabled user of a bearer token and the
// token's expiry (AuthenticateUntil).
func (a *Accounts) AuthenticateUntil(ctx context.Context, token string, now time.Time) (User, *time.Time, error) {
	return AuthenticateUntil(ctx, a.DB, token, now)
}

// Login checks name's password pw from address ip under the lockout
// (Lockout.Login).
func (a *Accounts) Login(ctx context.Context, name, pw, ip string, now time.Time) (User, int, error) {
	return a.Lockout.Login(ctx, a.DB, name, pw, ip, now)
}

// Purge deletes the expired sessions and the failed logins older than the
// lockout's window (Lockout.PurgeLoginFailures).
func (a *Accounts) Purge(ctx context.Context, now time.Time) error {
	if err := db.Conn(ctx, a.DB).Exec("DELETE FROM sessions WHERE expiry < now()").Error; err != nil {
		return err
	}
	return a.Lockout.PurgeLoginFailures(ctx, a.DB, now)
}

// SetPassword gives user id a new password (SetPassword): 10 to 200
// characters, stored as a slow hash.
func (a *Accounts) SetPassword(ctx context.Context, id int64, pw string) error {
	return SetPassword(ctx, a.DB, id, pw)
}
