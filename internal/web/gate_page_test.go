package web_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// The gate staff's page (issue 30, item 3; Lei 14.597/2023, art. 158 and
// CPP art. 319, II: a ban applies where and when the judge fixed it): the
// check answers for the venue the staff chose, and asks for one when a
// scoped ban needs it; it names the person and the case, where and on which
// days each ban applies, and says whether it blocks here today, so a ban
// limited to one stadium or counted in matches does not turn someone away
// elsewhere or on another day. A venue not in the table is an error next
// to the field.
func TestGatePage_VenueScopeAndMatchDays(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	w.importSchedule(scopeSchedule)
	id, a, b := w.twoDefendants()
	w.precautionary(id, a, map[string]any{"scope": map[string]any{"venues": []string{"Arena Corinthians"}}})
	w.precautionary(id, b, map[string]any{"ban": map[string]any{"matches": 3, "club": "corinthians", "home_only": true}})
	venue := func(name string) string {
		var vid int64
		w.g.Raw("SELECT id FROM venues WHERE name = ?", name).Scan(&vid)
		return fmt.Sprint(vid)
	}
	arena, allianz := venue("Arena Corinthians"), venue("Allianz Parque")
	club := w.browser("wf-club")
	page := func(cpf, local string) (int, string) {
		rec := club.do("GET", "/clube?"+url.Values{"cpf": {cpf}, "local": {local}}.Encode(), nil)
		return rec.Code, rec.Body.String()
	}

	// No venue (the club has no home venue in the schedule): every ban in
	// force blocks, and the page asks for the venue.
	code, body := page("663.923.321-54", "")
	expect(t, "no venue", code, 200, body, "<strong>IMPEDIDO</strong> de entrar em qualquer local", `id="pergunta-local"`,
		"Marcelo Augusto Figueiredo", "nascido(a) em 22/07/1991", "Arena Corinthians", "todos os dias do período", "até a revogação")
	code, body = page("663.923.321-54", allianz)
	expect(t, "another venue", code, 200, body, "<strong>LIBERADO</strong> em Allianz Parque hoje", "vale só em outros locais ou dias")
	if strings.Contains(body, `id="pergunta-local"`) {
		t.Error("the page asks for the venue it was given")
	}
	code, body = page("663.923.321-54", arena)
	expect(t, "the covered venue", code, 200, body, "<strong>IMPEDIDO</strong> de entrar em Arena Corinthians hoje", "<strong>Sim</strong>")

	// A term counted in matches blocks on its match days only.
	code, body = page("390.996.030-88", arena)
	expect(t, "a day without a covered match", code, 200, body, "<strong>LIBERADO</strong> em Arena Corinthians hoje",
		"somente nos dias de jogo: 15/06/2025, 22/06/2025 e 29/06/2025", "Márcia Exemplo Nogueira")
	w.clk.Set(time.Date(2025, 6, 15, 12, 0, 0, 0, w.loc))
	code, body = page("390.996.030-88", arena)
	expect(t, "a covered match day", code, 200, body, "<strong>IMPEDIDO</strong> de entrar em Arena Corinthians hoje")

	code, body = page("390.996.030-88", "99999")
	expect(t, "a venue not in the table", code, 422, body, `id="f-local-erro"`, "Escolha o local do portão")
	code, body = page("123.456.789-09", arena)
	expect(t, "a CPF not on the list", code, 200, body, "<strong>LIBERADO:</strong> o CPF 123.456.789-09 não consta da lista")
}

