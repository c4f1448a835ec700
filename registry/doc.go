// Package registry holds who is known to the court:
//
//   - identity numbers: CPF (cpf.go, and as gates type it: cpfspell.go)
//     and CNPJ (cnpj.go);
//   - the organised fan groups a court registers and their registers of
//     members (LGE art. 178): groups.go, members*.go (the ten fields, the
//     periods, photos, history, the members a group ban reaches),
//     import*.go and export.go (spreadsheets), recorded reads;
//     courtgroups.go is what cases reads of them.
//
// registry owns the tables of groups and members (README "Tables and their
// owners"). The court's other registry, the public list of banned fans and
// the gate blocklist, is package registry/blocklist; the stadium side of
// the blocklist is package registry/gate.
package registry
