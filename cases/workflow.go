package cases

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Transition is an allowed move of a case from one status to another: who
// may make it (roles; "judge" means the judge the case is distributed to),
// the TPU code of its docket movement (0: none) and the movement's text.
// Via names the endpoint that makes it when it needs more than a note (a
// plea offer, a homologation, a conditional suspension, a conviction).
type Transition struct {
	From  string   `json:"from"`
	To    string   `json:"to"`
	Roles []string `json:"roles"`
	TPU   int      `json:"tpu_code,omitempty"`
	Text  string   `json:"-"`
	Via   string   `json:"via,omitempty"`
}

var (
	clerk      = []string{"clerk"}
	prosecutor = []string{"prosecutor"}
	judge      = []string{"judge"}
	answer     = []string{"clerk", "prosecutor"}
)

// Endpoints that make the transitions needing more than a note.
const (
	viaPlea       = "POST /api/v1/cases/{id}/plea"
	viaHomologate = "POST /api/v1/cases/{id}/plea/homologate"
	viaSuspension = "POST /api/v1/cases/{id}/suspension"
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
	{From: StatusFiled, To: StatusDistributed, Roles: clerk, TPU: TPUDistribution},
	{From: StatusDistributed, To: StatusPreliminaryHearing, Roles: clerk, Text: "Realizada a audiência preliminar (Lei 9.099/1995, art. 72)."},
	{From: StatusPreliminaryHearing, To: StatusPleaOffered, Roles: prosecutor, Via: viaPlea},
	{From: StatusPreliminaryHearing, To: StatusAccusation, Roles: prosecutor, Text: "Oferecida denúncia oral pelo Ministério Público (Lei 9.099/1995, art. 77)."},
	{From: StatusPleaOffered, To: StatusPleaAccepted, Roles: answer, Text: "Proposta de transação penal aceita pelo autor do fato e por seu defensor (Lei 9.099/1995, art. 76, § 3º)."},
	{From: StatusPleaOffered, To: StatusPleaRefused, Roles: answer, Text: "Proposta de transação penal recusada pelo autor do fato."},
	{From: StatusPleaAccepted, To: StatusExecuting, Roles: judge, Via: viaHomologate},
	{From: StatusPleaRefused, To: StatusAccusation, Roles: prosecutor, Text: "Oferecida denúncia oral pelo Ministério Público (Lei 9.099/1995, art. 77)."},
	{From: StatusAccusation, To: StatusConditionalSuspension, Roles: judge, Via: viaSuspension},
	{From: StatusAccusation, To: StatusInstructionHearing, Roles: clerk, TPU: TPUReceipt, Text: "Audiência de instrução e julgamento: recebida a denúncia (Lei 9.099/1995, art. 81)."},
	{From: StatusConditionalSuspension, To: StatusAccusation, Roles: judge, Text: "Revogada a suspensão condicional do processo (Lei 9.099/1995, art. 89, §§ 3º e 4º): o processo retoma seu curso. Motivo:"},
	{From: StatusConditionalSuspension, To: StatusArchived, Roles: judge, TPU: TPUArchive, Text: "Expirado o período de prova sem revogação: extinta a punibilidade (Lei 9.099/1995, art. 89, § 5º). Arquivamento definitivo."},
	{From: StatusInstructionHearing, To: StatusSentenced, Roles: judge, Via: viaSentence},
	{From: StatusSentenced, To: StatusAppeal, Roles: clerk, Text: "Interposto recurso para a Turma Recursal (Lei 9.099/1995, art. 82)."},
	{From: StatusSentenced, To: StatusFinal, Roles: clerk, TPU: TPUFinalJudgment, Text: "Certificado o trânsito em julgado da sentença."},
	{From: StatusAppeal, To: StatusFinal, Roles: clerk, TPU: TPUFinalJudgment, Text: "Julgado o recurso pela Turma Recursal; certificado o trânsito em julgado."},
	{From: StatusFinal, To: StatusExecuting, Roles: clerk, Text: "Iniciada a execução da pena de impedimento de comparecimento."},
	{From: StatusFinal, To: StatusArchived, Roles: clerk, TPU: TPUArchive, Text: "Arquivamento definitivo."},
	{From: StatusExecuting, To: StatusArchived, Roles: clerk, TPU: TPUArchive, Text: "Cumprida a pena: arquivamento definitivo."},
}

