// Package migrations holds the SQL schema of Juizado as goose migrations
// (NNNNN_name.sql), embedded in the binary.
package migrations

import "embed"

// FS holds every migration file at its root.
//
//go:embed *.sql
var FS embed.FS
