package sanctions

import (
	"fmt"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/civil"
)

// MinBreachBalanceDays is the least custodial balance left after an
// unjustified breach converts a ban to prison: "respeitado o saldo mínimo de
// trinta dias" (CP art. 44, § 4º). Art. 201, § 3º of Lei 14.597/2023 (41-B, §
// 3º) says only that the ban converts; the balance is the judge's decision.
const MinBreachBalanceDays = 30

// Kinds of ban for a breach (DOMAIN.md §8), from BreachKindOf.
const (
	// BreachConvertible: a conversion ban (Lei 14.597/2023, art. 201, § 2º;
	// Lei 10.671/2003, art. 41-B, § 2º): § 3º, conversion to prison.
	BreachConvertible = "conversion"
	// BreachPlea: a plea-agreement ban: the agreement is undone and the
	// prosecutor may accuse (Súmula Vinculante 35).
	BreachPlea = "plea_agreement"
	// BreachNoConversion: a group's or a group member's ban (civil), an art.
	// 39 (2003) ban, the cumulative ban of Lei 7.716/1989, art. 20, § 2º-A, a
	// TAC's: no conversion; the breach may found a new representation (CP
	// art. 359).
	BreachNoConversion = "no_conversion"
	// BreachPrecautionary: a precautionary ban: the judge may replace or add
	// measures or order preventive detention (CPP art. 282, § 4º).
	BreachPrecautionary = "precautionary"
	// BreachSuspension: a conditional suspension's condition: the
	// suspension may be revoked (Lei 9.099/1995, art. 89, §§ 3º and 4º).
	BreachSuspension = "conditional_suspension"
)

// BreachKindOf says what a breach of b opens (DOMAIN.md §8).
func BreachKindOf(b Ban) string {
	switch {
	case b.Precautionary:
		return BreachPrecautionary
	case b.Source == FromPleaAgreement:
		return BreachPlea
	case b.Source == FromConditionalSuspension:
		return BreachSuspension
	case b.Subject == Group || b.GroupBanID != nil || b.Source == FromCivilJudgment || b.Source == FromSettlement,
		b.Cumulative, b.Article == "art. 39":
		return BreachNoConversion
	}
	return BreachConvertible
}

// ConversionRule cites the conversion rule of the law in force at the date
// of the facts of b: art. 41-B, § 3º, of Lei 10.671/2003 before 15/06/2023,
// art. 201, § 3º, of Lei 14.597/2023 from then on.
func ConversionRule(b Ban) string {
	if strings.HasPrefix(b.Article, "art. 41-B") {
		return "art. 41-B, § 3º, da Lei 10.671/2003"
	}
	return "art. 201, § 3º, da Lei 14.597/2023"
}

// BreachNote explains, in Portuguese, what the breach of b opens, citing the
// law in force at the date of the facts (DOMAIN.md §8); served is the days
// of the ban served before the breach.
func BreachNote(b Ban, served int) string {
	switch BreachKindOf(b) {
	case BreachPrecautionary:
		return fmt.Sprintf("Impedimento cautelar: não há conversão; o descumprimento é comunicado ao(à) juiz(a), que pode substituir a medida, impor outra em cumulação ou decretar a prisão preventiva (CPP, art. 282, § 4º). Cumpridos %d dias.", served)
	case BreachPlea:
		return fmt.Sprintf("Impedimento de transação penal (Lei 9.099/1995, art. 76): não há conversão em pena privativa de liberdade; descumprida a transação, o(a) juiz(a) pode desfazê-la e o processo volta ao Ministério Público para a denúncia (Súmula Vinculante 35). Cumpridos %d dias.", served)
	case BreachSuspension:
		return fmt.Sprintf("Condição da suspensão condicional do processo: o descumprimento pode levar à revogação da suspensão (Lei 9.099/1995, art. 89, §§ 3º e 4º). Cumpridos %d dias.", served)
	case BreachNoConversion:
		why := "impedimento de torcida ou de associado (ação civil)"
		switch {
		case b.Cumulative:
			why = "proibição de frequência cumulativa do art. 20, § 2º-A, da Lei 7.716/1989 (não é conversão)"
		case b.Article == "art. 39":
			why = "sanção do art. 39 da Lei 10.671/2003 (redação original), sem pena privativa de liberdade"
		case b.Source == FromSettlement:
			why = "impedimento de termo de ajustamento de conduta"
		}
		return fmt.Sprintf("%s: não há conversão em pena privativa de liberdade; o descumprimento fica registrado e pode fundamentar nova representação (CP, art. 359: desobediência a decisão judicial sobre suspensão ou privação de direito). Cumpridos %d dias.", upperFirst(why), served)
	}
	return ""
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}

