// Package pdf lays out Juizado's court documents as A4 PDFs (gofpdf with
// the Go TrueType fonts, so that every letter comes out as written), with
// the court's header, a "Página 1 de N" footer, the verification code and
// its QR code on every page; it holds the documents' wording (text
// templates, overridable from a folder) and the data they are filled with.
// It reads no database: internal/documents issues, stores and verifies the
// documents (and owns their table), asking the owners for what a document
// prints.
package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode"

	"github.com/boombuler/barcode/qr"
	"github.com/juizado/juizado/internal/civil"
	"github.com/jung-kurt/gofpdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gobolditalic"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/goregular"
)

// Page geometry in millimetres (A4 portrait).
const (
	pageW      = 210.0
	pageH      = 297.0
	marginL    = 20.0
	marginR    = 20.0
	contentW   = pageW - marginL - marginR
	bodyTop    = 40.0
	bodyBottom = 264.0
	footerTop  = 268.0
	qrSize     = 22.0
	ptToMM     = 25.4 / 72
	family     = "Go"
	cellPad    = 1.6
	baseSize   = 11.0
)

// Meta is what every page of a document carries.
type Meta struct {
	Title     string    // PDF title and the verification page's description
	CourtCode string    // TR.OOOO
	CourtName string    // the court unit's name
	Code      string    // verification code (12 characters, see NewCode)
	VerifyURL string    // where the QR code points: BASE/verificar/CODE
	IssuedAt  time.Time // the document's date (also its PDF creation date)
	Loc       *time.Location
	// Draft lays out a preview (a judge's minuta): "MINUTA — sem valor de
	// documento" in the header and the footer of every page, no
	// verification code nor QR code (Code and VerifyURL are ignored).
	Draft bool
}

// DraftMark is what a preview says it is, on every page.
const DraftMark = "MINUTA — sem valor de documento"

// Layout renders markup (see markup.go) into a PDF: it lays out twice, the
// first time to count the pages for "Página 1 de N". It returns the bytes
// and the number of pages.
func Layout(meta Meta, markup string) ([]byte, int, error) {
	blocks, err := parseMarkup(markup)
	if err != nil {
		return nil, 0, err
	}
	if meta.Loc == nil {
		meta.Loc = time.UTC
	}
	f, err := layout(meta, blocks, 0)
	if err != nil {
		return nil, 0, err
	}
	pages := f.PageNo()
	f, err = layout(meta, blocks, pages)
	if err != nil {
		return nil, 0, err
	}
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		return nil, 0, fmt.Errorf("pdf: %w", err)
	}
	return buf.Bytes(), pages, nil
}

type doc struct {
	f     *gofpdf.Fpdf
	meta  Meta
	total int
	size  float64
	y     float64
}

// fontBytes gives each document its own copy of the font files: gofpdf
// keeps the slices it is handed, and documents are made concurrently.
func fontBytes(b []byte) []byte { return append([]byte(nil), b...) }

func layout(meta Meta, blocks []block, total int) (*gofpdf.Fpdf, error) {
	f := gofpdf.NewCustom(&gofpdf.InitType{OrientationStr: "P", UnitStr: "mm", SizeStr: "A4"})
	f.SetCatalogSort(true)
	f.SetCreationDate(meta.IssuedAt.In(meta.Loc))
	f.SetModificationDate(meta.IssuedAt.In(meta.Loc))
	f.SetTitle(meta.Title, true)
	f.SetAuthor(meta.CourtName, true)
	f.SetCreator("Juizado", true)
	f.SetProducer("Juizado (gofpdf)", true)
	f.SetAutoPageBreak(false, 0)
	f.SetMargins(marginL, bodyTop, marginR)
	addFonts(f)
	d := &doc{f: f, meta: meta, total: total, size: baseSize}
	f.SetHeaderFunc(d.header)
	f.SetFooterFunc(d.footer)
	d.newPage()
	for _, b := range blocks {
		if err := f.Error(); err != nil {
			return nil, fmt.Errorf("pdf: %w", err)
		}
		d.block(b)
	}
	if err := f.Error(); err != nil {
		return nil, fmt.Errorf("pdf: %w", err)
	}
	return f, nil
}

