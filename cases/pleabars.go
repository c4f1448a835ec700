package cases

import (
	"context"
	"fmt"
	"strings"

	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
)

// pleaBars checks the bars of Lei 9.099/1995, art. 76, § 2º, that the
// court's records can show, by the defendant's CPF across the court's
// other cases, and says what it checked (recorded with the offer):
//
//   - I: a final conviction to a custodial penalty for a crime: a case of
//     the court whose sentence became final (final, executing, archived)
//     with a custodial penalty in its records: a ban of the sentence
//     converted to prison after a breach (Lei 14.597/2023, art. 201, § 3º;
//     the conversion figures of the breach). Found: errs.Invalid on
//     defendant_id naming the case.
//   - II: checked by the caller (five years, by CPF).
//   - III: the prosecutor's statement (in), and the other cases of the CPF
//     in the court as known antecedents, given as warnings for the
//     prosecutor's assessment.
//
// Without a CPF nothing can be looked up: a warning says so.
func (s *Service) pleaBars(ctx context.Context, c *Case, d *Defendant, in PleaInput) (StringList, []string, error) {
	checks := StringList{}
	var warnings []string
	tx := db.Conn(ctx, s.DB)
	if d.CPF == nil {
		checks = append(checks, "I (art. 76, § 2º, I): não verificado, réu sem CPF.")
		warnings = append(warnings, "Réu sem CPF: não foi possível verificar condenação definitiva à pena privativa de liberdade nos processos do juizado (art. 76, § 2º, I).")
	} else {
		var prior struct {
			Number string
			Days   *int
		}
		err := tx.Raw(`SELECT k.number, br.balance_days AS days FROM breaches br
			JOIN bans b ON b.id = br.ban_id JOIN cases k ON k.id = b.case_id
			WHERE b.cpf = ? AND b.court_code = ? AND b.case_id <> ? AND b.source = 'sentence' AND NOT b.precautionary
			  AND br.balance_days IS NOT NULL AND k.status IN ('final', 'executing', 'archived')
			ORDER BY br.recorded_at DESC LIMIT 1`, *d.CPF, c.CourtCode, c.ID).Scan(&prior).Error
		if err != nil {
			return nil, nil, err
		}
		if prior.Number != "" {
			return nil, nil, errs.InvalidField("defendant_id", "plea_barred", fmt.Sprintf("o autor do fato foi condenado por sentença definitiva, pela prática de crime, à pena privativa de liberdade (processo %s: impedimento convertido em reclusão pelo descumprimento, art. 201, § 3º, da Lei 14.597/2023): sem transação penal (Lei 9.099/1995, art. 76, § 2º, I).",
				FormatNumber(prior.Number)))
		}
		checks = append(checks, "I (art. 76, § 2º, I): nenhuma condenação definitiva à pena privativa de liberdade nos processos do juizado para este CPF.")
		checks = append(checks, fmt.Sprintf("II (art. 76, § 2º, II): nenhuma transação penal nos últimos %d anos nos registros do sistema para este CPF.", pleaBarYears))
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
				names[i] = fmt.Sprintf("%s (%s)", FormatNumber(o.Number), orStatus(o.Status))
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
