package tpu

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/textcheck"
)

// columns maps a header, folded (no accents, case or separators), to the
// field it holds: the SGT's export names (código, nome/descrição, código
// pai, ...) and this product's (codigo_pai, complementos, verificado,
// fonte). Other columns (glossary, dates, norms) are ignored.
var columns = map[string]string{
	"codigo": "code", "cod": "code", "coditem": "code", "codigoitem": "code",
	"nome": "name", "descricao": "name", "nomeitem": "name", "nomeclasse": "name", "nomeassunto": "name", "nomemovimento": "name", "movimento": "name",
	"codigopai": "parent", "codpai": "parent", "coditempai": "parent", "pai": "parent",
	"complementos": "complements", "complemento": "complements",
	"verificado": "verified",
	"fonte":      "note", "nota": "note", "observacao": "note",
}

// Parse reads table name from a CSV file in the SGT's export shape: UTF-8
// (with or without BOM) or Windows-1252, separated by `;` or `,`, a header
// line naming at least the code and name columns, an optional first line
// "# versao: V" (else version, the caller's, is required). Complements are
// separated by "|"; verificado is sim/nao (default sim: an SGT export is
// its own source). Whole or nothing: any bad line makes an errs.Invalid
// listing every bad line with its reason (FieldError.Line, the physical
// line).
func Parse(name string, raw []byte, version string) (*Table, error) {
	if _, ok := TablePT[name]; !ok {
		return nil, errs.InvalidField("table", "enum", fmt.Sprintf("tabela %q desconhecida: use classes, subjects ou movements.", name))
	}
	raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(raw) {
		b, err := charmap.Windows1252.NewDecoder().Bytes(raw)
		if err != nil {
			return nil, errs.New(errs.Unreadable, "O arquivo não está em UTF-8 nem em Windows-1252.")
		}
		raw = b
	}
	if bytes.IndexByte(raw, 0) >= 0 || len(bytes.TrimSpace(raw)) == 0 {
		return nil, errs.New(errs.Unreadable, "O arquivo está vazio ou não é um CSV de texto.")
	}
	line := 1
	if first, rest, _ := bytes.Cut(raw, []byte("\n")); bytes.HasPrefix(bytes.TrimSpace(first), []byte("#")) {
		k, v, ok := strings.Cut(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(first)), "#")), ":")
		if ok && textcheck.Fold(k) == "versao" && version == "" {
			version = strings.TrimSpace(v)
		}
		raw, line = rest, 2
	}
	if version == "" {
		return nil, errs.InvalidField("version", "required", "informe a versão da tabela do SGT (--version AAAA-MM-DD) ou a linha “# versao: AAAA-MM-DD” no início do arquivo.")
	}
	if err := CheckVersion(version); err != nil {
		return nil, err
	}
	header, _, _ := bytes.Cut(raw, []byte("\n"))
	r := csv.NewReader(bytes.NewReader(raw))
	if bytes.Count(header, []byte(";")) >= bytes.Count(header, []byte(",")) {
		r.Comma = ';'
	}
	r.FieldsPerRecord = -1
	head, err := r.Read()
	if err != nil {
		return nil, errs.New(errs.Unreadable, "O arquivo não tem a linha de cabeçalho.")
	}
	idx := map[string]int{}
	for i, h := range head {
		key := strings.NewReplacer(" ", "", "_", "", "-", "", ".", "").Replace(textcheck.Fold(h))
		if f, ok := columns[key]; ok {
			if _, dup := idx[f]; !dup {
				idx[f] = i
			}
		}
	}
	var f errs.Fields
	for _, need := range []string{"code", "name"} {
		if _, ok := idx[need]; !ok {
			f = append(f, errs.FieldError{Line: line, Field: "line", Rule: "header", Message: fmt.Sprintf("o cabeçalho não tem a coluna de %s (código; nome).", map[string]string{"code": "código", "name": "nome"}[need])})
		}
	}
	if len(f) > 0 {
		return nil, linesErr(name, f)
	}
	t := &Table{Name: name, Version: version, Items: []Item{}}
	seen := map[int]int{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		ln, _ := r.FieldPos(0)
		ln += line - 1
		if err != nil {
			f = append(f, errs.FieldError{Line: ln, Field: "line", Rule: "csv", Message: "linha ilegível: " + err.Error()})
			continue
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		if it, bad := parseItem(rec, idx, head); bad != nil {
			bad.Line = ln
			f = append(f, *bad)
		} else if prev, dup := seen[it.Code]; dup {
			f = append(f, errs.FieldError{Line: ln, Field: head[idx["code"]], Rule: "duplicate", Message: fmt.Sprintf("o código %d já consta da linha %d.", it.Code, prev)})
		} else {
			seen[it.Code] = ln
			t.Items = append(t.Items, it)
		}
	}
	if len(f) > 0 {
		return nil, linesErr(name, f)
	}
	if len(t.Items) == 0 {
		return nil, errs.New(errs.Invalid, "A tabela não tem nenhum item.")
	}
	return t, nil
}

func linesErr(name string, f errs.Fields) error {
	return &errs.Error{Kind: errs.Invalid, Message: fmt.Sprintf("A tabela de %s não foi carregada: %d linha(s) com erro (nada foi gravado).", TablePT[name], len(f)), Fields: f}
}

// parseItem reads one record; bad names the column and the rule broken.
func parseItem(rec []string, idx map[string]int, head []string) (Item, *errs.FieldError) {
	get := func(f string) string {
		if i, ok := idx[f]; ok && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	bad := func(f, rule, msg string) *errs.FieldError {
		return &errs.FieldError{Field: head[idx[f]], Rule: rule, Message: msg}
	}
	var it Item
	code, err := strconv.Atoi(get("code"))
	if err != nil || code < 1 || code > 999999 {
		return it, bad("code", "code", fmt.Sprintf("código %q inválido: um número de 1 a 999999.", get("code")))
	}
	it.Code = code
	it.Name = textcheck.Line(get("name"))
	if it.Name == "" {
		return it, bad("name", "required", "o item não tem nome.")
	}
	if rule, msg := textcheck.Problem(it.Name, 500, false); rule != "" {
		return it, bad("name", rule, msg)
	}
	if p := get("parent"); p != "" {
		pc, err := strconv.Atoi(p)
		if err != nil || pc < 1 || pc == code {
			return it, bad("parent", "code", fmt.Sprintf("código pai %q inválido.", p))
		}
		it.Parent = &pc
	}
	for _, c := range strings.Split(get("complements"), "|") {
		if c = textcheck.Line(c); c != "" {
			it.Complements = append(it.Complements, c)
		}
	}
	switch textcheck.Fold(get("verified")) {
	case "", "sim", "s", "true", "1":
		it.Verified = true
	case "nao", "n", "false", "0":
	default:
		return it, bad("verified", "enum", fmt.Sprintf("verificado %q: use sim ou nao.", get("verified")))
	}
	it.Note = get("note")
	return it, nil
}
