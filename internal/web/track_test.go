package web_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// Each defendant on his own track over HTTP (DOMAIN.md §4; API.md "each
// defendant's track"): two co-defendants, one takes the plea agreement
// (Lei 9.099/1995, art. 76) and the other is accused, his accusation
// received and convicted (arts. 77, 81): transitions with and without
// defendant_id, the 422 of a sentence before the receipt, notices and the
// final judgment of the convicted one alone (art. 82, § 1º), and
// GET /api/v1/cases/{id} with each defendant's status and final_on.
func TestTrackPerDefendantOverHTTP_Lei9099_arts_76_77_81_82(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	id, a, b := w.twoDefendants()
	path := fmt.Sprintf("/api/v1/cases/%d", id)
	step := func(role string, body map[string]any, code int) map[string]any {
		t.Helper()
		rec, v := w.do("POST", path+"/transitions", role, body)
		w.want(rec, code, fmt.Sprintf("%v as %s", body, role))
		return v
	}
	tracks := func() (map[int64]map[string]any, string) {
		t.Helper()
		v, _ := w.get(id)
		out := map[int64]map[string]any{}
		for _, d := range v["defendants"].([]any) {
			m := d.(map[string]any)
			out[int64(m["id"].(float64))] = m
		}
		return out, v["status"].(string)
	}
	step("clerk", map[string]any{"to": "preliminary_hearing"}, 200)
	rec, _ := w.do("POST", path+"/plea", "prosecutor", map[string]any{"defendant_id": a, "months": 6})
	w.want(rec, 201, "plea offer to a")
	step("clerk", map[string]any{"to": "plea_accepted", "defendant_id": a}, 200)
	rec, _ = w.do("POST", path+"/plea/homologate", "judge", map[string]any{"defendant_id": a})
	w.want(rec, 201, "homologation for a")
	// The accusation without defendant_id reaches b only; a's track is executing.
	step("prosecutor", map[string]any{"to": "accusation"}, 200)
	ts, status := tracks()
	if ts[a]["status"] != "executing" || ts[b]["status"] != "accusation" || status != "accusation" {
		t.Fatalf("tracks a=%v b=%v case=%s, want executing, accusation and the case accusation", ts[a]["status"], ts[b]["status"], status)
	}
	// No conviction before the receipt (arts. 77 and 81).
	sentence := map[string]any{"defendant_id": b, "ban": map[string]any{"months": 12}, "reporting_duty": map[string]any{"place": "2º DP", "club": "Corinthians"},
		"text": map[string]any{"reasoning": "Autoria e materialidade provadas."}}
	rec, _ = w.do("POST", path+"/sentence", "judge", sentence)
	w.want(rec, 422, "sentence before the receipt")
	if body := rec.Body.String(); !strings.Contains(body, `"field":"defendant_id"`) || !strings.Contains(body, "arts. 77 e 81") {
		t.Errorf("the refusal does not cite arts. 77 and 81 on defendant_id: %s", body)
	}
	// A step that no track allows names each track.
	v := step("clerk", map[string]any{"to": "plea_refused"}, 422)
	if !strings.Contains(fmt.Sprint(v), "executing") {
		t.Errorf("422 does not name a's track: %v", v)
	}
	step("clerk", map[string]any{"to": "instruction_hearing", "defendant_id": b}, 200)
	rec, _ = w.do("POST", path+"/sentence", "judge", sentence)
	w.want(rec, 201, "sentence of b")
	day := w.clk.Now().In(w.loc).Format("2006-01-02")
	w.notify(id, "prosecution", 0, day, true) // as to every defendant sentenced: b
	w.notify(id, "defendant", b, day, true)
	w.notify(id, "defence", b, day, true)
	rec, _ = w.do("POST", path+"/notifications", "clerk", map[string]any{"party": "defendant", "defendant_id": a, "notified_on": day})
	w.want(rec, 409, "a notice for a defendant not sentenced")
	step("clerk", map[string]any{"to": "final", "defendant_id": b}, 200)
	ts, status = tracks()
	if ts[b]["status"] != "final" || ts[b]["final_on"] != day || ts[a]["status"] != "executing" || ts[a]["final_on"] != nil || status != "final" {
		t.Errorf("after b's final judgment: a=%v b=%v case=%s", ts[a], ts[b], status)
	}
	// Other ends: the extinction names its cause (CP art. 107).
	step("judge", map[string]any{"to": "extinct", "defendant_id": a}, 422)
}

// The case page shows each defendant's own status (DOMAIN.md §4) and the
// step form names the defendant, the archive's ground (CPP art. 28) and
// the extinction's cause (CP art. 107); a step posted there for one
// defendant moves his track only.
func TestPageTrackPerDefendant_CPP28_CP107(t *testing.T) {
	f := newFixture(t)
	var rep map[string]any
	if err := json.Unmarshal([]byte(representation(t, "R1")), &rep); err != nil {
		t.Fatal(err)
	}
	second := map[string]any{}
	for k, v := range rep["defendants"].([]any)[0].(map[string]any) {
		second[k] = v
	}
	second["full_name"], second["cpf"], second["mother_name"] = "Márcia Exemplo Nogueira", "390.996.030-88", "Lúcia Exemplo"
	rep["defendants"] = append(rep["defendants"].([]any), second)
	raw, _ := json.Marshal(rep)
	code, body, c := f.send(t, "POST", "/api/v1/cases", "prosecutor", "application/json", string(raw))
	if code != 201 {
		t.Fatalf("filing: %d %s", code, body)
	}
	caseID := int(c["id"].(float64))
	a := int(c["defendants"].([]any)[0].(map[string]any)["id"].(float64))
	caseURL := fmt.Sprintf("/processos/%d", caseID)
	if code, body, _ := f.send(t, "POST", fmt.Sprintf("/api/v1/cases/%d/transitions", caseID), "clerk", "application/json", `{"to": "preliminary_hearing"}`); code != 200 {
		t.Fatalf("preliminary phase: %d %s", code, body)
	}
	judge := f.browser(t, "judge")
	rec := judge.do("GET", caseURL, nil)
	expect(t, "judge, two defendants", rec.Code, 200, rec.Body.String(), "Situação do réu", `name="and.defendant_id"`, `value="prosecutor_request"`, `name="and.cause"`,
		`value="separated"`, "Márcia Exemplo Nogueira (audiência preliminar)")
	rec = judge.do("POST", caseURL+"/andamento", url.Values{"and.to": {"archived"}, "and.defendant_id": {fmt.Sprint(a)}, "and.ground": {"prosecutor_request"}})
	if rec.Code != 303 {
		t.Fatalf("archive at the prosecutor's request: %d %s", rec.Code, rec.Body)
	}
	page := judge.do("GET", caseURL, nil).Body.String()
	expect(t, "after the archive of one", 200, 200, page, "arquivado", "CPP, art. 28")
	_, _, v := f.send(t, "GET", fmt.Sprintf("/api/v1/cases/%d", caseID), "clerk", "", "")
	if v["status"] != "preliminary_hearing" {
		t.Errorf("case status %v: the other track is still in the preliminary phase", v["status"])
	}
}