// addFonts gives f the Go fonts in the four styles, under family.
func addFonts(f *gofpdf.Fpdf) {
	f.AddUTF8FontFromBytes(family, "", fontBytes(goregular.TTF))
	f.AddUTF8FontFromBytes(family, "B", fontBytes(gobold.TTF))
	f.AddUTF8FontFromBytes(family, "I", fontBytes(goitalic.TTF))
	f.AddUTF8FontFromBytes(family, "BI", fontBytes(gobolditalic.TTF))
}

func (d *doc) newPage() {
	d.f.AddPage()
	d.y = bodyTop
}

// lineH is the line height in mm for a type size in points.
func lineH(size float64) float64 { return size * ptToMM * 1.38 }

// ensure starts a new page when h millimetres do not fit on this one.
func (d *doc) ensure(h float64) {
	if d.y+h > bodyBottom && d.y > bodyTop {
		d.newPage()
	}
}

func (d *doc) header() {
	f := d.f
	f.SetTextColor(0, 0, 0)
	y := 12.0
	centre := func(text, style string, size float64) {
		f.SetFont(family, style, size)
		w := f.GetStringWidth(text)
		f.Text((pageW-w)/2, y+size*ptToMM, text)
		y += lineH(size)
	}
	centre("PODER JUDICIÁRIO", "B", 10)
	if t := Tribunal(d.meta.CourtCode); t != "" {
		centre(strings.ToUpper(t), "B", 9)
	}
	centre(d.meta.CourtName, "", 9)
	if d.meta.Draft {
		centre(DraftMark, "B", 9)
	}
	f.SetDrawColor(90, 90, 90)
	f.SetLineWidth(0.3)
	f.Line(marginL, bodyTop-4, pageW-marginR, bodyTop-4)
}

func (d *doc) footer() {
	f := d.f
	f.SetTextColor(0, 0, 0)
	f.SetDrawColor(90, 90, 90)
	f.SetLineWidth(0.3)
	f.Line(marginL, footerTop, pageW-marginR, footerTop)
	issued := LongDate(civil.Of(d.meta.IssuedAt.In(d.meta.Loc)))
	if d.meta.Draft {
		d.footerText(marginL, []footerPart{
			{"**" + DraftMark + "**", 9},
			{"Prévia da minuta de " + issued + ": não assinada, sem código de verificação; o documento é emitido na assinatura.", 8},
		})
		return
	}
	if err := drawQR(f, d.meta.VerifyURL, marginL, footerTop+3, qrSize); err != nil {
		f.SetError(err)
		return
	}
	d.footerText(marginL+qrSize+4, []footerPart{
		{"Código de verificação: **" + Esc(GroupCode(d.meta.Code)) + "**", 9},
		{"Confira a autenticidade deste documento em " + Esc(d.meta.VerifyURL) + " ou pelo código QR.", 8},
		{"Emitido em " + issued + ".", 8},
	})
}

// footerPart is one paragraph of the footer: text in the inline markup of
// parseInline, at size points.
type footerPart struct {
	text string
	size float64
}

// footerText draws the footer's "Página N de M" at the right margin and
// parts, each wrapped, from x to 6 mm short of the page number.
func (d *doc) footerText(x float64, parts []footerPart) {
	f := d.f
	page := fmt.Sprintf("Página %d de %d", f.PageNo(), d.total)
	f.SetFont(family, "", 8.5)
	pw := f.GetStringWidth(page)
	f.Text(pageW-marginR-pw, footerTop+6, page)
	w := pageW - marginR - pw - 6 - x
	y := footerTop + 3
	for _, part := range parts {
		for _, ln := range d.wrap(d.words(parseInline(part.text, ""), part.size), w, part.size) {
			d.drawLine(ln, x, y, w, part.size, 'L', false)
			y += lineH(part.size)
		}
	}
}

