package pdf_test

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
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/pdf"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/internal/sharedfix"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/templates"
	"gorm.io/gorm"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

var update = flag.Bool("update", false, "rewrite testdata/*.txt from the documents made now")

var saoPaulo = func() *time.Location {
	l, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		panic(err)
	}
	return l
}()

// issueTime: 15/07/2025 14:05 in São Paulo, after every fixture's facts.
var issueTime = time.Date(2025, 7, 15, 14, 5, 0, 0, saoPaulo)

type env struct {
	g     *gorm.DB
	svc   *pdf.Service
	cases *cases.Service
	staff cases.Actor
	judge cases.Actor
	pros  cases.Actor
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
	ctx := context.Background()
	g := pgtest.NewDB(t)
	if err := cases.EnsureCourt(ctx, g, "26.0100", "Juizado Especial Criminal do Torcedor da Capital"); err != nil {
		t.Fatal(err)
	}
	clk := clock.NewFixed(issueTime)
	lists := &registry.Lists{DB: g, Clock: clk, Loc: saoPaulo, FormatNumber: cases.FormatNumber}
	cs := &cases.Service{DB: g, Clock: clk, Loc: saoPaulo, Blocklist: lists}
	e := &env{g: g, cases: cs}
	user := func(name, role string) cases.Actor {
		u, _, err := authz.EnsureUser(ctx, g, authz.UserSpec{Name: name, Role: role, Court: "26.0100"})
		if err != nil {
			t.Fatal(err)
		}
		return cases.Actor{UserID: u.ID, Name: u.Name, Role: role, Court: "26.0100"}
	}
	e.judge = user("Dra. Inês Conceição Araújo", "judge")
	e.pros = user("Promotor Um", "prosecutor")
	e.staff = user("Escrivã Dois", "clerk")
	e.svc = &pdf.Service{DB: g, Cases: cs, Lists: lists, Wording: pdf.Wording{Embedded: templates.FS},
		BaseURL: "https://juizado.tjsp.example", Court: "26.0100", Clock: clk, Loc: saoPaulo, NewCode: codes()}
	return e
}

