package calendar

import "github.com/juizado/juizado/cases"

// Service keeps the court's calendar and counts its periods: the court's
// holidays, the parties' notifications and their appeal windows (Lei
// 9.099/1995, art. 82, § 1º, in running days, CPP art. 798; the civil flow
// in business days, CPC arts. 219, 220 and 1.003, § 5º), the final
// judgment's missing steps, and prescription (CP arts. 109, 110 and 115).
// One transaction per use case.
type Service struct {
	cases.Core
}

// New returns the calendar service over core.
func New(core cases.Core) *Service { return &Service{Core: core} }
