package cases

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/juizado/juizado/cases/tpu"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// JudgeOfCase is errs.Forbidden unless actor is the judge the case c was
// distributed to; what names the act refused.
func JudgeOfCase(actor actor.Actor, c *Case, what string) error {
	if c.JudgeID == nil || *c.JudgeID != actor.UserID {
		return errs.New(errs.Forbidden, "Somente o(a) juiz(a) a quem o processo foi distribuído pode "+what+".")
	}
	return nil
}

// PersonOf returns defendant id of case c: errs.Invalid on field when id
// is 0 or names no defendant of c.
func (s *Core) PersonOf(ctx context.Context, c *Case, id int64, field string) (*Defendant, error) {
	if id == 0 {
		return nil, errs.InvalidField(field, "required", "informe o réu (defendant_id).")
	}
	var d Defendant
	if err := db.Conn(ctx, s.DB).Where("id = ? AND case_id = ?", id, c.ID).Limit(1).Find(&d).Error; err != nil {
		return nil, err
	}
	if d.ID == 0 {
		return nil, errs.InvalidField(field, "defendant_of_case", fmt.Sprintf("o réu %d não é parte deste processo.", id))
	}
	return &d, nil
}

// MovementView is a docket entry: when, its kind (MovementKind), the TPU
// code and its name in the TPU's movements table the database holds (Res.
// CNJ 46/2007; empty when the table lacks the code), the TPU complements,
// the text and who recorded it (nil: the system).
type MovementView struct {
	At          time.Time    `json:"at"`
	Kind        MovementKind `json:"kind,omitempty"`
	TPUCode     *int         `json:"tpu_code"`
	TPUName     string       `json:"tpu_name,omitempty"`
	Complements Complements  `json:"complements,omitempty"`
	Description string       `json:"description"`
	Author      *AuthorView  `json:"author"`
}

// AuthorView is who recorded a movement.
type AuthorView struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Role string `json:"role"`
}

// OrStatus names a status in Portuguese (the code itself when unnamed).
func OrStatus(st string) string {
	if pt, ok := StatusPT[st]; ok {
		return pt
	}
	return st
}

// Transition is an allowed move of a case (criminal: of a defendant's
// track) from one status to another: who may make it (roles; "judge" means
// the judge the case is distributed to), the TPU code of its docket
// movement (0: none) and the movement's text. Via names the endpoint that
// makes it when it needs more than a note (a plea offer, a homologation, a
// conditional suspension, a conviction). Ground is the ground the request
// must name (the archive at the prosecutor's request, CPP art. 28); Causes
// the causes of extinction of punishability allowed from From (CP art.
// 107).
type Transition struct {
	From   string       `json:"from"`
	To     string       `json:"to"`
	Roles  []string     `json:"roles"`
	TPU    int          `json:"tpu_code,omitempty"` // TPUOf(Kind), set at init
	Kind   MovementKind `json:"-"`
	Text   string       `json:"-"`
	Via    string       `json:"via,omitempty"`
	Ground string       `json:"ground,omitempty"`
	Causes []string     `json:"causes,omitempty"`
}

var (
	clerk      = []string{"clerk"}
	prosecutor = []string{"prosecutor"}
	judge      = []string{"judge"}
	answer     = []string{"clerk", "prosecutor"}
	receipt    = []string{"clerk", "judge"}
)

// Grounds and causes of the other ends of a defendant's track (DOMAIN.md
// §4; API.md "each defendant's track").
const (
	// GroundProsecutorRequest: the archive of the termo circunstanciado at
	// the prosecutor's request (CPP art. 28).
	GroundProsecutorRequest = "prosecutor_request"
	// CausePleaFulfilled: the plea agreement fulfilled (Lei 9.099/1995,
	// art. 76; Súmula Vinculante 35).
	CausePleaFulfilled = "plea_fulfilled"
	// CauseSuspensionEnded: the conditional suspension's period ended
	// without revocation (Lei 9.099/1995, art. 89, § 5º).
	CauseSuspensionEnded = "suspension_ended"
	// CausePrescription: prescription (CP arts. 107, IV, and 109).
	CausePrescription = "prescription"
	// CauseDeath: the defendant's death (CP art. 107, I; CPP art. 62).
	CauseDeath = "death"
)

