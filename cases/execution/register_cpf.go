package execution

import (
	"context"
	"fmt"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/registry"
)

// RegisterCPFCorrection is a member's ban whose CPF is no longer the one
// the group's register holds for the member: a CPF corrected in the
// register after the decision, which the clerk carries to the ban (issue
// 32, item 6; Lei 14.597/2023, art. 178, § 4º: the register identifies the
// member). CPFs are formatted (000.000.000-00).
type RegisterCPFCorrection struct {
	BanID       int64  `json:"ban_id"`
	CaseID      int64  `json:"case_id"`
	CaseNumber  string `json:"case_number"`
	Name        string `json:"name"`
	BanCPF      string `json:"ban_cpf"`
	RegisterCPF string `json:"register_cpf"`
	// banDigits and registerDigits are the two CPFs' 11 digits.
	banDigits, registerDigits string
}

// errNoCorrection is the errs.NotFound of a ban with no register CPF to
// carry (another court's, unknown, or already carried).
var errNoCorrection = errs.New(errs.NotFound, "Não há correção de CPF do cadastro a levar a este impedimento.")

// RegisterCPFCorrections lists the member bans of the actor's court whose
// CPF differs from the register's (decisions.Service.MemberBansOf,
// registry.MemberCPFs), by ban. Who: the court's clerk or judge
// (errs.Forbidden otherwise).
func (s *Service) RegisterCPFCorrections(ctx context.Context, a actor.Actor) ([]RegisterCPFCorrection, error) {
	if a.Court == "" || (a.Role != "clerk" && a.Role != "judge") {
		return nil, errs.New(errs.Forbidden, "As correções de CPF do cadastro das torcidas são do cartório do juizado.")
	}
	bans, err := s.Decisions.MemberBansOf(ctx, a.Court)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(bans))
	for i, b := range bans {
		ids[i] = b.MemberID
	}
	now, err := registry.MemberCPFs(ctx, s.DB, ids)
	if err != nil {
		return nil, err
	}
	out := []RegisterCPFCorrection{}
	for _, b := range bans {
		if cpf, ok := now[b.MemberID]; ok && cpf != b.CPF {
			out = append(out, RegisterCPFCorrection{BanID: b.BanID, CaseID: b.CaseID, CaseNumber: cases.FormatNumber(b.CaseNumber), Name: b.Name,
				BanCPF: registry.CPF(b.CPF).Formatted(), RegisterCPF: registry.CPF(cpf).Formatted(), banDigits: b.CPF, registerDigits: cpf})
		}
	}
	return out, nil
}

// CarryRegisterCPF carries to member ban banID of the clerk's court the
// CPF the register now holds for its member (RegisterCPFCorrections), in
// one transaction with a docket movement and the blocklist version in which
// the old CPF leaves and the corrected one enters (DOMAIN.md §6). Who: the
// court's clerk (errs.Forbidden otherwise). errs.NotFound when the ban has
// no correction to carry (another court's, unknown, or already carried).
func (s *Service) CarryRegisterCPF(ctx context.Context, a actor.Actor, banID int64) (*RegisterCPFCorrection, error) {
	if a.Role != "clerk" {
		return nil, errs.New(errs.Forbidden, "Levar ao impedimento o CPF corrigido no cadastro cabe ao cartório (clerk).")
	}
	var out *RegisterCPFCorrection
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		list, err := s.RegisterCPFCorrections(ctx, a)
		if err != nil {
			return err
		}
		for i := range list {
			if list[i].BanID == banID {
				out = &list[i]
			}
		}
		if out == nil {
			return errNoCorrection
		}
		c, err := s.LockCase(ctx, a, out.CaseID)
		if err != nil {
			return err
		}
		ok, err := s.Decisions.CarryMemberCPF(ctx, banID, out.banDigits, out.registerDigits)
		if err != nil {
			return err
		}
		if !ok {
			return errNoCorrection
		}
		text := fmt.Sprintf("CPF de %s corrigido no cadastro da torcida: de %s para %s, levado ao impedimento (Lei 14.597/2023, art. 178, § 4º).", out.Name, out.BanCPF, out.RegisterCPF)
		if err := s.Move(ctx, c, &a, s.Now(), cases.MoveIdentified, text); err != nil {
			return err
		}
		if err := s.RefreshBlocklist(ctx, banID); err != nil {
			return err
		}
		return s.Touch(ctx, c, "")
	})
	return out, err
}
