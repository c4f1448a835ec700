package web_test

import (
	"net/url"
	"strings"
	"testing"
)

// The forms' happy paths and wrong input: the error next to the field,
// what was typed kept, 422; success redirects (303).
func TestPageForms(t *testing.T) {
	f := newFixture(t)
	pros := f.browser(t, "prosecutor")
	pros.do("GET", "/processos/novo", nil)
	form := url.Values{"n": {"1"}, "acao": {"autuar"}, "filed_by.kind": {"prosecutor"}, "filed_by.name": {"Promotoria"},
		"defendants[0].kind": {"person"}, "defendants[0].full_name": {"Marcelo Augusto Figueiredo"}, "defendants[0].cpf": {"663.923.321-55"},
		"defendants[0].birth_date": {"22/07/1991"}, "defendants[0].mother_name": {"Sandra Figueiredo"},
		"event.competition": {"Série A"}, "event.home": {"Corinthians"}, "event.away": {"Palmeiras"}, "event.venue": {"Arena Corinthians"},
		"facts.occurred_at": {"30/03/2025"}, "facts.occurred_at_hora": {"15:20"}, "facts.latitude": {"-23,546"}, "facts.longitude": {"-46,473"},
		"facts.conduct": {"violence"}}
	rec := pros.do("POST", "/processos", form)
	if body := rec.Body.String(); rec.Code != 422 || !strings.Contains(body, `id="f-defendants-0-cpf-erro"`) || !strings.Contains(body, `value="663.923.321-55"`) {
		t.Fatalf("wrong CPF: %d %s", rec.Code, body)
	}
	form.Set("facts.occurred_at", "31/02/2025")
	if rec := pros.do("POST", "/processos", form); rec.Code != 422 || !strings.Contains(rec.Body.String(), `id="f-facts-occurred-at-erro"`) {
		t.Errorf("impossible date: %d", rec.Code)
	}
	form.Set("facts.occurred_at", "30/03/2025")
	form.Set("defendants[0].cpf", "663.923.321-54")
	rec = pros.do("POST", "/processos", form)
	if rec.Code != 303 || !strings.HasPrefix(rec.Header().Get("Location"), "/processos/") {
		t.Fatalf("filing: %d %s", rec.Code, rec.Body)
	}
	page := pros.do("GET", rec.Header().Get("Location"), nil).Body.String()
	if !strings.Contains(page, "Representação autuada") || !strings.Contains(page, "Distância") {
		t.Errorf("case page after filing: %s", page)
	}
	// A plea offer with a wrong number of months: the error next to it.
	loc := rec.Header().Get("Location")
	if rec := pros.do("POST", loc+"/acordo", url.Values{"acordo.months": {"dois"}}); rec.Code != 422 || !strings.Contains(rec.Body.String(), `id="f-acordo-months-erro"`) {
		t.Errorf("plea with months in words: %d", rec.Code)
	}

	// The group manager adds a member: wrong CPF kept, then right.
	fg := f.browser(t, "fan_group")
	fg.do("GET", "/torcida", nil)
	member := url.Values{"full_name": {"João Pedro da Silva Araújo"}, "mother_name": {"Maria José da Silva"}, "cpf": {"064.206.423-71"},
		"birth_date": {"14/03/1994"}, "rg": {"23.456.789-1"}, "rg_issuer": {"SSP/SP"}, "civil_status": {"solteiro"}, "profession": {"motoboy"},
		"address": {"Rua Itapeti, 412"}, "schooling": {"ensino médio"}}
	rec = fg.do("POST", "/torcida/associados", member)
	if rec.Code != 422 || !strings.Contains(rec.Body.String(), `id="f-cpf-erro"`) || !strings.Contains(rec.Body.String(), `value="064.206.423-71"`) {
		t.Fatalf("member with a wrong CPF: %d %s", rec.Code, rec.Body)
	}
	member.Set("cpf", "064.206.423-70")
	if rec := fg.do("POST", "/torcida/associados", member); rec.Code != 303 {
		t.Fatalf("member: %d %s", rec.Code, rec.Body)
	}
	// The register is searched like cases: every word begins a word of
	// the name, in any order, accents ignored.
	// (The first page after the POST flashes the new member's name.)
	if body := fg.do("GET", "/torcida", nil).Body.String(); !strings.Contains(body, "João Pedro da Silva Araújo") {
		t.Fatalf("the register lacks the new member")
	}
	for _, c := range []struct {
		q     string
		found bool
	}{{"joao", true}, {"joao silva", true}, {"ARAU pedro", true}, {"silva joana", false}, {"edro", false}, {"064.206", true}} {
		body := fg.do("GET", "/torcida?q="+url.QueryEscape(c.q), nil).Body.String()
		if strings.Contains(body, "João Pedro da Silva Araújo") != c.found {
			t.Errorf("register search %q: found %v, want %v", c.q, !c.found, c.found)
		}
	}

	// The admin creates a user: passwords that differ, then right.
	adm := f.browser(t, "admin")
	adm.do("GET", "/admin/usuarios", nil)
	user := url.Values{"name": {"nova-juiza"}, "role": {"judge"}, "court": {"26.0100"}, "senha": {"senha-muito-boa"}, "senha2": {"outra-senha-123"}}
	if rec := adm.do("POST", "/admin/usuarios", user); rec.Code != 422 || !strings.Contains(rec.Body.String(), `value="nova-juiza"`) || !strings.Contains(rec.Body.String(), "não conferem") {
		t.Errorf("passwords that differ: %d", rec.Code)
	}
	user.Set("senha2", "senha-muito-boa")
	if rec := adm.do("POST", "/admin/usuarios", user); rec.Code != 303 {
		t.Errorf("create user: %d %s", rec.Code, rec.Body)
	}

	// The club checks a malformed CPF.
	club := f.browser(t, "club")
	if rec := club.do("GET", "/clube?cpf=123", nil); rec.Code != 422 || !strings.Contains(rec.Body.String(), `id="f-cpf-erro"`) {
		t.Errorf("club CPF check: %d", rec.Code)
	}
	if rec := club.do("GET", "/clube/lista.csv", nil); rec.Code != 200 || !strings.HasPrefix(rec.Body.String(), "\uFEFFCPF;Nome;") {
		t.Errorf("club CSV: %d", rec.Code)
	}

	// Public: a malformed code is an error next to the field; a good one goes on.
	pub := newBrowser(t, f.srv, "192.0.2.99")
	if rec := pub.do("GET", "/verificar?codigo=abc", nil); rec.Code != 422 || !strings.Contains(rec.Body.String(), `id="f-codigo-erro"`) {
		t.Errorf("bad code: %d", rec.Code)
	}
	if rec := pub.do("GET", "/verificar?codigo=abcd+efgh+ijkl", nil); rec.Code != 303 || rec.Header().Get("Location") != "/verificar/ABCD-EFGH-IJKL" {
		t.Errorf("code: %d %s", rec.Code, rec.Header().Get("Location"))
	}
	if rec := pub.do("GET", "/impedidos?court=xx", nil); rec.Code != 422 || !strings.Contains(rec.Body.String(), `value="xx"`) {
		t.Errorf("public list with a bad court: %d", rec.Code)
	}
}

