package cases

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"gorm.io/gorm/clause"
)

// Petitions of the defence (issue 29, item 4; ../shared/API.md "Defence"):
// the lawyer or public defender linked to a defendant files them in the
// system, without the clerk (Lei 11.419/2006, art. 10), each with a docket
// movement; they land in the judge's queue (decisions) or the clerk's
// (procedural) and wait for the answer, which is docketed and shown to the
// defence. The system never refuses a filing: an appeal or embargos out of
// time are received and flagged late for the judge.

// Petition kinds (petitions.kind).
const (
	// PetitionAppeal: the appeal to the Turma Recursal (Lei 9.099/1995,
	// art. 82); in time it moves the defendant's track to appeal.
	PetitionAppeal = "appeal"
	// PetitionEmbargos: embargos de declaração (Lei 9.099/1995, art. 83);
	// in time they interrupt every party's window.
	PetitionEmbargos = "embargos"
	// PetitionBreachJustification: the justification of a breach of a ban,
	// before the judge decides the conversion (Lei 14.597/2023, art. 201,
	// § 3º: only an unjustified breach converts).
	PetitionBreachJustification = "breach_justification"
	// PetitionLiftRequest: a request to lift or review a precautionary ban
	// (CPP art. 282, §§ 4º and 5º).
	PetitionLiftRequest = "lift_request"
	// PetitionGroupContest: a member's contest of his inclusion in a group
	// ban (Lei 14.597/2023, art. 183, § 2º; CF art. 5º, XLV).
	PetitionGroupContest = "group_inclusion_contest"
	// PetitionOther: any other petition, for the clerk.
	PetitionOther = "other"
)

// PetitionKindPT names each kind of petition in Portuguese.
var PetitionKindPT = map[string]string{
	PetitionAppeal:              "Recurso à Turma Recursal (Lei 9.099/1995, art. 82)",
	PetitionEmbargos:            "Embargos de declaração (Lei 9.099/1995, art. 83)",
	PetitionBreachJustification: "Justificativa de descumprimento (Lei 14.597/2023, art. 201, § 3º)",
	PetitionLiftRequest:         "Pedido de revogação ou revisão de medida cautelar (CPP, art. 282)",
	PetitionGroupContest:        "Impugnação da inclusão no impedimento da torcida (Lei 14.597/2023, art. 183, § 2º)",
	PetitionOther:               "Outra petição",
}

// PetitionKinds lists the kinds in the order the forms offer them.
var PetitionKinds = []string{PetitionAppeal, PetitionEmbargos, PetitionBreachJustification, PetitionLiftRequest, PetitionGroupContest, PetitionOther}

// Queues a petition lands in (petitions.queue): the judge's for what asks
// a decision, the clerk's for procedural petitions.
const (
	QueueJudge = "judge"
	QueueClerk = "clerk"
)

// PublicFiler is who files a petition on the public form, without a
// lawyer: the member reached by a group ban, who proved who he is (issue
// 29, item 5).
const PublicFiler = "o(a) próprio(a) associado(a), pelo formulário público, sem advogado"

// QueueOf is the queue of a petition of kind: the clerk's for "other",
// the judge's for the rest.
func QueueOf(kind string) string {
	if kind == PetitionOther {
		return QueueClerk
	}
	return QueueJudge
}

// Grounds of a contest of a group-ban inclusion (petitions.ground).
const (
	GroundNotMember = "not_member" // not a member on the date of the facts
	GroundUnder18   = "under_18"   // under 18 on the date of the facts
	GroundHomonym   = "homonym"    // another person with the same name
)

// GroundPT names each ground of a contest in Portuguese.
var GroundPT = map[string]string{
	GroundNotMember: "não era associado(a) da torcida na data dos fatos",
	GroundUnder18:   "era menor de 18 anos na data dos fatos",
	GroundHomonym:   "é outra pessoa, com o mesmo nome (homônimo)",
}

// Answers to a petition (petitions.decision).
const (
	AnswerGranted = "granted"
	AnswerRefused = "refused"
	AnswerNoted   = "noted"
)

// AnswerPT names each answer in Portuguese.
var AnswerPT = map[string]string{AnswerGranted: "deferido", AnswerRefused: "indeferido", AnswerNoted: "ciente"}

// Effects of a filing on the defendant's track (petitions.effect).
const (
	EffectNone     = "none"
	EffectAppeal   = "appeal"   // the track moved to appeal (or took the appeal)
	EffectEmbargos = "embargos" // the windows interrupted
)

// Petition is a petition as stored (table petitions).
type Petition struct {
	ID          int64
	CaseID      int64
	DefendantID int64
	Kind        string
	Queue       string
	Text        string
	Late        bool
	Effect      string
	EffectNote  string
	MemberID    *int64
	BanID       *int64
	Ground      *string
	EvidenceID  *int64
	EmbargosID  *int64
	Status      string
	Decision    *string
	AnswerText  string
	FiledAt     time.Time
	FiledBy     *int64 // nil: the member himself, on the public form
	AnsweredAt  *time.Time
	AnsweredBy  *int64
}

