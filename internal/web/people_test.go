package web_test

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/templates"
)

var (
	invisibleParts = regexp.MustCompile(`(?is)<(script|style|head)\b.*?</(script|style|head)>|<[^>]*>`)
	spaces         = regexp.MustCompile(`\s+`)
	// internals are what a person must never read on a page (issue 30,
	// item 4): an API field or table name (snake_case), an API route, a
	// record's number after the thing it numbers, a court's code after
	// "juizado", the audit trail's SQL verbs, the technical words of the
	// verification page and a duration typed as "365d".
	internals = []*regexp.Regexp{
		regexp.MustCompile(`\b[a-z]+_[a-z_]+\b`),
		regexp.MustCompile(`/api/`),
		regexp.MustCompile(`(?i)\b(réu|ré|impedimento|torcida|torcida organizada|associado|usuário|audiência|decisão) (nº |n\. ?)?\d+(?:[^\d/]|$)`), // a number, not a date
		regexp.MustCompile(`(?i)\bjuizado \d\d\.\d{4}\b`),
		regexp.MustCompile(`\b(insert|update|delete)\b`),
		regexp.MustCompile(`SHA-256|format=json|X-Juizado|\b\d+d\b`),
	}
)

// courtCode is a court's code standing alone (not inside a CNJ number).
var courtCode = regexp.MustCompile(`(^|[^.\d])26\.0100\b`)

// visibleText is what a person reads of a page: its text without tags,
// scripts and styles, entities decoded, white space collapsed.
func visibleText(body string) string {
	return strings.TrimSpace(spaces.ReplaceAllString(html.UnescapeString(invisibleParts.ReplaceAllString(body, " ")), " "))
}

// loginNames are the fixture's account names (u-ROLE): what a person types
// to sign in, which the users page and the header may show.
var loginNames = regexp.MustCompile(`\bu-[a-z_]+\b`)

// internalsIn returns each internal found in text, with its context.
func internalsIn(text string) []string {
	text = loginNames.ReplaceAllString(text, "(conta)")
	var out []string
	for _, re := range internals {
		for _, loc := range re.FindAllStringIndex(text, -1) {
			from, to := max(0, loc[0]-40), min(len(text), loc[1]+40)
			out = append(out, fmt.Sprintf("%q in …%s…", text[loc[0]:loc[1]], text[from:to]))
		}
	}
	return out
}

// A scripted walk of the main pages as each role, over a court with a
// final sentence and its ban, a fan group and a member: no page shows a
// person an internal id, an API field, a table name or a route (issue 30,
// item 4). The header names the court by its name and the person by the
// full name.
func TestWalkShowsPeopleNoInternals(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if _, err := cases.SetCourtName(ctx, f.g, "26.0100", "Juizado Especial do Torcedor da Comarca de São Paulo"); err != nil {
		t.Fatal(err)
	}
	if err := f.g.Exec(`UPDATE users SET full_name = 'Ana Paula Ribeiro', title = 'Juíza de Direito' WHERE id = ?`, f.users["judge"].ID).Error; err != nil {
		t.Fatal(err)
	}
	caseID, _ := f.finalBan(t, "", `"ban": {"months": 3}, "reporting_duty": {"place": "24º DP", "club": "Corinthians"}`)
	pages := []string{"/", "/painel", "/processos", fmt.Sprintf("/processos/%d", caseID), "/audiencias", "/impedidos", "/verificar",
		"/torcidas/1", "/admin/usuarios", "/admin/auditoria", "/admin/juizados", "/clube", "/feriados", "/processos/novo", "/nada"}
	for _, m := range templates.Menu {
		if m.Path != "/admin/papeis" { // the access policy itself, route by route: the one technical page (the admin's)
			pages = append(pages, m.Path)
		}
	}
	walked := 0
	for _, role := range accounts.Roles {
		b := f.browser(t, role)
		seen := map[string]bool{}
		for _, p := range pages {
			if seen[p] {
				continue
			}
			seen[p] = true
			rec := b.do("GET", p, nil)
			if rec.Code == 403 || rec.Code == 303 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
				continue
			}
			walked++
			text := visibleText(rec.Body.String())
			for _, bad := range internalsIn(text) {
				t.Errorf("%s as %s (%d): %s", p, role, rec.Code, bad)
			}
			// The court's settings and its DataJud export show the code
			// the CNJ gives it, as a labelled field.
			if courtCode.MatchString(text) && p != "/admin/juizados" && p != "/admin/datajud" {
				t.Errorf("%s as %s shows the court's code, not its name", p, role)
			}
		}
	}
	if walked < 40 {
		t.Errorf("walked %d pages, want the main pages of every role", walked)
	}
	// The header and the case name the judge and the court as people know
	// them.
	body := visibleText(f.browser(t, "judge").do("GET", fmt.Sprintf("/processos/%d", caseID), nil).Body.String())
	for _, w := range []string{"Ana Paula Ribeiro", "Juizado Especial do Torcedor da Comarca de São Paulo"} {
		if !strings.Contains(body, w) {
			t.Errorf("the judge's case page has no %q", w)
		}
	}
	if strings.Contains(body, "u-judge (") {
		t.Errorf("the header names the judge by the login name")
	}
}

