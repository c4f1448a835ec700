package web_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// The sentence form refuses a yes/no field holding anything but its values
// (eligible=maybe was stored as eligible=true; the JSON API answers 422):
// 422, the error next to the field, the typed value kept and nothing
// signed. A defendant id too large for an int64 is reported as typed, not
// as 9223372036854775807.
func TestPageSentenceRefusesUnknownChoicesAndHugeIDs(t *testing.T) {
	f := newFixture(t)
	c := f.fileCase(t, "R1")
	caseURL := fmt.Sprintf("/processos/%d", int(c["id"].(float64)))
	f.receive(t, int64(c["id"].(float64)))
	def := fmt.Sprint(int(c["defendants"].([]any)[0].(map[string]any)["id"].(float64)))
	judge := f.browser(t, "judge")
	judge.do("GET", caseURL+"/sentenca", nil)
	base := url.Values{"acao": {"assinar"}, "defendant_id": {def}, "ban.months": {"12"}, "eligible": {"true"},
		"sec7_doubles_ban": {"true"}, "reporting_duty.place": {"2º DP"}, "reporting_duty.club": {"Corinthians"}, "text.reasoning": {"Autoria provada."}}
	for _, tc := range []struct{ field, value, id string }{
		{"eligible", "maybe", "f-eligible"},
		{"organiser", "talvez", "f-organiser"},
		{"sec7", "1", "f-sec7"},
		{"weapons", "x", "f-weapons"},
		{"fan_fight", "sempre", "f-fan-fight"},
		{"sec7_doubles_ban", "yes", "f-sec7-doubles-ban"},
		{"publish", "maybe", ""},
		{"precautionary_until_final", "talvez", ""},
	} {
		form := cloneForm(base)
		form.Set(tc.field, tc.value)
		rec := judge.do("POST", caseURL+"/sentenca", form)
		body := rec.Body.String()
		if rec.Code != 422 || !strings.Contains(body, fmt.Sprintf("Valor &#34;%s&#34; inválido", tc.value)) {
			t.Errorf("%s=%s: %d, want 422 naming the value", tc.field, tc.value, rec.Code)
			continue
		}
		if tc.id != "" {
			sel := body[strings.Index(body, `id="`+tc.id+`"`):]
			sel = sel[:strings.Index(sel, "</div>")]
			if !strings.Contains(sel, fmt.Sprintf(`<option value="%s" selected>`, tc.value)) || !strings.Contains(sel, `class="campo-erro"`) {
				t.Errorf("%s=%s: the select does not keep the value with its error: %s", tc.field, tc.value, sel)
			}
		}
	}
	form := cloneForm(base)
	form.Set("defendant_id", "99999999999999999999")
	rec := judge.do("POST", caseURL+"/sentenca", form)
	if rec.Code != 422 || !strings.Contains(rec.Body.String(), "99999999999999999999") || strings.Contains(rec.Body.String(), "9223372036854775807") {
		t.Errorf("huge defendant id: %d, want 422 quoting the typed number", rec.Code)
	}
	var n int64
	if err := f.g.Raw("SELECT count(*) FROM bans").Scan(&n).Error; err != nil || n != 0 {
		t.Fatalf("refused forms signed %d sentences (%v)", n, err)
	}
	// The allowed words still work ("não" on publish is a valid choice).
	form = cloneForm(base)
	form.Set("eligible", "sim")
	if rec := judge.do("POST", caseURL+"/sentenca", form); rec.Code != 303 {
		t.Fatalf("valid sentence: %d %s", rec.Code, rec.Body)
	}
	if err := f.g.Raw("SELECT count(*) FROM bans WHERE eligible").Scan(&n).Error; err != nil || n != 1 {
		t.Errorf("%d eligible bans after the valid form (%v), want 1", n, err)
	}
}

// The sentence page shows the warnings the judge needs before signing: a
// CPF already punished under art. 201 (§ 2º's condition), the same CPF with
// another birth date elsewhere; and "Recalcular" refuses, as signing does,
// a first day in the past (the ban starts at the final judgment or later:
// Súmula 643 STJ), showing the last day it would have.
func TestPageSentenceWarnings_LGE_art_201_sec2_Sumula_643(t *testing.T) {
	f := newFixture(t)
	f.fileAndSentence(t, `"eligible": true, "ban": {"months": 6}`)
	rep := strings.Replace(representation(t, "R1"), `"1991-07-22"`, `"1991-07-23"`, 1)
	code, body, c := f.send(t, "POST", "/api/v1/cases", "prosecutor", "application/json", rep)
	if code != 201 || !strings.Contains(body, "22/07/1991") {
		t.Fatalf("filing the same CPF with another birth date: %d %s", code, body)
	}
	caseURL := fmt.Sprintf("/processos/%d", int(c["id"].(float64)))
	judge := f.browser(t, "judge")
	rec := judge.do("GET", caseURL+"/sentenca", nil)
	expect(t, "sentence form", rec.Code, 200, rec.Body.String(), "não tiver sido punido anteriormente", "art. 201, § 2º", "22/07/1991")
	rec = judge.do("POST", caseURL+"/sentenca", url.Values{"acao": {"recalcular"}, "ban.first_day": {"01/04/2025"}, "ban.months": {"3"}})
	expect(t, "recalculated past first day", rec.Code, 422, rec.Body.String(), "30/06/2025", `id="f-ban-first-day-erro"`, "Súmula 643", `value="01/04/2025"`)
}

