// Package execution holds the bans after the decision (tables breaches,
// ban_renewals, ban_extensions): the start of the bans at the final
// judgment (Súmula 643 STJ; CP art. 10), breach and its decision (Lei
// 14.597/2023, art. 201, § 3º), lift, renewal, extension, correction of
// the last day, credit (CP art. 42), the identification of a defendant
// whose bans wait for a CPF, and the ban status of a CPF that the court's
// certificate prints.
//
// It hangs from cases, calendar and decisions; casefile reads it.
package execution
