// Package templates holds the wording people read: HTML pages (html/) and
// document wording (pdf/), embedded in the binary.
package templates

import "embed"

// FS holds html/*.html (and later pdf/*).
//
//go:embed html
var FS embed.FS
