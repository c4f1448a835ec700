package app

import (
	"context"

	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/sanctions"
)

// Sentence decides one defendant of case caseID as the judge actor signs
// it (decisions.Service.Sentence: Lei 14.597/2023, art. 201; CPP arts. 381
// and 386) and, for a signed decision other than a precautionary ban
// alone, issues its sentence document (documents.Service.IssueSentence: one
// document, one verification code, per decision), in one transaction: a
// decision is never signed without its document. A minuta (in.Draft)
// issues nothing. The errors are the service's (errs).
func (a *App) Sentence(ctx context.Context, actor actor.Actor, caseID int64, in decisions.SentenceInput) (*decisions.SentenceResult, error) {
	return a.signed(ctx, actor, caseID, func(ctx context.Context) (*decisions.SentenceResult, error) {
		return a.Cases.Decisions.Sentence(ctx, actor, caseID, in)
	})
}

// SignDraft signs the saved minuta of defendantID in case caseID
// (decisions.Service.SignDraft) and issues its sentence document, in one
// transaction, as Sentence does.
func (a *App) SignDraft(ctx context.Context, actor actor.Actor, caseID, defendantID int64) (*decisions.SentenceResult, error) {
	return a.signed(ctx, actor, caseID, func(ctx context.Context) (*decisions.SentenceResult, error) {
		return a.Cases.Decisions.SignDraft(ctx, actor, caseID, defendantID)
	})
}

// signed runs sign and issues the document of the decision it signed, in
// one transaction.
func (a *App) signed(ctx context.Context, actor actor.Actor, caseID int64, sign func(ctx context.Context) (*decisions.SentenceResult, error)) (*decisions.SentenceResult, error) {
	var r *decisions.SentenceResult
	err := a.InTx(ctx, func(ctx context.Context) error {
		var err error
		if r, err = sign(ctx); err != nil {
			return err
		}
		if r.Sentence.Status != "signed" || r.Outcome == decisions.OutcomePrecautionary {
			return nil
		}
		_, err = a.Documents.IssueSentence(ctx, actor, caseID, r.Sentence.DefendantID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// SentencePreview is what the sentence form shows before signing: the
// rule a sentence with in's flags would apply to defendant in.DefendantID
// of case caseID (decisions.Service.SentenceRange, the computation of
// signing itself: Lei 14.597/2023, art. 201), the flags it resolved, and
// the outcome the law gives by default (decisions.DefaultOutcome).
type SentencePreview struct {
	Range   sanctions.Range
	Flags   decisions.Flags
	Outcome string
}

// PreviewSentence returns the SentencePreview of in for case caseID of the
// actor's court; the errors are SentenceRange's (errs.NotFound for a case
// or defendant not of the court, errs.Invalid naming the field when no
// statute covers the facts).
func (a *App) PreviewSentence(ctx context.Context, actor actor.Actor, caseID int64, in decisions.SentenceInput) (SentencePreview, error) {
	rg, fl, err := a.Cases.Decisions.SentenceRange(ctx, actor, caseID, in)
	if err != nil {
		return SentencePreview{}, err
	}
	return SentencePreview{Range: rg, Flags: fl, Outcome: decisions.DefaultOutcome(rg)}, nil
}

// AddUser creates the user of spec (or returns the existing user of that
// name and domain, accounts.EnsureUser; accounts.ErrInvalidUser for a spec that
// breaks a rule), sets its password pw when pw is not "", and, for a new
// judge, distributes the court's cases filed while it had no judge
// (cases.Service.DistributePending), in one transaction. distributed is
// how many cases it received.
func (a *App) AddUser(ctx context.Context, spec accounts.UserSpec, pw string) (u accounts.User, created bool, distributed int, err error) {
	err = a.InTx(ctx, func(ctx context.Context) error {
		if u, created, err = accounts.EnsureUser(ctx, a.db, spec); err != nil {
			return err
		}
		if pw != "" {
			if err := accounts.SetPassword(ctx, a.db, u.ID, pw); err != nil {
				return err
			}
		}
		if created && u.Role == "judge" {
			distributed, err = a.Cases.Case.DistributePending(ctx, u.Court())
		}
		return err
	})
	return u, created, distributed, err
}

// GatePhoto is the register photo of the member that ban banID names, for
// a club's gate staff to compare with an ID (issue 30, item 3): only while
// the ban is a member's ban in force on the blocklist
// (blocklist.Lists.GateMember), the read recorded (registry.Groups.GatePhoto),
// in one transaction. registry.ErrNoGatePhoto (errs.NotFound) otherwise.
func (a *App) GatePhoto(ctx context.Context, actor actor.Actor, banID int64) (ctype string, data []byte, err error) {
	err = a.InTx(ctx, func(ctx context.Context) error {
		member, ok, err := a.Lists.GateMember(ctx, banID)
		if err != nil {
			return err
		}
		if !ok {
			return registry.ErrNoGatePhoto
		}
		ctype, data, err = a.Groups.GatePhoto(ctx, actor, member, banID)
		return err
	})
	return ctype, data, err
}
