package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/config"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/pgtest"
)

// backup of a seeded database, restore into an empty one: the same cases,
// bans and users come back (pg_dump / pg_restore).
func TestBackupRestore(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "juizado")
	if out, err := exec.Command(goBin(), "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	src := pgtest.NewDSN(t)
	ctx := context.Background()
	g, err := db.Open(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	if err := seedDemo(ctx, g, config.Config{Court: "26.0100", TimeZone: "America/Sao_Paulo"}); err != nil {
		t.Fatal(err)
	}
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
	want := counts(src)
	if !strings.Contains(want, "cases=2") {
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
	run(src, "backup", dump)
	dst := pgtest.NewEmptyDSN(t)
	run(dst, "restore", dump)
	if got := counts(dst); got != want {
		t.Fatalf("restored %s, want %s", got, want)
	}
}
