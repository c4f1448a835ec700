// Package calendar holds the court's days: its holidays (table
// court_holidays), the notifications of a decision and the appeal windows
// they open (notifications; Lei 9.099/1995, art. 82, § 1º; CPP art. 798;
// CPC arts. 219, 220 and 1.003, § 5º), the legal deadline of any kind
// counted on a court's calendar (period.go), the final judgment's missing
// steps, and prescription (CP arts. 109, 110 and 115).
//
// It hangs from package cases (the case and its docket) and from nothing
// else of cases; decisions, execution and casefile read it.
package calendar
