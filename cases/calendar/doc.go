// Package calendar holds the court's days: its own holidays (table
// court_holidays; the national ones are built into sanctions), the
// notifications of a decision and the appeal windows they open
// (notifications; counted by sanctions.CountPeriod: Lei 9.099/1995, art.
// 82, § 1º; CPP arts. 798 and 798-A; CPC arts. 180, 186, 219, 220 and
// 1.003, § 5º; LC 80/1994), the legal deadline of any kind counted on a
// court's calendar (period.go), and the final judgment's missing steps.
//
// It hangs from package cases (the case and its docket) and from nothing
// else of cases; decisions, execution and casefile read it.
package calendar
