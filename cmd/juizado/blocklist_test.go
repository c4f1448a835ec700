package main

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/config"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/registry/blocklist"
)

// TestBlocklistSignedAndFeed runs the in-process server with a key
// directory: snapshot JSON and CSV and feed pages verify against the key of
// GET /api/v1/blocklist/key (also with `juizado blocklist verify`); ETag and
// 304 with and without gzip; the feed gives the next snapshot; 410/422; the
// CPF checks are logged; CSV cells cannot run as formulas.
func TestBlocklistSignedAndFeed(t *testing.T) {
	clk := clock.NewFixed(time.Date(2026, 3, 1, 10, 0, 0, 0, saoPaulo))
	keyDir := filepath.Join(t.TempDir(), "keys")
	cfg := config.Config{Addr: "127.0.0.1:0", DatabaseURL: pgtest.NewDSN(t), Court: "26.0100", TimeZone: "America/Sao_Paulo", KeyDir: keyDir}
	var logs bytes.Buffer
	m := &Main{Config: cfg, Clock: clk, Logger: slog.New(slog.NewJSONHandler(&logs, nil))}
	ctx, stop := testenv.MustRunMain(t, m)
	tok := func(role, name, club string) string {
		tk, _, err := createToken(ctx, m.DB, accounts.UserSpec{Name: name, Role: role, Court: "26.0100", Club: club})
		if err != nil {
			t.Fatal(err)
		}
		return tk
	}
	pros, judge, club, clerk := tok("prosecutor", "p", ""), tok("judge", "j", ""), tok("club", "c", "Palmeiras"), tok("clerk", "k", "")
	c := client{t, "http://" + m.Addr()}
	fx := fixtures(t)
	// A sentence's ban starts on the day the judgment became final (Súmula
	// 643 STJ): finalBan makes every party waive the appeal on first.
	sentence := func(ref, first string, months int) int64 {
		t.Helper()
		_, id := finalBan(t, c, clk, pros, judge, clerk, fx[ref], first, months, "")
		return id
	}
	b1 := sentence("R1", "2026-02-01", 3)

	// The public key, and files only 0600 in a 0700 directory.
	r := c.do("GET", "/api/v1/blocklist/key", "", nil)
	expect(t, r, 200, "")
	var kr struct {
		Keys []struct {
			ID        string     `json:"id"`
			PublicKey string     `json:"public_key"`
			NotAfter  *time.Time `json:"not_after"`
		} `json:"keys"`
	}
	if err := json.Unmarshal(r.body, &kr); err != nil || len(kr.Keys) != 1 {
		t.Fatalf("keys: %s", r.body)
	}
	pub, err := blocklist.ParsePublicKey([]byte(kr.Keys[0].PublicKey))
	if err != nil || pub.ID != kr.Keys[0].ID {
		t.Fatalf("public key %q: %v", kr.Keys[0].PublicKey, err)
	}
	if st, err := os.Stat(keyDir); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("key dir: %v %v", st, err)
	}
	// Key files 0600 in 0700 folders (audit/ holds the audit trail's key).
	files, _ := filepath.Glob(filepath.Join(keyDir, "*"))
	sub, _ := filepath.Glob(filepath.Join(keyDir, "*", "*"))
	for _, f := range append(files, sub...) {
		want := os.FileMode(0o600)
		if st, _ := os.Stat(f); st.IsDir() {
			want = 0o700
		}
		if st, _ := os.Stat(f); st.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", f, st.Mode().Perm(), want)
		}
	}
	verify := func(what string, r response) {
		t.Helper()
		if r.header.Get("X-Juizado-Key-Id") != pub.ID {
			t.Fatalf("%s: key id %q, want %q", what, r.header.Get("X-Juizado-Key-Id"), pub.ID)
		}
		if _, ok := blocklist.Verify(r.body, r.header.Get("X-Juizado-Signature"), []blocklist.PublicKey{pub}); !ok {
			t.Fatalf("%s: signature does not verify", what)
		}
	}

	// Snapshot JSON, plain.
	plain := c.do("GET", "/api/v1/blocklist", club, nil, "Accept-Encoding", "identity")
	expect(t, plain, 200, "")
	verify("snapshot JSON", plain)
	var snap blocklist.Snapshot
	if err := json.Unmarshal(plain.body, &snap); err != nil || len(snap.Items) != 1 || snap.Items[0].BanID != b1 {
		t.Fatalf("snapshot: %s", plain.body)
	}
	// gzip: the signature is over the uncompressed bytes; its own strong ETag.
	gz := c.do("GET", "/api/v1/blocklist", club, nil, "Accept-Encoding", "gzip")
	expect(t, gz, 200, "")
	if gz.header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("no gzip: %v", gz.header)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz.body))
	if err != nil {
		t.Fatal(err)
	}
	unz, _ := io.ReadAll(zr)
	if !bytes.Equal(unz, plain.body) {
		t.Fatal("gzip body differs from the plain body")
	}
	verify("snapshot JSON (gzip)", response{gz.status, gz.header, unz})
	et, etz := plain.header.Get("ETag"), gz.header.Get("ETag")
	if et == "" || etz == "" || et == etz || strings.HasPrefix(et, "W/") {
		t.Fatalf("ETags %q %q", et, etz)
	}
	for _, tag := range []string{et, etz} {
		for _, enc := range []string{"gzip", "identity"} {
			if r := c.do("GET", "/api/v1/blocklist", club, nil, "If-None-Match", tag, "Accept-Encoding", enc); r.status != 304 || len(r.body) != 0 {
				t.Fatalf("If-None-Match %s (%s): %d", tag, enc, r.status)
			}
		}
	}
	// CSV: signed; a name that looks like a formula cannot run.
	if err := m.DB.Exec("UPDATE bans SET name = '=HYPERLINK(\"http://x\")' WHERE id = ?", b1).Error; err != nil {
		t.Fatal(err)
	}
	if err := m.Server.RefreshBlocklist(ctx); err != nil {
		t.Fatal(err)
	}
	csvr := c.do("GET", "/api/v1/blocklist?format=csv", club, nil, "Accept-Encoding", "identity")
	expect(t, csvr, 200, "")
	verify("snapshot CSV", csvr)
	recs, err := csv.NewReader(bytes.NewReader(csvr.body)).ReadAll()
	if err != nil || len(recs) != 2 || recs[1][1] != `'=HYPERLINK("http://x")` {
		t.Fatalf("CSV: %q %v", recs, err)
	}
	if csvr.header.Get("ETag") == et {
		t.Fatal("CSV has the JSON's ETag")
	}
	if r := c.do("GET", "/api/v1/blocklist", club, nil, "If-None-Match", et); r.status != 200 {
		t.Fatalf("old ETag after a new version: %d", r.status)
	}

	// The feed from the first snapshot's version gives the current snapshot.
	b2 := sentence("R2", "2026-03-01", 3)
	sentence("R8", "2026-04-01", 3) // future
	clk.Set(time.Date(2026, 4, 1, 0, 0, 5, 0, saoPaulo))
	cur := c.do("GET", "/api/v1/blocklist", club, nil)
	var now blocklist.Snapshot
	_ = json.Unmarshal(cur.body, &now)
	gate := map[int64]bool{}
	for _, it := range snap.Items {
		gate[it.BanID] = true
	}
	since, cursor, cursors := snap.Version, "", 0
	for i := 0; ; i++ {
		r := c.do("GET", fmt.Sprintf("/api/v1/blocklist/changes?since=%d&limit=1&cursor=%s", since, cursor), club, nil, "Accept-Encoding", "identity")
		expect(t, r, 200, "")
		verify("feed page", r)
		var p blocklist.FeedPage
		var raw struct {
			Changes []struct {
				Op    string `json:"op"`
				BanID int64  `json:"ban_id"`
			} `json:"changes"`
		}
		if err := json.Unmarshal(r.body, &p); err != nil {
			t.Fatal(err)
		}
		_ = json.Unmarshal(r.body, &raw)
		for _, ch := range raw.Changes {
			gate[ch.BanID] = ch.Op == "add"
			if ch.Op == "remove" {
				delete(gate, ch.BanID)
			}
		}
		if p.Cursor == "" && p.To >= now.Version {
			break
		}
		if i > 50 {
			t.Fatal("feed does not end")
		}
		if p.FromCursor != cursor {
			t.Fatalf("the signed page names cursor %q, asked with %q", p.FromCursor, cursor)
		}
		if p.Cursor != "" {
			// The cursor is bound to its since: with another since, or
			// altered, it is 422 on cursor, never a page that skips changes.
			other := c.do("GET", fmt.Sprintf("/api/v1/blocklist/changes?since=%d&limit=1000&cursor=%s", snap.Version-1, p.Cursor), club, nil)
			expect(t, other, 422, "cursor")
			if !strings.Contains(string(other.body), fmt.Sprintf("since=%d", since)) {
				t.Fatalf("the 422 does not name the cursor's since: %s", other.body)
			}
			forged := []byte(p.Cursor)
			forged[len(forged)-3] ^= 1
			expect(t, c.do("GET", fmt.Sprintf("/api/v1/blocklist/changes?since=%d&cursor=%s", since, forged), club, nil), 422, "cursor")
		}
		if cursor = p.Cursor; cursor != "" {
			cursors++ // the correction: a removal and an addition in one version
			continue
		}
		since = p.To
	}
	want := map[int64]bool{}
	for _, it := range now.Items {
		want[it.BanID] = true
	}
	if fmt.Sprint(gate) != fmt.Sprint(want) || !want[b2] || len(want) != 3 || cursors == 0 {
		t.Fatalf("gate after the feed %v, snapshot %v", gate, want)
	}
	// 422 and 410.
	expect(t, c.do("GET", "/api/v1/blocklist/changes?since=-1", club, nil), 422, "since")
	expect(t, c.do("GET", "/api/v1/blocklist/changes?since=abc", club, nil), 422, "since")
	expect(t, c.do("GET", "/api/v1/blocklist/changes", club, nil), 422, "since")
	expect(t, c.do("GET", fmt.Sprintf("/api/v1/blocklist/changes?since=%d", now.Version+1), club, nil), 422, "since")
	expect(t, c.do("GET", "/api/v1/blocklist/changes?since=0&limit=0", club, nil), 422, "limit")
	// Cursors of the old layout (version and id only, the tester's): a
	// cursor for version 8 sent with since=0, one for version 20 past the
	// current version.
	expect(t, c.do("GET", "/api/v1/blocklist/changes?since=0&limit=1000&cursor=AAAAAAAAAAgAAAAAAAAACA", club, nil), 422, "cursor")
	expect(t, c.do("GET", "/api/v1/blocklist/changes?since=1&cursor=AAAAAAAAABQAAAAAAAAAAA", club, nil), 422, "cursor")
	expect(t, c.do("GET", "/api/v1/blocklist/changes?since=0", pros, nil), 403, "")
	if err := m.Server.Lists().PruneFeed(ctx, snap.Version); err != nil {
		t.Fatal(err)
	}
	expect(t, c.do("GET", fmt.Sprintf("/api/v1/blocklist/changes?since=%d", snap.Version-1), club, nil), 410, "")
	expect(t, c.do("GET", fmt.Sprintf("/api/v1/blocklist/changes?since=%d", snap.Version), club, nil), 200, "")

	// Awaiting identification: clerk and judge; not clubs.
	expect(t, c.do("GET", "/api/v1/blocklist/awaiting-identification", clerk, nil), 200, "")
	expect(t, c.do("GET", "/api/v1/blocklist/awaiting-identification", club, nil), 403, "")
	// Public list filters.
	expect(t, c.do("GET", "/api/v1/public/banned?court=26.0100", "", nil), 200, "")
	expect(t, c.do("GET", "/api/v1/public/banned?court=26-0100", "", nil), 422, "court")
	if r := c.do("GET", "/api/v1/public/banned?court=35.0001", "", nil); len(r.json(t)["items"].([]any)) != 0 {
		t.Fatalf("other court: %s", r.body)
	}

	// CPF checks in every spelling; each check logged, the CPF never in the request log.
	for _, cpf := range []string{"468.819.736-59", "46881973659", " 468 819 736 59 "} {
		r := c.do("GET", "/api/v1/blocklist/check/"+strings.ReplaceAll(cpf, " ", "%20"), club, nil)
		if m := r.json(t); r.status != 200 || m["blocked"] != true || m["version"] == nil {
			t.Fatalf("check %q: %s", cpf, r.body)
		}
	}
	stop()
	var n int64
	if err := m.DB.Raw("SELECT count(*) FROM blocklist_checks WHERE cpf = '46881973659' AND club = 'Palmeiras'").Scan(&n).Error; err != nil || n != 3 {
		t.Fatalf("check log rows %d (%v), want 3", n, err)
	}
	if strings.Contains(logs.String(), "46881973659") || strings.Contains(logs.String(), "468.819") || strings.Contains(logs.String(), "468 819") || !strings.Contains(logs.String(), `"route":"/api/v1/blocklist/check/:cpf"`) {
		t.Fatalf("the request log holds the CPF or lacks the route template:\n%s", logs.String())
	}

	// Offline verification with the CLI.
	dir := t.TempDir()
	body, sigFile := filepath.Join(dir, "blocklist.json"), filepath.Join(dir, "sig")
	_ = os.WriteFile(body, plain.body, 0o600)
	_ = os.WriteFile(sigFile, []byte(plain.header.Get("X-Juizado-Signature")), 0o600)
	run := func(args ...string) (string, error) {
		cmd := rootCmd()
		var out bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetErr(io.Discard)
		cmd.SetArgs(args)
		err := cmd.Execute()
		return out.String(), err
	}
	if out, err := run("blocklist", "verify", body, plain.header.Get("X-Juizado-Signature"), "--key", pub.PublicKey); err != nil || strings.TrimSpace(out) != "valid" {
		t.Errorf("verify: %q %v", out, err)
	}
	if out, err := run("blocklist", "verify", body, sigFile, "--key", pub.PublicKey); err != nil || strings.TrimSpace(out) != "valid" {
		t.Errorf("verify (signature file): %q %v", out, err)
	}
	_ = os.WriteFile(body, append(plain.body, ' '), 0o600)
	if out, err := run("blocklist", "verify", body, sigFile, "--key", pub.PublicKey); err == nil || strings.TrimSpace(out) != "invalid" {
		t.Errorf("verify of a changed file: %q %v", out, err)
	}
}
