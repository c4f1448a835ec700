package web_test

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
)

// fileWithoutCPF files representation ref with its person defendant's CPF
// removed, sentences them to a ban and makes the judgment final today
// (every party waives the appeal): the ban is in force from today
// (10/06/2025; Súmula 643 STJ). It returns the case, the defendant and the
// ban.
func (w *wf) fileWithoutCPF(ref string) (caseID, defID, banID int64) {
	w.t.Helper()
	rep := w.rep(ref)
	d := rep["defendants"].([]any)[0].(map[string]any)
	delete(d, "cpf")
	rec, c := w.do("POST", "/api/v1/cases", "prosecutor", rep)
	w.want(rec, 201, "filing "+ref+" without a CPF")
	caseID = int64(c["id"].(float64))
	defID = int64(c["defendants"].([]any)[0].(map[string]any)["id"].(float64))
	w.receive(caseID)
	rec, s := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", caseID), "judge",
		map[string]any{"defendant_id": defID, "ban": map[string]any{"months": 3}, "text": reasoned, "reporting_duty": reporting})
	w.want(rec, 201, "sentence of "+ref)
	w.makeFinal(caseID)
	return caseID, defID, int64(s["ban"].(map[string]any)["id"].(float64))
}

// A person filed without a CPF: the ban waits in the queue awaiting
// identification and out of the blocklist; the clerk records the CPF (any
// spelling): the CPF is blocked, the feed has the addition, the queue is
// empty, the docket says so. Another court's clerk gets 404, other roles
// 403, a bad CPF 422, a second identification 409.
func TestIdentification_QueueToBlocklist(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	ctx := context.Background()
	caseID, defID, banID := w.fileWithoutCPF("R1")
	const cpf = "66392332154"
	path := fmt.Sprintf("/api/v1/cases/%d/defendants/%d/cpf", caseID, defID)

	rec, chk := w.do("GET", "/api/v1/blocklist/check/"+cpf, "club", nil)
	w.want(rec, 200, "check before")
	if chk["blocked"] != false {
		t.Fatalf("blocked before the identification: %v", chk)
	}
	before := int64(chk["version"].(float64))
	rec, q := w.do("GET", "/api/v1/blocklist/awaiting-identification", "clerk", nil)
	w.want(rec, 200, "queue")
	items := q["items"].([]any)
	if len(items) != 1 || int64(items[0].(map[string]any)["ban_id"].(float64)) != banID || int64(items[0].(map[string]any)["defendant_id"].(float64)) != defID {
		t.Fatalf("queue %v, want ban %d", q, banID)
	}

	// Another court's clerk does not see the case; other roles may not.
	if err := cases.EnsureCourt(ctx, w.g, "26.0200", ""); err != nil {
		t.Fatal(err)
	}
	u, _, err := accounts.EnsureUser(ctx, w.g, accounts.UserSpec{Name: "wf-other-clerk", Role: "clerk", Court: "26.0200"})
	if err != nil {
		t.Fatal(err)
	}
	if w.tok["other"], err = accounts.NewToken(ctx, w.g, u.ID, time.Time{}); err != nil {
		t.Fatal(err)
	}
	body := map[string]any{"cpf": "663.923.321-54"}
	rec, _ = w.do("PUT", path, "other", body)
	w.want(rec, 404, "another court's clerk")
	for _, role := range []string{"prosecutor", "police", "club"} {
		rec, _ = w.do("PUT", path, role, body)
		w.want(rec, 403, role)
	}
	rec, _ = w.do("PUT", fmt.Sprintf("/api/v1/cases/%d/defendants/%d/cpf", caseID, defID+1000), "clerk", body)
	w.want(rec, 404, "a defendant not of the case")
	rec, _ = w.do("PUT", fmt.Sprintf("/api/v1/cases/%d/defendants/x/cpf", caseID), "clerk", body)
	w.want(rec, 404, "a malformed defendant id")

	// Bad input: 422 on the field, nothing recorded.
	for _, tc := range []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"cpf": "663.923.321-55"}, "cpf"},
		{map[string]any{"cpf": "663923321"}, "cpf"},
		{map[string]any{"cpf": "663.923.321-5x"}, "cpf"},
		{map[string]any{}, "cpf"},
		{map[string]any{"cpf": cpf, "birth_date": "2010-01-01"}, "birth_date"},
		{map[string]any{"cpf": cpf, "birth_date": "1991-02-30"}, "birth_date"},
	} {
		rec, p := w.do("PUT", path, "clerk", tc.body)
		if rec.Code != 422 || rec.Header().Get("Content-Type") != "application/problem+json" || !strings.Contains(rec.Body.String(), `"field":"`+tc.field+`"`) {
			t.Errorf("%v: %d %v, want 422 on %s", tc.body, rec.Code, p, tc.field)
		}
	}
	var stored *string
	w.g.Raw("SELECT cpf FROM defendants WHERE id = ?", defID).Scan(&stored)
	if stored != nil {
		t.Fatalf("a refused identification recorded CPF %s", *stored)
	}

	// The clerk identifies (spaces inside the CPF, as typed from a document).
	_, etag := w.get(caseID)
	rec, res := w.do("PUT", path, "clerk", map[string]any{"cpf": " 663 923 321 54 "}, "If-Match", etag)
	w.want(rec, 200, "identification")
	if rec.Header().Get("ETag") == "" || rec.Header().Get("ETag") == etag {
		t.Errorf("ETag after the identification %q (before %q)", rec.Header().Get("ETag"), etag)
	}
	if d := res["defendant"].(map[string]any); d["cpf"] != cpf || d["awaiting_identification"] != nil {
		t.Errorf("defendant %v", d)
	}
	if bans := res["bans"].([]any); len(bans) != 1 || int64(bans[0].(map[string]any)["id"].(float64)) != banID || bans[0].(map[string]any)["cpf"] != cpf {
		t.Errorf("bans %v", res["bans"])
	}
	rec, chk = w.do("GET", "/api/v1/blocklist/check/663.923.321-54", "club", nil)
	w.want(rec, 200, "check after")
	if chk["blocked"] != true || len(chk["bans"].([]any)) != 1 || int64(chk["bans"].([]any)[0].(map[string]any)["ban_id"].(float64)) != banID {
		t.Fatalf("check after the identification: %v", chk)
	}
	rec, feed := w.do("GET", fmt.Sprintf("/api/v1/blocklist/changes?since=%d", before), "club", nil)
	w.want(rec, 200, "feed")
	changes := feed["changes"].([]any)
	if len(changes) != 1 || changes[0].(map[string]any)["op"] != "add" || int64(changes[0].(map[string]any)["ban_id"].(float64)) != banID || changes[0].(map[string]any)["cpf"] != cpf {
		t.Fatalf("feed since %d: %v", before, feed)
	}
	rec, q = w.do("GET", "/api/v1/blocklist/awaiting-identification", "judge", nil)
	w.want(rec, 200, "queue after")
	if len(q["items"].([]any)) != 0 {
		t.Fatalf("queue after the identification: %v", q)
	}
	v, _ := w.get(caseID)
	found := false
	for _, m := range v["movements"].([]any) {
		if d := m.(map[string]any)["description"].(string); strings.Contains(d, "Identificado(a)") && strings.Contains(d, "663.923.321-54") {
			found = true
		}
	}
	if !found {
		t.Errorf("no docket movement for the identification: %v", v["movements"])
	}
	if d := v["defendants"].([]any)[0].(map[string]any); d["cpf"] != cpf {
		t.Errorf("the case shows defendant %v", d)
	}
	var audited int64
	// Each step of his track (the clerk's too) updates the row: the identification is the one that changes the CPF.
	w.g.Raw("SELECT count(*) FROM audit_log WHERE table_name = 'defendants' AND action = 'update' AND actor_name = 'wf-clerk' AND before->>'cpf' IS DISTINCT FROM after->>'cpf'").Scan(&audited)
	if audited != 1 {
		t.Errorf("%d audit rows for the defendant's update by the clerk, want 1", audited)
	}

	// The same CPF again changes nothing; another CPF is refused (the
	// judge of the court passes the role check).
	rec, res = w.do("PUT", path, "judge", map[string]any{"cpf": "663.923.321-54"})
	w.want(rec, 200, "the same CPF again")
	if len(res["bans"].([]any)) != 0 {
		t.Errorf("the same CPF again: %v", res)
	}
	rec, _ = w.do("PUT", path, "judge", map[string]any{"cpf": "468.819.736-59"})
	w.want(rec, 409, "another CPF")
	var versions int64
	w.g.Raw("SELECT count(*) FROM blocklist_changes WHERE ban_id = ?", banID).Scan(&versions)
	if versions != 1 {
		t.Errorf("%d feed changes of the ban, want 1 (the addition)", versions)
	}

	// A fan-group defendant is not identified by CPF.
	rec, c := w.do("POST", "/api/v1/cases", "prosecutor", w.rep("R5"))
	w.want(rec, 201, "filing R5")
	gdef := int64(c["defendants"].([]any)[0].(map[string]any)["id"].(float64))
	rec, _ = w.do("PUT", fmt.Sprintf("/api/v1/cases/%d/defendants/%d/cpf", int64(c["id"].(float64)), gdef), "clerk", map[string]any{"cpf": cpf})
	w.want(rec, 422, "group defendant")
}

