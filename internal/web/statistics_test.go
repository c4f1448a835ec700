package web_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/testenv"
)

// seedStatistics gives court 26.0100 a known set of cases, as SQL rows
// (the statistics read rows, whoever wrote them): 7 final cases at
// Corinthians' home, each defendant with a sentence signed 10·k days
// after the filing, a final judgment 12·k days after it and a ban in
// force from today (decided now); 2 cases at Palmeiras' home still filed,
// one with a precautionary ban decided on the last day of the previous
// month and lifted today, one with a ban awaiting the final judgment
// decided now. Names and CPFs are there to be looked for in the answers.
func seedStatistics(t *testing.T, f *fixture) (today civil.Date) {
	t.Helper()
	now := f.clk.Now()
	today = civil.Today(now, testenv.SaoPaulo)
	prevEnd := civil.New(today.Year, today.Month, 1).AddDays(-1)
	filedAt := time.Date(today.Year, today.Month, today.Day, 12, 0, 0, 0, testenv.SaoPaulo).AddDate(0, 0, -100)
	filedOn := civil.Today(filedAt, testenv.SaoPaulo)
	exec := func(q string, args ...any) {
		t.Helper()
		if err := f.g.Exec(q, args...).Error; err != nil {
			t.Fatalf("%v\n%s", err, q)
		}
	}
	for k := 1; k <= 9; k++ {
		home, status := "Corinthians", "final"
		if k > 7 {
			home, status = "Palmeiras", "filed"
		}
		number := fmt.Sprintf("%07d5520258260100", 8000000+k)
		exec(`INSERT INTO cases (number, court_code, year, sequence, status, filer_user_id, filer_role, filed_by_kind, filed_by_name,
			home_team, occurred_at, facts_date, filed_at)
			VALUES (?, '26.0100', 2025, ?, ?, ?, 'prosecutor', 'mp', 'Teste', ?, ?, ?, ?)`,
			number, 8000000+k, status, f.users["prosecutor"].ID, home, filedAt.AddDate(0, 0, -3), filedOn.AddDays(-3), filedAt)
		var finalOn any
		if k <= 7 {
			finalOn = filedOn.AddDays(12 * k)
		}
		exec(`INSERT INTO defendants (case_id, position, kind, full_name, cpf, birth_date, final_on)
			SELECT id, 1, 'person', ?, ?, date '1990-01-01', ? FROM cases WHERE number = ?`,
			fmt.Sprintf("Fulano Secreto %d", k), fmt.Sprintf("9876543210%d", k), finalOn, number)
		ban := func(source, status string, precautionary bool, first, last, lifted any, created time.Time) {
			exec(`INSERT INTO bans (case_id, defendant_id, subject, source, court_code, case_number, cpf, name, facts_date,
				law, article, range_min_months, range_max_months, precautionary, first_day, months, last_day, lifted_on, status, publish, created_at)
				SELECT d.case_id, d.id, 'person', ?, '26.0100', c.number, d.cpf, d.full_name, c.facts_date,
				       'Lei 14.597/2023', 'art. 201, § 2º', 6, 36, ?, ?, CASE WHEN ? THEN NULL ELSE 12 END, ?, ?, ?, true, ?
				  FROM defendants d JOIN cases c ON c.id = d.case_id WHERE c.number = ?`,
				source, precautionary, first, precautionary, last, lifted, status, created, number)
		}
		switch k {
		case 8:
			ban("precautionary_order", "lifted", true, prevEnd.AddDays(-5), nil, today,
				time.Date(prevEnd.Year, prevEnd.Month, prevEnd.Day, 12, 0, 0, 0, testenv.SaoPaulo))
		case 9:
			ban("sentence", "awaiting_final", false, nil, nil, nil, now)
		default:
			ban("sentence", "active", false, today, today.AddDays(365), nil, now)
			exec(`INSERT INTO sentences (case_id, defendant_id, status, outcome, input, created_at, signed_at)
				SELECT d.case_id, d.id, 'signed', 'ban', '{}', ?, ? FROM defendants d JOIN cases c ON c.id = d.case_id WHERE c.number = ?`,
				filedAt, filedAt.AddDate(0, 0, 10*k), number)
		}
	}
	return today
}

