package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/config"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/internal/sharedfix"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/sanctions"
	"gorm.io/gorm"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

var saoPaulo = func() *time.Location {
	l, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		panic(err)
	}
	return l
}()

// fixtures returns the representations of ../shared/fixtures by ref, as raw JSON.
func fixtures(t *testing.T) map[string]json.RawMessage {
	t.Helper()
	out := map[string]json.RawMessage{}
	for _, r := range sharedfix.Representations(t) {
		var ref struct{ Ref string }
		_ = json.Unmarshal(r, &ref)
		out[ref.Ref] = r
	}
	return out
}

// client speaks HTTP to a running server.
type client struct {
	t    *testing.T
	base string
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("not JSON (%d): %s", r.status, r.body)
	}
	return m
}

func (c client) do(method, path, token string, body []byte, hdr ...string) response {
	c.t.Helper()
	req, err := http.NewRequest(method, c.base+path, bytes.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{res.StatusCode, res.Header, b}
}

// expect checks the status and, for problems, the content type and the
// field named in errors[].
func expect(t *testing.T, r response, status int, field string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	if status >= 400 {
		if ct := r.header.Get("Content-Type"); ct != "application/problem+json" {
			t.Fatalf("problem content type %q", ct)
		}
		p := r.json(t)
		if p["status"] != float64(status) || p["title"] == "" || p["detail"] == "" {
			t.Fatalf("not a RFC 9457 problem: %s", r.body)
		}
		if field != "" && !strings.Contains(string(r.body), `"field":"`+field+`"`) {
			t.Fatalf("problem does not name field %s: %s", field, r.body)
		}
	}
}

// finalJudgment records, over HTTP, every party's notice of the decision of
// case caseID on day with an express waiver of the appeal (the
// prosecution, each defendant and, in a criminal case, its defence: Lei
// 9.099/1995, art. 82, § 1º) and certifies the final judgment (the clerk):
// the bans that waited for it start that day (Súmula 643 STJ).
func finalJudgment(t *testing.T, c client, clerk string, caseID int64, day civil.Date) {
	t.Helper()
	r := c.do("GET", fmt.Sprintf("/api/v1/cases/%d", caseID), clerk, nil)
	expect(t, r, 200, "")
	v := r.json(t)
	notices := []string{fmt.Sprintf(`{"party": "prosecution", "notified_on": %q, "waived_appeal": true}`, day)}
	for _, d := range v["defendants"].([]any) {
		id := int64(d.(map[string]any)["id"].(float64))
		notices = append(notices, fmt.Sprintf(`{"party": "defendant", "defendant_id": %d, "notified_on": %q, "waived_appeal": true}`, id, day))
		if v["flow"] == "criminal" {
			notices = append(notices, fmt.Sprintf(`{"party": "defence", "defendant_id": %d, "notified_on": %q, "waived_appeal": true}`, id, day))
		}
	}
	for _, n := range notices {
		expect(t, c.do("POST", fmt.Sprintf("/api/v1/cases/%d/notifications", caseID), clerk, []byte(n)), 201, "")
	}
	expect(t, c.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", caseID), clerk, []byte(`{"to": "final"}`)), 200, "")
}

// signedJSON are the JSON members every person's conversion sentence
// carries: the reasoning (CF art. 93, IX) and the reporting duty (Lei
// 14.597/2023, art. 201, § 4º); a member the body repeats after them wins.
const signedJSON = `"text": {"reasoning": "Autoria e materialidade provadas pelas imagens."}, "reporting_duty": {"place": "24º DP", "club": "Corinthians"}, `

// finalBan files ref, sentences its defendant to months and makes the
// judgment final so that the ban starts on first: for a day up to the
// clock's, everything happens on that day (clk moves there and back); for a
// later day the judge fixes it (ban.first_day) and the judgment becomes
// final today. It returns the case id and the ban id.
func finalBan(t *testing.T, c client, clk *clock.Fixed, pros, judge, clerk string, rep json.RawMessage, first string, months int, extra string) (int64, int64) {
	t.Helper()
	day, err := civil.Parse(first)
	if err != nil {
		t.Fatal(err)
	}
	ban := fmt.Sprintf(`"months": %d`, months)
	if back := clk.Now(); day.After(civil.Today(back, saoPaulo)) {
		ban = fmt.Sprintf(`"first_day": %q, %s`, first, ban)
		day = civil.Today(back, saoPaulo)
	} else {
		clk.Set(time.Date(day.Year, day.Month, day.Day, 12, 0, 0, 0, saoPaulo))
		defer clk.Set(back)
	}
	r := c.do("POST", "/api/v1/cases", pros, rep)
	expect(t, r, 201, "")
	k := r.json(t)
	caseID := int64(k["id"].(float64))
	def := int64(k["defendants"].([]any)[0].(map[string]any)["id"].(float64))
	receive(t, c, pros, clerk, caseID)
	r = c.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", caseID), judge, []byte(fmt.Sprintf(`{"defendant_id": %d, `+signedJSON+`"ban": {%s}%s}`, def, ban, extra)))
	expect(t, r, 201, "")
	b := r.json(t)["ban"].(map[string]any)
	if b["status"] != "awaiting_final" || b["first_day"] != nil {
		t.Fatalf("the sentence's ban: %v, want awaiting_final with no first day (Súmula 643 STJ)", b)
	}
	finalJudgment(t, c, clerk, caseID, day)
	return caseID, int64(b["id"].(float64))
}

// receive takes every defendant of case caseID to the accusation received
// through the API (Lei 9.099/1995, arts. 77 and 81: no sentence without
// it): the preliminary phase and the receipt by the clerk, the oral
// accusation by the prosecutor.
func receive(t *testing.T, c client, pros, clerk string, caseID int64) {
	t.Helper()
	for _, st := range []struct{ tok, to string }{{clerk, "preliminary_hearing"}, {pros, "accusation"}, {clerk, "instruction_hearing"}} {
		expect(t, c.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", caseID), st.tok, []byte(fmt.Sprintf(`{"to": %q}`, st.to))), 200, "")
	}
}

func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func goBin() string { return filepath.Join(runtime.GOROOT(), "bin", "go") }

// demoDB is a fresh database with the demo data of `make run` (court
// 26.0100): its DSN and an open connection, closed at the test's end.
func demoDB(t *testing.T) (string, *gorm.DB) {
	t.Helper()
	dsn := pgtest.NewDSN(t)
	g, err := db.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s, _ := g.DB(); s.Close() })
	if err := seedDemo(context.Background(), g, config.Config{Court: "26.0100", TimeZone: "America/Sao_Paulo"}); err != nil {
		t.Fatal(err)
	}
	return dsn, g
}

// buildBinary builds the juizado command into a temporary folder and
// returns its path.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "juizado")
	if out, err := exec.Command(goBin(), "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestEndToEndBinary builds the real binary and walks the main job against a
// fresh, empty database: migrate, tokens, filing R1 R2 R7 R8, sentencing,
// the final judgment after every party waived the appeal and after an
// appeal reformed the term (Súmula 643 STJ: only then the lists), the
// public list and the blocklist, and the refusals.
func TestEndToEndBinary(t *testing.T) {
	bin := buildBinary(t)
	dsn := pgtest.NewEmptyDSN(t)
	addr := freeAddr(t)
	env := append(os.Environ(), "DATABASE_URL="+dsn, "JUIZADO_ADDR="+addr, "JUIZADO_COURT=26.0100", "JUIZADO_KEY_DIR="+filepath.Join(t.TempDir(), "keys"))
	run := func(args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	// serve refuses a schema that is behind (on a fresh cluster, before
	// migration 00095 made the application's role, it cannot even take
	// that role): either way it says to run the migrations.
	if out, err := run("serve"); err == nil || !strings.Contains(out, "juizado migrate up") {
		t.Fatalf("serve on an empty database: err %v, output %q", err, out)
	}
	if out, err := run("migrate", "up"); err != nil || !strings.Contains(out, "applied 00001") {
		t.Fatalf("migrate up: %v %s", err, out)
	}
	if out, err := run("migrate", "status"); err != nil || !strings.Contains(out, "applied") {
		t.Fatalf("migrate status: %v %s", err, out)
	}
	token := func(args ...string) string {
		out, err := run(append([]string{"token", "create"}, args...)...)
		if err != nil {
			t.Fatalf("token create %v: %v %s", args, err, out)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		return lines[len(lines)-1]
	}
	pros := token("--role", "prosecutor", "--name", "Promotoria E2E")
	judge := token("--role", "judge", "--name", "Juíza E2E")
	clerk := token("--role", "clerk", "--name", "Cartório E2E")
	club := token("--role", "club", "--name", "Portaria E2E", "--club", "Corinthians")
	if _, err := run("token", "create", "--role", "club", "--name", "sem clube"); err == nil {
		t.Fatal("token create for a club without --club must fail")
	}

	srv := exec.Command(bin, "serve")
	srv.Env = env
	var logs bytes.Buffer
	srv.Stdout, srv.Stderr = &logs, &logs
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Process.Signal(os.Interrupt); _ = srv.Wait() })
	c := client{t, "http://" + addr}
	for i := 0; ; i++ {
		if res, err := http.Get(c.base + "/healthz"); err == nil && res.StatusCode == 200 {
			res.Body.Close()
			break
		}
		if i > 100 {
			t.Fatalf("server did not start: %s", logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	expect(t, c.do("GET", "/readyz", "", nil), 200, "")

	fx := fixtures(t)
	// Refusals at filing.
	expect(t, c.do("POST", "/api/v1/cases", "", fx["R1"]), 401, "")
	expect(t, c.do("POST", "/api/v1/cases", "not-a-token-but-long-enough-to-look", fx["R1"]), 401, "")
	expect(t, c.do("POST", "/api/v1/cases", club, fx["R1"]), 403, "")
	expect(t, c.do("POST", "/api/v1/cases", judge, fx["R1"]), 403, "")
	bad := bytes.Replace(fx["R1"], []byte("663.923.321-54"), []byte("663.923.321-55"), 1)
	expect(t, c.do("POST", "/api/v1/cases", pros, bad), 422, "defendants[0].cpf")
	bad = bytes.Replace(fx["R1"], []byte(`"Arena Corinthians"`), []byte(`"Estádio Inexistente"`), 1)
	expect(t, c.do("POST", "/api/v1/cases", pros, bad), 422, "event.venue")
	expect(t, c.do("POST", "/api/v1/cases", pros, []byte(`{"defendants": [`)), 400, "")

	ids := map[string]float64{}
	defs := map[string]float64{}
	numbers := map[string]string{}
	for i, ref := range []string{"R1", "R2", "R7", "R8"} {
		r := c.do("POST", "/api/v1/cases", pros, fx[ref])
		expect(t, r, 201, "")
		m := r.json(t)
		ids[ref] = m["id"].(float64)
		numbers[ref] = m["number"].(string)
		defs[ref] = m["defendants"].([]any)[0].(map[string]any)["id"].(float64)
		if loc := r.header.Get("Location"); loc != fmt.Sprintf("/api/v1/cases/%d", int64(ids[ref])) {
			t.Fatalf("Location %q", loc)
		}
		n, err := cases.ParseCNJ(numbers[ref])
		if err != nil || n.Segment != 8 || n.Court != 26 || n.Unit != 100 || n.Sequence != i+1 {
			t.Fatalf("%s: number %s (%+v, %v)", ref, numbers[ref], n, err)
		}
		if m["status"] != "distributed" || m["judge"] == nil || m["court"] != "26.0100" {
			t.Fatalf("%s: not distributed: %s", ref, r.body)
		}
	}
	// Reads.
	r := c.do("GET", fmt.Sprintf("/api/v1/cases/%d", int64(ids["R2"])), pros, nil)
	expect(t, r, 200, "")
	if m := r.json(t); m["facts"].(map[string]any)["date"] != "2025-03-30" || len(m["movements"].([]any)) < 2 {
		t.Fatalf("case R2: %s", r.body)
	}
	expect(t, c.do("GET", "/api/v1/cases/by-number/"+numbers["R7"], judge, nil), 200, "")
	digits := strings.NewReplacer("-", "", ".", "").Replace(numbers["R7"])
	expect(t, c.do("GET", "/api/v1/cases/by-number/"+digits, judge, nil), 200, "")
	unknown, _ := cases.NewCNJ(999, 2026, 8, 26, 100)
	expect(t, c.do("GET", "/api/v1/cases/by-number/"+unknown.String(), judge, nil), 404, "")
	expect(t, c.do("GET", "/api/v1/cases/by-number/0058967-76.2016.8.19.0000", judge, nil), 422, "number")
	expect(t, c.do("GET", "/api/v1/cases/999999", judge, nil), 404, "")
	expect(t, c.do("GET", "/api/v1/cases/abc", judge, nil), 404, "")
	expect(t, c.do("GET", "/api/v1/cases/1", club, nil), 403, "")

	today := civil.Today(time.Now(), saoPaulo)
	sentence := func(ref string, body string) response {
		return c.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", int64(ids[ref])), judge, []byte(body))
	}
	// No conviction without the accusation received (Lei 9.099/1995, arts. 77, 81).
	r = sentence("R1", fmt.Sprintf(`{"defendant_id": %d, `+signedJSON+`"ban": {"months": 12}}`, int64(defs["R1"])))
	expect(t, r, 422, "defendant_id")
	if !strings.Contains(string(r.body), "arts. 77 e 81") {
		t.Fatalf("a sentence before the receipt: the error does not cite arts. 77 and 81: %s", r.body)
	}
	for _, ref := range []string{"R1", "R2", "R7", "R8"} {
		receive(t, c, pros, clerk, int64(ids[ref]))
	}
	// Term out of range, by the law of the date of the facts.
	r = sentence("R1", fmt.Sprintf(`{"defendant_id": %d, `+signedJSON+`"ban": {"months": 37}}`, int64(defs["R1"])))
	expect(t, r, 422, "ban.months")
	if !strings.Contains(string(r.body), "art. 201") {
		t.Fatalf("range error does not name art. 201: %s", r.body)
	}
	r = sentence("R8", fmt.Sprintf(`{"defendant_id": %d, `+signedJSON+`"ban": {"months": 13}}`, int64(defs["R8"])))
	expect(t, r, 422, "ban.months")
	if !strings.Contains(string(r.body), "art. 39") {
		t.Fatalf("range error does not name art. 39: %s", r.body)
	}
	// Súmula 643 STJ: the judge may fix a later start, never a past one.
	r = sentence("R1", fmt.Sprintf(`{"defendant_id": %d, `+signedJSON+`"ban": {"first_day": %q, "months": 12}}`, int64(defs["R1"]), today.AddDays(-1)))
	expect(t, r, 422, "ban.first_day")
	if !strings.Contains(string(r.body), "Súmula 643") {
		t.Fatalf("a past first day: the error does not cite Súmula 643: %s", r.body)
	}
	expect(t, c.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", int64(ids["R1"])), pros, []byte(`{}`)), 403, "")
	expect(t, c.do("POST", "/api/v1/cases/999999/sentence", judge, []byte(`{"defendant_id": 1, `+signedJSON+`"ban": {"months": 6}}`)), 404, "")
	// Nothing half-written: the refused sentences left no ban and no movement.
	r = c.do("GET", fmt.Sprintf("/api/v1/cases/%d", int64(ids["R1"])), judge, nil)
	if m := r.json(t); len(m["bans"].([]any)) != 0 || len(m["movements"].([]any)) != 5 { // filing, distribution, preliminary phase, accusation, receipt
		t.Fatalf("a refused sentence wrote something: %s", r.body)
	}
	// Sentences: each ban waits for the final judgment (Súmula 643 STJ).
	r = sentence("R1", fmt.Sprintf(`{"defendant_id": %d, `+signedJSON+`"ban": {"months": 12}}`, int64(defs["R1"])))
	expect(t, r, 201, "")
	ban := r.json(t)["ban"].(map[string]any)
	if ban["law"] != "Lei 14.597/2023" || ban["article"] != "art. 201, § 2º" || ban["source"] != "sentence" || ban["facts_date"] != "2025-03-30" {
		t.Fatalf("R1 ban: %v", ban)
	}
	if ban["status"] != "awaiting_final" || ban["first_day"] != nil || ban["last_day"] != nil {
		t.Fatalf("R1 ban term before the final judgment: %v", ban)
	}
	expect(t, sentence("R1", fmt.Sprintf(`{"defendant_id": %d, `+signedJSON+`"ban": {"months": 12}}`, int64(defs["R1"]))), 409, "")
	r = c.do("GET", "/api/v1/public/banned", "", nil)
	if strings.Contains(string(r.body), "Marcelo Augusto Figueiredo") {
		t.Fatalf("a ban awaiting the final judgment is on the public list: %s", r.body)
	}
	r = c.do("GET", "/api/v1/blocklist/check/663.923.321-54", club, nil)
	if m := r.json(t); r.status != 200 || m["blocked"] != false {
		t.Fatalf("check R1 before the final judgment: %s", r.body)
	}
	// The final judgment waits for every party (Lei 9.099/1995, art. 82, § 1º).
	r = c.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", int64(ids["R1"])), clerk, []byte(`{"to": "final"}`))
	expect(t, r, 409, "")
	if !strings.Contains(string(r.body), "Ministério Público") {
		t.Fatalf("premature final judgment: the answer does not say what is missing: %s", r.body)
	}
	finalJudgment(t, c, clerk, int64(ids["R1"]), today)
	r = c.do("GET", fmt.Sprintf("/api/v1/cases/%d", int64(ids["R1"])), clerk, nil)
	m := r.json(t)
	ban = m["bans"].([]any)[0].(map[string]any)
	// 12 months from today: the day before the same day-number a year later
	// (a missing 29/02 rolls forward to 01/03, so the last day is 28/02).
	wantLast := civil.New(today.Year+1, today.Month, today.Day).AddDays(-1)
	if m["status"] != "final" || ban["status"] != "in_force" || ban["first_day"] != today.String() || ban["last_day"] != wantLast.String() {
		t.Fatalf("R1 after the final judgment: case %v, ban %v", m["status"], ban)
	}
	// R2 without publication: blocklist only.
	expect(t, sentence("R2", fmt.Sprintf(`{"defendant_id": %d, `+signedJSON+`"publish": false, "ban": {"months": 6}}`, int64(defs["R2"]))), 201, "")
	finalJudgment(t, c, clerk, int64(ids["R2"]), today)
	// R7: facts of 2018 (art. 41-B § 2º); its ban waits for the final
	// judgment, so it is on no list.
	r = sentence("R7", fmt.Sprintf(`{"defendant_id": %d, `+signedJSON+`"ban": {"months": 6}}`, int64(defs["R7"])))
	expect(t, r, 201, "")
	if b := r.json(t)["ban"].(map[string]any); b["article"] != "art. 41-B, § 2º" || b["status"] != "awaiting_final" {
		t.Fatalf("R7 ban: %v", b)
	}
	// R8: facts of 2008 (art. 39 of 2003, 3 to 12 months); appealed, the
	// Turma Recursal reforms the term to 6 months (Lei 9.099/1995, art. 82),
	// which replaces the ban before it starts.
	r = sentence("R8", fmt.Sprintf(`{"defendant_id": %d, `+signedJSON+`"ban": {"months": 12}}`, int64(defs["R8"])))
	expect(t, r, 201, "")
	r8 := r.json(t)["ban"].(map[string]any)
	if r8["article"] != "art. 39" || r8["law"] != "Lei 10.671/2003" {
		t.Fatalf("R8 ban: %v", r8)
	}
	r8case := fmt.Sprintf("/api/v1/cases/%d", int64(ids["R8"]))
	expect(t, c.do("POST", r8case+"/transitions", clerk, []byte(`{"to": "appeal"}`)), 200, "")
	expect(t, c.do("POST", r8case+"/transitions", clerk, []byte(`{"to": "final"}`)), 409, "")
	expect(t, c.do("POST", r8case+"/appeal-result", clerk, []byte(fmt.Sprintf(`{"result": "reformed", "defendant_id": %d, "decided_on": %q, "ban": {"months": 13}}`, int64(defs["R8"]), today))), 422, "ban.months")
	expect(t, c.do("POST", r8case+"/appeal-result", clerk, []byte(fmt.Sprintf(`{"result": "reformed", "defendant_id": %d, "decided_on": %q, "ban": {"months": 6}, "text": "Pena reduzida pela Turma Recursal."}`, int64(defs["R8"]), today))), 201, "")
	expect(t, c.do("POST", r8case+"/transitions", clerk, []byte(fmt.Sprintf(`{"to": "final", "final_on": %q}`, today))), 200, "")
	r = c.do("GET", r8case, clerk, nil)
	states := map[string]string{}
	want6, err := sanctions.LastDay(today, 6)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range r.json(t)["bans"].([]any) {
		b := b.(map[string]any)
		states[fmt.Sprint(b["months"])] = fmt.Sprint(b["status"])
		if b["months"] == float64(6) && (b["first_day"] != today.String() || b["last_day"] != want6.String()) {
			t.Errorf("R8's reformed ban: %v, want %s–%s", b, today, want6)
		}
	}
	if states["12"] != "reformed" || states["6"] != "in_force" {
		t.Fatalf("R8 after the appeal: bans by months %v, want 12 reformed and 6 in force", states)
	}

	// Public list: names of published bans in force; never a CPF.
	r = c.do("GET", "/api/v1/public/banned", "", nil)
	expect(t, r, 200, "")
	pub := string(r.body)
	for name, want := range map[string]bool{"Marcelo Augusto Figueiredo": true, "Gustavo Brum Ferreira": true, "Thiago Gonçalves Lacerda": false, "Wellington José Cavalcanti": false} {
		if strings.Contains(pub, name) != want {
			t.Errorf("public list: %s present=%v, want %v: %s", name, !want, want, pub)
		}
	}
	for _, leak := range []string{"cpf", "66392332154", "birth_date", "1991-07-22"} {
		if strings.Contains(pub, leak) {
			t.Errorf("public list leaks %q: %s", leak, pub)
		}
	}
	r = c.do("GET", "/impedidos", "", nil)
	if r.status != 200 || !strings.Contains(string(r.body), "Marcelo Augusto Figueiredo") || !strings.Contains(r.header.Get("Content-Type"), "text/html") {
		t.Fatalf("/impedidos: %d %s", r.status, r.body)
	}

	// Blocklist: club only; one item per ban in force; ETag and 304.
	expect(t, c.do("GET", "/api/v1/blocklist", "", nil), 401, "")
	expect(t, c.do("GET", "/api/v1/blocklist", pros, nil), 403, "")
	r = c.do("GET", "/api/v1/blocklist", club, nil)
	expect(t, r, 200, "")
	var snap struct {
		Version     int64     `json:"version"`
		GeneratedAt time.Time `json:"generated_at"`
		Items       []struct {
			CPF      string `json:"cpf"`
			BanID    int64  `json:"ban_id"`
			LastDay  string `json:"last_day"`
			FirstDay string `json:"first_day"`
		} `json:"items"`
	}
	if err := json.Unmarshal(r.body, &snap); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, it := range snap.Items {
		got[it.CPF] = true
	}
	want := map[string]bool{"66392332154": true, "46881973659": true, "83970523214": true}
	if len(got) != 3 || !got["66392332154"] || !got["46881973659"] || !got["83970523214"] || got["48063581776"] {
		t.Fatalf("blocklist CPFs %v, want %v", got, want)
	}
	etag := r.header.Get("ETag")
	if !strings.HasPrefix(etag, `"`) || snap.Version < 1 || snap.GeneratedAt.IsZero() {
		t.Fatalf("ETag %q version %d generated_at %v", etag, snap.Version, snap.GeneratedAt)
	}
	r = c.do("GET", "/api/v1/blocklist", club, nil, "If-None-Match", etag)
	if r.status != 304 || len(r.body) != 0 {
		t.Fatalf("If-None-Match: %d %s", r.status, r.body)
	}
	r = c.do("GET", "/api/v1/blocklist?format=csv", club, nil)
	expect(t, r, 200, "")
	if !strings.HasPrefix(r.header.Get("Content-Type"), "text/csv") || !strings.Contains(string(r.body), "66392332154") || !strings.HasPrefix(string(r.body), "cpf,") {
		t.Fatalf("CSV: %s", r.body)
	}
	if r.header.Get("ETag") == etag || r.header.Get("ETag") == "" {
		t.Fatalf("CSV and JSON share the ETag %q", etag)
	}
	r = c.do("GET", "/api/v1/blocklist", club, nil, "Accept", "text/csv")
	if !strings.HasPrefix(string(r.body), "cpf,") {
		t.Fatalf("Accept: text/csv gave %s", r.body)
	}
	// CPF checks.
	r = c.do("GET", "/api/v1/blocklist/check/663.923.321-54", club, nil)
	if m := r.json(t); r.status != 200 || m["blocked"] != true || len(m["bans"].([]any)) != 1 {
		t.Fatalf("check R1: %s", r.body)
	}
	r = c.do("GET", "/api/v1/blocklist/check/48063581776", club, nil)
	if m := r.json(t); r.status != 200 || m["blocked"] != false {
		t.Fatalf("check R7 (ban awaiting the final judgment): %s", r.body)
	}
	expect(t, c.do("GET", "/api/v1/blocklist/check/66392332155", club, nil), 422, "cpf")
	expect(t, c.do("GET", "/api/v1/blocklist/check/66392332154", pros, nil), 403, "")
	// Legal computations need no token.
	r = c.do("GET", "/api/v1/legal/ban-term?first_day=2023-11-30&months=3", "", nil)
	if m := r.json(t); m["last_day"] != "2024-02-29" {
		t.Fatalf("ban-term: %s", r.body)
	}
}

// startInProcess runs the real server in this process on a fresh database
// and 127.0.0.1:0, with clock clk; it stops when the test ends. The context
// ends with the test too.
func startInProcess(t *testing.T, clk clock.Clock) (*Main, context.Context) {
	t.Helper()
	return startOn(t, clk, pgtest.NewDSN(t), "")
}

// startOn is startInProcess on the database dsn, with the signing keys under
// keyDir ("" for keys kept in memory).
func startOn(t *testing.T, clk clock.Clock, dsn, keyDir string) (*Main, context.Context) {
	t.Helper()
	cfg := config.Config{Addr: "127.0.0.1:0", DatabaseURL: dsn, Court: "26.0100", TimeZone: "America/Sao_Paulo", KeyDir: keyDir}
	m := &Main{Config: cfg, Clock: clk}
	ctx, _ := testenv.MustRunMain(t, m)
	return m, ctx
}

// TestDayAfterLastDay runs the in-process server with a clock the test moves:
// a ban is in force until the end of its last day in America/Sao_Paulo and
// on neither list from the first instant of the next day. It starts on the
// day the judgment became final, not on the day of the sentence (Súmula
// 643 STJ): the sentence of 31/01/2026 puts nobody on a list.
func TestDayAfterLastDay_Sumula643STJ(t *testing.T) {
	clk := clock.NewFixed(time.Date(2026, 3, 1, 10, 0, 0, 0, saoPaulo))
	m, ctx := startInProcess(t, clk)
	tok := func(role, name, club string) string {
		tk, _, err := createToken(ctx, m.DB, accounts.UserSpec{Name: name, Role: role, Court: "26.0100", Club: club})
		if err != nil {
			t.Fatal(err)
		}
		return tk
	}
	pros, judge, club, clerk := tok("prosecutor", "p", ""), tok("judge", "j", ""), tok("club", "c", "Palmeiras"), tok("clerk", "k", "")
	c := client{t, "http://" + m.Addr()}
	// The sentence and the waivers on 2026-01-31, 3 months: last day
	// 2026-04-30 (CP art. 10, rolled forward).
	clk.Set(time.Date(2026, 1, 31, 10, 0, 0, 0, saoPaulo))
	r := c.do("POST", "/api/v1/cases", pros, fixtures(t)["R1"])
	expect(t, r, 201, "")
	k := r.json(t)
	caseID := int64(k["id"].(float64))
	def := k["defendants"].([]any)[0].(map[string]any)["id"].(float64)
	receive(t, c, pros, clerk, caseID)
	r = c.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", caseID), judge,
		[]byte(fmt.Sprintf(`{"defendant_id": %d, `+signedJSON+`"ban": {"months": 3}}`, int64(def))))
	expect(t, r, 201, "")
	if b := r.json(t)["ban"].(map[string]any); b["status"] != "awaiting_final" || b["first_day"] != nil || b["last_day"] != nil {
		t.Fatalf("the sentence's ban: %v, want awaiting_final with no days", b)
	}
	listed := func() (public, blocked bool, version float64) {
		p := c.do("GET", "/api/v1/public/banned", "", nil)
		b := c.do("GET", "/api/v1/blocklist", club, nil)
		ch := c.do("GET", "/api/v1/blocklist/check/66392332154", club, nil).json(t)
		// The items (the bans in force): the snapshot's upcoming set names
		// the CPF the day before the first day, and it does not block.
		var snap struct {
			Items []struct {
				CPF string `json:"cpf"`
			} `json:"items"`
		}
		if err := json.Unmarshal(b.body, &snap); err != nil {
			t.Fatalf("blocklist: %v %s", err, b.body)
		}
		inBlock := false
		for _, it := range snap.Items {
			inBlock = inBlock || it.CPF == "66392332154"
		}
		if inBlock != (ch["blocked"] == true) {
			t.Fatalf("blocklist and check disagree: %s / %v", b.body, ch)
		}
		return strings.Contains(string(p.body), "Marcelo Augusto Figueiredo"), inBlock, b.json(t)["version"].(float64)
	}
	if pub, blk, _ := listed(); pub || blk {
		t.Fatalf("the day of the sentence, before the final judgment: public %v blocklist %v", pub, blk)
	}
	finalJudgment(t, c, clerk, caseID, civil.New(2026, 1, 31))
	r = c.do("GET", fmt.Sprintf("/api/v1/cases/%d", caseID), clerk, nil)
	if b := r.json(t)["bans"].([]any)[0].(map[string]any); b["first_day"] != "2026-01-31" || b["last_day"] != "2026-04-30" {
		t.Fatalf("final ban %v–%v, want 2026-01-31–2026-04-30", b["first_day"], b["last_day"])
	}
	clk.Set(time.Date(2026, 3, 1, 10, 0, 0, 0, saoPaulo))
	pub, blk, v1 := listed()
	if !pub || !blk {
		t.Fatalf("in force on 2026-03-01: public %v blocklist %v", pub, blk)
	}
	clk.Set(time.Date(2026, 4, 30, 23, 59, 59, 0, saoPaulo))
	if pub, blk, v2 := listed(); !pub || !blk || v2 != v1 {
		t.Fatalf("last day 23:59:59: public %v blocklist %v version %v→%v", pub, blk, v1, v2)
	}
	clk.Set(time.Date(2026, 5, 1, 0, 0, 1, 0, saoPaulo))
	pub, blk, v3 := listed()
	if pub || blk {
		t.Fatalf("day after the last day: public %v blocklist %v", pub, blk)
	}
	if v3 <= v1 {
		t.Fatalf("the expiry at midnight made no new blocklist version: %v then %v", v1, v3)
	}
	// Before the first day it was not in force either.
	clk.Set(time.Date(2026, 1, 30, 23, 59, 0, 0, saoPaulo))
	if pub, blk, _ := listed(); pub || blk {
		t.Fatalf("before the first day: public %v blocklist %v", pub, blk)
	}
}
