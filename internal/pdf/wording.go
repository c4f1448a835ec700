package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/template"

	"github.com/juizado/juizado/sanctions"
)

// Kind is a kind of court document.
type Kind string

// Document kinds; each has its wording in templates/pdf/KIND.tmpl.
const (
	KindSentence    Kind = "sentence"    // sentença (de cada réu: absolvição, condenação, impedimento) ou decisão cautelar
	KindNotice      Kind = "notice"      // intimação do torcedor
	KindLetter      Kind = "letter"      // ofício ao organizador, à federação e aos clubes
	KindCertificate Kind = "certificate" // certidão de situação por CPF
	KindPoster      Kind = "poster"      // relação pública de impedidos (cartaz)
	KindSummary     Kind = "summary"     // resumo da representação
	KindRegister    Kind = "register"    // extrato do cadastro de associados de uma torcida
	KindReceipt     Kind = "receipt"     // recibo de protocolo de petição (Lei 11.419/2006, art. 10)
	KindMandate     Kind = "mandate"     // mandado do BNMP (Res. CNJ 417/2021, art. 19)
	KindFinal       Kind = "final"       // certidão de trânsito em julgado (CPC, art. 502; CPP, art. 593 a contrario)
)

// Kinds lists every document kind.
var Kinds = []Kind{KindSentence, KindNotice, KindLetter, KindCertificate, KindPoster, KindSummary, KindRegister, KindReceipt, KindMandate, KindFinal}

// Title is how people call a kind (verification page, PDF title).
func (k Kind) Title() string {
	switch k {
	case KindSentence:
		return "Sentença"
	case KindNotice:
		return "Intimação do torcedor"
	case KindLetter:
		return "Ofício ao organizador, à federação e aos clubes"
	case KindCertificate:
		return "Certidão de situação de impedimento"
	case KindPoster:
		return "Relação pública de torcedores impedidos"
	case KindSummary:
		return "Resumo da representação"
	case KindRegister:
		return "Extrato do cadastro de associados de torcida organizada"
	case KindReceipt:
		return "Recibo de protocolo de petição"
	case KindMandate:
		return "Mandado de medida de proibição de acesso a eventos esportivos (BNMP)"
	case KindFinal:
		return "Certidão de trânsito em julgado"
	}
	return string(k)
}

// Wording finds the wording of each document: KIND.tmpl in Dir when that
// file exists (the court's own wording, read at every use, so a change
// needs no restart), else the embedded default in Embedded (pdf/KIND.tmpl).
type Wording struct {
	Embedded fs.FS
	Dir      string
}

var funcs = template.FuncMap{
	"upper": strings.ToUpper,
	"esc":   Esc,
	"cpf":   FormatCPF,
	"cnj":   FormatCNJ,
	"words": Words,
	"months": func(n int) string {
		return Months(n)
	},
	"join": strings.Join,
	// list joins "a, b e c".
	"list": listPT,
	"inc":  func(i int) int { return i + 1 },
	// por joins "por" to a noun phrase, contracted with its article
	// ("pelos próximos 3 jogos de Sport": sanctions.PorPT).
	"por": sanctions.PorPT,
	// scoped says where a ban that names its places applies (BanData.Scope),
	// the one wording of every document for it: ScopedPT.
	"scoped": ScopedPT,
}

// listPT joins a list as Portuguese prose: "a", "a e b", "a, b e c".
func listPT(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " e " + xs[len(xs)-1]
}

// ScopedPT is the wording, in markup, of where a ban that names its places
// applies (CPP art. 319, II: "proibição de acesso ou frequência a
// determinados lugares"), from BanData.Scope (sanctions.ScopePT): "aos
// seguintes locais e jogos, e somente a eles: **Arena Corinthians e
// Allianz Parque**". Every document that describes a scoped ban (the
// decision, the notice, the letter to the clubs) says it with these words;
// a ban with no scope keeps each document's statutory wording ("às
// proximidades do estádio ... qualquer local em que se realize evento
// esportivo").
func ScopedPT(scope string) string {
	return "aos seguintes locais e jogos, e somente a eles: **" + scope + "**"
}

func (w Wording) source(k Kind) ([]byte, error) {
	name := string(k) + ".tmpl"
	if w.Dir != "" {
		b, err := os.ReadFile(filepath.Join(w.Dir, name))
		if err == nil {
			return b, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("pdf: wording %s: %w", name, err)
		}
	}
	if w.Embedded == nil {
		return nil, fmt.Errorf("pdf: no wording for %s", name)
	}
	return fs.ReadFile(w.Embedded, "pdf/"+name)
}

// Execute fills the wording of kind k with data and returns the markup.
func (w Wording) Execute(k Kind, data any) (string, error) {
	src, err := w.source(k)
	if err != nil {
		return "", err
	}
	t, err := template.New(string(k)).Funcs(funcs).Option("missingkey=error").Parse(string(src))
	if err != nil {
		return "", fmt.Errorf("pdf: wording %s: %w", k, err)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return "", fmt.Errorf("pdf: wording %s: %w", k, err)
	}
	return buf.String(), nil
}

// Check parses and runs every wording with sample data; a court's override
// folder is checked the same way (juizado serve refuses broken wording).
func (w Wording) Check() error {
	for _, k := range Kinds {
		src, err := w.source(k)
		if err != nil {
			return err
		}
		if _, err := template.New(string(k)).Funcs(funcs).Parse(string(src)); err != nil {
			return fmt.Errorf("pdf: wording %s: %w", k, err)
		}
	}
	return nil
}