// drawQR draws the QR code of content as filled squares (vector, no image).
func drawQR(f *gofpdf.Fpdf, content string, x, y, size float64) error {
	if content == "" {
		return errors.New("pdf: no verification URL for the QR code")
	}
	code, err := qr.Encode(content, qr.M, qr.Auto)
	if err != nil {
		return fmt.Errorf("pdf: QR code: %w", err)
	}
	n := code.Bounds().Dx()
	m := size / float64(n)
	f.SetFillColor(0, 0, 0)
	for row := 0; row < n; row++ {
		for col := 0; col < n; {
			if !dark(code.At(col, row)) {
				col++
				continue
			}
			start := col
			for col < n && dark(code.At(col, row)) {
				col++
			}
			f.Rect(x+float64(start)*m, y+float64(row)*m, float64(col-start)*m, m+0.01, "F")
		}
	}
	return nil
}

func dark(c interface{ RGBA() (r, g, b, a uint32) }) bool {
	r, _, _, _ := c.RGBA()
	return r < 0x8000
}

// frag is a run of one style inside a word; word is what lines break
// between.
type frag struct {
	text  string
	style string
	w     float64
}

type word struct {
	frags []frag
	w     float64
}

func (d *doc) width(text, style string, size float64) float64 {
	d.f.SetFont(family, style, size)
	return d.f.GetStringWidth(text)
}

// words splits styled spans into words at white space.
func (d *doc) words(spans []span, size float64) []word {
	var out []word
	var cur word
	open := false
	flush := func() {
		if open && len(cur.frags) > 0 {
			out = append(out, cur)
		}
		cur, open = word{}, false
	}
	for _, sp := range spans {
		var b strings.Builder
		emit := func() {
			if b.Len() > 0 {
				t := b.String()
				w := d.width(t, sp.style, size)
				cur.frags = append(cur.frags, frag{t, sp.style, w})
				cur.w += w
				open = true
				b.Reset()
			}
		}
		for _, r := range sp.text {
			if unicode.IsSpace(r) {
				emit()
				flush()
				continue
			}
			b.WriteRune(r)
		}
		emit()
	}
	flush()
	return out
}

// breakAfter are the characters after which a word too long for its line
// is best cut (e-mail addresses, paths, numbers).
const breakAfter = "@./-_,;:"

// splitWord cuts a word wider than w into pieces that fit, preferring a cut
// after one of breakAfter in the second half of a piece.
func (d *doc) splitWord(wd word, w, size float64) []word {
	type rs struct {
		r     rune
		style string
		w     float64
	}
	var runes []rs
	for _, fr := range wd.frags {
		for _, r := range fr.text {
			runes = append(runes, rs{r, fr.style, d.width(string(r), fr.style, size)})
		}
	}
	var out []word
	build := func(part []rs) word {
		var nw word
		for _, x := range part {
			if n := len(nw.frags); n > 0 && nw.frags[n-1].style == x.style {
				nw.frags[n-1].text += string(x.r)
				nw.frags[n-1].w += x.w
			} else {
				nw.frags = append(nw.frags, frag{string(x.r), x.style, x.w})
			}
			nw.w += x.w
		}
		return nw
	}
	for len(runes) > 0 {
		sum, n := 0.0, 0
		for n < len(runes) && sum+runes[n].w <= w {
			sum += runes[n].w
			n++
		}
		if n == 0 {
			n = 1 // a single glyph wider than the column still moves on
		}
		if n < len(runes) {
			for k := n; k > n/2; k-- {
				if strings.ContainsRune(breakAfter, runes[k-1].r) {
					n = k
					break
				}
			}
		}
		out = append(out, build(runes[:n]))
		runes = runes[n:]
	}
	return out
}

