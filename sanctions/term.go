package sanctions

import (
	"errors"
	"fmt"
	"time"

	"github.com/juizado/juizado/internal/civil"
)

// MaxTermMonths is the longest term LastDay accepts, in months (100 years;
// the longest statutory ban is 72 months, Lei 14.597/2023, art. 201, § 2º c/c
// § 7º).
const MaxTermMonths = 1200

// ErrTermMonths is returned (wrapped) by LastDay when months is below 1 or
// above MaxTermMonths.
var ErrTermMonths = errors.New("prazo em meses inválido")

// ErrFirstDay is returned (wrapped) by LastDay when the first day is not a
// valid date.
var ErrFirstDay = errors.New("primeiro dia do prazo inválido")

// LastDay returns the last day of a ban of months calendar months that starts
// on first (CP, art. 10: the first day counts; months run by the common
// calendar; DOMAIN.md §3). The last day is the day before the date with the
// same day-number months later; when that date does not exist (31/04,
// 29/02 of a common year), it rolls forward to the 1st of the next month
// (CC, art. 132, § 3º; Lei 810/1949, art. 3º), so the last day is the last day
// of the final month: 31/01/2024 + 3 months → 30/04/2024; 29/02/2024 + 12 →
// 28/02/2025; 10/03/2024 + 3 → 09/06/2024.
//
// months must be in 1..MaxTermMonths (error wrapping ErrTermMonths) and first
// a valid date (error wrapping ErrFirstDay).
func LastDay(first civil.Date, months int) (civil.Date, error) {
	if !first.Valid() {
		return civil.Date{}, fmt.Errorf("%w: %s", ErrFirstDay, first)
	}
	if months < 1 || months > MaxTermMonths {
		return civil.Date{}, fmt.Errorf("%w: %d (deve estar entre 1 e %d)", ErrTermMonths, months, MaxTermMonths)
	}
	m0 := int(first.Month) - 1 + months
	y, m := first.Year+m0/12, time.Month(m0%12+1)
	if first.Day > civil.DaysIn(y, m) {
		// The corresponding day does not exist: it becomes the 1st of the
		// next month, so the term ends on the last day of month m.
		return civil.Date{Year: y, Month: m, Day: civil.DaysIn(y, m)}, nil
	}
	return civil.Date{Year: y, Month: m, Day: first.Day}.AddDays(-1), nil
}
