package documents_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/app"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/documents"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/pdf"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/internal/sharedfix"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/registry/blocklist"
	"github.com/juizado/juizado/templates"
	"gorm.io/gorm"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

var update = flag.Bool("update", false, "rewrite testdata/*.txt from the documents made now")

var saoPaulo = testenv.SaoPaulo

// issueTime: 15/07/2025 14:05 in São Paulo, after every fixture's facts.
var issueTime = time.Date(2025, 7, 15, 14, 5, 0, 0, saoPaulo)

type env struct {
	g     *gorm.DB
	svc   *documents.Service
	cases *app.Cases
	staff actor.Actor
	judge actor.Actor
	pros  actor.Actor
}

// codes gives verification codes in sequence (deterministic documents).
func codes() func() (string, error) {
	var mu sync.Mutex
	n := 0
	return func() (string, error) {
		mu.Lock()
		defer mu.Unlock()
		n++
		return fmt.Sprintf("TESTAAAAA%03d", n)[:9] + string("ABCDEFGHIJKLMNOPQRSTUVWXYZ"[n/26%26]) + string("ABCDEFGHIJKLMNOPQRSTUVWXYZ"[n%26]) + "Q", nil
	}
}

func newEnv(t *testing.T) *env {
	t.Helper()
	d := testenv.NewDomain(t, issueTime, "Juizado Especial Criminal do Torcedor da Capital")
	e := &env{g: d.DB, cases: d.Cases}
	e.judge = d.User(t, "Dra. Inês Conceição Araújo", "judge")
	e.pros = d.User(t, "Promotor Um", "prosecutor")
	e.staff = d.User(t, "Escrivã Dois", "clerk")
	e.svc = d.App.Documents
	e.svc.BaseURL, e.svc.NewCode = "https://juizado.tjsp.example", codes()
	return e
}

