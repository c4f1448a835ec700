package registry

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/audit"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/textcheck"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Groups keeps the organised fan groups (torcidas organizadas, LGE art. 178)
// and their member registers (art. 178 § 4º): the group's managers write
// only their own register; prosecutors, police, clerks and judges read the
// registers of their court, and each of their reads is recorded
// (member_reads and the audit trail, audit_log); nobody else reads a
// register (DOMAIN.md §5, §7).
type Groups struct {
	DB    *gorm.DB
	Clock clock.Clock
	Loc   *time.Location // the court's zone (America/Sao_Paulo)
}

// StaleAfterMonths: a register not updated for this long is flagged (the
// group must keep it up to date, LGE art. 178 § 4º).
const StaleAfterMonths = 12

// Roles that read the registers of their court (DOMAIN.md §7).
var registerReaders = map[string]bool{"prosecutor": true, "police": true, "clerk": true, "judge": true}

// FanGroup is a registered organised fan group, legal entity (CNPJ) or de
// facto (LGE art. 178 § 2º), in a court.
type FanGroup struct {
	ID                int64
	Name              string
	CNPJ              *string `gorm:"column:cnpj"`
	SupportedClub     string
	Status            string
	CourtCode         *string
	CreatedBy         *int64
	RegisterUpdatedAt *time.Time
	CreatedAt         time.Time
}

// TableName maps FanGroup to fan_groups.
func (FanGroup) TableName() string { return "fan_groups" }

// GroupInput is the body of POST /api/v1/groups.
type GroupInput struct {
	Name          string  `json:"name"`
	CNPJ          *string `json:"cnpj"`
	SupportedClub string  `json:"supported_club"`
}

// Manager is a user who keeps a group's register (role fan_group).
type Manager struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// GroupView is a group as the API shows it: the register's last update and
// whether it is stale (not updated for 12 months).
type GroupView struct {
	ID                int64      `json:"id"`
	Name              string     `json:"name"`
	CNPJ              *string    `json:"cnpj"`
	DeFacto           bool       `json:"de_facto"`
	SupportedClub     string     `json:"supported_club"`
	Status            string     `json:"status"`
	Court             string     `json:"court"`
	Managers          []Manager  `json:"managers"`
	ActiveMembers     int64      `json:"active_members"`
	RegisterUpdatedAt *time.Time `json:"register_updated_at"`
	RegisterStale     bool       `json:"register_stale"`
	CreatedAt         time.Time  `json:"created_at"`
}

func (s *Groups) now() time.Time {
	if s.Clock == nil {
		return time.Now()
	}
	return s.Clock.Now()
}

func (s *Groups) loc() *time.Location {
	if s.Loc == nil {
		return time.UTC
	}
	return s.Loc
}

func (s *Groups) today() civil.Date { return civil.Today(s.now(), s.loc()) }

// CreateGroup registers a fan group in the actor's court (admin or clerk;
// the route's policy checks the role). errs.Invalid for a bad name, CNPJ or
// club; errs.Conflict when a group of the same name exists (case and
// accents ignored), or one with the same CNPJ (field cnpj; a CNPJ names one
// legal entity, migration 00014).
func (s *Groups) CreateGroup(ctx context.Context, a actor.Actor, in GroupInput) (*GroupView, error) {
	var f errs.Fields
	name := textcheck.Line(in.Name)
	club := textcheck.Line(in.SupportedClub)
	checkLine(&f, "name", name, 200, true)
	checkLine(&f, "supported_club", club, 200, true)
	var cnpj *string
	if in.CNPJ != nil && strings.TrimSpace(*in.CNPJ) != "" {
		c, err := ParseCNPJ(*in.CNPJ)
		if err != nil {
			f.Add("cnpj", "cnpj", err.Error())
		} else {
			cnpj = &c
		}
	}
	if a.Court == "" {
		return nil, errs.New(errs.Forbidden, "Somente usuários de um juizado cadastram torcidas.")
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	g := FanGroup{Name: name, CNPJ: cnpj, SupportedClub: club, Status: "active", CourtCode: &a.Court, CreatedAt: s.now()}
	if a.UserID != 0 {
		g.CreatedBy = &a.UserID
	}
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		var n int64
		if err := tx.Raw("SELECT count(*) FROM fan_groups WHERE f_unaccent(name) = f_unaccent(?)", name).Scan(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return errs.New(errs.Conflict, fmt.Sprintf("Já existe uma torcida cadastrada com o nome %q (maiúsculas e acentos não contam).", name))
		}
		if cnpj != nil {
			var same []string
			if err := tx.Raw("SELECT name FROM fan_groups WHERE cnpj = ? ORDER BY id LIMIT 1", *cnpj).Scan(&same).Error; err != nil {
				return err
			}
			if len(same) > 0 {
				return cnpjTaken(*cnpj, same[0])
			}
		}
		return tx.Create(&g).Error
	})
	if db.IsUniqueViolation(err, "fan_groups_cnpj_key") { // a registration at the same moment
		return nil, cnpjTaken(*cnpj, "")
	}
	if db.IsUniqueViolation(err, "") {
		return nil, errs.New(errs.Conflict, fmt.Sprintf("Já existe uma torcida cadastrada com o nome %q (maiúsculas e acentos não contam).", name))
	}
	if err != nil {
		return nil, err
	}
	return s.view(ctx, g)
}

