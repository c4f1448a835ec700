package web_test

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Page writes outside a service's transaction still name their actor in
// the audit trail: the admin's new user and court settings, the club's token.
func TestPageWritesNameTheirActor(t *testing.T) {
	f := newFixture(t)
	admin := f.browser(t, "admin")
	admin.do("GET", "/admin/usuarios", nil)
	if rec := admin.do("POST", "/admin/usuarios", url.Values{"name": {"novo-escrivao"}, "role": {"clerk"}, "court": {"26.0100"}, "senha": {"senha-muito-boa"}, "senha2": {"senha-muito-boa"}}); rec.Code != 303 {
		t.Fatalf("new user: %d %s", rec.Code, rec.Body)
	}
	admin.do("GET", "/admin/juizados", nil)
	if rec := admin.do("POST", "/admin/juizados/configuracao", url.Values{"code": {"26.0100"}, "sec7_doubles_ban": {"false"}}); rec.Code != 303 {
		t.Fatalf("court settings: %d %s", rec.Code, rec.Body)
	}
	club := f.browser(t, "club")
	club.do("GET", "/clube", nil)
	if rec := club.do("POST", "/clube/tokens", url.Values{"usuario": {strconv.FormatInt(f.users["club"].ID, 10)}, "validade": {"90d"}}); rec.Code != 303 {
		t.Fatalf("club token: %d %s", rec.Code, rec.Body)
	}
	for _, c := range []struct{ table, action, actor string }{
		{"users", "insert", "u-admin"}, {"courts", "update", "u-admin"}, {"api_tokens", "insert", "u-club"},
	} {
		var n int64
		if err := f.g.Raw("SELECT count(*) FROM audit_log WHERE table_name = ? AND action = ? AND actor_name = ?", c.table, c.action, c.actor).Scan(&n).Error; err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Errorf("no audit row for %s %s by %s", c.action, c.table, c.actor)
		}
	}
}

// A wrong time is reported next to the time field, not the date; the
// sentence form's "Recalcular" is a POST that signs nothing.
func TestPageTimeErrorAndRecalculate(t *testing.T) {
	f := newFixture(t)
	pros := f.browser(t, "prosecutor")
	pros.do("GET", "/processos/novo", nil)
	form := url.Values{"n": {"1"}, "acao": {"autuar"}, "filed_by.kind": {"prosecutor"}, "filed_by.name": {"Promotoria"},
		"defendants[0].kind": {"person"}, "defendants[0].full_name": {"Marcelo Augusto Figueiredo"}, "defendants[0].cpf": {"663.923.321-54"},
		"defendants[0].birth_date": {"22/07/1991"}, "defendants[0].mother_name": {"Sandra Figueiredo"},
		"event.competition": {"Série A"}, "event.home": {"Corinthians"}, "event.away": {"Palmeiras"}, "event.venue": {"Arena Corinthians"},
		"facts.occurred_at": {"30/03/2025"}, "facts.occurred_at_hora": {"25:10"}, "facts.conduct": {"violence"}}
	rec := pros.do("POST", "/processos", form)
	body := rec.Body.String()
	if rec.Code != 422 || !strings.Contains(body, `id="f-facts-occurred-at-hora-erro"`) || strings.Contains(body, `id="f-facts-occurred-at-erro"`) {
		t.Fatalf("wrong time: %d, want the error on the time field", rec.Code)
	}
	form.Set("facts.occurred_at_hora", "15:20")
	rec = pros.do("POST", "/processos", form)
	if rec.Code != 303 {
		t.Fatalf("filing: %d %s", rec.Code, rec.Body)
	}
	caseURL := rec.Header().Get("Location")
	judge := f.browser(t, "judge")
	page := judge.do("GET", caseURL+"/sentenca", nil).Body.String()
	if strings.Contains(page, `formmethod="get"`) {
		t.Error("the sentence form still recalculates by GET (the CSRF token would travel in the URL)")
	}
	// A later first day (the ban starts at the final judgment or later: Súmula 643 STJ).
	year := time.Now().Year() + 1
	rec = judge.do("POST", caseURL+"/sentenca", url.Values{"acao": {"recalcular"}, "ban.first_day": {fmt.Sprintf("31/01/%d", year)}, "ban.months": {"3"}, "text.reasoning": {"Autoria e materialidade provadas."},
		"reporting_duty.place": {"24º Distrito Policial"}, "reporting_duty.club": {"Corinthians"}})
	if body := rec.Body.String(); rec.Code != 200 || !strings.Contains(body, fmt.Sprintf("30/04/%d", year)) || !strings.Contains(body, "Conferido como na assinatura") {
		t.Fatalf("recalculate: %d, want the form checked, with the last day 30/04/%d\n%s", rec.Code, year, body)
	}
	var n int64
	f.g.Raw("SELECT (SELECT count(*) FROM bans) + (SELECT count(*) FROM sentences)").Scan(&n)
	if n != 0 {
		t.Fatalf("recalculating signed or saved a sentence: %d rows", n)
	}
}
