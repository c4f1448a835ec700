package form

// The judge's forms on a ban of a case page: lift, renew, correct and
// credit. Each ban has its own form, its fields prefixed by the kind and
// the ban's id ("rev[12].reason").

import (
	"fmt"
	"strings"

	"github.com/juizado/juizado/cases/execution"
)

// BanPrefix is the prefix of the fields of the form kind ("rev", "ren",
// "cor", "det") of ban id.
func BanPrefix(kind string, id int64) string { return fmt.Sprintf("%s[%d].", kind, id) }

// dateAndReason reads a ban decision's date field (dd/mm/aaaa, as
// AAAA-MM-DD) and its reason, both required, with the page's messages.
func dateAndReason(v *Values, field, dateMsg, reasonMsg string) (day, reason string) {
	day, reason = v.Date(field), v.Text("reason")
	v.Require(field, dateMsg)
	if strings.TrimSpace(reason) == "" {
		v.Add("reason", "required", reasonMsg)
	}
	return day, reason
}

// Lift reads the form that lifts a precautionary ban (rev[ID].lifted_on as
// dd/mm/aaaa and rev[ID].reason, both required).
func Lift(v *Values) execution.LiftInput {
	day, reason := dateAndReason(v, "lifted_on", "Informe a data da decisão que revoga a medida (dd/mm/aaaa).", "Informe o motivo da revogação.")
	return execution.LiftInput{LiftedOn: day, Reason: reason}
}

// Renew reads the form that renews a precautionary ban (ren[ID].review_on
// as dd/mm/aaaa and ren[ID].reason, both required).
func Renew(v *Values) execution.RenewInput {
	day, reason := dateAndReason(v, "review_on", "Informe a nova data de revisão (dd/mm/aaaa).", "Informe o fundamento da renovação.")
	return execution.RenewInput{ReviewOn: day, Reason: reason}
}

// Correct reads the form that corrects a material error in a final ban's
// last day (cor[ID].last_day as dd/mm/aaaa and cor[ID].reason, both
// required).
func Correct(v *Values) execution.CorrectInput {
	day, reason := dateAndReason(v, "last_day", "Informe o último dia corrigido (dd/mm/aaaa).", "Descreva o erro material corrigido.")
	return execution.CorrectInput{LastDay: day, Reason: reason}
}

// Credit reads the detração form (CP art. 42: det[ID].days, 0 for none,
// and det[ID].reason, both required).
func Credit(v *Values) execution.CreditInput {
	in := execution.CreditInput{Days: v.Int("days"), Reason: v.Text("reason")}
	if in.Days == nil && v.Empty("days") {
		v.Add("days", "required", "Informe os dias a descontar (0 para não descontar).")
	}
	if strings.TrimSpace(in.Reason) == "" {
		v.Add("reason", "required", "Fundamente a decisão sobre a detração.")
	}
	return in
}
