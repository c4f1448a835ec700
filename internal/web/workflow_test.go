package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/internal/sharedfix"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/internal/web"
	"gorm.io/gorm"
)

// wf is a server on a fixed clock (10/06/2025 12:00 in São Paulo) with a
// prosecutor, a police officer, a clerk and a club, and no judge until
// addJudge: so that a case can be filed before the court has a judge.
type wf struct {
	t   *testing.T
	srv *web.Server
	g   *gorm.DB
	clk *clock.Fixed
	tok map[string]string
	loc *time.Location
}

func newWF(t *testing.T) *wf {
	t.Helper()
	return newWFOn(t, pgtest.NewDB(t))
}

// newWFOn is newWF on the database g (a private cluster's, say).
func newWFOn(t *testing.T, g *gorm.DB) *wf {
	t.Helper()
	ctx := context.Background()
	if err := cases.EnsureCourt(ctx, g, "26.0100", ""); err != nil {
		t.Fatal(err)
	}
	if err := g.Exec("INSERT INTO fan_groups (name, supported_club, court_code) VALUES ('Torcida Organizada Garra do Tatuapé', 'Corinthians', '26.0100')").Error; err != nil {
		t.Fatal(err)
	}
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	clk := clock.NewFixed(time.Date(2025, 6, 10, 12, 0, 0, 0, loc))
	srv := testenv.MustServer(t, g, testenv.WithClock(clk))
	w := &wf{t: t, srv: srv, g: g, clk: clk, tok: map[string]string{}, loc: loc}
	for _, role := range []string{"prosecutor", "police", "clerk", "club"} {
		w.token(role, "wf-"+role)
	}
	return w
}

func (w *wf) token(role, name string) {
	w.t.Helper()
	ctx := context.Background()
	spec := accounts.UserSpec{Name: name, Role: role, Court: "26.0100"}
	if role == "club" {
		spec = accounts.UserSpec{Name: name, Role: role, Club: "Clube"}
	}
	u, _, err := accounts.EnsureUser(ctx, w.g, spec)
	if err != nil {
		w.t.Fatal(err)
	}
	tok, err := accounts.NewToken(ctx, w.g, u.ID, time.Time{})
	if err != nil {
		w.t.Fatal(err)
	}
	w.tok[role] = tok
}

func (w *wf) addJudge() { w.token("judge", "wf-judge") }

// do sends body (JSON of any value, or raw bytes with its content type in
// hdr) as role and returns the recorder and the decoded JSON object.
func (w *wf) do(method, path, role string, body any, hdr ...string) (*httptest.ResponseRecorder, map[string]any) {
	w.t.Helper()
	var r io.Reader
	ctype := "application/json"
	switch b := body.(type) {
	case nil:
	case []byte:
		r = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			w.t.Fatal(err)
		}
		r = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, path, r)
	if body != nil {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	if role != "" {
		req.Header.Set("Authorization", "Bearer "+w.tok[role])
	}
	rec := httptest.NewRecorder()
	w.srv.Echo.ServeHTTP(rec, req)
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec, out
}

func (w *wf) want(rec *httptest.ResponseRecorder, code int, what string) {
	w.t.Helper()
	if rec.Code != code {
		w.t.Fatalf("%s: %d, want %d: %s", what, rec.Code, code, rec.Body)
	}
}

// rep returns representation ref of the fixture file as a JSON object.
func (w *wf) rep(ref string) map[string]any {
	w.t.Helper()
	var r map[string]any
	if err := json.Unmarshal(sharedfix.Representation(w.t, ref), &r); err != nil {
		w.t.Fatal(err)
	}
	return r
}

func (w *wf) file(ref string) (int64, int64, string) {
	w.t.Helper()
	rec, c := w.do("POST", "/api/v1/cases", "prosecutor", w.rep(ref))
	w.want(rec, 201, "filing "+ref)
	d := c["defendants"].([]any)[0].(map[string]any)
	return int64(c["id"].(float64)), int64(d["id"].(float64)), c["status"].(string)
}

