package pdf

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/civil"
)

var saoPaulo = func() *time.Location {
	l, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		panic(err)
	}
	return l
}()

var testMeta = Meta{Title: "Teste", CourtCode: "26.0100", CourtName: "Juizado Especial Criminal do Torcedor",
	Code: "ABCDEFGHIJK2", VerifyURL: "http://localhost:8080/verificar/ABCD-EFGH-IJK2",
	IssuedAt: time.Date(2023, 6, 15, 14, 5, 0, 0, saoPaulo), Loc: saoPaulo}

// needPoppler skips when pdftotext is missing (make test installs
// poppler-utils).
func needPoppler(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext missing: apt-get install poppler-utils (make deps does it)")
	}
}

// PDFText extracts the text of a PDF with pdftotext (UTF-8); args are
// pdftotext's options.
func pdfText(t *testing.T, b []byte, args ...string) string {
	t.Helper()
	needPoppler(t)
	p := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", append(append([]string{"-enc", "UTF-8"}, args...), p, "-")...).Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

func TestLongDateAndFormats(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{LongDate(mustDate("2023-06-15")), "15 de junho de 2023"},
		{LongDate(mustDate("2024-03-01")), "1º de março de 2024"},
		{FormatCPF("52601815906"), "526.018.159-06"},
		{FormatCNJ("00589677720168190000"), "0058967-77.2016.8.19.0000"},
		{Months(1), "1 (um) mês"},
		{Months(36), "36 (trinta e seis) meses"},
		{Months(125), "125 (cento e vinte e cinco) meses"},
		{Tribunal("19.0001"), "Tribunal de Justiça do Estado do Rio de Janeiro"},
		{GroupCode("ABCDEFGHIJKL"), "ABCD-EFGH-IJKL"},
		{Esc("# *a* | b\\\nc"), `\# \*a\* \| b\\ c`},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	for in, want := range map[string]string{"abcd-efgh-ijk2": "ABCDEFGHIJK2", "ABCD EFGH IJK2": "ABCDEFGHIJK2", "ABCD-EFGH-1JK0": "ABCDEFGHIJKO"} {
		if got, err := ParseCode(in); err != nil || got != want {
			t.Errorf("ParseCode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "ABCD", "ABCD-EFGH-IJK9", "ABCD-EFGH-IJKL-M", "ÁBCD-EFGH-IJKL"} {
		if _, err := ParseCode(bad); err == nil {
			t.Errorf("ParseCode(%q) accepted", bad)
		}
	}
}

// Every accent and sign, and names from anywhere, come out as written.
func TestTextAsWritten(t *testing.T) {
	markup := "# Certidão de *Łukasz* Muñoz Sørensen\n\n" +
		"Ação, coração, pôr, ênfase, nº 5, 1ª vara, § 3º – “entre aspas” e ‘simples’; Zoë, Ærø, Ğ, Þ.\n\n" +
		"::center São Paulo, 15 de junho de 2023.\n"
	b, pages, err := Layout(testMeta, markup)
	if err != nil {
		t.Fatal(err)
	}
	if pages != 1 {
		t.Errorf("%d pages, want 1", pages)
	}
	want := "PODER JUDICIÁRIO\nTRIBUNAL DE JUSTIÇA DO ESTADO DE SÃO PAULO\nJuizado Especial Criminal do Torcedor\n\n" +
		"Certidão de Łukasz Muñoz Sørensen\n" +
		"Ação, coração, pôr, ênfase, nº 5, 1ª vara, § 3º – “entre aspas” e ‘simples’; Zoë, Ærø, Ğ, Þ.\n" +
		"São Paulo, 15 de junho de 2023.\n\n" +
		"Código de verificação: ABCD-EFGH-IJK2\n" +
		"Confira a autenticidade deste documento em\n" +
		"http://localhost:8080/verificar/ABCD-EFGH-IJK2 ou pelo código QR.\n" +
		"Emitido em 15 de junho de 2023.\n\nPágina 1 de 1\n\n\f"
	if got := pdfText(t, b); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
}

// docket is a 30-row docket table with one 700-character cell and one
// unbroken 60-character token.
func docket() (string, string) {
	long := strings.TrimSpace(strings.Repeat("Juntada de manifestação do Ministério Público com pedido de diligências. ", 10))[:700]
	token := "torcedor.impedido." + strings.Repeat("x", 25) + "@exemplo.com.br" // 58 chars
	token += "ab"
	var b strings.Builder
	b.WriteString("## Movimentações\n\n::cols 20,9,71\n| Data | TPU | Descrição |\n")
	for i := 1; i <= 30; i++ {
		text := fmt.Sprintf("Movimentação número %d do processo.", i)
		switch i {
		case 9:
			text = long
		case 17:
			text = "Intimação enviada para " + token + " nesta data."
		}
		fmt.Fprintf(&b, "| %02d/06/2023 10:%02d | %d | %s |\n", i%28+1, i, 100+i, Esc(text))
	}
	return b.String(), token
}

type bboxWord struct {
	page                   int
	xMin, yMin, xMax, yMax float64
	text                   string
}

var wordRE = regexp.MustCompile(`<word xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="([0-9.]+)" yMax="([0-9.]+)">([^<]*)</word>`)

func bboxWords(t *testing.T, b []byte) []bboxWord {
	html := pdfText(t, b, "-bbox")
	var out []bboxWord
	for i, page := range strings.Split(html, "<page ")[1:] {
		for _, m := range wordRE.FindAllStringSubmatch(page, -1) {
			f := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
			out = append(out, bboxWord{i + 1, f(m[1]), f(m[2]), f(m[3]), f(m[4]), strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`).Replace(m[5])})
		}
	}
	return out
}

// The docket table breaks between rows with its header repeated, wraps the
// long cell and cuts the long token inside its column: no word crosses a
// column line and no two words overlap.
func TestDocketTableLayout(t *testing.T) {
	markup, token := docket()
	b, pages, err := Layout(testMeta, markup)
	if err != nil {
		t.Fatal(err)
	}
	if pages != 2 {
		t.Errorf("%d pages, want 2", pages)
	}
	words := bboxWords(t, b)
	const mm = 72 / 25.4
	edges := []float64{marginL}
	x := marginL
	for _, w := range []float64{20, 9, 71} {
		x += w / 100 * contentW
		edges = append(edges, x)
	}
	tableTop, tableBottom := bodyTop*mm, bodyBottom*mm
	headers := 0
	var descr []string
	for _, w := range words {
		if w.yMin < tableTop || w.yMax > tableBottom {
			continue // header and footer of the page
		}
		if w.text == "Descrição" {
			headers++
		}
		for _, e := range edges {
			if w.xMin < e*mm-0.5 && w.xMax > e*mm+0.5 {
				t.Errorf("page %d: %q [%.1f, %.1f] crosses the column line at %.1f", w.page, w.text, w.xMin, w.xMax, e*mm)
			}
		}
		if w.xMin < marginL*mm-0.5 || w.xMax > (pageW-marginR)*mm+0.5 {
			t.Errorf("page %d: %q outside the text area", w.page, w.text)
		}
		if w.xMin > edges[2]*mm {
			descr = append(descr, w.text)
		}
	}
	if headers != pages {
		t.Errorf("table header printed %d times on %d pages", headers, pages)
	}
	for i, a := range words {
		for _, c := range words[i+1:] {
			if a.page == c.page && a.xMin < c.xMax-0.3 && c.xMin < a.xMax-0.3 && a.yMin < c.yMax-0.3 && c.yMin < a.yMax-0.3 {
				t.Errorf("page %d: %q and %q overlap", a.page, a.text, c.text)
			}
		}
	}
	joined := strings.Join(descr, "")
	if !strings.Contains(joined, token) {
		t.Errorf("the 60-character token is not whole in its column: %q", joined)
	}
	text := pdfText(t, b)
	for i := 1; i <= 30; i++ {
		if !strings.Contains(text, fmt.Sprintf("10:%02d", i)) {
			t.Errorf("row %d missing", i)
		}
	}
	if !strings.Contains(strings.Join(strings.Fields(text), " "), "Juntada de manifestação do Ministério Público com pedido de diligências. Juntada") {
		t.Error("the long cell is not in the text")
	}
}

// A row taller than a page is split between lines, header repeated.
func TestRowTallerThanAPage(t *testing.T) {
	long := strings.Repeat("palavra ", 1500)
	b, pages, err := Layout(testMeta, "| A | B |\n| x | "+long+" |\n| y | fim |\n")
	if err != nil {
		t.Fatal(err)
	}
	if pages < 3 {
		t.Errorf("%d pages, want at least 3", pages)
	}
	if n := strings.Count(pdfText(t, b), "palavra"); n != 1500 {
		t.Errorf("%d words printed, want 1500", n)
	}
}

// The same document is the same bytes, made one at a time or many at once.
func TestDeterministicAndConcurrent(t *testing.T) {
	markup, _ := docket()
	want, _, err := Layout(testMeta, markup)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errc := make(chan error, 16)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, _, err := Layout(testMeta, markup)
			if err == nil && !bytes.Equal(got, want) {
				err = fmt.Errorf("concurrent output differs")
			}
			errc <- err
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		if err != nil {
			t.Error(err)
		}
	}
	if !bytes.Contains(want, []byte("/CreationDate (D:20230615140500")) {
		t.Error("creation date is not the issue date")
	}
}

func TestMarkupErrors(t *testing.T) {
	for _, m := range []string{"::size grande\n", "::cols 1,2\n| a |\n", "::oops\n"} {
		if _, _, err := Layout(testMeta, m); err == nil {
			t.Errorf("%q accepted", m)
		}
	}
}

func mustDate(s string) civil.Date {
	d, err := civil.Parse(s)
	if err != nil {
		panic(err)
	}
	return d
}
