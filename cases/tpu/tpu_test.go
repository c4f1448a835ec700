package tpu_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"

	"github.com/juizado/juizado/cases/tpu"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// Every embedded table parses, and a code not verified in a published
// source is marked so with its note, never silently (Res. CNJ 46/2007).
func TestEmbedded_EveryTableParsesAndMarksUnverified_ResCNJ46(t *testing.T) {
	for _, name := range tpu.Tables {
		tb, err := tpu.Embedded(name)
		if err != nil {
			t.Fatal(err)
		}
		if tb.Version == "" || len(tb.Items) == 0 {
			t.Fatalf("%s: version %q, %d items", name, tb.Version, len(tb.Items))
		}
		for _, it := range tb.Items {
			if it.Note == "" {
				t.Errorf("%s %d: no source noted", name, it.Code)
			}
		}
	}
	mv, _ := tpu.Embedded(tpu.Movements)
	byCode := map[int]tpu.Item{}
	for _, it := range mv.Items {
		byCode[it.Code] = it
	}
	if !byCode[848].Verified || byCode[970].Verified {
		t.Errorf("848 verified %v (DOMAIN.md §4 lists it), 970 verified %v (not in a published source here)", byCode[848].Verified, byCode[970].Verified)
	}
	if got := strings.Join(byCode[970].Complements, "|"); got != "tipo de audiência|situação da audiência" {
		t.Errorf("970 complements %q", got)
	}
}

// The migrations load the embedded tables with their version; Check
// names the table's version when a code is unknown.
func TestSync_MigrateLoadsEmbeddedAndUnknownCodeNamesVersion_ResCNJ46(t *testing.T) {
	g := pgtest.NewDB(t)
	sqlDB, _ := g.DB()
	ctx := context.Background()
	emb, _ := tpu.Embedded(tpu.Movements)
	got, err := tpu.Read(ctx, sqlDB, tpu.Movements)
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != emb.Version || len(got.Items) != len(emb.Items) {
		t.Fatalf("database movements %s (%d items), embedded %s (%d)", got.Version, len(got.Items), emb.Version, len(emb.Items))
	}
	if n, err := tpu.Check(ctx, sqlDB, tpu.Movements, "tpu_code", 848); err != nil || n != "Trânsito em julgado" {
		t.Fatalf("848: %q, %v", n, err)
	}
	_, err = tpu.Check(ctx, sqlDB, tpu.Movements, "tpu_code", 99999)
	var e *errs.Error
	if !errors.As(err, &e) || e.Kind != errs.Invalid || e.Fields[0].Field != "tpu_code" || !strings.Contains(e.Fields[0].Message, emb.Version) {
		t.Fatalf("99999: %v", err)
	}
	if loaded, err := tpu.Sync(ctx, sqlDB, time.Now()); err != nil || len(loaded) != 0 {
		t.Fatalf("second sync loaded %v, %v", loaded, err)
	}
}

// A newer SGT export in Windows-1252 loads whole or nothing: one bad line
// lists every bad line with its reason and writes nothing; the good file
// replaces the table and its version; an older version is a conflict, and
// the embedded (older) table does not overwrite it at the next sync.
func TestLoad_NewerVersionWholeOrNothing_ResCNJ46(t *testing.T) {
	g := pgtest.NewDB(t)
	sqlDB, _ := g.DB()
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	win := func(s string) []byte {
		b, err := charmap.Windows1252.NewEncoder().Bytes([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	bad := win("Código;Descrição;Código Pai;Glossário\n26;Distribuição;;x\nabc;Conclusão;;\n970;;;\n26;Outra;;\n")
	_, err := tpu.Parse(tpu.Movements, bad, "2025-09-01")
	var e *errs.Error
	if !errors.As(err, &e) || e.Kind != errs.Invalid || len(e.Fields) != 3 {
		t.Fatalf("bad file: %v", err)
	}
	if e.Fields[0].Line != 3 || e.Fields[0].Field != "Código" || e.Fields[1].Line != 4 || e.Fields[2].Rule != "duplicate" {
		t.Errorf("lines: %+v", e.Fields)
	}
	before, _ := tpu.Version(ctx, sqlDB, tpu.Movements)

	good := win("Código;Descrição;Código Pai;Glossário\n26;Distribuição;;\n51;Conclusão;;\n12345;Movimento Novo do SGT;51;\n")
	tb, err := tpu.Parse(tpu.Movements, good, "2025-09-01")
	if err != nil {
		t.Fatal(err)
	}
	if tb.Items[2].Name != "Movimento Novo do SGT" || *tb.Items[2].Parent != 51 || !tb.Items[2].Verified {
		t.Fatalf("item: %+v", tb.Items[2])
	}
	if err := tpu.Load(ctx, sqlDB, tb, "sgt.csv", now); err != nil {
		t.Fatal(err)
	}
	if v, _ := tpu.Version(ctx, sqlDB, tpu.Movements); v != "2025-09-01" || v == before {
		t.Fatalf("version %q (before %q)", v, before)
	}
	if n, err := tpu.Check(ctx, sqlDB, tpu.Movements, "tpu_code", 12345); err != nil || n != "Movimento Novo do SGT" {
		t.Fatalf("12345: %q %v", n, err)
	}
	if _, err := tpu.Check(ctx, sqlDB, tpu.Movements, "tpu_code", 848); err == nil || !strings.Contains(err.Error(), "2025-09-01") {
		t.Fatalf("848 after the new version: %v", err)
	}

	older, _ := tpu.Parse(tpu.Movements, good, "2025-08-01")
	if err := tpu.Load(ctx, sqlDB, older, "old.csv", now); errs.KindOf(err) != errs.Conflict {
		t.Fatalf("older version: %v", err)
	}
	if loaded, err := tpu.Sync(ctx, sqlDB, now); err != nil || len(loaded) != 0 {
		t.Fatalf("sync loaded %v, %v", loaded, err)
	}
	if v, _ := tpu.Version(ctx, sqlDB, tpu.Movements); v != "2025-09-01" {
		t.Fatalf("sync overwrote the newer table: %s", v)
	}
}

// Versions compare by the SGT table's date, then this product's revision.
func TestNewer_ByDateThenRevision(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"2025-09-01", "", true}, {"2017-01-01.2", "2017-01-01.1", true}, {"2017-01-01.10", "2017-01-01.9", true},
		{"2017-01-01.1", "2025-09-01", false}, {"2025-09-01", "2025-09-01", false},
	} {
		if got := tpu.Newer(c.a, c.b); got != c.want {
			t.Errorf("Newer(%q, %q) = %v", c.a, c.b, got)
		}
	}
	if tpu.CheckVersion("2025-13-01") == nil || tpu.CheckVersion("v2") == nil || tpu.CheckVersion("2025-09-01.3") != nil {
		t.Error("CheckVersion")
	}
}
