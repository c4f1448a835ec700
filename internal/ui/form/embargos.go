package form

import "github.com/juizado/juizado/cases/calendar"

// Embargos reads the embargos de declaração form (emb.defendant_id,
// emb.party, emb.filed_on as dd/mm/aaaa, emb.text; Lei 9.099/1995, art.
// 83): every field is required.
func Embargos(v *Values) calendar.EmbargosInput {
	in := calendar.EmbargosInput{DefendantID: v.Ref("defendant_id"), Party: v.Trim("party"), FiledOn: v.Date("filed_on"), Text: v.Text("text")}
	v.Require("filed_on", "Informe o dia em que os embargos foram opostos (dd/mm/aaaa).")
	v.Require("text", "Informe os embargos: a obscuridade, contradição, omissão ou dúvida apontada (Lei 9.099/1995, art. 83).")
	return in
}

// EmbargosRulingForm is the ruling form read: the embargos decided and the
// ruling.
type EmbargosRulingForm struct {
	ID int64
	In calendar.RulingInput
}

// EmbargosRuling reads the ruling form (dec.embargos_id, dec.granted
// "true" or "false", dec.decided_on as dd/mm/aaaa, dec.text): the embargos,
// the verdict and the reasoning are required (CF art. 93, IX).
func EmbargosRuling(v *Values) EmbargosRulingForm {
	out := EmbargosRulingForm{ID: v.Ref("embargos_id"), In: calendar.RulingInput{Granted: v.Tri("granted"), DecidedOn: v.Date("decided_on"), Text: v.Text("text")}}
	if out.In.Granted == nil {
		v.Add("granted", "required", "Escolha: embargos acolhidos ou rejeitados.")
	}
	v.Require("text", "Fundamente a decisão dos embargos: decisão sem fundamentação é nula (CF, art. 93, IX).")
	return out
}