// ExtinctionCausePT names each cause of extinction of punishability with
// its article, for the docket.
var ExtinctionCausePT = map[string]string{
	CausePleaFulfilled:   "cumprida a transação penal (Lei 9.099/1995, art. 76; CP, art. 107)",
	CauseSuspensionEnded: "expirado o período de prova sem revogação (Lei 9.099/1995, art. 89, § 5º)",
	CausePrescription:    "prescrição (CP, arts. 107, IV, e 109)",
	CauseDeath:           "morte do agente (CP, art. 107, I; CPP, art. 62)",
}

// Separated is the target of POST .../transitions that separates a
// defendant's proceedings (CPP art. 80): a docketed decision of the judge,
// not a status (his track keeps its status; defendants.separated_on).
const Separated = "separated"

// Endpoints that make the transitions needing more than a note.
const (
	ViaPlea       = "POST /api/v1/cases/{id}/plea"
	ViaHomologate = "POST /api/v1/cases/{id}/plea/homologate"
	ViaSuspension = "POST /api/v1/cases/{id}/suspension"
	viaSentence   = "POST /api/v1/cases/{id}/sentence"
)

// CriminalFlow is the JECRIM flow (Lei 9.099/1995; DOMAIN.md §4): the
// representation is distributed (TPU 26), a preliminary hearing (art. 72)
// leads to a plea agreement (art. 76) or an accusation (art. 77), with
// which the prosecutor may propose the conditional suspension (art. 89);
// then the instruction and judgment hearing
// (art. 81), the sentence (TPU 219/220/221; POST .../sentence for a
// conviction), the appeal (art. 82), the final judgment (TPU 848), the
// execution of the ban and the archive (TPU 246).
var CriminalFlow = []Transition{
	{From: StatusFiled, To: StatusDistributed, Roles: clerk, Kind: MoveDistribution},
	{From: StatusDistributed, To: StatusPreliminaryHearing, Roles: clerk, Text: "Aberta a fase preliminar (Lei 9.099/1995, art. 72): composição dos danos e proposta de transação penal."},
	{From: StatusPreliminaryHearing, To: StatusPleaOffered, Roles: prosecutor, Via: ViaPlea},
	{From: StatusPreliminaryHearing, To: StatusAccusation, Roles: prosecutor, Text: "Oferecida denúncia oral pelo Ministério Público (Lei 9.099/1995, art. 77)."},
	{From: StatusPleaOffered, To: StatusPleaAccepted, Roles: answer, Text: "Proposta de transação penal aceita pelo autor do fato e por seu defensor (Lei 9.099/1995, art. 76, § 3º)."},
	{From: StatusPleaOffered, To: StatusPleaRefused, Roles: answer, Text: "Proposta de transação penal recusada pelo autor do fato."},
	{From: StatusPleaAccepted, To: StatusExecuting, Roles: judge, Via: ViaHomologate},
	{From: StatusPleaRefused, To: StatusAccusation, Roles: prosecutor, Text: "Oferecida denúncia oral pelo Ministério Público (Lei 9.099/1995, art. 77)."},
	{From: StatusAccusation, To: StatusConditionalSuspension, Roles: judge, Via: ViaSuspension},
	{From: StatusAccusation, To: StatusInstructionHearing, Roles: receipt, Kind: MoveReceipt, Text: "Recebida a denúncia (Lei 9.099/1995, art. 81): segue a instrução e julgamento."},
	{From: StatusAccusation, To: StatusRejected, Roles: judge, Text: "Rejeitada a denúncia (Lei 9.099/1995, art. 81; CPP, art. 395)."},
	{From: StatusConditionalSuspension, To: StatusAccusation, Roles: judge, Text: "Revogada a suspensão condicional do processo (Lei 9.099/1995, art. 89, §§ 3º e 4º): o processo retoma seu curso. Motivo:"},
	{From: StatusConditionalSuspension, To: StatusArchived, Roles: judge, Kind: MoveArchive, Text: "Expirado o período de prova sem revogação: extinta a punibilidade (Lei 9.099/1995, art. 89, § 5º). Arquivamento definitivo."},
	{From: StatusInstructionHearing, To: StatusSentenced, Roles: judge, Via: viaSentence},
	{From: StatusSentenced, To: StatusAppeal, Roles: clerk, Text: "Interposto recurso para a Turma Recursal (Lei 9.099/1995, art. 82)."},
	{From: StatusSentenced, To: StatusFinal, Roles: clerk, Kind: MoveFinalJudgment, Text: "Certificado o trânsito em julgado da sentença."},
	{From: StatusAppeal, To: StatusFinal, Roles: clerk, Kind: MoveFinalJudgment, Text: "Julgado o recurso pela Turma Recursal; certificado o trânsito em julgado."},
	{From: StatusFinal, To: StatusExecuting, Roles: clerk, Text: "Iniciada a execução da pena de impedimento de comparecimento."},
	{From: StatusFinal, To: StatusArchived, Roles: clerk, Kind: MoveArchive, Text: "Arquivamento definitivo."},
	{From: StatusExecuting, To: StatusArchived, Roles: clerk, Kind: MoveArchive, Text: "Cumprida a pena: arquivamento definitivo."},
}

