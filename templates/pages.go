package templates

import (
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"strings"
)

// Page is one HTML page template, the file html/NAME.html.
type Page struct {
	// Name is the file's name without ".html", the name a handler renders
	// (server.Server.Page, server.Server.Render).
	Name string
	// Layout: the file defines "content" and is parsed with the layout
	// html/base.html (header, menu, messages, footer) and the shared parts
	// html/comum.html; without it the file is a whole page of its own.
	Layout bool
}

// Parts are the files every laid-out page is parsed with: the layout and
// the shared parts (form fields, the CSRF field).
var Parts = []string{"base", "comum"}

// Pages declares every page of html/. ParsePages fails on a file of html/
// that is neither a page nor a part, and on a page without its file, so a
// template cannot be added, renamed or removed without this list.
var Pages = []Page{
	// Signing in, the panel and the error page (404, 403, 503, ...).
	{"entrar", true}, {"painel", true}, {"erro", true},
	// Cases: the list, filing, the case, the sentence, distribution,
	// hearings and the court's holidays.
	{"processos", true}, {"processo_novo", true}, {"processo", true}, {"sentenca", true},
	{"distribuicao", true}, {"audiencias", true}, {"feriados", true},
	// The defence's electronic notices (Lei 11.419/2006, art. 5º).
	{"intimacoes", true},
	// The defence's petitions and the judge's and the clerk's queues.
	{"peticoes", true},
	// The public form of a member's contest of a group-ban inclusion.
	{"impugnacao", true},
	// The BNMP mandates of the bans (Res. CNJ 417/2021).
	{"mandados", true},
	// The fan group's member register.
	{"torcida", true}, {"associado", true}, {"importar", true},
	// The club's blocklist; the form of a document's verification.
	{"clube", true}, {"verificar_form", true},
	// Administration.
	{"admin_usuarios", true}, {"admin_papeis", true}, {"admin_juizados", true}, {"admin_auditoria", true}, {"admin_datajud", true},
	// The court's statistics (the staff's court, or any court for anyone).
	{"estatisticas", true},
	// Whole pages for anyone: the public list of banned fans (also the
	// poster's look on screen) and a document's verification.
	{"impedidos", false}, {"verificar", false},
}

// ParsePages parses every page of Pages from fsys (a tree holding html/,
// FS in the binary), each laid-out page with Parts, all with funcs, into a
// template per page name. It fails on the first template that does not
// parse, a declared page whose file is missing, and a file of html/ that
// is not declared.
func ParsePages(fsys fs.FS, funcs template.FuncMap) (map[string]*template.Template, error) {
	known := map[string]bool{}
	for _, p := range Parts {
		known[p] = true
	}
	out := map[string]*template.Template{}
	for _, p := range Pages {
		if known[p.Name] {
			return nil, fmt.Errorf("templates: page %s declared twice", p.Name)
		}
		known[p.Name] = true
		files := []string{"html/" + p.Name + ".html"}
		root := p.Name + ".html"
		if p.Layout {
			files = []string{"html/base.html", "html/comum.html", files[0]}
			root = "base.html"
		}
		if _, err := fs.Stat(fsys, files[len(files)-1]); err != nil {
			return nil, fmt.Errorf("templates: page %s is declared but has no file: %w", p.Name, err)
		}
		t, err := template.New(root).Funcs(funcs).ParseFS(fsys, files...)
		if err != nil {
			return nil, fmt.Errorf("templates: page %s: %w", p.Name, err)
		}
		out[p.Name] = t
	}
	entries, err := fs.ReadDir(fsys, "html")
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	for _, e := range entries {
		name, isHTML := strings.CutSuffix(e.Name(), ".html")
		if isHTML && !known[name] {
			return nil, fmt.Errorf("templates: %s is not declared in templates.Pages", path.Join("html", e.Name()))
		}
	}
	return out, nil
}
