// Package cases holds the juizado's cases, from the representation to the
// final judgment and the execution of its bans, one use case per method of
// Service, each in one transaction:
//
//   - filing (filing.go): validation of a representation, the CNJ number of
//     the court and year (cnj.go, Res. CNJ 65/2008), equitable distribution
//     to a judge; the courts themselves (courts.go);
//   - the docket and the workflow of statuses (model.go, workflow.go: Lei
//     9.099/1995), hearings (hearings.go), evidence (evidence.go), the
//     identification of a defendant (identify.go) and the link of a group
//     defendant to its registered group (link.go);
//   - the measures: plea agreements and their bars (plea.go, pleabars.go:
//     Lei 9.099/1995, art. 76), conditional suspension (suspension.go, art.
//     89), settlements of group cases (settlement.go), sentences with their
//     bans and the precautionary ban (sentence.go, scope.go);
//   - deadlines, the final judgment and prescription (deadlines.go,
//     period.go, prescription.go), warnings about other records (warnings.go);
//   - bans after the decision (bans.go): breach, lift, renewal, correction of
//     the last day, credit; the match schedules of reporting duties
//     (matches.go);
//   - reads: the case views of the API and pages (read.go), and what the
//     court documents print (print.go).
//
// The legal rules themselves are in package sanctions; cases applies them
// and stores the result. cases owns the tables of the cases, their courts,
// venues, schedules and bans (README "Tables and their owners"); it reads
// users through authz and fan groups and members through registry, and
// tells the blocklist which bans changed (Service.Blocklist).
package cases
