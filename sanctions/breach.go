package sanctions

import (
	"fmt"
	"time"

	"github.com/juizado/juizado/internal/civil"
)

// MinBreachBalanceDays is the least custodial balance left after an
// unjustified breach converts a ban to prison: "at least 30 days remain"
// (Lei 14.597/2023, art. 201, § 3º; CP art. 44, § 4º, by analogy).
const MinBreachBalanceDays = 30

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
	// BalanceDays is QuantumDays minus DaysServed, never below
	// MinBreachBalanceDays; nil when the quantum is not fixed.
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

// BreachConversion computes the conversion step of an unjustified breach on
// day breach of a ban with term (Lei 14.597/2023, art. 201, § 3º: the ban
// converts to prison, the time served is deducted, at least 30 days remain;
// CP art. 44, § 4º). prisonMonths is the custodial quantum the sentence
// fixed before conversion (nil when it fixed none: the result then gives the
// days served and says the quantum must be fixed).
//
// It returns a *BreachDateError when breach is before term.First or after
// term.Last, and an error wrapping ErrTermMonths when *prisonMonths is not
// in 1..MaxTermMonths.
func BreachConversion(term Term, breach civil.Date, prisonMonths *int) (Conversion, error) {
	if breach.Before(term.First) {
		return Conversion{}, &BreachDateError{Reason: fmt.Sprintf("o descumprimento (%s) é anterior ao primeiro dia do impedimento (%s).", breach.BR(), term.First.BR())}
	}
	if term.Last != nil && breach.After(*term.Last) {
		return Conversion{}, &BreachDateError{Reason: fmt.Sprintf("o descumprimento (%s) é posterior ao último dia do impedimento (%s).", breach.BR(), term.Last.BR())}
	}
	c := Conversion{DaysServed: DaysBetween(term.First, breach), MinimumDays: MinBreachBalanceDays}
	if prisonMonths == nil {
		c.Note = fmt.Sprintf("Descumprimento injustificado: o impedimento converte-se em pena privativa de liberdade (art. 201, § 3º, da Lei 14.597/2023). Cumpridos %d dias; a sentença não fixou o quantum da pena: fixe-o para calcular o saldo, que não será inferior a %d dias.", c.DaysServed, MinBreachBalanceDays)
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
	c.Note = fmt.Sprintf("Descumprimento injustificado: o impedimento converte-se em pena privativa de liberdade (art. 201, § 3º, da Lei 14.597/2023). Pena de %s (%d dias), cumpridos %d dias: saldo de %d dias",
		monthsPT(pm), q, c.DaysServed, bal)
	if c.FloorApplied {
		c.Note += fmt.Sprintf(" (mínimo de %d dias, CP art. 44, § 4º)", MinBreachBalanceDays)
	}
	c.Note += "."
	return c, nil
}

// DaysBetween returns the number of days from a to b (negative when b is
// before a): 0 for the same day, 1 for the next day.
func DaysBetween(a, b civil.Date) int {
	ta := time.Date(a.Year, a.Month, a.Day, 12, 0, 0, 0, time.UTC)
	tb := time.Date(b.Year, b.Month, b.Day, 12, 0, 0, 0, time.UTC)
	return int(tb.Sub(ta).Round(24*time.Hour) / (24 * time.Hour))
}
