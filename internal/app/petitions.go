package app

import (
	"context"
	"fmt"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
)

// FilePetition files the defence's petition in on case caseID
// (cases.Service.ClientCase: errs.NotFound when the caller does not
// represent in.DefendantID there, then cases.CheckPetition) and acts on the
// defendant's track, in one transaction (../shared/API.md "Defence"; Lei
// 11.419/2006, art. 10):
//   - an appeal within the defence's window (Lei 9.099/1995, art. 82,
//     § 1º; counted from the last notice of the defendant or his defence,
//     not begun while neither is recorded) moves a sentenced track to
//     appeal as the clerk's recording does (casefile.Service.AppealFiled);
//     one after it is received with late set and the track unchanged;
//   - embargos are recorded as the defence's (calendar.Service.
//     FileEmbargosOn): in time they interrupt every party's window (art.
//     83, § 2º); late they are flagged and interrupt nothing;
//   - a contest of a group-ban inclusion names a member whose ban extends
//     the group ban of the client (decisions.Service.ContestedBan:
//     errs.Invalid on member_id otherwise).
//
// The system never refuses a filing: when the appeal or the embargos
// cannot act (the track not sentenced, an appeal of the defence already
// recorded) the petition is received with the reason in effect_note, for
// the judge. It returns the petition as stored, status pending.
func (a *App) FilePetition(ctx context.Context, who actor.Actor, caseID int64, in cases.PetitionInput) (*cases.PetitionView, error) {
	var out *cases.PetitionView
	err := a.InTx(ctx, func(ctx context.Context) error {
		c, d, err := a.Cases.Case.ClientCase(ctx, who, caseID, in.DefendantID)
		if err != nil {
			return err
		}
		if err := cases.CheckPetition(in); err != nil {
			return err
		}
		var eff cases.PetitionEffect
		switch in.Kind {
		case cases.PetitionAppeal:
			eff, err = a.appealPetition(ctx, who, c, d)
		case cases.PetitionEmbargos:
			eff, err = a.embargosPetition(ctx, who, c, d, in.Text)
		case cases.PetitionGroupContest:
			b, berr := a.Cases.Decisions.ContestedBan(ctx, c.ID, d.ID, in.MemberID)
			if berr != nil {
				return berr
			}
			eff.BanID = &b.ID
		}
		if err != nil {
			return err
		}
		out, err = a.Cases.Case.RecordPetition(ctx, who, c, d, in, eff)
		return err
	})
	return out, err
}

// appealPetition decides an appeal petition's effect on d's track of case
// c: late after the defence's window, else the appeal recorded on the
// track (or the reason it could not be).
func (a *App) appealPetition(ctx context.Context, who actor.Actor, c *cases.Case, d *cases.Defendant) (cases.PetitionEffect, error) {
	var eff cases.PetitionEffect
	last, ok, err := a.defenceAppealLastDay(ctx, c, d)
	if err != nil {
		return eff, err
	}
	today := civil.Today(a.Clock.Now(), a.Loc)
	if ok && today.After(last) {
		eff.Late = true
		eff.Note = fmt.Sprintf("O prazo de recurso da defesa terminou em %s (Lei 9.099/1995, art. 82, § 1º): o andamento de %s não muda.", last.BR(), cases.NameOf(*d))
		return eff, nil
	}
	st := cases.TrackOf(c, *d)
	if st != cases.StatusSentenced && st != cases.StatusJudgment && st != cases.StatusAppeal {
		eff.Note = fmt.Sprintf("O recurso cabe contra a sentença; %s está em “%s”: recebido sem mover o andamento.", cases.NameOf(*d), cases.OrStatus(st))
		return eff, nil
	}
	return a.tryEffect(ctx, cases.EffectAppeal, func(ctx context.Context) (cases.PetitionEffect, error) {
		err := a.Cases.Casefile.AppealFiled(ctx, who, c, d.ID, "Recurso interposto pela defesa no sistema (Lei 11.419/2006, art. 10).")
		return cases.PetitionEffect{}, err
	})
}

