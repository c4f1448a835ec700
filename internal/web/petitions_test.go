package web_test

import (
	"fmt"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// linkedLawyer makes the lawyer "lawyer" (Dra. Ana Advogada) and links it
// to defendant def of case id (the clerk's PUT .../counsel).
func (w *wf) linkedLawyer(id, def int64) {
	w.t.Helper()
	w.defenceUser("lawyer", "Dra. Ana Advogada", "SP123456", "")
	rec, _ := w.do("PUT", fmt.Sprintf("/api/v1/cases/%d/defendants/%d/counsel", id, def), "clerk", map[string]any{"user": "Dra. Ana Advogada"})
	w.want(rec, 201, "linking the lawyer")
}

// petition files a petition of kind on case id as to def as the lawyer
// and returns the response.
func (w *wf) petition(id, def int64, kind, text string, extra ...any) map[string]any {
	w.t.Helper()
	body := map[string]any{"defendant_id": def, "kind": kind, "text": text}
	for i := 0; i+1 < len(extra); i += 2 {
		body[extra[i].(string)] = extra[i+1]
	}
	rec, p := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/petitions", id), "lawyer", body)
	w.want(rec, 201, "petition "+kind)
	return p
}

// urgentGroupOrder imports the Garra do Tatuapé register and files R5
// against the group with an urgent order (CPC art. 300) naming two
// members, 017.203.688-72 (named[0]) and 064.206.423-70 (named[1]), who
// are then blocked; it returns the group, the case, the group defendant
// and the members named.
func (w *wf) urgentGroupOrder() (gid, id, def int64, named []int64) {
	w.t.Helper()
	w.addJudge()
	gid = w.importGarra()
	w.g.Raw("SELECT id FROM members WHERE group_id = ? AND cpf IN ('06420642370', '01720368872') ORDER BY cpf", gid).Scan(&named)
	id, def, _ = w.file("R5")
	rec, _ := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", id), "judge", map[string]any{"defendant_id": def, "precautionary": true, "review_on": "2025-09-10",
		"member_ids": named, "text": map[string]any{"reasoning": "Perigo de dano: confrontos anunciados (CPC, art. 300)."}})
	w.want(rec, 201, "urgent order with member_ids")
	return gid, id, def, named
}

// trackOf is defendant def's status on case id as the clerk reads it.
func (w *wf) trackOf(id, def int64) string {
	w.t.Helper()
	v, _ := w.get(id)
	for _, d := range v["defendants"].([]any) {
		m := d.(map[string]any)
		if int64(m["id"].(float64)) == def {
			return fmt.Sprint(m["status"])
		}
	}
	w.t.Fatalf("defendant %d not in case %d", def, id)
	return ""
}

