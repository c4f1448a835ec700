// Package registry holds who is known to the court and what it publishes
// about them:
//
//   - identity numbers: CPF (cpf.go, and as gates type it: cpfspell.go)
//     and CNPJ (cnpj.go);
//   - the organised fan groups a court registers and their registers of
//     members (LGE art. 178): groups.go, members.go (the ten fields, the
//     periods, photos, history, the members a group ban reaches), import.go
//     and export.go (spreadsheets), recorded reads; courtgroups.go is what
//     cases reads of them;
//   - the public list of banned fans and the gate blocklist (blocklist.go),
//     its versions and signed change feed (feed.go), the court's signing
//     keys (keys.go), where a ban applies at a gate (scope.go), and the log
//     of gate checks (checklog.go, checkbatch.go).
//
// registry owns the tables of groups, members and the blocklist (README
// "Tables and their owners"); cases tells it which bans changed
// (Lists.RefreshBans). The stadium side of the blocklist is package
// registry/gate.
package registry