// archiveOnRequest are the steps of a termo circunstanciado the prosecutor
// may ask to archive instead of accusing (CPP art. 28; Lei 9.099/1995,
// art. 76, caput): before an accusation is offered.
var archiveOnRequest = []string{StatusDistributed, StatusPreliminaryHearing, StatusPleaRefused}

// extinctFrom is, for each status, the causes of extinction of
// punishability (CP art. 107) a defendant's track in it may end by: the
// plea's fulfilment once homologated (executing), the suspension's period
// (art. 89, § 5º), prescription before the final judgment (the penalty's
// after it is the execution's), and death at any step.
var extinctFrom = map[string][]string{
	StatusDistributed: {CausePrescription, CauseDeath}, StatusPreliminaryHearing: {CausePrescription, CauseDeath},
	StatusPleaOffered: {CausePrescription, CauseDeath}, StatusPleaAccepted: {CausePrescription, CauseDeath},
	StatusPleaRefused: {CausePrescription, CauseDeath}, StatusAccusation: {CausePrescription, CauseDeath},
	StatusConditionalSuspension: {CauseSuspensionEnded, CauseDeath}, StatusInstructionHearing: {CausePrescription, CauseDeath},
	StatusSentenced: {CausePrescription, CauseDeath}, StatusAppeal: {CausePrescription, CauseDeath},
	StatusFinal: {CauseDeath}, StatusExecuting: {CausePleaFulfilled, CauseDeath},
}

func init() {
	for _, from := range archiveOnRequest {
		CriminalFlow = append(CriminalFlow, Transition{From: from, To: StatusArchived, Roles: judge, Kind: MoveArchive, Ground: GroundProsecutorRequest,
			Text: "Arquivado o termo circunstanciado a requerimento do Ministério Público (CPP, art. 28)."})
	}
	for _, from := range trackOrder {
		if causes, ok := extinctFrom[from]; ok {
			CriminalFlow = append(CriminalFlow, Transition{From: from, To: StatusExtinct, Roles: judge, Causes: causes,
				Text: "Declarada extinta a punibilidade (CP, art. 107):"})
		}
	}
	// Each step's docket movement: its kind (a step with no code of its
	// own: MoveStatusChange) and the kind's national code, shown in the
	// flow (MovementTPU).
	for _, flow := range [][]Transition{CriminalFlow, CivilFlow} {
		for i := range flow {
			if flow[i].Kind == "" {
				flow[i].Kind = MoveStatusChange
			}
			flow[i].TPU = TPUOf(flow[i].Kind)
		}
	}
}

// CivilFlow is the flow of group cases (DOMAIN.md §2; LGE art. 180): an
// ação civil pública or a TAC; no plea agreement, no suspension.
var CivilFlow = []Transition{
	{From: StatusFiled, To: StatusDistributed, Roles: clerk, Kind: MoveDistribution},
	{From: StatusDistributed, To: StatusHearing, Roles: clerk, Text: "Aberta a fase de conciliação (audiência de conciliação)."},
	{From: StatusHearing, To: StatusSettlement, Roles: judge, Kind: MoveSettlementHomologated, Text: "Homologado o termo de ajustamento de conduta (TAC)."},
	{From: StatusHearing, To: StatusJudgment, Roles: judge, Via: viaSentence},
	{From: StatusJudgment, To: StatusAppeal, Roles: clerk, Text: "Interposto recurso."},
	{From: StatusJudgment, To: StatusFinal, Roles: clerk, Kind: MoveFinalJudgment, Text: "Certificado o trânsito em julgado da sentença."},
	{From: StatusSettlement, To: StatusFinal, Roles: clerk, Kind: MoveFinalJudgment, Text: "Certificado o trânsito em julgado da homologação do TAC."},
	{From: StatusAppeal, To: StatusFinal, Roles: clerk, Kind: MoveFinalJudgment, Text: "Julgado o recurso; certificado o trânsito em julgado."},
	{From: StatusFinal, To: StatusArchived, Roles: clerk, Kind: MoveArchive, Text: "Arquivamento definitivo."},
}

