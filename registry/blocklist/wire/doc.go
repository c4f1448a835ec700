// Package wire is the blocklist as it travels from the court to the
// gates: the JSON shapes the court signs (GET /api/v1/blocklist, the
// change feed, the CPF check) and the gate agent (registry/gate) verifies
// and reads, the key ids and the rotation message of the signing keys,
// and the CPF check digits both sides check. It is written once here and
// imported by both; it imports no database code (the gate agent runs
// without a database), only the standard library.
//
// The shapes are generic in D, the Go type of a date: the court reads and
// writes dates as civil.Date, the gate keeps the YYYY-MM-DD strings it
// received (its index slices them without parsing); both encode a date as
// "YYYY-MM-DD", so the JSON is the same. ../shared/API.md "Public list and
// blocklist", "Scope and match terms" and "Gate agent"; DOMAIN.md §6.
package wire
