package web_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/sharedfix"
)

func (f *fixture) send(t *testing.T, method, path, role, ctype, body string) (int, string, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if role != "" {
		req.Header.Set("Authorization", "Bearer "+f.tokens[role])
	}
	rec := httptest.NewRecorder()
	f.srv.Echo.ServeHTTP(rec, req)
	var m map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &m)
	return rec.Code, rec.Body.String(), m
}

func representation(t *testing.T, ref string) string {
	t.Helper()
	b, err := os.ReadFile(sharedfix.Path(t, "fixtures", "representations.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Representations []json.RawMessage `json:"representations"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, r := range doc.Representations {
		if strings.Contains(string(r), `"ref": "`+ref+`"`) {
			return string(r)
		}
	}
	t.Fatalf("no %s", ref)
	return ""
}

// fileAndSentence files R1 as the prosecutor and sentences it as the judge
// with body; it returns the case id and the ban id.
func (f *fixture) fileAndSentence(t *testing.T, sentence string) (int, int) {
	t.Helper()
	code, body, c := f.send(t, "POST", "/api/v1/cases", "prosecutor", "application/json", representation(t, "R1"))
	if code != 201 {
		t.Fatalf("filing: %d %s", code, body)
	}
	caseID := int(c["id"].(float64))
	def := int(c["defendants"].([]any)[0].(map[string]any)["id"].(float64))
	code, body, s := f.send(t, "POST", fmt.Sprintf("/api/v1/cases/%d/sentence", caseID), "judge", "application/json",
		fmt.Sprintf(`{"defendant_id": %d, %s}`, def, sentence))
	if code != 201 {
		t.Fatalf("sentence: %d %s", code, body)
	}
	return caseID, int(s["ban"].(map[string]any)["id"].(float64))
}

// LGE art. 201, § 1º, I over HTTP: GET /cases/{id} shows the distance and
// the place relation; R2 (Rua Haddock Lobo) is within 5,000 m of Maracanã.
func TestCaseShowsPlace_LGE_art_201_sec1_I(t *testing.T) {
	f := newFixture(t)
	code, body, c := f.send(t, "POST", "/api/v1/cases", "prosecutor", "application/json", representation(t, "R2"))
	if code != 201 {
		t.Fatalf("%d %s", code, body)
	}
	_, _, v := f.send(t, "GET", fmt.Sprintf("/api/v1/cases/%d", int(c["id"].(float64))), "clerk", "", "")
	facts := v["facts"].(map[string]any)
	if facts["place_relation"] != "within_5000m" || facts["distance_to_venue_m"].(float64) < 3000 || facts["distance_to_venue_m"].(float64) > 4000 {
		t.Errorf("facts %v, want within_5000m at about 3.5 km", facts)
	}
}

// LGE art. 201, § 4º over HTTP: the clerk imports the schedule (a bad file
// is 422 naming line and column, nothing applied); the windows of a ban on
// R1 with club Corinthians over April 2025 list the 6 Corinthians matches,
// as JSON and as iCalendar.
func TestMatchImportAndReportingWindows_LGE_art_201_sec4(t *testing.T) {
	f := newFixture(t)
	csvBody, err := os.ReadFile(sharedfix.Path(t, "fixtures", "matches-2025.csv"))
	if err != nil {
		t.Fatal(err)
	}
	bad := "competition,round,home,away,venue,date,kickoff_local\nCopa do Brasil,1,A,B,Arena Corinthians,2025-04-31,19:30\nCopa do Brasil,2,C,D,Lugar Nenhum,2025-04-30,19:30\n"
	code, body, m := f.send(t, "POST", "/api/v1/matches/import", "clerk", "text/csv", bad)
	if code != 422 || !strings.Contains(body, `"line":2`) || !strings.Contains(body, `"column":"date"`) || !strings.Contains(body, `"column":"venue"`) ||
		!strings.Contains(body, `{"line":3,"field":"venue","rule":"csv"`) || m["status"] != float64(422) {
		t.Fatalf("bad file: %d %s", code, body)
	}
	if code, body, _ := f.send(t, "POST", "/api/v1/matches/import?dry_run=true", "clerk", "text/csv; charset=utf-8", string(csvBody)); code != 200 || !strings.Contains(body, `"created":10`) {
		t.Fatalf("dry run: %d %s", code, body)
	}
	if code, _, _ := f.send(t, "POST", "/api/v1/matches/import", "clerk", "application/json", `{}`); code != 415 {
		t.Errorf("JSON body: %d, want 415", code)
	}
	if code, _, _ := f.send(t, "POST", "/api/v1/matches/import", "judge", "text/csv", string(csvBody)); code != 403 {
		t.Errorf("judge imports: %d, want 403", code)
	}
	code, body, m = f.send(t, "POST", "/api/v1/matches/import", "clerk", "text/csv", string(csvBody))
	if code != 201 || m["created"] != float64(10) || len(m["lines"].([]any)) != 10 {
		t.Fatalf("import: %d %s", code, body)
	}
	_, banID := f.fileAndSentence(t, `"ban": {"first_day": "2025-03-30", "months": 3}, "reporting_duty": {"place": "24º DP", "club": "Corinthians"}`)
	path := fmt.Sprintf("/api/v1/bans/%d/reporting-windows", banID)
	for _, role := range []string{"prosecutor", "police", "clerk", "judge"} {
		code, body, m = f.send(t, "GET", path, role, "", "")
		if code != 200 {
			t.Fatalf("%s: %d %s", role, code, body)
		}
	}
	ws := m["windows"].([]any)
	if len(ws) != 6 {
		t.Fatalf("%d windows, want 6: %s", len(ws), body)
	}
	w0 := ws[0].(map[string]any)
	if w0["start"] != "2025-03-30T14:00:00-03:00" || w0["end"] != "2025-03-30T20:00:00-03:00" || w0["uid"] == "" {
		t.Errorf("first window %v", w0)
	}
	if code, _, _ := f.send(t, "GET", path, "club", "", ""); code != 403 {
		t.Errorf("club reads windows: %d, want 403", code)
	}
	req := httptest.NewRequest("GET", path+"?format=ics", nil)
	req.Header.Set("Authorization", "Bearer "+f.tokens["police"])
	rec := httptest.NewRecorder()
	f.srv.Echo.ServeHTTP(rec, req)
	ics := rec.Body.String()
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/calendar") ||
		!strings.HasPrefix(ics, "BEGIN:VCALENDAR\r\n") || !strings.HasSuffix(ics, "END:VCALENDAR\r\n") ||
		strings.Count(ics, "BEGIN:VEVENT\r\n") != 6 || strings.Count(ics, "END:VEVENT\r\n") != 6 || strings.Count(ics, "\r\nUID:") != 6 ||
		!strings.Contains(ics, "DTSTART:20250330T170000Z\r\n") {
		t.Errorf("ics %d %q:\n%s", rec.Code, rec.Header().Get("Content-Type"), ics)
	}
	if code, _, _ := f.send(t, "GET", "/api/v1/bans/999999/reporting-windows", "police", "", ""); code != 404 {
		t.Errorf("unknown ban: %d", code)
	}
	if code, _, _ := f.send(t, "GET", "/api/v1/bans/x/reporting-windows", "police", "", ""); code != 404 {
		t.Errorf("bad id: %d", code)
	}
}

// LGE art. 201, § 3º (breach), CPP art. 319, II (lift) and extensions over
// HTTP, with the roles of each route.
func TestBreachLiftExtend_LGE_art_201(t *testing.T) {
	f := newFixture(t)
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	today := time.Now().In(loc)
	first := today.AddDate(0, -1, 0).Format("2006-01-02")
	caseID, banID := f.fileAndSentence(t, fmt.Sprintf(`"ban": {"first_day": %q, "months": 12}, "prison_months": 12, "reporting_duty": {"place": "24º DP", "club": "Corinthians"}`, first))
	breach := fmt.Sprintf(`{"occurred_on": %q, "source": "police_report", "reference": "BO 55/2026", "description": "Flagrado no setor Norte."}`, today.AddDate(0, 0, -1).Format("2006-01-02"))
	if code, _, _ := f.send(t, "POST", fmt.Sprintf("/api/v1/bans/%d/breaches", banID), "judge", "application/json", breach); code != 403 {
		t.Errorf("judge records a breach: %d, want 403", code)
	}
	code, body, m := f.send(t, "POST", fmt.Sprintf("/api/v1/bans/%d/breaches", banID), "police", "application/json", breach)
	if code != 201 {
		t.Fatalf("breach: %d %s", code, body)
	}
	conv := m["conversion"].(map[string]any)
	if conv["days_served"].(float64) < 27 || conv["balance_days"].(float64) < 300 || conv["quantum_fixed"] != true {
		t.Errorf("conversion %v", conv)
	}
	if code, _, _ := f.send(t, "POST", fmt.Sprintf("/api/v1/bans/%d/breaches", banID), "prosecutor", "application/json", breach); code != 409 {
		t.Errorf("same breach twice: %d, want 409", code)
	}
	code, body, _ = f.send(t, "POST", fmt.Sprintf("/api/v1/bans/%d/breaches", banID), "prosecutor", "application/json", `{"occurred_on": "2020-01-01", "source": "gate_hit", "reference": "x"}`)
	if code != 422 || !strings.Contains(body, `"field":"occurred_on"`) {
		t.Errorf("breach before the term: %d %s", code, body)
	}
	// Extension: from the original first day, within 3..36 months.
	code, body, _ = f.send(t, "POST", fmt.Sprintf("/api/v1/bans/%d/extend", banID), "judge", "application/json", `{"months": 30, "reason": "x"}`)
	if code != 422 || !strings.Contains(body, "art. 201") {
		t.Errorf("42 months: %d %s", code, body)
	}
	code, body, m = f.send(t, "POST", fmt.Sprintf("/api/v1/bans/%d/extend", banID), "judge", "application/json", `{"months": 6, "reason": "Descumprimento reiterado."}`)
	if code != 200 {
		t.Fatalf("extend: %d %s", code, body)
	}
	ban := m["ban"].(map[string]any)
	fd, _ := time.Parse("2006-01-02", first)
	want := fd.AddDate(0, 18, -1).Format("2006-01-02")
	if fd.Day() > 28 {
		want = ban["last_day"].(string) // end-of-month starts: covered by the cases tests
	}
	if ban["months"] != float64(18) || ban["last_day"] != want {
		t.Errorf("extended ban %v, want 18 months ending %s", ban, want)
	}
	if code, _, _ := f.send(t, "POST", fmt.Sprintf("/api/v1/bans/%d/extend", banID), "prosecutor", "application/json", `{"months": 1, "reason": "x"}`); code != 403 {
		t.Errorf("prosecutor extends: %d", code)
	}
	if code, _, _ := f.send(t, "POST", fmt.Sprintf("/api/v1/bans/%d/lift", banID), "judge", "application/json", `{"lifted_on": "2026-01-01", "reason": "x"}`); code != 409 {
		t.Errorf("lifting a sentence ban: %d, want 409", code)
	}
	// A precautionary ban is in force until the judge lifts it.
	_, pban := f.fileAndSentence(t, fmt.Sprintf(`"precautionary": true, "ban": {"first_day": %q}`, first))
	lift := fmt.Sprintf(`{"lifted_on": %q, "reason": "Cessaram os motivos da cautelar."}`, today.Format("2006-01-02"))
	if code, _, _ := f.send(t, "POST", fmt.Sprintf("/api/v1/bans/%d/lift", pban), "clerk", "application/json", lift); code != 403 {
		t.Errorf("clerk lifts: %d", code)
	}
	code, body, m = f.send(t, "POST", fmt.Sprintf("/api/v1/bans/%d/lift", pban), "judge", "application/json", lift)
	if code != 200 || m["ban"].(map[string]any)["status"] != "lifted" || m["ban"].(map[string]any)["last_day"] != nil {
		t.Fatalf("lift: %d %s", code, body)
	}
	_, _, v := f.send(t, "GET", fmt.Sprintf("/api/v1/cases/%d", caseID), "judge", "", "")
	moves := fmt.Sprint(v["movements"])
	if !strings.Contains(moves, "Descumprimento") || !strings.Contains(moves, "Prorrogado") {
		t.Errorf("movements lack the breach or the extension: %s", moves)
	}
}
