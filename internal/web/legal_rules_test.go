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
	return string(sharedfix.Representation(t, ref))
}

// reasoningJSON is the reasoning every signed decision carries (CF art. 93,
// IX) and reportingJSON the reporting duty a conversion fixes (Lei
// 14.597/2023, art. 201, § 4º), as JSON members.
const (
	reasoningJSON = `"text": {"reasoning": "Autoria e materialidade provadas pelas imagens."}`
	reportingJSON = `"reporting_duty": {"place": "24º DP", "club": "Corinthians"}`
)

// reasoned and reporting are reasoningJSON and reportingJSON as values of
// a map body.
var (
	reasoned  = map[string]any{"reasoning": "Autoria e materialidade provadas pelas imagens."}
	reporting = map[string]any{"place": "24º DP", "club": "Corinthians"}
)

// signedDefaults are the JSON members (each followed by a comma) a
// sentence body lacks to be signed: the reasoning, and the reporting duty
// unless it is a precautionary order alone or names one.
func signedDefaults(body string) string {
	out := ""
	if !strings.Contains(body, `"text"`) {
		out += reasoningJSON + ", "
	}
	if !strings.Contains(body, `"reporting_duty"`) && !strings.Contains(body, `"precautionary": true`) && !strings.Contains(body, `"outcome"`) {
		out += reportingJSON + ", "
	}
	return out
}

// fileAndSentence files R1 as the prosecutor and sentences it as the judge
// with body; it returns the case id and the ban id (the sentence's ban, or
// the precautionary ban of a precautionary order alone).
func (f *fixture) fileAndSentence(t *testing.T, sentence string) (int, int) {
	t.Helper()
	c := f.fileCase(t, "R1")
	caseID := int(c["id"].(float64))
	def := int(c["defendants"].([]any)[0].(map[string]any)["id"].(float64))
	f.receive(t, int64(caseID))
	code, body, s := f.send(t, "POST", fmt.Sprintf("/api/v1/cases/%d/sentence", caseID), "judge", "application/json",
		fmt.Sprintf(`{"defendant_id": %d, %s%s}`, def, signedDefaults(sentence), sentence))
	if code != 201 {
		t.Fatalf("sentence: %d %s", code, body)
	}
	b, ok := s["ban"].(map[string]any)
	if !ok {
		b = s["precautionary_ban"].(map[string]any)
	}
	return caseID, int(b["id"].(float64))
}

// makeFinal records, as the clerk, every party's notice of the decision of
// case caseID on the clock's day with an express waiver of the appeal (the
// prosecution; each defendant and, in a criminal case, its defence: Lei
// 9.099/1995, art. 82, § 1º) and certifies the final judgment, which starts
// the bans that waited for it on that day (Súmula 643 STJ).
func (f *fixture) makeFinal(t *testing.T, caseID int) {
	t.Helper()
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	day := f.clk.Now().In(loc).Format("2006-01-02")
	_, body, v := f.send(t, "GET", fmt.Sprintf("/api/v1/cases/%d", caseID), "clerk", "", "")
	if v == nil {
		t.Fatalf("case %d: %s", caseID, body)
	}
	notices := []string{fmt.Sprintf(`{"party": "prosecution", "notified_on": %q, "waived_appeal": true}`, day)}
	for _, d := range v["defendants"].([]any) {
		id := int(d.(map[string]any)["id"].(float64))
		notices = append(notices, fmt.Sprintf(`{"party": "defendant", "defendant_id": %d, "notified_on": %q, "waived_appeal": true}`, id, day))
		if v["flow"] == "criminal" {
			notices = append(notices, fmt.Sprintf(`{"party": "defence", "defendant_id": %d, "notified_on": %q, "waived_appeal": true}`, id, day))
		}
	}
	for _, n := range notices {
		if code, body, _ := f.send(t, "POST", fmt.Sprintf("/api/v1/cases/%d/notifications", caseID), "clerk", "application/json", n); code != 201 {
			t.Fatalf("notice %s: %d %s", n, code, body)
		}
	}
	if code, body, _ := f.send(t, "POST", fmt.Sprintf("/api/v1/cases/%d/transitions", caseID), "clerk", "application/json", `{"to": "final"}`); code != 200 {
		t.Fatalf("final judgment: %d %s", code, body)
	}
}