// representation R1 of the shared fixtures, its defendant renamed to test
// letters from anywhere.
func representation(t *testing.T, ref string) cases.Representation {
	t.Helper()
	b, err := os.ReadFile(sharedfix.Path(t, "fixtures", "representations.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Representations []cases.Representation }
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Representations {
		if r.Ref == ref {
			return r
		}
	}
	t.Fatalf("no %s", ref)
	return cases.Representation{}
}

// sentenced files R1 for "Łukasz Muñoz Sørensen" and sentences him to 6
// months from 01/08/2025 with a reporting duty; it returns the case id and
// the ban id.
func (e *env) sentenced(t *testing.T) (int64, int64) { return e.sentencedFrom(t, "2025-08-01") }

func (e *env) sentencedFrom(t *testing.T, first string) (int64, int64) {
	t.Helper()
	ctx := context.Background()
	r := representation(t, "R1")
	r.Defendants[0].FullName = "Łukasz Muñoz Sørensen"
	c, err := e.cases.File(ctx, e.pros, r)
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.cases.Get(ctx, e.judge, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	months := 6
	res, err := e.cases.Sentence(ctx, e.judge, c.ID, cases.SentenceInput{DefendantID: v.Defendants[0].ID,
		Ban:           cases.BanInput{FirstDay: first, Months: &months},
		ReportingDuty: &cases.ReportingDuty{Place: "24º Distrito Policial – Ponte Rasa", Club: "Corinthians"}})
	if err != nil {
		t.Fatal(err)
	}
	return c.ID, res.Ban.ID
}

func text(t *testing.T, b []byte) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext missing: apt-get install poppler-utils (make deps does it)")
	}
	p := filepath.Join(t.TempDir(), "d.pdf")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", p, "-").Output()
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
// Portuguese, the expected text page by page.
func TestCaseDocumentsText(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	caseID, banID := e.sentenced(t)
	for _, tc := range []struct {
		kind  pdf.Kind
		pages int
	}{
		{pdf.KindSentence, 2}, {pdf.KindNotice, 1}, {pdf.KindLetter, 1}, {pdf.KindSummary, 2},
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
	}
	if _, err := e.svc.CaseDocument(ctx, e.staff, pdf.KindSentence, caseID, 0); errs.KindOf(err) != errs.Invalid {
		t.Errorf("no ban id: %v, want invalid", err)
	}
	if _, err := e.svc.CaseDocument(ctx, e.staff, pdf.KindSentence, caseID, banID+100); errs.KindOf(err) != errs.NotFound {
		t.Errorf("other ban: %v, want not found", err)
	}
	other := cases.Actor{UserID: e.staff.UserID, Role: "clerk", Court: "19.0001"}
	if _, err := e.svc.CaseDocument(ctx, other, pdf.KindSummary, caseID, 0); errs.KindOf(err) != errs.NotFound {
		t.Errorf("another court's clerk: %v, want not found", err)
	}
}

// The certificate says "nada consta" for a clean CPF and lists the bans of
// a banned one; the poster lists the published bans in force.
func TestCertificateAndPoster(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	d, err := e.svc.Certificate(ctx, e.staff, "529.982.247-25")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "certificate-clean", text(t, d.Content))
	e.sentenced(t)
	d, err = e.svc.Certificate(ctx, e.staff, "66392332154")
	if err != nil {
		t.Fatal(err)
	}
	dump(t, "certificate", d.Content)
	golden(t, "certificate-banned", text(t, d.Content))
	if _, err := e.svc.Certificate(ctx, e.staff, "663.923.321-55"); errs.KindOf(err) != errs.Invalid {
		t.Errorf("bad CPF: %v", err)
	}
	// The ban starts on 01/08/2025: the poster of 15/07 has nobody, the
	// poster of 02/08 has him.
	p1, err := e.svc.Poster(ctx, registry.PublicFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if got := text(t, p1.Content); !strings.Contains(got, "Nenhum impedimento publicado em vigor nesta data.") {
		t.Errorf("empty poster:\n%s", got)
	}
	again, err := e.svc.Poster(ctx, registry.PublicFilter{})
	if err != nil || again.Code != p1.Code {
		t.Errorf("same list, same day: a new poster %v (%v)", again.Code, err)
	}
	e.svc.Clock.(*clock.Fixed).Set(time.Date(2025, 8, 2, 9, 0, 0, 0, saoPaulo))
	p2, err := e.svc.Poster(ctx, registry.PublicFilter{})
	if err != nil {
		t.Fatal(err)
	}
	dump(t, "poster", p2.Content)
	golden(t, "poster", text(t, p2.Content))
	if _, err := e.svc.Poster(ctx, registry.PublicFilter{Court: "19.0001"}); errs.KindOf(err) != errs.NotFound {
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
	if c := pdf.Compare(*v, stored, sum(d.Content)); !c.Match || c.Status != "authentic" {
		t.Errorf("original: %+v", c)
	}
	altered := append([]byte(nil), d.Content...)
	altered[len(altered)/2] ^= 0x01
	if c := pdf.Compare(*v, stored, sum(altered)); c.Match || c.Status != "altered" {
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

// Many documents at once: every one stored, each with its own code.
func TestConcurrentIssue(t *testing.T) {
	e := newEnv(t)
	e.svc.NewCode = nil // random codes
	ctx := context.Background()
	caseID, banID := e.sentenced(t)
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := map[string]bool{}
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
		}(i)
	}
	wg.Wait()
	if len(errsSeen) > 0 || len(seen) != 12 {
		t.Errorf("%d distinct codes, errors %v", len(seen), errors.Join(errsSeen...))
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

// The notice lists the reporting windows of the court's match schedule.
func TestNoticeWithReportingWindows(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	caseID, banID := e.sentencedFrom(t, "2025-04-01")
	csv, err := os.ReadFile(sharedfix.Path(t, "fixtures", "matches-2025.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cases.ImportMatches(ctx, e.staff, csv, false); err != nil {
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