// The admin creates a user with a full name and title (shown in the list,
// the login name apart) and gives a user of the court a new password,
// with which the person signs in; a password too short is refused on the
// field. `juizado user create --full-name --title` is the same spec.
func TestAdminCreatesPeopleAndResetsPasswords(t *testing.T) {
	f := newFixture(t)
	adm := f.browser(t, "admin")
	adm.do("GET", "/admin/usuarios", nil)
	form := url.Values{"name": {"juiza-ana"}, "full_name": {"Ana Paula Ribeiro"}, "title": {"Juíza de Direito"}, "role": {"judge"},
		"senha": {"senha-muito-boa"}, "senha2": {"senha-muito-boa"}}
	if rec := adm.do("POST", "/admin/usuarios", form); rec.Code != 303 {
		t.Fatalf("create: %d %s", rec.Code, between(rec.Body.String(), "<main", "</main>"))
	}
	var u accounts.User
	if err := f.g.Where("name = 'juiza-ana'").Find(&u).Error; err != nil || u.FullName == nil || *u.FullName != "Ana Paula Ribeiro" || u.Title == nil || *u.Title != "Juíza de Direito" {
		t.Fatalf("stored %+v %v", u, err)
	}
	page := adm.do("GET", "/admin/usuarios", nil).Body.String()
	if !strings.Contains(page, "Ana Paula Ribeiro") {
		t.Errorf("the list does not show the full name")
	}
	for _, bad := range internalsIn(visibleText(page)) {
		t.Errorf("users page: %s", bad)
	}

	clerk := f.users["clerk"]
	if rec := adm.do("POST", fmt.Sprintf("/admin/usuarios/%d/senha", clerk.ID), url.Values{"senha": {"curta"}, "senha2": {"curta"}}); rec.Code != 422 ||
		!strings.Contains(rec.Body.String(), "A nova senha deve ter de 10") {
		t.Errorf("short password: %d", rec.Code)
	}
	adm.do("GET", "/admin/usuarios", nil)
	if rec := adm.do("POST", fmt.Sprintf("/admin/usuarios/%d/senha", clerk.ID), url.Values{"senha": {"nova-senha-do-cartorio"}, "senha2": {"nova-senha-do-cartorio"}}); rec.Code != 303 {
		t.Fatalf("reset: %d %s", rec.Code, rec.Body)
	}
	b := newBrowser(t, f.srv, "192.0.2.77")
	if rec := b.login(clerk.Name, "nova-senha-do-cartorio"); rec.Code != 303 {
		t.Errorf("sign-in with the new password: %d", rec.Code)
	}
	b = newBrowser(t, f.srv, "192.0.2.78")
	if rec := b.login(clerk.Name, "senha-de-teste-clerk"); rec.Code == 303 {
		t.Errorf("the old password still signs in")
	}
}

// The site has an icon: the pages link it and both addresses answer the
// SVG to anyone.
func TestFavicon(t *testing.T) {
	f := newFixture(t)
	for _, p := range []string{"/favicon.svg", "/favicon.ico"} {
		rec := f.ask("GET", p, browserAccept, "")
		if rec.Code != 200 || rec.Header().Get("Content-Type") != "image/svg+xml" || !strings.HasPrefix(rec.Body.String(), "<svg") {
			t.Errorf("GET %s: %d %s", p, rec.Code, rec.Header().Get("Content-Type"))
		}
	}
	for _, p := range []string{"/", "/verificar"} {
		if body := f.ask("GET", p, browserAccept, "").Body.String(); !strings.Contains(body, `<link rel="icon" href="/favicon.svg"`) {
			t.Errorf("%s does not link the icon", p)
		}
	}
	if body := f.browser(t, "clerk").do("GET", "/painel", nil).Body.String(); !strings.Contains(body, `<link rel="icon" href="/favicon.svg"`) {
		t.Errorf("the panel does not link the icon")
	}
}

