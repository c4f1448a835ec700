package cases

import (
	"fmt"
	"regexp"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/textcheck"
)

// Text limits in characters for the fields of a representation and a
// sentence: generous for real documents, bounded so that nobody stores a
// megabyte in a name.
const (
	maxName        = 200
	maxShort       = 300
	maxLong        = 20000
	maxListItems   = 50
	maxListItemLen = 200
)

// MaxDefendants bounds the defendants of one representation (422 on
// "defendants" above it); the filing form offers as many.
const MaxDefendants = maxListItems

// checkText adds an error when s breaks textcheck.Problem: longer than max
// characters, invalid UTF-8, U+FFFD, control characters (tabs and line
// breaks are allowed only when multiline), bidi, zero-width and other
// format characters. It reports whether s passed.
func checkText(f *errs.Fields, field, s string, max int, multiline bool) bool {
	if rule, msg := textcheck.Problem(s, max, multiline); rule != "" {
		f.Add(field, rule, msg)
		return false
	}
	return true
}

var isoDate = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// parseDate reads a YYYY-MM-DD date and adds the right error to f: the form,
// or a day that does not exist (2023-02-29).
func parseDate(f *errs.Fields, field, s string) (civil.Date, bool) {
	d, err := civil.Parse(s)
	if err == nil {
		return d, true
	}
	if isoDate.MatchString(s) {
		f.Add(field, "date", fmt.Sprintf("a data %s não existe no calendário.", s))
	} else {
		f.Add(field, "date", "data inválida: use AAAA-MM-DD.")
	}
	return civil.Date{}, false
}
