package registry

import (
	"context"

	"github.com/juizado/juizado/internal/db"
	"gorm.io/gorm"
)

// This file holds what others ask of the fan groups a court registered
// (LGE art. 178): cases, when a case names a group defendant; the demo
// data. The fan_groups table is registry's.

// GroupRef is a fan group registered in a court as a case names it: id,
// registered name and supported club.
type GroupRef struct {
	ID            int64
	Name          string
	SupportedClub string
}

// CourtGroup returns group id when it is registered in court (TR.OOOO),
// nil otherwise (unknown, or of another court: not told apart).
func CourtGroup(ctx context.Context, g *gorm.DB, court string, id int64) (*GroupRef, error) {
	var r GroupRef
	if err := db.Conn(ctx, g).Raw("SELECT id, name, supported_club FROM fan_groups WHERE id = ? AND court_code = ?", id, court).Scan(&r).Error; err != nil {
		return nil, err
	}
	if r.ID == 0 {
		return nil, nil
	}
	return &r, nil
}

// CourtGroupsNamed returns the ids of at most limit groups of court whose
// name is name, case and accents ignored (f_unaccent).
func CourtGroupsNamed(ctx context.Context, g *gorm.DB, court, name string, limit int) ([]int64, error) {
	var ids []int64
	err := db.Conn(ctx, g).Raw("SELECT id FROM fan_groups WHERE court_code = ? AND f_unaccent(name) = f_unaccent(?) LIMIT ?", court, name, limit).Scan(&ids).Error
	return ids, err
}

// CourtGroups returns at most limit groups registered in court, by name
// (accents ignored), then id.
func CourtGroups(ctx context.Context, g *gorm.DB, court string, limit int) ([]GroupRef, error) {
	var gs []GroupRef
	err := db.Conn(ctx, g).Raw("SELECT id, name, supported_club FROM fan_groups WHERE court_code = ? ORDER BY f_unaccent(name), id LIMIT ?", court, limit).Scan(&gs).Error
	return gs, err
}

// GroupName returns the registered name of group id, "" when there is none.
func GroupName(ctx context.Context, g *gorm.DB, id int64) (string, error) {
	var name string
	err := db.Conn(ctx, g).Raw("SELECT name FROM fan_groups WHERE id = ?", id).Scan(&name).Error
	return name, err
}

// EnsureGroup returns the id of the fan group called name (case and
// accents ignored), registering it in court with its supported club when
// there is none: the demo data's group (juizado seed), not a registration
// of the API (Groups.CreateGroup checks and records more).
func EnsureGroup(ctx context.Context, g *gorm.DB, name, club, court string) (int64, error) {
	var id int64
	c := db.Conn(ctx, g)
	if err := c.Raw(`INSERT INTO fan_groups (name, supported_club, court_code) VALUES (?, ?, ?)
		ON CONFLICT DO NOTHING RETURNING id`, name, club, court).Scan(&id).Error; err != nil {
		return 0, err
	}
	if id == 0 {
		if err := c.Raw("SELECT id FROM fan_groups WHERE f_unaccent(name) = f_unaccent(?)", name).Scan(&id).Error; err != nil {
			return 0, err
		}
	}
	return id, nil
}

// CourtGroup returns group id when it is registered in court (TR.OOOO),
// nil otherwise (CourtGroup).
func (s *Groups) CourtGroup(ctx context.Context, court string, id int64) (*GroupRef, error) {
	return CourtGroup(ctx, s.DB, court, id)
}

// GroupName returns the name of fan group id ("" when there is none): how
// pages name a manager's group instead of its number (issue 30, item 4).
func (s *Groups) GroupName(ctx context.Context, id int64) (string, error) {
	var names []string
	err := db.Conn(ctx, s.DB).Raw("SELECT name FROM fan_groups WHERE id = ?", id).Scan(&names).Error
	if err != nil || len(names) == 0 {
		return "", err
	}
	return names[0], nil
}
