package server

import (
	"strings"
	"testing"
)

// IntParam follows the body reader's vocabulary (numberProblem): no
// integer is rule "integer"; an integer outside the parameter's limits,
// its own or an int64's, is rule "range"; the message names the parameter
// and the limits.
func TestIntParamIntegerAndRange(t *testing.T) {
	for _, tc := range []struct {
		raw       string
		lo, hi    int64
		want      int64
		rule, msg string
	}{
		{"7", 1, 10, 7, "", ""},
		{" +7 ", 1, 10, 7, "", ""},
		{"1", 1, 10, 1, "", ""},
		{"10", 1, 10, 10, "", ""},
		{"9223372036854775807", 1, MaxID, MaxID, "", ""},
		{"0", 1, 10, 0, "range", "p deve ser um número inteiro de 1 a 10: 0 está fora desse intervalo."},
		{"-1", 1, 10, 0, "range", "de 1 a 10: -1 está"},
		{"11", 1, 10, 0, "range", "de 1 a 10: 11 está"},
		{"99999999999999999999", 1, MaxID, 0, "range", "de 1 a 9223372036854775807: 99999999999999999999 está"},
		{"-99999999999999999999", 0, MaxID, 0, "range", "de 0 a 9223372036854775807"},
		{"1.5", 1, 10, 0, "integer", `p deve ser um número inteiro de 1 a 10, não "1.5".`},
		{"1e3", 1, 10, 0, "integer", `não "1e3"`},
		{"1_000", 1, 10000, 0, "integer", `não "1_000"`},
		{"0x10", 1, 100, 0, "integer", `não "0x10"`},
		{"", 1, 10, 0, "integer", `não ""`},
		{"x\x00", 1, 10, 0, "integer", `não "x\x00"`},
		{strings.Repeat("9", 100), 1, 10, 0, "range", strings.Repeat("9", 40) + "… está"},
	} {
		n, fe := IntParam("p", tc.raw, tc.lo, tc.hi)
		switch {
		case tc.rule == "" && (fe != nil || n != tc.want):
			t.Errorf("%q: %d %v, want %d", tc.raw, n, fe, tc.want)
		case tc.rule != "" && (fe == nil || fe.Field != "p" || fe.Rule != tc.rule || !strings.Contains(fe.Message, tc.msg) || n != 0):
			t.Errorf("%q: %d %+v, want rule %s with %q", tc.raw, n, fe, tc.rule, tc.msg)
		}
	}
}

// LooksInteger tells an id written as an integer, of any size, from
// another key (a court's code, 21.0001).
func TestLooksInteger(t *testing.T) {
	for s, want := range map[string]bool{"12": true, " -12 ": true, "+0": true, "99999999999999999999": true,
		"": false, "-": false, "21.0001": false, "1e3": false, "abc": false, "1 2": false} {
		if LooksInteger(s) != want {
			t.Errorf("LooksInteger(%q) = %v", s, !want)
		}
	}
}
