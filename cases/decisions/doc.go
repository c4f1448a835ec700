// Package decisions holds what the judge decides in a case: the sentence
// and its bans (tables sentences and bans; Lei 14.597/2023, art. 201; Lei
// 10.671/2003, art. 41-B), its range and scope, the precautionary ban (CPP
// arts. 282 and 319), plea agreements and their bars (plea_agreements; Lei
// 9.099/1995, art. 76), the conditional suspension (conditional_suspensions;
// art. 89), the settlement of a group case, the appeal's result
// (appeal_results; art. 82), and the warnings the judge needs before
// signing. The legal rules themselves are in package sanctions.
//
// It hangs from cases, calendar and schedule; execution and casefile read
// it.
package decisions