// cnpjTaken is the conflict of a CNPJ already registered (by the group
// named other, when known).
func cnpjTaken(cnpj, other string) error {
	msg := fmt.Sprintf("O CNPJ %s já está cadastrado", FormatCNPJ(cnpj))
	if other != "" {
		msg += fmt.Sprintf(" para a torcida %q", other)
	}
	msg += ": um CNPJ identifica uma só pessoa jurídica, e cada torcida é cadastrada uma vez."
	return &errs.Error{Kind: errs.Conflict, Message: msg, Fields: []errs.FieldError{{Field: "cnpj", Rule: "unique", Message: msg}}}
}

// ListGroups returns the groups the actor may see: the court's groups for
// staff, the own group for a manager; none for anyone else.
func (s *Groups) ListGroups(ctx context.Context, a actor.Actor) ([]GroupView, error) {
	q := db.Conn(ctx, s.DB).Order("id")
	switch {
	case a.Role == "fan_group" && a.GroupID != 0:
		q = q.Where("id = ?", a.GroupID)
	case a.Court != "" && a.Role != "fan_group" && a.Role != "club":
		q = q.Where("court_code = ?", a.Court)
	default:
		return []GroupView{}, nil
	}
	var gs []FanGroup
	if err := q.Limit(1000).Find(&gs).Error; err != nil {
		return nil, err
	}
	out := make([]GroupView, 0, len(gs))
	for _, g := range gs {
		v, err := s.view(ctx, g)
		if err != nil {
			return nil, err
		}
		out = append(out, *v)
	}
	return out, nil
}

// GetGroup returns group id when the actor is staff of its court or one of
// its managers; errs.NotFound otherwise (another court's or group's data
// does not show that it exists).
func (s *Groups) GetGroup(ctx context.Context, a actor.Actor, id int64) (*GroupView, error) {
	g, err := s.group(ctx, id, false)
	if err != nil {
		return nil, err
	}
	manager := a.Role == "fan_group" && a.GroupID == g.ID
	staff := a.Role != "fan_group" && a.Role != "club" && a.Court != "" && g.CourtCode != nil && *g.CourtCode == a.Court
	if !manager && !staff {
		return nil, groupNotFound(id)
	}
	return s.view(ctx, *g)
}

func groupNotFound(id int64) error {
	return errs.New(errs.NotFound, fmt.Sprintf("Torcida %d não encontrada.", id))
}

// group loads a group, locking it for update when lock is set.
func (s *Groups) group(ctx context.Context, id int64, lock bool) (*FanGroup, error) {
	q := db.Conn(ctx, s.DB)
	if lock {
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	var g FanGroup
	err := q.Where("id = ?", id).Take(&g).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, groupNotFound(id)
	}
	if err != nil {
		return nil, err
	}
	return &g, nil
}

// canRead reports whether a may read group g's register, and whether the
// read must be recorded (anyone but the group's managers).
func canRead(a actor.Actor, g *FanGroup) (ok, logged bool) {
	if a.Role == "fan_group" {
		return a.GroupID == g.ID, false
	}
	if registerReaders[a.Role] && a.Court != "" && g.CourtCode != nil && *g.CourtCode == a.Court {
		return true, true
	}
	return false, false
}

// canWrite reports whether a keeps group g's register (its managers only).
func canWrite(a actor.Actor, g *FanGroup) bool {
	return a.Role == "fan_group" && a.GroupID != 0 && a.GroupID == g.ID
}

