package web_test

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// blocklistState is the blocklist's current version and the number of
// feed changes of ban id.
func (f *fixture) blocklistState(t *testing.T, banID int) (version, changes int64) {
	t.Helper()
	if err := f.g.Raw("SELECT coalesce(max(version), 0) FROM blocklist_versions").Scan(&version).Error; err != nil {
		t.Fatal(err)
	}
	if err := f.g.Raw("SELECT count(*) FROM blocklist_changes WHERE ban_id = ?", banID).Scan(&changes).Error; err != nil {
		t.Fatal(err)
	}
	return version, changes
}

// auditBy counts the audit rows of table by the named actor.
func (f *fixture) auditBy(t *testing.T, table, action, actor string) int64 {
	t.Helper()
	var n int64
	if err := f.g.Raw("SELECT count(*) FROM audit_log WHERE table_name = ? AND action = ? AND actor_name = ?", table, action, actor).Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

func expect(t *testing.T, what string, code, want int, body string, contains ...string) {
	t.Helper()
	if code != want {
		t.Errorf("%s: %d, want %d", what, code, want)
		return
	}
	for _, s := range contains {
		if !strings.Contains(body, s) {
			t.Errorf("%s: the page lacks %q", what, s)
		}
	}
}

// The judge's forms on the bans of a case: lifting a precautionary ban (CPP
// art. 282, § 5º) and extending a ban from its first day (LGE art. 201,
// § 2º range), each ban with its own form; errors next to the field with
// what was typed, 422; the database changed as the API would (status, last
// day, blocklist change, audit actor); other roles 403; no CSRF token 403.
func TestPageBanDecisions_CPP_art_282_LGE_art_201(t *testing.T) {
	f := newFixture(t)
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	today := time.Now().In(loc)
	first := today.AddDate(0, -1, 0).Format("2006-01-02")
	caseID, banID := f.fileAndSentence(t, fmt.Sprintf(`"ban": {"first_day": %q, "months": 12}`, first))
	pcase, pban := f.fileAndSentence(t, fmt.Sprintf(`"precautionary": true, "ban": {"first_day": %q}`, first))
	judge := f.browser(t, "judge")
	pros := f.browser(t, "prosecutor")
	pURL, sURL := fmt.Sprintf("/processos/%d", pcase), fmt.Sprintf("/processos/%d", caseID)

	// Who sees which form.
	rec := judge.do("GET", pURL, nil)
	expect(t, "judge, precautionary ban", rec.Code, 200, rec.Body.String(), "Revogar impedimento cautelar", pURL+"/revogacao", fmt.Sprintf(`name="rev[%d].reason"`, pban))
	if strings.Contains(rec.Body.String(), pURL+"/prorrogacao") {
		t.Error("a precautionary ban is offered an extension")
	}
	rec = judge.do("GET", sURL, nil)
	expect(t, "judge, sentence ban", rec.Code, 200, rec.Body.String(), sURL+"/prorrogacao", fmt.Sprintf(`name="pro[%d].months"`, banID))
	if strings.Contains(rec.Body.String(), sURL+"/revogacao") {
		t.Error("a sentence ban is offered the lifting of a precautionary measure")
	}
	for _, role := range []string{"prosecutor", "clerk", "police"} {
		if body := f.browser(t, role).do("GET", pURL, nil).Body.String(); strings.Contains(body, "/revogacao") || strings.Contains(body, "/prorrogacao") {
			t.Errorf("%s sees the judge's ban forms", role)
		}
	}

	// Lift: wrong date and missing reason next to their fields, typed values kept.
	rev := func(on, reason string) url.Values {
		return url.Values{"ban_id": {strconv.Itoa(pban)}, fmt.Sprintf("rev[%d].lifted_on", pban): {on}, fmt.Sprintf("rev[%d].reason", pban): {reason}}
	}
	rec = judge.do("POST", pURL+"/revogacao", rev("31/02/2026", ""))
	expect(t, "lift with an impossible date", rec.Code, 422, rec.Body.String(),
		fmt.Sprintf(`id="f-rev-%d-lifted-on-erro"`, pban), fmt.Sprintf(`id="f-rev-%d-reason-erro"`, pban), `value="31/02/2026"`, "inexistente")
	tomorrow := today.AddDate(0, 0, 1).Format("02/01/2006")
	rec = judge.do("POST", pURL+"/revogacao", rev(tomorrow, "Cessaram os motivos da cautelar."))
	expect(t, "lift in the future", rec.Code, 422, rec.Body.String(),
		fmt.Sprintf(`id="f-rev-%d-lifted-on-erro"`, pban), "não pode ter data futura", ">Cessaram os motivos da cautelar.</textarea>")
	// A sentence ban is not lifted; a ban of another case is not found here.
	rec = judge.do("POST", sURL+"/revogacao", url.Values{"ban_id": {strconv.Itoa(banID)}, fmt.Sprintf("rev[%d].lifted_on", banID): {today.Format("02/01/2006")}, fmt.Sprintf("rev[%d].reason", banID): {"x"}})
	expect(t, "lifting a sentence ban", rec.Code, 409, rec.Body.String(), "Só o impedimento cautelar")
	if rec := judge.do("POST", sURL+"/revogacao", rev(today.Format("02/01/2006"), "x")); rec.Code != 404 {
		t.Errorf("a ban of another case: %d, want 404", rec.Code)
	}
	pros.do("GET", pURL, nil)
	if rec := pros.do("POST", pURL+"/revogacao", rev(today.Format("02/01/2006"), "x")); rec.Code != 403 {
		t.Errorf("prosecutor lifts: %d, want 403", rec.Code)
	}
	noCSRF := rev(today.Format("02/01/2006"), "x")
	noCSRF.Set("csrf", "")
	if rec := judge.do("POST", pURL+"/revogacao", noCSRF); rec.Code != 403 {
		t.Errorf("lift without the CSRF token: %d, want 403", rec.Code)
	}
	var status string
	f.g.Raw("SELECT status FROM bans WHERE id = ?", pban).Scan(&status)
	if status != "active" {
		t.Fatalf("a refused lift changed the ban: %s", status)
	}
	// A breach posted on one case for a ban of another is refused and not recorded.
	pros.do("GET", sURL, nil)
	breach := url.Values{"desc.ban_id": {strconv.Itoa(pban)}, "desc.occurred_on": {today.AddDate(0, 0, -1).Format("02/01/2006")},
		"desc.source": {"police_report"}, "desc.reference": {"BO 77/2026"}}
	if rec := pros.do("POST", sURL+"/descumprimento", breach); rec.Code != 404 {
		t.Errorf("breach of another case's ban: %d, want 404", rec.Code)
	}
	var breaches int64
	f.g.Raw("SELECT count(*) FROM breaches").Scan(&breaches)
	if breaches != 0 {
		t.Errorf("a refused breach was recorded: %d", breaches)
	}
	v0, c0 := f.blocklistState(t, pban)
	judge.do("GET", pURL, nil)
	rec = judge.do("POST", pURL+"/revogacao", rev(today.Format("02/01/2006"), "Cessaram os motivos da cautelar."))
	if rec.Code != 303 || rec.Header().Get("Location") != pURL+"#documentos" {
		t.Fatalf("lift: %d %s", rec.Code, rec.Body)
	}
	var lifted struct {
		Status     string
		LiftedOn   time.Time
		LiftReason string
	}
	f.g.Raw("SELECT status, lifted_on, lift_reason FROM bans WHERE id = ?", pban).Scan(&lifted)
	if lifted.Status != "lifted" || lifted.LiftedOn.Format("2006-01-02") != today.Format("2006-01-02") || lifted.LiftReason != "Cessaram os motivos da cautelar." {
		t.Errorf("lifted ban %+v", lifted)
	}
	v1, c1 := f.blocklistState(t, pban)
	var removed int64
	f.g.Raw("SELECT count(*) FROM blocklist_changes WHERE ban_id = ? AND op = 'remove' AND version = ?", pban, v1).Scan(&removed)
	if v1 <= v0 || c1 <= c0 || removed != 1 {
		t.Errorf("blocklist after the lift: version %d → %d, changes %d → %d, removal in the new version %d", v0, v1, c0, c1, removed)
	}
	if n := f.auditBy(t, "bans", "update", "u-judge"); n == 0 {
		t.Error("no audit row of the lift naming the judge")
	}
	page := judge.do("GET", pURL, nil).Body.String()
	if !strings.Contains(page, "revogado em") || !strings.Contains(page, "Revogada em") || strings.Contains(page, pURL+"/revogacao") {
		t.Error("the case page after the lift: no notice, no movement, or the form still offered")
	}

	// Extend: months in words, then beyond the range, next to the field.
	pro := func(months, reason string) url.Values {
		return url.Values{"ban_id": {strconv.Itoa(banID)}, fmt.Sprintf("pro[%d].months", banID): {months}, fmt.Sprintf("pro[%d].reason", banID): {reason}}
	}
	judge.do("GET", sURL, nil)
	rec = judge.do("POST", sURL+"/prorrogacao", pro("seis", "Descumprimento reiterado."))
	expect(t, "extension in words", rec.Code, 422, rec.Body.String(), fmt.Sprintf(`id="f-pro-%d-months-erro"`, banID), `value="seis"`, ">Descumprimento reiterado.</textarea>")
	rec = judge.do("POST", sURL+"/prorrogacao", pro("30", "Descumprimento reiterado."))
	expect(t, "extension beyond the range", rec.Code, 422, rec.Body.String(), fmt.Sprintf(`id="f-pro-%d-months-erro"`, banID), "art. 201", `value="30"`)
	if rec := pros.do("POST", sURL+"/prorrogacao", pro("6", "x")); rec.Code != 403 {
		t.Errorf("prosecutor extends: %d, want 403", rec.Code)
	}
	noCSRF = pro("6", "x")
	noCSRF.Set("csrf", "")
	if rec := judge.do("POST", sURL+"/prorrogacao", noCSRF); rec.Code != 403 {
		t.Errorf("extension without the CSRF token: %d, want 403", rec.Code)
	}
	v0, c0 = f.blocklistState(t, banID)
	judge.do("GET", sURL, nil)
	rec = judge.do("POST", sURL+"/prorrogacao", pro("6", "Descumprimento reiterado."))
	if rec.Code != 303 {
		t.Fatalf("extend: %d %s", rec.Code, rec.Body)
	}
	var ext struct {
		Months  int
		LastDay time.Time
	}
	f.g.Raw("SELECT months, last_day FROM bans WHERE id = ?", banID).Scan(&ext)
	fd, _ := time.Parse("2006-01-02", first)
	if want := fd.AddDate(0, 18, -1); ext.Months != 18 || (fd.Day() <= 28 && !ext.LastDay.Equal(want)) {
		t.Errorf("extended ban: %d months to %s, want 18 to %s", ext.Months, ext.LastDay.Format("2006-01-02"), want.Format("2006-01-02"))
	}
	var n int64
	f.g.Raw("SELECT count(*) FROM ban_extensions WHERE ban_id = ? AND added_months = 6 AND reason = 'Descumprimento reiterado.'", banID).Scan(&n)
	if v1, c1 := f.blocklistState(t, banID); n != 1 || v1 <= v0 || c1 <= c0 {
		t.Errorf("extension rows %d; blocklist version %d → %d, changes %d → %d", n, v0, v1, c0, c1)
	}
	if page := judge.do("GET", sURL, nil).Body.String(); !strings.Contains(page, "prorrogado: 18 meses") || !strings.Contains(page, "Prorrogado o impedimento") {
		t.Error("the case page after the extension: no notice or no movement")
	}
}

// The criminal flow's decisions on the case page, shown only where the flow
// allows them: the prosecutor's plea offer (Lei 9.099/1995, art. 76) from
// the preliminary hearing, the judge's homologation once accepted (ban with
// source plea_agreement on the blocklist), the conditional suspension (art.
// 89) and the clerk's notification of the sentence (art. 82, § 1º).
func TestPagePleaSuspensionNotification_Lei_9099(t *testing.T) {
	f := newFixture(t)
	file := func(ref string) (int, int) {
		code, body, c := f.send(t, "POST", "/api/v1/cases", "prosecutor", "application/json", representation(t, ref))
		if code != 201 {
			t.Fatalf("filing %s: %d %s", ref, code, body)
		}
		return int(c["id"].(float64)), int(c["defendants"].([]any)[0].(map[string]any)["id"].(float64))
	}
	move := func(id int, role, to string) {
		if code, body, _ := f.send(t, "POST", fmt.Sprintf("/api/v1/cases/%d/transitions", id), role, "application/json", fmt.Sprintf(`{"to": %q}`, to)); code != 200 {
			t.Fatalf("to %s: %d %s", to, code, body)
		}
	}
	judge, pros, clerk := f.browser(t, "judge"), f.browser(t, "prosecutor"), f.browser(t, "clerk")
	plea, pleaDef := file("R1")
	pleaURL := fmt.Sprintf("/processos/%d", plea)

	// Distributed: no plea offer, no suspension yet.
	if body := pros.do("GET", pleaURL, nil).Body.String(); strings.Contains(body, pleaURL+"/acordo") {
		t.Error("plea offer offered on a distributed case")
	}
	if body := judge.do("GET", pleaURL, nil).Body.String(); strings.Contains(body, pleaURL+"/suspensao") || strings.Contains(body, pleaURL+"/homologacao") {
		t.Error("suspension or homologation offered on a distributed case")
	}
	move(plea, "clerk", "preliminary_hearing")
	rec := pros.do("GET", pleaURL, nil)
	expect(t, "prosecutor at the preliminary hearing", rec.Code, 200, rec.Body.String(), pleaURL+"/acordo")
	rec = pros.do("POST", pleaURL+"/acordo", url.Values{"acordo.defendant_id": {strconv.Itoa(pleaDef)}, "acordo.months": {"6"}})
	if rec.Code != 303 {
		t.Fatalf("offer: %d %s", rec.Code, rec.Body)
	}
	if body := judge.do("GET", pleaURL, nil).Body.String(); strings.Contains(body, pleaURL+"/homologacao") {
		t.Error("homologation offered before the defendant accepted")
	}
	move(plea, "clerk", "plea_accepted")
	rec = judge.do("GET", pleaURL, nil)
	expect(t, "judge, accepted plea", rec.Code, 200, rec.Body.String(), pleaURL+"/homologacao", "Marcelo Augusto Figueiredo — impedimento de 6 meses")
	rec = judge.do("POST", pleaURL+"/homologacao", url.Values{"hom.defendant_id": {strconv.Itoa(pleaDef)}, "hom.first_day": {"32/13/2026"}})
	expect(t, "homologation with a wrong date", rec.Code, 422, rec.Body.String(), `id="f-hom-first-day-erro"`, `value="32/13/2026"`)
	rec = judge.do("POST", pleaURL+"/homologacao", url.Values{"hom.defendant_id": {strconv.Itoa(pleaDef)}, "hom.first_day": {"01/01/2020"}})
	expect(t, "homologation before the facts", rec.Code, 422, rec.Body.String(), `id="f-hom-first-day-erro"`, `value="01/01/2020"`)
	pros.do("GET", pleaURL, nil)
	if rec := pros.do("POST", pleaURL+"/homologacao", url.Values{"hom.defendant_id": {strconv.Itoa(pleaDef)}}); rec.Code != 403 {
		t.Errorf("prosecutor homologates: %d, want 403", rec.Code)
	}
	if rec := judge.do("POST", pleaURL+"/homologacao", url.Values{"hom.defendant_id": {strconv.Itoa(pleaDef)}, "csrf": {""}}); rec.Code != 403 {
		t.Errorf("homologation without the CSRF token: %d, want 403", rec.Code)
	}
	judge.do("GET", pleaURL, nil)
	rec = judge.do("POST", pleaURL+"/homologacao", url.Values{"hom.defendant_id": {strconv.Itoa(pleaDef)}})
	if rec.Code != 303 || rec.Header().Get("Location") != pleaURL+"#documentos" {
		t.Fatalf("homologation: %d %s", rec.Code, rec.Body)
	}
	var ban struct {
		ID     int64
		Source string
		Months int
	}
	f.g.Raw("SELECT id, source, months FROM bans WHERE case_id = ?", plea).Scan(&ban)
	var caseStatus, pleaStatus string
	var onList int64
	f.g.Raw("SELECT status FROM cases WHERE id = ?", plea).Scan(&caseStatus)
	f.g.Raw("SELECT status FROM plea_agreements WHERE case_id = ?", plea).Scan(&pleaStatus)
	f.g.Raw("SELECT count(*) FROM blocklist_changes WHERE ban_id = ? AND op = 'add'", ban.ID).Scan(&onList)
	if ban.Source != "plea_agreement" || ban.Months != 6 || caseStatus != "executing" || pleaStatus != "homologated" || onList != 1 {
		t.Errorf("after the homologation: ban %+v, case %s, plea %s, blocklist additions %d", ban, caseStatus, pleaStatus, onList)
	}
	if f.auditBy(t, "bans", "insert", "u-judge") == 0 {
		t.Error("no audit row of the homologated ban naming the judge")
	}
	if body := judge.do("GET", pleaURL, nil).Body.String(); !strings.Contains(body, "Transação penal homologada") || strings.Contains(body, pleaURL+"/homologacao") {
		t.Error("the case page after the homologation: no notice, or the form still offered")
	}

	// Conditional suspension (R2: riot, no § 6º or § 7º).
	susp, suspDef := file("R2")
	suspURL := fmt.Sprintf("/processos/%d", susp)
	move(susp, "clerk", "preliminary_hearing")
	// Lei 9.099/1995, art. 89: proposed with the accusation, not before.
	if body := judge.do("GET", suspURL, nil).Body.String(); strings.Contains(body, suspURL+"/suspensao") {
		t.Error("suspension offered at the preliminary hearing, before the accusation")
	}
	move(susp, "prosecutor", "accusation")
	rec = judge.do("GET", suspURL, nil)
	expect(t, "judge after the accusation", rec.Code, 200, rec.Body.String(), suspURL+"/suspensao")
	form := url.Values{"susp.defendant_id": {strconv.Itoa(suspDef)}, "susp.months": {"12"}, "susp.conditions": {""}}
	rec = judge.do("POST", suspURL+"/suspensao", form)
	expect(t, "suspension of 12 months without conditions", rec.Code, 422, rec.Body.String(), `id="f-susp-months-erro"`, `id="f-susp-forbidden-places-erro"`,
		`id="f-susp-repair-damage-erro"`, `id="f-susp-stay-in-district-erro"`, `value="12"`, "de 24 a 48 meses")
	form.Set("susp.months", "24")
	form.Set("susp.repair_impossible", "Sem dano material apurado.")
	form.Set("susp.forbidden_places", "Estádios e arredores em dias de jogo\n\nBares da torcida")
	form.Set("susp.sporting_venues", "true")
	form.Set("susp.stay_in_district", "true")
	form.Set("susp.monthly_appearance", "true")
	form.Set("susp.conditions", "Comparecimento mensal ao juízo.\n\nProibição de frequentar estádios.")
	clerk.do("GET", suspURL, nil)
	if rec := clerk.do("POST", suspURL+"/suspensao", form); rec.Code != 403 {
		t.Errorf("clerk suspends: %d, want 403", rec.Code)
	}
	noCSRF := cloneForm(form)
	noCSRF.Set("csrf", "")
	if rec := judge.do("POST", suspURL+"/suspensao", noCSRF); rec.Code != 403 {
		t.Errorf("suspension without the CSRF token: %d, want 403", rec.Code)
	}
	judge.do("GET", suspURL, nil)
	if rec := judge.do("POST", suspURL+"/suspensao", form); rec.Code != 303 {
		t.Fatalf("suspension: %d %s", rec.Code, rec.Body)
	}
	var sp struct {
		Months     int
		Status     string
		Conditions string
	}
	f.g.Raw("SELECT months, status, conditions::text AS conditions FROM conditional_suspensions WHERE case_id = ?", susp).Scan(&sp)
	f.g.Raw("SELECT status FROM cases WHERE id = ?", susp).Scan(&caseStatus)
	if sp.Months != 24 || sp.Status != "active" || !strings.Contains(sp.Conditions, "Proibição de frequentar estádios.") || strings.Contains(sp.Conditions, `""`) || caseStatus != "conditional_suspension" {
		t.Errorf("after the suspension: %+v, case %s", sp, caseStatus)
	}
	if body := judge.do("GET", suspURL, nil).Body.String(); !strings.Contains(body, "Processo suspenso por 24 meses") || strings.Contains(body, suspURL+"/suspensao") {
		t.Error("the case page after the suspension: no notice, or the form still offered")
	}

	// The clerk records the notification of a sentence: the appeal window.
	sentenced, _ := f.fileAndSentence(t, `"ban": {"first_day": "2026-12-01", "months": 12}`)
	sentURL := fmt.Sprintf("/processos/%d", sentenced)
	rec = clerk.do("GET", sentURL, nil)
	expect(t, "clerk, sentenced case", rec.Code, 200, rec.Body.String(), sentURL+"/intimacoes")
	var def int
	f.g.Raw("SELECT id FROM defendants WHERE case_id = ?", sentenced).Scan(&def)
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	tomorrow := time.Now().In(loc).AddDate(0, 0, 1).Format("02/01/2006")
	rec = clerk.do("POST", sentURL+"/intimacoes", url.Values{"int.defendant_id": {strconv.Itoa(def)}, "int.notified_on": {tomorrow}})
	expect(t, "notification tomorrow", rec.Code, 422, rec.Body.String(), `id="f-int-notified-on-erro"`, `value="`+tomorrow+`"`)
	if rec := judge.do("POST", sentURL+"/intimacoes", url.Values{"int.defendant_id": {strconv.Itoa(def)}}); rec.Code != 403 {
		t.Errorf("judge records the notification: %d, want 403", rec.Code)
	}
	clerk.do("GET", sentURL, nil)
	today := time.Now().In(loc).Format("02/01/2006")
	if rec := clerk.do("POST", sentURL+"/intimacoes", url.Values{"int.defendant_id": {strconv.Itoa(def)}, "int.notified_on": {today}}); rec.Code != 303 {
		t.Fatalf("notification: %d %s", rec.Code, rec.Body)
	}
	var notified int64
	f.g.Raw("SELECT count(*) FROM notifications WHERE case_id = ? AND defendant_id = ?", sentenced, def).Scan(&notified)
	if body := clerk.do("GET", sentURL, nil).Body.String(); notified != 1 || !strings.Contains(body, "Ciência registrada") || !strings.Contains(body, "Prazos de recurso") {
		t.Errorf("after the notification: %d rows; notice or deadline missing", notified)
	}
}

// The court's holidays (CPP art. 798, § 3º): the clerk lists and adds,
// the judge lists; a wrong date is next to its field with the name kept;
// a day already there is 409; other roles 403; no CSRF token 403.
func TestPageHolidays_CPP_art_798(t *testing.T) {
	f := newFixture(t)
	clerk, judge := f.browser(t, "clerk"), f.browser(t, "judge")
	rec := clerk.do("GET", "/feriados?ano=2026", nil)
	expect(t, "clerk's holidays", rec.Code, 200, rec.Body.String(), "Feriados do juizado (2026)", `action="/feriados"`)
	rec = judge.do("GET", "/feriados?ano=2026", nil)
	expect(t, "judge's holidays", rec.Code, 200, rec.Body.String(), "Feriados do juizado (2026)")
	if strings.Contains(rec.Body.String(), `action="/feriados"`) {
		t.Error("the judge is offered the clerk's form")
	}
	if rec := f.browser(t, "prosecutor").do("GET", "/feriados", nil); rec.Code != 403 {
		t.Errorf("prosecutor reads the holidays page: %d, want 403", rec.Code)
	}
	rec = clerk.do("POST", "/feriados", url.Values{"date": {"30/02/2026"}, "name": {"Consciência Negra"}})
	expect(t, "holiday on an impossible date", rec.Code, 422, rec.Body.String(), `id="f-date-erro"`, `value="30/02/2026"`, `value="Consciência Negra"`)
	if rec := judge.do("POST", "/feriados", url.Values{"date": {"20/11/2026"}, "name": {"Consciência Negra"}}); rec.Code != 403 {
		t.Errorf("judge adds a holiday: %d, want 403", rec.Code)
	}
	if rec := clerk.do("POST", "/feriados", url.Values{"date": {"20/11/2026"}, "name": {"Consciência Negra"}, "csrf": {""}}); rec.Code != 403 {
		t.Errorf("holiday without the CSRF token: %d, want 403", rec.Code)
	}
	clerk.do("GET", "/feriados", nil)
	rec = clerk.do("POST", "/feriados", url.Values{"date": {"20/11/2026"}, "name": {"Consciência Negra"}})
	if rec.Code != 303 || rec.Header().Get("Location") != "/feriados?ano=2026" {
		t.Fatalf("holiday: %d %s", rec.Code, rec.Body)
	}
	var n int64
	f.g.Raw("SELECT count(*) FROM court_holidays WHERE court_code = '26.0100' AND day = '2026-11-20' AND name = 'Consciência Negra'").Scan(&n)
	if n != 1 || f.auditBy(t, "court_holidays", "insert", "u-clerk") == 0 {
		t.Errorf("holiday rows %d, or no audit row naming the clerk", n)
	}
	rec = clerk.do("GET", "/feriados?ano=2026", nil)
	expect(t, "holidays after adding", rec.Code, 200, rec.Body.String(), "Feriado incluído", "20/11/2026", "Consciência Negra")
	rec = clerk.do("POST", "/feriados", url.Values{"date": {"20/11/2026"}, "name": {"Outro nome"}})
	expect(t, "the same day twice", rec.Code, 409, rec.Body.String(), "já está no calendário", `value="Outro nome"`)
}
