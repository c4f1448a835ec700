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
// art. 282, § 5º) and renewing it with a new review date (CPP art. 319, II);
// a final ban has no extension form (CF art. 5º, XXXVI), only the
// correction of a material error in its last day within the range it
// records (LGE art. 201, § 2º), as its own movement. Each ban has its own
// forms; errors next to the field with what was typed, 422; the database
// changed as the API would (status, review date, last day, blocklist
// change, audit actor); other roles 403; no CSRF token 403.
func TestPageBanDecisions_CPP_art_282_art_319_CF_art_5_XXXVI(t *testing.T) {
	f := newFixture(t)
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	today := time.Now().In(loc)
	firstDay := today.AddDate(0, -1, 0)
	first := firstDay.Format("2006-01-02")
	// The judge fixed the last day one day before the one counted (CP art.
	// 10) in the sentence: the correction below restores the counted one.
	counted := time.Date(firstDay.Year()+1, firstDay.Month(), firstDay.Day(), 12, 0, 0, 0, loc).AddDate(0, 0, -1)
	if counted.Day() < firstDay.Day()-1 { // a day-number missing in the final month rolls to its last day
		counted = time.Date(firstDay.Year()+1, firstDay.Month()+1, 0, 12, 0, 0, 0, loc)
	}
	caseID, banID := f.finalBan(t, first, fmt.Sprintf(`"ban": {"months": 12, "first_day": %q, "last_day_override": %q, "override_reason": "leitura do juízo"}`,
		first, counted.AddDate(0, 0, -1).Format("2006-01-02")))
	pcase, pban := f.fileAndSentence(t, fmt.Sprintf(`"precautionary": true, "review_on": %q`, today.AddDate(0, 0, 10).Format("2006-01-02")))
	judge := f.browser(t, "judge")
	pros := f.browser(t, "prosecutor")
	pURL, sURL := fmt.Sprintf("/processos/%d", pcase), fmt.Sprintf("/processos/%d", caseID)

	// Who sees which form.
	rec := judge.do("GET", pURL, nil)
	expect(t, "judge, precautionary ban", rec.Code, 200, rec.Body.String(), "Revogar impedimento cautelar", pURL+"/revogacao", fmt.Sprintf(`name="rev[%d].reason"`, pban),
		"Renovar a medida cautelar", pURL+"/renovacao", fmt.Sprintf(`name="ren[%d].review_on"`, pban), "Revisão em "+today.AddDate(0, 0, 10).Format("02/01/2006"), "em cumprimento")
	if strings.Contains(rec.Body.String(), pURL+"/correcao") {
		t.Error("a precautionary ban is offered the correction of a last day")
	}
	rec = judge.do("GET", sURL, nil)
	expect(t, "judge, final ban", rec.Code, 200, rec.Body.String(), sURL+"/correcao", fmt.Sprintf(`name="cor[%d].last_day"`, banID), "não se prorroga", "em cumprimento")
	for _, form := range []string{"/revogacao", "/renovacao", "/prorrogacao"} {
		if strings.Contains(rec.Body.String(), sURL+form) {
			t.Errorf("a final ban is offered %s", form)
		}
	}
	for _, role := range []string{"prosecutor", "clerk", "police"} {
		body := f.browser(t, role).do("GET", pURL, nil).Body.String() + f.browser(t, role).do("GET", sURL, nil).Body.String()
		for _, form := range []string{"/revogacao", "/renovacao", "/correcao", "/detracao"} {
			if strings.Contains(body, form) {
				t.Errorf("%s sees the judge's ban form %s", role, form)
			}
		}
	}
	// The extension of a final ban is gone from the pages (CF art. 5º, XXXVI).
	if rec := judge.do("POST", sURL+"/prorrogacao", url.Values{"ban_id": {strconv.Itoa(banID)}, fmt.Sprintf("pro[%d].months", banID): {"6"}}); rec.Code != 404 && rec.Code != 405 {
		t.Errorf("the old extension form answers %d, want 404", rec.Code)
	}

	// Renew: wrong date and missing reason next to their fields, typed values kept.
	ren := func(on, reason string) url.Values {
		return url.Values{"ban_id": {strconv.Itoa(pban)}, fmt.Sprintf("ren[%d].review_on", pban): {on}, fmt.Sprintf("ren[%d].reason", pban): {reason}}
	}
	judge.do("GET", pURL, nil)
	rec = judge.do("POST", pURL+"/renovacao", ren("31/02/2027", ""))
	expect(t, "renewal to an impossible date", rec.Code, 422, rec.Body.String(),
		fmt.Sprintf(`id="f-ren-%d-review-on-erro"`, pban), fmt.Sprintf(`id="f-ren-%d-reason-erro"`, pban), `value="31/02/2027"`, "inexistente")
	rec = judge.do("POST", pURL+"/renovacao", ren(today.Format("02/01/2006"), "Persistem os motivos."))
	expect(t, "renewal to today", rec.Code, 422, rec.Body.String(), fmt.Sprintf(`id="f-ren-%d-review-on-erro"`, pban), "data futura", ">Persistem os motivos.</textarea>")
	newReview := today.AddDate(0, 2, 0)
	if rec := pros.do("POST", pURL+"/renovacao", ren(newReview.Format("02/01/2006"), "x")); rec.Code != 403 {
		t.Errorf("prosecutor renews: %d, want 403", rec.Code)
	}
	noCSRF := ren(newReview.Format("02/01/2006"), "x")
	noCSRF.Set("csrf", "")
	if rec := judge.do("POST", pURL+"/renovacao", noCSRF); rec.Code != 403 {
		t.Errorf("renewal without the CSRF token: %d, want 403", rec.Code)
	}
	judge.do("GET", pURL, nil)
	if rec := judge.do("POST", pURL+"/renovacao", ren(newReview.Format("02/01/2006"), "Persistem os motivos da cautelar.")); rec.Code != 303 {
		t.Fatalf("renewal: %d %s", rec.Code, rec.Body)
	}
	var review time.Time
	var renewals int64
	f.g.Raw("SELECT review_on FROM bans WHERE id = ?", pban).Scan(&review)
	f.g.Raw("SELECT count(*) FROM ban_renewals WHERE ban_id = ? AND reason = 'Persistem os motivos da cautelar.'", pban).Scan(&renewals)
	if review.Format("2006-01-02") != newReview.Format("2006-01-02") || renewals != 1 || f.auditBy(t, "bans", "update", "u-judge") == 0 {
		t.Errorf("after the renewal: review %s, %d renewal rows, or no audit row naming the judge", review.Format("2006-01-02"), renewals)
	}
	if page := judge.do("GET", pURL, nil).Body.String(); !strings.Contains(page, "renovada") || !strings.Contains(page, "Renovada a medida cautelar") || !strings.Contains(page, "Revisão em "+newReview.Format("02/01/2006")) {
		t.Error("the case page after the renewal: no notice, no movement or the old review date")
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
	noCSRF = rev(today.Format("02/01/2006"), "x")
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
	breach := url.Values{"desc.ban_id": {strconv.Itoa(pban)}, "desc.occurred_on": {today.Format("02/01/2006")},
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
	if !strings.Contains(page, "revogado em") || !strings.Contains(page, "Revogada em") || strings.Contains(page, pURL+"/revogacao") || strings.Contains(page, pURL+"/renovacao") {
		t.Error("the case page after the lift: no notice, no movement, or the forms still offered")
	}

	// Correction of a material error: in words, then beyond the range, next to the field.
	var before time.Time
	f.g.Raw("SELECT last_day FROM bans WHERE id = ?", banID).Scan(&before)
	cor := func(last, reason string) url.Values {
		return url.Values{"ban_id": {strconv.Itoa(banID)}, fmt.Sprintf("cor[%d].last_day", banID): {last}, fmt.Sprintf("cor[%d].reason", banID): {reason}}
	}
	judge.do("GET", sURL, nil)
	rec = judge.do("POST", sURL+"/correcao", cor("dia seis", "Erro de digitação no último dia."))
	expect(t, "correction in words", rec.Code, 422, rec.Body.String(), fmt.Sprintf(`id="f-cor-%d-last-day-erro"`, banID), `value="dia seis"`, ">Erro de digitação no último dia.</textarea>")
	beyond := before.AddDate(3, 0, 0).Format("02/01/2006")
	rec = judge.do("POST", sURL+"/correcao", cor(beyond, "Erro de digitação no último dia."))
	expect(t, "correction beyond the range", rec.Code, 422, rec.Body.String(), fmt.Sprintf(`id="f-cor-%d-last-day-erro"`, banID), "art. 201", `value="`+beyond+`"`)
	fixed := before.AddDate(0, 0, 1) // the last day counted from the first (CP art. 10)
	if rec := pros.do("POST", sURL+"/correcao", cor(fixed.Format("02/01/2006"), "x")); rec.Code != 403 {
		t.Errorf("prosecutor corrects: %d, want 403", rec.Code)
	}
	noCSRF = cor(fixed.Format("02/01/2006"), "x")
	noCSRF.Set("csrf", "")
	if rec := judge.do("POST", sURL+"/correcao", noCSRF); rec.Code != 403 {
		t.Errorf("correction without the CSRF token: %d, want 403", rec.Code)
	}
	v0, c0 = f.blocklistState(t, banID)
	judge.do("GET", sURL, nil)
	if rec := judge.do("POST", sURL+"/correcao", cor(fixed.Format("02/01/2006"), "Erro de digitação no último dia.")); rec.Code != 303 {
		t.Fatalf("correction: %d %s", rec.Code, rec.Body)
	}
	var corrected struct {
		Months         int
		LastDay        time.Time
		OverrideReason string
	}
	f.g.Raw("SELECT months, last_day, override_reason FROM bans WHERE id = ?", banID).Scan(&corrected)
	if v1, c1 := f.blocklistState(t, banID); corrected.Months != 12 || !corrected.LastDay.Equal(fixed) || corrected.OverrideReason != "Erro de digitação no último dia." || v1 <= v0 || c1 <= c0 {
		t.Errorf("corrected ban %+v, want 12 months to %s; blocklist version %d → %d, changes %d → %d", corrected, fixed.Format("2006-01-02"), v0, v1, c0, c1)
	}
	if page := judge.do("GET", sURL, nil).Body.String(); !strings.Contains(page, "Erro material corrigido") || !strings.Contains(page, "Correção de erro material") {
		t.Error("the case page after the correction: no notice or no movement")
	}
}

// The judge decides the credit for the time under a precautionary ban
// ordered in the sentence until it was final (CP art. 42: a decision,
// never automatic): the case page shows the days under the measure at the
// final ban and offers the form; more days than that are refused next to
// the field; the decision moves the last day earlier, once.
func TestPageCredit_CP_art_42(t *testing.T) {
	f := newFixture(t)
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	today := time.Now().In(loc)
	d0 := today.AddDate(0, -1, 0)
	back := f.clk.onDay(t, d0.Format("2006-01-02"))
	caseID, _ := f.fileAndSentence(t, fmt.Sprintf(`"ban": {"months": 12}, "precautionary_until_final": {"review_on": %q}`, d0.AddDate(0, 2, 0).Format("2006-01-02")))
	back()
	back = f.clk.onDay(t, d0.AddDate(0, 0, 10).Format("2006-01-02"))
	f.makeFinal(t, caseID) // the final ban starts 10 days after the measure, which it replaces
	back()
	var ban struct {
		ID      int
		LastDay time.Time
	}
	f.g.Raw("SELECT id, last_day FROM bans WHERE case_id = ? AND NOT precautionary", caseID).Scan(&ban)
	judge := f.browser(t, "judge")
	u := fmt.Sprintf("/processos/%d", caseID)
	rec := judge.do("GET", u, nil)
	expect(t, "judge, final ban after a precautionary one", rec.Code, 200, rec.Body.String(), "Tempo sob medida cautelar neste processo: 10 dias",
		u+"/detracao", fmt.Sprintf(`name="det[%d].days"`, ban.ID), "substituído pelo impedimento definitivo")
	det := func(days string) url.Values {
		return url.Values{"ban_id": {strconv.Itoa(ban.ID)}, fmt.Sprintf("det[%d].days", ban.ID): {days}, fmt.Sprintf("det[%d].reason", ban.ID): {"Tempo de cautelar idêntica."}}
	}
	rec = judge.do("POST", u+"/detracao", det("11"))
	expect(t, "credit beyond the days under the measure", rec.Code, 422, rec.Body.String(), fmt.Sprintf(`id="f-det-%d-days-erro"`, ban.ID), "10 dias", `value="11"`)
	if rec := f.browser(t, "clerk").do("POST", u+"/detracao", det("10")); rec.Code != 403 {
		t.Errorf("clerk decides the credit: %d, want 403", rec.Code)
	}
	judge.do("GET", u, nil)
	if rec := judge.do("POST", u+"/detracao", det("10")); rec.Code != 303 {
		t.Fatalf("credit: %d %s", rec.Code, rec.Body)
	}
	var after struct {
		LastDay    time.Time
		CreditDays int
	}
	f.g.Raw("SELECT last_day, credit_days FROM bans WHERE id = ?", ban.ID).Scan(&after)
	if !after.LastDay.Equal(ban.LastDay.AddDate(0, 0, -10)) || after.CreditDays != 10 {
		t.Errorf("after the credit: %+v, want the last day 10 days before %s", after, ban.LastDay.Format("2006-01-02"))
	}
	page := judge.do("GET", u, nil).Body.String()
	if !strings.Contains(page, "Detração (CP, art. 42): 10 dias descontados") || strings.Contains(page, u+"/detracao") {
		t.Error("the case page after the credit: no credit shown, or the form still offered")
	}
}

// A precautionary ban alone (CPP art. 319, II), ordered on the case page by
// the judge of the case before any sentence: refused without a review date
// (Res. CNJ 417/2021, art. 19), next to the field; in force at once (the
// blocklist has it) and docketed as a precautionary decision, not a
// conviction (no TPU 219).
func TestPagePrecautionaryAlone_CPP_art_319(t *testing.T) {
	f := newFixture(t)
	c := f.fileCase(t, "R1")
	u := fmt.Sprintf("/processos/%d", int(c["id"].(float64)))
	def := strconv.Itoa(int(c["defendants"].([]any)[0].(map[string]any)["id"].(float64)))
	judge := f.browser(t, "judge")
	rec := judge.do("GET", u, nil)
	expect(t, "judge, undecided case", rec.Code, 200, rec.Body.String(), u+"/cautelar", `name="caut.review_on"`)
	if body := f.browser(t, "clerk").do("GET", u, nil).Body.String(); strings.Contains(body, u+"/cautelar") {
		t.Error("the clerk is offered the precautionary order")
	}
	rec = judge.do("POST", u+"/cautelar", url.Values{"caut.defendant_id": {def}})
	expect(t, "without a review date nor reasoning", rec.Code, 422, rec.Body.String(), `id="f-caut-review-on-erro"`, "Res. CNJ 417/2021", `id="f-caut-text-reasoning-erro"`, "art. 93, IX")
	var n int64
	f.g.Raw("SELECT count(*) FROM bans").Scan(&n)
	if n != 0 {
		t.Fatalf("a refused order wrote %d bans", n)
	}
	if rec := f.browser(t, "prosecutor").do("POST", u+"/cautelar", url.Values{"caut.defendant_id": {def}, "caut.review_on": {"01/01/2099"}}); rec.Code != 403 {
		t.Errorf("prosecutor orders: %d, want 403", rec.Code)
	}
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	review := time.Now().In(loc).AddDate(0, 1, 0).Format("02/01/2006")
	judge.do("GET", u, nil)
	if rec := judge.do("POST", u+"/cautelar", url.Values{"caut.defendant_id": {def}, "caut.review_on": {review}, "caut.text.reasoning": {"Risco concreto de reiteração nos próximos jogos."}}); rec.Code != 303 {
		t.Fatalf("order: %d %s", rec.Code, rec.Body)
	}
	if code, body, chk := f.send(t, "GET", "/api/v1/blocklist/check/66392332154", "club", "", ""); code != 200 || chk["blocked"] != true {
		t.Errorf("blocklist after the precautionary order: %d %s", code, body)
	}
	page := judge.do("GET", u, nil).Body.String()
	expect(t, "after the order", 200, 200, page, "Medida cautelar ordenada", "Revisão em "+review, "medida cautelar (CPP, art. 319, II)", "em cumprimento")
	if strings.Contains(page, "TPU 219") {
		t.Error("the precautionary order is docketed as a conviction (TPU 219)")
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
	sentenced, sban := f.fileAndSentence(t, `"ban": {"months": 12}`)
	sentURL := fmt.Sprintf("/processos/%d", sentenced)
	rec = clerk.do("GET", sentURL, nil)
	expect(t, "clerk, sentenced case", rec.Code, 200, rec.Body.String(), sentURL+"/intimacoes", `name="int.party"`, `value="prosecution"`, `value="defence"`,
		`name="int.waived_appeal"`, "aguardando trânsito em julgado", `id="transito-falta"`, "Ministério Público")
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
	// The prosecution and the defence waive the appeal (Lei 9.099/1995, art. 82, § 1º); the
	// defendant's window still runs, so the judgment is not final and the ban still waits.
	for _, party := range []string{"prosecution", "defence"} {
		if rec := clerk.do("POST", sentURL+"/intimacoes", url.Values{"int.party": {party}, "int.defendant_id": {strconv.Itoa(def)}, "int.notified_on": {today}, "int.waived_appeal": {"true"}}); rec.Code != 303 {
			t.Fatalf("notice of %s with a waiver: %d %s", party, rec.Code, rec.Body)
		}
	}
	var waivers int64
	f.g.Raw("SELECT count(*) FROM notifications WHERE case_id = ? AND waived_appeal AND ((party = 'prosecution' AND (defendant_id IS NULL OR defendant_id = ?)) OR (party = 'defence' AND defendant_id = ?))", sentenced, def, def).Scan(&waivers)
	body := clerk.do("GET", sentURL, nil).Body.String()
	if waivers != 2 || !strings.Contains(body, "renúncia expressa ao prazo de recurso") || !strings.Contains(body, `id="transito-falta"`) || !strings.Contains(body, "corre até") || strings.Contains(body, "intimação de Ministério Público") || strings.Contains(body, "intimação do Ministério Público") {
		t.Errorf("after the waivers: %d rows; the waivers or the open window missing from the page", waivers)
	}
	var st string
	f.g.Raw("SELECT status FROM bans WHERE id = ?", sban).Scan(&st)
	if st != "awaiting_final" {
		t.Errorf("ban %d is %s while the defendant's window runs, want awaiting_final", sban, st)
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

// The breach form of the case page (LGE art. 201, § 3º): offered to the
// prosecutor and the police for the bans in force only (a ban awaiting the
// final judgment cannot be breached: Súmula 643 STJ); a breach of a
// conversion ban opens the proposed conversion, which the judge decides
// (CP art. 44, § 4º).
func TestPageBreach_LGE_art_201_sec3(t *testing.T) {
	f := newFixture(t)
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	today := time.Now().In(loc)
	waiting, _ := f.fileAndSentence(t, `"ban": {"months": 12}, "prison_months": 12`)
	final, banID := f.finalBan(t, today.AddDate(0, -1, 0).Format("2006-01-02"), `"ban": {"months": 12}, "prison_months": 12`)
	pros := f.browser(t, "prosecutor")
	if body := pros.do("GET", fmt.Sprintf("/processos/%d", waiting), nil).Body.String(); strings.Contains(body, "/descumprimento") {
		t.Error("a ban awaiting the final judgment is offered the breach form")
	}
	u := fmt.Sprintf("/processos/%d", final)
	rec := pros.do("GET", u, nil)
	expect(t, "prosecutor, ban in force", rec.Code, 200, rec.Body.String(), u+"/descumprimento", fmt.Sprintf(`<option value="%d"`, banID))
	form := url.Values{"desc.ban_id": {strconv.Itoa(banID)}, "desc.occurred_on": {today.AddDate(0, 0, -1).Format("02/01/2006")},
		"desc.source": {"police_report"}, "desc.reference": {"BO 99/2026"}}
	if rec := pros.do("POST", u+"/descumprimento", form); rec.Code != 303 {
		t.Fatalf("breach: %d %s", rec.Code, rec.Body)
	}
	var n int64
	f.g.Raw("SELECT count(*) FROM breaches WHERE ban_id = ? AND balance_days >= 30 AND decision IS NULL", banID).Scan(&n)
	page := pros.do("GET", u, nil).Body.String()
	if n != 1 || !strings.Contains(page, "Aberta a conversão em pena privativa de liberdade") {
		t.Errorf("after the breach: %d breaches with a proposed balance, or no notice of the conversion", n)
	}
}