var summaryLink = regexp.MustCompile(`<li><a href="#([^"]+)">([^<]+)</a></li>`)

// A form that fails lists each field's problem at the top, in an alert
// that takes the focus (autofocus), each line a link to the field's input
// on the page; required fields are marked; no message names an API field.
func TestFormErrorSummaryLinksEachField(t *testing.T) {
	f := newFixture(t)
	pros := f.browser(t, "prosecutor")
	page := pros.do("GET", "/processos/novo", nil).Body.String()
	if !strings.Contains(page, `<abbr title="obrigatório">*</abbr>`) {
		t.Errorf("the filing form marks no required field")
	}
	form := url.Values{"n": {"1"}, "acao": {"autuar"}, "filed_by.kind": {"prosecutor"}, "filed_by.name": {"Promotoria"},
		"defendants[0].kind": {"person"}, "defendants[0].full_name": {"Marcelo Augusto Figueiredo"}, "defendants[0].cpf": {"663.923.321-55"},
		"defendants[0].birth_date": {"22/07/1991"}, "defendants[0].mother_name": {"Sandra Figueiredo"},
		"facts.occurred_at": {"31/02/2025"}, "facts.occurred_at_hora": {"15:20"}, "facts.conduct": {"violence"}}
	rec := pros.do("POST", "/processos", form)
	body := rec.Body.String()
	summary := between(body, `id="resumo-erros"`, "</div>")
	if rec.Code != 422 || summary == "" || !strings.Contains(body, `id="resumo-erros" role="alert" tabindex="-1" autofocus`) {
		t.Fatalf("no error summary: %d %.600s", rec.Code, between(body, "<main", "</main>"))
	}
	links := summaryLink.FindAllStringSubmatch(summary, -1)
	if len(links) < 2 {
		t.Fatalf("summary lists %d fields, want the CPF and the date: %s", len(links), summary)
	}
	for _, l := range links {
		if !strings.Contains(body, `id="`+l[1]+`"`) {
			t.Errorf("summary links #%s (%s), which the page has not", l[1], l[2])
		}
		for _, bad := range internalsIn(l[2]) {
			t.Errorf("summary line: %s", bad)
		}
	}
}

// The case search finds a case by a part of its number (punctuation
// ignored), by a defendant's CPF and by class (TPU), and says what to type
// when the part is too short.
func TestCaseSearchByPartialNumberCPFAndClass(t *testing.T) {
	f := newFixture(t)
	r1 := f.fileCase(t, "R1")
	f.fileCase(t, "R2")
	code, body, r3 := f.send(t, "POST", "/api/v1/cases", "police", "application/json", representation(t, "R3"))
	if code != 201 {
		t.Fatalf("R3: %d %s", code, body)
	}
	clerk := f.browser(t, "clerk")
	found := func(query string) []string {
		t.Helper()
		rec := clerk.do("GET", "/processos?"+query, nil)
		if rec.Code != 200 {
			t.Fatalf("%s: %d %s", query, rec.Code, between(rec.Body.String(), "<main", "</main>"))
		}
		var out []string
		for _, m := range regexp.MustCompile(`<a href="/processos/\d+">([^<]+)</a>`).FindAllStringSubmatch(rec.Body.String(), -1) {
			out = append(out, m[1])
		}
		return out
	}
	n1, n3 := r1["number"].(string), r3["number"].(string)
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"number=" + url.QueryEscape(n1[:10]), []string{n1}},                          // "NNNNNNN-DD"
		{"number=" + strings.NewReplacer("-", "", ".", "").Replace(n1), []string{n1}}, // the 20 digits
		{"cpf=" + url.QueryEscape("663.923.321-54"), []string{n1}},
		{"cpf=66392332154", []string{n1}},
		{"class=278", []string{n3}}, // Termo Circunstanciado: the police's filing
	} {
		if got := found(tc.query); strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s: found %v, want %v", tc.query, got, tc.want)
		}
	}
	if got := found("number=" + url.QueryEscape(n1[11:])); len(got) != 3 { // "AAAA.J.TR.OOOO": every case of the year
		t.Errorf("a part common to every case found %v", got)
	}
	rec := clerk.do("GET", "/processos?number=12", nil)
	if rec.Code != 422 || !strings.Contains(rec.Body.String(), "ao menos 4 dígitos") {
		t.Errorf("number=12: %d", rec.Code)
	}
	if page := clerk.do("GET", "/processos", nil).Body.String(); !strings.Contains(page, `name="cpf"`) || !strings.Contains(page, "Termo Circunstanciado") {
		t.Errorf("the search form has no CPF field or class")
	}
}

