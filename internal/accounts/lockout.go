package accounts

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/db"
	"gorm.io/gorm"
)

// Lockout bounds password guessing: PerAccount failed logins for one account
// name, or PerIP from one address, within Window lock that account or
// address until the oldest of those failures is Window old (so about Window
// after a burst). An address is locked only out of the accounts it has
// failed on within the window (behind a proxy every user shares
// one address, and an attacker there must not lock out everyone else); the
// accounts it never attacked stay open from it. Failures live in
// login_failures (not audited).
type Lockout struct {
	Window     time.Duration
	PerAccount int
	PerIP      int
}

// DefaultLockout: 5 failures per account or 20 per address in 15 minutes
// lock for 15 minutes.
var DefaultLockout = Lockout{Window: 15 * time.Minute, PerAccount: 5, PerIP: 20}

// LockedError is returned by Login while the account or the address is
// locked.
type LockedError struct{ Until time.Time }

func (e *LockedError) Error() string {
	return "authz: too many failed logins; locked until " + e.Until.Format(time.RFC3339)
}

// ErrLocked matches a *LockedError with errors.Is.
var ErrLocked = errors.New("authz: locked")

// Is makes errors.Is(err, ErrLocked) true.
func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// accountKey is how failures are counted per account: the name as typed,
// trimmed and lower-cased, bounded.
func accountKey(name string) string {
	k := strings.ToLower(strings.TrimSpace(name))
	if len(k) > 200 {
		k = k[:200]
	}
	return k
}

// Login checks name and pw under the lockout: *LockedError while locked
// (the password is not even tried), ErrBadCredentials on a failure (which
// is recorded; failures is then the account's recent count, for slowing
// the answer), the user on success (which clears the account's failures).
// Attempts on one account are serialised (an advisory lock), so parallel
// guesses cannot slip past the limit.
func (l Lockout) Login(ctx context.Context, g *gorm.DB, name, pw, ip string, now time.Time) (u User, failures int, err error) {
	failures, err = l.Guard(ctx, g, name, ip, now, func(ctx context.Context) (bool, error) {
		var err error
		u, err = CheckPassword(ctx, g, strings.TrimSpace(name), pw)
		if errors.Is(err, ErrBadCredentials) {
			return false, nil
		}
		return err == nil, err
	})
	if err == nil && u.ID == 0 {
		err = ErrBadCredentials
	}
	return u, failures, err
}

// Guard runs try, a proof of who the caller is (a password; the public
// contest's CPF, birth date and case number), under the lockout of key
// (an account name, or any other name of what is guessed) and address
// ip, in one transaction: *LockedError while locked (try does not run);
// try's false is a failure, recorded and committed, failures being then
// the key's recent count; try's true clears the key's failures and keeps
// what try wrote. Attempts on one key are serialised (an advisory lock).
func (l Lockout) Guard(ctx context.Context, g *gorm.DB, key, ip string, now time.Time, try func(ctx context.Context) (bool, error)) (failures int, err error) {
	acct := accountKey(key)
	err = db.WithTx(ctx, g, func(ctx context.Context) error {
		conn := db.Conn(ctx, g)
		if err := conn.Exec("SELECT pg_advisory_xact_lock(hashtextextended(?, 7))", "login:"+acct).Error; err != nil {
			return err
		}
		until, err := l.lockedUntil(ctx, g, acct, ip, now)
		if err != nil {
			return err
		}
		if !until.IsZero() {
			return &LockedError{Until: until}
		}
		ok, err := try(ctx)
		if err != nil {
			return err
		}
		if !ok {
			if err := conn.Exec("INSERT INTO login_failures (account, ip, at) VALUES (?, ?, ?)", acct, ip, now).Error; err != nil {
				return err
			}
			var n int64
			if err := conn.Raw("SELECT count(*) FROM login_failures WHERE account = ? AND at > ?", acct, now.Add(-l.Window)).Scan(&n).Error; err != nil {
				return err
			}
			failures = int(n)
			return nil // commit the failure; reported by the caller
		}
		return conn.Exec("DELETE FROM login_failures WHERE account = ?", acct).Error
	})
	return failures, err
}

// lockedUntil returns when the lock on acct or ip ends, or zero.
func (l Lockout) lockedUntil(ctx context.Context, g *gorm.DB, acct, ip string, now time.Time) (time.Time, error) {
	var until time.Time
	for _, q := range []struct {
		col, val string
		limit    int
	}{{"account", acct, l.PerAccount}, {"ip", ip, l.PerIP}} {
		if q.limit <= 0 || q.val == "" {
			continue
		}
		if q.col == "ip" {
			var tried int64
			if err := db.Conn(ctx, g).Raw("SELECT count(*) FROM login_failures WHERE ip = ? AND account = ? AND at > ?", ip, acct, now.Add(-l.Window)).Scan(&tried).Error; err != nil {
				return time.Time{}, err
			}
			if tried == 0 {
				continue // an account this address has not attacked
			}
		}
		var ats []struct{ At time.Time }
		err := db.Conn(ctx, g).Raw("SELECT at FROM login_failures WHERE "+q.col+" = ? AND at > ? ORDER BY at DESC LIMIT ?",
			q.val, now.Add(-l.Window), q.limit).Scan(&ats).Error
		if err != nil {
			return time.Time{}, err
		}
		if len(ats) >= q.limit {
			if t := ats[len(ats)-1].At.Add(l.Window); t.After(until) {
				until = t
			}
		}
	}
	return until, nil
}

// PurgeLoginFailures deletes failures older than the window.
func (l Lockout) PurgeLoginFailures(ctx context.Context, g *gorm.DB, now time.Time) error {
	return db.Conn(ctx, g).Exec("DELETE FROM login_failures WHERE at < ?", now.Add(-l.Window)).Error
}
