package web_test

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
)

// defenceUser makes a defence account (role, as w.tok's key) with its
// token: a lawyer (oab) or a public defender (defensoria UF).
func (w *wf) defenceUser(key, name, oab, uf string) {
	w.t.Helper()
	ctx := context.Background()
	u, _, err := accounts.EnsureUser(ctx, w.g, accounts.UserSpec{Name: name, Role: accounts.RoleDefence, OAB: oab, Defensoria: uf})
	if err != nil {
		w.t.Fatal(err)
	}
	tok, err := accounts.NewToken(ctx, w.g, u.ID, time.Time{})
	if err != nil {
		w.t.Fatal(err)
	}
	w.tok[key] = tok
}

// twoDefendants files R1 with a second defendant and returns the case and
// both defendants' ids.
func (w *wf) twoDefendants() (id, a, b int64) {
	w.t.Helper()
	rep := w.rep("R1")
	second := map[string]any{}
	for k, v := range rep["defendants"].([]any)[0].(map[string]any) {
		second[k] = v
	}
	second["full_name"], second["cpf"], second["mother_name"] = "Márcia Exemplo Nogueira", "390.996.030-88", "Lúcia Exemplo"
	rep["defendants"] = append(rep["defendants"].([]any), second)
	rec, c := w.do("POST", "/api/v1/cases", "prosecutor", rep)
	w.want(rec, 201, "filing two defendants")
	ds := c["defendants"].([]any)
	return int64(c["id"].(float64)), int64(ds[0].(map[string]any)["id"].(float64)), int64(ds[1].(map[string]any)["id"].(float64))
}