// The pages take dates as dd/mm/aaaa: a service's message asking for a
// date in the API's form (AAAA-MM-DD), such as the defendant's missing
// birth date, reads dd/mm/aaaa next to the page's field.
func TestPageFormDateMessagesSayDDMMAAAA(t *testing.T) {
	f := newFixture(t)
	pros := f.browser(t, "prosecutor")
	pros.do("GET", "/processos/novo", nil)
	form := url.Values{"n": {"1"}, "acao": {"autuar"}, "filed_by.kind": {"prosecutor"}, "filed_by.name": {"Promotoria"},
		"defendants[0].kind": {"person"}, "defendants[0].full_name": {"Marcelo Augusto Figueiredo"}, "defendants[0].cpf": {"663.923.321-54"},
		"defendants[0].mother_name": {"Sandra Figueiredo"},
		"event.competition":         {"Série A"}, "event.home": {"Corinthians"}, "event.away": {"Palmeiras"}, "event.venue": {"Arena Corinthians"},
		"facts.occurred_at": {"30/03/2025"}, "facts.occurred_at_hora": {"15:20"}, "facts.latitude": {"-23,546"}, "facts.longitude": {"-46,473"},
		"facts.conduct": {"violence"}}
	rec := pros.do("POST", "/processos", form)
	body := rec.Body.String()
	const id = `id="f-defendants-0-birth-date-erro"`
	if rec.Code != 422 || !strings.Contains(body, id) {
		t.Fatalf("missing birth date: %d, want 422 with %s", rec.Code, id)
	}
	sel := body[strings.Index(body, id):]
	sel = sel[:strings.Index(sel, "</p>")]
	if !strings.Contains(sel, "data de nascimento (dd/mm/aaaa)") || strings.Contains(body, "AAAA-MM-DD") {
		t.Errorf("the birth date's error says %q, want dd/mm/aaaa and no AAAA-MM-DD on the page", sel)
	}
}
