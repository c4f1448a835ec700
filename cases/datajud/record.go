// Package datajud writes the court's cases for the CNJ's DataJud (Res. CNJ
// 331/2020): one Record per case, built once from the database, written as
// the JSON documents of DataJud's public API (WriteJSON) or as the MTD's
// XML (intercomunicacao, WriteXML). Export streams a month: the cases are
// read in batches and written as they come; a case DataJud would reject is
// reported with its reasons instead of being written.
package datajud

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/pdf"
)

// Degree is the grau of every case of this court in DataJud: "JE", the
// juizado especial (DataJud's glossary: G1, G2, JE, TR, ...; a juizado's
// cases, JECRIM included, are of degree JE, not G1 — Res. CNJ 331/2020).
const Degree = "JE"

// Instance is the MTD's instancia of the judging unit: "ORIG", the court
// where the case originates (MNI 2.2.2, tipoOrgaoJulgador).
const Instance = "ORIG"

// System and Format are DataJud's sistema and formato of every case:
// formato 1 "Eletrônico" (seen in public DataJud documents); sistema 8
// "Outros", a system that is not one of the CNJ's listed ones (DataJud's
// glossary; unverified against the current list).
var (
	System = CodeName{Code: 8, Name: "Outros"}
	Format = CodeName{Code: 1, Name: "Eletrônico"}
)

// CodeName is a coded entry of a CNJ table: its code and its name (a TPU
// class, subject or movement; DataJud's sistema, formato).
type CodeName struct {
	Code int    `json:"codigo"`
	Name string `json:"nome"`
}

// Unit is the judging unit of a record (the court's cases.DataJudUnit).
type Unit = cases.DataJudUnit

// Entry is one docket entry of a record: At, its instant; National,
// its TPU code (0: a local movement); Local, its code in LocalMovements
// (0: a national one); Name, the TPU's name or the local label;
// Complements, its TPU complements.
type Entry struct {
	At          time.Time
	National    int
	Local       int
	Name        string
	Complements cases.Complements
}

// Party is a party of a record as the MTD's polo asks it: Pole "AT"
// (active) or "PA" (passive); Name; Kind, the MTD's tipoPessoa ("fisica",
// "juridica", "autoridade", "orgaorepresentacao"); Document, the CPF or
// CNPJ digits ("" when unknown or withheld). Nothing else of a person is
// exported.
type Party struct {
	Pole, Name, Kind, Document string
}

// Record is one case as DataJud receives it, the one source of both the
// JSON and the XML: Number (20 digits), Court (TR.OOOO), Tribunal
// ("TJSP"), Secrecy (nivelSigilo 0 to 5), FiledAt, Class, Subjects, Unit,
// Parties, Movements (in docket order) and LastUpdate (the last
// movement's instant).
type Record struct {
	Number     string
	Court      string
	Tribunal   string
	Secrecy    int
	FiledAt    time.Time
	Class      CodeName
	Subjects   []CodeName
	Unit       Unit
	Parties    []Party
	Movements  []Entry
	LastUpdate time.Time
}

// Key is the record's DataJud key, TRIBUNAL_CLASSE_GRAU_ORGAO_NUMERO (the
// id of DataJud's public documents; Res. CNJ 331/2020).
func (r *Record) Key() string {
	return fmt.Sprintf("%s_%d_%s_%d_%s", r.Tribunal, r.Class.Code, Degree, r.Unit.UnitCode, r.Number)
}

// TribunalOf is DataJud's acronym of the state court of a court code
// TR.OOOO: "TJ" and the state ("TJSP"), the Federal District's "TJDFT";
// "" when the TR is not a state court's.
func TribunalOf(court string) string {
	switch uf := pdf.TribunalUF(court); uf {
	case "":
		return ""
	case "DF":
		return "TJDFT"
	default:
		return "TJ" + uf
	}
}

// LocalMovements are the court's own movements, the kinds the TPU has no
// national code for (cases.MovementTPU Code 0), each with its label: its
// local code is its position in this list, from 1 (the MTD's
// movimentoLocal codigoMovimento). Append only: a code, once exported,
// keeps its meaning. The docket's free text is never exported (it may
// name people).
var LocalMovements = []struct {
	Kind  cases.MovementKind
	Label string
}{
	{cases.MoveManual, "Movimentação lançada pelo cartório"},
	{cases.MoveFiling, "Autuação"},
	{cases.MoveLinkedCases, "Representação mista desmembrada em processos vinculados"},
	{cases.MoveStatusChange, "Mudança de fase processual"},
	{cases.MoveSeparation, "Separação do processo (CPP, art. 80)"},
	{cases.MoveGroupLinked, "Vinculação de torcida organizada cadastrada"},
	{cases.MoveSkippedSteps, "Fases não registradas antes da sentença"},
	{cases.MovePrecautionary, "Medida cautelar de impedimento decretada"},
	{cases.MovePrecautionaryEnded, "Medida cautelar de impedimento encerrada"},
	{cases.MovePrecautionaryRenewed, "Medida cautelar de impedimento prorrogada"},
	{cases.MoveGroupMembers, "Impedimento da torcida estendido aos associados"},
	{cases.MovePleaOffered, "Transação penal proposta"},
	{cases.MoveSuspension, "Suspensão condicional do processo"},
	{cases.MoveAppealFiled, "Recurso interposto"},
	{cases.MoveNotice, "Ciência da sentença"},
	{cases.MoveDeadlineMoved, "Prazo prorrogado por feriado"},
	{cases.MoveEmbargosFiled, "Embargos de declaração opostos"},
	{cases.MoveEmbargosRuled, "Embargos de declaração julgados"},
	{cases.MoveBanStart, "Início da execução do impedimento"},
	{cases.MoveBreach, "Descumprimento de impedimento comunicado"},
	{cases.MoveBreachDecided, "Decisão sobre descumprimento"},
	{cases.MoveBanCorrected, "Correção de erro material do impedimento"},
	{cases.MoveBanCredit, "Detração"},
	{cases.MoveIdentified, "Identificação do impedido por CPF"},
	{cases.MoveScheduleChanged, "Impedimento ajustado à tabela de partidas"},
	{cases.MoveReclassified, "Correção de classe e assuntos"},
	{cases.MoveCounselLinked, "Defensor constituído"},
	{cases.MoveCounselUnlinked, "Defensor desvinculado"},
	{cases.MoveCounselRequested, "Pedido de habilitação de defensor"},
	{cases.MoveCounselRefused, "Pedido de habilitação de defensor recusado"},
	{cases.MoveNoticeAvailable, "Intimação eletrônica disponibilizada à defesa"},
	{cases.MoveNoticeOpened, "Intimação eletrônica aberta pela defesa"},
	{cases.MovePetitionFiled, "Petição da defesa juntada"},
	{cases.MovePetitionAnswered, "Petição da defesa respondida"},
	{cases.MoveBnmpRegistered, "Mandado registrado no BNMP"},
}

// localCode is each local kind's code (its position in LocalMovements).
var localCode = func() map[cases.MovementKind]int {
	m := map[cases.MovementKind]int{}
	for i, l := range LocalMovements {
		m[l.Kind] = i + 1
	}
	return m
}()

// initials writes a name as its initials ("J. D. S."): a party of a case
// under secrecy.
func initials(name string) string {
	var b strings.Builder
	for _, w := range strings.Fields(name) {
		r := []rune(w)
		if len(r) < 3 && unicode.IsLower(r[0]) { // "da", "de", "e"
			continue
		}
		b.WriteString(string(unicode.ToUpper(r[0])) + ". ")
	}
	return strings.TrimSpace(b.String())
}