// The defence reads only the cases of the defendants it represents (issue
// 29; CPP art. 261, Lei 8.906/1994 art. 7º, XIII: the lawyer's access to
// its client's case), and of them its client's personal data alone:
// another defendant of the same case is restricted (no name, CPF,
// filiation, bans), another case of the court is 404 (a case of another
// court is not exercised here), the list shows its cases only, registers, blocklist and audit are 403;
// each read of its client's data is in the audit trail; unlinking ends the
// access; the link and the unlink are docket movements.
func TestDefence_ReadsOnlyItsClients_CPP261(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	w.defenceUser("lawyer", "Dra. Ana Advogada", "SP123456", "")
	w.defenceUser("other", "Dr. Outro Advogado", "RJ654321", "")
	id, a, b := w.twoDefendants()
	other, _, _ := w.file("R1")
	path := fmt.Sprintf("/api/v1/cases/%d", id)
	rec, _ := w.do("GET", path, "lawyer", nil)
	w.want(rec, 404, "a case before the link")

	// The clerk links; a non-defence user is 422 on user.
	rec, _ = w.do("PUT", fmt.Sprintf("%s/defendants/%d/counsel", path, a), "clerk", map[string]any{"user": "wf-prosecutor"})
	w.want(rec, 422, "linking a prosecutor as counsel")
	if !strings.Contains(rec.Body.String(), `"field":"user"`) {
		t.Errorf("422 does not name user: %s", rec.Body)
	}
	rec, link := w.do("PUT", fmt.Sprintf("%s/defendants/%d/counsel", path, a), "clerk", map[string]any{"user": "Dra. Ana Advogada"})
	w.want(rec, 201, "linking the lawyer")
	if link["kind"] != cases.CounselLawyer || link["status"] != "active" || link["credential"] != "OAB/SP 123456" {
		t.Errorf("link %v", link)
	}
	rec, _ = w.do("PUT", fmt.Sprintf("%s/defendants/%d/counsel", path, a), "clerk", map[string]any{"user": "Dra. Ana Advogada"})
	w.want(rec, 200, "linking again (already active)")

	rec, v := w.do("GET", path, "lawyer", nil)
	w.want(rec, 200, "the lawyer reads its client's case")
	body := rec.Body.String()
	if strings.Contains(body, "Márcia") || strings.Contains(body, "390.996.030-88") || strings.Contains(body, "39099603088") || strings.Contains(body, "Lúcia Exemplo") {
		t.Errorf("the other defendant's personal data reached the lawyer: %s", body)
	}
	for _, d := range v["defendants"].([]any) {
		m := d.(map[string]any)
		mine := int64(m["id"].(float64)) == a
		if mine && (m["full_name"] == nil || m["restricted"] == true) || !mine && m["restricted"] != true {
			t.Errorf("defendant %v as seen by the lawyer of %d", m, a)
		}
	}
	if !strings.Contains(body, "Habilitação de Dra. Ana Advogada (OAB/SP 123456)") {
		t.Errorf("no docket movement of the link: %s", body)
	}
	// The clerk sees both, and the counsel of a.
	rec, _ = w.do("GET", path, "clerk", nil)
	if !strings.Contains(rec.Body.String(), "Márcia") || !strings.Contains(rec.Body.String(), `"credential":"OAB/SP 123456"`) {
		t.Errorf("the clerk's view lost a defendant or the counsel: %s", rec.Body)
	}

	// Another case, another lawyer, the list, the registers, the blocklist, the audit.
	for _, c := range []struct {
		method, path, who string
		code              int
	}{
		{"GET", fmt.Sprintf("/api/v1/cases/%d", other), "lawyer", 404},
		{"GET", path, "other", 404},
		{"GET", fmt.Sprintf("/api/v1/cases/%d/evidence", id), "lawyer", 403},
		{"GET", "/api/v1/groups", "lawyer", 403},
		{"GET", "/api/v1/blocklist", "lawyer", 403},
		{"GET", "/api/v1/audit", "lawyer", 403},
		{"POST", "/api/v1/cases", "lawyer", 403},
		{"PUT", fmt.Sprintf("%s/defendants/%d/counsel", path, b), "lawyer", 403},
	} {
		rec, _ := w.do(c.method, c.path, c.who, nil)
		if rec.Code != c.code {
			t.Errorf("%s %s as %s: %d, want %d: %.200s", c.method, c.path, c.who, rec.Code, c.code, rec.Body)
		}
	}
	rec, list := w.do("GET", "/api/v1/cases", "lawyer", nil)
	w.want(rec, 200, "the lawyer's list")
	if items := list["items"].([]any); len(items) != 1 || int64(items[0].(map[string]any)["id"].(float64)) != id {
		t.Errorf("the lawyer's list: %v", list)
	}
	if strings.Contains(rec.Body.String(), "Márcia") {
		t.Errorf("the list shows the other defendant: %s", rec.Body)
	}
	rec, list = w.do("GET", "/api/v1/cases?q=marcia", "lawyer", nil)
	w.want(rec, 200, "a search for the other defendant's name")
	if n := len(list["items"].([]any)); n != 0 {
		t.Errorf("a search for the other defendant's name found %d case(s) for the lawyer", n)
	}

	// Each read is in the audit trail, with the case's court.
	var reads int64
	if err := w.g.Raw(`SELECT count(*) FROM audit_log WHERE action = 'read' AND role = 'defence' AND table_name = 'defendants'
		AND record_id = ? AND after->>'court' = '26.0100'`, fmt.Sprint(a)).Scan(&reads).Error; err != nil {
		t.Fatal(err)
	}
	if reads < 2 {
		t.Errorf("%d audited reads of the client's data, want at least 2 (case and list)", reads)
	}
	// ... in the court's trail, which its judge reads.
	rec, trail := w.do("GET", fmt.Sprintf("/api/v1/audit?table=defendants&record_id=%d", a), "judge", nil)
	w.want(rec, 200, "the court's audit of the client's record")
	defenceReads := 0
	for _, it := range trail["items"].([]any) {
		if row := it.(map[string]any); row["role"] == "defence" && row["action"] == "read" {
			defenceReads++
		}
	}
	if defenceReads < 2 {
		t.Errorf("the court's audit shows %d reads by the defence, want at least 2: %s", defenceReads, rec.Body)
	}

	// Unlinked: the case is 404 again, with a docket movement.
	rec, _ = w.do("DELETE", fmt.Sprintf("%s/defendants/%d/counsel", path, a), "clerk", nil)
	w.want(rec, 200, "unlinking")
	rec, _ = w.do("DELETE", fmt.Sprintf("%s/defendants/%d/counsel", path, a), "clerk", nil)
	w.want(rec, 409, "unlinking with no counsel")
	rec, _ = w.do("GET", path, "lawyer", nil)
	w.want(rec, 404, "the case after the unlink")
	rec, _ = w.do("GET", path, "clerk", nil)
	if !strings.Contains(rec.Body.String(), "Desvinculação de Dra. Ana Advogada") {
		t.Errorf("no docket movement of the unlink: %s", rec.Body)
	}
}

// procuracao is a multipart body of a request to be linked: number, cpf and
// a PDF procuração (pdf false: a PNG instead).
func procuracao(t *testing.T, number, cpf string, pdf bool) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_ = mw.WriteField("number", number)
	_ = mw.WriteField("cpf", cpf)
	name, data := "procuracao.pdf", []byte("%PDF-1.4\n% procuração\n%%EOF\n")
	if !pdf {
		name, data = "procuracao.png", []byte("\x89PNG\r\n\x1a\nxxxx")
	}
	fw, _ := mw.CreateFormFile("file", name)
	_, _ = fw.Write(data)
	_ = mw.Close()
	return buf.Bytes(), mw.FormDataContentType()
}

