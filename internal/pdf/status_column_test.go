package pdf

import (
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/juizado/juizado/sanctions"
	"github.com/juizado/juizado/templates"
	"github.com/jung-kurt/gofpdf"
)

// statusDocs are the documents whose tables have a "Situação" column of
// ban states (sanctions.StatePT), filled with one ban per state: the
// certificate (bans in force or to start, and those awaiting the final
// judgment) and the case summary (every state).
func statusDocs() []statusDoc {
	court := CourtData{Code: "26.0100", Name: "Juizado Especial Criminal do Torcedor da Capital"}
	ban := func(state string) BanData {
		return BanData{Name: "Łukasz Muñoz Sørensen", CaseNumber: "0000001-05.2025.8.26.0100", Rule: "art. 201, § 2º, da Lei 14.597/2023",
			FirstDayShort: "01/08/2025", LastDayShort: "31/01/2026", Months: "6 (seis) meses", State: state, Status: sanctions.StatePT[state],
			AwaitingFinal: state == sanctions.StateAwaitingFinal}
	}
	var all []BanData
	for _, st := range slices.Sorted(maps.Keys(sanctions.StatePT)) {
		all = append(all, ban(st))
	}
	cert := &CertificateData{Court: court, CPF: "663.923.321-54", Name: "Łukasz Muñoz Sørensen", Today: "15 de julho de 2025", Time: "15 de julho de 2025, às 14h05",
		Bans:     []BanData{ban(sanctions.StateInForce), ban(sanctions.StateNotStarted), ban(sanctions.StateInForce)},
		Awaiting: []BanData{ban(sanctions.StateAwaitingFinal)}}
	// A certificate with a ban that names its venues and one counted in
	// matches has the "Onde vale" column too (CertificateData.Scoped).
	scoped := *cert
	scoped.Bans = []BanData{ban(sanctions.StateInForce), ban(sanctions.StateNotStarted), ban(sanctions.StateInForce)}
	scoped.Bans[0].Scope, scoped.Bans[0].Where = "Arena Corinthians e Allianz Parque", "Arena Corinthians e Allianz Parque"
	scoped.Bans[1].Where = sanctions.AnywherePT
	scoped.Bans[2].Where, scoped.Bans[2].MatchDays = sanctions.AnywherePT, "20/07/2025 e 27/07/2025"
	scoped.Bans[2].Matches = "os próximos 2 jogos de Corinthians como mandante (20/07/2025 e 27/07/2025)"
	return []statusDoc{
		{KindCertificate, cert, append(slices.Clone(cert.Bans), cert.Awaiting...)},
		{KindCertificate, &scoped, append(slices.Clone(scoped.Bans), scoped.Awaiting...)},
		{KindSummary, &CaseData{Court: court, Number: "0000001-05.2025.8.26.0100", Status: "sentenciado", Today: "15 de julho de 2025", Bans: all}, all},
	}
}

// statusDoc is a document of kind with its data and the bans it lists.
type statusDoc struct {
	kind Kind
	data any
	bans []BanData
}

