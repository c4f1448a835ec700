package calendar

import (
	"context"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/sanctions"
)

// Kinds of notice (notifications.kind): the window a notice opens.
const (
	// NoticeAppeal is the notice of the sentence, or of the ruling on
	// embargos against it: it opens the appeal window to the Turma
	// Recursal (Lei 9.099/1995, art. 82, § 1º; in a group case CPC art.
	// 1.003, § 5º).
	NoticeAppeal = "appeal"
	// NoticeExtraordinary is the notice of the ruling on embargos against
	// the Turma Recursal's judgment: the window against that judgment runs
	// again from it (Lei 9.099/1995, art. 83, § 2º; CPC art. 1.026), the
	// recurso extraordinário's (CF art. 102, III; CPC art. 1.003, § 5º).
	NoticeExtraordinary = "extraordinary"
)

// The decision embargos de declaração attack (Embargos.Against).
const (
	// AgainstSentence: the sentence (the track sentenced, or in appeal
	// before the Turma's result).
	AgainstSentence = "sentence"
	// AgainstAppealResult: the Turma Recursal's judgment (the track in
	// appeal with its result recorded).
	AgainstAppealResult = "appeal_result"
)

// noticeKindOf is the kind of notice that gives notice of a ruling on
// embargos against the decision against.
func noticeKindOf(against string) string {
	if against == AgainstAppealResult {
		return NoticeExtraordinary
	}
	return NoticeAppeal
}

// windowKind is the sanctions kind of the window a notice of kind opens
// in a case of flow: the appeal (AppealKind) or, against the Turma's
// judgment, the recurso extraordinário (15 running days in the JECRIM;
// in a group case 15 working days, counted as the civil appeal: CPC art.
// 1.003, § 5º).
func windowKind(flow, kind string) string {
	if kind == NoticeExtraordinary && flow != cases.FlowCivil {
		return sanctions.KindCriminalExtraordinary
	}
	return AppealKind(flow)
}

// embargosLaw is the law of the embargos de declaração in a case, as its
// texts cite it: the embargos themselves, their window and their effect
// on the other windows.
type embargosLaw struct {
	Base, Window, Interrupt string
	// Grounds are the defects the embargos point out, with the article.
	Grounds string
	// Kind is the sanctions kind of the embargos' window.
	Kind string
}

// lawOf is the law of the embargos in case c: Lei 9.099/1995, art. 83, in
// the JECRIM (5 running days, § 1º; interruption, § 2º), CPC arts. 1.022
// to 1.026 in a group (civil) case (5 working days, art. 1.023;
// interruption, art. 1.026).
func lawOf(c *cases.Case) embargosLaw {
	if c.Flow == cases.FlowCivil {
		return embargosLaw{Base: "CPC, arts. 1.022 a 1.026", Window: "CPC, art. 1.023", Interrupt: "CPC, art. 1.026", Kind: sanctions.KindCivilEmbargos,
			Grounds: "a obscuridade, contradição, omissão ou erro material apontado (CPC, art. 1.022)"}
	}
	return embargosLaw{Base: "Lei 9.099/1995, art. 83", Window: "Lei 9.099/1995, art. 83, § 1º", Interrupt: "Lei 9.099/1995, art. 83, § 2º", Kind: sanctions.KindCriminalEmbargos,
		Grounds: "a obscuridade, contradição ou omissão apontada (Lei 9.099/1995, art. 83, com a redação da Lei 13.105/2015)"}
}

// Decisions gives the decision embargos attack and its day
// (decisions.Service, which owns the sentences and the Turma's results;
// set by app.NewCases, as cases.Service.Days is).
type Decisions interface {
	// AttackedDecision is the decision embargos as to defendantID attack
	// (AgainstAppealResult when inAppeal and the Turma's result is
	// recorded, else AgainstSentence) and its day (zero when none).
	AttackedDecision(ctx context.Context, caseID, defendantID int64, inAppeal bool) (string, civil.Date, error)
}

// attacked is the decision embargos as to d (his track in status) attack
// and its day (Service.Decided; without it, the sentence of no known day).
func (s *Service) attacked(ctx context.Context, c *cases.Case, d cases.Defendant, status string) (string, civil.Date, error) {
	if s.Decided == nil {
		return AgainstSentence, civil.Date{}, nil
	}
	return s.Decided.AttackedDecision(ctx, c.ID, d.ID, status == cases.StatusAppeal)
}

// lastRuling is the last ruling on embargos as to d that interrupted the
// windows (late embargos interrupt nothing): nil when none was ruled.
func (s *Service) lastRuling(ctx context.Context, c *cases.Case, d cases.Defendant) (*Embargos, error) {
	var es []Embargos
	if err := db.Conn(ctx, s.DB).Where("case_id = ? AND defendant_id = ? AND status = 'ruled' AND NOT late", c.ID, d.ID).
		Order("decided_on DESC, id DESC").Limit(1).Find(&es).Error; err != nil {
		return nil, err
	}
	if len(es) == 0 {
		return nil, nil
	}
	return &es[0], nil
}

// noticeOf is what a notice on d's track (status st) gives notice of: the
// kind of notice, the decision's day (zero when none is recorded) and its
// name in Portuguese; ok false when no notice is due on that track. On a
// sentenced track (a group case: judgment) it is the sentence; whatever
// the track's status, after a ruling on embargos against the decision it
// stands on (the sentence, or the Turma's judgment) it is that ruling,
// whose notice each party needs for its window to run again (Lei
// 9.099/1995, art. 83, § 2º; CPC art. 1.026).
func (s *Service) noticeOf(ctx context.Context, c *cases.Case, d cases.Defendant, st string) (kind string, day civil.Date, what string, ok bool, err error) {
	if st != cases.StatusSentenced && st != cases.StatusJudgment && st != cases.StatusAppeal {
		return "", day, "", false, nil
	}
	against, day, err := s.attacked(ctx, c, d, st)
	if err != nil {
		return "", day, "", false, err
	}
	r, err := s.lastRuling(ctx, c, d)
	if err != nil {
		return "", day, "", false, err
	}
	if r != nil && r.Against == against && !r.DecidedOn.Before(day) {
		return noticeKindOf(against), *r.DecidedOn, "da decisão dos embargos de declaração", true, nil
	}
	if st == cases.StatusAppeal {
		return "", day, "", false, nil
	}
	return NoticeAppeal, day, "da sentença", true, nil
}

// InterruptLaw cites the rule by which embargos de declaração interrupt
// the windows in case c: Lei 9.099/1995, art. 83, § 2º, in the JECRIM;
// CPC art. 1.026 in a group (civil) case.
func InterruptLaw(c *cases.Case) string { return lawOf(c).Interrupt }
