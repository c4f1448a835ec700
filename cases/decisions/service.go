package decisions

import (
	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
)

// Service decides the case: sentences with their bans (Lei 14.597/2023,
// art. 201; Lei 10.671/2003, art. 41-B) and the precautionary ban (CPP
// arts. 282 and 319), plea agreements and their bars (Lei 9.099/1995, art.
// 76), the conditional suspension (art. 89), the settlement of a group case
// (Lei 7.347/1985, art. 5º, § 6º), with the warnings the judge needs. One
// transaction per use case; every write that changes bans refreshes the
// blocklist in it.
type Service struct {
	cases.Core
	Cases    *cases.Service
	Calendar *calendar.Service
}

// New returns the decisions service over core, reading the case (cs) and
// the calendar (cal).
func New(core cases.Core, cs *cases.Service, cal *calendar.Service) *Service {
	return &Service{Core: core, Cases: cs, Calendar: cal}
}
