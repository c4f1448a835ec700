package casefile

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
)

// TransitionInput is the body of POST /api/v1/cases/{id}/transitions: the
// status to move to, a note for the docket, and the defendant whose track
// moves (criminal cases; without it, every defendant whose track allows
// the step, separated ones excepted: API.md "each defendant's track").
type TransitionInput struct {
	To          string `json:"to"`
	Note        string `json:"note"`
	DefendantID *int64 `json:"defendant_id"`
	// FinalOn is, after an appeal, the day the Turma Recursal's decision
	// became final (default today); without an appeal the day is computed
	// from the parties' windows.
	FinalOn string `json:"final_on"`
	// Ground of "archived" before an accusation: "prosecutor_request"
	// (CPP art. 28).
	Ground string `json:"ground"`
	// Cause of "extinct" (CP art. 107): plea_fulfilled, suspension_ended,
	// prescription, death.
	Cause string `json:"cause"`
	// Party of "appeal": who appeals, defence (or defendant) or
	// prosecution (Lei 9.099/1995, art. 82; CPP art. 577); recorded on the
	// track for the result (CPP art. 617). A track already in appeal takes
	// the other party's appeal.
	Party string `json:"party"`
	// filedByParty: the party itself filed the act in the system (the
	// defence's appeal petition, AppealFiled), so the clerk's role on the
	// transition is not asked (Lei 11.419/2006, art. 10).
	filedByParty bool
}

// mayMake is cases.MayMake, except for an act the party filed itself
// (in.filedByParty), which needs no clerk.
func mayMake(actor actor.Actor, c *cases.Case, t cases.Transition, in TransitionInput) error {
	if in.filedByParty {
		return nil
	}
	return cases.MayMake(actor, c, t)
}

// Transition moves the case along an allowed transition of its flow, with
// a docket movement (and its TPU code). In a criminal case each defendant
// has his own track (DOMAIN.md §4): the step moves the defendant named, or
// every defendant whose track allows it (errs.Invalid on defendant_id, or
// on "to" when none does, naming each track's status and what it allows),
// and the case's status becomes the summary of the tracks
// (cases.Summary). A step that needs its own endpoint names it; a role
// that may not make it is errs.Forbidden naming who may. Certifying a
// defendant's final judgment waits for his windows only (Lei 9.099/1995,
// art. 82, § 1º); "separated" is the judge's separation of a defendant's
// proceedings (CPP art. 80). Group (civil) cases keep one status.
func (s *Service) Transition(ctx context.Context, actor actor.Actor, caseID int64, in TransitionInput) (*View, error) {
	var out *View
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		c, err := s.LockCase(ctx, actor, caseID)
		if err != nil {
			return err
		}
		var f errs.Fields
		cases.CheckText(&f, "note", in.Note, cases.MaxLong, true)
		if strings.TrimSpace(in.To) == "" {
			f.Add("to", "required", "informe a situação de destino (to).")
		}
		if in.Party != "" && strings.TrimSpace(in.To) != cases.StatusAppeal {
			f.Add("party", "not_applicable", "party só se informa no recurso (to \"appeal\"): quem recorre.")
		}
		if err := f.Err(); err != nil {
			return err
		}
		to := strings.TrimSpace(in.To)
		switch {
		case to == cases.Separated:
			err = s.separate(ctx, actor, c, in)
		case to == cases.StatusAppeal && in.Party != "":
			err = s.appeal(ctx, actor, c, in)
		case c.Flow == cases.FlowCivil || c.Status == cases.StatusFiled:
			err = s.caseTransition(ctx, actor, c, to, in)
		default:
			err = s.trackTransition(ctx, actor, c, to, in)
		}
		if err != nil {
			return err
		}
		v, err := s.view(ctx, *c, true)
		out = v
		return err
	})
	return out, err
}