// The identification form of the case page: offered to the clerk and the
// judge for a defendant without a CPF, with the error next to the field
// and the typed value kept (422); no CSRF token 403; other roles 403; the
// identification recorded as by the API (the blocklist addition, the audit
// actor) and the form gone.
func TestPageIdentification(t *testing.T) {
	f := newFixture(t)
	rep := strings.Replace(representation(t, "R1"), `"cpf": "663.923.321-54"`, `"cpf": null`, 1)
	if !strings.Contains(rep, `"cpf": null`) {
		t.Fatal("fixture R1 changed: no CPF to remove")
	}
	code, body, c := f.send(t, "POST", "/api/v1/cases", "prosecutor", "application/json", rep)
	if code != 201 {
		t.Fatalf("filing: %d %s", code, body)
	}
	caseID := int(c["id"].(float64))
	def := int(c["defendants"].([]any)[0].(map[string]any)["id"].(float64))
	f.receive(t, int64(caseID))
	code, body, s := f.send(t, "POST", fmt.Sprintf("/api/v1/cases/%d/sentence", caseID), "judge", "application/json",
		fmt.Sprintf(`{"defendant_id": %d, "ban": {"months": 6}, `+reasoningJSON+`, `+reportingJSON+`}`, def))
	if code != 201 {
		t.Fatalf("sentence: %d %s", code, body)
	}
	banID := int(s["ban"].(map[string]any)["id"].(float64))
	f.makeFinal(t, caseID) // the ban is in force from today, out of the blocklist for want of a CPF
	_, before := f.blocklistState(t, banID)
	updates := f.auditBy(t, "bans", "update", "u-clerk") // the final judgment started the ban
	pURL := fmt.Sprintf("/processos/%d", caseID)
	clerk, judge, pros := f.browser(t, "clerk"), f.browser(t, "judge"), f.browser(t, "prosecutor")

	for name, b := range map[string]*browser{"clerk": clerk, "judge": judge} {
		rec := b.do("GET", pURL, nil)
		expect(t, name+", case without CPF", rec.Code, 200, rec.Body.String(), "Identificar representado sem CPF", pURL+"/identificacao", `name="ident.cpf"`)
	}
	if body := pros.do("GET", pURL, nil).Body.String(); strings.Contains(body, "/identificacao") {
		t.Error("the prosecutor is offered the identification form")
	}
	form := func(cpf string) url.Values {
		return url.Values{"ident.defendant_id": {strconv.Itoa(def)}, "ident.cpf": {cpf}}
	}
	rec := clerk.do("POST", pURL+"/identificacao", form("663.923.321-00"))
	expect(t, "wrong check digits", rec.Code, 422, rec.Body.String(), `id="f-ident-cpf-erro"`, `value="663.923.321-00"`, "ígitos verificadores do CPF não conferem")
	if rec := pros.do("POST", pURL+"/identificacao", form("663.923.321-54")); rec.Code != 403 {
		t.Errorf("prosecutor identifies: %d, want 403", rec.Code)
	}
	noCSRF := form("663.923.321-54")
	noCSRF.Set("csrf", "")
	if rec := clerk.do("POST", pURL+"/identificacao", noCSRF); rec.Code != 403 {
		t.Errorf("identification without the CSRF token: %d, want 403", rec.Code)
	}
	if _, n := f.blocklistState(t, banID); n != before {
		t.Fatalf("a refused identification changed the blocklist")
	}
	rec = clerk.do("POST", pURL+"/identificacao", form("663923321-54"))
	if rec.Code != 303 {
		t.Fatalf("identification: %d %s", rec.Code, rec.Body)
	}
	if _, n := f.blocklistState(t, banID); n != before+1 {
		t.Errorf("blocklist changes of ban %d: %d, want %d (the addition)", banID, n, before+1)
	}
	if n := f.auditBy(t, "bans", "update", "u-clerk"); n != updates+1 {
		t.Errorf("%d audit rows of the ban's update by the clerk, want %d", n, updates+1)
	}
	page := clerk.do("GET", pURL, nil).Body.String()
	expect(t, "after", 200, 200, page, "Identificação registrada", "663.923.321-54")
	if strings.Contains(page, pURL+"/identificacao") {
		t.Error("the form is still offered after the identification")
	}
}