// readable loads group id for a read by a (errs.NotFound when a may not read
// it) and records the read when it must be recorded.
func (s *Groups) readable(ctx context.Context, a actor.Actor, id int64, what string, memberID *int64) (*FanGroup, error) {
	g, err := s.group(ctx, id, false)
	if err != nil {
		return nil, err
	}
	ok, logged := canRead(a, g)
	if !ok {
		return nil, groupNotFound(id)
	}
	if logged {
		if err := s.logRead(ctx, a, g.ID, memberID, what); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// writable loads and locks group id for a change by a; errs.NotFound when a
// is not one of its managers.
func (s *Groups) writable(ctx context.Context, a actor.Actor, id int64) (*FanGroup, error) {
	g, err := s.group(ctx, id, true)
	if err != nil {
		return nil, err
	}
	if !canWrite(a, g) {
		return nil, groupNotFound(id)
	}
	return g, nil
}

// MemberRead is one recorded read of member data.
type MemberRead struct {
	ID       int64     `json:"id"`
	At       time.Time `json:"at"`
	UserID   int64     `json:"user_id"`
	Role     string    `json:"role"`
	GroupID  int64     `json:"group_id"`
	MemberID *int64    `json:"member_id"`
	What     string    `json:"what"`
}

// TableName maps MemberRead to member_reads.
func (MemberRead) TableName() string { return "member_reads" }

// logRead records a read in member_reads (the register's own log) and in
// the audit trail (audit_log, hash-chained): action "read" on members
// (record: the member) for a member's record or photo, on fan_groups
// (record: the group) for a list or an export, which name the group only.
// Both in the transaction of the read (callers run in db.WithTx).
func (s *Groups) logRead(ctx context.Context, a actor.Actor, groupID int64, memberID *int64, what string) error {
	if err := db.Conn(ctx, s.DB).Create(&MemberRead{At: s.now(), UserID: a.UserID, Role: a.Role, GroupID: groupID, MemberID: memberID, What: what}).Error; err != nil {
		return err
	}
	table, record := "fan_groups", strconv.FormatInt(groupID, 10)
	detail := map[string]any{"what": what, "group_id": groupID}
	if memberID != nil {
		table, record = "members", strconv.FormatInt(*memberID, 10)
		detail["member_id"] = *memberID
	}
	return audit.Read(ctx, s.DB, a, table, record, detail)
}

// Reads returns the recorded reads of group id's register, newest first
// (for tests and audits).
func (s *Groups) Reads(ctx context.Context, groupID int64) ([]MemberRead, error) {
	var out []MemberRead
	err := db.Conn(ctx, s.DB).Where("group_id = ?", groupID).Order("id DESC").Limit(1000).Find(&out).Error
	return out, err
}

func (s *Groups) view(ctx context.Context, g FanGroup) (*GroupView, error) {
	tx := db.Conn(ctx, s.DB)
	v := GroupView{ID: g.ID, Name: g.Name, CNPJ: g.CNPJ, DeFacto: g.CNPJ == nil, SupportedClub: g.SupportedClub, Status: g.Status,
		RegisterUpdatedAt: g.RegisterUpdatedAt, CreatedAt: g.CreatedAt, Managers: []Manager{}}
	if g.CourtCode != nil {
		v.Court = *g.CourtCode
	}
	managers, err := accounts.GroupManagers(ctx, s.DB, g.ID)
	if err != nil {
		return nil, err
	}
	for _, u := range managers {
		v.Managers = append(v.Managers, Manager{ID: u.ID, Name: u.Name})
	}
	if err := tx.Raw("SELECT count(*) FROM member_periods WHERE group_id = ? AND left_on IS NULL", g.ID).Scan(&v.ActiveMembers).Error; err != nil {
		return nil, err
	}
	v.RegisterStale = Stale(g.RegisterUpdatedAt, g.CreatedAt, s.now(), s.loc())
	return &v, nil
}

// Stale reports whether a register last updated at updated (nil: never;
// then counted from the group's registration) is older than
// StaleAfterMonths at now, by the court's calendar.
func Stale(updated *time.Time, created, now time.Time, loc *time.Location) bool {
	from := created
	if updated != nil {
		from = *updated
	}
	limit := from.In(loc).AddDate(0, StaleAfterMonths, 0)
	return !now.Before(limit)
}

// touch records that group id's register changed now.
func (s *Groups) touch(ctx context.Context, id int64) error {
	return db.Conn(ctx, s.DB).Exec("UPDATE fan_groups SET register_updated_at = ? WHERE id = ?", s.now(), id).Error
}

// checkLine adds an error for a one-line text: textcheck.Problem (at most
// max characters, valid UTF-8, no control, format or replacement
// characters), then required.
func checkLine(f *errs.Fields, field, s string, max int, required bool) {
	if rule, msg := textcheck.Problem(s, max, false); rule != "" {
		f.Add(field, rule, msg)
		return
	}
	if required && strings.TrimSpace(s) == "" {
		f.Add(field, "required", "campo obrigatório.")
	}
}