// Lei 9.099/1995, art. 82 and Lei 11.419/2006, art. 10: the lawyer's
// appeal filed in the system within the window moves the client's track
// to appeal without the clerk, is docketed and lands pending in the judge's
// queue (not the clerk's); the judge answers it (the clerk may not), and
// the lawyer sees the answer. A lawyer petitioning for a defendant it does
// not represent, or in a case it holds nothing in, is 404.
func TestPetitionAppealInTimeMovesTrack_Lei9099_art82(t *testing.T) {
	w := newWF(t)
	id, def := sentencedOverHTTP(w)
	w.linkedLawyer(id, def)
	w.notify(id, "defence", def, "2025-06-10", false)
	other, odef, _ := w.file("R1")

	for _, c := range []struct {
		path string
		def  int64
	}{{fmt.Sprintf("/api/v1/cases/%d/petitions", other), odef}, {fmt.Sprintf("/api/v1/cases/%d/petitions", id), odef}, {fmt.Sprintf("/api/v1/cases/%d/petitions", other), def}} {
		rec, _ := w.do("POST", c.path, "lawyer", map[string]any{"defendant_id": c.def, "kind": "appeal", "text": "Razões."})
		w.want(rec, 404, fmt.Sprintf("a petition for a non-client (%s, defendant %d)", c.path, c.def))
	}
	rec, _ := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/petitions", id), "lawyer", map[string]any{"defendant_id": def, "kind": "nothing", "text": "x"})
	w.want(rec, 422, "an unknown kind")
	if !strings.Contains(rec.Body.String(), `"field":"kind"`) {
		t.Errorf("422 does not name kind: %s", rec.Body)
	}

	w.advance(5 * 24 * time.Hour) // 15/06/2025, within 10 days of the notice
	p := w.petition(id, def, "appeal", "Razões do recurso: a pena é desproporcional.")
	if p["status"] != "pending" || p["late"] != false || p["effect"] != "appeal" || p["queue"] != "judge" {
		t.Errorf("appeal in time: %v", p)
	}
	if st := w.trackOf(id, def); st != "appeal" {
		t.Errorf("track after the appeal in time: %s, want appeal", st)
	}
	v, _ := w.get(id)
	if body := fmt.Sprint(v["movements"]); !strings.Contains(body, "Juntada de petição") || !strings.Contains(body, "Recorrente: defesa") {
		t.Errorf("no docket movement of the petition or of the appeal: %s", body)
	}

	// The receipt of the protocol, with its verification code (Lei
	// 11.419/2006, art. 10): the lawyer's, verifiable by anyone; another
	// lawyer gets 404.
	receipt := fmt.Sprintf("/api/v1/petitions/%v/receipt.pdf", p["id"])
	rec, _ = w.do("GET", receipt, "lawyer", nil)
	w.want(rec, 200, "the receipt")
	code := rec.Header().Get("X-Juizado-Document-Code")
	if rec.Header().Get("Content-Type") != "application/pdf" || code == "" {
		t.Fatalf("receipt: %s, code %q", rec.Header().Get("Content-Type"), code)
	}
	rec, _ = w.do("GET", receipt, "lawyer", nil)
	if got := rec.Header().Get("X-Juizado-Document-Code"); got != code {
		t.Errorf("the same petition gave a new receipt: %s, then %s", code, got)
	}
	rec, ver := w.do("GET", "/verificar/"+code, "", nil, "Accept", "application/json")
	if rec.Code != 200 || ver["title"] != "Recibo de protocolo de petição" {
		t.Errorf("verification of the receipt: %d %s", rec.Code, rec.Body)
	}
	w.defenceUser("other", "Dr. Outro Advogado", "RJ654321", "")
	rec, _ = w.do("GET", receipt, "other", nil)
	w.want(rec, 404, "another lawyer's receipt")

	rec, q := w.do("GET", "/api/v1/petitions?status=pending", "judge", nil)
	w.want(rec, 200, "the judge's queue")
	if items := q["items"].([]any); len(items) != 1 || items[0].(map[string]any)["id"] != p["id"] {
		t.Errorf("judge's queue %v", q)
	}
	rec, q = w.do("GET", "/api/v1/petitions?status=pending", "clerk", nil)
	w.want(rec, 200, "the clerk's queue")
	if items := q["items"].([]any); len(items) != 0 {
		t.Errorf("the appeal reached the clerk's queue: %v", q)
	}
	answer := fmt.Sprintf("/api/v1/petitions/%v/answer", p["id"])
	rec, _ = w.do("POST", answer, "clerk", map[string]any{"decision": "noted"})
	w.want(rec, 403, "the clerk answers the judge's petition")
	rec, a := w.do("POST", answer, "judge", map[string]any{"decision": "noted", "text": "Recebido o recurso; à Turma Recursal."})
	w.want(rec, 200, "the judge's answer")
	if a["status"] != "answered" || a["decision"] != "noted" {
		t.Errorf("answer %v", a)
	}
	rec, _ = w.do("POST", answer, "judge", map[string]any{"decision": "noted"})
	w.want(rec, 409, "answering twice")
	rec, mine := w.do("GET", "/api/v1/petitions", "lawyer", nil)
	w.want(rec, 200, "the lawyer's petitions")
	if items := mine["items"].([]any); len(items) != 1 || items[0].(map[string]any)["answer_text"] != "Recebido o recurso; à Turma Recursal." {
		t.Errorf("the lawyer does not see the answer: %v", mine)
	}
}

