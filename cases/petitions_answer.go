package cases

import (
	"context"
	"fmt"
	"strings"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// AnswerInput is the body of POST /api/v1/petitions/{id}/answer: the
// decision (granted, refused, noted) and its text (required to grant or
// refuse: CF art. 93, IX).
type AnswerInput struct {
	Decision string `json:"decision"`
	Text     string `json:"text"`
}

// LockPetition returns petition id with its case, locked in the caller's
// transaction, for the staff a of the case's court: errs.NotFound for a
// petition of another court or none.
func (s *Service) LockPetition(ctx context.Context, a actor.Actor, id int64) (*Petition, *Case, error) {
	tx := db.Conn(ctx, s.DB)
	var p Petition
	if err := tx.Joins("JOIN cases k ON k.id = petitions.case_id").Where("petitions.id = ? AND k.court_code = ? AND ? <> ''", id, a.Court, a.Court).
		Limit(1).Find(&p).Error; err != nil {
		return nil, nil, err
	}
	if p.ID == 0 {
		return nil, nil, errs.New(errs.NotFound, fmt.Sprintf("Petição %d não encontrada.", id))
	}
	var c Case
	if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", p.CaseID).Take(&c).Error; err != nil {
		return nil, nil, err
	}
	if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Take(&p, p.ID).Error; err != nil {
		return nil, nil, err
	}
	return &p, &c, nil
}

// CheckAnswer checks that a may answer petition p of case c with in: the
// judge of the case for the judge's queue, a clerk of the court for the
// clerk's (errs.Forbidden naming who may); a petition answered already is
// errs.Conflict; decision one of granted, refused, noted, and text
// required to grant or refuse (CF art. 93, IX), errs.Invalid naming the
// field.
func CheckAnswer(a actor.Actor, c *Case, p *Petition, in AnswerInput) error {
	if p.Queue == QueueJudge {
		if a.Role != "judge" {
			return errs.New(errs.Forbidden, "Esta petição pede decisão: quem a responde é o(a) juiz(a) do processo.")
		}
		if err := JudgeOfCase(a, c, "responder a esta petição"); err != nil {
			return err
		}
	} else if a.Role != "clerk" {
		return errs.New(errs.Forbidden, "Esta petição está na fila do cartório: quem a responde é o cartório.")
	}
	if p.Status != "pending" {
		return errs.New(errs.Conflict, fmt.Sprintf("A petição %d já foi respondida.", p.ID))
	}
	var f errs.Fields
	if _, ok := AnswerPT[in.Decision]; !ok {
		f.Add("decision", "oneof", "use granted (deferido), refused (indeferido) ou noted (ciente).")
	}
	if in.Decision != AnswerNoted && strings.TrimSpace(in.Text) == "" {
		f.Add("text", "required", "fundamente a resposta: deferir ou indeferir exige as razões (CF, art. 93, IX).")
	}
	CheckText(&f, "text", in.Text, MaxLong, true)
	return f.Err()
}

// RecordAnswer records a's answer in (checked by CheckAnswer) to petition
// p of case c, locked by LockPetition, with note (what the answer did,
// e.g. the member's ban ended) in the docket movement; the case's version
// moves on.
func (s *Service) RecordAnswer(ctx context.Context, a actor.Actor, c *Case, p *Petition, in AnswerInput, note string) (*PetitionView, error) {
	now, uid := s.Now(), a.UserID
	dec := in.Decision
	p.Status, p.Decision, p.AnswerText, p.AnsweredAt, p.AnsweredBy = "answered", &dec, strings.TrimSpace(in.Text), &now, &uid
	if err := db.Conn(ctx, s.DB).Model(&Petition{}).Where("id = ?", p.ID).Updates(map[string]any{"status": p.Status, "decision": dec,
		"answer_text": p.AnswerText, "answered_at": now, "answered_by": uid}).Error; err != nil {
		return nil, err
	}
	text := fmt.Sprintf("Petição %d (%s): %s.", p.ID, PetitionKindPT[p.Kind], AnswerPT[dec])
	if p.AnswerText != "" {
		text += " " + p.AnswerText
	}
	if note != "" {
		text += " " + note
	}
	if err := s.Move(ctx, c, &a, now, MovePetitionAnswered, text); err != nil {
		return nil, err
	}
	if err := s.Touch(ctx, c, ""); err != nil {
		return nil, err
	}
	vs, err := s.petitionViews(ctx, []Petition{*p})
	if err != nil {
		return nil, err
	}
	return &vs[0], nil
}

