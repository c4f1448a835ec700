package decisions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
)

// checkDosimetry checks the three phases of dz (CP arts. 59 and 68) for an
// offence of range rg, adding the faults to f: the base within the type's
// range (the caput's, 12 to 24 months, for art. 201 and 41-B; the whole
// range for Lei 7.716/1989, art. 20, § 2º-A); then, with causes, the
// third phase computed by sanctions.DosimetryThirdPhase (the intermediate
// within the type's range, Súmula 231 STJ; the final penalty where the
// causes take it, below the minimum or above the maximum, CP art. 68),
// written back into dz (FinalMonths, FinalDays, ThirdPhase) and returned;
// without causes, the intermediate within the type's range and the final
// within rg's prison range, as the judge states them. months is the
// prison_months given, which must agree with the final penalty. ok is
// false when the phases are at fault (the prison term is then not
// checked again).
func checkDosimetry(f *errs.Fields, rg sanctions.Range, dz *Dosimetry, months *int) (third *sanctions.ThirdPhase, ok bool) {
	for field, text := range map[string]string{"dosimetry.base_reasons": dz.BaseReasons, "dosimetry.intermediate_reasons": dz.IntermediateReasons, "dosimetry.final_reasons": dz.FinalReasons} {
		cases.CheckText(f, field, text, cases.MaxLong, true)
	}
	lo, hi := rg.PrisonMinMonths, rg.PrisonMaxMonths
	baseLo, baseHi := 12, 24 // the caput's range (art. 201 / 41-B)
	if rg.Cumulative {
		baseLo, baseHi = lo, hi
	}
	n := len(*f)
	switch {
	case hi == 0:
		f.Add("dosimetry", "no_prison", fmt.Sprintf("o %s da %s não prevê reclusão: não há dosimetria.", rg.Article, rg.Law))
	case dz.BaseMonths < baseLo || dz.BaseMonths > baseHi:
		f.Add("dosimetry.base_months", "range", fmt.Sprintf("a pena-base (CP, art. 59) fica entre o mínimo e o máximo do tipo: de %d a %d meses.", baseLo, baseHi))
	case len(dz.Causes) > 0:
		choice := flagCauses(f, rg, dz.Causes)
		third = thirdPhase(f, dz, baseLo, baseHi)
		if third != nil && choice != "" {
			third.Notes = append(third.Notes, choice)
		}
		if third != nil && months != nil && *months != third.Final.Months {
			f.Add("prison_months", "dosimetry", fmt.Sprintf("prison_months (%d) difere da pena definitiva da dosimetria (%s).", *months, third.Final.Text()))
		}
		if third != nil && len(*f) == n { // the input keeps what was sent until it is all good
			dz.FinalMonths, dz.FinalDays, dz.ThirdPhase = third.Final.Months, third.Final.Days, third
		}
	case dz.IntermediateMonths < baseLo || dz.IntermediateMonths > baseHi:
		f.Add("dosimetry.intermediate_months", "range", fmt.Sprintf("a pena intermediária (agravantes e atenuantes, CP, arts. 61 a 66) não sai dos limites do tipo, de %d a %d meses (Súmula 231 do STJ).", baseLo, baseHi))
	case dz.FinalMonths < lo || dz.FinalMonths > hi:
		f.Add("dosimetry.final_months", "range", fmt.Sprintf("a pena definitiva deve estar entre %d e %d meses (%s); para ir além por causas de diminuição ou de aumento (CP, art. 68), informe-as em dosimetry.causes, cada uma com o artigo e a fração.", lo, hi, rg.Offence))
	case months != nil && *months != dz.FinalMonths:
		f.Add("prison_months", "dosimetry", fmt.Sprintf("prison_months (%d) difere da pena definitiva da dosimetria (%d meses).", *months, dz.FinalMonths))
	}
	return third, len(*f) == n
}

