package main

// Browser test: Debian's Chromium, driven by chromedp, against the real
// server started in-process on 127.0.0.1:0. A prosecutor files the fixture
// representation R1 (first with a wrong CPF, seen next to its field), a
// judge sentences it, the public list shows the name, the club checks the
// CPF and downloads the CSV with it, and a group manager imports the
// spreadsheet with errors (every error shown) and then the valid one.
// Screenshots of each step, at desktop and phone widths, are written to
// $JUIZADO_SCREENSHOTS or a temporary folder (printed with t.Log).

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/sharedfix"
)

// chromiumPath finds Debian's Chromium; under `make test` (MAKELEVEL) or
// CI a missing browser fails the test instead of skipping it.
func chromiumPath(t *testing.T) string {
	for _, p := range []string{os.Getenv("JUIZADO_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p != "" {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	if os.Getenv("MAKELEVEL") != "" || os.Getenv("CI") != "" {
		t.Fatal("chromium is missing: `make deps` installs Debian's chromium")
	}
	t.Skip("chromium is missing (make test installs it)")
	return ""
}

type browserRun struct {
	t    *testing.T
	ctx  context.Context
	base string
	dir  string
	step int
}

func (b *browserRun) run(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.shot("falha-" + what)
		b.t.Fatalf("%s: %v", what, err)
	}
}

// shot saves the page at desktop width (full page) and at a phone's.
func (b *browserRun) shot(name string) {
	b.t.Helper()
	b.step++
	for _, w := range []struct {
		label         string
		width, height int64
		mobile        bool
	}{{"desktop", 1280, 900, false}, {"celular", 390, 844, true}} {
		ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
		opts := []chromedp.EmulateViewportOption{}
		if w.mobile {
			opts = append(opts, chromedp.EmulateMobile, chromedp.EmulatePortrait)
		}
		err := chromedp.Do(ctx, chromedp.EmulateViewport(w.width, w.height, opts...))
		var buf []byte
		if err == nil {
			buf, err = chromedp.Run(ctx, chromedp.FullScreenshot(100)) // quality 100: PNG
		}
		cancel()
		if err != nil {
			b.t.Logf("screenshot %s: %v", name, err)
			continue
		}
		p := filepath.Join(b.dir, fmt.Sprintf("%02d-%s-%s.png", b.step, name, w.label))
		if err := os.WriteFile(p, buf, 0o644); err != nil {
			b.t.Fatal(err)
		}
	}
	_ = chromedp.Do(b.ctx, chromedp.EmulateViewport(1280, 900))
}

func (b *browserRun) login(name, pw string) {
	b.t.Helper()
	b.run("entrar como "+name,
		chromedp.Navigate(b.base+"/entrar"),
		chromedp.WaitVisible(chromedp.CSS("#usuario")),
		chromedp.SendKeys(chromedp.CSS("#usuario"), name),
		chromedp.SendKeys(chromedp.CSS("#senha"), pw),
		chromedp.Submit(chromedp.CSS("#senha")),
		chromedp.WaitVisible(chromedp.CSS("nav.menu")),
	)
}

func (b *browserRun) logout() {
	b.t.Helper()
	b.run("sair", chromedp.Click(chromedp.CSS(`header.topo form button`)), chromedp.WaitVisible(chromedp.CSS("#usuario")))
}

func (b *browserRun) text(sel string) string {
	b.t.Helper()
	return value(b, "ler "+sel, chromedp.Text(chromedp.CSS(sel)))
}

// value runs an action that gives a value.
func value[T any](b *browserRun, what string, a chromedp.Action[T]) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		b.shot("falha-" + what)
		b.t.Fatalf("%s: %v", what, err)
	}
	return v
}

// set fills a text field (cleared first) by id.
// submitAndWait submits the form of the field sel and waits for the page
// that answers it (a new window object, fully loaded).
func (b *browserRun) submitAndWait(what, sel string) {
	b.t.Helper()
	value(b, "marcar a página: "+what, chromedp.Evaluate[bool](`window.__antes = true`))
	b.run(what, chromedp.Submit(chromedp.CSS(sel)))
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		// Errors while the page navigates are expected: ask again.
		loaded, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`!window.__antes && document.readyState === 'complete'`))
		if err == nil && loaded {
			return
		}
		if time.Now().After(deadline) {
			b.shot("falha-" + strings.ReplaceAll(what, " ", "-"))
			b.t.Fatalf("%s: the answer did not load: %v", what, err)
		}
	}
}