// CivilFlow is the flow of group cases (DOMAIN.md §2; LGE art. 180): an
// ação civil pública or a TAC; no plea agreement, no suspension.
var CivilFlow = []Transition{
	{From: StatusFiled, To: StatusDistributed, Roles: clerk, TPU: TPUDistribution},
	{From: StatusDistributed, To: StatusHearing, Roles: clerk, Text: "Realizada a audiência de conciliação."},
	{From: StatusHearing, To: StatusSettlement, Roles: judge, Text: "Homologado o termo de ajustamento de conduta (TAC)."},
	{From: StatusHearing, To: StatusJudgment, Roles: judge, Via: viaSentence},
	{From: StatusJudgment, To: StatusAppeal, Roles: clerk, Text: "Interposto recurso."},
	{From: StatusJudgment, To: StatusFinal, Roles: clerk, TPU: TPUFinalJudgment, Text: "Certificado o trânsito em julgado da sentença."},
	{From: StatusSettlement, To: StatusFinal, Roles: clerk, TPU: TPUFinalJudgment, Text: "Certificado o trânsito em julgado da homologação do TAC."},
	{From: StatusAppeal, To: StatusFinal, Roles: clerk, TPU: TPUFinalJudgment, Text: "Julgado o recurso; certificado o trânsito em julgado."},
	{From: StatusFinal, To: StatusArchived, Roles: clerk, TPU: TPUArchive, Text: "Arquivamento definitivo."},
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

// decided is the status of a case whose defendants are all decided.
func decided(flow string) string {
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

// skippedSteps names, in Portuguese, the main-path steps between status and
// the decision that the case never went through.
func skippedSteps(flow, status string) []string {
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

// beforeDecision reports whether a case in status may still be sentenced.
func beforeDecision(flow, status string) bool {
	switch status {
	case StatusSentenced, StatusJudgment, StatusSettlement, StatusAppeal, StatusFinal, StatusExecuting, StatusArchived:
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

// transitionFor finds the transition of c to to, or an errs.Invalid on
// "to" naming the transitions allowed from c's status.
func transitionFor(c *Case, to string) (Transition, error) {
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

// stepFor finds the transition of c to status to that the step with its
// own endpoint via makes (a plea offer, a homologation, a conditional
// suspension, named what in the message). From a status where the flow
// does not allow the step it is errs.Conflict about the case's phase,
// naming the statuses it is taken from, with no field: the request names
// no status ("to" belongs to POST .../transitions alone).
func stepFor(c *Case, to, via, what string) (Transition, error) {
	for _, t := range Next(c.Flow, c.Status) {
		if t.To == to && t.Via == via {
			return t, nil
		}
	}
	var from []string
	for _, t := range FlowOf(c.Flow) {
		if t.To == to && t.Via == via {
			from = append(from, fmt.Sprintf("“%s” (%s)", orStatus(t.From), t.From))
		}
	}
	where := "em nenhuma fase do rito " + flowPT(c.Flow)
	if len(from) > 0 {
		where = "quando o processo está em " + strings.Join(from, " ou ")
	}
	return Transition{}, errs.New(errs.Conflict, fmt.Sprintf("%s não cabe na fase atual: o processo está em “%s” (%s); cabe %s.", what, orStatus(c.Status), c.Status, where))
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

// mayMake checks that actor may make t on c: the role, and for the judge,
// the judge the case is distributed to.
func mayMake(actor Actor, c *Case, t Transition) error {
	if !contains(t.Roles, actor.Role) {
		return errs.New(errs.Forbidden, fmt.Sprintf("A passagem de %s a %s cabe a: %s.", t.From, t.To, rolesPT(t.Roles)))
	}
	if actor.Role == "judge" {
		return judgeOfCase(actor, c, "decidir esta etapa")
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

// ExpectVersion returns ctx carrying the case version a write expects
// (If-Match); the write is refused with *StaleError when the case is at
// another version.
func ExpectVersion(ctx context.Context, version int) context.Context {
	return ExpectVersions(ctx, version)
}

// ExpectVersions is ExpectVersion for an If-Match list: the write goes on
// when the case is at any of versions; with none, it is refused
// (*StaleError) whatever the version.
func ExpectVersions(ctx context.Context, versions ...int) context.Context {
	return context.WithValue(ctx, versionKey{}, append([]int{}, versions...))
}

// lockCase loads case id of the actor's court for update, checking the
// version the request expects (ExpectVersion).
func (s *Service) lockCase(ctx context.Context, actor Actor, id int64) (*Case, error) {
	var c Case
	err := db.Conn(ctx, s.DB).Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", id).Take(&c).Error
	if errors.Is(err, gorm.ErrRecordNotFound) || (err == nil && c.CourtCode != actor.Court) {
		return nil, notFound(fmt.Sprintf("Processo %d", id))
	}
	if err != nil {
		return nil, err
	}
	if vs, ok := ctx.Value(versionKey{}).([]int); ok && !slices.Contains(vs, c.Version) {
		return nil, &StaleError{Current: c.Version, Sent: vs}
	}
	return &c, nil
}

// touch moves c to status (unchanged when "") and increments its version.
func (s *Service) touch(ctx context.Context, c *Case, status string) error {
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

// move writes a docket movement by actor (nil: the system).
func (s *Service) move(ctx context.Context, c *Case, actor *Actor, at time.Time, tpu int, text string) error {
	m := Movement{CaseID: c.ID, At: at, Description: text}
	if tpu != 0 {
		m.TPUCode = &tpu
	}
	if actor != nil {
		uid := actor.UserID
		m.AuthorUserID, m.AuthorRole = &uid, actor.Role
	}
	return db.Conn(ctx, s.DB).Create(&m).Error
}

// TransitionInput is the body of POST /api/v1/cases/{id}/transitions: the
// status to move to, a note for the docket, and for plea answers the
// defendant (default: every pending offer).
type TransitionInput struct {
	To          string `json:"to"`
	Note        string `json:"note"`
	DefendantID *int64 `json:"defendant_id"`
	// FinalOn is, after an appeal, the day the Turma Recursal's decision
	// became final (default today); without an appeal the day is computed
	// from the parties' windows.
	FinalOn string `json:"final_on"`
}

// Transition moves the case along an allowed transition of its flow, with a
// docket movement (and its TPU code). A transition not allowed from the
// current status is errs.Invalid on "to" naming the allowed ones; one that
// needs its own endpoint names it; a role that may not make it is
// errs.Forbidden naming who may. Certifying the final judgment waits for
// every defendant's appeal window (Lei 9.099/1995, art. 82, § 1º).
func (s *Service) Transition(ctx context.Context, actor Actor, caseID int64, in TransitionInput) (*View, error) {
	var out *View
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		c, err := s.lockCase(ctx, actor, caseID)
		if err != nil {
			return err
		}
		var f errs.Fields
		checkText(&f, "note", in.Note, maxLong, true)
		if strings.TrimSpace(in.To) == "" {
			f.Add("to", "required", "informe a situação de destino (to).")
		}
		if err := f.Err(); err != nil {
			return err
		}
		t, err := transitionFor(c, strings.TrimSpace(in.To))
		if err != nil {
			return err
		}
		if t.Via != "" {
			return errs.InvalidField("to", "via", fmt.Sprintf("a passagem a %s é feita por %s, com os seus dados.", t.To, t.Via))
		}
		if err := mayMake(actor, c, t); err != nil {
			return err
		}
		now := s.now()
		text, code := t.Text, t.TPU
		switch t.To {
		case StatusDistributed:
			if err := db.Conn(ctx, s.DB).Exec("SELECT 1 FROM courts WHERE code = ? FOR UPDATE", c.CourtCode).Error; err != nil {
				return err
			}
			if err := s.distribute(ctx, c, now, &actor); err != nil {
				return err
			}
			if c.JudgeID == nil {
				return errs.New(errs.Conflict, "O juizado não tem juiz(a) ativo(a): não há a quem distribuir o processo.")
			}
			text, code = "", 0 // distribute wrote the movement (TPU 26)
		case StatusPleaAccepted, StatusPleaRefused:
			st := "accepted"
			if t.To == StatusPleaRefused {
				st = "refused"
			}
			q := db.Conn(ctx, s.DB).Model(&Plea{}).Where("case_id = ? AND status = 'offered'", c.ID)
			if in.DefendantID != nil {
				q = q.Where("defendant_id = ?", *in.DefendantID)
			}
			res := q.Updates(map[string]any{"status": st, "answered_at": now})
			if res.Error != nil {
				return res.Error
			}
			if res.RowsAffected == 0 {
				return errs.InvalidField("defendant_id", "offered", "não há proposta de transação penal pendente para este réu.")
			}
		case StatusFinal:
			day, err := s.finalDay(ctx, c, in.FinalOn)
			if err != nil {
				return err
			}
			if err := s.startFinalBans(ctx, c, day, now); err != nil {
				return err
			}
			text += fmt.Sprintf(" Trânsito em julgado em %s.", day.BR())
		}
		if c.Status == StatusConditionalSuspension {
			if err := s.endSuspensions(ctx, c, t.To, in.Note); err != nil {
				return err
			}
		}
		if text != "" {
			if n := strings.TrimSpace(in.Note); n != "" {
				text += " " + n
			}
			if err := s.move(ctx, c, &actor, now, code, text); err != nil {
				return err
			}
		}
		if err := s.touch(ctx, c, t.To); err != nil {
			return err
		}
		v, err := s.view(ctx, *c, true)
		out = v
		return err
	})
	return out, err
}

// reservedTPU are the TPU codes a free movement may not carry: each records
// an act that the system makes with its own checks (a decision, the final
// judgment, the distribution, the archive), named with the operation.
var reservedTPU = map[int]string{
	TPUDistribution:  "a distribuição (transição distributed)",
	TPUConviction:    "a sentença (POST /api/v1/cases/{id}/sentence)",
	TPUAcquittal:     "a sentença (POST /api/v1/cases/{id}/sentence)",
	TPUPartial:       "a sentença (POST /api/v1/cases/{id}/sentence)",
	TPUAppealGranted: "o resultado do recurso (POST /api/v1/cases/{id}/appeal-result)",
	TPUAppealDenied:  "o resultado do recurso (POST /api/v1/cases/{id}/appeal-result)",
	TPUFinalJudgment: "o trânsito em julgado (transição final)",
	TPUArchive:       "o arquivamento (transição archived)",
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
// be in the future nor before the filing; the TPU code is a positive
// number (codes the court names are shown with their names).
func (s *Service) AddMovement(ctx context.Context, actor Actor, caseID int64, in MovementInput) (*MovementView, error) {
	var out *MovementView
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		c, err := s.lockCase(ctx, actor, caseID)
		if err != nil {
			return err
		}
		var f errs.Fields
		now := s.now()
		if strings.TrimSpace(in.Description) == "" {
			f.Add("description", "required", "descreva a movimentação.")
		}
		checkText(&f, "description", in.Description, maxLong, true)
		code := 0
		if in.TPUCode != nil {
			if *in.TPUCode < 1 || *in.TPUCode > 999999 {
				f.Add("tpu_code", "range", fmt.Sprintf("código TPU %d fora do intervalo: os códigos de movimento da Tabela Processual Unificada do CNJ vão de 1 a 999999 (ex.: 51 conclusão, 22 baixa definitiva).", *in.TPUCode))
			} else if via, ok := reservedTPU[*in.TPUCode]; ok {
				f.Add("tpu_code", "reserved", fmt.Sprintf("o código TPU %d (%s) é lançado pela própria operação: %s.", *in.TPUCode, TPUNames[*in.TPUCode], via))
			} else {
				code = *in.TPUCode
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
		if err := s.move(ctx, c, &actor, at, code, text); err != nil {
			return err
		}
		if err := s.touch(ctx, c, ""); err != nil {
			return err
		}
		out = &MovementView{At: at, TPUCode: in.TPUCode, TPUName: TPUNames[code], Description: text,
			Author: &AuthorView{ID: actor.UserID, Name: actor.Name, Role: actor.Role}}
		return nil
	})
	return out, err
}

// finalDay is the day the judgment of c became final (DOMAIN.md §3, §4):
// without an appeal, the day after the last party's window ended or the day
// of the last waiver (errs.Conflict naming what is missing while any party
// was not notified or a window is open: Lei 9.099/1995, art. 82, § 1º);
// after an appeal, finalOn (default today), which needs the Turma Recursal's
// result recorded (POST /api/v1/cases/{id}/appeal-result) and is not in the
// future nor before that result, the sentence's day or the last notification
// (errs.Invalid on final_on).
func (s *Service) finalDay(ctx context.Context, c *Case, finalOn string) (civil.Date, error) {
	today := civil.Today(s.now(), s.Loc)
	switch c.Status {
	case StatusSentenced, StatusJudgment:
		if finalOn != "" {
			return civil.Date{}, errs.InvalidField("final_on", "computed", "sem recurso, o dia do trânsito em julgado é o seguinte ao fim do último prazo (ou o da última renúncia): não o informe.")
		}
		missing, day, err := s.finalityMissing(ctx, c)
		if err != nil {
			return civil.Date{}, err
		}
		if len(missing) > 0 {
			rule := "Lei 9.099/1995, art. 82, § 1º"
			if c.Flow == FlowCivil {
				rule = "CPC, arts. 1.003, § 5º, e 219; Lei 7.347/1985, art. 19"
			}
			return civil.Date{}, errs.New(errs.Conflict, "Trânsito em julgado prematuro ("+rule+"): "+strings.Join(missing, "; ")+".")
		}
		return day, nil
	case StatusAppeal:
		var last AppealResult
		if err := db.Conn(ctx, s.DB).Where("case_id = ? AND result IN ('confirmed', 'reformed')", c.ID).Order("decided_on DESC").Limit(1).Find(&last).Error; err != nil {
			return civil.Date{}, err
		}
		if last.ID == 0 {
			return civil.Date{}, errs.New(errs.Conflict, "Registre antes o resultado do recurso na Turma Recursal (POST /api/v1/cases/{id}/appeal-result).")
		}
		day := today
		if finalOn != "" {
			var f errs.Fields
			d, ok := parseDate(&f, "final_on", finalOn)
			if !ok {
				return civil.Date{}, f.Err()
			}
			if d.After(today) {
				return civil.Date{}, errs.InvalidField("final_on", "not_future", "o trânsito em julgado não pode estar no futuro.")
			}
			if d.Before(last.DecidedOn) {
				return civil.Date{}, errs.InvalidField("final_on", "after_appeal", fmt.Sprintf("o acórdão da Turma Recursal é de %s: o trânsito em julgado não lhe é anterior.", last.DecidedOn.BR()))
			}
			signed, ok, err := s.sentenceDay(ctx, c.ID)
			if err != nil {
				return civil.Date{}, err
			}
			if ok && d.Before(signed) {
				return civil.Date{}, errs.InvalidField("final_on", "after_sentence", fmt.Sprintf("a sentença é de %s: o trânsito em julgado não lhe é anterior.", signed.BR()))
			}
			var notified Notification
			if err := db.Conn(ctx, s.DB).Where("case_id = ? AND NOT superseded", c.ID).Order("notified_on DESC").Limit(1).Find(&notified).Error; err != nil {
				return civil.Date{}, err
			}
			if notified.ID != 0 && d.Before(notified.NotifiedOn) {
				return civil.Date{}, errs.InvalidField("final_on", "after_notification", fmt.Sprintf("a última intimação da sentença é de %s: o trânsito em julgado não lhe é anterior.", notified.NotifiedOn.BR()))
			}
			day = d
		}
		return day, nil
	}
	return today, nil
}

// sentenceDay is the day (in the court's zone) the last sentence of case
// caseID was signed, the decision an appeal attacks; ok is false when no
// sentence of the case was signed.
func (s *Service) sentenceDay(ctx context.Context, caseID int64) (day civil.Date, ok bool, err error) {
	var at *time.Time
	if err := db.Conn(ctx, s.DB).Model(&SentenceRecord{}).Where("case_id = ? AND signed_at IS NOT NULL", caseID).Select("max(signed_at)").Scan(&at).Error; err != nil {
		return civil.Date{}, false, err
	}
	if at == nil {
		return civil.Date{}, false, nil
	}
	return civil.Today(*at, s.Loc), true, nil
}

// startFinalBans starts the bans of case c that waited for the final
// judgment (Súmula 643 STJ): each starts on day (or the later day the judge
// fixed) and its last day is counted from it (CP art. 10), or kept as the
// judge overrode it when the first day is the one the judge fixed; the
// defendant's precautionary bans are replaced by it (they end the day
// before). A docket movement per ban shows the days under precautionary
// bans, for the judge's decision on credit (CP art. 42). The blocklist
// follows in the same transaction. A ban that would start before its facts
// or end before it starts (the table's checks) is errs.Invalid on final_on.
func (s *Service) startFinalBans(ctx context.Context, c *Case, day civil.Date, now time.Time) error {
	tx := db.Conn(ctx, s.DB)
	var rows []sanctions.Ban
	if err := tx.Where("case_id = ? AND status = ?", c.ID, sanctions.StatusAwaitingFinal).Order("id").Find(&rows).Error; err != nil {
		return err
	}
	changed := []int64{}
	for _, b := range rows {
		first := day
		if b.StartNotBefore != nil && b.StartNotBefore.After(first) {
			first = *b.StartNotBefore
		}
		computed, err := sanctions.LastDay(first, *b.Months)
		if err != nil {
			return err
		}
		last := computed
		note := ""
		if b.OverrideReason != "" && b.LastDay != nil {
			if b.StartNotBefore != nil && first == *b.StartNotBefore {
				last = *b.LastDay
			} else {
				note = fmt.Sprintf(" O último dia alterado na sentença (%s) contava de %s; contado do trânsito em julgado, o término é %s.", b.LastDay.BR(), b.StartNotBefore.BR(), computed.BR())
			}
		}
		// The table's checks, tested before the update so that a date of the
		// input is a 422 on final_on, not a failed constraint: the ban does not
		// start before the facts (bans_check) nor end before it starts.
		if first.Before(b.FactsDate) {
			return errs.InvalidField("final_on", "after_facts", fmt.Sprintf("os fatos são de %s: o impedimento %d não começa antes deles; o trânsito em julgado em %s é anterior aos fatos.", b.FactsDate.BR(), b.ID, day.BR()))
		}
		if last.Before(first) {
			return errs.InvalidField("final_on", "last_day", fmt.Sprintf("o último dia do impedimento %d (%s) seria anterior ao primeiro (%s).", b.ID, last.BR(), first.BR()))
		}
		if err := tx.Model(&sanctions.Ban{}).Where("id = ?", b.ID).Updates(map[string]any{"status": sanctions.StatusActive, "first_day": first,
			"computed_last_day": computed, "last_day": last}).Error; err != nil {
			return err
		}
		changed = append(changed, b.ID)
		if b.GroupBanID != nil {
			continue
		}
		var precs []sanctions.Ban
		if err := tx.Where("case_id = ? AND defendant_id = ? AND precautionary AND status = ?", c.ID, b.DefendantID, sanctions.StatusActive).Find(&precs).Error; err != nil {
			return err
		}
		for _, p := range precs {
			if err := tx.Model(&sanctions.Ban{}).Where("id = ?", p.ID).Updates(map[string]any{"status": sanctions.StatusReplaced, "lifted_on": first,
				"lift_reason": fmt.Sprintf("substituída pelo impedimento definitivo %d", b.ID)}).Error; err != nil {
				return err
			}
			p.Status, p.LiftedOn = sanctions.StatusReplaced, &first
			changed = append(changed, p.ID)
		}
		var all []sanctions.Ban
		if err := tx.Where("case_id = ? AND defendant_id = ? AND precautionary", c.ID, b.DefendantID).Find(&all).Error; err != nil {
			return err
		}
		text := fmt.Sprintf("Início do cumprimento do impedimento %d (%s, %s): de %s a %s, contado do trânsito em julgado (Súmula 643 do STJ; CP, art. 10).", b.ID, b.Article, b.Law, first.BR(), last.BR())
		if len(all) > 0 {
			text += fmt.Sprintf(" Tempo sob medida cautelar neste processo: %d dias; a detração (CP, art. 42) é decisão do(a) juiz(a).", countPrecautionary(all, first.AddDays(-1)))
		}
		if err := s.move(ctx, c, nil, now, 0, text+note); err != nil {
			return err
		}
	}
	// Precautionary bans of defendants with no final ban (acquitted before,
	// or convicted to prison) end with the final judgment.
	ended, err := s.endPrecautionary(ctx, c, 0, day, "trânsito em julgado da sentença sem impedimento definitivo: cessa a medida cautelar")
	if err != nil {
		return err
	}
	changed = append(changed, ended...)
	if len(changed) == 0 {
		return nil
	}
	return s.refreshBlocklist(ctx, changed...)
}

// AppealResultInput is the body of POST /api/v1/cases/{id}/appeal-result:
// the Turma Recursal's result (confirmed, reformed, annulled), the day it
// was decided, the defendant it concerns (required for reformed) and, for
// reformed, the new decision: outcome acquittal, or a new ban term in
// months (ban.months), which replaces the ban before it starts.
type AppealResultInput struct {
	// PrisonMonths and FineDays: a reform to reclusão and fine with no
	// conversion (outcome prison).
	PrisonMonths *int     `json:"prison_months"`
	FineDays     *int     `json:"fine_days"`
	Result       string   `json:"result"`
	DefendantID  int64    `json:"defendant_id"`
	DecidedOn    string   `json:"decided_on"`
	Text         string   `json:"text"`
	Outcome      string   `json:"outcome"`
	Ban          BanInput `json:"ban"`
}

// AppealResult is a recorded result of an appeal.
type AppealResult struct {
	ID          int64      `json:"id"`
	CaseID      int64      `json:"case_id"`
	DefendantID *int64     `json:"defendant_id"`
	Result      string     `json:"result"`
	DecidedOn   civil.Date `json:"decided_on"`
	Text        string     `json:"text"`
	CreatedAt   time.Time  `json:"created_at"`
	CreatedBy   *int64     `json:"-"`
}

// RecordAppealResult records the Turma Recursal's result of the appeal of
// case caseID (clerk; Lei 9.099/1995, art. 82): confirmed (TPU 239) leaves
// the sentence; reformed (TPU 237) replaces the defendant's ban that waits
// for the final judgment by one of the new term within the range recorded
// on it, or removes it for an acquittal; annulled (TPU 237) annuls the
// sentences (of the defendant, or all) and their bans and returns the case
// to the instruction hearing (criminal) or hearing (civil) for a new
// sentence. The case must be in appeal (errs.Conflict); decided_on is not
// in the future nor before the day the last sentence was signed (errs.Invalid
// on decided_on).
func (s *Service) RecordAppealResult(ctx context.Context, actor Actor, caseID int64, in AppealResultInput) (*View, error) {
	var out *View
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		c, err := s.lockCase(ctx, actor, caseID)
		if err != nil {
			return err
		}
		if actor.Role != "clerk" {
			return errs.New(errs.Forbidden, "O resultado do recurso é registrado pelo cartório (clerk).")
		}
		if c.Status != StatusAppeal {
			return errs.New(errs.Conflict, fmt.Sprintf("O processo não está em recurso (está em “%s”).", orStatus(c.Status)))
		}
		var f errs.Fields
		today := civil.Today(s.now(), s.Loc)
		var decided civil.Date
		if in.DecidedOn == "" {
			decided = today
		} else if d, ok := parseDate(&f, "decided_on", in.DecidedOn); ok {
			if d.After(today) {
				f.Add("decided_on", "not_future", "o julgamento do recurso não pode estar no futuro.")
			}
			decided = d
		}
		// The Turma Recursal judges the appeal of a signed sentence: not
		// before the day it was signed (Lei 9.099/1995, art. 82).
		if signed, ok, err := s.sentenceDay(ctx, c.ID); err != nil {
			return err
		} else if ok && !decided.IsZero() && decided.Before(signed) {
			f.Add("decided_on", "after_sentence", fmt.Sprintf("a sentença recorrida é de %s: o julgamento do recurso não lhe é anterior.", signed.BR()))
		}
		checkText(&f, "text", in.Text, maxLong, true)
		var d *Defendant
		if in.DefendantID != 0 {
			if d, err = s.personOf(ctx, c, in.DefendantID, "defendant_id"); err != nil {
				return err
			}
		}
		switch in.Result {
		case "confirmed", "annulled":
		case "reformed":
			if d == nil {
				f.Add("defendant_id", "required", "informe o réu cuja sentença foi reformada.")
			}
			switch {
			case in.Outcome == OutcomePrison:
				if in.PrisonMonths == nil {
					f.Add("prison_months", "required", "informe a reclusão fixada pela Turma Recursal, em meses.")
				}
				if in.Ban.Months != nil {
					f.Add("ban.months", "prison", "a reforma para reclusão sem conversão não tem prazo de impedimento.")
				}
			case (in.Outcome == OutcomeAcquittal) == (in.Ban.Months != nil):
				f.Add("outcome", "reform", "informe o novo prazo (ban.months), outcome \"prison\" com prison_months e fine_days, ou outcome \"acquittal\".")
			}
		default:
			f.Add("result", "oneof", "use confirmed (negado provimento), reformed (reformada) ou annulled (anulada).")
		}
		if err := f.Err(); err != nil {
			return err
		}
		// One result per appeal: a result for the defendant (or for the whole
		// case) recorded since the last sentence settles it.
		var prior int64
		pq := tx.Model(&AppealResult{}).Where("case_id = ? AND created_at >= (SELECT coalesce(max(signed_at), '-infinity') FROM sentences WHERE case_id = ?)", c.ID, c.ID)
		if d != nil {
			pq = pq.Where("defendant_id IS NULL OR defendant_id = ?", d.ID)
		}
		if err := pq.Count(&prior).Error; err != nil {
			return err
		}
		if prior > 0 {
			return errs.New(errs.Conflict, "O resultado deste recurso já foi registrado: a Turma Recursal julga o recurso uma vez.")
		}
		now := s.now()
		uid := actor.UserID
		code := TPUAppealDenied
		text := fmt.Sprintf("Turma Recursal, em %s: negado provimento ao recurso; mantida a sentença.", decided.BR())
		var changed []int64
		switch in.Result {
		case "reformed":
			code = TPUAppealGranted
			var b sanctions.Ban
			if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("defendant_id = ? AND NOT precautionary AND group_ban_id IS NULL AND status = ?", d.ID, sanctions.StatusAwaitingFinal).Limit(1).Find(&b).Error; err != nil {
				return err
			}
			if b.ID == 0 {
				return errs.InvalidField("defendant_id", "awaiting_final", "o réu não tem impedimento aguardando o trânsito em julgado para reformar.")
			}
			var prison sanctions.Range
			if in.Outcome == OutcomePrison {
				// The reclusão of the offence as sentenced (the defendant's
				// flags; Lei 14.597/2023, art. 201, §§ 6º, 7º; art. 41-B).
				var rec SentenceRecord
				if err := tx.Where("defendant_id = ? AND status = 'signed'", d.ID).Limit(1).Find(&rec).Error; err != nil {
					return err
				}
				var fl Flags
				_ = json.Unmarshal(rec.Flags, &fl)
				no := false
				rg, err := sanctions.BanRange(sanctions.Query{Subject: sanctions.Person, FactsDate: b.FactsDate, Eligible: &no, Organiser: &fl.Organiser, Sec7: &fl.Sec7})
				if err != nil || b.Subject != sanctions.Person || b.Cumulative {
					return errs.InvalidField("outcome", "no_prison", "esta pena não se reforma em reclusão sem conversão.")
				}
				if msg := sanctions.CheckPrison(rg, *in.PrisonMonths); msg != "" {
					return errs.InvalidField("prison_months", "range", msg+".")
				}
				if in.FineDays != nil {
					if msg := sanctions.CheckFineDays(*in.FineDays); msg != "" {
						return errs.InvalidField("fine_days", "range", msg+".")
					}
				} else if rg.Fine {
					return errs.InvalidField("fine_days", "required", "informe a multa em dias-multa (CP, art. 49).")
				}
				prison = rg
			} else if in.Outcome != OutcomeAcquittal {
				rg := sanctions.Range{Convertible: true, MinMonths: b.RangeMinMonths, MaxMonths: b.RangeMaxMonths, Law: b.Law, Article: b.Article}
				if b.Cumulative {
					return errs.InvalidField("ban.months", "fixed", "a proibição de frequência do art. 20, § 2º-A, da Lei 7.716/1989 é fixada em 3 anos.")
				}
				if err := sanctions.CheckMonths(rg, *in.Ban.Months); err != nil {
					return errs.InvalidField("ban.months", "range", err.Error())
				}
			}
			if err := tx.Model(&sanctions.Ban{}).Where("id = ? OR group_ban_id = ?", b.ID, b.ID).Update("status", sanctions.StatusReformed).Error; err != nil {
				return err
			}
			changed = append(changed, b.ID)
			if in.Outcome == OutcomeAcquittal {
				if err := tx.Model(&SentenceRecord{}).Where("defendant_id = ? AND status = 'signed'", d.ID).Update("status", "reformed").Error; err != nil {
					return err
				}
				text = fmt.Sprintf("Turma Recursal, em %s: dado provimento ao recurso; reformada a sentença para absolver %s; impedimento %d sem efeito.", decided.BR(), d.FullName, b.ID)
				ids, err := s.endPrecautionary(ctx, c, d.ID, today, "absolvição em recurso: cessam as medidas cautelares (CPP, art. 386, parágrafo único, II)")
				if err != nil {
					return err
				}
				changed = append(changed, ids...)
			} else if in.Outcome == OutcomePrison {
				if err := tx.Model(&SentenceRecord{}).Where("defendant_id = ? AND status = 'signed'", d.ID).Updates(map[string]any{"outcome": OutcomePrison,
					"prison_months": *in.PrisonMonths, "fine_days": in.FineDays, "ban_id": nil, "article": prison.Offence, "law": prison.Law,
					"no_conversion_reason": "reformada em recurso pela Turma Recursal"}).Error; err != nil {
					return err
				}
				text = fmt.Sprintf("Turma Recursal, em %s: reformada a sentença de %s para reclusão de %s, sem conversão em impedimento; impedimento %d sem efeito.", decided.BR(), d.FullName, monthsText(*in.PrisonMonths), b.ID)
				if in.FineDays != nil {
					text = strings.Replace(text, ", sem conversão", fmt.Sprintf(" e %d dias-multa, sem conversão", *in.FineDays), 1)
				}
			} else {
				nb := b
				nb.LiftedOn, nb.LiftReason = nil, ""
				nb.ID, nb.Months, nb.LastDay, nb.ComputedLastDay, nb.OverrideReason, nb.CreatedAt, nb.CreatedBy = 0, in.Ban.Months, nil, nil, "", now, &uid
				if err := tx.Create(&nb).Error; err != nil {
					return err
				}
				if err := tx.Model(&SentenceRecord{}).Where("defendant_id = ? AND status = 'signed'", d.ID).Update("ban_id", nb.ID).Error; err != nil {
					return err
				}
				changed = append(changed, nb.ID)
				text = fmt.Sprintf("Turma Recursal, em %s: dado provimento ao recurso; reformada a pena de %s para impedimento de %s (impedimento %d, em lugar do %d), a cumprir após o trânsito em julgado.", decided.BR(), d.FullName, monthsText(*in.Ban.Months), nb.ID, b.ID)
			}
		case "annulled":
			code = TPUAppealGranted
			q := tx.Model(&SentenceRecord{}).Where("case_id = ? AND status = 'signed'", c.ID)
			bq := tx.Model(&sanctions.Ban{}).Where("case_id = ? AND status = ? ", c.ID, sanctions.StatusAwaitingFinal)
			if d != nil {
				q, bq = q.Where("defendant_id = ?", d.ID), bq.Where("defendant_id = ?", d.ID)
			}
			if err := q.Update("status", "annulled").Error; err != nil {
				return err
			}
			if err := bq.Update("status", sanctions.StatusAnnulled).Error; err != nil {
				return err
			}
			if err := tx.Model(&Notification{}).Where("case_id = ?", c.ID).Update("superseded", true).Error; err != nil {
				return err
			}
			did := int64(0)
			if d != nil {
				did = d.ID
			}
			ids, err := s.endPrecautionary(ctx, c, did, today, "anulada a sentença que a impôs: cessa a medida cautelar; o(a) juiz(a) pode impô-la de novo")
			if err != nil {
				return err
			}
			changed = append(changed, ids...)
			text = fmt.Sprintf("Turma Recursal, em %s: anulada a sentença; os autos voltam para nova sentença.", decided.BR())
		}
		if t := strings.TrimSpace(in.Text); t != "" {
			text += " " + t
		}
		var did *int64
		if d != nil {
			did = &d.ID
		}
		if err := tx.Create(&AppealResult{CaseID: c.ID, DefendantID: did, Result: in.Result, DecidedOn: decided, Text: strings.TrimSpace(in.Text), CreatedAt: now, CreatedBy: &uid}).Error; err != nil {
			return err
		}
		if err := s.move(ctx, c, &actor, now, code, text); err != nil {
			return err
		}
		status := ""
		if in.Result == "annulled" {
			status = StatusInstructionHearing
			if c.Flow == FlowCivil {
				status = StatusHearing
			}
		}
		if err := s.touch(ctx, c, status); err != nil {
			return err
		}
		if len(changed) > 0 {
			if err := s.refreshBlocklist(ctx, changed...); err != nil {
				return err
			}
		}
		v, err := s.view(ctx, *c, true)
		out = v
		return err
	})
	return out, err
}
