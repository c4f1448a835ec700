package textcheck

import "testing"

func TestProblem(t *testing.T) {
	cases := []struct {
		in, rule  string
		multiline bool
	}{
		{"Marcelo Augusto Figueiredo", "", false},
		{"José da Conceição", "", false},
		{"Jose\u0301 da Conceic\u0327a\u0303o", "", false},
		{"\u202eMarcelo Augusto Figueiredo", RuleInvisible, false},
		{"Marcelo\u2066 Augusto", RuleInvisible, false},
		{"Marcelo\u200f", RuleInvisible, false},
		{"Marcelo\u061c", RuleInvisible, false},
		{"\u200b", RuleInvisible, false},
		{"Garra do Tatuapé\u200b", RuleInvisible, false},
		{"Garra\u00ad do Tatuapé", RuleInvisible, false},
		{"\ufeffGarra", RuleInvisible, false},
		{"\ue000Garra", RuleInvisible, false},
		{"\ufffdMarcelo", RuleInvalid, false},
		{"Marcelo\x00", RuleControl, false},
		{"Marcelo\u0085", RuleControl, false},
		{"Marcelo\nAugusto", RuleControl, false},
		{"Marcelo\nAugusto", "", true},
		{"Marcelo\u2028Augusto", RuleControl, true},
		{"\xffMarcelo", RuleUTF8, false},
	}
	for _, c := range cases {
		if rule, msg := Problem(c.in, 200, c.multiline); rule != c.rule || (rule != "") != (msg != "") {
			t.Errorf("Problem(%+q) = %q %q, want rule %q", c.in, rule, msg, c.rule)
		}
	}
	if rule, _ := Problem("ááá", 2, false); rule != RuleMaxLength {
		t.Errorf("3 runes over a limit of 2: rule %q", rule)
	}
	if Line("  Jose\u0301   da  Silva ") != "José da Silva" {
		t.Errorf("Line: %+q", Line("  Jose\u0301   da  Silva "))
	}
}

// Names of clubs, venues and groups compare without case, accents or extra
// spaces (DOMAIN.md: club and venue names as typed in the schedule).
func TestFoldIgnoresCaseAccentsAndSpacing(t *testing.T) {
	if got := Fold("  Grêmio   Foot-Ball  Porto Alegrense "); got != "gremio foot-ball porto alegrense" {
		t.Errorf("Fold = %q", got)
	}
	if got := FoldAccents("São  JOÃO"); got != "sao  joao" {
		t.Errorf("FoldAccents = %q", got)
	}
	if Fold("Estádio Beira-Rio") != Fold("estadio beira-rio") {
		t.Error("folded names differ")
	}
}
