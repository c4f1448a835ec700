package execution

import (
	"context"
	"fmt"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/registry"
)

// RegisterCPFCorrection is a member's ban whose CPF is no longer the one
// the group's register holds for the member: a CPF corrected in the
// register after the decision, put to the judge, who alone corrects a
// material error of the judgment (CPC art. 494, I; DOMAIN.md §3), with the
// identification the ban has and the one the register has now (issue 32,
// item 6; Lei 14.597/2023, art. 178, § 4º). CPFs are formatted
// (000.000.000-00). SamePerson is false when the register changed the
// name or the birth date too: then it is not a correction of the same
// person's CPF, and it is not carried.
type RegisterCPFCorrection struct {
	BanID             int64       `json:"ban_id"`
	CaseID            int64       `json:"case_id"`
	CaseNumber        string      `json:"case_number"`
	Name              string      `json:"name"`
	BirthDate         *civil.Date `json:"birth_date"`
	BanCPF            string      `json:"ban_cpf"`
	RegisterCPF       string      `json:"register_cpf"`
	RegisterName      string      `json:"register_name"`
	RegisterBirthDate civil.Date  `json:"register_birth_date"`
	SamePerson        bool        `json:"same_person"`
	// banDigits and registerDigits are the two CPFs' 11 digits.
	banDigits, registerDigits string
}

// errNoCorrection is the errs.NotFound of a ban with no register CPF to
// carry (another court's, unknown, or already carried).
var errNoCorrection = errs.New(errs.NotFound, "Não há correção de CPF do cadastro a levar a este impedimento.")

// RegisterCPFCorrections lists the member bans of the actor's court whose
// CPF differs from the register's (decisions.Service.MemberBansOf,
// registry.MemberIdentities), by ban. Who: the court's clerk or judge
// (errs.Forbidden otherwise).
func (s *Service) RegisterCPFCorrections(ctx context.Context, a actor.Actor) ([]RegisterCPFCorrection, error) {
	return s.cpfCorrections(ctx, a, decisions.MemberBanScope{})
}

// CaseCPFCorrections is RegisterCPFCorrections for case caseID alone (the
// case page's).
func (s *Service) CaseCPFCorrections(ctx context.Context, a actor.Actor, caseID int64) ([]RegisterCPFCorrection, error) {
	return s.cpfCorrections(ctx, a, decisions.MemberBanScope{CaseID: caseID})
}

// cpfCorrections is RegisterCPFCorrections within scope.
func (s *Service) cpfCorrections(ctx context.Context, a actor.Actor, scope decisions.MemberBanScope) ([]RegisterCPFCorrection, error) {
	if a.Court == "" || (a.Role != "clerk" && a.Role != "judge") {
		return nil, errs.New(errs.Forbidden, "As correções de CPF do cadastro das torcidas são do juizado.")
	}
	bans, err := s.Decisions.MemberBansOf(ctx, a.Court, scope)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(bans))
	for i, b := range bans {
		ids[i] = b.MemberID
	}
	now, err := registry.MemberIdentities(ctx, s.DB, ids)
	if err != nil {
		return nil, err
	}
	out := []RegisterCPFCorrection{}
	for _, b := range bans {
		m, ok := now[b.MemberID]
		if !ok || m.CPF == b.CPF {
			continue
		}
		same := strings.EqualFold(cases.Clean(m.FullName), cases.Clean(b.Name)) && b.BirthDate != nil && *b.BirthDate == m.BirthDate
		out = append(out, RegisterCPFCorrection{BanID: b.BanID, CaseID: b.CaseID, CaseNumber: cases.FormatNumber(b.CaseNumber), Name: b.Name, BirthDate: b.BirthDate,
			BanCPF: registry.CPF(b.CPF).Formatted(), RegisterCPF: registry.CPF(m.CPF).Formatted(), RegisterName: m.FullName, RegisterBirthDate: m.BirthDate,
			SamePerson: same, banDigits: b.CPF, registerDigits: m.CPF})
	}
	return out, nil
}

// CarryRegisterCPF corrects, by the judge of the case (CPC art. 494, I: a
// material error of the judgment is the judge's to correct), member ban
// banID of the judge's court with the CPF the register now holds for its
// member (RegisterCPFCorrections), in one transaction with a docket
// movement and the blocklist version in which the old CPF leaves and the
// corrected one enters (DOMAIN.md §6). errs.Forbidden for anyone but a
// judge of the case; errs.NotFound when the ban has no correction to carry
// (another court's, unknown, or already carried); errs.Conflict when the
// register changed the member's name or birth date too (not the same
// person: SamePerson false).
func (s *Service) CarryRegisterCPF(ctx context.Context, a actor.Actor, banID int64) (*RegisterCPFCorrection, error) {
	if a.Role != "judge" {
		return nil, errs.New(errs.Forbidden, "Corrigir o CPF do impedimento é erro material da decisão: cabe ao(à) juiz(a) (CPC, art. 494, I).")
	}
	var out *RegisterCPFCorrection
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		list, err := s.cpfCorrections(ctx, a, decisions.MemberBanScope{BanID: banID})
		if err != nil {
			return err
		}
		if len(list) == 0 {
			return errNoCorrection
		}
		out = &list[0]
		c, err := s.LockCase(ctx, a, out.CaseID)
		if err != nil {
			return err
		}
		if err := cases.JudgeOfCase(a, c, "corrigir o CPF do impedimento"); err != nil {
			return err
		}
		if !out.SamePerson {
			return errs.New(errs.Conflict, fmt.Sprintf("O cadastro da torcida mudou também o nome ou a data de nascimento (%s, nascido(a) em %s; no impedimento: %s): não é correção do CPF da mesma pessoa, e o impedimento não passa a outra pessoa.",
				out.RegisterName, out.RegisterBirthDate.BR(), out.Name))
		}
		ok, err := s.Decisions.CarryMemberCPF(ctx, banID, out.banDigits, out.registerDigits)
		if err != nil {
			return err
		}
		if !ok {
			return errNoCorrection
		}
		text := fmt.Sprintf("Erro material corrigido (CPC, art. 494, I): CPF de %s, corrigido no cadastro da torcida (Lei 14.597/2023, art. 178, § 4º), de %s para %s no impedimento.", out.Name, out.BanCPF, out.RegisterCPF)
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