// GET /api/v1/statistics on a seeded court: every figure exact, counts
// from 1 to 4 as "<5" (zero shown), medians over the defendants, a lifted
// ban counted on the days before its lifting; no name, CPF or case number
// in the answer; a bad or unknown court is a problem.
func TestStatisticsAPI(t *testing.T) {
	f := newFixture(t)
	today := seedStatistics(t, f)
	rec := f.call("GET", "/api/v1/statistics?court=26.0100", "")
	if rec.Code != 200 {
		t.Fatalf("statistics: %d %s", rec.Code, rec.Body)
	}
	body := rec.Body.String()
	for _, personal := range []string{"Fulano", "98765432101", "987.654.321", "Secreto", "80000015520258260100", "case_id", "defendant"} {
		if strings.Contains(body, personal) {
			t.Errorf("the answer holds %q: %s", personal, body)
		}
	}
	var s struct {
		Court       string
		AsOf        string `json:"as_of"`
		Months      []string
		BansInForce []struct {
			Month, On string
			Count     any
		} `json:"bans_in_force"`
		ByLaw []struct {
			Month, Key string
			Count      any
		} `json:"new_bans_by_law"`
		BySource []struct {
			Month, Key string
			Count      any
		} `json:"new_bans_by_source"`
		ByClub []struct {
			Club        string
			Cases       any
			BansInForce any `json:"bans_in_force"`
		} `json:"by_club"`
		Stages []struct {
			Stage string
			Count any
		} `json:"cases_by_stage"`
		ToSentence struct {
			Count      any
			MedianDays *float64 `json:"median_days"`
		} `json:"days_to_sentence"`
		ToFinal struct {
			Count      any
			MedianDays *float64 `json:"median_days"`
		} `json:"days_to_final"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &s); err != nil {
		t.Fatal(err)
	}
	cur, prev := today.String()[:7], civil.New(today.Year, today.Month-1, 1).String()[:7]
	if s.Court != "26.0100" || s.AsOf != today.String() || len(s.Months) != 12 || s.Months[11] != cur || s.Months[10] != prev {
		t.Fatalf("court %s as of %s, months %v", s.Court, s.AsOf, s.Months)
	}
	c := func(v any) string { return fmt.Sprint(v) }
	for i, p := range s.BansInForce {
		want := "0"
		switch i {
		case 10:
			want = "<5" // the precautionary ban, lifted today
		case 11:
			want = "7" // the 7 bans from today; the lifted and the awaiting one not
		}
		if c(p.Count) != want || p.Month != s.Months[i] {
			t.Errorf("bans in force %d (%s, %s): %v, want %s", i, p.Month, p.On, p.Count, want)
		}
	}
	if s.BansInForce[11].On != today.String() || s.BansInForce[10].On != civil.New(today.Year, today.Month, 1).AddDays(-1).String() {
		t.Errorf("days: %s, %s", s.BansInForce[10].On, s.BansInForce[11].On)
	}
	got := map[string]string{}
	for _, r := range s.ByLaw {
		got["law "+r.Month+" "+r.Key] = c(r.Count)
	}
	for _, r := range s.BySource {
		got["source "+r.Month+" "+r.Key] = c(r.Count)
	}
	for k, want := range map[string]string{
		"law " + cur + " Lei 14.597/2023": "8", "law " + prev + " Lei 14.597/2023": "<5",
		"source " + cur + " sentence": "8", "source " + cur + " precautionary_order": "0",
		"source " + prev + " precautionary_order": "<5", "source " + prev + " sentence": "0",
		"law " + s.Months[0] + " Lei 14.597/2023": "0",
	} {
		if got[k] != want {
			t.Errorf("%s: %q, want %s", k, got[k], want)
		}
	}
	if len(s.ByLaw) != 12 || len(s.BySource) != 24 {
		t.Errorf("%d rows by law, %d by source; want 12 and 24 (every month × every key)", len(s.ByLaw), len(s.BySource))
	}
	if len(s.ByClub) != 2 || s.ByClub[0].Club != "Corinthians" || c(s.ByClub[0].Cases) != "7" || c(s.ByClub[0].BansInForce) != "7" ||
		s.ByClub[1].Club != "Palmeiras" || c(s.ByClub[1].Cases) != "<5" || c(s.ByClub[1].BansInForce) != "0" {
		t.Errorf("by club: %+v", s.ByClub)
	}
	if len(s.Stages) != 2 || s.Stages[0].Stage != "final" || c(s.Stages[0].Count) != "7" || s.Stages[1].Stage != "filed" || c(s.Stages[1].Count) != "<5" {
		t.Errorf("by stage: %+v", s.Stages)
	}
	if c(s.ToSentence.Count) != "7" || s.ToSentence.MedianDays == nil || *s.ToSentence.MedianDays != 40 {
		t.Errorf("to sentence: %v, %v; want 7 defendants, median 40", s.ToSentence.Count, s.ToSentence.MedianDays)
	}
	if c(s.ToFinal.Count) != "7" || s.ToFinal.MedianDays == nil || *s.ToFinal.MedianDays != 48 {
		t.Errorf("to final: %v, %v; want 7 defendants, median 48", s.ToFinal.Count, s.ToFinal.MedianDays)
	}

	for path, want := range map[string]int{"/api/v1/statistics?court=99.9999": 404, "/api/v1/statistics?court=abc": 422} {
		rec := f.call("GET", path, "")
		if rec.Code != want || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/problem+json") {
			t.Errorf("%s: %d %s %s", path, rec.Code, rec.Header().Get("Content-Type"), rec.Body)
		}
		if want == 422 && !strings.Contains(rec.Body.String(), "court") {
			t.Errorf("%s: the problem names no field: %s", path, rec.Body)
		}
	}
}

// A court with fewer than 5 sentenced defendants publishes no median, and
// the count itself as "<5".
func TestStatisticsMedianSuppressed(t *testing.T) {
	f := newFixture(t)
	seedStatistics(t, f)
	if err := f.g.Exec(`DELETE FROM sentences WHERE id IN (SELECT id FROM sentences ORDER BY id LIMIT 3)`).Error; err != nil {
		t.Fatal(err)
	}
	rec := f.call("GET", "/api/v1/statistics", "")
	var s struct {
		ToSentence map[string]any `json:"days_to_sentence"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &s); err != nil || rec.Code != 200 {
		t.Fatalf("%d %v", rec.Code, err)
	}
	if s.ToSentence["count"] != "<5" || s.ToSentence["median_days"] != nil {
		t.Errorf("to sentence over 4 defendants: %v", s.ToSentence)
	}
}

