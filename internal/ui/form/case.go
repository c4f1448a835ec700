package form

// The forms on a case page for the parties and the clerk: plea agreement,
// breach, movement, hearing and transition.

import (
	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/execution"
)

// Plea reads the plea agreement form (acordo.defendant_id, acordo.months,
// acordo.first_day as dd/mm/aaaa).
func Plea(v *Values) decisions.PleaInput {
	return decisions.PleaInput{DefendantID: v.ID("defendant_id"), Months: v.Int("months"), FirstDay: v.Date("first_day")}
}

// Breach reads the breach form (desc.ban_id, required; desc.occurred_on as
// dd/mm/aaaa, required; desc.source, desc.reference, desc.description):
// the ban breached and what happened.
func Breach(v *Values) BreachForm {
	banID := v.ID("ban_id")
	if banID == 0 {
		v.Add("ban_id", "required", "Escolha o impedimento descumprido.")
	}
	in := execution.BreachInput{OccurredOn: v.Date("occurred_on"), Source: v.Text("source"), Reference: v.Text("reference"), Description: v.Text("description")}
	if in.OccurredOn == "" && v.Text("occurred_on") == "" {
		v.Add("occurred_on", "required", "Informe a data do descumprimento (dd/mm/aaaa).")
	}
	return BreachForm{BanID: banID, Input: in}
}

// BreachForm is the breach form read: the ban breached and what happened.
type BreachForm struct {
	BanID int64                 // the ban breached (0: none chosen)
	Input execution.BreachInput // what happened
}

// Movement reads the docket movement form (mov.description, mov.tpu_code,
// mov.at as dd/mm/aaaa with mov.at_hora as hh:mm, optional).
func Movement(v *Values) cases.MovementInput {
	in := cases.MovementInput{Description: v.Text("description"), TPUCode: v.Int("tpu_code")}
	if v.Text("at") != "" {
		in.At = v.Instant("at", "at", "at_hora", false)
	}
	return in
}

// Hearing reads the hearing form (aud.kind, aud.room, aud.date as
// dd/mm/aaaa, aud.starts and aud.ends as hh:mm, aud.recess_exception: CPP
// art. 798-A, I to III); the date's errors (a day the law bars included) show
// next to aud.date, a missing or invalid time next to aud.starts or
// aud.ends (the fields the page shows).
func Hearing(v *Values) cases.HearingInput {
	in := cases.HearingInput{Kind: v.Text("kind"), Room: v.Text("room"), RecessException: v.Trim("recess_exception")}
	in.StartsAt, in.EndsAt = hearingTimes(v)
	return in
}

// hearingTimes reads a hearing form's date, starts and ends (the end
// optional) as RFC 3339 instants, the service's errors renamed to the
// form's fields.
func hearingTimes(v *Values) (startsAt, endsAt string) {
	startsAt = v.Instant("starts_at", "date", "starts", true)
	if v.Text("ends") != "" && v.Text("date") != "" {
		endsAt = v.Instant("ends_at", "date", "ends", false)
	}
	v.Rename("starts_at", "date")
	v.Rename("ends_at", "date")
	v.Rename("starts_at_hora", "starts")
	v.Rename("ends_at_hora", "ends")
	return startsAt, endsAt
}

// Transition reads the transition form (and.to, and.note, and.defendant_id
// for a defendant's own track, and.ground for the archive at the
// prosecutor's request, and.cause for the extinction of punishability,
// and.party for who appeals).
func Transition(v *Values) casefile.TransitionInput {
	in := casefile.TransitionInput{To: v.Text("to"), Note: v.Text("note"), Ground: v.Text("ground"), Cause: v.Text("cause"), Party: v.Trim("party")}
	if d := v.ID("defendant_id"); d != 0 {
		in.DefendantID = &d
	}
	return in
}

// HearingAct is a form on one hearing of the case: the hearing's id (its
// field hearing_id) and the service's input.
type HearingAct[T any] struct {
	ID int64
	In T
}

// Redesignate reads the redesignation form (red.hearing_id, red.date as
// dd/mm/aaaa with red.starts and red.ends as hh:mm, red.reason): the
// hearing's id and the service's input.
func Redesignate(v *Values) HearingAct[cases.RedesignateInput] {
	in := cases.RedesignateInput{Reason: v.Text("reason")}
	in.StartsAt, in.EndsAt = hearingTimes(v)
	return HearingAct[cases.RedesignateInput]{v.ID("hearing_id"), in}
}

// CancelHearing reads the cancellation form (can.hearing_id, can.reason).
func CancelHearing(v *Values) HearingAct[cases.CancelInput] {
	return HearingAct[cases.CancelInput]{v.ID("hearing_id"), cases.CancelInput{Reason: v.Text("reason")}}
}

// HearingResult reads the result form (res.hearing_id, res.held "true" or
// "false", res.absent checked once per absent party, res.text).
func HearingResult(v *Values) HearingAct[cases.ResultInput] {
	in := cases.ResultInput{Held: v.Tri("held"), Text: v.Text("text")}
	if v.all != nil {
		in.Absent = v.all(v.prefix + "absent")
	}
	return HearingAct[cases.ResultInput]{v.ID("hearing_id"), in}
}
