package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/accounts"
)

// filePerson files R1 over the API with the defendant's name and CPF
// changed, and returns the case and the defendant.
func (w *wf) filePerson(name, cpf string) (int64, int64) {
	w.t.Helper()
	r := w.rep("R1")
	d := r["defendants"].([]any)[0].(map[string]any)
	d["full_name"], d["cpf"] = name, cpf
	rec, c := w.do("POST", "/api/v1/cases", "prosecutor", r)
	w.want(rec, 201, "filing "+name)
	return int64(c["id"].(float64)), int64(c["defendants"].([]any)[0].(map[string]any)["id"].(float64))
}

// suspendOver proposes, over the API, the conditional suspension of
// a new case of the person, taken to the accusation, and returns the answer.
func (w *wf) suspendOver(name, cpf string) (int, map[string]any) {
	w.t.Helper()
	id, def := w.filePerson(name, cpf)
	w.to(id, "clerk", "preliminary_hearing")
	w.to(id, "prosecutor", "accusation")
	rec, out := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/suspension", id), "judge", map[string]any{"defendant_id": def, "months": 24,
		"repair_damage": "pagar R$ 500,00 ao clube", "forbidden_places": []string{"bares da torcida"}, "stay_in_district": true, "monthly_appearance": true})
	return rec.Code, out
}

// fieldMessage is the message of the problem's error on field ("" when none).
func fieldMessage(out map[string]any, field string) string {
	errs, _ := out["errors"].([]any)
	for _, e := range errs {
		if m, _ := e.(map[string]any); m["field"] == field {
			s, _ := m["message"].(string)
			return s
		}
	}
	return ""
}

// Lei 9.099/1995, art. 89, caput, over the API: another case with the
// accusation only offered does not bar the suspension; one with the
// accusation received does (422 on defendant_id naming the case), and so
// does a final conviction to reclusão alone.
func TestSuspensionBars_Lei9099_art89_caput_OverHTTP(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	other, _ := w.filePerson("Carlos Alberto Nunes", "52998224725")
	w.to(other, "clerk", "preliminary_hearing")
	w.to(other, "prosecutor", "accusation")
	if code, out := w.suspendOver("Carlos Alberto Nunes", "52998224725"); code != 201 {
		t.Fatalf("an accusation offered elsewhere, not received: %d %v", code, out)
	}
	received, _ := w.filePerson("Paulo Roberto Dias", "39053344705")
	w.receive(received)
	code, out := w.suspendOver("Paulo Roberto Dias", "39053344705")
	if m := fieldMessage(out, "defendant_id"); code != 422 || !strings.Contains(m, "art. 89, caput") || !strings.Contains(m, "denúncia recebida") {
		t.Errorf("accusation received elsewhere: %d %v", code, out)
	}
	convicted, def := w.filePerson("José Carlos Lima", "31415926590")
	w.receive(convicted)
	rec, _ := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", convicted), "judge", map[string]any{"defendant_id": def, "outcome": "prison", "eligible": false,
		"prison_months": 12, "fine_days": 10, "text": map[string]any{"reasoning": "Reincidente: sem conversão."}})
	w.want(rec, 201, "sentence to reclusão alone")
	w.makeFinal(convicted)
	code, out = w.suspendOver("José Carlos Lima", "31415926590")
	if m := fieldMessage(out, "defendant_id"); code != 422 || !strings.Contains(m, "condenado por outro crime") || !strings.Contains(m, "reclusão de 12 meses") {
		t.Errorf("final conviction to reclusão alone: %d %v", code, out)
	}
}

// importGarra imports the shared Excel register
// (fixtures/members-valid-excel-ptbr.csv) into the fixture's group, Garra
// do Tatuapé, over the API as its manager, and returns the group's id.
func (w *wf) importGarra() int64 {
	w.t.Helper()
	ctx := context.Background()
	var gid int64
	w.g.Raw("SELECT id FROM fan_groups WHERE name = 'Torcida Organizada Garra do Tatuapé'").Scan(&gid)
	u, _, err := accounts.EnsureUser(ctx, w.g, accounts.UserSpec{Name: "wf-mgr", Role: "fan_group", Group: gid})
	if err != nil {
		w.t.Fatal(err)
	}
	if w.tok["mgr"], err = accounts.NewToken(ctx, w.g, u.ID, time.Time{}); err != nil {
		w.t.Fatal(err)
	}
	rec, _ := w.do("POST", fmt.Sprintf("/api/v1/groups/%d/members/import", gid), "mgr", fixtureBytes(w.t, "fixtures", "members-valid-excel-ptbr.csv"), "Content-Type", "text/csv")
	w.want(rec, 201, "import of the register")
	return gid
}

