package server

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/errs"
	"github.com/labstack/echo/v4"
)

// A number the field's Go type cannot hold (out of range, or not an
// integer) is named where it is written: records[1].version when
// records[0].version is a good number, not the first number found under
// records.version.
func TestBindJSONNamesTheBadNumberOfAnArray(t *testing.T) {
	type rec struct {
		Version *int64 `json:"version"`
	}
	type body struct {
		Records []rec `json:"records"`
	}
	for _, c := range []struct{ body, field, rule string }{
		{`{"records":[{"version":7},{"version":1e400}]}`, "records[1].version", "range"},
		{`{"records":[{"version":7},{"version":8},{"version":1.5}]}`, "records[2].version", "integer"},
		{`{"records":[{"version":7},{"version":1E+3}]}`, "records[1].version", "integer"},
		{`{"records":[{"version":7},{"version":"7"}]}`, "records[1].version", "type"},
	} {
		req := httptest.NewRequest("POST", "/", strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		var dst body
		err := BindJSON(echo.New().NewContext(req, httptest.NewRecorder()), &dst)
		var e *errs.Error
		if !errors.As(err, &e) || e.Kind != errs.Invalid || len(e.Fields) != 1 || e.Fields[0].Field != c.field || e.Fields[0].Rule != c.rule {
			t.Errorf("%s: %v, want %s (rule %s)", c.body, err, c.field, c.rule)
		}
	}
}

// bindProblem is the one field problem BindJSON gives for body read into
// dst, or a failure of t.
func bindProblem(t *testing.T, body string, dst any) errs.FieldError {
	t.Helper()
	req := httptest.NewRequest("POST", "/", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	err := BindJSON(echo.New().NewContext(req, httptest.NewRecorder()), dst)
	var e *errs.Error
	if !errors.As(err, &e) || e.Kind != errs.Invalid || len(e.Fields) != 1 {
		t.Fatalf("%s: %v, want one field problem (422)", body, err)
	}
	return e.Fields[0]
}

// An integer the Go field cannot hold is out of range (rule "range", the
// limits of the Go type in the message), not "not an integer": 3000000000
// or -99999999999 for an int32, 1e30 for an int64 or a uint; a fraction is
// still "integer", and so is an integer in range written with an exponent
// or a decimal point (encoding/json reads only integer literals into ints).
func TestBindJSONOutOfRangeIntegerSaysRange(t *testing.T) {
	for _, c := range []struct{ body, field, rule, says string }{
		{`{"i32":3000000000}`, "i32", "range", "de -2147483648 a 2147483647"},
		{`{"i32":-99999999999}`, "i32", "range", "de -2147483648 a 2147483647"},
		{`{"i32":2147483648}`, "i32", "range", "de -2147483648 a 2147483647"},
		{`{"i32":3e9}`, "i32", "range", "de -2147483648 a 2147483647"},
		{`{"int":1e30}`, "int", "range", "de -9223372036854775808 a 9223372036854775807"},
		{`{"i64":-99999999999999999999}`, "i64", "range", "de -9223372036854775808 a 9223372036854775807"},
		{`{"int":9223372036854775808}`, "int", "range", "de -9223372036854775808 a 9223372036854775807"},
		{`{"int":1e999999999999}`, "int", "range", "de -9223372036854775808 a 9223372036854775807"},
		{`{"i8":-129}`, "i8", "range", "de -128 a 127"},
		{`{"i16":40000}`, "i16", "range", "de -32768 a 32767"},
		{`{"u8":256}`, "u8", "range", "de 0 a 255"},
		{`{"u":-1}`, "u", "range", "de 0 a 18446744073709551615"},
		{`{"u64":1e30}`, "u64", "range", "de 0 a 18446744073709551615"},
		{`{"items":[{"n":1},{"n":300}]}`, "items[1].n", "range", "de -128 a 127"},
		{`{"f32":1e39}`, "f32", "range", "3.4028235e+38"},
		{`{"f64":1e400}`, "f64", "range", "1.7976931348623157e+308"},
		// Not integers, or integers not written as such: "integer".
		{`{"i32":1.5}`, "i32", "integer", "não é inteiro"},
		{`{"i32":3000000000.5}`, "i32", "integer", "não é inteiro"},
		{`{"int":1e-999999999999}`, "int", "integer", "não é inteiro"},
		{`{"i32":1e3}`, "i32", "integer", "sem expoente"},
		{`{"int":9.2e18}`, "int", "integer", "sem expoente"},
		{`{"i32":7.0}`, "i32", "integer", "sem expoente"},
		{`{"u":-0}`, "u", "integer", "sem sinal"},
	} {
		p := bindProblem(t, c.body, new(fuzzShapes))
		if p.Field != c.field || p.Rule != c.rule || !strings.Contains(p.Message, c.says) {
			t.Errorf("%s: %s %s %q, want %s %s with %q", c.body, p.Field, p.Rule, p.Message, c.field, c.rule, c.says)
		}
	}
}

// A body nested deeper than the readers go (maxJSONDepth objects and
// arrays one inside the other) is a 400 that says so and gives the limit,
// not "a syntax error near byte 10001"; it is refused where the depth is
// passed, without reading the rest. At the limit, a body is read.
func TestBindJSONTooDeepSaysSo(t *testing.T) {
	deep := func(open, close string, n int) string {
		return strings.Repeat(open, n) + strings.Repeat(close, n)
	}
	for _, body := range []string{
		deep("[", "]", 100_000),
		strings.Repeat(`{"a":`, 100_000) + "1" + strings.Repeat("}", 100_000),
		`{"any":` + deep("[", "]", 100_000) + `}`,
		`{"any":` + deep(`{"k":`, "}", maxJSONDepth) + `}`,
		`{"any":` + deep("[", "]", maxJSONDepth) + `}`,
		`{"any":` + strings.Repeat(`["[{\"",`, maxJSONDepth) + `]`, // cut after the depth is passed
	} {
		req := httptest.NewRequest("POST", "/", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		err := BindJSON(echo.New().NewContext(req, httptest.NewRecorder()), new(fuzzShapes))
		var e *errs.Error
		if !errors.As(err, &e) || e.Kind != errs.Unreadable || !strings.Contains(e.Message, "aninhad") || !strings.Contains(e.Message, "10.000 níveis") {
			t.Errorf("%.40s… (%d bytes): %v, want 400 saying the body is nested too deep (limit 10.000)", body, len(body), err)
		}
	}
	for _, body := range []string{
		`{"any":` + deep("[", "]", maxJSONDepth-1) + `}`,
		`{"any":` + strings.Repeat(`["[{\"",`, maxJSONDepth-1) + "0" + strings.Repeat("]", maxJSONDepth-1) + `}`,
	} {
		if err := decodeBody([]byte(body), new(fuzzShapes)); err != nil {
			t.Errorf("%.40s… at the limit of %d levels: %v", body, maxJSONDepth, err)
		}
	}
}

// A NUL (which PostgreSQL cannot store) is named by its path with array
// indices, also at the bottom of a body nested to the limit.
func TestBindJSONNamesTheNUL(t *testing.T) {
	depth := maxJSONDepth - 2 // the top object and the list of "any"
	for body, want := range map[string]string{
		`{"items":[{"name":"a"},{"name":"b\u0000"}]}`:                                            "items[1].name",
		`{"map_any":{"x":{"y":["a","\u0000"]}}}`:                                                 "map_any.x.y[1]",
		`{"map_any":{"x":{"a\u0000":1}}}`:                                                        "map_any.x",
		`{"any":[` + strings.Repeat("[", depth) + `"\u0000"` + strings.Repeat("]", depth) + `]}`: "any" + strings.Repeat("[0]", depth+1),
	} {
		p := bindProblem(t, body, new(fuzzShapes))
		if p.Field != want || p.Rule != "no_nul" {
			t.Errorf("%.60s: %.60s %s, want %.60s no_nul", body, p.Field, p.Rule, want)
		}
	}
}
