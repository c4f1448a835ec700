package web_test

import (
	"fmt"
	"strings"
	"testing"
)

// The defence's panel (issue 29, item 6): after signing in, a lawyer sees
// its clients by name and case, the electronic notice still pending with
// the day it counts on and the days left of the window that follows (Lei
// 11.419/2006, art. 5º), and its petitions with their answers; a lawyer
// with no client is told how to be linked. No other defendant's name.
func TestDefencePanel_ClientsNoticesPetitions(t *testing.T) {
	w := newWF(t)
	id, def := sentencedOverHTTP(w)
	w.defenceUser("lawyer", "Dra. Ana Advogada", "SP123456", "")
	w.defenceUser("other", "Dr. Outro Advogado", "RJ654321", "")
	rec, _ := w.do("PUT", fmt.Sprintf("/api/v1/cases/%d/defendants/%d/counsel", id, def), "clerk", map[string]any{"user": "Dra. Ana Advogada"})
	w.want(rec, 201, "linking the lawyer")
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/notifications", id), "clerk", map[string]any{"party": "defence", "defendant_id": def, "electronic": true})
	w.want(rec, 201, "the electronic notice")
	rec, pet := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/petitions", id), "lawyer", map[string]any{"defendant_id": def, "kind": "other", "text": "Requer vista dos autos."})
	w.want(rec, 201, "the petition")
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/petitions/%d/answer", int64(pet["id"].(float64))), "clerk", map[string]any{"decision": "granted", "text": "Vista concedida por 5 dias."})
	w.want(rec, 200, "the clerk's answer")
	v, _ := w.get(id)
	number := v["number"].(string)
	name := v["defendants"].([]any)[0].(map[string]any)["full_name"].(string)

	page := w.browser("Dra. Ana Advogada").do("GET", "/painel", nil)
	body := page.Body.String()
	expect(t, "the lawyer's panel", page.Code, 200, body, `id="intimacoes-pendentes"`, "<strong>não aberta</strong>", "20/06/2025",
		`id="clientes"`, number+"</a> — "+name, `id="peticoes"`, "<strong>deferido</strong>", "Vista concedida por 5 dias.")
	if !strings.Contains(body, " dias</td>") {
		t.Errorf("the panel does not say the days left: %s", body[strings.Index(body, "intimacoes-pendentes"):])
	}
	page = w.browser("Dr. Outro Advogado").do("GET", "/painel", nil)
	body = page.Body.String()
	expect(t, "a lawyer with no client", page.Code, 200, body, "Nenhuma intimação pendente", "Peça a habilitação ao cartório")
	if strings.Contains(body, name) || strings.Contains(body, number) {
		t.Error("another lawyer's panel shows the client or the case")
	}
}

// The defence's petitions reach the desks (issue 30, item 1; issue 29,
// item 4): a petition of kind "other" waits in the clerk's queue, an appeal
// in the judge's, each counted on GET /api/v1/desk and listed on /painel
// linking to the petitions' page; answered, it leaves the queue.
func TestDesk_PetitionsWaitingForAnAnswer(t *testing.T) {
	w := newWF(t)
	id, def := sentencedOverHTTP(w)
	w.defenceUser("lawyer", "Dra. Ana Advogada", "SP123456", "")
	rec, _ := w.do("PUT", fmt.Sprintf("/api/v1/cases/%d/defendants/%d/counsel", id, def), "clerk", map[string]any{"user": "Dra. Ana Advogada"})
	w.want(rec, 201, "linking the lawyer")
	rec, other := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/petitions", id), "lawyer", map[string]any{"defendant_id": def, "kind": "other", "text": "Requer vista dos autos."})
	w.want(rec, 201, "a petition for the clerk")
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/petitions", id), "lawyer", map[string]any{"defendant_id": def, "kind": "lift_request", "text": "Requer a revogação."})
	w.want(rec, 201, "a petition for the judge")
	count := func(role string) float64 {
		t.Helper()
		rec, d := w.do("GET", "/api/v1/desk", role, nil)
		w.want(rec, 200, "the desk of "+role)
		for _, q := range d["queues"].([]any) {
			if m := q.(map[string]any); m["kind"] == "petitions_pending" {
				return m["count"].(float64)
			}
		}
		t.Fatalf("the %s's desk has no petitions queue", role)
		return 0
	}
	if c, j := count("clerk"), count("judge"); c != 1 || j != 1 {
		t.Errorf("petitions waiting: clerk %v, judge %v; want 1 and 1", c, j)
	}
	page := w.browser("wf-clerk").do("GET", "/painel", nil).Body.String()
	if !strings.Contains(page, "Petições da defesa aguardando resposta") || !strings.Contains(page, `href="/peticoes"`) {
		t.Error("the clerk's panel does not list the petition with a link to the petitions' page")
	}
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/petitions/%d/answer", int64(other["id"].(float64))), "clerk", map[string]any{"decision": "noted", "text": ""})
	w.want(rec, 200, "the clerk's answer")
	if c := count("clerk"); c != 0 {
		t.Errorf("an answered petition stays in the clerk's queue: %v", c)
	}
}
