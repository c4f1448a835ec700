// Package accounts holds the people who act: users with a role and a domain (a
// court for staff, a fan group for its managers, a club for its operators),
// the actor of a service call derived from a user (Actor), API tokens
// stored as SHA-256, passwords and the sign-in lockout. DOMAIN.md §7;
// ../shared/API.md "Tokens and roles". The Casbin policy that decides what
// each role may call is internal/authz (the authorization), which only
// the HTTP server, cmd/juizado and tests import: the domain packages
// (cases, registry, sanctions) use users and actors without Casbin.
//
// accounts owns the account tables (users, user_passwords, api_tokens,
// login_failures): the other packages read users through it (UserNames,
// CourtJudges, GroupManagers, ClubUsers, ...).
package accounts

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/textcheck"
	"gorm.io/gorm"
)

// Roles are the roles of DOMAIN.md §7.
// The defence (RoleDefence) belongs to no court.
var Roles = []string{"admin", "clerk", "judge", "prosecutor", "police", "fan_group", "club", RoleDefence}

// StaffRoles belong to a court.
var StaffRoles = []string{"admin", "clerk", "judge", "prosecutor", "police"}

// IsRole reports whether r is one of Roles.
func IsRole(r string) bool { return contains(Roles, r) }

// IsStaff reports whether r is one of StaffRoles.
func IsStaff(r string) bool { return contains(StaffRoles, r) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// User is an account: a person or a club's gate system.
type User struct {
	ID        int64
	Name      string
	Role      string
	CourtCode *string `gorm:"column:court_code"`
	Club      *string
	GroupID   *int64
	// OAB is a lawyer's registration ("SP123456"), DefensoriaUF a public
	// defender's state ("SP"): role defence only, exactly one of them
	// (migration 00170).
	OAB          *string `gorm:"column:oab"`
	DefensoriaUF *string `gorm:"column:defensoria"`
	// FullName is the person's name as signed ("Ana Paula Ribeiro") and
	// Title the office under it ("Juíza de Direito"); nil when not given
	// (migration 00280, issue 30 item 4).
	FullName   *string
	Title      *string
	CreatedAt  time.Time
	DisabledAt *time.Time
}

// DisplayName is the name people see: the full name, or the account name
// when the user has none.
func (u User) DisplayName() string {
	if u.FullName != nil && *u.FullName != "" {
		return *u.FullName
	}
	return u.Name
}

// Court returns the user's court code (TR.OOOO) or "".
func (u User) Court() string {
	if u.CourtCode == nil {
		return ""
	}
	return *u.CourtCode
}

// AnyDomain is the domain of a policy rule that applies in every domain
// (internal/authz).
const AnyDomain = "*"

// Domain names the user's domain, as the policy and the audit trail spell
// it: the court code (staff), "group:ID" (fan_group) or "club:NAME" (club).
func (u User) Domain() string { return u.Actor().Domain() }

// ErrUnauthenticated is returned by AuthenticateUntil for a missing, unknown,
// expired or revoked token (HTTP 401).
var ErrUnauthenticated = errors.New("authz: token missing, unknown, expired or revoked")

// HashToken returns the SHA-256 of a token: what the database stores.
func HashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// AuthenticateUntil returns the user of a bearer token valid at now, and
// when the token expires (nil: never), so that a cache of verified tokens
// refuses it on time; ErrUnauthenticated for a token missing, unknown,
// expired, revoked or of a disabled user. One indexed lookup, no slow hash.
func AuthenticateUntil(ctx context.Context, g *gorm.DB, token string, now time.Time) (User, *time.Time, error) {
	if len(token) < 20 || len(token) > 200 {
		return User{}, nil, ErrUnauthenticated
	}
	var row struct {
		User
		TokenExpiresAt *time.Time
	}
	err := db.Conn(ctx, g).Raw(`
		SELECT u.*, t.expires_at AS token_expires_at FROM api_tokens t JOIN users u ON u.id = t.user_id
		WHERE t.token_hash = ? AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > ?)
		  AND u.disabled_at IS NULL`, HashToken(token), now).Scan(&row).Error
	if err != nil {
		return User{}, nil, err
	}
	if row.User.ID == 0 {
		return User{}, nil, ErrUnauthenticated
	}
	return row.User, row.TokenExpiresAt, nil
}

// UserSpec describes the user that CreateToken makes or reuses.
type UserSpec struct {
	Name  string // unique account name
	Role  string // one of Roles
	Court string // TR.OOOO, staff roles only
	Club  string // club role only
	Group int64  // fan_group role only: the group's id
	// OAB ("SP123456", ParseOAB) or Defensoria (a state, ParseUF): role
	// defence only, exactly one of them.
	OAB        string
	Defensoria string
	// FullName and Title (optional, at most 200 characters each): the
	// name and office shown in signature blocks (User.FullName, Title).
	FullName string
	Title    string
}

// CheckPersonText cleans a full name or title (textcheck.Line) and returns
// the rule and message it breaks ("" when none): at most 200 characters,
// no control or invisible character. Empty is allowed (optional fields).
func CheckPersonText(s string) (clean, rule, msg string) {
	clean = textcheck.Line(s)
	rule, msg = textcheck.Problem(clean, 200, false)
	return clean, rule, msg
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// ErrInvalidUser is wrapped by EnsureUser for a spec that breaks a rule.
var ErrInvalidUser = errors.New("authz: invalid user")

// EnsureUser creates the user of spec, or returns the existing user of that
// name when it has the same role and domain (else ErrInvalidUser). The
// court must exist (see cases.EnsureCourt). created reports a new user.
func EnsureUser(ctx context.Context, g *gorm.DB, spec UserSpec) (u User, created bool, err error) {
	spec.Name = textcheck.Line(spec.Name)
	if rule, msg := textcheck.Problem(spec.Name, 200, false); rule != "" {
		return u, false, fmt.Errorf("%w: --name: %s (%s)", ErrInvalidUser, msg, rule)
	}
	if spec.Name == "" {
		return u, false, fmt.Errorf("%w: --name is required", ErrInvalidUser)
	}
	if !IsRole(spec.Role) {
		return u, false, fmt.Errorf("%w: role %q is not one of %s", ErrInvalidUser, spec.Role, strings.Join(Roles, ", "))
	}
	nu := User{Name: spec.Name, Role: spec.Role}
	for _, f := range []struct {
		flag string
		val  *string
		dst  **string
	}{{"--full-name", &spec.FullName, &nu.FullName}, {"--title", &spec.Title, &nu.Title}} {
		clean, rule, msg := CheckPersonText(*f.val)
		if rule != "" {
			return u, false, fmt.Errorf("%w: %s: %s (%s)", ErrInvalidUser, f.flag, msg, rule)
		}
		*f.val, *f.dst = clean, optional(clean)
	}
	switch {
	case IsStaff(spec.Role):
		if spec.Court == "" {
			return u, false, fmt.Errorf("%w: role %s needs --court", ErrInvalidUser, spec.Role)
		}
		nu.CourtCode = &spec.Court
	case spec.Role == "club":
		if strings.TrimSpace(spec.Club) == "" {
			return u, false, fmt.Errorf("%w: role club needs --club", ErrInvalidUser)
		}
		c := textcheck.Line(spec.Club)
		if rule, msg := textcheck.Problem(c, 200, false); rule != "" {
			return u, false, fmt.Errorf("%w: --club: %s (%s)", ErrInvalidUser, msg, rule)
		}
		nu.Club = &c
	case spec.Role == "fan_group":
		if spec.Group <= 0 {
			return u, false, fmt.Errorf("%w: role fan_group needs --group", ErrInvalidUser)
		}
		nu.GroupID = &spec.Group
	case spec.Role == RoleDefence:
		if (spec.OAB == "") == (spec.Defensoria == "") {
			return u, false, fmt.Errorf("%w: o perfil defence exige --oab (advogado: UF e número, como SP123456) ou --defensoria (defensor público: a UF), um dos dois", ErrInvalidUser)
		}
		if spec.OAB != "" {
			oab, err := ParseOAB(spec.OAB)
			if err != nil {
				return u, false, fmt.Errorf("%w: --oab: %s", ErrInvalidUser, err)
			}
			nu.OAB = &oab
		} else {
			uf, err := ParseUF(spec.Defensoria)
			if err != nil {
				return u, false, fmt.Errorf("%w: --defensoria: %s", ErrInvalidUser, err)
			}
			nu.DefensoriaUF = &uf
		}
	}
	conn := db.Conn(ctx, g)
	var existing User
	if err := conn.Where("name = ?", spec.Name).Limit(1).Find(&existing).Error; err != nil {
		return u, false, err
	}
	if existing.ID != 0 {
		if existing.Role != nu.Role || existing.Court() != nu.Court() || ptr(existing.Club) != ptr(nu.Club) || ptr64(existing.GroupID) != ptr64(nu.GroupID) ||
			ptr(existing.OAB) != ptr(nu.OAB) || ptr(existing.DefensoriaUF) != ptr(nu.DefensoriaUF) {
			return u, false, fmt.Errorf("%w: user %q exists with role %s and another domain", ErrInvalidUser, spec.Name, existing.Role)
		}
		return existing, false, nil
	}
	if err := conn.Create(&nu).Error; err != nil {
		if errors.Is(err, gorm.ErrForeignKeyViolated) {
			return u, false, fmt.Errorf("%w: the court or group does not exist", ErrInvalidUser)
		}
		return u, false, err
	}
	return nu, true, nil
}

func ptr(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func ptr64(i *int64) int64 {
	if i == nil {
		return 0
	}
	return *i
}

// NewToken creates a random 256-bit token for the user, stores its SHA-256
// and returns the token (base64url, 43 characters). expires may be zero.
func NewToken(ctx context.Context, g *gorm.DB, userID int64, expires time.Time) (string, error) {
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	tok := base64.RawURLEncoding.EncodeToString(raw[:])
	var exp *time.Time
	if !expires.IsZero() {
		exp = &expires
	}
	err := db.Conn(ctx, g).Exec("INSERT INTO api_tokens (user_id, token_hash, expires_at) VALUES (?, ?, ?)", userID, HashToken(tok), exp).Error
	if err != nil {
		return "", err
	}
	return tok, nil
}

// TableName maps User to the users table.
func (User) TableName() string { return "users" }
