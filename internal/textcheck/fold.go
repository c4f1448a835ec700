package textcheck

import (
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// FoldAccents returns s lower-cased and without accents (every combining
// mark of its NFD form removed: "São João" → "sao joao"), spacing kept. This
// is the one accent folding of Go code; SQL uses f_unaccent (migrations).
func FoldAccents(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, s)
	if err != nil {
		out = s
	}
	return strings.ToLower(out)
}

// Fold returns s folded as FoldAccents does, with surrounding spaces trimmed
// and runs of spaces made one ("  Grêmio   FBPA " → "gremio fbpa"): the key
// under which names of clubs, competitions, venues and groups are compared.
func Fold(s string) string {
	return strings.Join(strings.Fields(FoldAccents(s)), " ")
}