// A ban's status comes out whole in the tables of the certificate and the
// summary: the "Situação" column is at least as wide as "em cumprimento"
// (a ban in force, sanctions.StatePT) in the table's type, so that it is
// one line, and every status is printed with its words uncut (the column
// had been 17 mm inside, "cumprimen-to" on two lines, in the certificate;
// "em" and "cumprimento" on two in the summary).
func TestStatusColumnHoldsEmCumprimentoOnOneLine(t *testing.T) {
	f := gofpdf.New("P", "mm", "A4", "")
	addFonts(f)
	d := &doc{f: f}
	for _, sd := range statusDocs() {
		kind := sd.kind
		markup, err := Wording{Embedded: templates.FS}.Execute(kind, sd.data)
		if err != nil {
			t.Fatal(err)
		}
		blocks, err := parseMarkup(markup)
		if err != nil {
			t.Fatal(err)
		}
		size, tables := baseSize, 0
		for _, b := range blocks {
			if b.kind == bSize {
				size = b.n
			}
			if b.kind != bTable || len(b.rows[0]) < 3 {
				continue
			}
			col := slices.Index(b.rows[0], "Situação")
			if col < 0 {
				continue
			}
			tables++
			ts := size * tableScale
			widths := d.colWidths(b, ts)
			if inner, need := widths[col]-2*cellPad, d.width(sanctions.StatePT[sanctions.StateInForce], "", ts); inner < need {
				t.Errorf("%s: table %v: the status column is %.1f mm inside, \"em cumprimento\" %.1f mm", kind, b.rows[0], inner, need)
			}
		}
		if tables == 0 {
			t.Errorf("%s: no table with a Situação column", kind)
		}
		pdf, _, err := Layout(testMeta, markup)
		if err != nil {
			t.Fatal(err)
		}
		text := pdfText(t, pdf)
		lines := strings.Split(text, "\n")
		want := 0
		for _, b := range sd.bans {
			if b.State == sanctions.StateInForce {
				want++
			}
		}
		if countLines(lines, "em cumprimento") != want {
			t.Errorf("%s: %d lines \"em cumprimento\", want %d:\n%s", kind, countLines(lines, "em cumprimento"), want, text)
		}
		flat := strings.Join(strings.Fields(text), " ")
		for _, b := range sd.bans {
			if !strings.Contains(flat, b.Status) {
				t.Errorf("%s: status %q cut inside a word:\n%s", kind, b.Status, text)
			}
		}
	}
}

func countLines(lines []string, s string) int {
	n := 0
	for _, l := range lines {
		if l == s {
			n++
		}
	}
	return n
}

// A column narrower than its widest word is widened to hold it, with the
// room taken from the columns that can spare it; the table keeps the text
// area's width. When the words cannot all be whole (wider together than
// the page), the shares stay as given.
func TestColumnHoldsItsWidestWord(t *testing.T) {
	f := gofpdf.New("P", "mm", "A4", "")
	addFonts(f)
	d := &doc{f: f}
	const size = baseSize * tableScale
	b := block{kind: bTable, cols: []float64{80, 10, 10}, rows: [][]string{{"Nome", "Nº", "Situação"}, {"Ana", "0000001-05.2025.8.26.0100", "cumprimento"}}}
	w := d.colWidths(b, size)
	if need := d.width("0000001-05.2025.8.26.0100", "", size) + 2*cellPad; w[1] < need-1e-9 {
		t.Errorf("column 2 is %.1f mm, its word %.1f mm", w[1], need)
	}
	if need := d.width("Situação", "B", size) + 2*cellPad; w[2] < need-1e-9 {
		t.Errorf("column 3 is %.1f mm, its bold header %.1f mm", w[2], need)
	}
	if sum := w[0] + w[1] + w[2]; math.Abs(sum-contentW) > 1e-6 || w[0] >= 0.8*contentW {
		t.Errorf("widths %v: sum %.2f, want %.2f taken from the first column", w, sum, contentW)
	}
	pdf, _, err := Layout(testMeta, "::cols 80,10,10\n| Nome | Nº | Situação |\n| Ana | 0000001-05.2025.8.26.0100 | cumprimento |\n")
	if err != nil {
		t.Fatal(err)
	}
	if text := pdfText(t, pdf); !strings.Contains(text, "0000001-05.2025.8.26.0100") || !strings.Contains(text, "cumprimento") {
		t.Errorf("a word cut in its column:\n%s", text)
	}
	wide := strings.Repeat("x", 200)
	b = block{kind: bTable, cols: []float64{50, 50}, rows: [][]string{{"A", "B"}, {wide, wide}}}
	if w := d.colWidths(b, size); math.Abs(w[0]-contentW/2) > 1e-9 || math.Abs(w[1]-contentW/2) > 1e-9 {
		t.Errorf("words wider than the page: widths %v, want the shares as given", w)
	}
}
