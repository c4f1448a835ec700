package casefile

import (
	"context"
	"errors"
	"fmt"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"gorm.io/gorm"
)

// Get returns the case id the actor may read (scopeCond: a case of its
// court; for the defence, a case of a defendant it represents, trimmed to
// its clients' data) with its defendants, their counsel, movements and
// bans; errs.NotFound when it does not exist there.
func (s *Service) Get(ctx context.Context, actor actor.Actor, id int64) (*View, error) {
	return s.getWhere(ctx, actor, fmt.Sprintf("Processo %d", id), "cases.id = ?", id)
}

// ByNumber returns the case with CNJ number number (with or without
// punctuation): errs.Invalid for a malformed number or wrong check digits,
// errs.NotFound for a valid number that is not a case the actor may read
// (Get).
func (s *Service) ByNumber(ctx context.Context, actor actor.Actor, number string) (*View, error) {
	n, err := cases.ParseCNJ(number)
	if err != nil {
		return nil, errs.InvalidField("number", "cnj", err.Error())
	}
	return s.getWhere(ctx, actor, "Processo "+n.String(), "cases.number = ?", n.Digits())
}

// getWhere is Get and ByNumber: the one case of sql (args) in the actor's
// scope, what names it in the errs.NotFound.
func (s *Service) getWhere(ctx context.Context, actor actor.Actor, what, sql string, args ...any) (*View, error) {
	var c cases.Case
	sc := scopeCond(actor)
	err := db.Conn(ctx, s.DB).Where(sql, args...).Where(sc.sql, sc.args...).Take(&c).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, cases.NotFound(what)
	}
	if err != nil {
		return nil, err
	}
	v, err := s.view(ctx, c, true)
	if err != nil {
		return nil, err
	}
	counsel, err := s.Cases.Counsel(ctx, c.ID)
	if err != nil {
		return nil, err
	}
	for i := range v.Defendants {
		v.Defendants[i].Counsel = counsel[v.Defendants[i].ID]
	}
	if isDefence(actor) {
		if err := s.forDefence(ctx, actor, v, true); err != nil {
			return nil, err
		}
	}
	return v, nil
}
