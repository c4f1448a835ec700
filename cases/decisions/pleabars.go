package decisions

import (
	"context"
	"fmt"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
)

// pleaBars checks the bars of Lei 9.099/1995, art. 76, § 2º, that the
// court's records can show, by the defendant's CPF across the court's
// other cases, and says what it checked (recorded with the offer):
//
//   - I: a final conviction to a custodial penalty for a crime
//     (priorConviction, custodial): a sentence that stands, final for
//     that defendant, with reclusão (outcome prison, or the cumulative
//     reclusão of Lei 7.716/1989, art. 20, § 2º-A), or a ban converted to
//     prison after a breach (Lei 14.597/2023, art. 201, § 3º). Found:
//     errs.Invalid on defendant_id naming the case.
//   - II: checked by the caller (five years, by CPF).
//   - III: the prosecutor's statement (in), and the other cases of the CPF
//     in the court as known antecedents, given as warnings for the
//     prosecutor's assessment.
//
// Without a CPF nothing can be looked up: a warning says so.
func (s *Service) pleaBars(ctx context.Context, c *cases.Case, d *cases.Defendant, in PleaInput) (cases.StringList, []string, error) {
	checks := cases.StringList{}
	var warnings []string
	tx := db.Conn(ctx, s.DB)
	if d.CPF == nil {
		checks = append(checks, "I (art. 76, § 2º, I): não verificado, réu sem CPF.")
		warnings = append(warnings, "Réu sem CPF: não foi possível verificar condenação definitiva à pena privativa de liberdade nos processos do juizado (art. 76, § 2º, I).")
	} else {
		prior, err := s.priorConviction(ctx, c, d, true)
		if err != nil {
			return nil, nil, err
		}
		if prior != nil {
			return nil, nil, errs.InvalidField("defendant_id", "plea_barred", fmt.Sprintf("o autor do fato foi condenado por sentença definitiva, pela prática de crime, à pena privativa de liberdade (processo %s: %s): sem transação penal (Lei 9.099/1995, art. 76, § 2º, I).",
				cases.FormatNumber(prior.Number), prior.What))
		}
		checks = append(checks, "I (art. 76, § 2º, I): nenhuma condenação definitiva à pena privativa de liberdade nos processos do juizado para este CPF.")
		checks = append(checks, fmt.Sprintf("II (art. 76, § 2º, II): nenhuma transação penal homologada nos últimos %d anos nos registros do sistema para este CPF.", pleaBarYears))
		var others []struct {
			Number string
			Status string
		}
		if err := tx.Raw(`SELECT DISTINCT k.number, k.status FROM defendants o JOIN cases k ON k.id = o.case_id
			WHERE o.cpf = ? AND k.court_code = ? AND k.id <> ? ORDER BY k.number LIMIT 20`, *d.CPF, c.CourtCode, c.ID).Scan(&others).Error; err != nil {
			return nil, nil, err
		}
		if len(others) > 0 {
			names := make([]string, len(others))
			for i, o := range others {
				names[i] = fmt.Sprintf("%s (%s)", cases.FormatNumber(o.Number), cases.OrStatus(o.Status))
			}
			w := "Antecedentes conhecidos no juizado para este CPF (art. 76, § 2º, III): " + strings.Join(names, "; ") + "."
			warnings = append(warnings, w)
			checks = append(checks, w)
		}
	}
	switch {
	case in.CircumstancesFavourable == nil:
		checks = append(checks, "III (art. 76, § 2º, III): declaração do Ministério Público não informada; presumida favorável.")
		warnings = append(warnings, "O Ministério Público não declarou os antecedentes, a conduta social, a personalidade, os motivos e as circunstâncias (art. 76, § 2º, III): presumidos favoráveis; informe circumstances_favourable e circumstances_statement.")
	default:
		t := "III (art. 76, § 2º, III): declaração do Ministério Público: favoráveis"
		if st := strings.TrimSpace(in.CircumstancesStatement); st != "" {
			t += " – " + st
		}
		checks = append(checks, t+".")
	}
	return checks, warnings, nil
}