// caseTransition moves a case with one status: a group (civil) case (the
// law gives its defendants no track of their own: one judgment, one TAC
// for the group case) and the distribution of a criminal one.
func (s *Service) caseTransition(ctx context.Context, actor actor.Actor, c *cases.Case, to string, in TransitionInput) error {
	t, err := cases.TransitionFor(c, to)
	if err != nil {
		return err
	}
	if t.Via != "" {
		return errs.InvalidField("to", "via", fmt.Sprintf("a passagem a %s é feita por %s, com os seus dados.", t.To, t.Via))
	}
	if err := mayMake(actor, c, t, in); err != nil {
		return err
	}
	now := s.Now()
	text, kind := t.Text, t.Kind
	switch t.To {
	case cases.StatusDistributed:
		if err := db.Conn(ctx, s.DB).Exec("SELECT 1 FROM courts WHERE code = ? FOR UPDATE", c.CourtCode).Error; err != nil {
			return err
		}
		if err := s.Cases.Distribute(ctx, c, now, &actor); err != nil {
			return err
		}
		if c.JudgeID == nil {
			return errs.New(errs.Conflict, "O juizado não tem juiz(a) ativo(a): não há a quem distribuir o processo.")
		}
		text = "" // distribute wrote the movement (MoveDistribution)
	case cases.StatusFinal:
		ds, err := s.Tracks(ctx, c)
		if err != nil {
			return err
		}
		day, err := s.Execution.FinalDay(ctx, c, nil, in.FinalOn)
		if err != nil {
			return err
		}
		if err := s.Execution.StartFinalBans(ctx, c, day, now, 0); err != nil {
			return err
		}
		ids := make([]int64, len(ds))
		for i, d := range ds {
			ids[i] = d.ID
		}
		if err := db.Conn(ctx, s.DB).Table("defendants").Where("id IN ?", ids).Update("final_on", day).Error; err != nil {
			return err
		}
		text += fmt.Sprintf(" Trânsito em julgado em %s.", day.BR())
	}
	if text != "" {
		if err := s.Move(ctx, c, &actor, now, kind, withNote(text, in.Note)); err != nil {
			return err
		}
	}
	return s.Touch(ctx, c, t.To)
}

func withNote(text, note string) string {
	if n := strings.TrimSpace(note); n != "" {
		return text + " " + n
	}
	return text
}

// trackTransition moves the tracks of a criminal case: the defendant
// named, or every defendant (not separated) whose track allows to.
func (s *Service) trackTransition(ctx context.Context, actor actor.Actor, c *cases.Case, to string, in TransitionInput) error {
	ds, err := s.Tracks(ctx, c)
	if err != nil {
		return err
	}
	type step struct {
		d cases.Defendant
		t cases.Transition
	}
	var steps []step
	if in.DefendantID != nil {
		d, err := s.trackOf(ctx, c, ds, *in.DefendantID)
		if err != nil {
			return err
		}
		t, ok := cases.TrackStep(c, d.Status, to)
		if !ok {
			return cases.TrackError(c, []cases.Defendant{d}, to, "defendant_id")
		}
		steps = append(steps, step{d, t})
	} else {
		// Every track the step fits, with its ground or cause (an
		// extinction by the plea fulfilled reaches the plea's tracks only).
		var misfit error
		for _, d := range ds {
			if t, ok := cases.TrackStep(c, d.Status, to); ok && d.SeparatedOn == nil {
				if err := checkEnd(t, in); err != nil {
					misfit = cmp.Or(misfit, err)
					continue
				}
				steps = append(steps, step{d, t})
			}
		}
		if len(steps) == 0 && misfit != nil {
			return misfit
		}
		if len(steps) == 0 {
			return cases.TrackError(c, ds, to, "to")
		}
	}
	for _, st := range steps {
		if st.t.Via != "" {
			return errs.InvalidField("to", "via", fmt.Sprintf("a passagem a %s é feita por %s, com os seus dados.", st.t.To, st.t.Via))
		}
		if err := mayMake(actor, c, st.t, in); err != nil {
			return err
		}
		if err := checkEnd(st.t, in); err != nil {
			return err
		}
	}
	var firstConflict error
	moved := 0
	for _, st := range steps {
		err := s.step(ctx, actor, c, st.d, st.t, in, len(ds) > 1)
		var e *errs.Error
		if err != nil && in.DefendantID == nil && st.t.To == cases.StatusFinal && errors.As(err, &e) && e.Kind == errs.Conflict {
			// Without defendant_id, the final judgment of every defendant
			// whose judgment can become final: the others wait.
			if firstConflict == nil {
				firstConflict = err
			}
			continue
		}
		if err != nil {
			return err
		}
		moved++
	}
	if moved == 0 && firstConflict != nil {
		return firstConflict
	}
	return nil
}