// A lawyer asks to be linked with the procuração (CPP art. 266), which is
// stored as evidence; the request waits for the clerk, who approves it (or
// refuses it with reasons); a wrong number or CPF is one 404.
func TestDefence_RequestWithProcuracao_CPP266(t *testing.T) {
	w := newWF(t)
	w.defenceUser("lawyer", "Dr. Bruno Advogado", "SP777", "")
	id, a, _ := w.twoDefendants()
	v, _ := w.get(id)
	number := v["number"].(string)
	cpf := v["defendants"].([]any)[0].(map[string]any)["cpf"].(string)

	body, ctype := procuracao(t, number, "390.996.030-88x", true)
	rec, _ := w.do("POST", "/api/v1/counsel-requests", "lawyer", body, "Content-Type", ctype)
	w.want(rec, 422, "a malformed CPF")
	body, ctype = procuracao(t, number, cpf, false)
	rec, _ = w.do("POST", "/api/v1/counsel-requests", "lawyer", body, "Content-Type", ctype)
	w.want(rec, 422, "a PNG procuração")
	body, ctype = procuracao(t, "0000001-45.2025.8.26.0100", cpf, true)
	rec, _ = w.do("POST", "/api/v1/counsel-requests", "lawyer", body, "Content-Type", ctype)
	if rec.Code != 404 && rec.Code != 422 {
		t.Errorf("another number: %d %s", rec.Code, rec.Body)
	}
	body, ctype = procuracao(t, number, cpf, true)
	rec, req := w.do("POST", "/api/v1/counsel-requests", "lawyer", body, "Content-Type", ctype)
	w.want(rec, 201, "the request")
	if req["status"] != "requested" || req["procuracao_evidence_id"] == nil || int64(req["defendant_id"].(float64)) != a {
		t.Fatalf("request %v", req)
	}
	rec, _ = w.do("POST", "/api/v1/counsel-requests", "lawyer", body, "Content-Type", ctype)
	w.want(rec, 409, "asking twice")
	rec, _ = w.do("GET", fmt.Sprintf("/api/v1/cases/%d", id), "lawyer", nil)
	w.want(rec, 404, "the case while the request waits")
	rec, pending := w.do("GET", "/api/v1/counsel-requests", "clerk", nil)
	w.want(rec, 200, "the clerk's queue")
	if n := len(pending["items"].([]any)); n != 1 {
		t.Fatalf("clerk's queue: %v", pending)
	}
	rid := int64(req["id"].(float64))
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/counsel-requests/%d/refuse", rid), "clerk", map[string]any{"reason": ""})
	w.want(rec, 422, "a refusal without reason")
	rec, ok := w.do("POST", fmt.Sprintf("/api/v1/counsel-requests/%d/approve", rid), "clerk", nil)
	w.want(rec, 200, "the approval")
	if ok["status"] != "active" {
		t.Errorf("approved: %v", ok)
	}
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/counsel-requests/%d/approve", rid), "clerk", nil)
	w.want(rec, 409, "approving twice")
	if body := rec.Body.String(); !strings.Contains(body, `"detail":"Este pedido de habilitação já foi decidido (deferido)."`) {
		t.Errorf("approving twice: the message must say the decision in words and no id: %s", body)
	}
	rec, _ = w.do("GET", fmt.Sprintf("/api/v1/cases/%d", id), "lawyer", nil)
	w.want(rec, 200, "the case after the approval")
	if !strings.Contains(rec.Body.String(), "Deferido o pedido de habilitação de Dr. Bruno Advogado") {
		t.Errorf("no docket movement of the approval: %s", rec.Body)
	}
	// The procuração is joined as what it is (TPU 581, tipo de documento), not as evidence.
	if body := rec.Body.String(); !strings.Contains(body, "Juntada de procuração: procuracao.pdf") || strings.Contains(body, "Juntada de prova: procuracao.pdf") {
		t.Errorf("the procuração is not docketed as a procuração: %s", body)
	}
}

