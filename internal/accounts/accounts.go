package accounts

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/db"
	"gorm.io/gorm"
)

// ErrNoUser is returned for a user name or id that does not exist.
var ErrNoUser = errors.New("authz: no such user")

// ErrNoToken is returned by RevokeToken for a token id that does not exist.
var ErrNoToken = errors.New("authz: no such token")

// FindUser returns the user called name (enabled or not), or ErrNoUser.
func FindUser(ctx context.Context, g *gorm.DB, name string) (User, error) {
	var u User
	if err := db.Conn(ctx, g).Where("name = ?", strings.TrimSpace(name)).Limit(1).Find(&u).Error; err != nil {
		return u, err
	}
	if u.ID == 0 {
		return u, fmt.Errorf("%w: %q", ErrNoUser, name)
	}
	return u, nil
}

// ActiveUser returns the enabled user of id, or ErrNoUser: what a session
// holds is checked on every request, so disabling a user ends its sessions.
func ActiveUser(ctx context.Context, g *gorm.DB, id int64) (User, error) {
	var u User
	if err := db.Conn(ctx, g).Where("id = ? AND disabled_at IS NULL", id).Limit(1).Find(&u).Error; err != nil {
		return u, err
	}
	if u.ID == 0 {
		return u, ErrNoUser
	}
	return u, nil
}

// ActiveOrDisabledUser returns the user of id, enabled or not (who acted
// in a record), or ErrNoUser.
func ActiveOrDisabledUser(ctx context.Context, g *gorm.DB, id int64) (User, error) {
	var u User
	if err := db.Conn(ctx, g).Where("id = ?", id).Limit(1).Find(&u).Error; err != nil {
		return u, err
	}
	if u.ID == 0 {
		return u, ErrNoUser
	}
	return u, nil
}

// UsersByID returns the users ids (enabled or not) by id; ids with no user
// are absent.
func UsersByID(ctx context.Context, g *gorm.DB, ids []int64) (map[int64]User, error) {
	out := map[int64]User{}
	if len(ids) == 0 {
		return out, nil
	}
	var us []User
	if err := db.Conn(ctx, g).Where("id IN ?", ids).Find(&us).Error; err != nil {
		return nil, err
	}
	for _, u := range us {
		out[u.ID] = u
	}
	return out, nil
}

// SetDisabled disables (disabled true) or enables the user called name. A
// disabled user's tokens answer 401 and its sessions end.
func SetDisabled(ctx context.Context, g *gorm.DB, name string, disabled bool, now time.Time) (User, error) {
	u, err := FindUser(ctx, g, name)
	if err != nil {
		return u, err
	}
	var at *time.Time
	if disabled {
		if u.DisabledAt != nil {
			return u, nil
		}
		at = &now
	}
	if err := db.Conn(ctx, g).Model(&User{}).Where("id = ?", u.ID).Update("disabled_at", at).Error; err != nil {
		return u, err
	}
	u.DisabledAt = at
	return u, nil
}

// ListUsers returns every user by name.
func ListUsers(ctx context.Context, g *gorm.DB) ([]User, error) {
	var us []User
	err := db.Conn(ctx, g).Order("name").Find(&us).Error
	return us, err
}

// inCourt is the condition of the users of a court (TR.OOOO): its staff
// and the managers of the fan groups registered in it (LGE art. 178).
const inCourt = "(court_code = ? OR group_id IN (SELECT id FROM fan_groups WHERE court_code = ?))"

// ListCourtUsers returns the users of court (its staff and the managers of
// its fan groups) by name: what a court's admin manages (DOMAIN.md §7).
func ListCourtUsers(ctx context.Context, g *gorm.DB, court string) ([]User, error) {
	var us []User
	err := db.Conn(ctx, g).Where(inCourt, court, court).Order("name").Find(&us).Error
	return us, err
}

// CourtUser returns the user id of court (staff, or manager of one of its
// fan groups); ok false when there is none, whether the id is unknown or
// of another court.
func CourtUser(ctx context.Context, g *gorm.DB, court string, id int64) (u User, ok bool, err error) {
	err = db.Conn(ctx, g).Where("id = ? AND "+inCourt, id, court, court).Limit(1).Find(&u).Error
	return u, err == nil && u.ID != 0, err
}

// UserNames returns the names people see of the users ids (enabled or
// not) by id: the full name, or the account name of a user without one
// (User.DisplayName); ids with no user are absent. What the docket, the
// hearing list and the signature blocks show of a judge or an author.
func UserNames(ctx context.Context, g *gorm.DB, ids []int64) (map[int64]string, error) {
	out := map[int64]string{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		ID   int64
		Name string
	}
	if err := db.Conn(ctx, g).Raw("SELECT id, COALESCE(full_name, name) AS name FROM users WHERE id IN ?", ids).Scan(&rows).Error; err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.ID] = r.Name
	}
	return out, nil
}

