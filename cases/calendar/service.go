package calendar

import (
	"sync"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/civil"
)

// Service keeps the court's calendar and counts its periods: the court's
// holidays, the parties' notifications and their appeal windows
// (sanctions.CountPeriod: Lei 9.099/1995, art. 82, § 1º, in running days,
// CPP arts. 798 and 798-A; the civil flow in working days, CPC arts. 180,
// 219, 220 and 1.003, § 5º; the Defensoria's doubled, LC 80/1994), and the
// final judgment's missing steps. One transaction per use case.
type Service struct {
	cases.Core
	// Decided gives the day of the decision a notice or embargos concern
	// (decisions.Service; nil: no day known, only the filing bounds them).
	Decided Decisions

	// lastDays remembers, per court, the last day of each window the desk
	// counted (lastDayOf), keyed by everything it depends on.
	mu       sync.Mutex
	lastDays map[string]map[windowKey]civil.Date
}

// New returns the calendar service over core.
func New(core cases.Core) *Service { return &Service{Core: core} }
