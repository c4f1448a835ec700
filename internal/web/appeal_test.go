package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// sentencedOverHTTP files R1, receives the accusation and sentences its
// defendant to a ban of 12 months; it returns the case and the defendant.
func sentencedOverHTTP(w *wf) (int64, int64) {
	w.t.Helper()
	w.addJudge()
	id, def, _ := w.file("R1")
	w.receive(id)
	rec, _ := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", id), "judge", map[string]any{"defendant_id": def, "ban": map[string]any{"months": 12},
		"reporting_duty": map[string]any{"place": "2º DP", "club": "Corinthians"}, "text": reasoned})
	w.want(rec, 201, "sentence")
	return id, def
}

// CPP art. 617 over the API: on the defence's appeal alone a longer term
// is 422 citing the article; once the prosecution's appeal is recorded on
// the track (transitions {to: appeal, party}), the result is recorded with
// both appellants and its ban reaches the blocklist at the final judgment.
func TestAppealResultHarsherOnlyWithProsecutionAppeal_CPP617_OverHTTP(t *testing.T) {
	w := newWF(t)
	id, def := sentencedOverHTTP(w)
	tr := fmt.Sprintf("/api/v1/cases/%d/transitions", id)
	rec, _ := w.do("POST", tr, "clerk", map[string]any{"to": "appeal", "defendant_id": def, "party": "defence"})
	w.want(rec, 200, "the defence's appeal")
	result := map[string]any{"result": "reformed", "defendant_id": def, "decided_on": "2025-06-10", "ban": map[string]any{"months": 24}}
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/appeal-result", id), "clerk", result)
	w.want(rec, 422, "a harsher term on the defence's appeal")
	if !strings.Contains(rec.Body.String(), "art. 617") || !strings.Contains(rec.Body.String(), `"field":"ban.months"`) {
		t.Errorf("422 does not cite CPP art. 617 on ban.months: %s", rec.Body)
	}
	rec, _ = w.do("POST", tr, "clerk", map[string]any{"to": "appeal", "defendant_id": def, "party": "nobody"})
	w.want(rec, 422, "an appeal by no party")
	rec, _ = w.do("POST", tr, "clerk", map[string]any{"to": "appeal", "defendant_id": def, "party": "prosecution"})
	w.want(rec, 200, "the prosecution's appeal too")
	rec, v := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/appeal-result", id), "clerk", result)
	w.want(rec, 201, "the longer term on the prosecution's appeal")
	if rs := v["appeal_results"].([]any); len(rs) != 1 || fmt.Sprint(rs[0].(map[string]any)["appellants"]) != "[defence prosecution]" {
		t.Errorf("appeal_results %v, want appellants defence and prosecution", v["appeal_results"])
	}
	w.to(id, "clerk", "final")
	rec, chk := w.do("GET", "/api/v1/blocklist/check/66392332154", "club", nil)
	if rec.Code != 200 || chk["blocked"] != true {
		t.Errorf("blocklist after the final judgment: %d %s", rec.Code, rec.Body)
	}
}