// The club's spreadsheet is for people in Excel's Brazilian form (issue 30,
// item 3): UTF-8 with BOM, ";", Portuguese headers, dd/mm/aaaa, the CPF
// formatted, where and on which days in words, the court by name, one row
// per ban, never twice, as many as the page counts; the machine CSV of the
// API is unchanged.
func TestGateSpreadsheet_ExcelBrazilianForm(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	w.importSchedule(scopeSchedule)
	id, a, b := w.twoDefendants()
	w.precautionary(id, a, map[string]any{"scope": map[string]any{"venues": []string{"Arena Corinthians"}}})
	again, a2, _ := w.file("R1") // the same person, another case
	w.precautionary(again, a2, map[string]any{"ban": map[string]any{"matches": 3, "club": "corinthians", "home_only": true}})
	w.precautionary(id, b, nil)
	club := w.browser("wf-club")
	page := club.do("GET", "/clube", nil).Body.String()
	if !strings.Contains(page, `<dd id="contagem">3 (2 pessoas)</dd>`) {
		t.Errorf("the page's count: %s", page[strings.Index(page, `id="lista"`):])
	}
	rec := club.do("GET", "/clube/lista.csv", nil)
	raw := rec.Body.Bytes()
	if rec.Code != 200 || !bytes.HasPrefix(raw, []byte("\xEF\xBB\xBF")) || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/csv") {
		t.Fatalf("spreadsheet: %d %q %.40q", rec.Code, rec.Header().Get("Content-Type"), raw)
	}
	r := csv.NewReader(bytes.NewReader(raw[3:]))
	r.Comma = ';'
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ";") != "CPF;Nome;Data de nascimento;Início;Fim;Onde vale;Dias;Processo;Juizado" {
		t.Errorf("header %q", rows[0])
	}
	if len(rows)-1 != 3 {
		t.Fatalf("%d rows, want 3 (the page's count): %q", len(rows)-1, rows)
	}
	seen := map[string]bool{}
	for _, row := range rows[1:] {
		key := strings.Join(row, ";")
		if seen[key] {
			t.Errorf("row twice: %q", row)
		}
		seen[key] = true
		if !strings.Contains(row[0], ".") || !strings.Contains(row[0], "-") || strings.Count(row[3], "/") != 2 || strings.Contains(row[3], "-") {
			t.Errorf("CPF or date not in the Brazilian form: %q", row)
		}
		if strings.Contains(row[5], "{") || strings.Contains(row[6], "[") {
			t.Errorf("scope or days as data, not words: %q", row)
		}
	}
	for _, want := range []string{"663.923.321-54;Marcelo Augusto Figueiredo;22/07/1991;10/06/2025;até a revogação;Arena Corinthians;todos os dias do período",
		"somente nos dias de jogo: 15/06/2025, 22/06/2025 e 29/06/2025", "390.996.030-88;Márcia Exemplo Nogueira", "qualquer local em que se realize evento esportivo"} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("spreadsheet without %q:\n%s", want, raw)
		}
	}
	rec, _ = w.do("GET", "/api/v1/blocklist?format=csv", "club", nil)
	if !strings.HasPrefix(rec.Body.String(), "cpf,name,birth_date,") {
		t.Errorf("the machine CSV changed: %.80s", rec.Body)
	}
}