// receive takes case id to the accusation received (Lei 9.099/1995, arts.
// 77 and 81: no sentence without it).
func (w *wf) receive(id int64) {
	w.t.Helper()
	for _, st := range []struct{ role, to string }{{"clerk", "preliminary_hearing"}, {"prosecutor", "accusation"}, {"clerk", "instruction_hearing"}} {
		rec, _ := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", id), st.role, map[string]any{"to": st.to})
		w.want(rec, 200, "receive the accusation: "+st.to)
	}
}

// to moves case id to status as role, checking the answer.
func (w *wf) to(id int64, role, status string) map[string]any {
	w.t.Helper()
	rec, v := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", id), role, map[string]any{"to": status, "note": "Termo nos autos."})
	w.want(rec, 200, fmt.Sprintf("transition to %s as %s", status, role))
	if v["status"] != status {
		w.t.Fatalf("status %v, want %s", v["status"], status)
	}
	return v
}

func (w *wf) get(id int64) (map[string]any, string) {
	w.t.Helper()
	rec, v := w.do("GET", fmt.Sprintf("/api/v1/cases/%d", id), "clerk", nil)
	w.want(rec, 200, "reading the case")
	return v, rec.Header().Get("ETag")
}

func (w *wf) advance(d time.Duration) { w.clk.Set(w.clk.Now().Add(d)) }

// notify records, as the clerk, the notice of party (defendant, defence or
// prosecution; def 0 for the prosecution) of case id's decision on day,
// with or without an express waiver of the appeal, and returns the window.
func (w *wf) notify(id int64, party string, def int64, day string, waived bool) map[string]any {
	w.t.Helper()
	body := map[string]any{"party": party, "notified_on": day, "waived_appeal": waived}
	if def != 0 {
		body["defendant_id"] = def
	}
	rec, n := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/notifications", id), "clerk", body)
	w.want(rec, 201, fmt.Sprintf("notice of %s %d", party, def))
	return n
}

// makeFinal records every party's notice of case id's decision on the
// clock's day with an express waiver of the appeal (the prosecution; each
// defendant and, in a criminal case, its defence: Lei 9.099/1995, art. 82,
// § 1º) and certifies the final judgment, which starts the bans that
// waited for it that day (Súmula 643 STJ).
func (w *wf) makeFinal(id int64) map[string]any {
	w.t.Helper()
	day := w.clk.Now().In(w.loc).Format("2006-01-02")
	v, _ := w.get(id)
	w.notify(id, "prosecution", 0, day, true)
	for _, d := range v["defendants"].([]any) {
		def := int64(d.(map[string]any)["id"].(float64))
		w.notify(id, "defendant", def, day, true)
		if v["flow"] == "criminal" {
			w.notify(id, "defence", def, day, true)
		}
	}
	return w.to(id, "clerk", "final")
}