// Conversion is the step a breach opens in the case (Lei 14.597/2023, art.
// 201, § 3º; Lei 10.671/2003, art. 41-B, § 3º): the days of the ban served
// before the breach and, when the sentence fixed the custodial quantum
// (prison months), that quantum in days and the balance still to serve.
type Conversion struct {
	// DaysServed counts the days in force from the first day to the day
	// before the breach, both included (0 for a breach on the first day).
	DaysServed int `json:"days_served"`
	// QuantumFixed is false when the ban records no prison months: the
	// judge must fix the quantum before converting.
	QuantumFixed bool `json:"quantum_fixed"`
	PrisonMonths *int `json:"prison_months"`
	// QuantumDays is the custodial quantum in days, counted by the calendar
	// from the ban's first day as CP art. 10 counts a term (the days from
	// the first day to LastDay(first day, prison months), inclusive).
	QuantumDays *int `json:"quantum_days"`
	// BalanceDays is the proposed balance: QuantumDays minus DaysServed,
	// never below MinBreachBalanceDays; nil when the quantum is not fixed.
	// The judge decides the balance (CP art. 44, § 4º).
	BalanceDays *int `json:"balance_days"`
	// FloorApplied is true when the 30-day floor raised the balance.
	FloorApplied bool `json:"floor_applied"`
	MinimumDays  int  `json:"minimum_days"`
	// Note explains the step in Portuguese, naming the article.
	Note string `json:"note"`
}

// BreachDateError is returned by BreachConversion when the breach date lies
// outside the ban's term: a ban not yet or no longer in force cannot be
// breached. Reason is in Portuguese.
type BreachDateError struct{ Reason string }

// Error returns Reason.
func (e *BreachDateError) Error() string { return e.Reason }

// BreachConversion proposes the conversion step of an unjustified breach on
// day breach of a ban with term (Lei 14.597/2023, art. 201, § 3º, or Lei
// 10.671/2003, art. 41-B, § 3º, as rule cites: the ban converts to prison).
// The balance is a proposal for the judge, who fixes it: the time served is
// deducted and at least 30 days remain (CP art. 44, § 4º). prisonMonths is
// the custodial quantum the sentence fixed before conversion (nil when it
// fixed none: the result then gives the days served and says the quantum
// must be fixed).
//
// It returns a *BreachDateError when breach is before term.First or after
// term.Last, and an error wrapping ErrTermMonths when *prisonMonths is not
// in 1..MaxTermMonths.
func BreachConversion(term Term, breach civil.Date, prisonMonths *int, rule string) (Conversion, error) {
	if breach.Before(term.First) {
		return Conversion{}, &BreachDateError{Reason: fmt.Sprintf("o descumprimento (%s) é anterior ao primeiro dia do impedimento (%s).", breach.BR(), term.First.BR())}
	}
	if term.Last != nil && breach.After(*term.Last) {
		return Conversion{}, &BreachDateError{Reason: fmt.Sprintf("o descumprimento (%s) é posterior ao último dia do impedimento (%s).", breach.BR(), term.Last.BR())}
	}
	c := Conversion{DaysServed: DaysBetween(term.First, breach), MinimumDays: MinBreachBalanceDays}
	if prisonMonths == nil {
		c.Note = fmt.Sprintf("Descumprimento injustificado: o impedimento converte-se em pena privativa de liberdade (%s). Cumpridos %d dias; a sentença não fixou o quantum da pena: o(a) juiz(a) o fixa e decide o saldo, que não será inferior a %d dias (CP, art. 44, § 4º).", rule, c.DaysServed, MinBreachBalanceDays)
		return c, nil
	}
	last, err := LastDay(term.First, *prisonMonths)
	if err != nil {
		return Conversion{}, err
	}
	q := DaysBetween(term.First, last) + 1
	bal := q - c.DaysServed
	if bal < MinBreachBalanceDays {
		bal, c.FloorApplied = MinBreachBalanceDays, true
	}
	pm := *prisonMonths
	c.QuantumFixed, c.PrisonMonths, c.QuantumDays, c.BalanceDays = true, &pm, &q, &bal
	c.Note = fmt.Sprintf("Descumprimento injustificado: o impedimento converte-se em pena privativa de liberdade (%s). Pena de %s (%d dias), cumpridos %d dias: saldo proposto de %d dias",
		rule, monthsPT(pm), q, c.DaysServed, bal)
	if c.FloorApplied {
		c.Note += fmt.Sprintf(" (mínimo de %d dias, CP art. 44, § 4º)", MinBreachBalanceDays)
	}
	c.Note += "; a lei não fixa o saldo: o(a) juiz(a) o decide (CP, art. 44, § 4º: deduzido o tempo cumprido, respeitado o mínimo de 30 dias)."
	return c, nil
}

// DaysBetween returns the number of days from a to b (negative when b is
// before a): 0 for the same day, 1 for the next day.
func DaysBetween(a, b civil.Date) int {
	ta := time.Date(a.Year, a.Month, a.Day, 12, 0, 0, 0, time.UTC)
	tb := time.Date(b.Year, b.Month, b.Day, 12, 0, 0, 0, time.UTC)
	return int(tb.Sub(ta).Round(24*time.Hour) / (24 * time.Hour))
}