// trackOf is defendant id of c among ds, or errs.Invalid on defendant_id.
func (s *Service) trackOf(ctx context.Context, c *cases.Case, ds []cases.Defendant, id int64) (cases.Defendant, error) {
	for _, d := range ds {
		if d.ID == id {
			return d, nil
		}
	}
	_, err := s.PersonOf(ctx, c, id, "defendant_id")
	if err == nil {
		err = errs.InvalidField("defendant_id", "defendant_of_case", fmt.Sprintf("o réu %d não é parte deste processo.", id))
	}
	return cases.Defendant{}, err
}

// checkEnd checks the ground of an archive before the accusation (CPP art.
// 28) and the cause of an extinction (CP art. 107) against t.
func checkEnd(t cases.Transition, in TransitionInput) error {
	if t.Ground != "" && strings.TrimSpace(in.Ground) != t.Ground {
		return errs.InvalidField("ground", "oneof", fmt.Sprintf("antes da denúncia, o arquivamento cabe a requerimento do Ministério Público: informe ground \"%s\" (CPP, art. 28).", t.Ground))
	}
	if t.Ground == "" && in.Ground != "" {
		return errs.InvalidField("ground", "not_applicable", fmt.Sprintf("a passagem de %s a %s não tem fundamento a escolher: não informe ground.", t.From, t.To))
	}
	if t.To == cases.StatusExtinct {
		if !cases.Contains(t.Causes, in.Cause) {
			return errs.InvalidField("cause", "oneof", fmt.Sprintf("de %s (%s), a punibilidade se extingue por: %s (CP, art. 107).", t.From, cases.OrStatus(t.From), strings.Join(t.Causes, ", ")))
		}
		if in.Cause == cases.CauseDeath && strings.TrimSpace(in.Note) == "" {
			return errs.InvalidField("note", "required", "a morte do agente se declara à vista da certidão de óbito: cite-a na nota (CPP, art. 62).")
		}
	} else if in.Cause != "" {
		return errs.InvalidField("cause", "not_applicable", "cause só se informa na extinção da punibilidade (to \"extinct\").")
	}
	return nil
}

// step makes transition t of defendant d's track, with its docket
// movement (naming him when the case has several defendants).
func (s *Service) step(ctx context.Context, actor actor.Actor, c *cases.Case, d cases.Defendant, t cases.Transition, in TransitionInput, name bool) error {
	now := s.Now()
	text, kind := t.Text, t.Kind
	var finalOn *civil.Date
	switch t.To {
	case cases.StatusPleaAccepted, cases.StatusPleaRefused:
		st := "accepted"
		if t.To == cases.StatusPleaRefused {
			st = "refused"
		}
		res := db.Conn(ctx, s.DB).Model(&decisions.Plea{}).Where("case_id = ? AND defendant_id = ? AND status = 'offered'", c.ID, d.ID).
			Updates(map[string]any{"status": st, "answered_at": now})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return errs.InvalidField("defendant_id", "offered", "não há proposta de transação penal pendente para este réu.")
		}
	case cases.StatusFinal:
		day, err := s.Execution.FinalDay(ctx, c, &d, in.FinalOn)
		if err != nil {
			return err
		}
		if err := s.Execution.StartFinalBans(ctx, c, day, now, d.ID); err != nil {
			return err
		}
		finalOn = &day
		text += fmt.Sprintf(" Trânsito em julgado em %s.", day.BR())
	case cases.StatusExtinct:
		if err := s.extinguish(ctx, c, d, in.Cause); err != nil {
			return err
		}
		text += " " + cases.ExtinctionCausePT[in.Cause] + "."
	}
	if d.Status == cases.StatusConditionalSuspension {
		if err := s.Decisions.EndSuspensions(ctx, c, d.ID, t.To, in.Cause, in.Note); err != nil {
			return err
		}
	}
	if cases.Ended(t.To) {
		ids, err := s.Decisions.EndPrecautionary(ctx, c, d.ID, civil.Today(now, s.Loc), "encerrado o processo quanto ao réu: cessa a medida cautelar ("+cases.OrStatus(t.To)+")")
		if err != nil {
			return err
		}
		if len(ids) > 0 {
			if err := s.RefreshBlocklist(ctx, ids...); err != nil {
				return err
			}
		}
	}
	if name {
		text = fmt.Sprintf("Quanto a %s: %s", cases.NameOf(d), text)
	}
	if err := s.Move(ctx, c, &actor, now, kind, withNote(text, in.Note)); err != nil {
		return err
	}
	return s.SetTrack(ctx, c, t.To, finalOn, d.ID)
}
