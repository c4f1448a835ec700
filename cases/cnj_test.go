package cases

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/sharedfix"
)

func TestParseCNJSharedFixture(t *testing.T) {
	b, err := os.ReadFile(sharedfix.Path(t, "cases", "cnj.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Valid   []string `json:"valid"`
		Invalid []string `json:"invalid"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Valid) == 0 || len(f.Invalid) == 0 {
		t.Fatal("cnj.json: empty lists")
	}
	for _, s := range f.Valid {
		n, err := ParseCNJ(s)
		if err != nil {
			t.Errorf("ParseCNJ(%q): %v", s, err)
			continue
		}
		if n.String() != s {
			t.Errorf("ParseCNJ(%q).String() = %q", s, n.String())
		}
		if d := strings.NewReplacer("-", "", ".", "").Replace(s); n.Digits() != d {
			t.Errorf("ParseCNJ(%q).Digits() = %q, want %q", s, n.Digits(), d)
		}
		m, err := NewCNJ(n.Sequence, n.Year, n.Segment, n.Court, n.Unit)
		if err != nil || m != n {
			t.Errorf("NewCNJ from parts of %q = %v, %v", s, m, err)
		}
	}
	for _, s := range f.Invalid {
		if n, err := ParseCNJ(s); err == nil {
			t.Errorf("ParseCNJ(%q) = %v, want error", s, n)
		}
	}
}

func TestParseCNJ(t *testing.T) {
	want := CNJNumber{Sequence: 1512315, CheckDigits: 89, Year: 2022, Segment: 8, Court: 26, Unit: 268}
	for _, s := range []string{
		"1512315-89.2022.8.26.0268",
		"15123158920228260268",
		"  1512315-89.2022.8.26.0268\n",
		"\t15123158920228260268 ",
	} {
		n, err := ParseCNJ(s)
		if err != nil || n != want {
			t.Errorf("ParseCNJ(%q) = %+v, %v; want %+v", s, n, err, want)
		}
	}

	tests := []struct{ in, reason string }{
		{"0000000-00.0000.0.00.0000", "segmento"},
		{"00000000000000000000", "segmento"},
		{"0058967-76.2016.8.19.0000", "dígitos verificadores do número CNJ não conferem"},
		{"00589677620168190000", "dígitos verificadores do número CNJ não conferem"},
		{"58967-77.2016.8.19.0000x", "20 dígitos"},
		{"", "20 dígitos"},
		{"0058967-77.2016.8.19.000", "20 dígitos"},
		{"0058967.77-2016.8.19.0000", "fora do padrão"},
		{"0058967-77.2016-8.19.0000", "fora do padrão"},
		{"0058967-7a.2016.8.19.0000", "apenas dígitos"},
		{"0058967772016819000a", "apenas dígitos"},
		{"+058967772016819000", "20 dígitos"},
		{"+0589677720168190000", "apenas dígitos"},
		{"0058967-77.2016.８.19.0000", "20 dígitos"},
	}
	for _, tt := range tests {
		n, err := ParseCNJ(tt.in)
		var ce *CNJError
		if !errors.As(err, &ce) {
			t.Errorf("ParseCNJ(%q) = %+v, %v; want *CNJError", tt.in, n, err)
			continue
		}
		if !strings.Contains(ce.Error(), tt.reason) || ce.Error() != ce.Reason {
			t.Errorf("ParseCNJ(%q) error %q, want it to contain %q", tt.in, ce.Error(), tt.reason)
		}
	}
}

func TestParseCNJNonCanonicalCheckDigits(t *testing.T) {
	// Find numbers whose check digits are 98 and 02: 01 and 99 satisfy the
	// mod 97 congruence too but are never issued.
	found := map[int]bool{}
	for seq := 0; seq < 1000 && len(found) < 2; seq++ {
		n, err := NewCNJ(seq, 2024, 8, 26, 100)
		if err != nil {
			t.Fatal(err)
		}
		alias := map[int]int{98: 1, 2: 99}[n.CheckDigits]
		if alias == 0 || found[n.CheckDigits] {
			continue
		}
		found[n.CheckDigits] = true
		if _, err := ParseCNJ(n.String()); err != nil {
			t.Fatalf("ParseCNJ(%q): %v", n, err)
		}
		w := n
		w.CheckDigits = alias
		if got, err := ParseCNJ(w.String()); err == nil {
			t.Errorf("ParseCNJ(%q) = %+v, want error (check digits %02d are never issued)", w, got, alias)
		}
	}
	if len(found) < 2 {
		t.Fatalf("no sample with check digits 98 and 02 found: %v", found)
	}
}

func TestParseCNJAllSegments(t *testing.T) {
	for j := 1; j <= 9; j++ {
		n, err := NewCNJ(58967, 2016, j, 19, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := ParseCNJ(n.String()); err != nil || got != n {
			t.Errorf("segment %d: ParseCNJ(%q) = %+v, %v", j, n, got, err)
		}
	}
}

func TestNewCNJ(t *testing.T) {
	n, err := NewCNJ(1, 2024, 8, 26, 100)
	if err != nil {
		t.Fatal(err)
	}
	if n.String() != "0000001-39.2024.8.26.0100" || n.Digits() != "00000013920248260100" {
		t.Errorf("NewCNJ(1, 2024, 8, 26, 100) = %s / %s", n, n.Digits())
	}
	if dd := CNJCheckDigits(58967, 2016, 8, 19, 0); dd != 77 {
		t.Errorf("CNJCheckDigits = %d, want 77", dd)
	}

	// Largest parts: the 18-digit value exceeds what a naive int32 and, times
	// 100, an int64 can hold; the computation must still be right.
	max, err := NewCNJ(9999999, 9999, 9, 99, 9999)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ParseCNJ(max.String()); err != nil || got != max {
		t.Errorf("ParseCNJ(%q) = %+v, %v", max, got, err)
	}
	if got, err := ParseCNJ(max.Digits()); err != nil || got != max {
		t.Errorf("ParseCNJ(%q) = %+v, %v", max.Digits(), got, err)
	}
	// Cross-check with a different chunking of the same digit string.
	if want := 98 - chunkedMod97("99999999999999999900", 9); max.CheckDigits != want {
		t.Errorf("max check digits = %d, want %d", max.CheckDigits, want)
	}

	bad := [][5]int{
		{-1, 2024, 8, 26, 100},
		{10000000, 2024, 8, 26, 100},
		{1, -1, 8, 26, 100},
		{1, 10000, 8, 26, 100},
		{1, 2024, 0, 26, 100},
		{1, 2024, 10, 26, 100},
		{1, 2024, 8, -1, 100},
		{1, 2024, 8, 100, 100},
		{1, 2024, 8, 26, -1},
		{1, 2024, 8, 26, 10000},
	}
	for _, p := range bad {
		_, err := NewCNJ(p[0], p[1], p[2], p[3], p[4])
		var ce *CNJError
		if !errors.As(err, &ce) || ce.Reason == "" {
			t.Errorf("NewCNJ%v: err = %v, want *CNJError", p, err)
		}
		if dd := CNJCheckDigits(p[0], p[1], p[2], p[3], p[4]); dd != -1 {
			t.Errorf("CNJCheckDigits%v = %d, want -1", p, dd)
		}
	}
}

// chunkedMod97 computes a digit string mod 97 in chunks of size digits, the
// ISO 7064 piecewise method, as an independent check of mod97.
func chunkedMod97(digits string, size int) int {
	r := 0
	for len(digits) > 0 {
		k := min(size, len(digits))
		v := 0
		pow := 1
		for i := 0; i < k; i++ {
			v = v*10 + int(digits[i]-'0')
			pow *= 10
		}
		r = (r*pow + v) % 97
		digits = digits[k:]
	}
	return r
}

func TestNewCNJSequenceRange(t *testing.T) {
	// Every sequence of sampled ranges, across years, courts and units.
	for _, start := range []int{0, 1234567, 9990000} {
		for seq := start; seq < start+10000 && seq <= 9999999; seq++ {
			year, court, unit := 2000+seq%30, seq%100, (seq*7)%10000
			n, err := NewCNJ(seq, year, 8, court, unit)
			if err != nil {
				t.Fatal(err)
			}
			if n.CheckDigits < 2 || n.CheckDigits > 98 {
				t.Fatalf("NewCNJ(%d...) check digits %d out of 2..98", seq, n.CheckDigits)
			}
			got, err := ParseCNJ(n.String())
			if err != nil || got != n {
				t.Fatalf("ParseCNJ(%q) = %+v, %v", n, got, err)
			}
			if chunkedMod97(n.Digits()[0:7]+n.Digits()[9:20]+n.Digits()[7:9], 5) != 1 {
				t.Fatalf("%s: N AAAA J TR OOOO DD mod 97 != 1", n)
			}
			// Any other check digits are rejected, including the congruent
			// but never issued 00, 01 and 99.
			wrong := n
			wrong.CheckDigits = (n.CheckDigits + 1 + seq%99) % 100
			if _, err := ParseCNJ(wrong.String()); err == nil {
				t.Fatalf("ParseCNJ(%q) accepted wrong check digits (right: %02d)", wrong, n.CheckDigits)
			}
		}
	}
}

func FuzzParseCNJ(f *testing.F) {
	for _, s := range []string{
		"0058967-77.2016.8.19.0000",
		"15123158920228260268",
		" 0000001-39.2024.8.26.0100 ",
		"0000000-00.0000.0.00.0000",
		"58967-77.2016.8.19.0000x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseCNJ(s)
		if err != nil {
			var ce *CNJError
			if !errors.As(err, &ce) || ce.Reason == "" {
				t.Fatalf("ParseCNJ(%q): error %v is not a *CNJError with a reason", s, err)
			}
			return
		}
		for _, form := range []string{n.String(), n.Digits()} {
			again, err := ParseCNJ(form)
			if err != nil || again != n {
				t.Fatalf("ParseCNJ(%q) = %+v, but re-parse of %q gave %+v, %v", s, n, form, again, err)
			}
		}
		m, err := NewCNJ(n.Sequence, n.Year, n.Segment, n.Court, n.Unit)
		if err != nil || m != n {
			t.Fatalf("NewCNJ from parts of %q = %+v, %v; want %+v", s, m, err, n)
		}
	})
}