// wrap breaks words into lines no wider than w.
func (d *doc) wrap(ws []word, w, size float64) [][]word {
	space := d.width(" ", "", size)
	var lines [][]word
	var cur []word
	curW := 0.0
	for _, wd := range ws {
		pieces := []word{wd}
		if wd.w > w {
			pieces = d.splitWord(wd, w, size)
		}
		for _, p := range pieces {
			add := p.w
			if len(cur) > 0 {
				add += space
			}
			if len(cur) > 0 && curW+add > w+1e-9 {
				lines = append(lines, cur)
				cur, curW, add = nil, 0, p.w
			}
			cur = append(cur, p)
			curW += add
		}
	}
	if len(cur) > 0 {
		lines = append(lines, cur)
	}
	return lines
}

// drawLine draws one line of words with its top at y, aligned 'L', 'C' or
// 'R' in [x, x+w], or stretched to w when justify.
func (d *doc) drawLine(ln []word, x, y, w, size float64, align byte, justify bool) {
	space := d.width(" ", "", size)
	natural := 0.0
	for i, wd := range ln {
		natural += wd.w
		if i > 0 {
			natural += space
		}
	}
	gap := space
	switch {
	case justify && len(ln) > 1 && natural < w:
		gap += (w - natural) / float64(len(ln)-1)
	case align == 'C':
		x += (w - natural) / 2
	case align == 'R':
		x += w - natural
	}
	base := y + (lineH(size)-size*ptToMM)/2 + size*ptToMM*0.8
	for i, wd := range ln {
		if i > 0 {
			x += gap
		}
		for _, fr := range wd.frags {
			d.f.SetFont(family, fr.style, size)
			d.f.Text(x, base, fr.text)
			x += fr.w
		}
	}
}

// paragraph lays out markup text in [x, x+w] starting at d.y.
func (d *doc) paragraph(text, style string, x, w, size float64, align byte, justify bool) {
	lines := d.wrap(d.words(parseInline(text, style), size), w, size)
	lh := lineH(size)
	for i, ln := range lines {
		d.ensure(lh)
		d.drawLine(ln, x, d.y, w, size, align, justify && i < len(lines)-1)
		d.y += lh
	}
}

func (d *doc) block(b block) {
	s := d.size
	switch b.kind {
	case bSize:
		d.size = b.n
	case bSpace:
		d.y += b.n
		if d.y > bodyBottom {
			d.newPage()
		}
	case bTitle:
		ts := s * 1.3
		d.ensure(lineH(ts) + 3*lineH(s))
		d.y += lineH(s) * 0.3
		d.paragraph(b.text, "B", marginL, contentW, ts, 'C', false)
		d.y += lineH(s) * 0.6
	case bHeading:
		hs := s * 1.05
		d.ensure(lineH(hs) + 3*lineH(s))
		d.y += lineH(s) * 0.4
		d.paragraph(b.text, "B", marginL, contentW, hs, 'L', false)
		d.y += lineH(s) * 0.25
	case bCenter:
		d.paragraph(b.text, "", marginL, contentW, s, 'C', false)
		d.y += lineH(s) * 0.2
	case bRight:
		d.paragraph(b.text, "", marginL, contentW, s, 'R', false)
		d.y += lineH(s) * 0.2
	case bBullet:
		d.ensure(lineH(s))
		d.f.SetFont(family, "", s)
		d.drawLine([]word{{frags: []frag{{"•", "", d.width("•", "", s)}}}}, marginL+1.5, d.y, 4, s, 'L', false)
		d.paragraph(b.text, "", marginL+6, contentW-6, s, 'L', true)
		d.y += lineH(s) * 0.25
	case bPara:
		d.paragraph(b.text, "", marginL, contentW, s, 'L', true)
		d.y += lineH(s) * 0.45
	case bTable:
		d.table(b)
		d.y += lineH(s) * 0.5
	}
}

// tableScale is the type size of a table, relative to the text's.
const tableScale = 0.9

