package sanctions

import (
	"errors"

	"github.com/juizado/juizado/internal/civil"
)

// ErrExtensionMonths is returned by ExtendTerm when the months added are
// fewer than 1.
var ErrExtensionMonths = errors.New("a prorrogação deve acrescentar ao menos 1 mês")

// ExtendTerm extends a ban of months calendar months that started on first
// by add months (DOMAIN.md §3: extensions count from the original first
// day, never chained from the previous last day): the total is months + add
// and the new last day is LastDay(first, total), so 31/01/2024 + 3 + 1
// months ends on 30/05/2024, not on 31/05/2024 (which restarting the count
// the day after the previous last day, 30/04/2024, would give). The total must fit r, the range recorded on the
// ban.
//
// It returns ErrExtensionMonths when add < 1, a *OutOfRangeError (naming
// r.Article and r.Law) when the total leaves [max(1, r.MinMonths),
// r.MaxMonths], a *NotConvertibleError when r allows no ban, and LastDay's
// errors.
func ExtendTerm(first civil.Date, months, add int, r Range) (total int, last civil.Date, err error) {
	if add < 1 {
		return 0, civil.Date{}, ErrExtensionMonths
	}
	total = months + add
	if err := CheckMonths(r, total); err != nil {
		return 0, civil.Date{}, err
	}
	last, err = LastDay(first, total)
	if err != nil {
		return 0, civil.Date{}, err
	}
	return total, last, nil
}