// A case walked through every state of the JECRIM flow over the API, on
// three cases of fixture R1's kind (the paths branch: plea refused and
// accusation, plea accepted and homologated, conditional suspension),
// with the docket in order, with dates, authors and TPU codes.
func TestWorkflow_JECRIMEveryStateOverHTTP(t *testing.T) {
	w := newWF(t)
	// Filed while the court has no judge: stays filed.
	id, def, status := w.file("R1")
	if status != "filed" {
		t.Fatalf("status %s, want filed (no judge yet)", status)
	}
	w.addJudge()
	rec, v := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", id), "clerk", map[string]any{"to": "sentenced"})
	w.want(rec, 422, "filed → sentenced")
	if !strings.Contains(rec.Body.String(), `"field":"to"`) || !strings.Contains(rec.Body.String(), "permitidas: distributed") {
		t.Errorf("refusal does not name the allowed transition: %s", rec.Body)
	}
	w.to(id, "clerk", "distributed")
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", id), "prosecutor", map[string]any{"to": "preliminary_hearing"})
	w.want(rec, 403, "the prosecutor opens the preliminary hearing")
	w.to(id, "clerk", "preliminary_hearing")
	rec, p := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/plea", id), "prosecutor", map[string]any{"defendant_id": def, "months": 6})
	w.want(rec, 201, "plea offer")
	if p["plea"].(map[string]any)["status"] != "offered" {
		t.Errorf("plea: %v", p)
	}
	w.to(id, "clerk", "plea_refused")
	w.to(id, "prosecutor", "accusation")
	w.to(id, "clerk", "instruction_hearing")
	// The judge sentences; a stale If-Match is 412 and writes nothing.
	_, etag := w.get(id)
	sentence := map[string]any{"defendant_id": def, "ban": map[string]any{"months": 12},
		"reporting_duty": map[string]any{"place": "2º DP", "club": "Corinthians"}, "text": reasoned}
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", id), "judge", sentence, "If-Match", `"v1"`)
	w.want(rec, 412, "sentence with a stale If-Match")
	if rec.Header().Get("Content-Type") != "application/problem+json" || rec.Header().Get("ETag") != etag {
		t.Errorf("412: %s, ETag %q (current %q)", rec.Header().Get("Content-Type"), rec.Header().Get("ETag"), etag)
	}
	rec, sb := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", id), "judge", sentence, "If-Match", etag)
	w.want(rec, 201, "sentence")
	v, _ = w.get(id)
	if v["status"] != "sentenced" {
		t.Fatalf("status %v after the sentence", v["status"])
	}
	// The ban waits for the final judgment (Súmula 643 STJ): not on the blocklist.
	if b := sb["ban"].(map[string]any); b["status"] != "awaiting_final" || b["first_day"] != nil {
		t.Errorf("sentence ban %v, want awaiting_final without a first day", b)
	}
	rec, chk := w.do("GET", "/api/v1/blocklist/check/66392332154", "club", nil)
	if rec.Code != 200 || chk["blocked"] != false {
		t.Errorf("blocklist check while the appeal window runs: %d %s", rec.Code, rec.Body)
	}
	rec, n := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/notifications", id), "clerk", map[string]any{"defendant_id": def, "notified_on": "2025-06-10"})
	w.want(rec, 201, "notification")
	if n["last_day"] != "2025-06-20" { // 20/06/2025 is a Friday
		t.Errorf("appeal deadline %v, want 2025-06-20", n["last_day"])
	}
	w.to(id, "clerk", "appeal")
	// Lei 9.099/1995, art. 82: the final judgment after an appeal needs the Turma Recursal's result.
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", id), "clerk", map[string]any{"to": "final"})
	w.want(rec, 409, "final judgment before the appeal's result")
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/appeal-result", id), "judge", map[string]any{"result": "confirmed"})
	w.want(rec, 403, "the judge records the appeal's result")
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/appeal-result", id), "clerk", map[string]any{"result": "confirmed", "decided_on": "2025-06-10"})
	w.want(rec, 201, "appeal confirmed")
	v = w.to(id, "clerk", "final")
	if b := v["bans"].([]any)[0].(map[string]any); b["first_day"] != "2025-06-10" || b["state"] != "in_force" {
		t.Errorf("ban after the final judgment %v, want in force from 2025-06-10", b)
	}
	rec, chk = w.do("GET", "/api/v1/blocklist/check/66392332154", "club", nil)
	if rec.Code != 200 || chk["blocked"] != true {
		t.Errorf("blocklist check after the final judgment: %d %s", rec.Code, rec.Body)
	}
	w.to(id, "clerk", "executing")
	v = w.to(id, "clerk", "archived")
	if next, ok := v["next_transitions"]; ok && len(next.([]any)) > 0 {
		t.Errorf("archived case has next transitions %v", next)
	}
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", id), "clerk", map[string]any{"to": "executing"})
	if rec.Code != 422 || !strings.Contains(rec.Body.String(), "nenhuma") {
		t.Errorf("transition from archived: %d %s", rec.Code, rec.Body)
	}
	// The docket: every movement in order, with date, author and code.
	ms := v["movements"].([]any)
	var codes []int
	var last string
	authors := map[string]bool{}
	for _, m := range ms {
		m := m.(map[string]any)
		if at := m["at"].(string); at < last {
			t.Errorf("docket out of order at %s", at)
		} else {
			last = at
		}
		if c, ok := m["tpu_code"].(float64); ok {
			codes = append(codes, int(c))
		}
		if a, ok := m["author"].(map[string]any); ok {
			authors[a["role"].(string)+":"+a["name"].(string)] = true
		}
	}
	if fmt.Sprint(codes) != "[26 132 219 239 848 246]" {
		t.Errorf("TPU codes in the docket %v, want [26 132 219 239 848 246]", codes)
	}
	for _, a := range []string{"clerk:wf-clerk", "prosecutor:wf-prosecutor", "prosecutor:wf-prosecutor"} {
		if !authors[a] {
			t.Errorf("no movement by %s: %v", a, authors)
		}
	}
	if len(ms) < 12 {
		t.Errorf("%d movements, want one per step", len(ms))
	}

	// Plea accepted and homologated: the ban (source plea_agreement) reaches the blocklist.
	r2 := w.rep("R2")
	rec, c2 := w.do("POST", "/api/v1/cases", "prosecutor", r2)
	w.want(rec, 201, "filing R2")
	id2 := int64(c2["id"].(float64))
	def2 := int64(c2["defendants"].([]any)[0].(map[string]any)["id"].(float64))
	w.to(id2, "clerk", "preliminary_hearing")
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/plea", id2), "prosecutor", map[string]any{"defendant_id": def2, "months": 4, "first_day": "2025-06-10"})
	w.want(rec, 201, "plea offer R2")
	w.to(id2, "clerk", "plea_accepted")
	rec, h := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/plea/homologate", id2), "judge", map[string]any{})
	w.want(rec, 201, "homologation")
	ban := h["ban"].(map[string]any)
	if ban["source"] != "plea_agreement" || ban["first_day"] != "2025-06-10" || ban["last_day"] != "2025-10-09" {
		t.Errorf("plea ban %v", ban)
	}
	v2, _ := w.get(id2)
	if v2["status"] != "executing" {
		t.Errorf("after homologation: %v", v2["status"])
	}
	rec, chk = w.do("GET", "/api/v1/blocklist/check/46881973659", "club", nil)
	if rec.Code != 200 || chk["blocked"] != true {
		t.Errorf("blocklist check after the homologation: %d %s", rec.Code, rec.Body)
	}
	w.to(id2, "clerk", "archived")

	// Conditional suspension (art. 89), then the archive.
	rec, c3 := w.do("POST", "/api/v1/cases", "prosecutor", w.rep("R7"))
	w.want(rec, 201, "filing R7")
	id3 := int64(c3["id"].(float64))
	def3 := int64(c3["defendants"].([]any)[0].(map[string]any)["id"].(float64))
	w.to(id3, "clerk", "preliminary_hearing")
	w.to(id3, "prosecutor", "accusation")
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/suspension", id3), "judge",
		map[string]any{"defendant_id": def3, "months": 24, "repair_impossible": "sem dano apurado", "forbidden_places": []string{"estádios"},
			"stay_in_district": true, "monthly_appearance": true, "conditions": []string{"prestar serviços à comunidade"}})
	w.want(rec, 201, "suspension")
	v3, _ := w.get(id3)
	if v3["status"] != "conditional_suspension" {
		t.Fatalf("status %v", v3["status"])
	}
	// Extinct only after the period of proof (art. 89, § 5º).
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", id3), "judge", map[string]any{"to": "archived"})
	w.want(rec, 409, "extinction before the end of the period")
	w.clk.Set(w.clk.Now().AddDate(2, 0, 1))
	w.to(id3, "judge", "archived")

	// Every state of the JECRIM flow was visited.
	var statuses []string
	w.g.Raw(`SELECT DISTINCT after->>'status' FROM audit_log WHERE table_name = 'cases' AND after->>'status' IS NOT NULL`).Scan(&statuses)
	got := map[string]bool{}
	for _, s := range statuses {
		got[s] = true
	}
	for _, s := range []string{"filed", "distributed", "preliminary_hearing", "plea_offered", "plea_accepted", "plea_refused",
		"conditional_suspension", "accusation", "instruction_hearing", "sentenced", "appeal", "final", "executing", "archived"} {
		if !got[s] {
			t.Errorf("state %s never reached (audit trail has %v)", s, statuses)
		}
	}
}

