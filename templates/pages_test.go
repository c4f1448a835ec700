package templates

import (
	"strings"
	"testing"
	"testing/fstest"
)

// Start-up fails on a template nobody declared and on a declared page
// without its file (the embedded tree itself is parsed with the pages'
// functions by internal/ui's TestEveryPageRendersWithEmptyData and by every
// server a test starts).
func TestUndeclaredOrMissingTemplatesFail(t *testing.T) {
	tree := func() fstest.MapFS {
		m := fstest.MapFS{}
		m["html/base.html"] = &fstest.MapFile{Data: []byte(`{{template "content" .}}`)}
		m["html/comum.html"] = &fstest.MapFile{Data: []byte(`{{define "campo"}}{{end}}`)}
		for _, p := range Pages {
			body := `{{define "content"}}x{{end}}`
			if !p.Layout {
				body = "x"
			}
			m["html/"+p.Name+".html"] = &fstest.MapFile{Data: []byte(body)}
		}
		return m
	}
	if _, err := ParsePages(tree(), nil); err != nil {
		t.Fatalf("the declared tree: %v", err)
	}
	extra := tree()
	extra["html/nova.html"] = &fstest.MapFile{Data: []byte("x")}
	if _, err := ParsePages(extra, nil); err == nil || !strings.Contains(err.Error(), "html/nova.html is not declared") {
		t.Errorf("an undeclared template: %v", err)
	}
	missing := tree()
	delete(missing, "html/feriados.html")
	if _, err := ParsePages(missing, nil); err == nil || !strings.Contains(err.Error(), "feriados is declared but has no file") {
		t.Errorf("a declared page without its file: %v", err)
	}
}
