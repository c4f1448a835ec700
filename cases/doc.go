// Package cases holds the juizado's case itself, from the representation
// to the final judgment, one use case per method of Service, each in one
// transaction: filing (filing.go: Lei 9.099/1995, arts. 77 and 78), the
// CNJ number of the court and year (cnj.go, Res. CNJ 65/2008), equitable
// distribution to a judge, the courts and venues (courts.go), the docket
// and the workflow of statuses (model.go, workflow.go), hearings
// (hearings.go), evidence (evidence.go), and the other records of a
// defendant's CPF (warnings.go). Core (service.go) is what every part
// shares: the database, the clock, the court's zone, the blocklist
// publisher (required), the case's lock, status and docket movements.
//
// The parts of a case are sub-packages, each with its own Service and
// tables, importing cases and never imported by it: calendar (holidays,
// deadlines, prescription), schedule (the match schedule), decisions
// (sentence, plea, suspension, settlement, appeal), execution (bans after
// the decision) and casefile (the whole case's views). internal/app builds
// them all once. The legal rules themselves are in package sanctions.
package cases
