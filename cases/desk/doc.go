// Package desk holds the court's work queues (issue 30, item 1; API.md
// "Court's desk"): what the clerk, the judge and the prosecutor of a court
// have to do today — the appeal windows ending, the hearings, the cases
// concluded to the judge, the sentences to notify, the judgments ready to
// be certified final, the precautionary reviews and bans ending, the bans
// awaiting identification and the counsel's requests. Each queue is one
// set-based query over the court (no loop over its cases), with its full
// count and at most Limit items, most urgent first.
//
// It sits above cases, calendar and decisions (it reads their tables, the
// owners' rule of migrations/owners_test.go) and counts windows with the
// calendar's own code (calendar.Service.WindowsEnding, FinalityMissing):
// it computes no law of its own. internal/app assembles the queues of a
// role (App.Desk).
package desk