// canonical is the main path of each flow up to the decision: the steps a
// sentence given earlier skips are recorded in the docket.
var canonical = map[string][]string{
	FlowCriminal: {StatusFiled, StatusDistributed, StatusPreliminaryHearing, StatusAccusation, StatusInstructionHearing},
	FlowCivil:    {StatusFiled, StatusDistributed, StatusHearing},
}

// rank places side states of the criminal flow on its main path.
var rank = map[string]string{
	StatusPleaOffered: StatusPreliminaryHearing, StatusPleaAccepted: StatusPreliminaryHearing,
	StatusPleaRefused: StatusPreliminaryHearing, StatusConditionalSuspension: StatusAccusation,
}

// Decided is the status of a case whose defendants are all decided.
func Decided(flow string) string {
	if flow == FlowCivil {
		return StatusJudgment
	}
	return StatusSentenced
}

// FlowOf returns the transitions of a flow.
func FlowOf(flow string) []Transition {
	if flow == FlowCivil {
		return CivilFlow
	}
	return CriminalFlow
}

// Next returns the transitions allowed from status in flow.
func Next(flow, status string) []Transition {
	var out []Transition
	for _, t := range FlowOf(flow) {
		if t.From == status {
			out = append(out, t)
		}
	}
	return out
}

// SkippedSteps names, in Portuguese, the main-path steps between status and
// the decision that the case never went through.
func SkippedSteps(flow, status string) []string {
	path := canonical[flow]
	if r, ok := rank[status]; ok {
		status = r
	}
	var out []string
	for i, st := range path {
		if st == status {
			for _, rest := range path[i+1:] {
				if rest != StatusDistributed && rest != StatusFiled {
					out = append(out, StatusPT[rest])
				}
			}
			return out
		}
	}
	return out
}

// BeforeDecision reports whether a case in status may still be sentenced.
func BeforeDecision(flow, status string) bool {
	switch status {
	case StatusSentenced, StatusJudgment, StatusSettlement, StatusAppeal, StatusFinal, StatusExecuting, StatusArchived, StatusRejected, StatusExtinct:
		return false
	}
	return true
}

var rolePT = map[string]string{"clerk": "cartório (clerk)", "prosecutor": "Ministério Público (prosecutor)", "judge": "juiz(a) do processo (judge)"}

func rolesPT(roles []string) string {
	out := make([]string, len(roles))
	for i, r := range roles {
		out[i] = rolePT[r]
	}
	return strings.Join(out, " ou ")
}

// TransitionFor finds the transition of c to to, or an errs.Invalid on
// "to" naming the transitions allowed from c's status.
func TransitionFor(c *Case, to string) (Transition, error) {
	next := Next(c.Flow, c.Status)
	for _, t := range next {
		if t.To == to {
			return t, nil
		}
	}
	var names []string
	for _, t := range next {
		names = append(names, t.To)
	}
	allowed := "nenhuma (situação final)"
	if len(names) > 0 {
		allowed = strings.Join(names, ", ")
	}
	what := fmt.Sprintf("%q", to)
	if _, ok := StatusPT[to]; !ok || !validIn(c.Flow, to) {
		what = fmt.Sprintf("%q (situação desconhecida no rito %s)", to, flowPT(c.Flow))
	}
	return Transition{}, &errs.Error{Kind: errs.Invalid,
		Message: fmt.Sprintf("Transição não permitida: o processo está em %s (%s).", c.Status, StatusPT[c.Status]),
		Fields: []errs.FieldError{{Field: "to", Rule: "transition",
			Message: fmt.Sprintf("de %s não se passa a %s; permitidas: %s.", c.Status, what, allowed)}}}
}

// StepFor finds the transition of a defendant's track of c, in status
// from, to status to that the step with its own endpoint via makes (a plea
// offer, a homologation, a conditional suspension, named what in the
// message). From a status where the flow
// does not allow the step it is errs.Conflict about the case's phase,
// naming the statuses it is taken from, with no field: the request names
// no status ("to" belongs to POST .../transitions alone).
func StepFor(c *Case, from, to, via, what string) (Transition, error) {
	for _, t := range Next(c.Flow, from) {
		if t.To == to && t.Via == via {
			return t, nil
		}
	}
	var froms []string
	for _, t := range FlowOf(c.Flow) {
		if t.To == to && t.Via == via {
			froms = append(froms, fmt.Sprintf("“%s” (%s)", OrStatus(t.From), t.From))
		}
	}
	where := "em nenhuma fase do rito " + flowPT(c.Flow)
	if len(froms) > 0 {
		where = "quando o réu está em " + strings.Join(froms, " ou ")
	}
	return Transition{}, errs.New(errs.Conflict, fmt.Sprintf("%s não cabe na fase atual: o réu está em “%s” (%s); cabe %s.", what, OrStatus(from), from, where))
}