var svgRe = regexp.MustCompile(`(?s)<svg .*?</svg>`)

// The public page and the staff's page: every chart a well-formed SVG
// with no script, each with its table ("<5" escaped) and its CSV in
// Excel's Brazilian form (BOM, `;`, CRLF, Portuguese headers).
func TestStatisticsPagesAndCSV(t *testing.T) {
	f := newFixture(t)
	seedStatistics(t, f)
	pub := f.call("GET", "/estatisticas?juizado=26.0100", "")
	staff := f.browser(t, "clerk").do("GET", "/juizado/estatisticas", nil)
	for name, rec := range map[string]int{"public": pub.Code, "staff": staff.Code} {
		if rec != 200 {
			t.Fatalf("%s page: %d", name, rec)
		}
	}
	for name, body := range map[string]string{"public": pub.Body.String(), "staff": staff.Body.String()} {
		if strings.Contains(strings.ToLower(body), "<script") {
			t.Errorf("%s page has a script", name)
		}
		svgs := svgRe.FindAllString(body, -1)
		if len(svgs) != 6 {
			t.Errorf("%s page: %d charts, want 6", name, len(svgs))
		}
		for i, svg := range svgs {
			d := xml.NewDecoder(strings.NewReader(svg))
			for {
				tok, err := d.Token()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Errorf("%s chart %d: not well formed: %v", name, i, err)
					break
				}
				if se, ok := tok.(xml.StartElement); ok && (se.Name.Local == "script" || se.Name.Local == "foreignObject") {
					t.Errorf("%s chart %d: element %s", name, i, se.Name.Local)
				}
			}
		}
		for _, want := range []string{"Corinthians", "<td data-rotulo=\"Processos\">&lt;5</td>", "Impedimentos em vigor ao fim de cada mês", "sentença condenatória"} {
			if !strings.Contains(body, want) {
				t.Errorf("%s page lacks %q", name, want)
			}
		}
		if strings.Contains(body, "Fulano") || strings.Contains(body, "98765432101") {
			t.Errorf("%s page shows personal data", name)
		}
	}
	if !strings.Contains(pub.Body.String(), `href="/estatisticas.csv?juizado=26.0100&amp;tabela=por-clube"`) ||
		!strings.Contains(staff.Body.String(), `href="/juizado/estatisticas.csv?tabela=por-clube"`) {
		t.Errorf("the CSV links are missing")
	}

	csvs := map[string][]byte{
		"public": f.call("GET", "/estatisticas.csv?juizado=26.0100&tabela=por-clube", "").Body.Bytes(),
		"staff":  f.browser(t, "clerk").do("GET", "/juizado/estatisticas.csv?tabela=por-clube", nil).Body.Bytes(),
	}
	want := "\uFEFFClube mandante;Processos;Impedimentos em vigor\r\nCorinthians;7;7\r\nPalmeiras;<5;0\r\n"
	for name, b := range csvs {
		if !bytes.Equal(b, []byte(want)) {
			t.Errorf("%s CSV:\n%q\nwant\n%q", name, b, want)
		}
	}
	rec := f.call("GET", "/estatisticas.csv?juizado=26.0100&tabela=impedimentos-em-vigor", "")
	if ct := rec.Header().Get("Content-Type"); rec.Code != 200 || !strings.HasPrefix(ct, "text/csv") ||
		!strings.HasPrefix(rec.Body.String(), "\uFEFFMês;Dia;Impedimentos em vigor\r\n") || !strings.Contains(rec.Header().Get("Content-Disposition"), "attachment") {
		t.Errorf("in force CSV: %d %s %q", rec.Code, ct, rec.Body)
	}
	if rec := f.call("GET", "/estatisticas?juizado=2x", ""); rec.Code != 422 || !strings.Contains(rec.Body.String(), "por exemplo 26.0100") {
		t.Errorf("bad court: %d", rec.Code)
	}
	if rec := f.call("GET", "/estatisticas?juizado=99.9999", ""); rec.Code != 404 || !strings.Contains(rec.Body.String(), "não encontrado") {
		t.Errorf("unknown court: %d", rec.Code)
	}
	if rec := f.call("GET", "/estatisticas.csv?tabela=nenhuma", ""); rec.Code != 404 {
		t.Errorf("unknown table: %d", rec.Code)
	}
}

