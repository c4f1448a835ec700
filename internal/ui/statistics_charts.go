package ui

import (
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/go-analyze/charts"
	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/app"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/sanctions"
)

// The statistics pages' figures (issue 30 item 6): each figure is a chart
// (inline SVG from github.com/go-analyze/charts: no script, drawn the same
// on screen and in print) with its table, and the table as a CSV in
// Excel's Brazilian form. The table is the one source of the three: the
// chart plots its numbers, the CSV writes its cells.

// statFigure is one figure of the statistics pages.
type statFigure struct {
	// ID names the figure in its CSV's address (?tabela=ID) and its anchor.
	ID string
	// Title and Note are the figure's heading and its line of explanation.
	Title, Note string
	// Head is the table's header; Rows its cells, as people read them
	// (counts as app.Count.String: "<5" when suppressed).
	Head []string
	Rows [][]string
	// SVG is the chart, checked by checkSVG.
	SVG template.HTML
}

// monthPT names a month YYYY-MM as people read it: "dez/2025".
func monthPT(m string) string {
	names := []string{"jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"}
	if len(m) == 7 {
		if n, err := strconv.Atoi(m[5:]); err == nil && n >= 1 && n <= 12 {
			return names[n-1] + "/" + m[:4]
		}
	}
	return m
}

// clubPT names a home club, "não informado" for a case without one.
func clubPT(c string) string {
	if c == "" {
		return "não informado"
	}
	return c
}

// plotted is a count as a chart draws it: a suppressed count is drawn as
// zero (the table says "<5").
func plotted(c app.Count) float64 { return float64(c.N) }

// statFigures lays out s as the pages' figures, each with its chart.
func statFigures(s *app.Statistics) ([]statFigure, error) {
	months := make([]string, len(s.Months)) // the charts' axis: "dez/25"
	for i, m := range s.Months {
		months[i] = monthPT(m)
		months[i] = months[i][:len(months[i])-4] + months[i][len(months[i])-2:]
	}
	var figs []statFigure

	inForce := statFigure{ID: "impedimentos-em-vigor", Title: "Impedimentos em vigor ao fim de cada mês",
		Note: "No mês corrente, o dia de hoje. Conta os impedimentos decididos pelo juizado (o de uma torcida conta uma vez).",
		Head: []string{"Mês", "Dia", "Impedimentos em vigor"}}
	line := make([]float64, len(s.BansInForce))
	for i, d := range s.BansInForce {
		inForce.Rows = append(inForce.Rows, []string{monthPT(d.Month), d.On.BR(), d.Count.String()})
		line[i] = plotted(d.Count)
	}
	figs = append(figs, inForce)
	if err := figs[len(figs)-1].draw(charts.ChartTypeLine, months, nil, [][]float64{line}); err != nil {
		return nil, err
	}

	for _, g := range []struct {
		id, title, note, key string
		rows                 []app.MonthFigure
		words                func(string) string
	}{
		{"novos-por-lei", "Novos impedimentos por mês, por lei", "A lei aplicada é a da data dos fatos.", "Lei", s.NewBansByLaw,
			func(k string) string { return k }},
		{"novos-por-origem", "Novos impedimentos por mês, por origem", "A decisão de que o impedimento resulta.", "Origem", s.NewBansBySource,
			func(k string) string {
				if w, ok := sanctions.SourcePT[sanctions.Source(k)]; ok {
					return w
				}
				return k
			}},
	} {
		f, keys, values := monthTable(g.rows, s.Months, g.words)
		f.ID, f.Title, f.Note = g.id, g.title, g.note
		figs = append(figs, f)
		if err := figs[len(figs)-1].draw(charts.ChartTypeBar, months, keys, values); err != nil {
			return nil, err
		}
	}

	club := statFigure{ID: "por-clube", Title: "Processos e impedimentos em vigor por clube mandante",
		Note: "O clube mandante do evento de cada processo.", Head: []string{"Clube mandante", "Processos", "Impedimentos em vigor"}}
	var clubs []string
	clubValues := [][]float64{nil, nil}
	for _, c := range s.ByClub {
		club.Rows = append(club.Rows, []string{clubPT(c.Club), c.Cases.String(), c.BansInForce.String()})
		if len(clubs) < 12 {
			clubs = append(clubs, clubPT(c.Club))
			clubValues[0] = append(clubValues[0], plotted(c.Cases))
			clubValues[1] = append(clubValues[1], plotted(c.BansInForce))
		}
	}
	figs = append(figs, club)
	if err := figs[len(figs)-1].draw(charts.ChartTypeBar, clubs, []string{"Processos", "Impedimentos em vigor"}, clubValues); err != nil {
		return nil, err
	}

	stage := statFigure{ID: "por-fase", Title: "Processos por fase", Head: []string{"Fase", "Processos"}}
	var stages []string
	var stageValues []float64
	for _, st := range s.CasesByStage {
		w := cases.StatusPT[st.Stage]
		if w == "" {
			w = st.Stage
		}
		stage.Rows = append(stage.Rows, []string{w, st.Count.String()})
		stages, stageValues = append(stages, w), append(stageValues, plotted(st.Count))
	}
	figs = append(figs, stage)
	if err := figs[len(figs)-1].draw(charts.ChartTypeBar, stages, nil, [][]float64{stageValues}); err != nil {
		return nil, err
	}

	times := statFigure{ID: "tempos", Title: "Tempo até a sentença e até o trânsito em julgado",
		Note: "Mediana, em dias corridos, desde a autuação, por réu; sem mediana quando menos de 5 réus contam.",
		Head: []string{"Intervalo", "Réus", "Mediana (dias)"}}
	var timeValues []float64
	labels := []string{"Até a sentença", "Até o trânsito em julgado"}
	for i, m := range []app.MedianFigure{s.DaysToSentence, s.DaysToFinal} {
		med, v := "—", 0.0
		if m.MedianDays != nil {
			v = *m.MedianDays
			med = strings.Replace(strconv.FormatFloat(v, 'f', -1, 64), ".", ",", 1)
		}
		times.Rows = append(times.Rows, []string{labels[i], m.Count.String(), med})
		timeValues = append(timeValues, v)
	}
	figs = append(figs, times)
	if err := figs[len(figs)-1].draw(charts.ChartTypeBar, labels, nil, [][]float64{timeValues}); err != nil {
		return nil, err
	}
	return figs, nil
}