// A group case (R5, civil flow, DOMAIN.md §2): hearing, judgment, final
// judgment only after the appeal window, archive; no plea agreement; and
// R6 by settlement (TAC).
func TestWorkflow_GroupCaseCivilFlowOverHTTP(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	id, def, status := w.file("R5")
	if status != "distributed" {
		t.Fatalf("R5 status %s", status)
	}
	v, _ := w.get(id)
	if v["flow"] != "civil" {
		t.Fatalf("R5 flow %v, want civil", v["flow"])
	}
	rec, _ := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", id), "clerk", map[string]any{"to": "preliminary_hearing"})
	if rec.Code != 422 || !strings.Contains(rec.Body.String(), "permitidas: hearing") {
		t.Errorf("JECRIM step in a civil case: %d %s", rec.Code, rec.Body)
	}
	w.to(id, "clerk", "hearing")
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/plea", id), "prosecutor", map[string]any{"defendant_id": def, "months": 6})
	w.want(rec, 409, "plea in a group case")
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", id), "judge", map[string]any{"defendant_id": def, "ban": map[string]any{"months": 24}, "text": reasoned}) // no reporting duty for a group (art. 201, § 4º: persons)
	w.want(rec, 201, "group judgment")
	v, _ = w.get(id)
	if v["status"] != "judgment" {
		t.Fatalf("status %v after the group judgment, want judgment", v["status"])
	}
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", id), "clerk", map[string]any{"to": "final"})
	w.want(rec, 409, "final judgment before the notification")
	// A holiday on the last day moves the deadline (Corpus Christi 19/06/2025, then 20/06).
	rec, _ = w.do("POST", "/api/v1/holidays", "clerk", map[string]any{"date": "2025-06-20", "name": "Feriado municipal"})
	w.want(rec, 201, "holiday")
	rec, _ = w.do("POST", "/api/v1/holidays", "clerk", map[string]any{"date": "2025-06-20", "name": "De novo"})
	w.want(rec, 409, "the same holiday twice")
	rec, _ = w.do("POST", "/api/v1/holidays", "clerk", map[string]any{"date": "2025-02-30", "name": "Impossível"})
	w.want(rec, 422, "31/02-like date")
	rec, hs := w.do("GET", "/api/v1/holidays?year=2025", "judge", nil)
	if rec.Code != 200 || len(hs["items"].([]any)) != 1 {
		t.Errorf("holidays: %d %s", rec.Code, rec.Body)
	}
	n := w.notify(id, "defendant", def, "2025-06-10", false)
	// A group case is civil: 15 working days (CPC arts. 1.003, § 5º, and
	// 219), 20/06 holiday and the weekends not counted.
	if n["last_day"] != "2025-07-02" || n["deadline_kind"] != "civil_appeal" || n["days"] != float64(15) {
		t.Errorf("deadline %v, want 2025-07-02 (civil_appeal, 15 working days)", n)
	}
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", id), "clerk", map[string]any{"to": "final"})
	if rec.Code != 409 || !strings.Contains(rec.Body.String(), "Ministério Público") {
		t.Errorf("final judgment before the prosecution's notice: %d %s, want 409 naming it", rec.Code, rec.Body)
	}
	w.notify(id, "prosecution", 0, "2025-06-10", false)
	v, _ = w.get(id)
	// The prosecution's civil window is doubled (CPC art. 180; DOMAIN.md §4,
	// issue 28): 30 working days, to 23/07/2025; the defendant's stays 15.
	if ds, ok := v["deadlines"].([]any); !ok || len(ds) != 2 || ds[0].(map[string]any)["last_day"] != "2025-07-23" || ds[1].(map[string]any)["last_day"] != "2025-07-02" {
		t.Errorf("deadlines on the case: %v", v["deadlines"])
	}
	w.clk.Set(time.Date(2025, 7, 23, 18, 0, 0, 0, w.loc))
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", id), "clerk", map[string]any{"to": "final"})
	w.want(rec, 409, "final judgment on the last day of the window")
	w.clk.Set(time.Date(2025, 7, 24, 9, 0, 0, 0, w.loc))
	v = w.to(id, "clerk", "final")
	// The civil judgment's ban starts the day after the last window (Súmula 643 STJ; CP art. 10).
	if b := v["bans"].([]any)[0].(map[string]any); b["first_day"] != "2025-07-24" || b["last_day"] != "2027-07-23" || b["state"] != "in_force" {
		t.Errorf("group ban after the final judgment %v, want in force from 2025-07-24 to 2027-07-23", b)
	}
	v = w.to(id, "clerk", "archived")
	var codes []int
	for _, m := range v["movements"].([]any) {
		if c, ok := m.(map[string]any)["tpu_code"].(float64); ok {
			codes = append(codes, int(c))
		}
	}
	if fmt.Sprint(codes) != "[26 219 848 246]" {
		t.Errorf("codes %v", codes)
	}
	// R6 by TAC.
	id6, _, _ := w.file("R6")
	w.to(id6, "clerk", "hearing")
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", id6), "clerk", map[string]any{"to": "settlement"})
	w.want(rec, 403, "the clerk homologates a TAC")
	w.to(id6, "judge", "settlement")
	w.to(id6, "clerk", "final")
	w.to(id6, "clerk", "archived")
}