// Lei 9.099/1995, art. 83, § 2º over the API: embargos (clerk, 201)
// interrupt the windows; the final judgment is 409 naming them; the
// ruling is the judge's (the clerk 403); after it the final judgment
// waits for the notices of the ruling (409).
func TestEmbargosInterruptWindows_Lei9099_art83_OverHTTP(t *testing.T) {
	w := newWF(t)
	id, def := sentencedOverHTTP(w)
	for _, p := range []string{"prosecution", "defendant", "defence"} {
		rec, _ := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/notifications", id), "clerk", map[string]any{"party": p, "defendant_id": def, "notified_on": "2025-06-10", "waived_appeal": true})
		w.want(rec, 201, "notice with waiver to "+p)
	}
	emb := map[string]any{"defendant_id": def, "party": "prosecution", "filed_on": "2025-06-10", "text": "Contradição entre a fundamentação e o dispositivo."}
	rec, _ := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/embargos", id), "judge", emb)
	w.want(rec, 403, "the judge files embargos")
	rec, e := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/embargos", id), "clerk", emb)
	w.want(rec, 201, "embargos")
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", id), "clerk", map[string]any{"to": "final", "defendant_id": def})
	w.want(rec, 409, "final judgment while the embargos wait")
	if !strings.Contains(rec.Body.String(), "embargos") {
		t.Errorf("409 does not name the embargos: %s", rec.Body)
	}
	ruling := fmt.Sprintf("/api/v1/embargos/%v/ruling", e["id"])
	rec, _ = w.do("POST", ruling, "clerk", map[string]any{"granted": false, "text": "Sem contradição."})
	w.want(rec, 403, "the clerk rules")
	rec, _ = w.do("POST", ruling, "judge", map[string]any{"granted": false})
	w.want(rec, 422, "a ruling without reasoning")
	rec, r := w.do("POST", ruling, "judge", map[string]any{"granted": false, "text": "Sem contradição.", "decided_on": "2025-06-10"})
	w.want(rec, 200, "ruling")
	if r["status"] != "ruled" || r["granted"] != false {
		t.Errorf("ruling %v", r)
	}
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", id), "clerk", map[string]any{"to": "final", "defendant_id": def})
	w.want(rec, 409, "final judgment before the notices of the ruling")
	if !strings.Contains(rec.Body.String(), "art. 83, § 2º") {
		t.Errorf("409 does not say the windows run again: %s", rec.Body)
	}
}

// Lei 9.099/1995, art. 82 and CPP art. 617 over the API: on the
// prosecution's appeal against an acquittal the Turma convicts to a ban
// (planned as a sentence's: it waits for the final judgment); the same
// result with appellants ["defence"] is 422 on outcome.
func TestAppealResultConvictsOnProsecutionAppeal_CPP617_OverHTTP(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	id, def, _ := w.file("R1")
	w.receive(id)
	rec, _ := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", id), "judge", map[string]any{"defendant_id": def, "outcome": "acquittal", "acquittal_ground": "VII", "text": reasoned})
	w.want(rec, 201, "acquittal")
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", id), "clerk", map[string]any{"to": "appeal", "defendant_id": def, "party": "prosecution"})
	w.want(rec, 200, "the prosecution's appeal")
	result := map[string]any{"result": "reformed", "defendant_id": def, "decided_on": "2025-06-10", "outcome": "ban", "ban": map[string]any{"months": 12},
		"reporting_duty": map[string]any{"place": "2º DP", "club": "Corinthians"}, "appellants": []string{"defence"}}
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/appeal-result", id), "clerk", result)
	w.want(rec, 422, "a conviction on the defence's appeal")
	if !strings.Contains(rec.Body.String(), "617") || !strings.Contains(rec.Body.String(), `"field":"outcome"`) {
		t.Errorf("422 does not cite CPP art. 617 on outcome: %s", rec.Body)
	}
	delete(result, "appellants") // the appeal recorded on the track: the prosecution's
	rec, v := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/appeal-result", id), "clerk", result)
	w.want(rec, 201, "the conviction on the prosecution's appeal")
	bans, _ := v["bans"].([]any)
	if len(bans) != 1 || bans[0].(map[string]any)["state"] != "awaiting_final" {
		t.Errorf("bans after the conviction on appeal %v, want one awaiting the final judgment", v["bans"])
	}
}

// CPP art. 617: the clerk cannot name the prosecution among the appellants
// of a track where only the defence's appeal is recorded (a new user's
// bypass: a 12-month ban raised to 24 on the defence's appeal alone).
func TestAppealResultProsecutionNotRecorded_CPP617_OverHTTP(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	id, def, _ := w.file("R1")
	w.receive(id)
	rec, _ := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", id), "judge", map[string]any{"defendant_id": def, "ban": map[string]any{"months": 12}, "text": reasoned,
		"reporting_duty": map[string]any{"place": "2º DP", "club": "Corinthians"}})
	w.want(rec, 201, "sentence")
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", id), "clerk", map[string]any{"to": "appeal", "defendant_id": def, "party": "defence"})
	w.want(rec, 200, "the defence's appeal")
	result := map[string]any{"result": "reformed", "defendant_id": def, "decided_on": "2025-06-10", "ban": map[string]any{"months": 24}, "text": "Pena aumentada.", "appellants": []string{"prosecution"}}
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/appeal-result", id), "clerk", result)
	w.want(rec, 422, "the prosecution named without its appeal")
	if b := rec.Body.String(); !strings.Contains(b, `"field":"appellants"`) || !strings.Contains(b, "617") {
		t.Errorf("422 does not name appellants nor cite CPP art. 617: %s", b)
	}
	delete(result, "appellants")
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/appeal-result", id), "clerk", result)
	w.want(rec, 422, "a harsher term on the defence's appeal")
}

