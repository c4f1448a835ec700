package decisions

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
)

// Appellants: the parties whose appeal the Turma Recursal judges (Lei
// 9.099/1995, art. 82): the defence (the defendant or his counsel, CPP art.
// 577) and the prosecution.
const (
	AppellantDefence     = "defence"
	AppellantProsecution = "prosecution"
)

// AppellantPT names each appellant in Portuguese.
var AppellantPT = map[string]string{AppellantDefence: "defesa", AppellantProsecution: "Ministério Público"}

// Appeal is an appeal recorded on a defendant's track (table appeals):
// who appealed (AppellantDefence or AppellantProsecution); DefendantID nil
// in a group case, which has one status.
type Appeal struct {
	ID          int64     `json:"id"`
	CaseID      int64     `json:"case_id"`
	DefendantID *int64    `json:"defendant_id"`
	Party       string    `json:"party"`
	CreatedAt   time.Time `json:"created_at"`
	CreatedBy   *int64    `json:"-"`
}

// AppellantOf is the appellant a transition's party names: "defence" or
// "defendant" (his own appeal, CPP art. 577) are the defence,
// "prosecution" the prosecution; ok false for anything else.
func AppellantOf(party string) (string, bool) {
	switch strings.TrimSpace(party) {
	case AppellantDefence, "defendant":
		return AppellantDefence, true
	case AppellantProsecution:
		return AppellantProsecution, true
	}
	return "", false
}

// RecordAppeal records party's appeal as to defendant d of case c (d nil:
// the group case) with its docket movement when the track was already in
// appeal (again true: the other party's appeal, "também"); the same party
// twice since the last sentence is errs.Conflict (Lei 9.099/1995, art. 82).
func (s *Service) RecordAppeal(ctx context.Context, actor actor.Actor, c *cases.Case, d *cases.Defendant, party string, again bool) error {
	tx := db.Conn(ctx, s.DB)
	recorded, err := s.recordedAppellants(ctx, c, d)
	if err != nil {
		return err
	}
	if slices.Contains(recorded, party) {
		return errs.New(errs.Conflict, fmt.Sprintf("O recurso (%s) já foi registrado%s.", AppellantPT[party], quantoA(d)))
	}
	var did *int64
	if d != nil {
		did = &d.ID
	}
	uid := actor.UserID
	if err := tx.Create(&Appeal{CaseID: c.ID, DefendantID: did, Party: party, CreatedAt: s.Now(), CreatedBy: &uid}).Error; err != nil {
		return err
	}
	if !again {
		return nil
	}
	text := fmt.Sprintf("Interposto recurso também pelo(a) %s%s para a Turma Recursal (Lei 9.099/1995, art. 82).", AppellantPT[party], quantoA(d))
	if err := s.Move(ctx, c, &actor, s.Now(), cases.MoveAppealFiled, text); err != nil {
		return err
	}
	return s.Touch(ctx, c, "")
}

func quantoA(d *cases.Defendant) string {
	if d == nil {
		return ""
	}
	return fmt.Sprintf(" quanto a %s (réu %d)", cases.NameOf(*d), d.ID)
}

