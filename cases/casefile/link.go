package casefile

import (
	"context"
	"fmt"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/registry"
)

// LinkGroupInput is the body of PUT
// /api/v1/cases/{id}/defendants/{defendant_id}/group: the id of the fan
// group registered in the case's court that the group defendant is.
type LinkGroupInput struct {
	GroupID *int64 `json:"group_id"`
}

// RegisteredGroup is a fan group registered in a court, as offered to link a
// group defendant to: id, registered name and supported club.
type RegisteredGroup = registry.GroupRef

// LinkGroup links the fan_group defendant defendantID of case caseID to the
// group in.GroupID registered in the case's court (LGE art. 178; a group
// ban reaches the members of that register, DOMAIN.md §2), so that a group
// filed before it was registered can be sentenced. It writes the link, a
// docket movement naming the registered group and the case's new version in
// one transaction, and returns the case.
//
// Who: the court's clerk (who registers fan groups, DOMAIN.md §7) or the
// judge the case is distributed to (errs.Forbidden otherwise). Errors: a
// case of another court or a defendant not of the case is errs.NotFound; a
// person defendant is errs.Invalid on "defendant_id"; a missing group_id is
// errs.Invalid on "group_id"; a group not registered in the case's court
// (unknown or of another court, told apart by nothing) errs.NotFound naming
// "group_id"; a decided case, or a defendant who already has a ban under
// another group, errs.Conflict. Linking to the group already linked
// changes nothing.
func (s *Service) LinkGroup(ctx context.Context, actor actor.Actor, caseID, defendantID int64, in LinkGroupInput) (*View, error) {
	var out *View
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		c, err := s.LockCase(ctx, actor, caseID)
		if err != nil {
			return err
		}
		switch actor.Role {
		case "clerk":
		case "judge":
			if err := cases.JudgeOfCase(actor, c, "vincular a torcida ré"); err != nil {
				return err
			}
		default:
			return errs.New(errs.Forbidden, "Vincular a torcida ré à torcida cadastrada cabe ao cartório (clerk) ou ao(à) juiz(a) do processo.")
		}
		var d cases.Defendant
		if err := tx.Where("id = ? AND case_id = ?", defendantID, c.ID).Limit(1).Find(&d).Error; err != nil {
			return err
		}
		if d.ID == 0 {
			return cases.NotFound(fmt.Sprintf("Réu %d neste processo", defendantID))
		}
		if d.Kind != "fan_group" {
			return errs.InvalidField("defendant_id", "fan_group", fmt.Sprintf("o réu %d é uma pessoa: só uma torcida ré se vincula a uma torcida cadastrada.", d.ID))
		}
		if in.GroupID == nil || *in.GroupID <= 0 {
			return errs.InvalidField("group_id", "required", "informe a torcida cadastrada (group_id, número inteiro positivo).")
		}
		g, err := registry.CourtGroup(ctx, s.DB, c.CourtCode, *in.GroupID)
		if err != nil {
			return err
		}
		if g == nil {
			// A group of another court is not told apart from none at all
			// (registry.Groups.GetGroup answers 404 for it too).
			nf := cases.GroupNotFound(*in.GroupID)
			nf.Fields = []errs.FieldError{{Field: "group_id", Rule: "exists", Message: nf.Message}}
			return nf
		}
		if d.GroupID != nil && *d.GroupID == g.ID {
			v, err := s.view(ctx, *c, true)
			out = v
			return err
		}
		if !cases.BeforeDecision(c.Flow, c.Status) {
			return errs.New(errs.Conflict, fmt.Sprintf("O processo já está na fase “%s”: a torcida ré só se vincula antes da decisão.", cases.OrStatus(c.Status)))
		}
		bans, err := s.Decisions.ActiveBans(ctx, d.ID)
		if err != nil {
			return err
		}
		if bans > 0 {
			return errs.New(errs.Conflict, "A torcida ré já tem impedimento decidido com a torcida vinculada: o vínculo não muda depois dele.")
		}
		if err := tx.Exec("UPDATE defendants SET group_id = ? WHERE id = ?", g.ID, d.ID).Error; err != nil {
			return err
		}
		// The register as evidence (issue 32, item 6): the group's register
		// as it stands when it becomes the defendant.
		if err := registry.TakeCaseRegister(ctx, s.DB, c.ID, d.ID, g.ID, s.Now()); err != nil {
			return err
		}
		text := fmt.Sprintf("Torcida ré “%s” vinculada à torcida cadastrada nº %d, “%s” (Lei 14.597/2023, art. 178).", strings.TrimSpace(d.GroupName), g.ID, g.Name)
		if d.GroupID != nil {
			text += fmt.Sprintf(" Vínculo anterior: torcida nº %d.", *d.GroupID)
		}
		if err := s.Move(ctx, c, &actor, s.Now(), cases.MoveGroupLinked, text); err != nil {
			return err
		}
		if err := s.Touch(ctx, c, ""); err != nil {
			return err
		}
		v, err := s.view(ctx, *c, true)
		out = v
		return err
	})
	return out, err
}

// RegisteredGroups returns the fan groups registered in the actor's court,
// by name (at most 1000): the choices for linking a group defendant
// (LinkGroup).
func (s *Service) RegisteredGroups(ctx context.Context, actor actor.Actor) ([]RegisteredGroup, error) {
	return registry.CourtGroups(ctx, s.DB, actor.Court, 1000)
}
