// Package casefile is the case as a whole, as the API and the pages show
// it: the case view that gathers every part (the docket, hearings,
// deadlines, decisions and bans), the list and the name search (table
// name_heads), and the writes that answer with the whole case (a workflow
// transition, which may distribute the case, answer a plea, end a
// suspension or start the bans at the final judgment; the link of a group
// defendant; the appeal's result).
//
// It is the top of cases: it reads cases, calendar, decisions and
// execution, and nothing of cases imports it.
package casefile
