package registry

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/sharedfix"
)

type fixture struct {
	Valid   []string `json:"valid"`
	Invalid []string `json:"invalid"`
}

func loadFixture(t *testing.T) fixture {
	t.Helper()
	b, err := os.ReadFile(sharedfix.Path(t, "cases", "cpf.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f fixture
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Valid) == 0 || len(f.Invalid) == 0 {
		t.Fatal("cpf.json: empty lists")
	}
	return f
}

func TestParseCPFSharedFixture(t *testing.T) {
	f := loadFixture(t)
	for _, s := range f.Valid {
		c, err := ParseCPF(s)
		if err != nil {
			t.Errorf("ParseCPF(%q): %v", s, err)
			continue
		}
		digits := strings.NewReplacer(".", "", "-", "").Replace(s)
		if c.String() != digits {
			t.Errorf("ParseCPF(%q).String() = %q, want %q", s, c.String(), digits)
		}
		if strings.Contains(s, ".") && c.Formatted() != s {
			t.Errorf("ParseCPF(%q).Formatted() = %q", s, c.Formatted())
		}
	}
	for _, s := range f.Invalid {
		if c, err := ParseCPF(s); err == nil {
			t.Errorf("ParseCPF(%q) = %q, want error", s, c)
		}
	}
}

func TestParseCPF(t *testing.T) {
	tests := []struct {
		in, want, reason string
	}{
		{in: "526.018.159-06", want: "52601815906"},
		{in: "52601815906", want: "52601815906"},
		{in: "  526.018.159-06\t\n", want: "52601815906"},
		{in: " 00830166190 ", want: "00830166190"},
		{in: "", reason: "CPF não informado"},
		{in: "   ", reason: "CPF não informado"},
		{in: "5260181590", reason: "CPF deve ter 11 dígitos"},
		{in: "526018159066", reason: "CPF deve ter 11 dígitos"},
		{in: "5260181590a", reason: "CPF deve conter apenas dígitos"},
		{in: "526.018.15a-06", reason: "CPF deve conter apenas dígitos"},
		{in: "526.018.159.06", reason: "pontuação"},
		{in: "526-018-159.06", reason: "pontuação"},
		{in: "5260.18.159-06", reason: "pontuação"},
		{in: "526018159-06", reason: "pontuação"},
		{in: "526.018.15906", reason: "pontuação"},
		{in: "526.018.159-6", reason: "pontuação"},
		{in: "526 018 159 06", reason: "CPF deve conter apenas dígitos"},
		{in: "５２６０１８１５９０６", reason: "CPF deve conter apenas dígitos"},
		{in: "22222222222", reason: "todos os dígitos iguais"},
		{in: "000.000.000-00", reason: "todos os dígitos iguais"},
		{in: "52601815907", reason: "dígitos verificadores do CPF não conferem"},
		{in: "526.018.159-16", reason: "dígitos verificadores do CPF não conferem"},
	}
	for _, tt := range tests {
		c, err := ParseCPF(tt.in)
		if tt.reason == "" {
			if err != nil || string(c) != tt.want {
				t.Errorf("ParseCPF(%q) = %q, %v; want %q", tt.in, c, err, tt.want)
			}
			continue
		}
		var ce *CPFError
		if !errors.As(err, &ce) {
			t.Errorf("ParseCPF(%q) = %q, %v; want *CPFError", tt.in, c, err)
			continue
		}
		if !strings.Contains(ce.Error(), tt.reason) || ce.Error() != ce.Reason {
			t.Errorf("ParseCPF(%q) error %q, want it to contain %q", tt.in, ce.Error(), tt.reason)
		}
	}
}

// The strict form's refusals name the spellings it accepts (filing takes
// 000.000.000-00 or 11 digits; the gate's check takes any spelling).
func TestParseCPF_MessagesNameTheSpellings(t *testing.T) {
	for _, s := range []string{"663923321-54", " 663 923 321 54 ", "663.923.32154", "663-923-321-54"} {
		_, err := ParseCPF(s)
		if err == nil || !strings.Contains(err.Error(), "000.000.000-00") || !strings.Contains(err.Error(), "11 dígitos") {
			t.Errorf("ParseCPF(%q): %v, want a message naming 000.000.000-00 and the 11 digits", s, err)
		}
		if c, err := ParseCPFAnySpelling(s); err != nil || c != "66392332154" {
			t.Errorf("ParseCPFAnySpelling(%q) = %q, %v", s, c, err)
		}
	}
}

func TestCPFFormatting(t *testing.T) {
	c := CPF("00830166190")
	if got := c.Formatted(); got != "008.301.661-90" {
		t.Errorf("Formatted() = %q", got)
	}
	if got := c.String(); got != "00830166190" {
		t.Errorf("String() = %q", got)
	}
}

func TestCPFCheckDigits(t *testing.T) {
	tests := map[string]string{
		"526018159":  "06",
		"008301661":  "90",
		"003186091":  "50",
		"390996030":  "88",
		"12345678":   "",
		"1234567890": "",
		"12345678a":  "",
	}
	for in, want := range tests {
		if got := CPFCheckDigits(in); got != want {
			t.Errorf("CPFCheckDigits(%q) = %q, want %q", in, got, want)
		}
	}
	// Generated CPFs parse, unless all digits are equal.
	for i := 0; i < 1000000000; i += 9973 {
		base := pad9(i)
		c := base + CPFCheckDigits(base)
		_, err := ParseCPF(c)
		allEqual := strings.Count(c, c[:1]) == 11
		if (err == nil) == allEqual {
			t.Fatalf("ParseCPF(%q) err = %v (all equal %v)", c, err, allEqual)
		}
	}
}

func pad9(i int) string {
	s := strings.Repeat("0", 9) + itoa(i)
	return s[len(s)-9:]
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

func TestRestoreCPFLeadingZeros(t *testing.T) {
	tests := []struct {
		in       string
		want     CPF
		restored bool
		fail     bool
	}{
		{in: "830166190", want: "00830166190", restored: true},
		{in: "318609150", want: "00318609150", restored: true},
		{in: "52601815906", want: "52601815906", restored: false},
		{in: "830166191", fail: true},    // padded, wrong check digits
		{in: "0", fail: true},            // all zeros
		{in: "", fail: true},             // empty
		{in: "8.301.661-90", fail: true}, // punctuation
		{in: "8301661e90", fail: true},   // letters
		{in: "830166190.0", fail: true},  // Excel decimal
		{in: "526018159060", fail: true}, // too long
		{in: "52601815907", fail: true},  // 11 digits, wrong check digits
	}
	for _, tt := range tests {
		c, restored, err := RestoreCPFLeadingZeros(tt.in)
		if tt.fail {
			var ce *CPFError
			if !errors.As(err, &ce) {
				t.Errorf("RestoreCPFLeadingZeros(%q) = %q, %v, %v; want *CPFError", tt.in, c, restored, err)
			}
			continue
		}
		if err != nil || c != tt.want || restored != tt.restored {
			t.Errorf("RestoreCPFLeadingZeros(%q) = %q, %v, %v; want %q, %v", tt.in, c, restored, err, tt.want, tt.restored)
		}
	}
}

func FuzzParseCPF(f *testing.F) {
	for _, s := range []string{"526.018.159-06", "52601815906", " 008.301.661-90 ", "111.111.111-11", "abc.def.ghi-jk", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCPF(s)
		if err != nil {
			var ce *CPFError
			if !errors.As(err, &ce) || ce.Reason == "" {
				t.Fatalf("ParseCPF(%q): error %v is not a *CPFError with a reason", s, err)
			}
			return
		}
		if len(c) != 11 {
			t.Fatalf("ParseCPF(%q) = %q, not 11 digits", s, c)
		}
		for _, form := range []string{c.String(), c.Formatted()} {
			again, err := ParseCPF(form)
			if err != nil || again != c {
				t.Fatalf("ParseCPF(%q) = %q, but re-parse of %q gave %q, %v", s, c, form, again, err)
			}
		}
		r, _, err := RestoreCPFLeadingZeros(c.String())
		if err != nil || r != c {
			t.Fatalf("RestoreCPFLeadingZeros(%q) = %q, %v", c, r, err)
		}
	})
}

func TestParseCPFAnySpelling(t *testing.T) {
	for _, s := range []string{"468.819.736-59", "46881973659", " 468 819 736 59 ", "468.819.73659", "468-819-736-59"} {
		if c, err := ParseCPFAnySpelling(s); err != nil || c != "46881973659" {
			t.Errorf("%q: %q %v", s, c, err)
		}
	}
	for _, s := range []string{"", "468.819.736-58", "4688197365", "468819736590", "468x819x736x59", "11111111111", "４６８８１９７３６５９"} {
		if _, err := ParseCPFAnySpelling(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}