func validIn(flow, status string) bool {
	for _, t := range FlowOf(flow) {
		if t.From == status || t.To == status {
			return true
		}
	}
	return false
}

func flowPT(flow string) string {
	if flow == FlowCivil {
		return "civil (torcidas)"
	}
	return "do JECRIM"
}

// MayMake checks that actor may make t on c: the role, and for the judge,
// the judge the case is distributed to.
func MayMake(actor actor.Actor, c *Case, t Transition) error {
	if !Contains(t.Roles, actor.Role) {
		return errs.New(errs.Forbidden, fmt.Sprintf("A passagem de %s a %s cabe a: %s.", t.From, t.To, rolesPT(t.Roles)))
	}
	if actor.Role == "judge" {
		return JudgeOfCase(actor, c, "decidir esta etapa")
	}
	return nil
}

// StaleError is returned when the If-Match version a client sent is not
// the case's current version (HTTP 412). Sent lists the versions the
// request accepted (an If-Match list); empty when it named none of ours (a
// weak tag, which never matches, or another resource's tag).
type StaleError struct {
	Current int
	Sent    []int
}

// Error says the case changed since it was read, with its versions.
func (e *StaleError) Error() string {
	if len(e.Sent) == 0 {
		return fmt.Sprintf("O processo está na versão %d e o If-Match não nomeia nenhuma versão dele por etiqueta forte (\"v%d\"; etiquetas fracas W/ nunca coincidem): leia-o de novo e refaça a operação.", e.Current, e.Current)
	}
	sent := make([]string, len(e.Sent))
	for i, v := range e.Sent {
		sent[i] = strconv.Itoa(v)
	}
	return fmt.Sprintf("O processo mudou desde a sua leitura (versão atual %d, enviada %s): leia-o de novo e refaça a operação.", e.Current, strings.Join(sent, ", "))
}

type versionKey struct{}

// ExpectVersions makes ctx carry the case versions of an If-Match list:
// the write goes on when the case is at any of versions; with none, it is
// refused (*StaleError) whatever the version.
func ExpectVersions(ctx context.Context, versions ...int) context.Context {
	return context.WithValue(ctx, versionKey{}, append([]int{}, versions...))
}

// LockCase loads case id of the actor's court for update, checking the
// version the request expects (ExpectVersions).
func (s *Core) LockCase(ctx context.Context, actor actor.Actor, id int64) (*Case, error) {
	var c Case
	err := db.Conn(ctx, s.DB).Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", id).Take(&c).Error
	if errors.Is(err, gorm.ErrRecordNotFound) || (err == nil && c.CourtCode != actor.Court) {
		return nil, NotFound(fmt.Sprintf("Processo %d", id))
	}
	if err != nil {
		return nil, err
	}
	if vs, ok := ctx.Value(versionKey{}).([]int); ok && !slices.Contains(vs, c.Version) {
		return nil, &StaleError{Current: c.Version, Sent: vs}
	}
	return &c, nil
}

// Touch moves c to status (unchanged when "") and increments its version.
func (s *Core) Touch(ctx context.Context, c *Case, status string) error {
	if status == "" {
		status = c.Status
	}
	var v int
	if err := db.Conn(ctx, s.DB).Raw("UPDATE cases SET status = ?, version = version + 1 WHERE id = ? RETURNING version", status, c.ID).Scan(&v).Error; err != nil {
		return err
	}
	c.Status, c.Version = status, v
	return nil
}

// Move writes a docket movement of kind by actor (nil: the system), with
// the TPU complements its kind carries; its national code is the kind's
// (MovementTPU; Res. CNJ 46/2007).
func (s *Core) Move(ctx context.Context, c *Case, actor *actor.Actor, at time.Time, kind MovementKind, text string, comps ...Complement) error {
	return s.record(ctx, actor, Movement{CaseID: c.ID, At: at, Kind: kind, Complements: comps, Description: text})
}

// record writes movement m by actor (nil: the system).
func (s *Core) record(ctx context.Context, actor *actor.Actor, m Movement) error {
	if actor != nil {
		uid := actor.UserID
		m.AuthorUserID, m.AuthorRole = &uid, actor.Role
	}
	return db.Conn(ctx, s.DB).Create(&m).Error
}