// CPP art. 617 (reformatio in pejus indireta) and CF art. 5º, XXXVI over
// the API: after the annulment on the defence's appeal alone, a heavier
// new sentence is 422 on ban.months citing the article; as heavy is 201;
// with no track in appeal, an annulment without defendant_id is 422 on
// defendant_id.
func TestSentenceAfterAnnulment_ReformatioInPejusIndireta_CPP617_OverHTTP(t *testing.T) {
	w := newWF(t)
	id, def := sentencedOverHTTP(w)
	rec, _ := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", id), "clerk", map[string]any{"to": "appeal", "defendant_id": def, "party": "defence"})
	w.want(rec, 200, "the defence's appeal")
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/appeal-result", id), "clerk", map[string]any{"result": "annulled", "decided_on": "2025-06-10"})
	w.want(rec, 201, "the annulment")
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/appeal-result", id), "clerk", map[string]any{"result": "annulled", "decided_on": "2025-06-10"})
	w.want(rec, 422, "an annulment with no track in appeal")
	if !strings.Contains(rec.Body.String(), `"field":"defendant_id"`) {
		t.Errorf("422 does not name defendant_id: %s", rec.Body)
	}
	sentence := map[string]any{"defendant_id": def, "ban": map[string]any{"months": 24}, "reporting_duty": map[string]any{"place": "2º DP", "club": "Corinthians"}, "text": reasoned}
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", id), "judge", sentence)
	w.want(rec, 422, "a heavier sentence after the annulment on the defence's appeal")
	if b := rec.Body.String(); !strings.Contains(b, `"field":"ban.months"`) || !strings.Contains(b, "617") || !strings.Contains(b, "indireta") {
		t.Errorf("422 does not name ban.months nor cite CPP art. 617: %s", b)
	}
	sentence["ban"] = map[string]any{"months": 12}
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", id), "judge", sentence)
	w.want(rec, 201, "the same term after the annulment")
}

// Lei 9.099/1995, art. 83, § 1º over the API: embargos filed after the
// party's 5 days from its notice are 201 with late: true and the window's
// last day, and interrupt nothing (the notice keeps its deadline); a notice
// dated before the sentence it gives notice of is 422 on notified_on.
func TestEmbargosLate_Lei9099_art83_sec1_OverHTTP(t *testing.T) {
	w := newWF(t)
	id, def := sentencedOverHTTP(w) // 10/06/2025
	rec, _ := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/notifications", id), "clerk", map[string]any{"party": "defence", "defendant_id": def, "notified_on": "2025-06-09"})
	w.want(rec, 422, "a notice before the sentence")
	if !strings.Contains(rec.Body.String(), `"field":"notified_on"`) {
		t.Errorf("422 not on notified_on: %s", rec.Body)
	}
	w.notify(id, "defendant", def, "2025-06-10", false)
	w.advance(7 * 24 * time.Hour) // 17/06/2025
	rec, e := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/embargos", id), "clerk", map[string]any{"defendant_id": def, "party": "defendant", "filed_on": "2025-06-17", "text": "Omissão quanto à detração."})
	w.want(rec, 201, "late embargos")
	if e["late"] != true || e["window_last_day"] != "2025-06-16" || e["against"] != "sentence" {
		t.Errorf("late embargos answer: %s", rec.Body)
	}
	v, _ := w.get(id)
	if ds := v["deadlines"].([]any); len(ds) != 1 || ds[0].(map[string]any)["last_day"] != "2025-06-20" {
		t.Errorf("late embargos interrupted the window: %v", v["deadlines"])
	}
}