// TableName is petitions.
func (Petition) TableName() string { return "petitions" }

// PetitionView is a petition as the API shows it: the case (id, CNJ
// number), the defendant (id, name), kind, queue, status (pending,
// answered), late, the effect on the track with its note, the contest's
// member, ban and ground, the attachment's evidence id, the embargos
// recorded, the text, the answer (decision, text, instant, author's name)
// and the filing's instant and author's name (RFC 3339 instants).
type PetitionView struct {
	ID          int64      `json:"id"`
	CaseID      int64      `json:"case_id"`
	CaseNumber  string     `json:"case_number"`
	DefendantID int64      `json:"defendant_id"`
	Defendant   string     `json:"defendant"`
	Kind        string     `json:"kind"`
	Queue       string     `json:"queue"`
	Status      string     `json:"status"`
	Late        bool       `json:"late"`
	Effect      string     `json:"effect"`
	EffectNote  string     `json:"effect_note,omitempty"`
	MemberID    *int64     `json:"member_id,omitempty"`
	BanID       *int64     `json:"ban_id,omitempty"`
	Ground      *string    `json:"ground,omitempty"`
	EvidenceID  *int64     `json:"evidence_id,omitempty"`
	EmbargosID  *int64     `json:"embargos_id,omitempty"`
	Text        string     `json:"text"`
	Decision    *string    `json:"decision,omitempty"`
	AnswerText  string     `json:"answer_text,omitempty"`
	AnsweredAt  *time.Time `json:"answered_at,omitempty"`
	AnsweredBy  string     `json:"answered_by,omitempty"`
	FiledAt     time.Time  `json:"filed_at"`
	FiledBy     string     `json:"filed_by"`
}

// KindPT is the view's kind in Portuguese.
func (v PetitionView) KindPT() string { return PetitionKindPT[v.Kind] }

// DecisionPT is the answer in Portuguese ("" while pending).
func (v PetitionView) DecisionPT() string {
	if v.Decision == nil {
		return ""
	}
	return AnswerPT[*v.Decision]
}

// GroundPT is the contest's ground in Portuguese ("" for other kinds).
func (v PetitionView) GroundPT() string {
	if v.Ground == nil {
		return ""
	}
	return GroundPT[*v.Ground]
}

// PetitionInput is the body of POST /api/v1/cases/{id}/petitions (JSON,
// or multipart with the same fields and a PDF in file): the client
// (defendant_id), the kind, the text, and for a contest of a group-ban
// inclusion the member reached (member_id) and the ground.
type PetitionInput struct {
	DefendantID int64  `json:"defendant_id"`
	Kind        string `json:"kind"`
	Text        string `json:"text"`
	MemberID    int64  `json:"member_id"`
	Ground      string `json:"ground"`
	// Filename and Data are the attachment (multipart field file): a PDF
	// under the evidence rules (type by content, MaxEvidenceBytes).
	Filename string `json:"-"`
	Data     []byte `json:"-"`
}

// CheckPetition checks in before anything is read: kind one of
// PetitionKinds, text required (MaxLong), member_id and ground required
// for a contest and refused for other kinds, the attachment a PDF under
// the evidence rules; errs.Invalid naming each field.
func CheckPetition(in PetitionInput) error {
	var f errs.Fields
	if _, ok := PetitionKindPT[in.Kind]; !ok {
		f.Add("kind", "oneof", "use appeal, embargos, breach_justification, lift_request, group_inclusion_contest ou other.")
	}
	if strings.TrimSpace(in.Text) == "" {
		f.Add("text", "required", "escreva o texto da petição.")
	}
	CheckText(&f, "text", in.Text, MaxLong, true)
	if in.DefendantID == 0 {
		f.Add("defendant_id", "required", "informe o(a) cliente.")
	}
	if in.Kind == PetitionGroupContest {
		if in.MemberID == 0 {
			f.Add("member_id", "required", "informe o associado cuja inclusão é impugnada.")
		}
		if _, ok := GroundPT[in.Ground]; !ok {
			f.Add("ground", "oneof", "use not_member (não era associado na data dos fatos), under_18 (menor de 18 anos então) ou homonym (homônimo).")
		}
	} else if in.MemberID != 0 || in.Ground != "" {
		f.Add("ground", "not_applicable", "o associado e o fundamento só se informam na impugnação da inclusão no impedimento da torcida.")
	}
	if len(in.Data) > 0 {
		_, ctype, err := checkEvidence(in.Filename, "", in.Data)
		if err != nil {
			return err
		}
		if ctype != "application/pdf" {
			f.Add("file", "content_type", "o anexo da petição deve ser um PDF.")
		}
	}
	return f.Err()
}

