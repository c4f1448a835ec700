// Package blocklist owns the court's list of banned fans end to end, from
// the bans in force to the bytes a gate agent verifies (Lei 10.671/2003,
// art. 5º, par. único, VI; Lei 14.597/2023, art. 201; DOMAIN.md §6;
// ../shared/API.md "Public list and blocklist"):
//
//   - lists.go: the public list (no CPF), the gate blocklist's entries and
//     a CPF's check, read from the bans in force on the court's date
//     (Lists.inForceOn, with sanctions.InForceCond), and the bans
//     awaiting identification;
//   - scope.go: where a ban applies at a gate (venues, clubs' home matches,
//     match days);
//   - feed.go: the versions (made in commit order under an advisory lock),
//     the signed change feed, its cursors and its pruning, Reconcile;
//   - keys.go: the Ed25519 signing key in files, its rotation and the
//     feed cursors' HMAC key;
//   - publisher.go, checkindex.go, csv.go: the prepared
//     snapshot (JSON and CSV bodies, signed once per version), its cache,
//     the in-memory CPF index, the feed's long-poll, the refresh ticker
//     and the metrics — what the HTTP handlers serve;
//   - checklog.go, checkbatch.go: the log of the gates' CPF checks (breach
//     evidence: each read is logged) and the agents' uploaded batches.
//
// It owns the tables blocklist_versions, blocklist_entries,
// blocklist_changes, blocklist_feed, blocklist_checks and
// blocklist_check_batches (README "Tables and their owners"). The wire
// types the court writes and the gate agent (registry/gate) reads are in
// registry/blocklist/wire, which imports no database code. cases tells the
// package which bans changed (Lists.RefreshBans); internal/api only
// translates HTTP to Publisher and Lists calls.
package blocklist
