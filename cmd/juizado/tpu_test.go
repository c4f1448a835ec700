package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
)

// juizado tpu load: a newer SGT export in Windows-1252 with a bad line is
// refused whole, listing the line and its reason; the fixed file loads as
// the new version; the same version again is refused; tpu show prints it
// (Res. CNJ 46/2007).
func TestTPULoadCommand_NewerVersionWholeOrNothing_ResCNJ46(t *testing.T) {
	_, run := cliEnv(t)
	dir := t.TempDir()
	write := func(name, text string) string {
		b, err := charmap.Windows1252.NewEncoder().Bytes([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bad := write("bad.csv", "Código;Descrição;Código Pai\n278;Termo Circunstanciado;\n10944;;\n")
	out, err := run("", "tpu", "load", "--table", "classes", "--version", "2025-09-01", bad)
	if err == nil || !strings.Contains(out, "linha 3, Descrição (required)") {
		t.Fatalf("bad file: %v\n%s", err, out)
	}
	if out, _ := run("", "tpu", "show", "--table", "classes"); !strings.Contains(out, "# versao: 2017-01-01.1") {
		t.Fatalf("the bad file changed the table:\n%s", out)
	}
	good := write("good.csv", "Código;Descrição;Código Pai\n278;Termo Circunstanciado;\n10944;Ação Penal - Procedimento Sumaríssimo;\n")
	if out, err := run("", "tpu", "load", "--table", "classes", "--version", "2025-09-01", good); err != nil || !strings.Contains(out, "version 2025-09-01 loaded (2 items)") {
		t.Fatalf("good file: %v\n%s", err, out)
	}
	if out, err := run("", "tpu", "load", "--table", "classes", "--version", "2025-09-01", good); err == nil || !strings.Contains(err.Error(), "não é mais nova") {
		t.Fatalf("the same version again: %v\n%s", err, out)
	}
	out, err = run("", "tpu", "show", "--table", "classes")
	if err != nil || !strings.Contains(out, "# versao: 2025-09-01") || !strings.Contains(out, "10944;Ação Penal - Procedimento Sumaríssimo;;true") || strings.Contains(out, "\n65;") {
		t.Fatalf("show: %v\n%s", err, out)
	}
}