// Issue 29: an appeal after the window (10 running days from the last
// notice, Lei 9.099/1995, art. 82, § 1º) is received, never refused, and
// flagged late for the judge; the track does not move.
func TestPetitionAppealLateFlaggedTrackUnchanged_Lei9099_art82_sec1(t *testing.T) {
	w := newWF(t)
	id, def := sentencedOverHTTP(w)
	w.linkedLawyer(id, def)
	w.notify(id, "defendant", def, "2025-06-10", false)
	w.notify(id, "defence", def, "2025-06-10", false) // window: 11/06 to 20/06/2025
	w.advance(11 * 24 * time.Hour)                    // 21/06/2025
	p := w.petition(id, def, "appeal", "Razões do recurso.")
	if p["late"] != true || p["effect"] != "none" || p["status"] != "pending" {
		t.Errorf("late appeal: %v", p)
	}
	if !strings.Contains(fmt.Sprint(p["effect_note"]), "20/06/2025") {
		t.Errorf("the late appeal does not say when the window ended: %v", p["effect_note"])
	}
	if st := w.trackOf(id, def); st != "sentenced" {
		t.Errorf("track after the late appeal: %s, want sentenced", st)
	}
}

// Lei 9.099/1995, art. 83, § 2º: the defence's embargos filed in the
// system within 5 days interrupt every party's window as to the client
// (the notices stop counting) and wait for the judge's ruling.
func TestPetitionEmbargosInterruptWindows_Lei9099_art83(t *testing.T) {
	w := newWF(t)
	id, def := sentencedOverHTTP(w)
	w.linkedLawyer(id, def)
	w.notify(id, "prosecution", def, "2025-06-10", false)
	w.notify(id, "defence", def, "2025-06-10", false)
	if v, _ := w.get(id); len(v["deadlines"].([]any)) != 2 {
		t.Fatalf("deadlines before the embargos: %v", v["deadlines"])
	}
	w.advance(2 * 24 * time.Hour)
	p := w.petition(id, def, "embargos", "Omissão quanto à detração.")
	if p["late"] != false || p["effect"] != "embargos" || p["embargos_id"] == nil {
		t.Errorf("embargos in time: %v", p)
	}
	v, _ := w.get(id)
	if ds, _ := v["deadlines"].([]any); len(ds) != 0 {
		t.Errorf("the windows were not interrupted: %v", ds)
	}
	es, _ := v["embargos"].([]any)
	if len(es) != 1 || es[0].(map[string]any)["party"] != "defence" || es[0].(map[string]any)["status"] != "pending" {
		t.Errorf("embargos recorded %v", es)
	}
}