// The import page offers the model spreadsheet: Windows-1252 with `;` and
// CRLF, the fixtures' header, which the import reads back (its one example
// row refused for its CPF, nothing written).
func TestImportModelSpreadsheet(t *testing.T) {
	f := newFixture(t)
	mgr := f.browser(t, "fan_group")
	if page := mgr.do("GET", "/torcida/importar", nil).Body.String(); !strings.Contains(page, `href="/torcida/modelo.csv"`) {
		t.Errorf("the import page does not offer the model")
	}
	rec := mgr.do("GET", "/torcida/modelo.csv", nil)
	if rec.Code != 200 || !strings.Contains(rec.Header().Get("Content-Disposition"), "modelo-cadastro-de-associados.csv") {
		t.Fatalf("model: %d %v", rec.Code, rec.Header())
	}
	raw := rec.Body.Bytes()
	fixture, err := os.ReadFile("../../../shared/fixtures/members-valid-excel-ptbr.csv")
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := bytes.Cut(fixture, []byte("\r\n"))
	if !bytes.HasPrefix(raw, append(head, '\r', '\n')) {
		t.Errorf("model header %q, want the fixture's %q", raw[:min(len(raw), len(head)+2)], head)
	}
	if !bytes.Contains(raw, []byte{0xe3}) || utf8.Valid(raw) { // "ã" in Windows-1252
		t.Errorf("the model is not Windows-1252")
	}
	code, body, _ := f.send(t, "POST", "/api/v1/groups/1/members/import?dry_run=true", "fan_group", "text/csv", string(raw))
	if code == 201 || !strings.Contains(body, "CPF") {
		t.Errorf("the model's example row imported: %d %.300s", code, body)
	}
}

// The certidão de trânsito em julgado: refused (409) while the case is not
// final; once final, a PDF with its verification code, which the public
// verification recognises as this kind of document for this case, and
// whose text names the party and the day; the case page links it.
func TestFinalJudgmentCertificate(t *testing.T) {
	f := newFixture(t)
	c := f.fileCase(t, "R2")
	if rec := f.call("GET", fmt.Sprintf("/api/v1/cases/%d/documents/final.pdf", int(c["id"].(float64))), f.tokens["clerk"]); rec.Code != 409 ||
		!strings.Contains(rec.Body.String(), "ainda não transitou em julgado") {
		t.Errorf("a case not final: %d %s", rec.Code, rec.Body)
	}
	caseID, _ := f.finalBan(t, "", `"ban": {"months": 3}, "reporting_duty": {"place": "24º DP", "club": "Corinthians"}`)
	clerk := f.browser(t, "clerk")
	if page := clerk.do("GET", fmt.Sprintf("/processos/%d", caseID), nil).Body.String(); !strings.Contains(page, fmt.Sprintf(`href="/processos/%d/certidao-transito.pdf"`, caseID)) {
		t.Errorf("the final case's page does not link the certidão")
	}
	rec := clerk.do("GET", fmt.Sprintf("/processos/%d/certidao-transito.pdf", caseID), nil)
	code := rec.Header().Get("X-Juizado-Document-Code")
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/pdf" || len(code) != 14 || !bytes.HasPrefix(rec.Body.Bytes(), []byte("%PDF")) {
		t.Fatalf("certidão: %d %s code %q", rec.Code, rec.Header().Get("Content-Type"), code)
	}
	v := f.do("GET", "/verificar/"+code+"?format=json", "", "", nil, "")
	m := decode(t, v)
	if v.Code != 200 || m["kind"] != "final" || m["title"] != "Certidão de trânsito em julgado" {
		t.Errorf("verification: %d %v", v.Code, m)
	}
	if _, err := exec.LookPath("pdftotext"); err == nil {
		p := t.TempDir() + "/c.pdf"
		if err := os.WriteFile(p, rec.Body.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("pdftotext", "-enc", "UTF-8", p, "-").Output()
		text := spaces.ReplaceAllString(string(out), " ")
		for _, w := range []string{"CERTIDÃO DE TRÂNSITO EM JULGADO", "Marcelo Augusto Figueiredo", "663.923.321-54", "transitou em julgado", code} {
			if err != nil || !strings.Contains(text, w) {
				t.Errorf("certidão text has no %q: %v %.800s", w, err, text)
			}
		}
	}
	if rec := f.call("GET", fmt.Sprintf("/api/v1/cases/%d/documents/final.pdf", caseID), f.tokens["police"]); rec.Code != 403 {
		t.Errorf("police: %d, want 403", rec.Code)
	}
}

