package casefile

import (
	"context"
	"fmt"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
)

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
		if err := f.Err(); err != nil {
			return err
		}
		t, err := cases.TransitionFor(c, strings.TrimSpace(in.To))
		if err != nil {
			return err
		}
		if t.Via != "" {
			return errs.InvalidField("to", "via", fmt.Sprintf("a passagem a %s é feita por %s, com os seus dados.", t.To, t.Via))
		}
		if err := cases.MayMake(actor, c, t); err != nil {
			return err
		}
		now := s.Now()
		text, code := t.Text, t.TPU
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
			text, code = "", 0 // distribute wrote the movement (TPU 26)
		case cases.StatusPleaAccepted, cases.StatusPleaRefused:
			st := "accepted"
			if t.To == cases.StatusPleaRefused {
				st = "refused"
			}
			q := db.Conn(ctx, s.DB).Model(&decisions.Plea{}).Where("case_id = ? AND status = 'offered'", c.ID)
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
		case cases.StatusFinal:
			day, err := s.Execution.FinalDay(ctx, c, in.FinalOn)
			if err != nil {
				return err
			}
			if err := s.Execution.StartFinalBans(ctx, c, day, now); err != nil {
				return err
			}
			text += fmt.Sprintf(" Trânsito em julgado em %s.", day.BR())
		}
		if c.Status == cases.StatusConditionalSuspension {
			if err := s.Decisions.EndSuspensions(ctx, c, t.To, in.Note); err != nil {
				return err
			}
		}
		if text != "" {
			if n := strings.TrimSpace(in.Note); n != "" {
				text += " " + n
			}
			if err := s.Move(ctx, c, &actor, now, code, text); err != nil {
				return err
			}
		}
		if err := s.Touch(ctx, c, t.To); err != nil {
			return err
		}
		v, err := s.view(ctx, *c, true)
		out = v
		return err
	})
	return out, err
}
