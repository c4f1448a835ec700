package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/pgtest"
)

// backup of a seeded database, restore into an empty one: the same cases,
// bans and users come back (pg_dump / pg_restore), the audit chain still
// verifies, and a server on the restored database serves the same signed
// blocklist (same bytes, ETag and signature) as one on the original.
func TestBackupRestore(t *testing.T) {
	bin := buildBinary(t)
	src, g := demoDB(t)
	ctx := context.Background()
	counts := func(dsn string) string {
		h, err := db.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { s, _ := h.DB(); s.Close() }()
		var out []string
		for _, table := range []string{"cases", "bans", "users", "movements", "api_tokens"} {
			var n int64
			if err := h.Raw("SELECT count(*) FROM " + table).Scan(&n).Error; err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%s=%d", table, n))
		}
		return strings.Join(out, " ")
	}
	club, _, err := createToken(ctx, g, accounts.UserSpec{Name: "portaria", Role: "club", Club: "Corinthians"})
	if err != nil {
		t.Fatal(err)
	}
	want := counts(src)
	if !strings.Contains(want, "cases=7") { // the seven demo cases of the README
		t.Fatalf("seed made %s", want)
	}
	dump := filepath.Join(t.TempDir(), "juizado.dump")
	run := func(dsn string, args ...string) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "DATABASE_URL="+dsn)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	run(src, "blocklist", "refresh")
	run(src, "backup", dump)
	if fi, err := os.Stat(dump); err != nil {
		t.Fatal(err)
	} else if fi.Mode().Perm() != 0o600 {
		t.Fatalf("dump mode %v, want 0600: it holds personal data (LGPD art. 46)", fi.Mode().Perm())
	}
	dst := pgtest.NewEmptyDSN(t)
	run(dst, "restore", dump)
	if got := counts(dst); got != want {
		t.Fatalf("restored %s, want %s", got, want)
	}
	run(dst, "audit", "verify")
	keys := t.TempDir()
	served := func(dsn string) (body, etag, sig string) {
		m, _ := startOn(t, clock.System{}, dsn, keys)
		req, _ := http.NewRequest("GET", "http://"+m.Addr()+"/api/v1/blocklist", nil)
		req.Header.Set("Authorization", "Bearer "+club)
		req.Header.Set("Accept-Encoding", "identity")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("blocklist: %d %s", resp.StatusCode, b)
		}
		return string(b), resp.Header.Get("ETag"), resp.Header.Get("X-Juizado-Signature")
	}
	// Each body is signed with the court time it was made at (court_time,
	// and in the JSON ETag), so two servers never sign the same bytes:
	// apart from that stamp the restored database serves the same list.
	courtTime := regexp.MustCompile(`,"court_time":"[^"]*"|-[0-9]+-json"$`)
	b1, e1, s1 := served(src)
	b2, e2, s2 := served(dst)
	b1, e1 = courtTime.ReplaceAllString(b1, ""), courtTime.ReplaceAllString(e1, `-json"`)
	b2, e2 = courtTime.ReplaceAllString(b2, ""), courtTime.ReplaceAllString(e2, `-json"`)
	if b1 != b2 || e1 != e2 || s1 == "" || s2 == "" || !strings.Contains(b1, `"cpf"`) || !strings.Contains(b1, `"version":`) {
		t.Errorf("restored database serves another blocklist:\n%s %s %.200s\n%s %s %.200s", e1, s1, b1, e2, s2, b2)
	}
}