// defenceAppealLastDay is the last day of the defence's appeal window as
// to d in case c: the latest of the windows that the notices of the
// defendant and of his defence still counting open (the window runs from
// the last of them); ok false when neither is recorded (the window has
// not begun: an act before it is timely, CPC art. 218, § 4º).
func (a *App) defenceAppealLastDay(ctx context.Context, c *cases.Case, d *cases.Defendant) (last civil.Date, ok bool, err error) {
	ds, err := a.Cases.Calendar.Deadlines(ctx, c)
	if err != nil {
		return last, false, err
	}
	for _, w := range ds {
		if w.Kind != calendar.NoticeAppeal || (w.Party != calendar.PartyDefendant && w.Party != calendar.PartyDefence) {
			continue
		}
		if w.DefendantID != nil && *w.DefendantID != d.ID {
			continue
		}
		if !ok || w.LastDay.After(last) {
			last, ok = w.LastDay, true
		}
	}
	return last, ok, nil
}

// embargosPetition records the defence's embargos as to d on case c, filed
// today, and returns their effect: interrupted windows in time, late
// otherwise (or the reason they could not be recorded).
func (a *App) embargosPetition(ctx context.Context, who actor.Actor, c *cases.Case, d *cases.Defendant, text string) (cases.PetitionEffect, error) {
	today := civil.Today(a.Clock.Now(), a.Loc)
	return a.tryEffect(ctx, cases.EffectEmbargos, func(ctx context.Context) (cases.PetitionEffect, error) {
		e, err := a.Cases.Calendar.FileEmbargosOn(ctx, who, c, calendar.EmbargosInput{DefendantID: d.ID, Party: calendar.PartyDefence, FiledOn: today.String(), Text: text})
		if err != nil {
			return cases.PetitionEffect{}, err
		}
		eff := cases.PetitionEffect{Late: e.Late, EmbargosID: &e.ID}
		if e.Late {
			eff.Effect = cases.EffectNone
			eff.Note = fmt.Sprintf("Embargos registrados (n.º %d) como intempestivos: não interrompem prazo algum (%s).", e.ID, calendar.InterruptLaw(c))
		} else {
			eff.Note = fmt.Sprintf("Embargos registrados (n.º %d): interrompidos os prazos de recurso de todas as partes quanto a %s (%s).", e.ID, cases.NameOf(*d), calendar.InterruptLaw(c))
		}
		return eff, nil
	})
}

// tryEffect runs act under a savepoint: its effect, effect when it set
// none; a domain error (errs) rolls act back and is kept as the note, so
// that the petition is received all the same (issue 29: no filing is
// refused); any other error is returned.
func (a *App) tryEffect(ctx context.Context, effect string, act func(ctx context.Context) (cases.PetitionEffect, error)) (cases.PetitionEffect, error) {
	tx := db.Conn(ctx, a.db)
	if err := tx.SavePoint("petition_effect").Error; err != nil {
		return cases.PetitionEffect{}, err
	}
	eff, err := act(ctx)
	if err != nil {
		if errs.KindOf(err) == errs.Internal {
			return eff, err
		}
		if rerr := tx.RollbackTo("petition_effect").Error; rerr != nil {
			return eff, rerr
		}
		return cases.PetitionEffect{Effect: cases.EffectNone, Note: "Sem efeito no andamento: " + err.Error()}, nil
	}
	if eff.Effect == "" {
		eff.Effect = effect
	}
	return eff, nil
}

// AnswerPetition records the answer in to petition id (cases.CheckAnswer:
// the judge of the case for the judge's queue, the clerk for the clerk's;
// text required to grant or refuse, CF art. 93, IX), in one transaction,
// docketed and shown to the defence. Granting a contest of a group-ban
// inclusion ends the member's ban at once (decisions.Service.EndContested):
// he leaves the blocklist as a removal with reason contested. errs.NotFound
// for a petition of another court.
func (a *App) AnswerPetition(ctx context.Context, who actor.Actor, id int64, in cases.AnswerInput) (*cases.PetitionView, error) {
	var out *cases.PetitionView
	err := a.InTx(ctx, func(ctx context.Context) error {
		p, c, err := a.Cases.Case.LockPetition(ctx, who, id)
		if err != nil {
			return err
		}
		if err := cases.CheckAnswer(who, c, p, in); err != nil {
			return err
		}
		note := ""
		if p.Kind == cases.PetitionGroupContest && in.Decision == cases.AnswerGranted && p.BanID != nil {
			ended, err := a.Cases.Decisions.EndContested(ctx, c, *p.BanID, in.Text)
			if err != nil {
				return err
			}
			if ended {
				note = "Acolhida a impugnação: encerrado desde já o impedimento do(a) associado(a) decorrente do impedimento da torcida, retirado da lista de bloqueio (motivo: impugnação acolhida)."
			}
		}
		out, err = a.Cases.Case.RecordAnswer(ctx, who, c, p, in, note)
		return err
	})
	return out, err
}
