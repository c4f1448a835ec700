package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
)

// juizado export datajud over the demo data (Res. CNJ 331/2020): the
// month's cases written to --out as the public API's JSON and to stdout as
// the MTD's XML; a case without class is listed with its reason, left
// out, and the command ends with exit status 3.
func TestExportDataJudCommand_RejectedListedExitStatus3_ResCNJ331(t *testing.T) {
	dsn, g := demoDB(t)
	_, run := cliEnvOn(t, dsn)
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	month := time.Now().In(loc).Format("2006-01")
	file := filepath.Join(t.TempDir(), "datajud.json")

	out, err := run("", "export", "datajud", "--month", month, "--out", file)
	if err != nil {
		t.Fatalf("demo month %s: %v\n%s", month, err, out)
	}
	var all []map[string]any
	if b, err := os.ReadFile(file); err != nil || json.Unmarshal(b, &all) != nil || len(all) == 0 {
		t.Fatalf("--out %s: %v (%d documents)\n%s", file, err, len(all), out)
	}

	var num string
	if err := g.Raw("UPDATE cases SET class_code = NULL WHERE id = (SELECT min(id) FROM cases) RETURNING number").Scan(&num).Error; err != nil {
		t.Fatal(err)
	}
	n, _ := cases.ParseCNJ(num)
	out, err = run("", "export", "datajud", "--month", month, "--out", file)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 3 || !strings.Contains(out, "não exportado: "+n.String()+": sem classe processual") {
		t.Fatalf("rejected case: %v\n%s", err, out)
	}
	var fewer []map[string]any
	b, _ := os.ReadFile(file)
	if err := json.Unmarshal(b, &fewer); err != nil || len(fewer) != len(all)-1 || strings.Contains(string(b), num) {
		t.Fatalf("after the rejection: %d documents of %d, %v", len(fewer), len(all), err)
	}

	out, err = run("", "export", "datajud", "--month", month, "--format", "xml")
	if !errors.As(err, &ee) || ee.code != 3 || !strings.Contains(out, "<processos>") ||
		!strings.Contains(out, `<movimentoNacional codigoNacional="26">`) || strings.Contains(out, `numero="`+num+`"`) {
		t.Fatalf("xml: %v\n%s", err, out)
	}
	if out, err := run("", "export", "datajud", "--month", "2025-13"); err == nil {
		t.Fatalf("month 2025-13 accepted:\n%s", out)
	}
}