var hiddenSection = regexp.MustCompile(`data-resultado="([a-z ]+)"( hidden)?`)

// The sentence form shows the sections of the chosen outcome only (the
// others carry hidden; the choice arrives with the form, so it works
// without a script), and "Revisar e assinar" saves the minuta and shows
// the decision as it will be signed, with the one button that signs it.
func TestSentenceFormShowsTheOutcomeAndReviewsBeforeSigning(t *testing.T) {
	f := newFixture(t)
	_, caseURL, def := f.receivedCase(t, "R1")
	judge := f.browser(t, "judge")
	sections := func(body string) map[string]bool { // data-resultado → shown
		out := map[string]bool{}
		for _, m := range hiddenSection.FindAllStringSubmatch(body, -1) {
			out[m[1]] = out[m[1]] || m[2] == ""
		}
		return out
	}
	for outcome, want := range map[string]map[string]bool{
		"":          {"ban prison": true, "ban": true, "acquittal": false},
		"ban":       {"ban prison": true, "ban": true, "acquittal": false},
		"prison":    {"ban prison": true, "ban": false, "acquittal": false},
		"acquittal": {"ban prison": false, "ban": false, "acquittal": true},
	} {
		body := judge.do("GET", caseURL+"/sentenca?defendant_id="+def+"&outcome="+outcome, nil).Body.String()
		if got := sections(body); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("outcome %q: sections shown %v, want %v", outcome, got, want)
		}
	}
	body := judge.do("GET", caseURL+"/sentenca", nil).Body.String()
	if !strings.Contains(body, `value="revisar"`) || strings.Contains(body, `value="assinar"`) || strings.Contains(body, `id="revisao"`) {
		t.Errorf("the form signs with no review step")
	}
	form := url.Values{"acao": {"revisar"}, "defendant_id": {def}, "ban.months": {"12"}, "eligible": {"true"}, "sec7_doubles_ban": {"true"},
		"reporting_duty.place": {"2º DP"}, "reporting_duty.club": {"Corinthians"}, "text.reasoning": {"Autoria provada."}}
	rec := judge.do("POST", caseURL+"/sentenca", form)
	if rec.Code != 303 || !strings.Contains(rec.Header().Get("Location"), "revisar=1") {
		t.Fatalf("review: %d %s %.500s", rec.Code, rec.Header().Get("Location"), between(rec.Body.String(), "<main", "</main>"))
	}
	var signed int64
	f.g.Raw("SELECT count(*) FROM sentences WHERE status = 'signed'").Scan(&signed)
	if signed != 0 {
		t.Fatalf("the review signed")
	}
	loc, _, _ := strings.Cut(rec.Header().Get("Location"), "#") // a browser keeps the fragment
	body = judge.do("GET", loc, nil).Body.String()
	review := between(body, `id="revisao"`, "</section>")
	if !strings.Contains(review, "minuta.pdf?defendant_id="+def) || !strings.Contains(body, `value="assinar"`) || !strings.Contains(body, `value="12"`) {
		t.Fatalf("review page: %.1500s", between(body, "<main", "</main>"))
	}
	if pdfRec := judge.do("GET", caseURL+"/minuta.pdf?defendant_id="+def, nil); pdfRec.Code != 200 || pdfRec.Header().Get("Content-Type") != "application/pdf" {
		t.Errorf("the decision as it will be signed: %d", pdfRec.Code)
	}
	form.Set("acao", "assinar")
	if rec := judge.do("POST", caseURL+"/sentenca", form); rec.Code != 303 {
		t.Fatalf("sign: %d %.500s", rec.Code, between(rec.Body.String(), "<main", "</main>"))
	}
	f.g.Raw("SELECT count(*) FROM sentences WHERE status = 'signed'").Scan(&signed)
	if signed != 1 {
		t.Errorf("%d signed sentences after signing, want 1", signed)
	}
}
