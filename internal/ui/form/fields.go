package form

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/juizado/juizado/internal/errs"
)

// Int reads a whole number typed in a form: nil when empty; what is not
// one is an error on field.
func Int(f *errs.Fields, field, v string) *int {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		f.Add(field, "integer", "Use um número inteiro.")
		return nil
	}
	return &n
}

// ID reads an id chosen in a form; 0 when empty or not an int64 (a
// number too large no longer becomes 9223372036854775807).
func ID(v string) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// Ref reads an id chosen in a form: 0 when empty; a value that is not a
// positive integer of at most 19 digits is an error on field quoting what
// was typed (never a different number).
func Ref(f *errs.Fields, field, v string) int64 {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		f.Add(field, "id", fmt.Sprintf("Identificador %q inválido: escolha uma opção da lista.", v))
		return 0
	}
	return n
}

// Lines is a textarea's non-empty lines, trimmed.
func Lines(v string) []string {
	var out []string
	for _, line := range strings.Split(v, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// Tri reads "true"/"false" ("sim"/"não") or "" (nil: derived).
func Tri(v string) *bool {
	switch v {
	case "true", "sim", "on":
		t := true
		return &t
	case "false", "nao", "não":
		f := false
		return &f
	}
	return nil
}