// reservedTPU are the TPU codes a free movement may not carry: each records
// an act that the system makes with its own checks (a decision, the final
// judgment, the distribution, the archive), named with the operation.
var reservedTPU = map[MovementKind]string{
	MoveDistribution:    "a distribuição (transição distributed)",
	MoveConviction:      "a sentença (POST /api/v1/cases/{id}/sentence)",
	MoveAcquittal:       "a sentença (POST /api/v1/cases/{id}/sentence)",
	MovePartialJudgment: "a sentença (POST /api/v1/cases/{id}/sentence)",
	MoveAppealGranted:   "o resultado do recurso (POST /api/v1/cases/{id}/appeal-result)",
	MoveAppealDenied:    "o resultado do recurso (POST /api/v1/cases/{id}/appeal-result)",
	MoveFinalJudgment:   "o trânsito em julgado (transição final)",
	MoveArchive:         "o arquivamento (transição archived)",
}

// reservedVia names the operation that writes code, when a reserved kind
// has it ("" else).
func reservedVia(code int) string {
	for k, via := range reservedTPU {
		if TPUOf(k) == code {
			return via
		}
	}
	return ""
}

// MovementInput is the body of POST /api/v1/cases/{id}/movements: a docket
// entry the clerk records, with its TPU code when there is one and the
// instant it happened (default now).
type MovementInput struct {
	Description string `json:"description"`
	TPUCode     *int   `json:"tpu_code"`
	At          string `json:"at"`
}

// AddMovement records a docket movement by the actor. The instant may not
// be in the future nor before the filing; the TPU code, when given, must be
// in the TPU's movements table the database holds (Res. CNJ 46/2007: an
// unknown code is errs.Invalid on tpu_code naming the table's version) and
// not one the system writes itself (reservedTPU).
func (s *Service) AddMovement(ctx context.Context, actor actor.Actor, caseID int64, in MovementInput) (*MovementView, error) {
	var out *MovementView
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		c, err := s.LockCase(ctx, actor, caseID)
		if err != nil {
			return err
		}
		var f errs.Fields
		now := s.Now()
		if strings.TrimSpace(in.Description) == "" {
			f.Add("description", "required", "descreva a movimentação.")
		}
		CheckText(&f, "description", in.Description, MaxLong, true)
		name := ""
		if in.TPUCode != nil {
			if *in.TPUCode < 1 || *in.TPUCode > 999999 {
				f.Add("tpu_code", "range", fmt.Sprintf("código TPU %d fora do intervalo: os códigos de movimento da Tabela Processual Unificada do CNJ vão de 1 a 999999 (ex.: 51 conclusão, 22 baixa definitiva).", *in.TPUCode))
			} else if via := reservedVia(*in.TPUCode); via != "" {
				f.Add("tpu_code", "reserved", fmt.Sprintf("o código TPU %d é lançado pela própria operação: %s.", *in.TPUCode, via))
			} else if name, err = tpu.Check(ctx, db.Conn(ctx, s.DB).Statement.ConnPool, tpu.Movements, "tpu_code", *in.TPUCode); err != nil {
				var e *errs.Error
				if !errors.As(err, &e) {
					return err
				}
				f = append(f, e.Fields...)
			}
		}
		at := now
		if in.At != "" {
			t, err := time.Parse(time.RFC3339, in.At)
			switch {
			case err != nil:
				f.Add("at", "rfc3339", "instante inválido: use o formato 2025-03-30T15:20:00-03:00.")
			case t.After(now):
				f.Add("at", "not_future", "a movimentação não pode estar no futuro.")
			case t.Before(c.FiledAt):
				f.Add("at", "after_filing", "a movimentação não pode ser anterior à autuação do processo.")
			default:
				at = t
			}
		}
		if err := f.Err(); err != nil {
			return err
		}
		text := strings.TrimSpace(in.Description)
		if err := s.record(ctx, &actor, Movement{CaseID: c.ID, At: at, Kind: MoveManual, TPUCode: in.TPUCode, Description: text}); err != nil {
			return err
		}
		if err := s.Touch(ctx, c, ""); err != nil {
			return err
		}
		out = &MovementView{At: at, Kind: MoveManual, TPUCode: in.TPUCode, TPUName: name, Description: text,
			Author: &AuthorView{ID: actor.UserID, Name: actor.Name, Role: actor.Role}}
		return nil
	})
	return out, err
}