// Movements, evidence, hearings, search, ETag and Idempotency-Key over HTTP.
func TestWorkflow_DocketEvidenceHearingsSearchOverHTTP(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	body := w.rep("R1")
	rec, c := w.do("POST", "/api/v1/cases", "prosecutor", body, "Idempotency-Key", "mp-2025-0001")
	w.want(rec, 201, "first filing")
	id := int64(c["id"].(float64))
	rec, again := w.do("POST", "/api/v1/cases", "prosecutor", body, "Idempotency-Key", "mp-2025-0001")
	w.want(rec, 200, "replayed filing")
	if again["id"] != c["id"] || again["number"] != c["number"] || rec.Header().Get("Idempotent-Replayed") != "true" {
		t.Errorf("replay gave %v %v", again["id"], again["number"])
	}
	rec, _ = w.do("POST", "/api/v1/cases", "prosecutor", w.rep("R2"), "Idempotency-Key", "mp-2025-0001")
	w.want(rec, 422, "another body under the same key")
	var n int64
	w.g.Raw("SELECT count(*) FROM cases").Scan(&n)
	if n != 1 {
		t.Errorf("%d cases after the replays, want 1", n)
	}

	// ETag and If-Match.
	_, etag := w.get(id)
	if etag != `"v1"` {
		t.Errorf("ETag %q, want \"v1\"", etag)
	}
	rec, _ = w.do("GET", fmt.Sprintf("/api/v1/cases/%d", id), "clerk", nil, "If-None-Match", etag)
	w.want(rec, 304, "If-None-Match")
	rec, m := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/movements", id), "clerk", map[string]any{"description": "Conclusos ao juiz.", "tpu_code": 51}, "If-Match", etag)
	w.want(rec, 201, "movement")
	if m["tpu_name"] != "Conclusão" || m["author"].(map[string]any)["name"] != "wf-clerk" {
		t.Errorf("movement %v", m)
	}
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/movements", id), "clerk", map[string]any{"description": "De novo."}, "If-Match", etag)
	w.want(rec, 412, "stale If-Match")
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/movements", id), "clerk", map[string]any{"description": "Futuro.", "at": "2030-01-01T00:00:00-03:00"})
	w.want(rec, 422, "movement in the future")
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/movements", id), "prosecutor", map[string]any{"description": "x"})
	w.want(rec, 403, "movement by the prosecutor")

	// Evidence: by content, not by name; 413 above 10 MB.
	upload := func(name string, data []byte) *httptest.ResponseRecorder {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		fw, _ := mw.CreateFormFile("file", name)
		fw.Write(data)
		mw.WriteField("description", "Imagem da câmera 3")
		mw.Close()
		rec, _ := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/evidence", id), "police", buf.Bytes(), "Content-Type", mw.FormDataContentType())
		return rec
	}
	pdf := []byte("%PDF-1.7\n%âãÏÓ\n1 0 obj <<>> endobj\n%%EOF\n")
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01")
	rec = upload("foto.png", pdf)
	if rec.Code != 422 || !strings.Contains(rec.Body.String(), `"field":"file"`) || !strings.Contains(rec.Body.String(), "PDF") {
		t.Errorf("a PDF named .png: %d %s", rec.Code, rec.Body)
	}
	rec = upload("grande.pdf", append(pdf, make([]byte, 10<<20)...))
	w.want(rec, 413, "an 11 MB file")
	rec = upload("foto.png", png)
	w.want(rec, 201, "a PNG")
	var ev map[string]any
	json.Unmarshal(rec.Body.Bytes(), &ev)
	rec, list := w.do("GET", fmt.Sprintf("/api/v1/cases/%d/evidence", id), "judge", nil)
	if rec.Code != 200 || len(list["items"].([]any)) != 1 {
		t.Errorf("evidence list: %d %s", rec.Code, rec.Body)
	}
	rec, _ = w.do("GET", fmt.Sprintf("/api/v1/evidence/%d", int64(ev["id"].(float64))), "judge", nil)
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "image/png" || !bytes.Equal(rec.Body.Bytes(), png) || !strings.HasPrefix(rec.Header().Get("Repr-Digest"), "sha-256=:") {
		t.Errorf("download: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	rec, _ = w.do("GET", fmt.Sprintf("/api/v1/evidence/%d", int64(ev["id"].(float64))), "club", nil)
	w.want(rec, 403, "a club downloads evidence")

	// Hearings: conflicts are 409.
	rec, c2 := w.do("POST", "/api/v1/cases", "prosecutor", w.rep("R2"))
	w.want(rec, 201, "filing R2")
	id2 := int64(c2["id"].(float64))
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/hearings", id), "clerk", map[string]any{"kind": "preliminary", "starts_at": "2025-06-17T14:00:00-03:00", "room": "Sala 1"})
	w.want(rec, 201, "hearing")
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/hearings", id2), "clerk", map[string]any{"kind": "preliminary", "starts_at": "2025-06-17T14:30:00-03:00", "room": "Sala 2"})
	w.want(rec, 409, "same judge at the same time")
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/hearings", id2), "clerk", map[string]any{"kind": "preliminary", "starts_at": "2025-06-17T15:00:00-03:00", "ends_at": "2025-06-17T15:30:00-03:00", "room": "Sala 1"})
	w.want(rec, 201, "back to back")
	rec, cal := w.do("GET", "/api/v1/hearings?from=2025-06-17&to=2025-06-17", "prosecutor", nil)
	if rec.Code != 200 || len(cal["items"].([]any)) != 2 {
		t.Errorf("calendar: %d %s", rec.Code, rec.Body)
	}

	// Search: unaccented words, number with or without punctuation.
	rec, s := w.do("GET", "/api/v1/cases?q=thiago+goncalves&sort=name", "judge", nil)
	if rec.Code != 200 || s["total"] != float64(1) {
		t.Errorf("search: %d %s", rec.Code, rec.Body)
	}
	digits := strings.NewReplacer("-", "", ".", "").Replace(c["number"].(string))
	rec, s = w.do("GET", "/api/v1/cases?number="+digits, "judge", nil)
	if rec.Code != 200 || s["total"] != float64(1) {
		t.Errorf("search by number: %d %s", rec.Code, rec.Body)
	}
	rec, _ = w.do("GET", "/api/v1/cases?judge_id=x", "judge", nil)
	w.want(rec, 422, "judge_id not a number")
}
