package execution

import (
	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/decisions"
)

// Service executes the bans after the decision: their start at the final
// judgment (Súmula 643 STJ; CP art. 10), breaches and their decision (Lei
// 14.597/2023, art. 201, § 3º), lift, renewal and extension, correction of
// a material error in the last day, credit of precautionary days (CP art.
// 42), the identification of a defendant whose bans wait for a CPF, and the
// ban status of a CPF. One transaction per use case; each refreshes the
// blocklist in it.
type Service struct {
	cases.Core
	Cases     *cases.Service
	Calendar  *calendar.Service
	Decisions *decisions.Service
}

// New returns the execution service over core, reading the case (cs), the
// calendar (cal) and the decisions (dec).
func New(core cases.Core, cs *cases.Service, cal *calendar.Service, dec *decisions.Service) *Service {
	return &Service{Core: core, Cases: cs, Calendar: cal, Decisions: dec}
}