// Issue 29, item 5 (Lei 14.597/2023, art. 183, § 2º; CF art. 5º, XLV): a
// member reached by an urgent order against his group contests his
// inclusion through the lawyer linked to the group defendant; a refusal
// without reasons is 422 (CF art. 93, IX); granted, his ban ends at once
// and he leaves the blocklist feed as a removal with reason contested,
// while the other member stays blocked. A member with no ban there is 422
// on member_id.
func TestPetitionGroupContestGrantedLeavesBlocklist_LGE183(t *testing.T) {
	w := newWF(t)
	gid, id, def, named := w.urgentGroupOrder()
	var outside int64
	w.g.Raw("SELECT id FROM members WHERE group_id = ? AND cpf = '06909990382'", gid).Scan(&outside)
	w.linkedLawyer(id, def)
	var rec *httptest.ResponseRecorder

	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/petitions", id), "lawyer", map[string]any{"defendant_id": def, "kind": "group_inclusion_contest",
		"text": "Não era associado.", "member_id": outside, "ground": "not_member"})
	w.want(rec, 422, "a contest for a member without a ban")
	if !strings.Contains(rec.Body.String(), `"field":"member_id"`) {
		t.Errorf("422 does not name member_id: %s", rec.Body)
	}
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/petitions", id), "lawyer", map[string]any{"defendant_id": def, "kind": "group_inclusion_contest",
		"text": "Não era associado.", "member_id": named[0], "ground": "cousin"})
	w.want(rec, 422, "an unknown ground")

	p := w.petition(id, def, "group_inclusion_contest", "Filiou-se à torcida depois da data dos fatos; ficha anexa.", "member_id", named[0], "ground", "not_member")
	if p["queue"] != "judge" || p["ground"] != "not_member" || p["ban_id"] == nil {
		t.Errorf("contest %v", p)
	}
	answer := fmt.Sprintf("/api/v1/petitions/%v/answer", p["id"])
	rec, _ = w.do("POST", answer, "judge", map[string]any{"decision": "refused"})
	w.want(rec, 422, "a refusal without reasons")
	if !strings.Contains(rec.Body.String(), `"field":"text"`) {
		t.Errorf("422 does not name text: %s", rec.Body)
	}
	rec, _ = w.do("POST", answer, "judge", map[string]any{"decision": "granted", "text": "Provado que não era associado na data dos fatos."})
	w.want(rec, 200, "the contest granted")

	var reason string
	w.g.Raw("SELECT reason FROM blocklist_changes WHERE op = 'remove' AND cpf = '01720368872' ORDER BY id DESC LIMIT 1").Scan(&reason)
	if reason != "contested" {
		t.Errorf("removal reason %q, want contested", reason)
	}
	rec, _ = w.do("GET", "/api/v1/blocklist/changes?since=1", "club", nil)
	w.want(rec, 200, "the feed")
	if !strings.Contains(rec.Body.String(), `"reason":"contested"`) {
		t.Errorf("the feed has no removal with reason contested: %.600s", rec.Body)
	}
	for cpf, want := range map[string]bool{"01720368872": false, "06420642370": true} {
		rec, chk := w.do("GET", "/api/v1/blocklist/check/"+cpf, "club", nil)
		w.want(rec, 200, "check "+cpf)
		if chk["blocked"] != want {
			t.Errorf("check %s after the contest: blocked %v, want %v", cpf, chk["blocked"], want)
		}
	}
}

// The pages (Portuguese): the lawyer files a petition on /peticoes,
// choosing the client by name; a missing text comes back next to its
// field; the judge sees it pending, a refusal without reasons stays on the
// page with the error next to the text (CF art. 93, IX), and the answer
// reaches the lawyer's page. No internal id is shown as a name.
func TestPetitionPages_FileAndAnswer(t *testing.T) {
	w := newWF(t)
	id, def := sentencedOverHTTP(w)
	w.linkedLawyer(id, def)
	lawyer := w.browser("Dra. Ana Advogada")
	page := lawyer.do("GET", "/peticoes", nil)
	client := fmt.Sprintf("%d:%d", id, def)
	expect(t, "the lawyer's page", page.Code, 200, page.Body.String(), "Protocolar petição", `value="`+client+`"`, "Justificativa de descumprimento")
	rec := lawyer.do("POST", "/peticoes", url.Values{"pet.client": {client}, "pet.kind": {"lift_request"}, "pet.text": {""}})
	expect(t, "a petition without text", rec.Code, 422, rec.Body.String(), "Escreva o texto da petição")
	rec = lawyer.do("POST", "/peticoes", url.Values{"pet.client": {client}, "pet.kind": {"lift_request"}, "pet.text": {"Revogação da cautelar: o réu comparece a todos os atos."}})
	if rec.Code != 303 {
		t.Fatalf("filing on the page: %d %s", rec.Code, rec.Body)
	}

	judge := w.browser("wf-judge")
	page = judge.do("GET", "/peticoes", nil)
	expect(t, "the judge's queue", page.Code, 200, page.Body.String(), "Revogação da cautelar", "Aguarda resposta", "Dra. Ana Advogada")
	var pid int64
	w.g.Raw("SELECT id FROM petitions WHERE case_id = ?", id).Scan(&pid)
	answer := fmt.Sprintf("/peticoes/%d/resposta", pid)
	rec = judge.do("POST", answer, url.Values{"resp.decision": {"refused"}, "resp.text": {""}})
	expect(t, "a refusal without reasons", rec.Code, 422, rec.Body.String(), "f-resp-text-erro", "CF, art. 93, IX")
	rec = judge.do("POST", answer, url.Values{"resp.decision": {"refused"}, "resp.text": {"Persistem os riscos que justificaram a medida."}})
	if rec.Code != 303 {
		t.Fatalf("answer on the page: %d %s", rec.Code, rec.Body)
	}
	page = lawyer.do("GET", "/peticoes", nil)
	expect(t, "the lawyer sees the answer", page.Code, 200, page.Body.String(), "indeferido", "Persistem os riscos")
}