// A defendant represented by the Defensoria Pública has his defence's
// appeal window doubled (LC 80/1994, art. 128, I; CPC art. 186), read from
// the representation record: the notice need not say public_defender.
func TestDefence_DefensoriaDoublesWindow_LC80Art128I(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	w.defenceUser("dp", "Defensora Pública Carla", "", "SP")
	id, d, _ := w.file("R1")
	w.receive(id)
	sentence := map[string]any{"defendant_id": d, "ban": map[string]any{"months": 12}, "reporting_duty": map[string]any{"place": "2º DP", "club": "Corinthians"},
		"text": map[string]any{"reasoning": "Autoria e materialidade provadas."}}
	rec, _ := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", id), "judge", sentence)
	w.want(rec, 201, "sentence")
	rec, _ = w.do("PUT", fmt.Sprintf("/api/v1/cases/%d/defendants/%d/counsel", id, d), "clerk", map[string]any{"user": "Defensora Pública Carla"})
	w.want(rec, 201, "linking the Defensoria")
	day := w.clk.Now().In(w.loc).Format("2006-01-02")
	own := w.notify(id, "defendant", d, day, false)
	dp := w.notify(id, "defence", d, day, false)
	if dp["public_defender"] != true || dp["days"].(float64) != 2*own["days"].(float64) {
		t.Errorf("the Defensoria's window %v days (public_defender %v), the defendant's %v", dp["days"], dp["public_defender"], own["days"])
	}
}

// staffIn creates a user of role in court and keeps its token under key.
func (w *wf) staffIn(key, name, role, court string) {
	w.t.Helper()
	ctx := context.Background()
	if err := cases.EnsureCourt(ctx, w.g, court, ""); err != nil {
		w.t.Fatal(err)
	}
	u, _, err := accounts.EnsureUser(ctx, w.g, accounts.UserSpec{Name: name, Role: role, Court: court})
	if err != nil {
		w.t.Fatal(err)
	}
	if w.tok[key], err = accounts.NewToken(ctx, w.g, u.ID, time.Time{}); err != nil {
		w.t.Fatal(err)
	}
}

// A link is to one defendant of one court's case (issue 29): the lawyer
// of a client in 26.0100 reads nothing of 26.0200 (404, like an unknown
// case), and neither court's clerk links counsel to the other's
// defendants (404): the ids of another court answer as unknown ones.
func TestDefence_AnotherCourtsCaseIsUnknown(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	w.defenceUser("lawyer", "Dra. Ana Advogada", "SP123456", "")
	w.staffIn("o-prosecutor", "wf-o-prosecutor", "prosecutor", "26.0200")
	w.staffIn("o-clerk", "wf-o-clerk", "clerk", "26.0200")
	w.staffIn("o-judge", "wf-o-judge", "judge", "26.0200")
	id, a, _ := w.twoDefendants()
	rec, _ := w.do("PUT", fmt.Sprintf("/api/v1/cases/%d/defendants/%d/counsel", id, a), "clerk", map[string]any{"user": "Dra. Ana Advogada"})
	w.want(rec, 201, "linking the lawyer in 26.0100")

	rec, oc := w.do("POST", "/api/v1/cases", "o-prosecutor", w.rep("R1"))
	w.want(rec, 201, "filing in 26.0200")
	oid := int64(oc["id"].(float64))
	od := int64(oc["defendants"].([]any)[0].(map[string]any)["id"].(float64))
	if !strings.Contains(fmt.Sprint(oc["number"]), ".8.26.0200") {
		t.Fatalf("the case filed by 26.0200's prosecutor is numbered %v", oc["number"])
	}
	for _, c := range []struct {
		method, path, who string
		body              any
	}{
		{"GET", fmt.Sprintf("/api/v1/cases/%d", oid), "lawyer", nil},
		{"PUT", fmt.Sprintf("/api/v1/cases/%d/defendants/%d/counsel", oid, od), "clerk", map[string]any{"user": "Dra. Ana Advogada"}},
		{"PUT", fmt.Sprintf("/api/v1/cases/%d/defendants/%d/counsel", id, a), "o-clerk", map[string]any{"user": "Dra. Ana Advogada"}},
		{"DELETE", fmt.Sprintf("/api/v1/cases/%d/defendants/%d/counsel", id, a), "o-clerk", nil},
	} {
		rec, _ := w.do(c.method, c.path, c.who, c.body)
		if rec.Code != 404 {
			t.Errorf("%s %s as %s: %d, want 404: %.200s", c.method, c.path, c.who, rec.Code, rec.Body)
		}
	}
	rec, list := w.do("GET", "/api/v1/cases", "lawyer", nil)
	w.want(rec, 200, "the lawyer's list")
	if items := list["items"].([]any); len(items) != 1 || int64(items[0].(map[string]any)["id"].(float64)) != id {
		t.Errorf("the lawyer's list across courts: %v", list)
	}
	// The link made in 26.0100 still stands.
	rec, _ = w.do("GET", fmt.Sprintf("/api/v1/cases/%d", id), "lawyer", nil)
	w.want(rec, 200, "the client's case after the other court's attempts")
}
