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
	"github.com/juizado/juizado/sanctions"
)

// IdentificationInput is the body of PUT
// /api/v1/cases/{id}/defendants/{defendant_id}/cpf: the CPF read from the
// person's document (any spelling: dots, hyphen and spaces are ignored)
// and, optionally, the birth date the document shows.
type IdentificationInput struct {
	CPF       string `json:"cpf"`
	BirthDate string `json:"birth_date"`
}

// IdentificationResult is what Identify answers: the defendant as now
// recorded, the bans that took the CPF (those in force enter the blocklist
// as additions of the change feed) and notes in Portuguese.
type IdentificationResult struct {
	Defendant cases.DefendantView `json:"defendant"`
	Bans      []cases.BanView     `json:"bans"`
	Warnings  []string            `json:"warnings"`
	version   int
}

// CaseVersion is the case's version after the identification (its ETag).
func (r *IdentificationResult) CaseVersion() int { return r.version }

// identifiers are the roles that identify a defendant: the court's staff
// who keep the case (the clerk) and decide it (the judge).
var identifiers = []string{"clerk", "judge"}

// Identify records the CPF (and, when given, the birth date) of person
// defendant defendantID of case caseID of the actor's court, who was filed
// without one: the ban(s) of a person without a CPF stay out of the
// blocklist, in the queue awaiting identification (blocklist.Lists.
// AwaitingIdentification), because a gate entry never carries a name alone
// (DOMAIN.md §6). In one transaction it writes the CPF on the defendant,
// on their bans and plea agreements, a docket movement and the case's new
// version, and makes the blocklist version in which the bans in force
// enter the list (an addition in the change feed). The same CPF sent again
// changes nothing (PUT).
//
// Who: the court's clerk or a judge of the court (errs.Forbidden
// otherwise). Errors: a case of another court or a defendant not of the
// case is errs.NotFound; errs.Conflict when the defendant already has
// another CPF; errs.Invalid on "defendant_id" for a fan-group defendant, on
// "cpf" (missing, malformed, wrong check digits, the CPF of another
// defendant of the case) or on "birth_date" (form, range, under 18 at the
// date of the facts).
func (s *Service) Identify(ctx context.Context, actor actor.Actor, caseID, defendantID int64, in IdentificationInput) (*IdentificationResult, error) {
	if !cases.Contains(identifiers, actor.Role) {
		return nil, errs.New(errs.Forbidden, "A identificação do representado cabe ao cartório (escrivão) ou ao(à) juiz(a) do juizado.")
	}
	var res *IdentificationResult
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		c, err := s.LockCase(ctx, actor, caseID)
		if err != nil {
			return err
		}
		var d cases.Defendant
		if err := db.Conn(ctx, s.DB).Where("id = ? AND case_id = ?", defendantID, c.ID).Limit(1).Find(&d).Error; err != nil {
			return err
		}
		if d.ID == 0 {
			return cases.NotFound(fmt.Sprintf("Réu %d neste processo", defendantID))
		}
		if d.Kind != "person" {
			return errs.InvalidField("defendant_id", "person", fmt.Sprintf("o réu %d é uma torcida organizada, identificada pelo CNPJ: a identificação por CPF é de pessoa.", d.ID))
		}
		if d.CPF != nil {
			same, err := registry.ParseCPFAnySpelling(in.CPF)
			if err == nil && same.String() == *d.CPF && (strings.TrimSpace(in.BirthDate) == "" || (d.BirthDate != nil && d.BirthDate.String() == strings.TrimSpace(in.BirthDate))) {
				res, err = s.identified(ctx, c, &d, nil, []string{"O CPF já estava registrado: nada mudou."})
				return err
			}
			return errs.New(errs.Conflict, fmt.Sprintf("%s já tem CPF registrado (%s): a identificação só completa um réu sem CPF; a correção de um CPF registrado segue outro procedimento.",
				d.FullName, registry.CPF(*d.CPF).Formatted()))
		}
		var f errs.Fields
		now := s.Now()
		var cpf registry.CPF
		if strings.TrimSpace(in.CPF) == "" {
			f.Add("cpf", "required", "informe o CPF do documento do representado.")
		} else if cp, err := registry.ParseCPFAnySpelling(in.CPF); err != nil {
			f.Add("cpf", "cpf", err.Error()+".")
		} else {
			cpf = cp
			var other []string
			if err := db.Conn(ctx, s.DB).Raw("SELECT full_name FROM defendants WHERE case_id = ? AND id <> ? AND cpf = ?", c.ID, d.ID, cpf.String()).Scan(&other).Error; err != nil {
				return err
			}
			if len(other) > 0 {
				f.Add("cpf", "unique", fmt.Sprintf("este CPF já é de outro representado deste processo (%s).", other[0]))
			}
		}
		var birth *civil.Date
		if strings.TrimSpace(in.BirthDate) != "" {
			if bd, ok := cases.BirthDate(&f, "birth_date", strings.TrimSpace(in.BirthDate), civil.Today(now, s.Loc), c.FactsDate); ok {
				birth = &bd
			}
		}
		if err := f.Err(); err != nil {
			return err
		}
		tx := db.Conn(ctx, s.DB)
		cpfs := cpf.String()
		var warnings []string
		updates := map[string]any{"cpf": cpfs}
		birthNote := ""
		if birth != nil {
			switch {
			case d.BirthDate == nil:
				birthNote = fmt.Sprintf(", nascido(a) em %s", birth.BR())
			case *d.BirthDate != *birth:
				birthNote = fmt.Sprintf(", nascido(a) em %s (a representação dizia %s)", birth.BR(), d.BirthDate.BR())
				warnings = append(warnings, fmt.Sprintf("Data de nascimento corrigida de %s para %s, como no documento.", d.BirthDate.BR(), birth.BR()))
			}
			updates["birth_date"] = *birth
		}
		if err := tx.Model(&cases.Defendant{}).Where("id = ?", d.ID).Updates(updates).Error; err != nil {
			return err
		}
		// The same CPF with another birth date on another defendant record:
		// a namesake or a typing error, for the court to look at.
		ws, err := s.Cases.BirthDateWarnings(ctx, c.ID, d.ID, c.CourtCode)
		if err != nil {
			return err
		}
		warnings = append(warnings, ws...)
		// The bans of the person and the plea agreements take the CPF (and
		// the birth date).
		banIDs, err := s.Decisions.Identified(ctx, d.ID, cpfs, birth)
		if err != nil {
			return err
		}
		text := fmt.Sprintf("Identificado(a) o(a) representado(a) %s: CPF %s%s.", d.FullName, cpf.Formatted(), birthNote)
		switch len(banIDs) {
		case 0:
			warnings = append(warnings, "O representado não tem impedimento: o CPF fica registrado para a decisão.")
		case 1:
			text += fmt.Sprintf(" O impedimento %d passa a constar da lista de bloqueio dos clubes enquanto vigorar.", banIDs[0])
		default:
			text += fmt.Sprintf(" Os impedimentos %s passam a constar da lista de bloqueio dos clubes enquanto vigorarem.", decisions.JoinIDs(banIDs))
		}
		if err := s.Move(ctx, c, &actor, now, cases.MoveIdentified, text); err != nil {
			return err
		}
		if err := s.Touch(ctx, c, ""); err != nil {
			return err
		}
		if len(banIDs) > 0 {
			if err := s.RefreshBlocklist(ctx, banIDs...); err != nil {
				return err
			}
		}
		d.CPF = &cpfs
		if birth != nil {
			d.BirthDate = birth
		}
		res, err = s.identified(ctx, c, &d, banIDs, warnings)
		return err
	})
	return res, err
}

// identified builds Identify's answer: defendant d of case c as recorded,
// the bans banIDs, the warnings.
func (s *Service) identified(ctx context.Context, c *cases.Case, d *cases.Defendant, banIDs []int64, warnings []string) (*IdentificationResult, error) {
	res := &IdentificationResult{
		Defendant: cases.DefendantView{ID: d.ID, Kind: d.Kind, FullName: d.FullName, CPF: d.CPF, BirthDate: d.BirthDate,
			MotherName: d.MotherName, FatherName: d.FatherName},
		Bans: []cases.BanView{}, Warnings: warnings, version: c.Version,
	}
	if res.Warnings == nil {
		res.Warnings = []string{}
	}
	if len(banIDs) > 0 {
		var bans []sanctions.Ban
		if err := db.Conn(ctx, s.DB).Where("id IN ?", banIDs).Order("id").Find(&bans).Error; err != nil {
			return nil, err
		}
		for _, b := range bans {
			res.Bans = append(res.Bans, s.BanView(b))
		}
	}
	return res, nil
}
