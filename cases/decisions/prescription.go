package decisions

import (
	"context"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/sanctions"
)

// PrescriptionWarnings are the warnings on the prescription of the
// punitive claim of the case's person defendants (only: that defendant
// alone; 0 every one), each sanctions.PrescriptionOf's Warning (the system
// warns, the judge decides: DOMAIN.md §4), prefixed with the defendant's
// name when the case has several: counted from the facts (CP art. 111, I)
// to the receipt of the accusation (CP art. 117, I; TPU 132 on the
// docket) and from there on, a span that ran out before the receipt
// staying run out (CP arts. 109 and 117); each signed conviction that
// stands interrupts it (CP art. 117, IV); the days of a conditional
// suspension are not counted (Lei 9.099/1995, art. 89, § 6º); the period
// halved by CP art. 115; crimes of Lei 7.716/1989 imprescriptible (CF art.
// 5º, XLII). Group (civil) cases and offences no statute covers have none.
func (s *Service) PrescriptionWarnings(ctx context.Context, c cases.Case, only int64) ([]string, error) {
	if c.Flow == cases.FlowCivil {
		return nil, nil
	}
	rg, err := sanctions.BanRange(sanctions.Query{Subject: sanctions.Person, FactsDate: c.FactsDate, Conduct: c.Conduct})
	if err != nil {
		return nil, nil // no statute covers it: the filing said so
	}
	base := sanctions.PrescriptionInput{Imprescriptible: sanctions.IsImprescriptible(rg.Law), FactsOn: c.FactsDate, Today: civil.Today(s.Now(), s.Loc)}
	if base.Imprescriptible {
		base.Offence = rg.Article + ", da " + rg.Law
	} else if base.MaxMonths, _ = sanctions.ChargedMaxMonths(rg); base.MaxMonths == 0 {
		return nil, nil
	}
	tx := db.Conn(ctx, s.DB)
	receipt, err := s.receiptOn(ctx, c)
	if err != nil {
		return nil, err
	}
	var ds []cases.Defendant
	q := tx.Where("case_id = ? AND kind = 'person'", c.ID)
	if only != 0 {
		q = q.Where("id = ?", only)
	}
	if err := q.Order("position").Find(&ds).Error; err != nil {
		return nil, err
	}
	var out []string
	for _, d := range ds {
		in, err := s.prescriptionInput(ctx, base, c, d, receipt)
		if err != nil {
			return nil, err
		}
		p, err := sanctions.PrescriptionOf(in)
		if err != nil || p.Warning == "" {
			continue // dates the count cannot take (the docket's own checks name them)
		}
		w := p.Warning
		if len(ds) > 1 {
			w = d.FullName + ": " + w
		}
		out = append(out, w)
	}
	return out, nil
}

// receiptOn is the day the accusation was received in case c (the first
// TPU 132 movement on the docket, CP art. 117, I), nil when it was not.
func (s *Service) receiptOn(ctx context.Context, c cases.Case) (*civil.Date, error) {
	var at []struct{ At civil.Date }
	if err := db.Conn(ctx, s.DB).Raw("SELECT (at AT TIME ZONE ?)::date AS at FROM movements WHERE case_id = ? AND tpu_code = ? ORDER BY at LIMIT 1",
		s.Loc.String(), c.ID, cases.TPUOf(cases.MoveReceipt)).Scan(&at).Error; err != nil {
		return nil, err
	}
	if len(at) == 0 {
		return nil, nil
	}
	return &at[0].At, nil
}

// prescriptionInput completes base for defendant d of case c: his birth
// date (CP art. 115), the receipt (CP art. 117, I; when the docket has none
// but a conditional suspension was granted, the accusation was received
// that day: Lei 9.099/1995, art. 89, § 1º, "recebendo a denúncia"), his
// signed convictions that stand after it (art. 117, IV) and his
// conditional suspensions, each from its first day to the day it ended
// (revoked or extinguished) or its last day (art. 89, § 6º).
func (s *Service) prescriptionInput(ctx context.Context, base sanctions.PrescriptionInput, c cases.Case, d cases.Defendant, receipt *civil.Date) (sanctions.PrescriptionInput, error) {
	in := base
	if d.BirthDate != nil && d.BirthDate.Before(c.FactsDate) {
		in.BirthDate = d.BirthDate
	}
	tx := db.Conn(ctx, s.DB)
	var sps []Suspension
	if err := tx.Where("case_id = ? AND defendant_id = ?", c.ID, d.ID).Order("first_day").Find(&sps).Error; err != nil {
		return in, err
	}
	for _, sp := range sps {
		if sp.FirstDay.After(in.Today) || sp.FirstDay.Before(c.FactsDate) {
			continue
		}
		if receipt == nil || sp.FirstDay.Before(*receipt) {
			r := sp.FirstDay
			receipt = &r
		}
		to := sp.LastDay
		if sp.EndedOn != nil && sp.EndedOn.Before(to) {
			to = *sp.EndedOn
		}
		in.Suspensions = append(in.Suspensions, sanctions.PrescriptionSuspension{Ground: sanctions.SuspendConditional, From: sp.FirstDay, To: to})
	}
	if receipt == nil {
		return in, nil
	}
	in.Interruptions = []sanctions.Interruption{{Kind: sanctions.InterruptReceipt, On: *receipt}}
	var signed []time.Time
	if err := tx.Model(&SentenceRecord{}).Where("case_id = ? AND defendant_id = ? AND status IN ('signed', 'reformed') AND outcome IN ? AND signed_at IS NOT NULL",
		c.ID, d.ID, []string{OutcomeBan, OutcomePrison}).Order("signed_at").Pluck("signed_at", &signed).Error; err != nil {
		return in, err
	}
	for _, at := range signed {
		if on := civil.Today(at, s.Loc); !on.Before(*receipt) && !on.After(in.Today) {
			in.Interruptions = append(in.Interruptions, sanctions.Interruption{Kind: sanctions.InterruptConviction, On: on})
		}
	}
	return in, nil
}