// The figures are kept for 5 minutes: a new case is not counted before;
// after, the next answer is still the kept one and starts one computation
// in the background, whose figures the following answers give.
func TestStatisticsKeptThenRefreshed(t *testing.T) {
	f := newFixture(t)
	seedStatistics(t, f)
	stages := func() string {
		rec := f.call("GET", "/api/v1/statistics", "")
		var s struct {
			Stages []struct {
				Stage string
				Count any
			} `json:"cases_by_stage"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &s); err != nil || rec.Code != 200 {
			t.Fatalf("%d %v", rec.Code, err)
		}
		return fmt.Sprint(s.Stages)
	}
	before := stages()
	if err := f.g.Exec(`UPDATE cases SET status = 'final' WHERE status = 'filed'`).Error; err != nil {
		t.Fatal(err)
	}
	if got := stages(); got != before {
		t.Fatalf("within 5 minutes: %s, want the kept %s", got, before)
	}
	f.clk.mu.Lock()
	f.clk.offset = 6 * time.Minute
	f.clk.mu.Unlock()
	if got := stages(); got != before {
		t.Fatalf("the first answer after 5 minutes: %s, want the kept %s (refreshed in the background)", got, before)
	}
	want := "[{final 9}]"
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		got := stages()
		if got == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the refresh: %s, want %s", got, want)
		}
	}
}