// finalBan files R1 on day (AAAA-MM-DD; the fixture's clock moves there and
// back; "" for today), sentences it with body and makes the judgment final
// that day (every party waives the appeal): the ban is in force from day
// (Súmula 643 STJ; CP art. 10). It returns the case id and the ban id.
func (f *fixture) finalBan(t *testing.T, day, sentence string) (int, int) {
	t.Helper()
	if day != "" {
		defer f.clk.onDay(t, day)()
	}
	caseID, banID := f.fileAndSentence(t, sentence)
	f.makeFinal(t, caseID)
	return caseID, banID
}

// LGE art. 201, § 1º, I over HTTP: GET /cases/{id} shows the distance and
// the place relation; R2 (Rua Haddock Lobo) is within 5,000 m of Maracanã.
func TestCaseShowsPlace_LGE_art_201_sec1_I(t *testing.T) {
	f := newFixture(t)
	c := f.fileCase(t, "R2")
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
	// Sentenced and final on 30/03/2025 (every party waived the appeal): the ban runs from that day.
	_, banID := f.finalBan(t, "2025-03-30", `"ban": {"months": 3}, "reporting_duty": {"place": "24º DP", "club": "Corinthians"}`)
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

// LGE art. 201, § 3º (breach of a conversion ban: the conversion is
// proposed), CPP art. 319, II (a precautionary ban is renewed and lifted)
// and CF art. 5º, XXXVI (a final ban is never extended: 409) over HTTP,
// with the roles of each route.
func TestBreachLiftRenew_LGE_art_201_sec3_CPP_art_319_CF_art_5_XXXVI(t *testing.T) {
	f := newFixture(t)
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	today := time.Now().In(loc)
	first := today.AddDate(0, -1, 0).Format("2006-01-02")
	// Sentenced and final a month ago: the ban is in force since then.
	caseID, banID := f.finalBan(t, first, `"ban": {"months": 12}, "prison_months": 12, "reporting_duty": {"place": "24º DP", "club": "Corinthians"}`)
	breach := fmt.Sprintf(`{"occurred_on": %q, "source": "police_report", "reference": "BO 55/2026", "description": "Flagrado no setor Norte."}`, today.AddDate(0, 0, -1).Format("2006-01-02"))
	if code, _, _ := f.send(t, "POST", fmt.Sprintf("/api/v1/bans/%d/breaches", banID), "judge", "application/json", breach); code != 403 {
		t.Errorf("judge records a breach: %d, want 403", code)
	}
	code, body, m := f.send(t, "POST", fmt.Sprintf("/api/v1/bans/%d/breaches", banID), "police", "application/json", breach)
	if code != 201 {
		t.Fatalf("breach: %d %s", code, body)
	}
	conv := m["conversion"].(map[string]any)
	if m["kind"] != "conversion" || conv["days_served"].(float64) < 27 || conv["balance_days"].(float64) < 300 || conv["quantum_fixed"] != true {
		t.Errorf("breach of a conversion ban: kind %v, conversion %v", m["kind"], conv)
	}
	if code, _, _ := f.send(t, "POST", fmt.Sprintf("/api/v1/bans/%d/breaches", banID), "prosecutor", "application/json", breach); code != 409 {
		t.Errorf("same breach twice: %d, want 409", code)
	}
	code, body, _ = f.send(t, "POST", fmt.Sprintf("/api/v1/bans/%d/breaches", banID), "prosecutor", "application/json", `{"occurred_on": "2020-01-01", "source": "gate_hit", "reference": "x"}`)
	if code != 422 || !strings.Contains(body, `"field":"occurred_on"`) {
		t.Errorf("breach before the term: %d %s", code, body)
	}
	// A final ban is not extended, whatever the months (res judicata).
	for _, ext := range []string{`{"months": 6, "reason": "Descumprimento reiterado."}`, `{"months": 30, "reason": "x"}`} {
		code, body, _ = f.send(t, "POST", fmt.Sprintf("/api/v1/bans/%d/extend", banID), "judge", "application/json", ext)
		if code != 409 || !strings.Contains(body, "art. 5º, XXXVI") {
			t.Errorf("extension of a final ban %s: %d %s, want 409 citing CF art. 5º, XXXVI", ext, code, body)
		}
	}
	_, _, v := f.send(t, "GET", fmt.Sprintf("/api/v1/cases/%d", caseID), "judge", "", "")
	ban := v["bans"].([]any)[0].(map[string]any)
	fd, _ := time.Parse("2006-01-02", first)
	want := fd.AddDate(0, 12, -1).Format("2006-01-02")
	if fd.Day() > 28 {
		want = ban["last_day"].(string) // end-of-month starts: covered by the cases tests
	}
	if ban["months"] != float64(12) || ban["first_day"] != first || ban["last_day"] != want || ban["state"] != "in_force" {
		t.Errorf("the refused extensions changed the ban: %v, want 12 months from %s to %s, in force", ban, first, want)
	}
	if code, _, _ := f.send(t, "POST", fmt.Sprintf("/api/v1/bans/%d/extend", banID), "prosecutor", "application/json", `{"months": 1, "reason": "x"}`); code != 403 {
		t.Errorf("prosecutor extends: %d", code)
	}
	if code, _, _ := f.send(t, "POST", fmt.Sprintf("/api/v1/bans/%d/lift", banID), "judge", "application/json", `{"lifted_on": "2026-01-01", "reason": "x"}`); code != 409 {
		t.Errorf("lifting a sentence ban: %d, want 409", code)
	}
	// A precautionary ban (with its review date) is renewed, then lifted.
	review := today.AddDate(0, 0, 20).Format("2006-01-02")
	pcase, pban := f.fileAndSentence(t, fmt.Sprintf(`"precautionary": true, "review_on": %q`, review))
	renew := fmt.Sprintf(`{"review_on": %q, "reason": "Persistem os motivos da cautelar."}`, today.AddDate(0, 2, 0).Format("2006-01-02"))
	if code, _, _ := f.send(t, "POST", fmt.Sprintf("/api/v1/bans/%d/renew", pban), "clerk", "application/json", renew); code != 403 {
		t.Errorf("clerk renews: %d, want 403", code)
	}
	code, body, m = f.send(t, "POST", fmt.Sprintf("/api/v1/bans/%d/renew", pban), "judge", "application/json", renew)
	if code != 200 || m["ban"].(map[string]any)["review_on"] != today.AddDate(0, 2, 0).Format("2006-01-02") {
		t.Fatalf("renew: %d %s", code, body)
	}
	// The extension of a precautionary ban is its renewal: a later review date.
	code, body, m = f.send(t, "POST", fmt.Sprintf("/api/v1/bans/%d/extend", pban), "judge", "application/json",
		fmt.Sprintf(`{"review_on": %q, "reason": "Nova renovação."}`, today.AddDate(0, 3, 0).Format("2006-01-02")))
	if code != 200 || m["ban"].(map[string]any)["review_on"] != today.AddDate(0, 3, 0).Format("2006-01-02") {
		t.Fatalf("extend (renew) a precautionary ban: %d %s", code, body)
	}
	lift := fmt.Sprintf(`{"lifted_on": %q, "reason": "Cessaram os motivos da cautelar."}`, today.Format("2006-01-02"))
	if code, _, _ := f.send(t, "POST", fmt.Sprintf("/api/v1/bans/%d/lift", pban), "clerk", "application/json", lift); code != 403 {
		t.Errorf("clerk lifts: %d", code)
	}
	code, body, m = f.send(t, "POST", fmt.Sprintf("/api/v1/bans/%d/lift", pban), "judge", "application/json", lift)
	if code != 200 || m["ban"].(map[string]any)["status"] != "lifted" || m["ban"].(map[string]any)["last_day"] != nil {
		t.Fatalf("lift: %d %s", code, body)
	}
	_, _, v = f.send(t, "GET", fmt.Sprintf("/api/v1/cases/%d", caseID), "judge", "", "")
	moves := fmt.Sprint(v["movements"])
	if !strings.Contains(moves, "Descumprimento") || strings.Contains(moves, "Prorrogado") {
		t.Errorf("movements lack the breach or record an extension: %s", moves)
	}
	_, _, v = f.send(t, "GET", fmt.Sprintf("/api/v1/cases/%d", pcase), "judge", "", "")
	if moves := fmt.Sprint(v["movements"]); strings.Count(moves, "Renovada a medida cautelar") != 2 || !strings.Contains(moves, "Revogada em") {
		t.Errorf("movements of the precautionary ban lack the renewals or the lift: %s", moves)
	}
}

// fileCase files the representation ref of the shared fixtures through
// POST /api/v1/cases as the prosecutor (API.md "Cases") and returns the
// created case's JSON; anything but a 201 fails the test.
func (f *fixture) fileCase(t *testing.T, ref string) map[string]any {
	t.Helper()
	code, body, c := f.send(t, "POST", "/api/v1/cases", "prosecutor", "application/json", representation(t, ref))
	if code != 201 {
		t.Fatalf("filing %s: %d %s", ref, code, body)
	}
	return c
}