// representation R1 of the shared fixtures, its defendant renamed to test
// letters from anywhere.
func representation(t *testing.T, ref string) cases.Representation {
	t.Helper()
	var r cases.Representation
	if err := json.Unmarshal(sharedfix.Representation(t, ref), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// sentenced files R1 for "Łukasz Muñoz Sørensen" and sentences him to 6
// months with a reporting duty and the judge's text, the ban to start no
// earlier than 01/08/2025: the ban waits for the final judgment (Súmula 643
// STJ). It returns the case id and the ban id.
func (e *env) sentenced(t *testing.T) (int64, int64) {
	t.Helper()
	caseID, defID := e.fileR1(t)
	res := e.sentence(t, caseID, decisions.SentenceInput{DefendantID: defID, Ban: decisions.BanInput{FirstDay: "2025-08-01", Months: ptr(6)}})
	return caseID, res.Ban.ID
}

// fileR1 files R1 for "Łukasz Muñoz Sørensen"; it returns the case id and
// the defendant's id.
func (e *env) fileR1(t *testing.T) (int64, int64) {
	t.Helper()
	return e.fileRep(t, "R1", "Łukasz Muñoz Sørensen")
}

// fileRep files representation ref (its first defendant renamed to name
// when name is not empty); it returns the case id and the first
// defendant's id.
func (e *env) fileRep(t *testing.T, ref, name string) (int64, int64) {
	t.Helper()
	ctx := context.Background()
	r := representation(t, ref)
	if name != "" {
		r.Defendants[0].FullName = name
	}
	c, err := e.cases.Case.File(ctx, e.pros, r)
	if err != nil {
		t.Fatal(err)
	}
	(&testenv.Domain{DB: e.g, Cases: e.cases}).Receive(t, c.ID) // to be sentenced (Lei 9.099/1995, arts. 77, 81)
	v, err := e.cases.Casefile.Get(ctx, e.judge, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	return c.ID, v.Defendants[0].ID
}

// sentence signs in for case caseID with the judge's text and, when in
// has a ban, the reporting duty of the fixtures.
func (e *env) sentence(t *testing.T, caseID int64, in decisions.SentenceInput) *decisions.SentenceResult {
	t.Helper()
	if in.Text == nil {
		in.Text = &decisions.SentenceText{Report: "O réu foi citado e apresentou defesa.\nEm audiência, foram ouvidas duas testemunhas.",
			Reasoning: "A autoria e a materialidade estão provadas pelo boletim de ocorrência e pelas imagens do circuito interno."}
	}
	if in.ReportingDuty == nil && (in.Outcome == "" || in.Outcome == decisions.OutcomeBan) && !in.Precautionary {
		in.ReportingDuty = &cases.ReportingDuty{Place: "24º Distrito Policial – Ponte Rasa", Club: "Corinthians"}
	}
	res, err := e.cases.Decisions.Sentence(context.Background(), e.judge, caseID, in)
	if err != nil {
		t.Fatalf("sentence: %v", err)
	}
	return res
}

// final records every party's notice of the decision with a waiver of the
// appeal on the clock's day and certifies the final judgment (the clerk):
// the bans that waited start that day, or on the later day the judge fixed
// (Súmula 643 STJ).
func (e *env) final(t *testing.T, caseID int64) {
	t.Helper()
	ctx := context.Background()
	day := civilToday(e).String()
	v, err := e.cases.Casefile.Get(ctx, e.staff, caseID)
	if err != nil {
		t.Fatal(err)
	}
	ns := []calendar.NotificationInput{{Party: calendar.PartyProsecution}}
	for _, d := range v.Defendants {
		ns = append(ns, calendar.NotificationInput{Party: calendar.PartyDefendant, DefendantID: d.ID}, calendar.NotificationInput{Party: calendar.PartyDefence, DefendantID: d.ID})
	}
	for _, n := range ns {
		n.NotifiedOn, n.WaivedAppeal = day, true
		if _, err := e.cases.Calendar.Notify(ctx, e.staff, caseID, n); err != nil {
			t.Fatalf("notify %+v: %v", n, err)
		}
	}
	if _, err := e.cases.Casefile.Transition(ctx, e.staff, caseID, casefile.TransitionInput{To: cases.StatusFinal}); err != nil {
		t.Fatalf("final judgment: %v", err)
	}
}

// finalFrom files R1, sentences it to 6 months and makes the judgment
// final on day first (the clock moves there and back): the ban is in force
// from first. It returns the case id and the ban id.
func (e *env) finalFrom(t *testing.T, first string) (int64, int64) {
	t.Helper()
	clk := e.svc.Clock.(*clock.Fixed)
	back := clk.Now()
	day, err := time.ParseInLocation("2006-01-02", first, saoPaulo)
	if err != nil {
		t.Fatal(err)
	}
	clk.Set(day.Add(12 * time.Hour))
	defer clk.Set(back)
	caseID, defID := e.fileR1(t)
	res := e.sentence(t, caseID, decisions.SentenceInput{DefendantID: defID, Ban: decisions.BanInput{Months: ptr(6)}})
	e.final(t, caseID)
	return caseID, res.Ban.ID
}

func civilToday(e *env) civil.Date { return civil.Today(e.svc.Clock.Now(), saoPaulo) }

func ptr[T any](v T) *T { return &v }

func text(t *testing.T, b []byte) string { t.Helper(); return pdftotext(t, b) }

// pdftotext is the text pdftotext reads in b, with flags ("-layout",
// "-raw"; none: its default reading order); the test is skipped without
// pdftotext.
func pdftotext(t *testing.T, b []byte, flags ...string) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext missing: apt-get install poppler-utils (make deps does it)")
	}
	p := filepath.Join(t.TempDir(), "d.pdf")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", append(flags, "-enc", "UTF-8", p, "-")...).Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// dump writes a document to $JUIZADO_PDF_DUMP (when set) to look at.
func dump(t *testing.T, name string, b []byte) {
	if dir := os.Getenv("JUIZADO_PDF_DUMP"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name+".pdf"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// golden compares the text of a document with testdata/NAME.txt (-update
// rewrites it).
func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name+".txt")
	if *update {
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s: text differs from %s (go test -update to accept):\n%s", name, p, got)
	}
}

// Each document of a sentenced case comes out with its wording, in correct
// Portuguese, the expected text page by page. The ban waits for the final
// judgment (Súmula 643 STJ): the documents say it starts then, with no
// dates; after the final judgment the notice and the letter give the
// days, and the sentence is the same document issued at first.
func TestCaseDocumentsText_Sumula643STJ(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	caseID, banID := e.sentenced(t)
	var sentenceCode string
	for _, tc := range []struct {
		kind  pdf.Kind
		pages int
	}{
		{pdf.KindSentence, 2}, {pdf.KindNotice, 2}, {pdf.KindLetter, 1}, {pdf.KindSummary, 2},
	} {
		d, err := e.svc.CaseDocument(ctx, e.staff, tc.kind, caseID, banID)
		if err != nil {
			t.Fatalf("%s: %v", tc.kind, err)
		}
		if d.Pages != tc.pages {
			t.Errorf("%s: %d pages, want %d", tc.kind, d.Pages, tc.pages)
		}
		dump(t, string(tc.kind), d.Content)
		got := text(t, d.Content)
		if n := strings.Count(got, "\f"); n != d.Pages {
			t.Errorf("%s: pdftotext sees %d pages, stored %d", tc.kind, n, d.Pages)
		}
		golden(t, string(tc.kind), got)
		if !strings.Contains(got, "Página 1 de "+fmt.Sprint(d.Pages)) || !strings.Contains(got, pdf.GroupCode(d.Code)) {
			t.Errorf("%s: footer without page count or code", tc.kind)
		}
		flat := strings.Join(strings.Fields(got), " ")
		if tc.kind != pdf.KindSummary && (strings.Contains(flat, "31 de janeiro de 2026") || !strings.Contains(flat, "trânsito em julgado")) {
			t.Errorf("%s of a ban awaiting the final judgment: dates written, or no word of the final judgment:\n%s", tc.kind, got)
		}
		if tc.kind == pdf.KindSentence {
			sentenceCode = d.Code
		}
	}
	e.final(t, caseID)
	for _, tc := range []struct {
		kind pdf.Kind
		want []string
	}{
		{pdf.KindNotice, []string{"Início 1º de agosto de 2025, a partir de 0h", "Término 31 de janeiro de 2026, às 24h"}},
		{pdf.KindLetter, []string{"Período de 1º de agosto de 2025 a 31 de janeiro de 2026, inclusive"}},
		{pdf.KindSummary, []string{"01/08/2025 31/01/2026 a iniciar"}},
	} {
		d, err := e.svc.CaseDocument(ctx, e.staff, tc.kind, caseID, banID)
		if err != nil {
			t.Fatalf("%s after the final judgment: %v", tc.kind, err)
		}
		got := text(t, d.Content)
		golden(t, string(tc.kind)+"-final", got)
		flat := strings.Join(strings.Fields(got), " ")
		for _, w := range tc.want {
			if !strings.Contains(flat, w) {
				t.Errorf("%s after the final judgment lacks %q:\n%s", tc.kind, w, got)
			}
		}
		if strings.Contains(flat, "aguarda o trânsito em julgado") {
			t.Errorf("%s after the final judgment still says the ban waits", tc.kind)
		}
	}
	d, err := e.svc.CaseDocument(ctx, e.staff, pdf.KindSentence, caseID, banID)
	if err != nil || d.Code != sentenceCode {
		t.Errorf("the sentence after the final judgment: code %v (%v), want the one issued, %s", d, err, sentenceCode)
	}
	if _, err := e.svc.CaseDocument(ctx, e.staff, pdf.KindSentence, caseID, 0); errs.KindOf(err) != errs.Invalid {
		t.Errorf("no ban id: %v, want invalid", err)
	}
	if _, err := e.svc.CaseDocument(ctx, e.staff, pdf.KindSentence, caseID, banID+100); errs.KindOf(err) != errs.NotFound {
		t.Errorf("other ban: %v, want not found", err)
	}
	other := actor.Actor{UserID: e.staff.UserID, Role: "clerk", Court: "19.0001"}
	if _, err := e.svc.CaseDocument(ctx, other, pdf.KindSummary, caseID, 0); errs.KindOf(err) != errs.NotFound {
		t.Errorf("another court's clerk: %v, want not found", err)
	}
}

// Súmula 643 STJ: the certificate says "nada consta" for a clean CPF and
// for a CPF whose ban waits for the final judgment (listed apart, as not in
// force); after the final judgment it lists the ban (to start on the day
// the judge fixed); the poster lists the published bans in force.
func TestCertificateAndPoster_Sumula643STJ(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	d, err := e.svc.Certificate(ctx, e.staff, "529.982.247-25")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "certificate-clean", text(t, d.Content))
	caseID, _ := e.sentenced(t)
	d, err = e.svc.Certificate(ctx, e.staff, "66392332154")
	if err != nil {
		t.Fatal(err)
	}
	dump(t, "certificate-awaiting", d.Content)
	got := text(t, d.Content)
	golden(t, "certificate-awaiting", got)
	flat := strings.Join(strings.Fields(got), " ")
	for _, want := range []string{"NADA CONSTA", "não transitada em julgado", "aguardando trânsito em julgado"} {
		if !strings.Contains(flat, want) {
			t.Errorf("certificate before the final judgment lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(flat, "em vigor ou a iniciar, conforme abaixo") || strings.Contains(flat, "CONSTA impedimento") {
		t.Errorf("certificate before the final judgment shows the ban as in force:\n%s", got)
	}
	e.final(t, caseID)
	d, err = e.svc.Certificate(ctx, e.staff, "66392332154")
	if err != nil {
		t.Fatal(err)
	}
	dump(t, "certificate", d.Content)
	got = text(t, d.Content)
	golden(t, "certificate-banned", got)
	if flat := strings.Join(strings.Fields(got), " "); strings.Contains(flat, "NADA CONSTA") || !strings.Contains(flat, "01/08/2025 31/01/2026 a iniciar") {
		t.Errorf("certificate after the final judgment:\n%s", got)
	}
	if _, err := e.svc.Certificate(ctx, e.staff, "663.923.321-55"); errs.KindOf(err) != errs.Invalid {
		t.Errorf("bad CPF: %v", err)
	}
	// The ban starts on 01/08/2025: the poster of 15/07 has nobody, the
	// poster of 02/08 has him.
	p1, err := e.svc.Poster(ctx, blocklist.PublicFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if got := text(t, p1.Content); !strings.Contains(got, "Nenhum impedimento publicado em vigor nesta data.") {
		t.Errorf("empty poster:\n%s", got)
	}
	again, err := e.svc.Poster(ctx, blocklist.PublicFilter{})
	if err != nil || again.Code != p1.Code {
		t.Errorf("same list, same day: a new poster %v (%v)", again.Code, err)
	}
	e.svc.Clock.(*clock.Fixed).Set(time.Date(2025, 8, 2, 9, 0, 0, 0, saoPaulo))
	p2, err := e.svc.Poster(ctx, blocklist.PublicFilter{})
	if err != nil {
		t.Fatal(err)
	}
	dump(t, "poster", p2.Content)
	golden(t, "poster", text(t, p2.Content))
	if _, err := e.svc.Poster(ctx, blocklist.PublicFilter{Court: "19.0001"}); errs.KindOf(err) != errs.NotFound {
		t.Errorf("unknown court: %v", err)
	}
}

// A document's code tells what it is; its bytes are authentic, one byte
// changed is altered.
func TestVerificationRoundTrip(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	caseID, banID := e.sentenced(t)
	d, err := e.svc.CaseDocument(ctx, e.staff, pdf.KindNotice, caseID, banID)
	if err != nil {
		t.Fatal(err)
	}
	v, stored, err := e.svc.Verify(ctx, strings.ToLower(pdf.GroupCode(d.Code)))
	if err != nil {
		t.Fatal(err)
	}
	if v.Kind != pdf.KindNotice || v.Court != "26.0100" || v.CaseNumber == "" || v.IssuedOn != "15 de julho de 2025" || v.Pages != d.Pages {
		t.Errorf("verification: %+v", v)
	}
	js, _ := json.Marshal(v)
	for _, private := range []string{"Łukasz", "663", "Sørensen", "Ponte Rasa"} {
		if strings.Contains(string(js), private) {
			t.Errorf("verification shows %q: %s", private, js)
		}
	}
	sum := func(b []byte) []byte { s := sha256Sum(b); return s[:] }
	if c := documents.Compare(*v, stored, sum(d.Content)); !c.Match || c.Status != "authentic" {
		t.Errorf("original: %+v", c)
	}
	altered := append([]byte(nil), d.Content...)
	altered[len(altered)/2] ^= 0x01
	if c := documents.Compare(*v, stored, sum(altered)); c.Match || c.Status != "altered" {
		t.Errorf("one byte changed: %+v", c)
	}
	if _, _, err := e.svc.Verify(ctx, "ABCD-EFGH-IJK9"); errs.KindOf(err) != errs.Invalid {
		t.Errorf("malformed code: %v", err)
	}
	if _, _, err := e.svc.Verify(ctx, "ZZZZ-ZZZZ-ZZZZ"); errs.KindOf(err) != errs.NotFound {
		t.Errorf("unknown code: %v", err)
	}
	var e2 error = e.g.Exec("UPDATE documents SET pages = 9").Error
	if e2 == nil || !strings.Contains(e2.Error(), "never changed") {
		t.Errorf("documents can be changed: %v", e2)
	}
}

// Many documents at once: every one stored, each notice, letter and
// summary with its own code; the sentence is one document per decision,
// issued once however many ask for it at the same time.
func TestConcurrentIssue_OneSentenceDocumentPerDecision(t *testing.T) {
	e := newEnv(t)
	e.svc.NewCode = nil // random codes
	ctx := context.Background()
	caseID, banID := e.sentenced(t)
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := map[string]bool{}
	sentences := map[string]bool{}
	var errsSeen []error
	for i := 0; i < 12; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			kind := []pdf.Kind{pdf.KindSentence, pdf.KindNotice, pdf.KindLetter, pdf.KindSummary}[i%4]
			d, err := e.svc.CaseDocument(ctx, e.staff, kind, caseID, banID)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errsSeen = append(errsSeen, err)
				return
			}
			seen[d.Code] = true
			if kind == pdf.KindSentence {
				sentences[d.Code] = true
			}
		}(i)
	}
	wg.Wait()
	if len(errsSeen) > 0 || len(seen) != 10 || len(sentences) != 1 {
		t.Errorf("%d distinct codes (want 9 + 1), %d for the sentence (want 1), errors %v", len(seen), len(sentences), errors.Join(errsSeen...))
	}
	var n int64
	if err := e.g.Raw("SELECT count(*) FROM documents WHERE kind = 'sentence'").Scan(&n).Error; err != nil || n != 1 {
		t.Errorf("%d sentence documents stored (%v), want 1", n, err)
	}
}

// A court's own wording, from the override folder, replaces the embedded one.
func TestWordingOverride(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "certificate.tmpl"), []byte("# CERTIDÃO DO JUÍZO\n\nCPF {{.CPF}}: {{if .Bans}}consta{{else}}nada consta{{end}}.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.svc.Wording.Dir = dir
	d, err := e.svc.Certificate(context.Background(), e.staff, "52998224725")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(strings.Fields(text(t, d.Content)), " "); !strings.Contains(got, "CERTIDÃO DO JUÍZO CPF 529.982.247-25: nada consta.") {
		t.Errorf("override not used:\n%s", got)
	}
	if err := (pdf.Wording{Embedded: templates.FS, Dir: dir}).Check(); err != nil {
		t.Error(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "poster.tmpl"), []byte("{{.Nope"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := (pdf.Wording{Embedded: templates.FS, Dir: dir}).Check(); err == nil {
		t.Error("broken wording passes the check")
	}
}

func sha256Sum(b []byte) [32]byte { return sha256.Sum256(b) }

// The notice of a final ban lists the reporting windows of the court's
// match schedule (Lei 14.597/2023, art. 201, § 4º).
func TestNoticeWithReportingWindows(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	caseID, banID := e.finalFrom(t, "2025-04-01")
	csv, err := os.ReadFile(sharedfix.Path(t, "fixtures", "matches-2025.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cases.Schedule.ImportMatches(ctx, e.staff, csv, false); err != nil {
		t.Fatal(err)
	}
	d, err := e.svc.CaseDocument(ctx, e.staff, pdf.KindNotice, caseID, banID)
	if err != nil {
		t.Fatal(err)
	}
	dump(t, "notice-windows", d.Content)
	got := text(t, d.Content)
	golden(t, "notice-windows", got)
	flat := strings.Join(strings.Fields(got), " ")
	for _, want := range []string{"Corinthians x Santos (Campeonato Brasileiro Série A)", "13/04/2025 09:00", "13/04/2025 15:00", "Corinthians x Flamengo (Copa do Brasil)"} {
		if !strings.Contains(flat, want) {
			t.Errorf("notice lacks %q", want)
		}
	}
}

// A ban in force (LGE art. 201, § 2º: final since 01/04/2025, 6 months)
// is "em cumprimento" on one line of its table, in the certificate and in
// the case summary issued from the records (the status column had cut it
// "cumprime-nto" in the certificate, "em / cumprimento" in the summary).
func TestBanInForceStatusOnOneLine_Art201Par2(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	caseID, banID := e.finalFrom(t, "2025-04-01")
	cert, err := e.svc.Certificate(ctx, e.staff, "66392332154")
	if err != nil {
		t.Fatal(err)
	}
	summary, err := e.svc.CaseDocument(ctx, e.staff, pdf.KindSummary, caseID, banID)
	if err != nil {
		t.Fatal(err)
	}
	for name, d := range map[string]*documents.Document{"certificate": cert, "summary": summary} {
		dump(t, name+"-in-force", d.Content)
		got := text(t, d.Content)
		if !slices.Contains(strings.Split(got, "\n"), "em cumprimento") {
			t.Errorf("%s: \"em cumprimento\" not on one line:\n%s", name, got)
		}
	}
}
