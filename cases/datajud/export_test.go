package datajud_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/datajud"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/internal/testenv"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

var sp = testenv.SaoPaulo

func at(s string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04", s, sp)
	if err != nil {
		panic(err)
	}
	return t
}

// month is a seeded court: cases filed in May and June 2025 (and a
// movement in July), some of which DataJud would reject.
type month struct {
	e   *casetest.Env
	num map[string]string // fixture ref -> 20-digit number
}

func seedMonth(t *testing.T) *month {
	t.Helper()
	ctx := context.Background()
	e := casetest.NewEnv(t, at("2025-05-10 10:00"), 1)
	if _, err := e.Svc.Case.SetCourtDataJud(ctx, testenv.Court, cases.DataJudUnit{UnitCode: 12345,
		UnitName: "Juizado Especial Criminal do Torcedor", IBGEMunicipality: 3550308}); err != nil {
		t.Fatal(err)
	}
	m := &month{e: e, num: map[string]string{}}
	file := func(ref, when string) *cases.Case {
		e.Clk.Set(at(when))
		c := e.File(t, casetest.Fixture(t, ref))
		m.num[ref] = c.Number
		return c
	}
	file("R2", "2025-05-20 10:00")       // May only: not in June's export
	r1 := file("R1", "2025-05-25 09:30") // May, and a clerk's movement in June
	r3 := file("R3", "2025-06-05 14:00") // the police's termo circunstanciado
	file("R5", "2025-06-06 11:00")       // a fan group: ação civil pública
	r4 := file("R4", "2025-06-07 16:00") // its class lost: rejected
	r7 := file("R7", "2025-06-08 10:00") // a movement from before the TPU: rejected
	r8 := file("R8", "2025-06-09 10:00") // under secrecy
	k := e.Clerk(t)
	e.Clk.Set(at("2025-06-10 15:00"))
	if _, err := e.Svc.Case.AddMovement(ctx, k, r1.ID, cases.MovementInput{TPUCode: casetest.Ptr(51), Description: "Conclusos ao juiz."}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.Case.AddMovement(ctx, k, r1.ID, cases.MovementInput{Description: "Certidão de decurso de prazo."}); err != nil {
		t.Fatal(err)
	}
	e.Clk.Set(at("2025-07-02 10:00"))
	if _, err := e.Svc.Case.AddMovement(ctx, k, r3.ID, cases.MovementInput{TPUCode: casetest.Ptr(51), Description: "Conclusos em julho."}); err != nil {
		t.Fatal(err)
	}
	// Data the services no longer write but older databases hold: a case
	// without class (filed before the TPU classes) and a movement without
	// kind nor code; and a case the judge put under secrecy.
	exec := func(q string, args ...any) {
		if err := e.G.Exec(q, args...).Error; err != nil {
			t.Fatal(err)
		}
	}
	exec("UPDATE cases SET class_code = NULL WHERE id = ?", r4.ID)
	exec("INSERT INTO movements (case_id, at, description) VALUES (?, ?, 'Juntada de ofício.')", r7.ID, at("2025-06-08 12:00"))
	exec("UPDATE cases SET secrecy_level = 1 WHERE id = ?", r8.ID)
	return m
}

func (m *month) export(t *testing.T, format string) (string, []datajud.Rejection) {
	t.Helper()
	var out bytes.Buffer
	var rej []datajud.Rejection
	sum, err := datajud.Export(context.Background(), m.e.G, &out, datajud.Options{Court: testenv.Court, Month: "2025-06",
		Format: format, Loc: sp, Batch: 2}, func(r datajud.Rejection) { rej = append(rej, r) })
	if err != nil {
		t.Fatal(err)
	}
	if sum.Rejected != len(rej) {
		t.Fatalf("summary %+v, %d rejections reported", sum, len(rej))
	}
	return out.String(), rej
}

// The JSON export of June 2025 (Res. CNJ 331/2020): every case with a
// movement in June and none other, valid against docs/datajud.schema.json,
// each national movement with its TPU code in docket order, the local ones
// left out, July's movement not yet in it; the two cases DataJud would
// reject are reported with their reasons instead.
func TestExportJSON_SeededMonthValidAgainstSchema_ResCNJ331(t *testing.T) {
	m := seedMonth(t)
	out, rej := m.export(t, datajud.FormatJSON)

	c := jsonschema.NewCompiler()
	sch, err := c.Compile("../../docs/datajud.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("schema: %v\n%s", err, out)
	}
	var docs []datajud.Document
	if err := json.Unmarshal([]byte(out), &docs); err != nil {
		t.Fatal(err)
	}
	byNum := map[string]datajud.Document{}
	var nums []string
	for _, d := range docs {
		byNum[d.NumeroProcesso] = d
		nums = append(nums, d.NumeroProcesso)
	}
	want := []string{m.num["R1"], m.num["R3"], m.num["R5"], m.num["R8"]}
	slices.Sort(want)
	slices.Sort(nums)
	if !reflect.DeepEqual(nums, want) {
		t.Fatalf("exported %v, want R1 R3 R5 R8 %v", nums, want)
	}
	codes := func(ref string) []int {
		var out []int
		for _, mv := range byNum[m.num[ref]].Movimentos {
			out = append(out, mv.Code)
		}
		return out
	}
	// R1: distribution (26, by lot) in May, the clerk's conclusion (51)
	// in June; the filing and the clerk's uncoded entry are local.
	if got := codes("R1"); !reflect.DeepEqual(got, []int{26, 51}) {
		t.Errorf("R1 movements %v, want [26 51]", got)
	}
	if got := codes("R3"); !reflect.DeepEqual(got, []int{26}) {
		t.Errorf("R3 movements %v, want [26] (July's 51 not yet)", got)
	}
	r1 := byNum[m.num["R1"]]
	if d := r1.Movimentos[0]; d.Name != "Distribuição" || d.At != "2025-05-25T12:30:00.000Z" ||
		!reflect.DeepEqual(d.Complements, []datajud.DocumentComplement{{Description: "tipo de distribuição", Name: "sorteio"}}) {
		t.Errorf("R1 distribution %+v", d)
	}
	if r1.Classe != (datajud.CodeName{Code: 10944, Name: "Ação Penal - Procedimento Sumaríssimo"}) || r1.Grau != "JE" ||
		r1.Tribunal != "TJSP" || r1.DataAjuizamento != "2025-05-25T12:30:00.000Z" || r1.DataHoraUltimaAtualizacao != "2025-06-10T18:00:00.000Z" ||
		r1.OrgaoJulgador != (datajud.DocumentUnit{Code: 12345, Name: "Juizado Especial Criminal do Torcedor", IBGE: 3550308}) ||
		r1.ID != "TJSP_10944_JE_12345_"+m.num["R1"] || len(r1.Assuntos) != 1 || r1.Assuntos[0].Code != 11895 {
		t.Errorf("R1 document %+v", r1)
	}
	if c := byNum[m.num["R3"]].Classe.Code; c != 278 {
		t.Errorf("R3 (police) class %d, want 278", c)
	}
	if d := byNum[m.num["R5"]]; d.Classe.Code != 65 || len(d.Assuntos) != 0 {
		t.Errorf("R5 (group) class %+v subjects %+v, want 65 and none", d.Classe, d.Assuntos)
	}
	if s := byNum[m.num["R8"]].NivelSigilo; s != 1 {
		t.Errorf("R8 nivelSigilo %d, want 1", s)
	}
	if strings.Contains(out, "Conclusos") || strings.Contains(out, "Certidão") {
		t.Error("the docket's free text was exported")
	}
	checkRejected(t, m, rej)
}

func checkRejected(t *testing.T, m *month, rej []datajud.Rejection) {
	t.Helper()
	got := map[string]string{}
	for _, r := range rej {
		got[strings.NewReplacer("-", "", ".", "").Replace(r.Number)] = strings.Join(r.Reasons, "; ")
	}
	if len(got) != 2 || !strings.Contains(got[m.num["R4"]], "sem classe processual") ||
		!strings.Contains(got[m.num["R7"]], "movimento de 08/06/2025 12:00: sem código nacional da TPU nem tipo conhecido") {
		t.Fatalf("rejected %q, want R4 (no class) and R7 (uncoded movement)", got)
	}
}

// mtd is the MTD's XML as an outside reader sees it (names only).
type mtd struct {
	XMLName  xml.Name `xml:"processos"`
	Processo []struct {
		Sigla string `xml:"siglaTribunal,attr"`
		Grau  string `xml:"grau,attr"`
		Dados struct {
			Numero           string `xml:"numero,attr"`
			ClasseProcessual string `xml:"classeProcessual,attr"`
			CodigoLocalidade string `xml:"codigoLocalidade,attr"`
			NivelSigilo      string `xml:"nivelSigilo,attr"`
			Polo             []struct {
				Polo  string `xml:"polo,attr"`
				Parte []struct {
					Pessoa struct {
						Nome string `xml:"nome,attr"`
						Tipo string `xml:"tipoPessoa,attr"`
						Doc  string `xml:"numeroDocumentoPrincipal,attr"`
					} `xml:"pessoa"`
				} `xml:"parte"`
			} `xml:"polo"`
			Assunto []struct {
				CodigoNacional string `xml:"codigoNacional"`
			} `xml:"assunto"`
			Orgao *struct {
				CodigoOrgao, NomeOrgao, Instancia, CodigoMunicipioIBGE string
				Raw                                                    []xml.Attr `xml:",any,attr"`
			} `xml:"orgaoJulgador"`
		} `xml:"dadosBasicos"`
		Movimento []struct {
			DataHora string `xml:"dataHora,attr"`
			Nacional *struct {
				Codigo string `xml:"codigoNacional,attr"`
			} `xml:"movimentoNacional"`
			Local *struct {
				Codigo    string `xml:"codigoMovimento,attr"`
				Descricao string `xml:"descricao,attr"`
			} `xml:"movimentoLocal"`
		} `xml:"movimento"`
	} `xml:"processo"`
}

// The XML export of the same month, read back: the same cases, each with
// the header attributes, its poles, subjects and judging unit, and each
// movement with its dataHora and either a national code or a local one; a
// case under secrecy shows its defendant's initials without CPF.
func TestExportXML_ReadBackRequiredElements_MTD(t *testing.T) {
	m := seedMonth(t)
	out, rej := m.export(t, datajud.FormatXML)
	checkRejected(t, m, rej)
	var doc mtd
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(doc.Processo) != 4 {
		t.Fatalf("%d processos, want 4\n%s", len(doc.Processo), out)
	}
	attr := func(as []xml.Attr, name string) string {
		for _, a := range as {
			if a.Name.Local == name {
				return a.Value
			}
		}
		return ""
	}
	for _, p := range doc.Processo {
		d := p.Dados
		if p.Sigla != "TJSP" || p.Grau != "JE" || len(d.Numero) != 20 || d.ClasseProcessual == "" || d.CodigoLocalidade != "3550308" || d.NivelSigilo == "" {
			t.Errorf("header %+v %+v", p.Sigla, d)
		}
		if d.Orgao == nil || attr(d.Orgao.Raw, "codigoOrgao") != "12345" || attr(d.Orgao.Raw, "nomeOrgao") == "" ||
			attr(d.Orgao.Raw, "instancia") != "ORIG" || attr(d.Orgao.Raw, "codigoMunicipioIBGE") != "3550308" {
			t.Errorf("%s orgaoJulgador %+v", d.Numero, d.Orgao)
		}
		if len(d.Polo) != 2 || d.Polo[0].Polo != "AT" || d.Polo[1].Polo != "PA" || len(d.Polo[1].Parte) == 0 {
			t.Errorf("%s poles %+v", d.Numero, d.Polo)
		}
		for _, mv := range p.Movimento {
			if len(mv.DataHora) != 14 || (mv.Nacional == nil) == (mv.Local == nil) {
				t.Errorf("%s movement %+v", d.Numero, mv)
			}
		}
		switch d.Numero {
		case m.num["R1"]:
			var got []string
			for _, mv := range p.Movimento {
				if mv.Nacional != nil {
					got = append(got, "N"+mv.Nacional.Codigo)
				} else {
					got = append(got, "L"+mv.Local.Codigo+" "+mv.Local.Descricao)
				}
			}
			want := []string{"L2 Autuação", "N26", "N51", "L1 Movimentação lançada pelo cartório"}
			if !reflect.DeepEqual(got, want) || p.Movimento[0].DataHora != "20250525093000" {
				t.Errorf("R1 movements %q (first at %s), want %q", got, p.Movimento[0].DataHora, want)
			}
			if len(d.Assunto) != 1 || d.Assunto[0].CodigoNacional != "11895" || d.ClasseProcessual != "10944" {
				t.Errorf("R1 class %s subjects %+v", d.ClasseProcessual, d.Assunto)
			}
			if pa := d.Polo[1].Parte[0].Pessoa; pa.Tipo != "fisica" || len(pa.Doc) != 11 || strings.Contains(pa.Nome, ".") {
				t.Errorf("R1 defendant %+v", pa)
			}
		case m.num["R3"]:
			if at := d.Polo[0].Parte[0].Pessoa; at.Tipo != "autoridade" {
				t.Errorf("R3 active pole %+v, want the police authority", at)
			}
		case m.num["R8"]:
			pa := d.Polo[1].Parte[0].Pessoa
			if d.NivelSigilo != "1" || pa.Doc != "" || !strings.HasSuffix(pa.Nome, ".") {
				t.Errorf("R8 under secrecy: nivelSigilo %s, defendant %+v", d.NivelSigilo, pa)
			}
		}
	}
	for _, ref := range []string{"R2", "R4", "R7"} {
		if strings.Contains(out, m.num[ref]) {
			t.Errorf("%s exported", ref)
		}
	}
	// Only the names and documents the MTD asks for: no birth date nor
	// mother of R1's defendant (both in the fixture).
	for _, w := range []string{"Sandra Figueiredo", "1991-07-22", "19910722"} {
		if strings.Contains(out, w) {
			t.Errorf("personal data %q exported", w)
		}
	}
}

// A court without its DataJud unit cannot export (the admin sets it); a
// bad month or format is errs.Invalid on its field; the unit's fields are
// checked.
func TestExport_RefusedWithoutUnitOrBadInput(t *testing.T) {
	e := casetest.NewEnv(t, at("2025-03-10 10:00"), 1)
	ctx := context.Background()
	_, err := datajud.Export(ctx, e.G, &bytes.Buffer{}, datajud.Options{Court: testenv.Court, Month: "2025-03", Loc: sp}, nil)
	if errs.KindOf(err) != errs.Invalid || !strings.Contains(err.Error(), "órgão julgador") {
		t.Fatalf("no unit: %v", err)
	}
	_, err = datajud.Export(ctx, e.G, &bytes.Buffer{}, datajud.Options{Court: testenv.Court, Month: "2025-3", Loc: sp}, nil)
	casetest.InvalidField(t, err, "month", false)
	_, err = datajud.Export(ctx, e.G, &bytes.Buffer{}, datajud.Options{Court: testenv.Court, Month: "2025-03", Format: "csv", Loc: sp}, nil)
	casetest.InvalidField(t, err, "format", false)
	_, err = e.Svc.Case.SetCourtDataJud(ctx, testenv.Court, cases.DataJudUnit{UnitCode: 0, UnitName: " ", IBGEMunicipality: 35503})
	for _, f := range []string{"unit_code", "unit_name", "ibge_municipality"} {
		casetest.InvalidField(t, err, f, false)
	}
}

// Every kind without a national code has a local code, and no kind with
// one is listed as local (cases.MovementTPU).
func TestLocalMovements_CoverEveryUncodedKind(t *testing.T) {
	seen := map[cases.MovementKind]bool{}
	for _, l := range datajud.LocalMovements {
		if seen[l.Kind] || cases.MovementTPU[l.Kind].Code != 0 || l.Label == "" {
			t.Errorf("local movement %+v: repeated, national or unlabelled", l)
		}
		seen[l.Kind] = true
	}
	for k, m := range cases.MovementTPU {
		if m.Code == 0 && !seen[k] {
			t.Errorf("kind %q has no national code and no local one", k)
		}
	}
}
