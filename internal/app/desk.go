package app

import (
	"context"

	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/desk"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/errs"
)

// DeskQueues are the kinds of queue each staff role works (issue 30, item
// 1): the clerk moves the case (notices, certification, identification,
// counsel, hearings); the judge decides (conclusions, precautionary
// reviews, hearings); the prosecutor answers for the prosecution (its
// windows and notices, hearings). Each list is in desk.Rank's order.
var DeskQueues = map[string][]string{
	"clerk": {desk.KindWindows, desk.KindHearingsToday, desk.KindPetitions, desk.KindReadyFinal, desk.KindToNotify, desk.KindHearingsWeek,
		desk.KindBansEnding, desk.KindAwaitingID, desk.KindCounselRequests},
	"judge":      {desk.KindHearingsToday, desk.KindReviews, desk.KindConcluded, desk.KindPetitions, desk.KindHearingsWeek, desk.KindBansEnding},
	"prosecutor": {desk.KindWindows, desk.KindHearingsToday, desk.KindToNotify, desk.KindHearingsWeek},
}

// DeskView is GET /api/v1/desk: the day it was read (the court's civil
// date, YYYY-MM-DD) and the caller's queues, most urgent first.
type DeskView struct {
	Today  string       `json:"today"`
	Queues []desk.Queue `json:"queues"`
}

// Desk returns the work queues of actor's role in actor's court (a
// judge's: his own cases; a prosecutor's: the prosecution's windows and
// notices), each with its full count and at most desk.Limit items, in the
// order of desk.Rank. A role without a desk is errs.Forbidden.
func (cs *Cases) Desk(ctx context.Context, a actor.Actor) (*DeskView, error) {
	kinds, ok := DeskQueues[a.Role]
	if !ok {
		return nil, errs.New(errs.Forbidden, "O painel de trabalho é do cartório, do(a) juiz(a) e do Ministério Público.")
	}
	sc := desk.Scope{Court: a.Court, Today: cs.Queues.Today()}
	switch a.Role {
	case "judge":
		uid := a.UserID
		sc.JudgeID = &uid
	case "prosecutor":
		sc.Party = calendar.PartyProsecution
	}
	out := &DeskView{Today: sc.Today.String(), Queues: make([]desk.Queue, 0, len(kinds))}
	for _, k := range kinds {
		q, err := cs.Queues.Queue(ctx, sc, k)
		if err != nil {
			return nil, err
		}
		out.Queues = append(out.Queues, q)
	}
	return out, nil
}