// An urgent order against a group (CPC art. 300), over the API: the members
// named in member_ids are banned at once and the gates' check blocks them;
// member_ids on a person's precautionary measure is 422 on member_ids.
func TestUrgentOrder_CPC300_MembersOverHTTP(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	gid := w.importGarra()
	var named []int64
	w.g.Raw("SELECT id FROM members WHERE group_id = ? AND cpf IN ('06420642370', '01720368872') ORDER BY id", gid).Scan(&named)
	id, def, _ := w.file("R5")
	body := map[string]any{"defendant_id": def, "precautionary": true, "review_on": "2025-09-10", "member_ids": named,
		"text": map[string]any{"reasoning": "Perigo de dano: confrontos anunciados (CPC, art. 300)."}}
	rec, out := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", id), "judge", body)
	w.want(rec, 201, "urgent order with member_ids")
	if mbs, _ := out["member_bans"].([]any); len(mbs) != 2 {
		t.Errorf("member_bans %v, want the 2 named", out["member_bans"])
	}
	for cpf, want := range map[string]bool{"06420642370": true, "01720368872": true, "06909990382": false} {
		rec, chk := w.do("GET", "/api/v1/blocklist/check/"+cpf, "club", nil)
		w.want(rec, 200, "check "+cpf)
		if chk["blocked"] != want {
			t.Errorf("check %s: blocked %v, want %v", cpf, chk["blocked"], want)
		}
	}
	pid, pdef, _ := w.file("R1")
	rec, out = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", pid), "judge", map[string]any{"defendant_id": pdef, "precautionary": true, "review_on": "2025-09-10",
		"member_ids": named, "text": map[string]any{"reasoning": "Risco de reiteração."}})
	if rec.Code != 422 || fieldMessage(out, "member_ids") == "" {
		t.Errorf("member_ids on a person's measure: %d %v, want 422 on member_ids", rec.Code, out)
	}
}

// CP art. 14, II and art. 68 over the API: a cause of decrease of the
// third phase takes the term below the minimum (9 months and 10 days), the
// answer and the stored sentence say so; an invalid fraction is 422 naming
// dosimetry.causes[0].fraction.
func TestDosimetryThirdPhase_CP14II_OverHTTP(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	id, def, _ := w.file("R1")
	w.receive(id)
	body := func(fraction any) map[string]any {
		return map[string]any{"defendant_id": def, "outcome": "prison", "eligible": false, "fine_days": 10, "text": map[string]any{"reasoning": "Tentativa."},
			"dosimetry": map[string]any{"base_months": 14, "intermediate_months": 14, "causes": []any{map[string]any{"kind": "decrease", "fraction": fraction, "article": "CP, art. 14, II"}}}}
	}
	for _, bad := range []any{"1/x", 0.5, "3/4"} {
		rec, out := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", id), "judge", body(bad))
		if rec.Code != 422 || fieldMessage(out, "dosimetry.causes[0].fraction") == "" {
			t.Errorf("fraction %v: %d %v, want 422 on dosimetry.causes[0].fraction", bad, rec.Code, out)
		}
	}
	rec, out := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", id), "judge", body(map[string]any{"num": 1, "den": 3}))
	w.want(rec, 201, "third phase below the minimum")
	prison, _ := out["prison"].(map[string]any)
	sentence, _ := out["sentence"].(map[string]any)
	dz, _ := sentence["dosimetry"].(map[string]any)
	tp, _ := dz["third_phase"].(map[string]any)
	if prison["months"] != float64(9) || prison["days"] != float64(10) || sentence["prison_days"] != float64(10) || tp == nil || tp["below_minimum"] != true {
		t.Errorf("answer: prison %v, sentence %v", prison, sentence)
	}
}
