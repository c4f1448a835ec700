package server

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/juizado/juizado/internal/errs"
	"github.com/labstack/echo/v4"
)

// MaxID is the greatest record id (a PostgreSQL bigint, Go int64): the
// upper limit of an id given in the query (?judge_id=, ?ban_id=).
const MaxID = math.MaxInt64

// IntParam is the one reader of an integer query parameter: raw, the text
// of parameter name as sent (spaces around it ignored), as an integer from
// lo to hi inclusive. The rules are the body reader's (BindJSON,
// numberProblem): text that is no integer ("x", "1.5", "1e3", empty) is a
// field error of rule "integer"; an integer outside [lo, hi] — below the
// parameter's minimum, above its maximum, or beyond an int64 — is rule
// "range"; both messages name the parameter and its limits, in
// Portuguese. On an error the value is 0.
func IntParam(name, raw string, lo, hi int64) (int64, *errs.FieldError) {
	shown := shorten(raw, 40)
	n, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
	switch {
	case errors.Is(err, strconv.ErrRange) || (err == nil && (n < lo || n > hi)):
		return 0, &errs.FieldError{Field: name, Rule: "range",
			Message: fmt.Sprintf("%s deve ser um número inteiro de %d a %d: %s está fora desse intervalo.", name, lo, hi, strings.TrimSpace(shown))}
	case err != nil:
		return 0, &errs.FieldError{Field: name, Rule: "integer",
			Message: fmt.Sprintf("%s deve ser um número inteiro de %d a %d, não %q.", name, lo, hi, shown)}
	}
	return n, nil
}

// QueryInt reads the optional integer query parameter name of c through
// IntParam (from lo to hi inclusive): def when it is absent or empty; on
// a bad value the field error ("integer" or "range") is added to f and
// def is returned, so that a handler reports every bad parameter at once
// (f.Err(): 422).
func QueryInt(c echo.Context, f *errs.Fields, name string, lo, hi, def int64) int64 {
	raw := c.QueryParam(name)
	if raw == "" {
		return def
	}
	n, fe := IntParam(name, raw, lo, hi)
	if fe != nil {
		*f = append(*f, *fe)
		return def
	}
	return n
}

// LooksInteger reports whether s, spaces around it ignored, is written as
// a decimal integer (an optional sign and digits only), of any size: a
// parameter that holds an id or another key (?record_id= of the audit
// trail: a record id or a court's code) is read as an integer (IntParam)
// only then.
func LooksInteger(s string) bool {
	s = strings.TrimSpace(s)
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	return s != "" && strings.Trim(s, "0123456789") == ""
}