// Filing keeps the strict spellings of a stored CPF (000.000.000-00 or 11
// digits, spaces around ignored; ../shared/cases/cpf.json) and its refusal
// says which ones; the gate's check takes any spelling.
func TestFilingCPFSpellings(t *testing.T) {
	w := newWF(t)
	for _, tc := range []struct {
		cpf  string
		code int
	}{{"663.923.321-54", 201}, {" 66392332154 ", 201}, {"663923321-54", 422}, {" 663 923 321 54 ", 422}} {
		rep := w.rep("R1")
		rep["defendants"].([]any)[0].(map[string]any)["cpf"] = tc.cpf
		rec, p := w.do("POST", "/api/v1/cases", "prosecutor", rep)
		if rec.Code != tc.code {
			t.Errorf("filing with CPF %q: %d, want %d: %s", tc.cpf, rec.Code, tc.code, rec.Body)
			continue
		}
		if tc.code == 422 {
			e := p["errors"].([]any)[0].(map[string]any)
			if msg := e["message"].(string); e["field"] != "defendants[0].cpf" || !strings.Contains(msg, "000.000.000-00") || !strings.Contains(msg, "11 dígitos") {
				t.Errorf("filing with CPF %q: %v", tc.cpf, e)
			}
		}
		rec, chk := w.do("GET", "/api/v1/blocklist/check/"+url.PathEscape(tc.cpf), "club", nil)
		if rec.Code != 200 || chk["cpf"] != "66392332154" {
			t.Errorf("check of %q: %d %s", tc.cpf, rec.Code, rec.Body)
		}
	}
}