// The sentence form decides each outcome the law allows (DOMAIN.md §2
// "Outcomes"): for the organiser of R4 (LGE art. 201, § 6º: no conversion)
// the form proposes the reclusão and fine, "Recalcular" refuses the
// conversion and a missing prison term as signing would and, once right,
// says what it took from the conduct, saving nothing; "Salvar minuta"
// saves a draft the form continues, with its PDF preview; "Assinar" signs
// it (no ban) and the case page shows the sentence. An acquittal needs its
// item of CPP art. 386 and is docketed as TPU 220.
func TestPageSentenceOutcomes_LGE_art_201_sec6_CPP_art_386(t *testing.T) {
	f := newFixture(t)
	count := func(q string, args ...any) int64 {
		t.Helper()
		var n int64
		if err := f.g.Raw(q, args...).Scan(&n).Error; err != nil {
			t.Fatal(err)
		}
		return n
	}
	caseID, caseURL, def := f.receivedCase(t, "R4")
	judge := f.browser(t, "judge")
	rec := judge.do("GET", caseURL+"/sentenca", nil)
	expect(t, "sentence form of an organiser", rec.Code, 200, rec.Body.String(), "Sem conversão em impedimento", `<option value="prison" selected>`,
		"Reclusão de <strong>16</strong> a <strong>36</strong> meses", "rito ordinário", `name="dosimetry.base_months"`, `name="text.reasoning"`, `name="acquittal_ground"`,
		`name="precautionary_until_final.review_on"`, `id="salvar-minuta"`)
	form := url.Values{"defendant_id": {def}, "outcome": {"ban"}, "ban.months": {"12"}, "acao": {"recalcular"}}
	rec = judge.do("POST", caseURL+"/sentenca", form)
	expect(t, "Recalcular a conversion for an organiser", rec.Code, 422, rec.Body.String(), "§ 6º", "prison", "seria recusada")
	prison := url.Values{"defendant_id": {def}, "outcome": {"prison"}, "acao": {"recalcular"}, "fine_days": {"20"}}
	rec = judge.do("POST", caseURL+"/sentenca", prison)
	expect(t, "Recalcular without the prison term", rec.Code, 422, rec.Body.String(), `id="f-prison-months-erro"`, "16 a 36", `value="20"`)
	prison.Set("dosimetry.base_months", "18")
	prison.Set("dosimetry.base_reasons", "Culpabilidade acentuada.")
	prison.Set("dosimetry.intermediate_months", "18")
	prison.Set("dosimetry.final_months", "24")
	prison.Set("dosimetry.final_reasons", "Aumento de 1/3 (art. 201, § 6º).")
	prison.Set("prison_months", "24")
	prison.Set("text.report", "Relatório do caso.")
	prison.Set("text.reasoning", "Fundamentação: organizou o tumulto.")
	rec = judge.do("POST", caseURL+"/sentenca", prison)
	expect(t, "Recalcular a valid prison sentence", rec.Code, 200, rec.Body.String(), "Conferido como na assinatura", "organizou, preparou ou incitou (§ 6º)")
	if n := count("SELECT (SELECT count(*) FROM sentences) + (SELECT count(*) FROM bans)"); n != 0 {
		t.Fatalf("Recalcular saved %d rows", n)
	}
	prison.Set("acao", "minuta")
	rec = judge.do("POST", caseURL+"/sentenca", prison)
	if rec.Code != 303 || rec.Header().Get("Location") != caseURL+"/sentenca?defendant_id="+def {
		t.Fatalf("minuta: %d %s", rec.Code, rec.Header().Get("Location"))
	}
	if n := count("SELECT count(*) FROM sentences WHERE case_id = ? AND status = 'draft'", caseID); n != 1 || count("SELECT count(*) FROM bans") != 0 {
		t.Fatalf("after the minuta: %d drafts (want 1), or a ban", n)
	}
	rec = judge.do("GET", rec.Header().Get("Location"), nil)
	preview := judge.do("GET", fmt.Sprintf("%s/minuta.pdf?defendant_id=%s", caseURL, def), nil)
	if preview.Code != 200 || preview.Header().Get("Content-Type") != "application/pdf" || !strings.HasPrefix(preview.Body.String(), "%PDF") {
		t.Errorf("the minuta's preview: %d %s", preview.Code, preview.Header().Get("Content-Type"))
	}
	if rec := f.browser(t, "clerk").do("GET", fmt.Sprintf("%s/minuta.pdf?defendant_id=%s", caseURL, def), nil); rec.Code != 403 {
		t.Errorf("the clerk reads the minuta: %d, want 403", rec.Code)
	}
	expect(t, "the form continues the minuta", rec.Code, 200, rec.Body.String(), "Minuta salva", fmt.Sprintf("/processos/%d/minuta.pdf?defendant_id=%s", caseID, def),
		`<option value="prison" selected>`, `value="24"`, "Fundamentação: organizou o tumulto.</textarea>")
	prison.Set("acao", "assinar")
	rec = judge.do("POST", caseURL+"/sentenca", prison)
	if rec.Code != 303 || rec.Header().Get("Location") != caseURL+"#documentos" {
		t.Fatalf("signing: %d %s", rec.Code, rec.Body)
	}
	if n := count("SELECT count(*) FROM sentences WHERE case_id = ? AND status = 'signed' AND outcome = 'prison' AND prison_months = 24 AND fine_days = 20", caseID); n != 1 ||
		count("SELECT count(*) FROM sentences WHERE status = 'draft'") != 0 || count("SELECT count(*) FROM bans") != 0 {
		t.Fatalf("after signing: %d signed prison sentences (want 1), a draft left or a ban written", n)
	}
	page := judge.do("GET", caseURL, nil).Body.String()
	expect(t, "case page after the prison sentence", 200, 200, page, "Sentença assinada: condenação à reclusão de 24 meses e 20 dias-multa",
		"condenação à reclusão e multa, sem conversão", "reclusão de 24 meses e 20 dias-multa", "Nenhum impedimento neste processo",
		fmt.Sprintf("%s/sentenca.pdf?defendant_id=%s", caseURL, def))
	if n := count("SELECT count(*) FROM sentences WHERE case_id = ? AND document_id IS NOT NULL", caseID); n != 1 {
		t.Errorf("signing issued %d sentence documents, want 1", n)
	}
	if pdfRec := judge.do("GET", fmt.Sprintf("%s/sentenca.pdf?defendant_id=%s", caseURL, def), nil); pdfRec.Code != 200 || pdfRec.Header().Get("Content-Type") != "application/pdf" {
		t.Errorf("the sentence PDF of a prison conviction: %d", pdfRec.Code)
	}

	// Acquittal (CPP art. 386).
	_, aURL, adef := f.receivedCase(t, "R1")
	judge.do("GET", aURL+"/sentenca", nil)
	acq := url.Values{"acao": {"assinar"}, "defendant_id": {adef}, "outcome": {"acquittal"}, "text.reasoning": {"Prova insuficiente."}}
	rec = judge.do("POST", aURL+"/sentenca", acq)
	expect(t, "acquittal without its ground", rec.Code, 422, rec.Body.String(), "art. 386", `<option value="acquittal" selected>`)
	acq.Set("acquittal_ground", "VII")
	if rec := judge.do("POST", aURL+"/sentenca", acq); rec.Code != 303 {
		t.Fatalf("acquittal: %d %s", rec.Code, rec.Body)
	}
	page = judge.do("GET", aURL, nil).Body.String()
	expect(t, "case page after the acquittal", 200, 200, page, "Sentença assinada: absolvição", "CPP, art. 386, VII", "TPU 220")
}

