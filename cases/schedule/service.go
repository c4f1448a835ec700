package schedule

import "github.com/juizado/juizado/cases"

// Service keeps the court's match schedule: the import of its CSV, the
// recount of bans counted in matches when it changes, and the reporting
// windows of a ban's reporting duty (Lei 14.597/2023, art. 201, § 4º; Lei
// 10.671/2003, art. 41-B, § 4º: from 2 hours before to 2 hours after each
// match). One transaction per use case.
type Service struct {
	cases.Core
}

// New returns the schedule service over core.
func New(core cases.Core) *Service { return &Service{Core: core} }