// A member reached by a group's urgent order: the gate page shows the
// photo of the register to compare (recorded as a read of the member, in
// the court's audit); the photo of a ban not in force, or of a person's
// ban, is 404.
func TestGatePage_MemberPhoto(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	gid := w.importGarra()
	var member int64
	w.g.Raw("SELECT id FROM members WHERE group_id = ? AND cpf = '06420642370'", gid).Scan(&member)
	rec, _ := w.do("PUT", fmt.Sprintf("/api/v1/members/%d/photo", member), "mgr", fixtureBytes(t, "fixtures", "member-photos", "rafaela.png"), "Content-Type", "image/png")
	w.want(rec, 200, "the member's photo")
	id, def, _ := w.file("R5")
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", id), "judge", map[string]any{"defendant_id": def, "precautionary": true, "review_on": "2025-09-10",
		"member_ids": []int64{member}, "text": map[string]any{"reasoning": "Perigo de dano: confrontos anunciados (CPC, art. 300)."}})
	w.want(rec, 201, "urgent order")
	var ban int64
	w.g.Raw("SELECT id FROM bans WHERE member_id = ?", member).Scan(&ban)
	club := w.browser("wf-club")
	body := club.do("GET", "/clube?cpf=064.206.423-70", nil).Body.String()
	if !strings.Contains(body, fmt.Sprintf(`src="/clube/foto/%d"`, ban)) {
		t.Fatalf("no photo on the gate page: %s", body)
	}
	rec = club.do("GET", fmt.Sprintf("/clube/foto/%d", ban), nil)
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "image/png" {
		t.Fatalf("photo: %d %s %s", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
	var reads int64
	w.g.Raw("SELECT count(*) FROM audit_log WHERE action = 'read' AND role = 'club' AND table_name = 'members' AND record_id = ? AND domain = '26.0100'", fmt.Sprint(member)).Scan(&reads)
	if reads != 1 {
		t.Errorf("%d reads of the photo in the court's audit, want 1", reads)
	}
	pid, pdef, _ := w.file("R1")
	w.precautionary(pid, pdef, nil)
	var personBan int64
	w.g.Raw("SELECT id FROM bans WHERE case_id = ?", pid).Scan(&personBan)
	for _, x := range []int64{personBan, ban + 1000} {
		if rec := club.do("GET", fmt.Sprintf("/clube/foto/%d", x), nil); rec.Code != 404 {
			t.Errorf("photo of ban %d: %d, want 404", x, rec.Code)
		}
	}
}

// Issue 32, item 6 over HTTP: a member's CPF corrected in the register
// after the group's urgent order is listed (API and case page) and
// corrected by the judge with the page's button (CPC art. 494, I), after
// which the gate's check blocks the corrected CPF and not the old one; the
// clerk does not correct it (403).
func TestRegisterCPFCorrection_ClerkCarriesItOnThePage(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	gid := w.importGarra()
	var member int64
	w.g.Raw("SELECT id FROM members WHERE group_id = ? AND cpf = '01720368872'", gid).Scan(&member)
	id, def, _ := w.file("R5")
	rec, _ := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", id), "judge", map[string]any{"defendant_id": def, "precautionary": true, "review_on": "2025-09-10",
		"member_ids": []int64{member}, "text": map[string]any{"reasoning": "Perigo de dano: confrontos anunciados (CPC, art. 300)."}})
	w.want(rec, 201, "urgent order")
	rec, _ = w.do("PATCH", fmt.Sprintf("/api/v1/members/%d", member), "mgr", map[string]any{"cpf": "529.982.247-25"})
	w.want(rec, 200, "the register's correction")
	rec, list := w.do("GET", "/api/v1/register-corrections", "clerk", nil)
	w.want(rec, 200, "the corrections")
	items := list["items"].([]any)
	if len(items) != 1 || items[0].(map[string]any)["register_cpf"] != "529.982.247-25" {
		t.Fatalf("corrections %v", list)
	}
	ban := int64(items[0].(map[string]any)["ban_id"].(float64))
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/register-corrections/%d/carry", ban), "clerk", nil)
	w.want(rec, 403, "the clerk carries")
	judge := w.browser("wf-judge")
	page := judge.do("GET", fmt.Sprintf("/processos/%d", id), nil).Body.String()
	if !strings.Contains(page, `id="cpf-cadastro"`) || !strings.Contains(page, "017.203.688-72") || !strings.Contains(page, "529.982.247-25") {
		t.Fatalf("the case page does not put the correction to the clerk")
	}
	if rec := judge.do("POST", fmt.Sprintf("/processos/%d/cpf-cadastro", id), url.Values{"ban": {fmt.Sprint(ban)}}); rec.Code != 303 {
		t.Fatalf("carry on the page: %d %s", rec.Code, rec.Body)
	}
	if got := w.check("52998224725", ""); got["blocked"] != true {
		t.Errorf("the corrected CPF: %v", got)
	}
	if got := w.check("01720368872", ""); got["blocked"] != false {
		t.Errorf("the old CPF: %v", got)
	}
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/register-corrections/%d/carry", ban), "judge", nil)
	w.want(rec, 404, "carrying twice")
}