// Signing a sentence is irreversible (it decides the case), so only the
// "Assinar sentença" button (acao=assinar) signs: a valid form with an
// unknown acao, or none, answers 422 with the form and a message, and
// nothing is saved; "Recalcular", "Salvar minuta" and "Assinar" still work.
func TestPageSentenceSignsOnlyWithAcaoAssinar(t *testing.T) {
	f := newFixture(t)
	caseID, caseURL, def := f.receivedCase(t, "R1")
	judge := f.browser(t, "judge")
	judge.do("GET", caseURL+"/sentenca", nil)
	count := func() int64 {
		t.Helper()
		var n int64
		if err := f.g.Raw("SELECT (SELECT count(*) FROM sentences WHERE case_id = ?) + (SELECT count(*) FROM bans)", caseID).Scan(&n).Error; err != nil {
			t.Fatal(err)
		}
		return n
	}
	base := url.Values{"defendant_id": {def}, "ban.months": {"12"}, "eligible": {"true"},
		"sec7_doubles_ban": {"true"}, "reporting_duty.place": {"2º DP"}, "reporting_duty.club": {"Corinthians"}, "text.reasoning": {"Autoria provada."}}
	for _, acao := range []string{"", "xyz", "Assinar", "missing"} {
		form := cloneForm(base)
		if acao != "missing" {
			form.Set("acao", acao)
		}
		rec := judge.do("POST", caseURL+"/sentenca", form)
		expect(t, "acao="+acao, rec.Code, 422, rec.Body.String(), "Ação não reconhecida", "Nada foi salvo nem assinado", `value="12"`)
		if n := count(); n != 0 {
			t.Fatalf("acao=%q saved %d rows", acao, n)
		}
	}
	form := cloneForm(base)
	form.Set("acao", "recalcular")
	if rec := judge.do("POST", caseURL+"/sentenca", form); rec.Code != 200 || count() != 0 {
		t.Fatalf("recalcular: %d, %d rows", rec.Code, count())
	}
	form.Set("acao", "minuta")
	if rec := judge.do("POST", caseURL+"/sentenca", form); rec.Code != 303 {
		t.Fatalf("minuta: %d %s", rec.Code, rec.Body)
	}
	var n int64
	if err := f.g.Raw("SELECT count(*) FROM sentences WHERE case_id = ? AND status = 'draft'", caseID).Scan(&n).Error; err != nil || n != 1 {
		t.Fatalf("after the minuta: %d drafts (%v), want 1", n, err)
	}
	form.Set("acao", "assinar")
	if rec := judge.do("POST", caseURL+"/sentenca", form); rec.Code != 303 || rec.Header().Get("Location") != caseURL+"#documentos" {
		t.Fatalf("assinar: %d %s", rec.Code, rec.Body)
	}
	if err := f.g.Raw("SELECT count(*) FROM sentences WHERE case_id = ? AND status = 'signed'", caseID).Scan(&n).Error; err != nil || n != 1 {
		t.Fatalf("after assinar: %d signed sentences (%v), want 1", n, err)
	}
}

