package casefile

import (
	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/execution"
)

// Service answers with the whole case: its views (the case with its
// docket, hearings, deadlines, decisions and bans), the list and the name
// search, and the writes whose answer is the whole case: a workflow
// transition (Lei 9.099/1995; the final judgment, art. 82, § 1º), the link
// of a group defendant to its registered group (Lei 14.597/2023, art. 178)
// and the appeal's result. One transaction per use case.
type Service struct {
	cases.Core
	Cases     *cases.Service
	Calendar  *calendar.Service
	Decisions *decisions.Service
	Execution *execution.Service
	heads     headStats // name search: frequencies of name_heads.head
}

// New returns the case file service over core and the case's parts.
func New(core cases.Core, cs *cases.Service, cal *calendar.Service, dec *decisions.Service, ex *execution.Service) *Service {
	return &Service{Core: core, Cases: cs, Calendar: cal, Decisions: dec, Execution: ex}
}
