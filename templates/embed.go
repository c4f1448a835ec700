// Package templates holds the wording people read: HTML pages (html/) and
// document wording (pdf/), embedded in the binary.
package templates

import "embed"

// FS holds html/*.html and pdf/*.tmpl (the default wording of the court
// documents; JUIZADO_TEMPLATES_DIR overrides it file by file).
//
//go:embed html pdf/*.tmpl
var FS embed.FS
