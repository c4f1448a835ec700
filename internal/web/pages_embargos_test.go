package web_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// Lei 9.099/1995, art. 83 on the case page: the clerk records embargos de
// declaração (errors next to the fields), the judge of the case rules on
// them with the reasoning (CF art. 93, IX), and the page lists them.
func TestPageEmbargos_Lei9099_art83(t *testing.T) {
	f := newFixture(t)
	caseID, _ := f.fileAndSentence(t, `"ban": {"months": 12}`)
	var def int64
	f.g.Raw("SELECT id FROM defendants WHERE case_id = ?", caseID).Scan(&def)
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	today := time.Now().In(loc).Format("02/01/2006")
	clerk, judge := f.browser(t, "clerk"), f.browser(t, "judge")
	page := fmt.Sprintf("/processos/%d", caseID)
	rec := clerk.do("GET", page, nil)
	expect(t, "clerk, sentenced case", rec.Code, 200, rec.Body.String(), page+"/embargos")
	rec = clerk.do("POST", page+"/embargos", url.Values{"emb.defendant_id": {fmt.Sprint(def)}, "emb.party": {"defence"}, "emb.filed_on": {today}})
	expect(t, "embargos without text", rec.Code, 422, rec.Body.String(), `id="f-emb-text-erro"`)
	rec = clerk.do("POST", page+"/embargos", url.Values{"emb.defendant_id": {fmt.Sprint(def)}, "emb.party": {"defence"}, "emb.filed_on": {today}, "emb.text": {"Omissão quanto à detração."}})
	if rec.Code != 303 {
		t.Fatalf("embargos: %d %s", rec.Code, rec.Body)
	}
	rec = judge.do("GET", page, nil)
	expect(t, "judge, embargos pending", rec.Code, 200, rec.Body.String(), page+"/embargos/decisao", "aguardam decisão")
	var emb int64
	f.g.Raw("SELECT id FROM embargos WHERE case_id = ?", caseID).Scan(&emb)
	rec = judge.do("POST", page+"/embargos/decisao", url.Values{"dec.embargos_id": {fmt.Sprint(emb)}, "dec.text": {"Não há omissão."}})
	expect(t, "ruling without the verdict", rec.Code, 422, rec.Body.String(), `id="f-dec-granted-erro"`)
	rec = judge.do("POST", page+"/embargos/decisao", url.Values{"dec.embargos_id": {fmt.Sprint(emb)}, "dec.granted": {"false"}, "dec.text": {"Não há omissão."}})
	if rec.Code != 303 {
		t.Fatalf("ruling: %d %s", rec.Code, rec.Body)
	}
	if body := judge.do("GET", page, nil).Body.String(); !strings.Contains(body, "rejeitados em "+today) || strings.Contains(body, page+"/embargos/decisao") {
		t.Error("the page after the ruling: no verdict, or the ruling form still offered")
	}
}

// CPP art. 617 on the case page: the clerk records the defence's appeal
// in the step form (and.party), and the Turma's harsher term on it is
// refused next to the field citing the article; with the prosecution
// among the appellants (rec.appellants) it is recorded.
func TestPageAppealResultReformatioInPejus_CPP617(t *testing.T) {
	f := newFixture(t)
	caseID, _ := f.fileAndSentence(t, `"ban": {"months": 12}`)
	var def int64
	f.g.Raw("SELECT id FROM defendants WHERE case_id = ?", caseID).Scan(&def)
	clerk := f.browser(t, "clerk")
	page := fmt.Sprintf("/processos/%d", caseID)
	clerk.do("GET", page, nil)
	rec := clerk.do("POST", page+"/andamento", url.Values{"and.to": {"appeal"}, "and.defendant_id": {fmt.Sprint(def)}, "and.party": {"defence"}})
	if rec.Code != 303 {
		t.Fatalf("appeal: %d %s", rec.Code, rec.Body)
	}
	form := url.Values{"rec.result": {"reformed"}, "rec.defendant_id": {fmt.Sprint(def)}, "rec.ban.months": {"24"}}
	rec = clerk.do("POST", page+"/recurso", form)
	expect(t, "harsher on the defence's appeal", rec.Code, 422, rec.Body.String(), `id="f-rec-ban-months-erro"`, "art. 617")
	form.Set("rec.appellants", "defence,prosecution")
	rec = clerk.do("POST", page+"/recurso", form)
	expect(t, "the prosecution named without its appeal", rec.Code, 422, rec.Body.String(), `id="f-rec-appellants-erro"`, "art. 617")
	if rec = clerk.do("POST", page+"/andamento", url.Values{"and.to": {"appeal"}, "and.defendant_id": {fmt.Sprint(def)}, "and.party": {"prosecution"}}); rec.Code != 303 {
		t.Fatalf("the prosecution's appeal: %d %s", rec.Code, rec.Body)
	}
	if rec = clerk.do("POST", page+"/recurso", form); rec.Code != 303 {
		t.Fatalf("result with the prosecution's appeal: %d %s", rec.Code, rec.Body)
	}
	var months int
	f.g.Raw("SELECT months FROM bans WHERE case_id = ? AND status = 'awaiting_final'", caseID).Scan(&months)
	if months != 24 {
		t.Errorf("the reformed term is %d months, want 24", months)
	}
}
