package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/clock"
)

// docBlocks returns the ```sh blocks of the README and of the files under
// docs/ (the API's examples are docs/api.md), each with its
// backslash-continued lines joined.
func docBlocks(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("docs/*.md: %v %v", files, err)
	}
	var out []string
	for _, name := range append([]string{"../../README.md"}, files...) {
		text, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(string(text), -1) {
			out = append(out, strings.ReplaceAll(m[1], "\\\n", " "))
		}
	}
	return out
}

// shellWords splits a command line as sh would for the quoting the README
// uses: single quotes literal, double quotes and bare words expanding $VAR
// from vars (unknown variables stay as written), words glued across
// quotes, and a # starting a word begins a comment.
func shellWords(line string, vars map[string]string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	expand := func(s string, i int) (string, int) {
		j := i + 1
		for j < len(s) && (s[j] == '_' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= '0' && s[j] <= '9') {
			j++
		}
		name := s[i+1 : j]
		if v, ok := vars[name]; ok && name != "" {
			return v, j
		}
		return s[i:j], j
	}
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
			i++
		case c == '#' && !inWord:
			i = len(line)
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				j = len(line) - i - 1
			}
			cur.WriteString(line[i+1 : i+1+j])
			inWord, i = true, i+j+2
		case c == '"':
			i++
			for i < len(line) && line[i] != '"' {
				if line[i] == '$' {
					v, j := expand(line, i)
					cur.WriteString(v)
					i = j
					continue
				}
				cur.WriteByte(line[i])
				i++
			}
			inWord, i = true, i+1
		case c == '$':
			v, j := expand(line, i)
			cur.WriteString(v)
			inWord, i = true, j
		default:
			cur.WriteByte(c)
			inWord = true
			i++
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// curlCall is a curl command of the README: method, URL (after
// localhost:8080), headers, body, and whether its output goes to a file.
type curlCall struct {
	line, method, path, body string
	header                   map[string]string
	toFile                   bool
}

func parseCurl(line string, vars map[string]string) (curlCall, bool) {
	w := shellWords(strings.TrimSpace(line), vars)
	if len(w) == 0 || w[0] != "curl" {
		return curlCall{}, false
	}
	c := curlCall{line: line, method: "GET", header: map[string]string{}}
	for i := 1; i < len(w); i++ {
		switch a := w[i]; {
		case strings.HasPrefix(a, "-X"):
			c.method = strings.TrimPrefix(a, "-X")
		case a == "-H" && i+1 < len(w):
			i++
			if k, v, ok := strings.Cut(w[i], ":"); ok {
				c.header[k] = strings.TrimSpace(v)
			}
		case (a == "-d" || a == "--data-binary") && i+1 < len(w):
			i++
			c.body = w[i]
			if c.method == "GET" {
				c.method = "POST"
			}
		case (a == "-o" || a == "-D" || a == "-F") && i+1 < len(w):
			i++
			c.toFile = c.toFile || a == "-o"
		case strings.HasPrefix(a, "localhost:8080"):
			c.path = strings.TrimPrefix(a, "localhost:8080")
		}
	}
	return c, c.path != ""
}

// Every JSON body of the curl examples (README, docs/) is JSON, whatever its
// variables hold.
func TestReadmeBodiesAreJSON(t *testing.T) {
	vars := map[string]string{}
	for _, name := range []string{"ID", "DEF", "GDEF", "GID", "BAN", "TODAY", "REVIEW"} {
		vars[name] = "1"
	}
	n := 0
	for _, b := range docBlocks(t) {
		for _, line := range strings.Split(b, "\n") {
			c, ok := parseCurl(line, vars)
			if !ok || c.body == "" || strings.HasPrefix(c.body, "@") {
				continue
			}
			n++
			if !json.Valid([]byte(c.body)) {
				t.Errorf("README: not JSON: %s\n%s", c.body, line)
			}
		}
	}
	if n < 20 {
		t.Errorf("README: only %d JSON bodies found", n)
	}
}

