package form

// The forms of the court's decisions on a case page: homologation,
// conditional suspension, notification, precautionary ban, appeal result,
// the link of a group defendant and the identification of a person.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/execution"
)

// Homologation reads the homologation form (hom.defendant_id,
// hom.first_day as dd/mm/aaaa, optional).
func Homologation(v *Values) decisions.HomologateInput {
	return decisions.HomologateInput{DefendantID: v.ID("defendant_id"), FirstDay: v.Date("first_day")}
}

// Suspension reads the conditional suspension form (Lei 9.099/1995, art.
// 89: susp.defendant_id, susp.months, susp.first_day; the conditions of §
// 1º: susp.repair_damage or susp.repair_impossible, susp.forbidden_places
// one a line and susp.sporting_venues, susp.stay_in_district,
// susp.monthly_appearance; the judge's own, § 2º, susp.conditions one a
// line).
func Suspension(v *Values) decisions.SuspensionInput {
	in := decisions.SuspensionInput{DefendantID: v.ID("defendant_id"), Months: v.Int("months"), FirstDay: v.Date("first_day")}
	in.RepairDamage, in.RepairImpossible = v.Text("repair_damage"), v.Text("repair_impossible")
	in.SportingVenues = v.Checked("sporting_venues")
	stay, monthly := v.Checked("stay_in_district"), v.Checked("monthly_appearance")
	in.StayInDistrict, in.MonthlyAppearance = &stay, &monthly
	in.ForbiddenPlaces = v.Lines("forbidden_places")
	in.Conditions = v.Lines("conditions")
	return in
}

// Notification reads the notification form (int.party, int.defendant_id
// but for the prosecution, int.notified_on as dd/mm/aaaa, required,
// int.waived_appeal; int.electronic: an electronic notice to the defence,
// made available today, whose day the form then ignores, Lei 11.419/2006,
// art. 5º).
func Notification(v *Values) calendar.NotificationInput {
	in := calendar.NotificationInput{Party: v.Trim("party"), DefendantID: v.ID("defendant_id"), NotifiedOn: v.Date("notified_on")}
	if w := v.Tri("waived_appeal"); w != nil {
		in.WaivedAppeal = *w
	}
	if pd := v.Tri("public_defender"); pd != nil {
		in.PublicDefender = *pd
	}
	in.RecessException = v.Trim("recess_exception")
	if in.Party == calendar.PartyProsecution {
		in.DefendantID = 0 // one notice of the prosecution per case
	}
	if in.Electronic = v.Checked("electronic"); in.Electronic {
		in.NotifiedOn = "" // counted from the opening, or the tenth day
		return in
	}
	v.Require("notified_on", "Informe o dia da ciência (dd/mm/aaaa).")
	return in
}

// Precautionary reads the precautionary ban form (CPP art. 319, II:
// caut.defendant_id, caut.first_day as dd/mm/aaaa, optional,
// caut.review_on, required by Res. CNJ 417/2021, art. 19, caut.publish,
// caut.text.reasoning, required when signed by CF art. 93, IX) and, for
// the urgent order against a group (CPC art. 300), the members it names:
// the checkboxes caut.member_ids (Values.Refs; v needs WithAll).
func Precautionary(v *Values) decisions.SentenceInput {
	in := decisions.SentenceInput{DefendantID: v.Ref("defendant_id"), Precautionary: true, ReviewOn: v.Date("review_on"), MemberIDs: v.Refs("member_ids")}
	in.Ban.FirstDay = v.Date("first_day")
	if v.Text("publish") != "" {
		in.Publish = v.Tri("publish")
	}
	if r := v.Text("text.reasoning"); r != "" {
		in.Text = &decisions.SentenceText{Reasoning: r}
	}
	v.Require("review_on", "Informe a data de revisão da medida (dd/mm/aaaa): não há medida cautelar sem revisão (Res. CNJ 417/2021, art. 19).")
	v.Require("text.reasoning", "Informe a fundamentação da medida: decisão sem fundamentação é nula (CF, art. 93, IX).")
	return in
}

// AppealResult reads the appeal result form (rec.result, rec.defendant_id,
// rec.decided_on as dd/mm/aaaa, rec.text, rec.outcome, rec.ban.months,
// rec.prison_months, rec.fine_days, rec.appellants — "defence",
// "prosecution" or both, comma-separated —, rec.reporting_duty.place and
// .club).
func AppealResult(v *Values) decisions.AppealResultInput {
	in := decisions.AppealResultInput{Result: v.Trim("result"), DefendantID: v.Ref("defendant_id"), DecidedOn: v.Date("decided_on"), Text: v.Text("text"), Outcome: v.Trim("outcome")}
	in.Ban.Months = v.Int("ban.months")
	in.PrisonMonths, in.FineDays = v.Int("prison_months"), v.Int("fine_days")
	if a := v.Trim("appellants"); a != "" {
		in.Appellants = strings.Split(a, ",")
	}
	if place, club := v.Trim("reporting_duty.place"), v.Trim("reporting_duty.club"); place != "" || club != "" {
		in.ReportingDuty = &cases.ReportingDuty{Place: place, Club: club}
	}
	return in
}

// LinkGroup reads the form that links a group defendant to a registered
// fan group (vinc.defendant_id, vinc.group_id, both required).
func LinkGroup(v *Values) LinkGroupForm {
	var in casefile.LinkGroupInput
	defendantID := v.Ref("defendant_id")
	if defendantID == 0 && v.Empty("defendant_id") {
		v.Add("defendant_id", "required", "Escolha a torcida ré.")
	}
	if g := v.Trim("group_id"); g == "" {
		v.Add("group_id", "required", "Escolha a torcida cadastrada.")
	} else if id, err := strconv.ParseInt(g, 10, 64); err != nil || id <= 0 {
		v.Add("group_id", "integer", fmt.Sprintf("Torcida %q inválida: escolha uma torcida cadastrada.", g))
	} else {
		in.GroupID = &id
	}
	return LinkGroupForm{DefendantID: defendantID, Input: in}
}

// LinkGroupForm is the link form read: the group defendant and the group.
type LinkGroupForm struct {
	DefendantID int64                   // the group defendant
	Input       casefile.LinkGroupInput // the registered group
}

// Identification reads the identification form (ident.defendant_id,
// required, ident.cpf in any spelling, ident.birth_date as dd/mm/aaaa,
// optional).
func Identification(v *Values) IdentificationForm {
	defendantID := v.Ref("defendant_id")
	if defendantID == 0 && v.Empty("defendant_id") {
		v.Add("defendant_id", "required", "Escolha o representado.")
	}
	return IdentificationForm{DefendantID: defendantID, Input: execution.IdentificationInput{CPF: v.Text("cpf"), BirthDate: v.Date("birth_date")}}
}

// IdentificationForm is the identification form read: the defendant and
// their CPF and birth date.
type IdentificationForm struct {
	DefendantID int64                         // the person identified
	Input       execution.IdentificationInput // their CPF and birth date
}