// Issue 29, item 5: the member contests his inclusion without a lawyer,
// proving who he is with the case number, his CPF and his birth date. A
// wrong birth date for a banned CPF and the right one for a CPF banned
// nowhere get the very same answer (nobody learns whether a CPF is
// banned); the right proof files the contest in the judge's queue; five
// failures lock the CPF as the sign-in does (429 with Retry-After), even
// for the right proof. The public page takes the same proof.
func TestPublicContest_ProofNeverRevealsBanAndLocks(t *testing.T) {
	w := newWF(t)
	gid, id, _, named := w.urgentGroupOrder()
	v, _ := w.get(id)
	number := v["number"].(string)
	birth := func(cpf string) string {
		var b time.Time
		w.g.Raw("SELECT birth_date FROM members WHERE group_id = ? AND cpf = ?", gid, cpf).Scan(&b)
		return b.Format("2006-01-02")
	}
	contest := func(cpf, born string) (*httptest.ResponseRecorder, map[string]any) {
		return w.do("POST", "/api/v1/public/contests", "", map[string]any{"number": number, "cpf": cpf, "birth_date": born, "ground": "homonym",
			"text": "Sou outra pessoa com o mesmo nome; nunca fui associado."})
	}
	wrong, _ := contest("01720368872", "1990-01-01")
	w.want(wrong, 404, "a wrong birth date for a banned CPF")
	nowhere, _ := contest("06909990382", birth("06909990382"))
	w.want(nowhere, 404, "the right birth date of a CPF banned nowhere")
	if wrong.Body.String() != nowhere.Body.String() {
		t.Errorf("the answers differ:\n%s\n%s", wrong.Body, nowhere.Body)
	}
	if strings.Contains(wrong.Body.String(), "impedid") && strings.Contains(wrong.Body.String(), "01720368872") {
		t.Errorf("the failed proof says something of the CPF: %s", wrong.Body)
	}
	rec, p := contest("01720368872", birth("01720368872"))
	w.want(rec, 201, "the right proof")
	if p["kind"] != "group_inclusion_contest" || p["queue"] != "judge" || p["status"] != "pending" || p["member_id"] != float64(named[0]) {
		t.Errorf("public contest %v", p)
	}
	rec, q := w.do("GET", "/api/v1/petitions?status=pending", "judge", nil)
	w.want(rec, 200, "the judge's queue")
	if !strings.Contains(rec.Body.String(), "formulário público") || len(q["items"].([]any)) != 1 {
		t.Errorf("the judge's queue lacks the public contest: %s", rec.Body)
	}
	if v, _ := w.get(id); !strings.Contains(fmt.Sprint(v["movements"]), "do(a) próprio(a) associado(a)") {
		t.Errorf("the public contest is not docketed: %v", v["movements"])
	}

	for i := 0; i < 5; i++ {
		rec, _ := contest("06420642370", fmt.Sprintf("1980-01-%02d", i+1))
		w.want(rec, 404, "a wrong proof")
	}
	rec, _ = contest("06420642370", birth("06420642370"))
	w.want(rec, 429, "the right proof after five failures")
	if rec.Header().Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}

	b := newBrowser(t, w.srv, "192.0.2.77")
	page := b.do("GET", "/impugnacao", nil)
	expect(t, "the public form", page.Code, 200, page.Body.String(), "Impugnação da inclusão", `name="nascimento"`)
	page = b.do("POST", "/impugnacao", url.Values{"numero": {number}, "cpf": {"069.099.903-82"}, "nascimento": {"01/01/1990"}, "fundamento": {"not_member"}, "texto": {"Não sou associado."}})
	expect(t, "a failed proof on the page", page.Code, 404, page.Body.String(), "Não foi possível confirmar os dados informados")
}
