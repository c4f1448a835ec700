package datajud

import (
	"fmt"
	"strings"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/pdf"
)

// tables are the names of the TPU tables the database holds, by code,
// with each table's version: what a record's codes are checked against.
type tables struct {
	classes, subjects, movements map[int]string
	version                      map[string]string
}

// Rejection is a case DataJud would reject, with why (Portuguese, for the
// clerk): Number, its CNJ number as written ("0000123-08.2025.8.26.0100"
// when valid, else the stored digits); Reasons, one a rule.
type Rejection struct {
	Number  string
	Reasons []string
}

// String writes the rejection on one line: "NUMBER: reason; reason".
func (r Rejection) String() string {
	return r.Number + ": " + strings.Join(r.Reasons, "; ")
}

// build makes the record of case c (its defendants ds, its movements ms
// in docket order) in court (with its DataJud unit), checking it as
// DataJud does (Res. CNJ 331/2020; Res. CNJ 46/2007 for the codes; Res.
// CNJ 65/2008 for the number): a case without a class, with a code the
// TPU tables lack, with a movement whose national code is missing, or
// whose number does not belong to the court is a Rejection instead.
func build(c cases.Case, ds []cases.Defendant, ms []cases.Movement, court string, unit Unit, t *tables, loc *time.Location) (*Record, *Rejection) {
	rej := &Rejection{Number: c.Number}
	bad := func(format string, a ...any) { rej.Reasons = append(rej.Reasons, fmt.Sprintf(format, a...)) }
	if n, err := cases.ParseCNJ(c.Number); err != nil {
		bad("número do processo inválido (Res. CNJ 65/2008): %v", err)
	} else {
		rej.Number = n.String()
		if got := fmt.Sprintf("%02d.%04d", n.Court, n.Unit); n.Segment != 8 || got != court || got != c.CourtCode {
			bad("o número do processo (J.TR.OOOO %d.%s) não corresponde ao juizado %s: chave tribunal/órgão/número inconsistente", n.Segment, got, court)
		}
	}
	r := &Record{Number: c.Number, Court: court, Tribunal: TribunalOf(court), Secrecy: c.SecrecyLevel, FiledAt: c.FiledAt, Unit: unit}
	if r.Tribunal == "" {
		bad("o juizado %s não é de um tribunal de justiça estadual", court)
	}
	if c.ClassCode == nil {
		bad("sem classe processual (TPU, Res. CNJ 46/2007): o cartório deve informá-la")
	} else if name, ok := t.classes[*c.ClassCode]; !ok {
		bad("a classe %d não consta da tabela de classes da TPU (versão %s)", *c.ClassCode, t.version["classes"])
	} else {
		r.Class = CodeName{Code: *c.ClassCode, Name: name}
	}
	r.Subjects = []CodeName{}
	for _, code := range c.SubjectCodes {
		if name, ok := t.subjects[code]; ok {
			r.Subjects = append(r.Subjects, CodeName{Code: code, Name: name})
		} else {
			bad("o assunto %d não consta da tabela de assuntos da TPU (versão %s)", code, t.version["subjects"])
		}
	}
	for _, m := range ms {
		mv, reason := movement(m, t)
		if reason != "" {
			bad("movimento de %s: %s", m.At.In(loc).Format("02/01/2006 15:04"), reason)
			continue
		}
		r.Movements = append(r.Movements, mv)
		if m.At.After(r.LastUpdate) {
			r.LastUpdate = m.At
		}
	}
	r.Parties = parties(c, ds, court)
	if len(rej.Reasons) > 0 {
		return nil, rej
	}
	return r, nil
}

// movement makes the record's entry of docket movement m: national when
// it carries a TPU code (which must be in the movements table, and be its
// kind's code when the kind has one: cases.MovementTPU), local (its
// LocalMovements code) when its kind has none; a reason when neither.
func movement(m cases.Movement, t *tables) (Entry, string) {
	mv := Entry{At: m.At, Complements: m.Complements}
	tm, known := cases.MovementTPU[m.Kind]
	switch {
	case m.Kind != "" && !known:
		return mv, fmt.Sprintf("tipo de movimento %q desconhecido", m.Kind)
	case known && tm.Code != 0 && (m.TPUCode == nil || *m.TPUCode != tm.Code):
		return mv, fmt.Sprintf("deveria ter o código nacional %d da TPU e não o tem", tm.Code)
	case m.TPUCode != nil:
		name, ok := t.movements[*m.TPUCode]
		if !ok {
			return mv, fmt.Sprintf("o código %d não consta da tabela de movimentos da TPU (versão %s)", *m.TPUCode, t.version["movements"])
		}
		mv.National, mv.Name = *m.TPUCode, name
	case m.Kind == "":
		return mv, "sem código nacional da TPU nem tipo conhecido (lançado antes das tabelas)"
	default:
		mv.Local = localCode[m.Kind]
		if mv.Local == 0 {
			return mv, fmt.Sprintf("o tipo %q não tem código nacional nem local", m.Kind)
		}
		mv.Name = LocalMovements[mv.Local-1].Label
	}
	return mv, ""
}

// parties are the poles of case c as the MTD asks them: the active pole,
// the police authority of a termo circunstanciado (Lei 9.099/1995, art.
// 69) or else the state's Ministério Público, who holds the criminal action
// (art. 77) and files the ação civil pública (Lei 7.347/1985, art. 5º, I);
// the passive pole, each defendant with his name and CPF (a group: its
// name and CNPJ). Nothing else of a person (address, birth, parents) is
// exported; a case under secrecy (SecrecyLevel > 0) gives initials only,
// without documents.
func parties(c cases.Case, ds []cases.Defendant, court string) []Party {
	active := Party{Pole: "AT", Kind: "orgaorepresentacao",
		Name: strings.Replace(pdf.Tribunal(court), "Tribunal de Justiça", "Ministério Público", 1)}
	if c.FiledByKind == "police" {
		active = Party{Pole: "AT", Kind: "autoridade", Name: c.FiledByName}
	}
	out := []Party{active}
	for _, d := range ds {
		p := Party{Pole: "PA", Kind: "fisica", Name: d.FullName}
		doc := d.CPF
		if d.Kind == "fan_group" {
			p.Kind, p.Name, doc = "juridica", d.GroupName, d.CNPJ
		}
		if doc != nil {
			p.Document = *doc
		}
		if c.SecrecyLevel > 0 {
			p.Name, p.Document = initials(p.Name), ""
		}
		out = append(out, p)
	}
	return out
}
