package form

// The judge's sentence form (/processos/:id/sentenca): its fields are the
// API's (defendant_id, ban.months, dosimetry.*), read into
// decisions.SentenceInput; a saved minuta fills it again (DraftForm).

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
)

// sentenceChoices are the yes/no fields of the sentence form, with what
// each one accepts besides "true" and "false" (DOMAIN.md §2: eligible is §
// 2º; organiser § 6º; sec7 and sec7_doubles_ban § 7º; weapons § 1º, II;
// fan_fight § 1º, III; publish §6; precautionary_until_final CPP art. 319,
// II).
var sentenceChoices = []struct{ field, allowed string }{
	{"eligible", "sim ou não"},
	{"organiser", "sim, não ou conforme as condutas"},
	{"sec7", "sim, não ou conforme as condutas"},
	{"weapons", "sim, não ou conforme as condutas"},
	{"fan_fight", "sim, não ou conforme as condutas"},
	{"sec7_doubles_ban", "sim ou não"},
	{"publish", "marcado ou não"},
	{"precautionary_until_final", "marcado ou não"},
}

// checkChoices refuses a yes/no field of the sentence form holding anything
// but "" (not given), true/sim/on or false/nao/não, with the error on the
// field quoting the value (which stays in the form); valid values are
// normalised to "true"/"false".
func checkChoices(f *errs.Fields, vals url.Values) {
	for _, ch := range sentenceChoices {
		v := vals.Get(ch.field)
		if v == "" {
			continue
		}
		b := Tri(v)
		if b == nil {
			f.Add(ch.field, "choice", fmt.Sprintf("Valor %q inválido: escolha %s.", v, ch.allowed))
			continue
		}
		vals.Set(ch.field, strconv.FormatBool(*b))
	}
}

// dosimetryMonths are the months fields of the dosimetry's three phases.
var dosimetryMonths = []string{"dosimetry.base_months", "dosimetry.intermediate_months", "dosimetry.final_months"}

// CauseRows is the number of rows of causes of decrease and increase of
// the third phase (CP art. 68) the sentence form offers.
const CauseRows = 3

// causeField is the form's (and the API's) name of field of cause row i:
// dosimetry.causes[i].kind, .fraction, .article.
func causeField(i int, field string) string {
	return "dosimetry.causes[" + strconv.Itoa(i) + "]." + field
}

// causes reads the typed rows of causes of the third phase (CP art. 68):
// kind, fraction ("1/3") and article, in order; an empty row is skipped. The
// service checks them (errors named by the same fields).
func causes(vals url.Values) []decisions.CauseInput {
	var out []decisions.CauseInput
	for i := 0; i < CauseRows; i++ {
		kind := strings.TrimSpace(vals.Get(causeField(i, "kind")))
		fr := strings.TrimSpace(vals.Get(causeField(i, "fraction")))
		art := strings.TrimSpace(vals.Get(causeField(i, "article")))
		if kind == "" && fr == "" && art == "" {
			continue
		}
		raw, _ := json.Marshal(fr)
		out = append(out, decisions.CauseInput{Kind: kind, Fraction: raw, Article: art})
	}
	return out
}

// Sentence reads the sentence form into the service's input (field
// names are the API's); what it cannot read goes to f under the field's
// name. The dosimetry is given when any of its fields is typed, and then
// each phase's months are required; the precautionary ban until the final
// judgment when its box is ticked or one of its dates typed.
func Sentence(f *errs.Fields, vals url.Values) decisions.SentenceInput {
	checkChoices(f, vals)
	get := func(k string) string { return strings.TrimSpace(vals.Get(k)) }
	in := decisions.SentenceInput{DefendantID: Ref(f, "defendant_id", vals.Get("defendant_id")), Outcome: get("outcome"),
		Eligible: Tri(vals.Get("eligible")), Organiser: Tri(vals.Get("organiser")), Sec7: Tri(vals.Get("sec7")),
		Sec7Ground: get("sec7_ground"), Weapons: Tri(vals.Get("weapons")), FanFight: Tri(vals.Get("fan_fight")),
		Sec7DoublesBan: Tri(vals.Get("sec7_doubles_ban")), Publish: Tri(vals.Get("publish")),
		PrisonMonths: Int(f, "prison_months", vals.Get("prison_months")), FineDays: Int(f, "fine_days", vals.Get("fine_days")),
		NoConversionReason: vals.Get("no_conversion_reason"), AcquittalGround: get("acquittal_ground"),
		ExclusionReason: vals.Get("exclusion_reason")}
	in.Ban.FirstDay = ISODate(f, "ban.first_day", vals.Get("ban.first_day"))
	in.Ban.Months = Int(f, "ban.months", vals.Get("ban.months"))
	in.Ban.LastDayOverride = ISODate(f, "ban.last_day_override", vals.Get("ban.last_day_override"))
	in.Ban.OverrideReason = vals.Get("ban.override_reason")
	if place := get("reporting_duty.place"); place != "" || get("reporting_duty.club") != "" || get("reporting_duty.competition") != "" {
		in.ReportingDuty = &cases.ReportingDuty{Place: place, Club: get("reporting_duty.club"), Competition: get("reporting_duty.competition")}
	}
	cs := causes(vals)
	typed := len(cs) > 0
	for _, k := range append(dosimetryMonths, "dosimetry.base_reasons", "dosimetry.intermediate_reasons", "dosimetry.final_reasons") {
		typed = typed || get(k) != ""
	}
	if typed {
		dz := &decisions.Dosimetry{BaseReasons: vals.Get("dosimetry.base_reasons"), IntermediateReasons: vals.Get("dosimetry.intermediate_reasons"),
			FinalReasons: vals.Get("dosimetry.final_reasons"), Causes: cs}
		for i, dst := range []*int{&dz.BaseMonths, &dz.IntermediateMonths, &dz.FinalMonths} {
			k := dosimetryMonths[i]
			if n := Int(f, k, vals.Get(k)); n != nil {
				*dst = *n
			} else if get(k) == "" && (len(cs) == 0 || i < 2) { // with causes, the final penalty is computed
				f.Add(k, "required", "Informe a pena desta fase, em meses (CP, art. 68).")
			}
		}
		for k, dst := range map[string]*int{"dosimetry.intermediate_days": &dz.IntermediateDays, "dosimetry.final_days": &dz.FinalDays} {
			if n := Int(f, k, vals.Get(k)); n != nil {
				*dst = *n
			}
		}
		in.Dosimetry = dz
	}
	if get("text.report") != "" || get("text.reasoning") != "" {
		in.Text = &decisions.SentenceText{Report: vals.Get("text.report"), Reasoning: vals.Get("text.reasoning")}
	}
	if vals.Get("precautionary_until_final") == "true" || get("precautionary_until_final.first_day") != "" || get("precautionary_until_final.review_on") != "" {
		in.PrecautionaryUntilFinal = &decisions.PrecautionaryInput{
			FirstDay: ISODate(f, "precautionary_until_final.first_day", vals.Get("precautionary_until_final.first_day")),
			ReviewOn: ISODate(f, "precautionary_until_final.review_on", vals.Get("precautionary_until_final.review_on"))}
	}
	return in
}

