// Package bnmp keeps the mandates of the Banco Nacional de Medidas Penais e
// Prisões (BNMP 3.0; Res. CNJ 417/2021, as amended by Res. CNJ 577/2024)
// for the court's stadium bans: it owns the table bnmp_mandates (migration
// 00230). Each ban and precautionary measure of a person is a mandate with
// the content of art. 19 (identification by CPF, the conditions, the legal
// basis by the date of the facts, the extent, a duration of at most 12
// months and a review date); a renewal, a change or correction, or the
// start of a new 12-month period of a longer ban is a new mandate (art.
// 20); a lifting, a replacement by the final ban, a conversion or an
// annulment is a revocation (art. 2º, VIII). The mandates are derived from
// the bans' state (Reconcile: idempotent, keyed by ban, period and content)
// before every read; the clerk records the BNMP number and date of each
// (Register). The queue alerts 10 days before each review date and mandate
// end (art. 25) and shows the precautionary measure whose review date
// passed without renewal as lapsed (art. 21) — to the judge, who decides:
// this package never lifts a ban.
package bnmp