// ClientCase locks case caseID for the defence user a when a represents
// its defendant defendantID now (an active representation; without
// defendantID, any defendant of the case), and returns the case and the
// defendant: errs.NotFound, one message, for another case, another
// court's or a non-client (the defence learns nothing of cases it does
// not hold; issue 29); errs.Invalid on defendant_id when it is missing.
func (s *Service) ClientCase(ctx context.Context, a actor.Actor, caseID, defendantID int64) (*Case, *Defendant, error) {
	tx := db.Conn(ctx, s.DB)
	var n int64
	if err := tx.Model(&CounselRecord{}).Where("case_id = ? AND (defendant_id = ? OR ? = 0) AND counsel_id = ? AND status = ?", caseID, defendantID, defendantID, a.UserID, RepActive).
		Count(&n).Error; err != nil {
		return nil, nil, err
	}
	if n == 0 || a.Role != accounts.RoleDefence {
		return nil, nil, errs.New(errs.NotFound, "Processo não encontrado entre os dos seus clientes, ou o réu escolhido não é seu cliente nele.")
	}
	var c Case
	if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", caseID).Take(&c).Error; err != nil {
		return nil, nil, err
	}
	d, err := s.PersonOf(ctx, &c, defendantID, "defendant_id")
	return &c, d, err
}

// PetitionEffect is what the filing did, decided by the caller before
// RecordPetition: late, the effect on the track and its note for the
// docket and the judge, the member's ban a contest names, the embargos
// recorded.
type PetitionEffect struct {
	// Filer names the member who filed on the public form (public
	// filings only), for the docket.
	Filer      string
	Late       bool
	Effect     string
	Note       string
	BanID      *int64
	EmbargosID *int64
}

// RecordPetition stores the petition in of the defence a on case c (locked
// by ClientCase in the caller's transaction) as to defendant d, with its
// attachment as evidence (checked by CheckPetition), the effect eff, the
// queue of its kind, and the docket movement of its joining; the case's
// version moves on.
func (s *Service) RecordPetition(ctx context.Context, a actor.Actor, c *Case, d *Defendant, in PetitionInput, eff PetitionEffect) (*PetitionView, error) {
	now := s.Now()
	p := Petition{CaseID: c.ID, DefendantID: d.ID, Kind: in.Kind, Queue: QueueOf(in.Kind), Text: strings.TrimSpace(in.Text), Late: eff.Late,
		Effect: eff.Effect, EffectNote: eff.Note, BanID: eff.BanID, EmbargosID: eff.EmbargosID, Status: "pending", FiledAt: now}
	public := a.UserID == 0
	if !public {
		uid := a.UserID
		p.FiledBy = &uid
	}
	if p.Effect == "" {
		p.Effect = EffectNone
	}
	if in.Kind == PetitionGroupContest {
		m, g := in.MemberID, in.Ground
		p.MemberID, p.Ground = &m, &g
	}
	if len(in.Data) > 0 && !public {
		name, ctype, err := checkEvidence(in.Filename, "", in.Data)
		if err != nil {
			return nil, err
		}
		ev, err := s.storeEvidence(ctx, c, a, DocPetition, name, ctype, "Anexo da petição: "+PetitionKindPT[in.Kind], in.Data)
		if err != nil {
			return nil, err
		}
		p.EvidenceID = &ev.ID
	}
	if err := db.Conn(ctx, s.DB).Create(&p).Error; err != nil {
		return nil, err
	}
	by, who := "do(a) próprio(a) associado(a) "+eff.Filer+", pelo formulário público, sem advogado", (*actor.Actor)(nil)
	if !public {
		u, err := accounts.ActiveOrDisabledUser(ctx, s.DB, a.UserID)
		if err != nil {
			return nil, err
		}
		by, who = "de "+counselPhrase(u, *d), &a
	}
	text := fmt.Sprintf("Juntada de petição %d — %s — %s.", p.ID, PetitionKindPT[p.Kind], by)
	if p.Ground != nil {
		text += " Fundamento: " + GroundPT[*p.Ground] + "."
	}
	if p.Late {
		text += " Apresentada fora do prazo: recebida e anotada como intempestiva para a decisão do(a) juiz(a)."
	}
	if p.EffectNote != "" {
		text += " " + p.EffectNote
	}
	if p.Queue == QueueClerk {
		text += " Encaminhada ao cartório."
	} else {
		text += " Conclusa ao(à) juiz(a)."
	}
	if err := s.Move(ctx, c, who, now, MovePetitionFiled, text); err != nil {
		return nil, err
	}
	if err := s.Touch(ctx, c, ""); err != nil {
		return nil, err
	}
	vs, err := s.petitionViews(ctx, []Petition{p})
	if err != nil {
		return nil, err
	}
	return &vs[0], nil
}