func set(id, value string) chromedp.Action[chromedp.Void] {
	return chromedp.SetValue(chromedp.CSS("#"+id), value)
}

func TestBrowserFlow(t *testing.T) {
	exe := chromiumPath(t)
	clk := clock.NewFixed(time.Date(2026, 3, 1, 10, 0, 0, 0, saoPaulo))
	m, ctx := startInProcess(t, clk)
	if err := cases.EnsureCourt(ctx, m.DB, "26.0100", ""); err != nil {
		t.Fatal(err)
	}
	var groupID int64
	if err := m.DB.Raw("INSERT INTO fan_groups (name, court_code) VALUES ('Torcida Organizada Garra do Tatuapé', '26.0100') RETURNING id").Scan(&groupID).Error; err != nil {
		t.Fatal(err)
	}
	const pw = "senha-de-teste-123"
	for _, spec := range []accounts.UserSpec{
		{Name: "juiza", Role: "judge", Court: "26.0100"},
		{Name: "promotora", Role: "prosecutor", Court: "26.0100"},
		{Name: "escrivao", Role: "clerk", Court: "26.0100"},
		{Name: "portaria", Role: "club", Club: "Palmeiras"},
		{Name: "gestor", Role: "fan_group", Group: groupID},
	} {
		u, _, err := accounts.EnsureUser(ctx, m.DB, spec)
		if err != nil {
			t.Fatal(err)
		}
		if err := accounts.SetPassword(ctx, m.DB, u.ID, pw); err != nil {
			t.Fatal(err)
		}
	}
	dir := os.Getenv("JUIZADO_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "juizado-screenshots", time.Now().Format("20060102-150405"))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots: %s", dir)

	opts := append([]chromedp.ExecAllocatorOption{},
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("lang", "pt-BR"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	b := &browserRun{t: t, ctx: bctx, base: "http://" + m.Addr(), dir: dir}
	if err := chromedp.Do(bctx, chromedp.Navigate(b.base+"/entrar")); err != nil { // starts the browser (no timeout here)
		t.Fatal(err)
	}

	// 1. The prosecutor files R1; first with a wrong CPF.
	var r1 struct {
		FiledBy    struct{ Name string } `json:"filed_by"`
		Defendants []struct {
			FullName   string `json:"full_name"`
			CPF        string `json:"cpf"`
			BirthDate  string `json:"birth_date"`
			MotherName string `json:"mother_name"`
		}
		Event struct{ Competition, Home, Away, Venue, Kickoff string }
		Facts struct {
			OccurredAt    string   `json:"occurred_at"`
			Latitude      float64  `json:"latitude"`
			Longitude     float64  `json:"longitude"`
			Conduct       []string `json:"conduct"`
			PoliceReports []string `json:"police_reports"`
			Description   string   `json:"description"`
		}
	}
	if err := json.Unmarshal(fixtures(t)["R1"], &r1); err != nil {
		t.Fatal(err)
	}
	br := func(iso string) string { return iso[8:10] + "/" + iso[5:7] + "/" + iso[0:4] }
	kick, _ := time.Parse(time.RFC3339, r1.Event.Kickoff)
	occ, _ := time.Parse(time.RFC3339, r1.Facts.OccurredAt)
	d := r1.Defendants[0]
	b.login("promotora", pw)
	b.shot("promotora-painel")
	fill := []chromedp.Action[chromedp.Void]{
		chromedp.Navigate(b.base + "/processos/novo"),
		chromedp.WaitVisible(chromedp.CSS("#f-filed-by-name")),
		set("f-filed-by-name", r1.FiledBy.Name),
		set("f-defendants-0-full-name", d.FullName),
		set("f-defendants-0-cpf", "663.923.321-55"), // wrong check digits
		set("f-defendants-0-birth-date", br(d.BirthDate)),
		set("f-defendants-0-mother-name", d.MotherName),
		set("f-event-competition", r1.Event.Competition),
		set("f-event-home", r1.Event.Home),
		set("f-event-away", r1.Event.Away),
		chromedp.SetValue(chromedp.CSS("#f-event-venue"), r1.Event.Venue),
		set("f-event-kickoff", kick.In(saoPaulo).Format("02/01/2006")),
		set("f-event-kickoff-hora", kick.In(saoPaulo).Format("15:04")),
		set("f-facts-occurred-at", occ.In(saoPaulo).Format("02/01/2006")),
		set("f-facts-occurred-at-hora", occ.In(saoPaulo).Format("15:04")),
		set("f-facts-latitude", strings.Replace(strconv.FormatFloat(r1.Facts.Latitude, 'f', -1, 64), ".", ",", 1)),
		set("f-facts-longitude", strings.Replace(strconv.FormatFloat(r1.Facts.Longitude, 'f', -1, 64), ".", ",", 1)),
		set("f-facts-police-reports", strings.Join(r1.Facts.PoliceReports, "\n")),
		set("f-facts-description", r1.Facts.Description),
	}
	for _, w := range r1.Facts.Conduct {
		fill = append(fill, chromedp.Click(chromedp.CSS(`input[name="facts.conduct"][value="`+w+`"]`)))
	}
	b.run("preencher a representação", fill...)
	b.shot("representacao-preenchida")
	b.run("autuar com CPF errado", chromedp.Click(chromedp.CSS(`button[value="autuar"]`)), chromedp.WaitVisible(chromedp.CSS("#f-defendants-0-cpf-erro")))
	if msg := b.text("#f-defendants-0-cpf-erro"); !strings.Contains(strings.ToLower(msg), "cpf") && !strings.Contains(msg, "dígito") {
		t.Errorf("the CPF's error next to it: %q", msg)
	}
	kept := value(b, "o CPF digitado continua", chromedp.Value(chromedp.CSS("#f-defendants-0-cpf")))
	if kept != "663.923.321-55" {
		t.Errorf("typed CPF not kept: %q", kept)
	}
	b.shot("representacao-cpf-errado")
	b.run("corrigir o CPF e autuar", set("f-defendants-0-cpf", d.CPF),
		chromedp.Click(chromedp.CSS(`button[value="autuar"]`)), chromedp.WaitVisible(chromedp.CSS("#partes")))
	notice := b.text("p.aviso")
	if !strings.Contains(notice, "Representação autuada") || !strings.Contains(notice, "Distância") {
		t.Errorf("after filing: %q", notice)
	}
	caseURL := value(b, "endereço do processo", chromedp.Location())
	caseID := regexp.MustCompile(`/processos/(\d+)`).FindStringSubmatch(caseURL)
	if caseID == nil {
		t.Fatalf("not on the case page: %s", caseURL)
	}
	b.shot("processo-autuado")
	b.logout()

	// The preliminary phase, the oral accusation and its receipt (Lei
	// 9.099/1995, arts. 72, 77 and 81): no sentence before it.
	for _, step := range []struct{ who, to string }{
		{"escrivao", "preliminary_hearing"}, {"promotora", "accusation"}, {"escrivao", "instruction_hearing"},
	} {
		b.login(step.who, pw)
		b.run("abrir o processo para "+step.to, chromedp.Navigate(b.base+"/processos/"+caseID[1]), chromedp.WaitVisible(chromedp.CSS("#f-and-to")),
			chromedp.SetValue(chromedp.CSS("#f-and-to"), step.to))
		b.submitAndWait("andamento "+step.to, "#f-and-to")
		if n := value(b, "erros do andamento", chromedp.Evaluate[int](`document.querySelectorAll('.com-erro').length`)); n != 0 {
			b.shot("falha-andamento-" + step.to)
			t.Fatalf("moving to %s: %d fields in error", step.to, n)
		}
		b.logout()
	}

	// 2. The judge sentences it.
	b.login("juiza", pw)
	b.run("meus processos", chromedp.Navigate(b.base+"/processos"), chromedp.WaitVisible(chromedp.CSS(`a[href="/processos/`+caseID[1]+`"]`)))
	b.shot("juiza-meus-processos")
	b.run("formulário da sentença", chromedp.Navigate(b.base+"/processos/"+caseID[1]+"/sentenca"), chromedp.WaitVisible(chromedp.CSS("#lei")))
	if law := b.text("#lei"); !strings.Contains(law, "Lei 14.597/2023") || !strings.Contains(law, "meses") {
		t.Errorf("law and range for 30/03/2025: %q", law)
	}
	// The page shows #ultimo-dia-valor before the click too: wait for the
	// document that answers the form (a new window object) to be loaded.
	value(b, "marcar a página do formulário", chromedp.Evaluate[bool](`window.__antes = true`))
	// The ban starts on the day the judgment becomes final (Súmula 643 STJ):
	// the page counts the last day as if it were today.
	b.run("recalcular o último dia", set("f-ban-months", "3"), set("f-reporting-duty-place", "24º Distrito Policial"),
		set("f-reporting-duty-club", "Corinthians"), set("f-text-reasoning", "Autoria e materialidade provadas pelo boletim de ocorrência."),
		chromedp.Click(chromedp.CSS("#recalcular")))
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		// Errors while the page navigates are expected: ask again.
		loaded, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`!window.__antes && document.readyState === 'complete' && !!document.getElementById('ultimo-dia-valor')`))
		if err == nil && loaded {
			break
		}
		if time.Now().After(deadline) {
			b.shot("falha-recalcular")
			t.Fatalf("the answer to Recalcular did not load: %v", err)
		}
	}
	if last := b.text("#ultimo-dia-valor"); last != "31/05/2026" {
		t.Errorf("computed last day: %q, want 31/05/2026", last)
	}
	b.shot("sentenca-formulario")
	// "Revisar e assinar" saves the minuta and shows the decision as it
	// will be signed, with the button that signs it.
	b.run("revisar", chromedp.Click(chromedp.CSS(`input[name="publish"]`)), chromedp.Click(chromedp.CSS("#revisar")),
		chromedp.WaitVisible(chromedp.CSS("#revisao")))
	b.shot("sentenca-revisao")
	b.run("assinar", chromedp.Click(chromedp.CSS("#assinar")), chromedp.WaitVisible(chromedp.CSS("#documentos")))
	if n := b.text("p.aviso"); !strings.Contains(n, "Sentença assinada") {
		t.Errorf("after signing: %q", n)
	}
	pdfStatus := value(b, "baixar a sentença", chromedp.Evaluate[int](`fetch(document.querySelector('a[href*="sentenca.pdf"]').href).then(r => r.ok && r.headers.get('content-type') === 'application/pdf' ? 200 : r.status)`, chromedp.EvalAwaitPromise))
	if pdfStatus != 200 {
		t.Errorf("sentence PDF: %d", pdfStatus)
	}
	b.shot("processo-sentenciado")
	b.logout()

	// 3. Before the final judgment the name is on no list (Súmula 643 STJ).
	b.run("lista pública antes do trânsito", chromedp.Navigate(b.base+"/impedidos"), chromedp.WaitVisible(chromedp.CSS("main")))
	if body := b.text("main"); strings.Contains(body, d.FullName) {
		t.Errorf("public list with %s before the final judgment: %q", d.FullName, body)
	}

	// 4. The clerk records every party's notice with the waiver of the
	// appeal and certifies the final judgment (Lei 9.099/1995, art. 82, § 1º).
	b.login("escrivao", pw)
	casePage := b.base + "/processos/" + caseID[1]
	for _, party := range []string{"prosecution", "defendant", "defence"} {
		b.run("ciência: "+party, chromedp.Navigate(casePage), chromedp.WaitVisible(chromedp.CSS("#f-int-party")),
			chromedp.SetValue(chromedp.CSS("#f-int-party"), party), chromedp.Click(chromedp.CSS(`input[name="int.waived_appeal"]`)))
		b.submitAndWait("registrar ciência: "+party, "#f-int-party")
		if n := b.text("main"); !strings.Contains(n, "com renúncia expressa ao prazo de recurso") {
			t.Errorf("notice of %s: %q", party, n)
		}
	}
	b.shot("processo-intimacoes")
	b.run("trânsito em julgado", chromedp.Navigate(casePage), chromedp.WaitVisible(chromedp.CSS("#f-and-to")),
		chromedp.SetValue(chromedp.CSS("#f-and-to"), "final"))
	b.submitAndWait("certificar o trânsito em julgado", "#f-and-to")
	if body := b.text("main"); !strings.Contains(body, "em cumprimento") || !strings.Contains(body, "01/03/2026") {
		t.Errorf("case page after the final judgment: the ban not in force from 01/03/2026: %q", body)
	}
	b.shot("processo-transitado")
	b.logout()

	// 5. The public list shows the name.
	b.run("lista pública", chromedp.Navigate(b.base+"/impedidos"), chromedp.WaitVisible(chromedp.CSS("main")))
	if body := b.text("main"); !strings.Contains(body, d.FullName) {
		t.Errorf("public list without %s: %q", d.FullName, body)
	}
	b.shot("lista-publica")

	// 6. The club checks the CPF and downloads the CSV.
	b.login("portaria", pw)
	b.run("consultar CPF", set("f-cpf", d.CPF), chromedp.Submit(chromedp.CSS("#f-cpf")), chromedp.WaitVisible(chromedp.CSS("#resultado")))
	if r := b.text("#resultado"); !strings.Contains(r, "IMPEDIDO") {
		t.Errorf("CPF check: %q", r)
	}
	b.shot("clube-consulta-cpf")
	csvBody := value(b, "baixar CSV", chromedp.Evaluate[string](`fetch(document.querySelector('#baixar-csv').href).then(r => r.text())`, chromedp.EvalAwaitPromise))
	if !strings.Contains(csvBody, "663.923.321-54;"+d.FullName) {
		t.Errorf("the spreadsheet lacks the formatted CPF and the name: %q", csvBody)
	}
	b.logout()

	// 7. The group manager imports the spreadsheet with errors, then the valid one.
	b.login("gestor", pw)
	b.run("importar planilha com erros", chromedp.Navigate(b.base+"/torcida/importar"),
		chromedp.SetUploadFiles(chromedp.CSS("#f-planilha"), []string{sharedfix.Path(t, "fixtures", "members-with-errors-excel-ptbr.csv")}),
		chromedp.Submit(chromedp.CSS("#f-planilha")), chromedp.WaitVisible(chromedp.CSS("#linhas")))
	errRows := value(b, "contar linhas com erro", chromedp.Evaluate[int](`document.querySelectorAll('tr.linha-erro').length`))
	errMsgs := value(b, "contar mensagens", chromedp.Evaluate[int](`[...document.querySelectorAll('tr.linha-erro')].filter(r => r.querySelector('.campo-erro') && r.querySelector('.campo-erro').textContent.trim() !== '').length`))
	resumo := b.text("#resumo")
	if errRows == 0 || errMsgs != errRows || !strings.Contains(resumo, fmt.Sprintf("%d com erro", errRows)) {
		t.Errorf("errors shown: %d rows with error, %d with a message; %q", errRows, errMsgs, resumo)
	}
	b.shot("importacao-com-erros")
	b.run("conferir planilha válida", chromedp.SetUploadFiles(chromedp.CSS("#f-planilha"), []string{sharedfix.Path(t, "fixtures", "members-valid-excel-ptbr.csv")}),
		chromedp.Submit(chromedp.CSS("#f-planilha")), chromedp.WaitVisible(chromedp.CSS(`form[action="/torcida/importar/aplicar"]`)))
	b.shot("importacao-conferida")
	b.run("aplicar", chromedp.Submit(chromedp.CSS(`form[action="/torcida/importar/aplicar"] button`)), chromedp.WaitVisible(chromedp.CSS("p.aviso")))
	if n := b.text("p.aviso"); !strings.Contains(n, "Importação aplicada: 5 novo") {
		t.Errorf("after applying: %q", n)
	}
	b.shot("cadastro-importado")
}