// Petitions lists the petitions a reads, by status ("" every one; pending,
// answered), oldest first: the judge's queue of the cases distributed to
// the judge, the clerk's queue of the clerk's court, the defence's own
// filings (with their answers); nothing for other roles.
// errs.Invalid on status for another value.
func (s *Service) Petitions(ctx context.Context, a actor.Actor, status string) ([]PetitionView, error) {
	if status != "" && status != "pending" && status != "answered" {
		return nil, errs.InvalidField("status", "oneof", "use pending ou answered.")
	}
	q := db.Conn(ctx, s.DB).Model(&Petition{}).Joins("JOIN cases k ON k.id = petitions.case_id")
	switch a.Role {
	case "judge":
		q = q.Where("petitions.queue = ? AND k.court_code = ? AND k.judge_id = ?", QueueJudge, a.Court, a.UserID)
	case "clerk":
		q = q.Where("petitions.queue = ? AND k.court_code = ?", QueueClerk, a.Court)
	case accounts.RoleDefence:
		q = q.Where("petitions.filed_by = ?", a.UserID)
	default:
		return []PetitionView{}, nil
	}
	if status != "" {
		q = q.Where("petitions.status = ?", status)
	}
	var ps []Petition
	if err := q.Order("petitions.id").Limit(500).Find(&ps).Error; err != nil {
		return nil, err
	}
	return s.petitionViews(ctx, ps)
}

// CasePetitions lists the petitions of case caseID (of the defendants in
// only, when given), oldest first: what the case page shows.
func (s *Service) CasePetitions(ctx context.Context, caseID int64, only ...int64) ([]PetitionView, error) {
	q := db.Conn(ctx, s.DB).Where("case_id = ?", caseID)
	if len(only) > 0 {
		q = q.Where("defendant_id IN ?", only)
	}
	var ps []Petition
	if err := q.Order("id").Find(&ps).Error; err != nil {
		return nil, err
	}
	return s.petitionViews(ctx, ps)
}

// petitionViews are the views of ps, with the cases' numbers, the
// defendants' and the authors' names (three queries).
func (s *Service) petitionViews(ctx context.Context, ps []Petition) ([]PetitionView, error) {
	out := make([]PetitionView, 0, len(ps))
	if len(ps) == 0 {
		return out, nil
	}
	var cids, dids, uids []int64
	for _, p := range ps {
		cids, dids = append(cids, p.CaseID), append(dids, p.DefendantID)
		if p.FiledBy != nil {
			uids = append(uids, *p.FiledBy)
		}
		if p.AnsweredBy != nil {
			uids = append(uids, *p.AnsweredBy)
		}
	}
	tx := db.Conn(ctx, s.DB)
	numbers, err := pluckMap[Case](tx, cids, func(c Case) (int64, string) { return c.ID, FormatNumber(c.Number) }, "id", "number")
	if err != nil {
		return nil, err
	}
	names, err := pluckMap[Defendant](tx, dids, func(d Defendant) (int64, string) { return d.ID, NameOf(d) })
	if err != nil {
		return nil, err
	}
	users, err := accounts.UsersByID(ctx, s.DB, uids)
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		v := PetitionView{ID: p.ID, CaseID: p.CaseID, CaseNumber: numbers[p.CaseID], DefendantID: p.DefendantID, Defendant: names[p.DefendantID],
			Kind: p.Kind, Queue: p.Queue, Status: p.Status, Late: p.Late, Effect: p.Effect, EffectNote: p.EffectNote, MemberID: p.MemberID,
			BanID: p.BanID, Ground: p.Ground, EvidenceID: p.EvidenceID, EmbargosID: p.EmbargosID, Text: p.Text, Decision: p.Decision,
			AnswerText: p.AnswerText, AnsweredAt: p.AnsweredAt, FiledAt: p.FiledAt, FiledBy: PublicFiler}
		if p.FiledBy != nil {
			v.FiledBy = users[*p.FiledBy].Name
		}
		if p.AnsweredBy != nil {
			v.AnsweredBy = users[*p.AnsweredBy].Name
		}
		out = append(out, v)
	}
	return out, nil
}

// pluckMap reads the rows of T with ids (the columns cols, every one when
// none) and maps each id to kv's value.
func pluckMap[T any](tx *gorm.DB, ids []int64, kv func(T) (int64, string), cols ...string) (map[int64]string, error) {
	var rows []T
	q := tx.Where("id IN ?", ids)
	if len(cols) > 0 {
		q = q.Select(cols)
	}
	if err := q.Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make(map[int64]string, len(rows))
	for _, r := range rows {
		k, v := kv(r)
		out[k] = v
	}
	return out, nil
}

// PetitionFor returns petition id as a reads it, with the court of its
// case: the staff of that court, or the defence user who filed it;
// errs.NotFound for anyone else (one message).
func (s *Service) PetitionFor(ctx context.Context, a actor.Actor, id int64) (*PetitionView, string, error) {
	var p Petition
	if err := db.Conn(ctx, s.DB).Where("id = ?", id).Limit(1).Find(&p).Error; err != nil {
		return nil, "", err
	}
	var court string
	if p.ID != 0 {
		if err := db.Conn(ctx, s.DB).Model(&Case{}).Where("id = ?", p.CaseID).Pluck("court_code", &court).Error; err != nil {
			return nil, "", err
		}
	}
	mine := a.Role == accounts.RoleDefence && p.FiledBy != nil && *p.FiledBy == a.UserID
	staff := a.Role != accounts.RoleDefence && a.Court != "" && a.Court == court
	if p.ID == 0 || !(mine || staff) {
		return nil, "", errs.New(errs.NotFound, fmt.Sprintf("Petição %d não encontrada.", id))
	}
	vs, err := s.petitionViews(ctx, []Petition{p})
	if err != nil {
		return nil, "", err
	}
	return &vs[0], court, nil
}