// CP art. 14, II and art. 68 on the sentence form: a cause of decrease of
// the third phase, with its article and fraction, takes the term below
// the minimum; an invalid fraction is shown next to its field.
func TestPageSentenceThirdPhaseCause_CP14II(t *testing.T) {
	f := newFixture(t)
	_, caseURL, def := f.receivedCase(t, "R1")
	judge := f.browser(t, "judge")
	rec := judge.do("GET", caseURL+"/sentenca", nil)
	expect(t, "sentence form", rec.Code, 200, rec.Body.String(), `name="dosimetry.causes[0].fraction"`, `name="dosimetry.causes[2].article"`, `name="dosimetry.final_days"`)
	form := url.Values{"acao": {"assinar"}, "defendant_id": {def}, "outcome": {"prison"}, "eligible": {"false"}, "fine_days": {"10"},
		"dosimetry.base_months": {"14"}, "dosimetry.intermediate_months": {"14"}, "dosimetry.final_reasons": {"Tentativa."},
		"dosimetry.causes[0].kind": {"decrease"}, "dosimetry.causes[0].fraction": {"3/4"}, "dosimetry.causes[0].article": {"CP, art. 14, II"},
		"text.reasoning": {"Tentativa de agressão."}}
	rec = judge.do("POST", caseURL+"/sentenca", form)
	expect(t, "a fraction outside art. 14, II", rec.Code, 422, rec.Body.String(), `id="f-dosimetry-causes-0-fraction-erro"`, "de 1/3 a 2/3", `value="3/4"`)
	form.Set("dosimetry.causes[0].fraction", "1/3")
	if rec = judge.do("POST", caseURL+"/sentenca", form); rec.Code != 303 {
		t.Fatalf("signing with the cause: %d %s", rec.Code, rec.Body)
	}
	page := judge.do("GET", caseURL, nil).Body.String()
	expect(t, "case page", 200, 200, page, "reclusão de 9 meses e 10 dias e 10 dias-multa")
}

// receivedCase files representation ref through the API and receives the
// accusation (Lei 9.099/1995, arts. 77 and 81: no sentence before it); it
// returns the case's id, its page's address and its first defendant's id
// as a form sends it.
func (f *fixture) receivedCase(t *testing.T, ref string) (int, string, string) {
	t.Helper()
	c := f.fileCase(t, ref)
	caseID := int(c["id"].(float64))
	f.receive(t, int64(caseID))
	return caseID, fmt.Sprintf("/processos/%d", caseID), fmt.Sprint(int(c["defendants"].([]any)[0].(map[string]any)["id"].(float64)))
}
