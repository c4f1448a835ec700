package cases

import (
	"errors"
	"fmt"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/textcheck"
)

// MonthsText writes n months in Portuguese ("1 mês", "3 meses").
func MonthsText(n int) string {
	if n == 1 {
		return "1 mês"
	}
	return fmt.Sprintf("%d meses", n)
}

// NotFound is errs.NotFound saying what was not found.
func NotFound(what string) error { return errs.New(errs.NotFound, what+" não encontrado.") }

// Text limits in characters for the fields of a representation and a
// sentence: generous for real documents, bounded so that nobody stores a
// megabyte in a name.
const (
	MaxName        = 200
	MaxShort       = 300
	MaxLong        = 20000
	MaxListItems   = 50
	MaxListItemLen = 200
)

// MaxDefendants bounds the defendants of one representation (422 on
// "defendants" above it); the filing form offers as many.
const MaxDefendants = MaxListItems

// CheckText adds an error when s breaks textcheck.Problem: longer than max
// characters, invalid UTF-8, U+FFFD, control characters (tabs and line
// breaks are allowed only when multiline), bidi, zero-width and other
// format characters. It reports whether s passed.
func CheckText(f *errs.Fields, field, s string, max int, multiline bool) bool {
	if rule, msg := textcheck.Problem(s, max, multiline); rule != "" {
		f.Add(field, rule, msg)
		return false
	}
	return true
}

// ParseDate reads a YYYY-MM-DD date (civil.ParseISO) and adds the right
// error to f: the form ("data inválida: use AAAA-MM-DD."), or a day that
// does not exist (2023-02-29, 0000-01-01: civil.NoSuchDay).
func ParseDate(f *errs.Fields, field, s string) (civil.Date, bool) {
	d, err := civil.ParseISO(s)
	switch {
	case errors.Is(err, civil.ErrNoSuchDay):
		f.Add(field, "date", err.Error())
	case err != nil:
		f.Add(field, "date", "data inválida: use AAAA-MM-DD.")
	default:
		return d, true
	}
	return civil.Date{}, false
}