// recordedAppellants are the parties whose appeals are recorded on
// defendant d's track (d nil: the case's) since his last sentence was
// signed (an annulment sends the track back: the new sentence's appeals
// are new ones), in the order defence, prosecution.
func (s *Service) recordedAppellants(ctx context.Context, c *cases.Case, d *cases.Defendant) ([]string, error) {
	q := db.Conn(ctx, s.DB).Model(&Appeal{}).Where("case_id = ?", c.ID)
	if d != nil { // his own sentence: a co-defendant's later one does not count
		q = q.Where("(defendant_id IS NULL OR defendant_id = ?) AND created_at >= (SELECT coalesce(max(signed_at), '-infinity') FROM sentences WHERE defendant_id = ? AND status <> 'draft')", d.ID, d.ID)
	} else {
		q = q.Where("created_at >= (SELECT coalesce(max(signed_at), '-infinity') FROM sentences WHERE case_id = ? AND status <> 'draft')", c.ID)
	}
	var parties []string
	if err := q.Distinct("party").Pluck("party", &parties).Error; err != nil {
		return nil, err
	}
	var out []string
	for _, p := range []string{AppellantDefence, AppellantProsecution} {
		if slices.Contains(parties, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// appellantsOf checks the appellants given with a result (each defence or
// prosecution, errs.Invalid on appellants) and, when none is given,
// defaults them to the parties whose appeals are recorded on the track,
// the defence when none is (API.md "appeal-result").
func (s *Service) appellantsOf(ctx context.Context, c *cases.Case, d *cases.Defendant, given []string) ([]string, error) {
	if len(given) == 0 {
		rec, err := s.recordedAppellants(ctx, c, d)
		if err != nil || len(rec) > 0 {
			return rec, err
		}
		return []string{AppellantDefence}, nil
	}
	var out []string
	for _, g := range given {
		a, ok := AppellantOf(g)
		if !ok {
			return nil, errs.InvalidField("appellants", "oneof", fmt.Sprintf("%q não é parte que recorre: use defence (defesa) e/ou prosecution (Ministério Público).", g))
		}
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	slices.Sort(out) // defence before prosecution
	rec, err := s.recordedAppellants(ctx, c, d)
	if err != nil {
		return nil, err
	}
	// The prosecution named where the track records only the defence's
	// appeal would open a harsher result no appeal asked for (CPP art. 617).
	if slices.Contains(out, AppellantProsecution) && len(rec) > 0 && !slices.Contains(rec, AppellantProsecution) {
		return nil, errs.InvalidField("appellants", "not_recorded", "o recurso do Ministério Público não está registrado no andamento deste réu (só a defesa recorreu): registre-o antes (andamento \"appeal\" com a parte prosecution); sem ele a reforma não pode agravar a situação do réu (CPP, art. 617).")
	}
	return out, nil
}

// severity is what a decision imposes, to compare the Turma Recursal's
// result with the sentence (CPP art. 617): the outcome's rank (acquittal,
// then the conversion into a ban, which spares the reclusão, then the
// reclusão itself), the ban's months, the reclusão's months (the quantum a
// breach converts back, Lei 14.597/2023, art. 201, § 3º) and the fine.
type severity struct {
	outcome                  string
	banMonths, prison, fines int
}

var outcomeRank = map[string]int{OutcomeAcquittal: 0, OutcomeBan: 1, OutcomePrison: 2}

// harsher names the field of n that is harsher than o ("" when none): the
// outcome, or within the same outcome ban.months, prison_months, fine_days.
func (n severity) harsher(o severity) string {
	switch {
	case outcomeRank[n.outcome] != outcomeRank[o.outcome]:
		if outcomeRank[n.outcome] > outcomeRank[o.outcome] {
			return "outcome"
		}
		return ""
	case n.banMonths > o.banMonths:
		return "ban.months"
	case n.prison > o.prison:
		return "prison_months"
	case n.fines > o.fines:
		return "fine_days"
	}
	return ""
}

// reformatioInPejus is errs.Invalid on field (what is harsher) when the
// prosecution is not among appellants: a result harsher than the sentence
// on the defence's appeal alone is forbidden (CPP art. 617; in a group
// case, the appeal devolves only what was appealed, CPC art. 1.013).
func reformatioInPejus(c *cases.Case, field string, appellants []string) error {
	if field == "" || slices.Contains(appellants, AppellantProsecution) {
		return nil
	}
	rule := "CPP, art. 617"
	if c.Flow == cases.FlowCivil {
		rule = "CPC, art. 1.013"
	}
	return &errs.Error{Kind: errs.Invalid,
		Message: fmt.Sprintf("Reformatio in pejus: só a defesa recorreu, e a Turma Recursal não pode agravar a situação do réu (%s).", rule),
		Fields: []errs.FieldError{{Field: field, Rule: "reformatio_in_pejus",
			Message: fmt.Sprintf("o resultado é mais grave que a sentença e o Ministério Público não recorreu (appellants: %s): vedada a reformatio in pejus (%s).", strings.Join(appellants, ", "), rule)}}}
}