// CourtJudges returns the enabled judges of court (TR.OOOO) by id: those a
// case of the court may be distributed to.
func CourtJudges(ctx context.Context, g *gorm.DB, court string) ([]User, error) {
	var us []User
	err := db.Conn(ctx, g).Where("role = 'judge' AND court_code = ? AND disabled_at IS NULL", court).Order("id").Find(&us).Error
	return us, err
}

// GroupManagers returns the enabled fan_group users of group groupID by id
// (the group's managers, LGE art. 178).
func GroupManagers(ctx context.Context, g *gorm.DB, groupID int64) ([]User, error) {
	var us []User
	err := db.Conn(ctx, g).Where("role = 'fan_group' AND group_id = ? AND disabled_at IS NULL", groupID).Order("id").Find(&us).Error
	return us, err
}

// ClubUsers returns the enabled users of club (its gate systems and
// operators, role club) by name.
func ClubUsers(ctx context.Context, g *gorm.DB, club string) ([]User, error) {
	var us []User
	err := db.Conn(ctx, g).Where("role = 'club' AND club = ? AND disabled_at IS NULL", club).Order("name").Find(&us).Error
	return us, err
}

// Token is an API token's record (never the token itself).
type Token struct {
	ID        int64
	UserID    int64
	CreatedAt time.Time
	ExpiresAt *time.Time
	RevokedAt *time.Time
}

// State tells whether the token is "active", "expired" or "revoked" at now.
func (t Token) State(now time.Time) string {
	switch {
	case t.RevokedAt != nil:
		return "revoked"
	case t.ExpiresAt != nil && !t.ExpiresAt.After(now):
		return "expired"
	}
	return "active"
}

// ListTokens returns the user's tokens, oldest first.
func ListTokens(ctx context.Context, g *gorm.DB, userID int64) ([]Token, error) {
	var ts []Token
	err := db.Conn(ctx, g).Raw(`SELECT id, user_id, created_at, expires_at, revoked_at FROM api_tokens WHERE user_id = ? ORDER BY id`, userID).Scan(&ts).Error
	return ts, err
}

// TokenOwner returns the id of the user token id belongs to, 0 when there
// is no such token.
func TokenOwner(ctx context.Context, g *gorm.DB, id int64) (int64, error) {
	var owner int64
	err := db.Conn(ctx, g).Raw("SELECT user_id FROM api_tokens WHERE id = ?", id).Scan(&owner).Error
	return owner, err
}

// RevokeToken revokes the token of id (already revoked: unchanged) and
// returns it; ErrNoToken when there is none.
func RevokeToken(ctx context.Context, g *gorm.DB, id int64, now time.Time) (Token, error) {
	var t Token
	err := db.WithTx(ctx, g, func(ctx context.Context) error {
		conn := db.Conn(ctx, g)
		if err := conn.Exec(`UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`, now, id).Error; err != nil {
			return err
		}
		return conn.Raw(`SELECT id, user_id, created_at, expires_at, revoked_at FROM api_tokens WHERE id = ?`, id).Scan(&t).Error
	})
	if err == nil && t.ID == 0 {
		err = fmt.Errorf("%w: %d", ErrNoToken, id)
	}
	return t, err
}

// RevokeAll revokes every token of the user not yet revoked and returns
// how many it revoked.
func RevokeAll(ctx context.Context, g *gorm.DB, userID int64, now time.Time) (int64, error) {
	res := db.Conn(ctx, g).Exec(`UPDATE api_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL`, now, userID)
	return res.RowsAffected, res.Error
}

// ParseExpiry reads a token lifetime: "90d" (days), or a Go duration such
// as "12h" or "30m". It must be positive and at most ten years.
func ParseExpiry(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	var d time.Duration
	if n, ok := strings.CutSuffix(s, "d"); ok {
		var days int
		if _, err := fmt.Sscanf(n, "%d", &days); err != nil || fmt.Sprint(days) != n {
			return 0, fmt.Errorf("--expires %q: use days (90d) or a duration (12h)", s)
		}
		d = time.Duration(days) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			return 0, fmt.Errorf("--expires %q: use days (90d) or a duration (12h)", s)
		}
	}
	if d <= 0 || d > 10*366*24*time.Hour {
		return 0, fmt.Errorf("--expires %q: must be positive and at most ten years", s)
	}
	return d, nil
}