// flagCauses adds to f, on dosimetry.causes, the causes of increase this
// defendant's flags put into the third phase and the causes leave out:
// the organiser's (Lei 14.597/2023, art. 201, § 6º: 1/3 to 1/2) and § 7º's
// (doubled), which the offence's range of rg already carries; a penalty is
// personal (CF art. 5º, XLVI), so a flag the judge set is a cause he
// applies. With both flags the two causes of increase of the special part
// concur (CP art. 68, parágrafo único): the judge may apply both or limit
// himself to the one that increases most, § 7º's (the double; § 6º's is at
// most a half), never to § 6º's alone (rule sec68). It returns the note
// that records the judge's choice of § 7º alone for the sentence ("" when
// he applied what the flags carry).
func flagCauses(f *errs.Fields, rg sanctions.Range, in []CauseInput) string {
	cites := func(key string) bool {
		for _, c := range in {
			if sanctions.CitesCause(c.Article, key) {
				return true
			}
		}
		return false
	}
	sec6, sec7 := rg.Organiser && cites(sanctions.CauseOrganiser), rg.Sec7 && cites(sanctions.CauseSec7)
	switch {
	case rg.Organiser && rg.Sec7 && sec6 && !sec7:
		f.Add("dosimetry.causes", "sec68", "concorrem as causas de aumento do art. 201, §§ 6º (de 1/3 até a metade) e 7º (em dobro), da Lei 14.597/2023: o(a) juiz(a) pode limitar-se a um só aumento, prevalecendo a causa que mais aumente (CP, art. 68, parágrafo único), a do § 7º; aplicar só a do § 6º não é permitido. Informe a causa do § 7º (kind increase, fraction 1/1, article \"Lei 14.597/2023, art. 201, § 7º\"), com ou sem a do § 6º.")
	case rg.Organiser && rg.Sec7 && !sec6 && !sec7:
		f.Add("dosimetry.causes", "sec7", "o réu organizou, preparou ou incitou (art. 201, § 6º) e o § 7º do art. 201 da Lei 14.597/2023 aplica as penas em dobro: informe a causa do § 7º (kind increase, fraction 1/1, article \"Lei 14.597/2023, art. 201, § 7º\") e, se não se limitar a ela (CP, art. 68, parágrafo único), também a do § 6º.")
	case rg.Organiser && rg.Sec7 && !sec6:
		return "Concorrem as causas de aumento do art. 201, §§ 6º e 7º, da Lei 14.597/2023: o(a) juiz(a) limitou-se à do § 7º (em dobro), a que mais aumenta (CP, art. 68, parágrafo único)."
	case rg.Organiser && !sec6:
		f.Add("dosimetry.causes", "sec6", "o réu organizou, preparou ou incitou (Lei 14.597/2023, art. 201, § 6º): a causa de aumento de 1/3 até a metade entra na terceira fase; informe-a (article \"Lei 14.597/2023, art. 201, § 6º\").")
	case rg.Sec7 && !sec7:
		f.Add("dosimetry.causes", "sec7", "o § 7º do art. 201 da Lei 14.597/2023 aplica as penas em dobro: informe a causa de aumento (kind increase, fraction 1/1, article \"Lei 14.597/2023, art. 201, § 7º\").")
	}
	return ""
}

// thirdPhase computes the third phase of dz (CP art. 68) on the type's
// range [baseLo, baseHi] months: the causes read (parseCauses), the final
// penalty the judge stated (FinalMonths/FinalDays; none: computed) checked
// against the result; nil with the faults in f (checkDosimetry writes the
// result into dz).
func thirdPhase(f *errs.Fields, dz *Dosimetry, baseLo, baseHi int) *sanctions.ThirdPhase {
	causes, ok := parseCauses(f, dz.Causes)
	if !ok {
		return nil
	}
	in := sanctions.ThirdPhaseInput{MinMonths: baseLo, MaxMonths: baseHi, Causes: causes,
		Intermediate: sanctions.Penalty{Months: dz.IntermediateMonths, Days: dz.IntermediateDays}}
	if dz.FinalMonths != 0 || dz.FinalDays != 0 {
		in.Final = &sanctions.Penalty{Months: dz.FinalMonths, Days: dz.FinalDays}
	}
	tp, err := sanctions.DosimetryThirdPhase(in)
	var fe *errs.Error
	if errors.As(err, &fe) {
		*f = append(*f, fe.Fields...)
		return nil
	}
	if tp.Final.Months < 1 {
		// sentences.prison_months counts whole months (at least one).
		f.Add("dosimetry.causes", "min_month", fmt.Sprintf("a pena definitiva de %s fica abaixo de um mês: confira as frações das causas de diminuição.", tp.Final.Text()))
		return nil
	}
	return &tp
}

// parseCauses reads the causes of the third phase (at most
// sanctions.MaxCauses): each fraction a string "a/b" or an object {num,
// den} (parseFraction), else an error on dosimetry.causes[i].fraction; the
// kind and the article are checked by sanctions.DosimetryThirdPhase.
func parseCauses(f *errs.Fields, in []CauseInput) ([]sanctions.Cause, bool) {
	if len(in) > sanctions.MaxCauses {
		f.Add("dosimetry.causes", "max", fmt.Sprintf("no máximo %d causas de aumento ou de diminuição.", sanctions.MaxCauses))
		return nil, false
	}
	out := make([]sanctions.Cause, len(in))
	ok := true
	for i, c := range in {
		fr, good := parseFraction(c.Fraction)
		if !good {
			f.Add(fmt.Sprintf("dosimetry.causes[%d].fraction", i), "fraction", "informe a fração da causa como \"1/3\" (numerador e denominador inteiros de 1 a 100).")
			ok = false
		}
		out[i] = sanctions.Cause{Kind: sanctions.CauseKind(strings.TrimSpace(c.Kind)), Fraction: fr, Article: strings.TrimSpace(c.Article)}
	}
	return out, ok
}

// parseFraction reads a cause's fraction: the string "1/3"
// (sanctions.ParseFraction) or the object {"num": 1, "den": 3}.
func parseFraction(raw json.RawMessage) (sanctions.Fraction, bool) {
	raw = bytes.TrimSpace(raw)
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return sanctions.ParseFraction(s)
	}
	var fr struct {
		Num *int `json:"num"`
		Den *int `json:"den"`
	}
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &fr) != nil || fr.Num == nil || fr.Den == nil || *fr.Den == 0 {
		return sanctions.Fraction{}, false
	}
	return sanctions.Fraction{Num: *fr.Num, Den: *fr.Den}, true
}

// prisonPenalty is the reclusão of rec as the docket writes it:
// cases.MonthsText of the months, or, with the days a third phase left,
// sanctions.Penalty.Text ("9 meses e 10 dias").
func prisonPenalty(rec SentenceRecord) string {
	if rec.PrisonDays == nil {
		return cases.MonthsText(*rec.PrisonMonths)
	}
	return sanctions.Penalty{Months: *rec.PrisonMonths, Days: *rec.PrisonDays}.Text()
}