// colWidths are the widths in mm of table b's columns, in type size size:
// contentW shared in proportion to b.cols (equal shares without them), then
// each column too narrow for its widest word (the header's in bold) widened
// to hold it, with the room taken from the columns wider than their own
// widest word, in proportion to what each can spare, so that no word is cut
// where the table can hold it whole ("cumprimen-to" in a 17 mm column).
// When the columns together cannot hold their widest words, the shares
// stay as given and a word too wide is cut (splitWord).
func (d *doc) colWidths(b block, size float64) []float64 {
	ncol := len(b.rows[0])
	widths := make([]float64, ncol)
	total := 0.0
	for i := range widths {
		widths[i] = 1
		if i < len(b.cols) {
			widths[i] = b.cols[i]
		}
		total += widths[i]
	}
	for i := range widths {
		widths[i] *= contentW / total
	}
	need := make([]float64, ncol)
	for r, row := range b.rows {
		style := ""
		if r == 0 {
			style = "B"
		}
		for i, text := range row[:min(len(row), ncol)] {
			for _, wd := range d.words(parseInline(text, style), size) {
				need[i] = max(need[i], wd.w+2*cellPad)
			}
		}
	}
	short, spare := 0.0, 0.0
	for i, w := range widths {
		if w < need[i] {
			short += need[i] - w
		} else {
			spare += w - need[i]
		}
	}
	if short == 0 || short > spare {
		return widths
	}
	for i, w := range widths {
		if w < need[i] {
			widths[i] = need[i]
		} else {
			widths[i] = w - (w-need[i])*short/spare
		}
	}
	return widths
}

// table lays out rows that break between pages with the header row
// repeated; a row taller than a page is split between lines.
func (d *doc) table(b block) {
	if len(b.rows) == 0 {
		return
	}
	ncol := len(b.rows[0])
	size := d.size * tableScale
	widths := d.colWidths(b, size)
	lh := lineH(size)
	cells := func(row []string, style string) [][][]word {
		out := make([][][]word, ncol)
		for i := 0; i < ncol; i++ {
			text := ""
			if i < len(row) {
				text = row[i]
			}
			out[i] = d.wrap(d.words(parseInline(text, style), size), widths[i]-2*cellPad, size)
		}
		return out
	}
	height := func(c [][][]word) float64 {
		n := 1
		for _, l := range c {
			n = max(n, len(l))
		}
		return float64(n)*lh + 2*cellPad
	}
	head := cells(b.rows[0], "B")
	headH := height(head)
	draw := func(c [][][]word, h float64, isHead bool) {
		x := marginL
		d.f.SetDrawColor(120, 120, 120)
		d.f.SetLineWidth(0.2)
		for i, lines := range c {
			style := "D"
			if isHead {
				d.f.SetFillColor(230, 230, 230)
				style = "FD"
			}
			d.f.Rect(x, d.y, widths[i], h, style)
			for k, ln := range lines {
				d.drawLine(ln, x+cellPad, d.y+cellPad+float64(k)*lh, widths[i]-2*cellPad, size, 'L', false)
			}
			x += widths[i]
		}
		d.y += h
	}
	newPage := func() {
		d.newPage()
		draw(head, headH, true)
	}
	if d.y+headH+lh+2*cellPad > bodyBottom {
		d.newPage()
	}
	draw(head, headH, true)
	for _, row := range b.rows[1:] {
		rest := cells(row, "")
		for {
			need := height(rest)
			avail := bodyBottom - d.y
			if need <= avail {
				draw(rest, need, false)
				break
			}
			if need <= bodyBottom-bodyTop-headH && d.y > bodyTop+headH+0.01 {
				newPage()
				continue
			}
			k := int(math.Floor((avail - 2*cellPad) / lh))
			if k < 1 {
				newPage()
				continue
			}
			part := make([][][]word, ncol)
			for i, l := range rest {
				n := min(k, len(l))
				part[i], rest[i] = l[:n], l[n:]
			}
			draw(part, float64(k)*lh+2*cellPad, false)
			newPage()
		}
	}
}
