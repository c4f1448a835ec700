// Package sanctions computes the stadium-ban rules of the juizados do
// torcedor: which statute governs a ban by the date of the facts, the range of
// months it allows (BanRange), whether a term fits that range (CheckMonths),
// and the last day of a term counted by the calendar (LastDay).
//
// The rules are pure functions: no clock, no HTTP and no database code.
// The SQL of "in force on a day" is spelled here as text only (inforce.go:
// InForceCond, UpcomingCond, InForceOrToStartCond, conditions on table
// bans built from the same terms as Ban.InForce); the queries that run it
// belong to the readers of table bans (registry/blocklist, cases). Ban and
// DayList map the table's columns (gorm tags, driver.Valuer). The legal
// specification is DOMAIN.md sections 2 and 3; the statutes are Lei
// 10.671/2003 (Estatuto de Defesa do Torcedor, original text and the wordings
// of Lei 12.299/2010 and Lei 13.912/2019) and Lei 14.597/2023 (Lei Geral do
// Esporte, LGE), arts. 183, 184 and 201. The law in force at the date of the
// facts applies; a later law applies only when it is milder (CF, art. 5º, XL;
// CP, art. 2º, parágrafo único).
//
// User-facing strings (Range.Reason, Range.Why, Range.Notes, error messages)
// are in Brazilian Portuguese.
package sanctions