// monthTable lays month × key counts out as a table with a row per month
// and a column per key (named by words), and the chart's series (one per
// key).
func monthTable(rows []app.MonthFigure, months []string, words func(string) string) (statFigure, []string, [][]float64) {
	var keys []string
	col := map[string]int{}
	for _, r := range rows {
		if _, ok := col[r.Key]; !ok {
			col[r.Key] = len(keys)
			keys = append(keys, r.Key)
		}
	}
	f := statFigure{Head: []string{"Mês"}}
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = words(k)
	}
	f.Head = append(f.Head, names...)
	row := map[string]int{}
	values := make([][]float64, len(keys))
	for i, m := range months {
		row[m] = i
		f.Rows = append(f.Rows, append([]string{monthPT(m)}, make([]string, len(keys))...))
		for k := range keys {
			f.Rows[i][k+1] = "0"
		}
	}
	for k := range values {
		values[k] = make([]float64, len(months))
	}
	for _, r := range rows {
		i, ok := row[r.Month]
		if !ok {
			continue
		}
		f.Rows[i][col[r.Key]+1] = r.Count.String()
		values[col[r.Key]][i] = plotted(r.Count)
	}
	return f, names, values
}

// chartLabel is a label as the chart prints it: no control characters,
// at most 40 characters (the library escapes it for SVG; checkSVG checks
// the result).
func chartLabel(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
	if r := []rune(s); len(r) > 40 {
		s = string(r[:39]) + "…"
	}
	return s
}

// draw renders the figure's chart of kind (line or bar):
// labels on the category axis, one series per row of values named by
// series (no legend when nil). A chart with no category draws nothing.
func (f *statFigure) draw(kind string, labels, series []string, values [][]float64) error {
	if len(labels) == 0 {
		return nil
	}
	cl := make([]string, len(labels))
	for i, l := range labels {
		cl[i] = chartLabel(l)
	}
	sl := make([]string, len(series))
	for i, l := range series {
		sl[i] = chartLabel(l)
	}
	opt := charts.ChartOption{
		OutputFormat: charts.ChartOutputSVG, Width: 720, Height: 300 + 8*len(series),
		ValueFormatter: func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) },
		SeriesList:     charts.NewSeriesListGeneric(values, kind),
	}
	if len(sl) > 0 {
		opt.Legend = charts.LegendOption{SeriesNames: sl}
	}
	// The value axis starts at zero (a bar's length is its count), and long
	// category names are written slanted.
	opt.YAxis = []charts.YAxisOption{{Min: charts.Ptr(0.0)}}
	opt.XAxis = charts.XAxisOption{Labels: cl}
	longest := 0
	for _, l := range cl {
		longest = max(longest, len([]rune(l)))
	}
	if longest*len(cl) > 80 {
		opt.XAxis.LabelRotation = -math.Pi / 4
		opt.Height += 6 * longest
		opt.Padding = charts.Box{Top: 20, Left: 20 + 5*longest, Right: 20, Bottom: 20}
	}
	p, err := charts.Render(opt)
	if err != nil {
		return fmt.Errorf("statistics chart %s: %w", f.ID, err)
	}
	b, err := p.Bytes()
	if err != nil {
		return err
	}
	if err := checkSVG(b); err != nil {
		return fmt.Errorf("statistics chart %s: %w", f.ID, err)
	}
	svg := strings.Replace(string(b), "<svg ", `<svg role="img" aria-label="`+template.HTMLEscapeString(f.Title)+`" `, 1)
	f.SVG = template.HTML(svg) // checked by checkSVG: drawing elements only
	return nil
}

// svgElements are the elements a chart may hold: drawing and text only.
var svgElements = map[string]bool{"svg": true, "g": true, "path": true, "text": true, "rect": true, "circle": true,
	"line": true, "polyline": true, "polygon": true, "tspan": true}

// checkSVG checks that b is one well-formed SVG document of drawing
// elements only (no script, style sheet, link, foreign object or event
// attribute), so that it may go into a page as it is.
func checkSVG(b []byte) error {
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("SVG not well formed: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if !svgElements[t.Name.Local] {
				return fmt.Errorf("SVG element %q not allowed", t.Name.Local)
			}
			for _, a := range t.Attr {
				if n := strings.ToLower(a.Name.Local); strings.HasPrefix(n, "on") || n == "href" {
					return fmt.Errorf("SVG attribute %q not allowed", a.Name.Local)
				}
			}
		case xml.ProcInst, xml.Directive:
			return errors.New("SVG with a processing instruction or directive")
		}
	}
}

// statCSV writes the figure's table as a CSV Excel in Brazil opens as it
// is: UTF-8 with BOM, `;`, CRLF, the table's Portuguese header, every cell
// safe from formula injection (registry.SafeCell).
func (f *statFigure) statCSV() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString("\uFEFF")
	w := csv.NewWriter(&buf)
	w.Comma, w.UseCRLF = ';', true
	_ = w.Write(f.Head)
	for _, r := range f.Rows {
		row := make([]string, len(r))
		for i, c := range r {
			row[i] = registry.SafeCell(c)
		}
		_ = w.Write(row)
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}
