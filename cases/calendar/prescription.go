package calendar

import (
	"context"
	"fmt"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/sanctions"
)

// PrescriptionYears is the prescription period of CP art. 109 for an
// offence whose maximum custodial penalty is maxMonths: 3 years under 1
// year (VI), 4 up to 2 years (V), 8 up to 4 (IV), 12 up to 8 (III), 16 up
// to 12 (II), 20 above (I); halved (CP art. 115) for a defendant under 21
// at the facts or over 70 at the sentence. The result is in months.
func PrescriptionMonths(maxMonths int, halved bool) int {
	var years int
	switch {
	case maxMonths < 12:
		years = 3
	case maxMonths <= 24:
		years = 4
	case maxMonths <= 48:
		years = 8
	case maxMonths <= 96:
		years = 12
	case maxMonths <= 144:
		years = 16
	default:
		years = 20
	}
	if halved {
		return years * 6
	}
	return years * 12
}

// chargedMaxMonths is the maximum custodial penalty in months of the
// offence charged under rg: reclusão of up to 2 years (Lei 14.597/2023,
// art. 201; Lei 10.671/2003, art. 41-B), plus one half for the organiser
// (§ 6º), doubled under § 7º; Lei 7.716/1989, art. 20, § 2º-A: 5 years.
// Art. 39 of 2003 (a sanction, no prison): its maximum ban (CP art. 109,
// sole paragraph). ok is false otherwise (group bans).
func chargedMaxMonths(rg sanctions.Range) (int, bool) {
	switch {
	case strings.Contains(rg.Law, "7.716"):
		return 60, true
	case strings.HasPrefix(rg.Article, "art. 201") || strings.HasPrefix(rg.Article, "art. 41-B"):
		m := 24
		if rg.Organiser {
			m = m * 3 / 2
		}
		if rg.Sec7 {
			m *= 2
		}
		return m, true
	case rg.Article == "art. 39" && rg.MaxMonths > 0:
		// A sanction of the sentence, not a crime: a restrictive penalty,
		// whose prescription follows the same periods (CP art. 109,
		// sole paragraph), by its maximum.
		return rg.MaxMonths, true
	}
	return 0, false
}

// PrescriptionWarning is the warning on the prescription of the claim
// (CP arts. 109, 115 and 117; DOMAIN.md §4: the system warns, the judge
// decides) for an offence of maximum maxMonths, facts on facts, the
// accusation received on received (nil: not yet), the sentence on
// sentence (or today), a defendant born on birth (nil: unknown): the
// period, halved for under 21 at the facts or over 70 at the sentence (CP
// art. 115), counted from the facts to the receipt of the accusation and
// from there to the sentence (interruptions of CP art. 117, I and IV).
// It is "" while less than the period minus 6 months has run.
func PrescriptionWarning(maxMonths int, facts civil.Date, received *civil.Date, sentence civil.Date, birth *civil.Date) string {
	halved, why := false, ""
	if birth != nil {
		if facts.Before(civil.New(birth.Year+21, birth.Month, birth.Day)) {
			halved, why = true, "menor de 21 anos na data dos fatos"
		} else if !sentence.Before(civil.New(birth.Year+70, birth.Month, birth.Day)) {
			halved, why = true, "maior de 70 anos na data da sentença"
		}
	}
	months := PrescriptionMonths(maxMonths, halved)
	from, span := facts, "dos fatos"
	ranOut := false
	if received != nil {
		// The receipt interrupts a running period only (CP art. 117, I):
		// a span that ran out before it stays run out.
		if end, _ := sanctions.LastDay(facts, months); received.After(end) {
			span, ranOut = "dos fatos ao recebimento da denúncia (CP, art. 117, I)", true
		} else {
			from, span = *received, "do recebimento da denúncia (CP, art. 117, I)"
		}
	}
	end, _ := sanctions.LastDay(from, months)
	warnFrom, _ := sanctions.LastDay(from, months-6)
	if sentence.Before(warnFrom) && !ranOut {
		return ""
	}
	state := "prescreve em " + end.AddDays(1).BR()
	if sentence.After(end) || ranOut {
		state = "o prazo terminou em " + end.BR()
	}
	t := fmt.Sprintf("Prescrição (CP, art. 109): pena máxima de %d meses, prazo de %d anos", maxMonths, months/12)
	if months%12 != 0 {
		t = fmt.Sprintf("Prescrição (CP, art. 109): pena máxima de %d meses, prazo de %d anos e %d meses", maxMonths, months/12, months%12)
	}
	if halved {
		t += " (reduzido à metade, CP, art. 115: " + why + ")"
	}
	return t + fmt.Sprintf(" contado %s, %s: verifique a prescrição; o sistema não a decide.", span, state)
}

// PrescriptionWarnings are the warnings of the case's person defendants
// (PrescriptionWarning), with the receipt of the accusation read from the
// docket (TPU 132) and today as the sentence's day.
func (s *Service) PrescriptionWarnings(ctx context.Context, c cases.Case, only int64) ([]string, error) {
	if c.Flow == cases.FlowCivil {
		return nil, nil
	}
	rg, err := sanctions.BanRange(sanctions.Query{Subject: sanctions.Person, FactsDate: c.FactsDate, Conduct: c.Conduct})
	if err != nil {
		return nil, nil // no statute covers it: the filing said so
	}
	if rg.Article == sanctions.Art7716 {
		// CF, art. 5º, XLII: "a prática do racismo constitui crime
		// inafiançável e imprescritível".
		return []string{"Racismo (art. 20, § 2º-A, da Lei 7.716/1989): crime imprescritível (CF, art. 5º, XLII); não há prazo de prescrição a verificar."}, nil
	}
	max, ok := chargedMaxMonths(rg)
	if !ok {
		return nil, nil
	}
	tx := db.Conn(ctx, s.DB)
	var at []struct{ At civil.Date }
	if err := tx.Raw("SELECT (at AT TIME ZONE ?)::date AS at FROM movements WHERE case_id = ? AND tpu_code = ? ORDER BY at LIMIT 1", s.Loc.String(), c.ID, cases.TPUReceipt).Scan(&at).Error; err != nil {
		return nil, err
	}
	var received *civil.Date
	if len(at) > 0 {
		received = &at[0].At
	}
	var ds []cases.Defendant
	q := tx.Where("case_id = ? AND kind = 'person'", c.ID)
	if only != 0 {
		q = q.Where("id = ?", only)
	}
	if err := q.Order("position").Find(&ds).Error; err != nil {
		return nil, err
	}
	today := civil.Today(s.Now(), s.Loc)
	var out []string
	for _, d := range ds {
		if w := PrescriptionWarning(max, c.FactsDate, received, today, d.BirthDate); w != "" {
			if len(ds) > 1 {
				w = d.FullName + ": " + w
			}
			out = append(out, w)
		}
	}
	return out, nil
}