// The walk-through of docs/api.md runs on the demo data of `make run`: each curl
// of its block, in order, against the real server on a freshly seeded
// database, answers 2xx. The demo data is what the README's table says
// (ban 1 in force, ban 2 awaiting the final judgment with its
// precautionary ban 3, case 4 a prison conviction); the walk-through's ban
// waits for the final judgment (Súmula 643 STJ: after the signature only
// the precautionary ban blocks the CPF) and is in force from today after
// every party's waiver, the precautionary ban replaced; the sentence PDF is
// the same at every download.
func TestReadmeWalkThroughOnTheDemoData_Sumula643STJ(t *testing.T) {
	var walk string
	for _, b := range docBlocks(t) {
		if strings.Contains(b, "/sentence/sign") {
			walk = b
		}
	}
	if walk == "" {
		t.Fatal("docs: no walk-through with /sentence/sign")
	}
	dsn, g := demoDB(t)
	m, ctx := startOn(t, clock.System{}, dsn, "")
	token := func(spec accounts.UserSpec) string {
		tk, _, err := createToken(ctx, g, spec)
		if err != nil {
			t.Fatal(err)
		}
		return tk
	}
	today := civil.Today(time.Now(), saoPaulo)
	vars := map[string]string{
		"P":     token(accounts.UserSpec{Name: "demo-promotoria", Role: "prosecutor", Court: "26.0100"}),
		"J":     token(accounts.UserSpec{Name: "demo-juiza", Role: "judge", Court: "26.0100"}),
		"K":     token(accounts.UserSpec{Name: "demo-cartorio", Role: "clerk", Court: "26.0100"}),
		"C":     token(accounts.UserSpec{Name: "demo-portaria", Role: "club", Club: "Corinthians"}),
		"TODAY": today.String(), "REVIEW": today.AddDays(60).String(),
	}
	base := "http://" + m.Addr()
	call := func(c curlCall) (int, http.Header, []byte) {
		t.Helper()
		req, err := http.NewRequest(c.method, base+c.path, strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range c.header {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, res.Header, b
	}
	get := func(path, tok string) map[string]any {
		t.Helper()
		status, _, b := call(curlCall{method: "GET", path: path, header: map[string]string{"Authorization": "Bearer " + tok}})
		var v map[string]any
		if status != 200 || json.Unmarshal(b, &v) != nil {
			t.Fatalf("GET %s: %d %s", path, status, b)
		}
		return v
	}
	bans := func(caseID int) map[float64]map[string]any {
		out := map[float64]map[string]any{}
		for _, b := range get(fmt.Sprintf("/api/v1/cases/%d", caseID), vars["K"])["bans"].([]any) {
			b := b.(map[string]any)
			out[b["id"].(float64)] = b
		}
		return out
	}

	// The demo data, as the README's table describes it.
	demo := map[float64]map[string]any{}
	for _, id := range []int{1, 2} {
		for k, v := range bans(id) {
			demo[k] = v
		}
	}
	if b := demo[1]; b == nil || b["status"] != "in_force" || b["first_day"] != today.String() {
		t.Errorf("demo ban 1 (case 1): %v, want in force from today", b)
	}
	if b := demo[2]; b == nil || b["status"] != "awaiting_final" || b["first_day"] != nil {
		t.Errorf("demo ban 2 (case 2): %v, want awaiting the final judgment", b)
	}
	if b := demo[3]; b == nil || b["status"] != "in_force" || b["precautionary"] != true || b["review_on"] != today.AddDays(90).String() {
		t.Errorf("demo ban 3 (case 2): %v, want a precautionary ban in force with its review in 90 days", b)
	}
	for k, v := range bans(5) {
		demo[k] = v
	}
	for k, v := range bans(6) {
		demo[k] = v
	}
	if b := demo[4]; b == nil || b["status"] != "in_force" || b["precautionary"] != true || fmt.Sprint(b["scope"].(map[string]any)["venues"]) != "[Arena Corinthians Allianz Parque]" {
		t.Errorf("demo ban 4 (case 5): %v, want a precautionary ban for the Arena Corinthians and the Allianz Parque", b)
	}
	if b := demo[5]; b == nil || b["status"] != "in_force" || b["scope"] != nil || b["last_day"] != today.AddDays(21).String() ||
		fmt.Sprint(b["match_days"]) != fmt.Sprintf("[%s %s %s]", today.AddDays(7), today.AddDays(14), today.AddDays(21)) {
		t.Errorf("demo ban 5 (case 6): %v, want a precautionary ban for the next 3 home matches of Corinthians", b)
	}
	c4 := get("/api/v1/cases/4", vars["K"])
	if ss, _ := c4["sentences"].([]any); len(ss) != 1 || ss[0].(map[string]any)["outcome"] != "prison" || len(c4["bans"].([]any)) != 0 {
		t.Errorf("demo case 4: sentences %v, bans %v; want one prison conviction and no ban", c4["sentences"], c4["bans"])
	}
	c3 := get("/api/v1/cases/3", vars["K"])
	if c3["sentenceable"] != true || len(c3["bans"].([]any)) != 0 || c3["defendants"].([]any)[0].(map[string]any)["id"] != float64(3) {
		t.Fatalf("demo case 3 does not await sentence with defendant 3: %v", c3)
	}

	var sentenceCode string
	var calls int
	for _, line := range strings.Split(walk, "\n") {
		c, ok := parseCurl(line, vars)
		if !ok {
			continue
		}
		calls++
		status, h, body := call(c)
		if status != 200 && status != 201 {
			t.Fatalf("README: %s\n→ %d %s", strings.TrimSpace(line), status, body)
		}
		if c.toFile && (h.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(body, []byte("%PDF-"))) {
			t.Errorf("README: %s\n→ not a PDF: %s %.200s", strings.TrimSpace(line), h.Get("Content-Type"), body)
		}
		switch {
		case strings.Contains(c.path, "/sentence/sign"):
			var r struct {
				Ban              map[string]any `json:"ban"`
				PrecautionaryBan map[string]any `json:"precautionary_ban"`
			}
			_ = json.Unmarshal(body, &r)
			if r.Ban["status"] != "awaiting_final" || r.Ban["first_day"] != nil || r.PrecautionaryBan["status"] != "in_force" || r.PrecautionaryBan["review_on"] != vars["REVIEW"] {
				t.Errorf("README: the signed sentence: ban %v, precautionary ban %v", r.Ban, r.PrecautionaryBan)
			}
		case strings.Contains(c.path, "/blocklist/check/"):
			var r struct {
				Blocked bool `json:"blocked"`
				Bans    []struct {
					BanID float64 `json:"ban_id"`
				} `json:"bans"`
			}
			_ = json.Unmarshal(body, &r)
			if !r.Blocked || len(r.Bans) != 1 || demo[r.Bans[0].BanID] != nil {
				t.Errorf("README: the check after the signature: %s, want blocked by the precautionary ban alone", body)
			}
		case strings.Contains(c.path, "/documents/sentence.pdf"):
			sentenceCode = h.Get("X-Juizado-Document-Code")
			if again, h2, b2 := call(c); again != 200 || h2.Get("X-Juizado-Document-Code") != sentenceCode || !bytes.Equal(b2, body) {
				t.Errorf("README: the sentence downloaded again: %d code %q, want the same PDF %q", again, h2.Get("X-Juizado-Document-Code"), sentenceCode)
			}
		}
	}
	if calls < 10 {
		t.Fatalf("README: the walk-through has only %d curl calls", calls)
	}
	if sentenceCode == "" {
		t.Error("README: the walk-through downloads no sentence")
	}
	final, replaced := 0, 0
	for _, b := range bans(3) {
		switch {
		case b["precautionary"] == true && b["status"] == "replaced":
			replaced++
		case b["precautionary"] != true && b["status"] == "in_force" && b["first_day"] == today.String():
			final++
		}
	}
	if final != 1 || replaced != 1 {
		t.Errorf("case 3 after the walk-through: %v; want the ban in force from today and the precautionary ban replaced", bans(3))
	}
	if v := get("/api/v1/cases/3", vars["K"]); v["status"] != "final" || v["finality_missing"] != nil {
		t.Errorf("case 3 after the walk-through: status %v, finality_missing %v", v["status"], v["finality_missing"])
	}
}

// `make run` runs the built binary, not `go run`: go run exits 1 whenever
// it was interrupted, so Ctrl-C ended with "make: *** [run] Error 1" even
// though `juizado dev` stops cleanly with status 0.
func TestMakeRunDoesNotGoRun(t *testing.T) {
	mk, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^run:[^\n]*\n((?:\t[^\n]*\n)+)`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("Makefile: no run target")
	}
	if recipe := string(m[1]); regexp.MustCompile(`\bgo run\b|\$\(GO\) run\b`).MatchString(recipe) || !regexp.MustCompile(`exec bin/juizado dev`).MatchString(recipe) {
		t.Errorf("the run recipe does not exec the built binary:\n%s", recipe)
	}
}