// DraftInput reads the input saved with a minuta.
func DraftInput(rec *decisions.SentenceRecord) (decisions.SentenceInput, bool) {
	var in decisions.SentenceInput
	if err := json.Unmarshal(rec.Input, &in); err != nil {
		return in, false
	}
	return in, true
}

// DraftForm is the sentence form of a saved minuta's input (dates as
// dd/mm/aaaa), to continue it.
func DraftForm(in decisions.SentenceInput) url.Values {
	f := url.Values{}
	set := func(k, v string) {
		if v != "" {
			f.Set(k, v)
		}
	}
	setBool := func(k string, b *bool) {
		if b != nil {
			f.Set(k, strconv.FormatBool(*b))
		}
	}
	setInt := func(k string, n *int) {
		if n != nil {
			f.Set(k, strconv.Itoa(*n))
		}
	}
	br := func(iso string) string {
		if d, err := civil.Parse(iso); err == nil {
			return d.BR()
		}
		return iso
	}
	set("defendant_id", strconv.FormatInt(in.DefendantID, 10))
	set("outcome", in.Outcome)
	setBool("eligible", in.Eligible)
	setBool("organiser", in.Organiser)
	setBool("sec7", in.Sec7)
	set("sec7_ground", in.Sec7Ground)
	setBool("weapons", in.Weapons)
	setBool("fan_fight", in.FanFight)
	setBool("sec7_doubles_ban", in.Sec7DoublesBan)
	setBool("publish", in.Publish)
	setInt("prison_months", in.PrisonMonths)
	setInt("fine_days", in.FineDays)
	set("no_conversion_reason", in.NoConversionReason)
	set("acquittal_ground", in.AcquittalGround)
	set("exclusion_reason", in.ExclusionReason)
	set("ban.first_day", br(in.Ban.FirstDay))
	setInt("ban.months", in.Ban.Months)
	set("ban.last_day_override", br(in.Ban.LastDayOverride))
	set("ban.override_reason", in.Ban.OverrideReason)
	if r := in.ReportingDuty; r != nil {
		set("reporting_duty.place", r.Place)
		set("reporting_duty.club", r.Club)
		set("reporting_duty.competition", r.Competition)
	}
	if dz := in.Dosimetry; dz != nil {
		f.Set("dosimetry.base_months", strconv.Itoa(dz.BaseMonths))
		f.Set("dosimetry.intermediate_months", strconv.Itoa(dz.IntermediateMonths))
		f.Set("dosimetry.final_months", strconv.Itoa(dz.FinalMonths))
		if dz.IntermediateDays > 0 {
			f.Set("dosimetry.intermediate_days", strconv.Itoa(dz.IntermediateDays))
		}
		if dz.FinalDays > 0 {
			f.Set("dosimetry.final_days", strconv.Itoa(dz.FinalDays))
		}
		for i, c := range dz.Causes {
			var fr string
			if json.Unmarshal(c.Fraction, &fr) != nil {
				fr = string(c.Fraction)
			}
			set(causeField(i, "kind"), c.Kind)
			set(causeField(i, "fraction"), fr)
			set(causeField(i, "article"), c.Article)
		}
		set("dosimetry.base_reasons", dz.BaseReasons)
		set("dosimetry.intermediate_reasons", dz.IntermediateReasons)
		set("dosimetry.final_reasons", dz.FinalReasons)
	}
	if t := in.Text; t != nil {
		set("text.report", t.Report)
		set("text.reasoning", t.Reasoning)
	}
	if p := in.PrecautionaryUntilFinal; p != nil {
		f.Set("precautionary_until_final", "true")
		set("precautionary_until_final.first_day", br(p.FirstDay))
		set("precautionary_until_final.review_on", br(p.ReviewOn))
	}
	return f
}
