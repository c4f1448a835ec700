package pdf

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/templates"
	"github.com/jung-kurt/gofpdf"
)

// A defendant's birth date comes out whole, on one line, in the summary's
// table of defendants: the "Nascimento" column is at least as wide as the
// widest long date ("30 de setembro de 1996", every month tried, day 28 to
// 31) in the table's type, and the text shows each date on one line, apart
// from the next column (it had been "5 de setembro de" / "1996", with a
// single space before the parents' names).
func TestSummaryBirthColumnHoldsALongDateOnOneLine(t *testing.T) {
	f := gofpdf.New("P", "mm", "A4", "")
	addFonts(f)
	d := &doc{f: f}
	const size = baseSize * tableScale
	widest, widestW := "", 0.0
	for m := 1; m <= 12; m++ {
		for day := 28; day <= 31; day++ {
			s := LongDate(civil.Date{Year: 1996, Month: time.Month(m), Day: day})
			if w := d.width(s, "", size); w > widestW {
				widest, widestW = s, w
			}
		}
	}
	court := CourtData{Code: "26.0100", Name: "Juizado Especial Criminal do Torcedor da Capital"}
	dates := []string{widest, "30 de setembro de 1996", "5 de setembro de 1996"}
	data := &CaseData{Court: court, Number: "0000001-05.2025.8.26.0100", Status: "sentenciado", Today: "15 de julho de 2025"}
	for i, bd := range dates {
		data.Defendants = append(data.Defendants, DefendantData{ID: int64(i + 1), Person: true, Name: "Helena Teste", CPF: "663.923.321-54",
			BirthDate: bd, MotherName: "Maria Aparecida dos Santos Teste"})
	}
	markup, err := Wording{Embedded: templates.FS}.Execute(KindSummary, data)
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := parseMarkup(markup)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, b := range blocks {
		if b.kind != bTable {
			continue
		}
		col := slices.Index(b.rows[0], "Nascimento")
		if col < 0 {
			continue
		}
		found = true
		w := d.colWidths(b, size)
		if inner := w[col] - 2*cellPad; inner < widestW {
			t.Errorf("the Nascimento column is %.1f mm inside, %q %.1f mm", inner, widest, widestW)
		}
	}
	if !found {
		t.Fatal("summary: no table with a Nascimento column")
	}
	pdf, _, err := Layout(testMeta, markup)
	if err != nil {
		t.Fatal(err)
	}
	text := pdfText(t, pdf, "-layout")
	for _, bd := range dates {
		ok := false
		for _, l := range strings.Split(text, "\n") {
			if i := strings.Index(l, bd); i >= 0 {
				ok = true
				if rest := l[i+len(bd):]; !strings.HasPrefix(rest, "  ") {
					t.Errorf("%q is followed by %q: no gap before the next column", bd, rest)
				}
			}
		}
		if !ok {
			t.Errorf("%q is not on one line:\n%s", bd, text)
		}
	}
}
