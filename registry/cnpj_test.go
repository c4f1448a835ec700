package registry

import "testing"

func TestParseCNPJ(t *testing.T) {
	for in, want := range map[string]string{
		"11.222.333/0001-81":  "11222333000181",
		"11222333000181":      "11222333000181",
		" 04.252.011/0001-10": "04252011000110",
	} {
		if got, err := ParseCNPJ(in); err != nil || got != want {
			t.Errorf("ParseCNPJ(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"11.222.333/0001-82", "11111111111111", "1122233300018", "11.222.333/0001-8a", ""} {
		if got, err := ParseCNPJ(in); err == nil {
			t.Errorf("ParseCNPJ(%q) = %q, want an error", in, got)
		}
	}
}
