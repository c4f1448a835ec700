package sanctions

import (
	"fmt"
	"slices"
	"strings"

	"github.com/juizado/juizado/internal/civil"
)

// lei14532From is the day Lei 14.532/2023 took effect (published in an
// extra edition of the DOU of 11/01/2023): it added art. 20, § 2º-A to Lei
// 7.716/1989 (racism in a sporting context).
var lei14532From = civil.MustParse("2023-01-11")

// Lei 7.716/1989, art. 20, § 2º-A (Lei 14.532/2023): reclusão de 2 a 5 anos e
// proibição de frequência, por 3 anos, a locais destinados a práticas
// esportivas.
const (
	law7716 = "Lei 7.716/1989 (Lei 14.532/2023)"
	// Art7716 is the article of racism in a sporting context.
	Art7716 = "art. 20, § 2º-A"
	// RacismBanMonths is the fixed, cumulative ban of Lei 7.716/1989, art.
	// 20, § 2º-A: 3 years.
	RacismBanMonths = 36
)

// caputWords are the conduct words of art. 201's caput and § 1º (and of
// 41-B / 39): tumult, violence, invasion, instruments of violence, fan
// fights, and organising or inciting the tumult (§ 6º presupposes it). § 7º
// (racism, against women) is a cause of increase and needs one of them.
var caputWords = []string{WordViolence, WordRiot, WordInvasion, WordWeapons, WordFanFight, WordOrganiser}

// PersonalWords are the conduct words that describe what one defendant did,
// not the event: § 1º II (weapons), § 1º III (fan_fight), § 6º
// (organiser) and § 7º (racism, against_women). A penalty is personal (CF,
// art. 5º, XLV–XLVI): in a case with several defendants the judge states
// them per defendant; the case's conduct list gives them only to a sole
// defendant.
var PersonalWords = []string{WordWeapons, WordFanFight, WordOrganiser, WordRacism, WordAgainstWomen}

// aloneRange answers a person's query whose conduct has no word of the
// caput or § 1º: racism alone is Lei 7.716/1989, art. 20, § 2º-A (facts from
// 11/01/2023), with a fixed cumulative ban; against_women alone is no
// offence of art. 201 (§ 7º is a cause of increase), a NotCoveredError.
func aloneRange(q Query) (Range, error) {
	if !slices.Contains(q.Conduct, WordRacism) {
		return Range{}, &NotCoveredError{Field: "conduct",
			Reason: "against_women sem conduta do caput ou do § 1º não é infração do art. 201 da Lei 14.597/2023: o § 7º (penas em dobro para infrações contra as mulheres) é causa de aumento e pressupõe tumulto, violência, invasão, porte de instrumentos ou briga de torcidas"}
	}
	if q.FactsDate.Before(lei14532From) {
		return Range{}, &NotCoveredError{Field: "conduct",
			Reason: fmt.Sprintf("fatos em %s: o racismo em contexto esportivo sem conduta de tumulto, violência ou invasão só é o crime do art. 20, § 2º-A, da Lei 7.716/1989 para fatos a partir de 11/01/2023 (Lei 14.532/2023); antes, não há impedimento de comparecimento previsto para ele", q.FactsDate.BR())}
	}
	r := Range{
		Law: law7716, Article: Art7716, Offence: Art7716, Cumulative: true,
		MinMonths: RacismBanMonths, MaxMonths: RacismBanMonths,
		PrisonMinMonths: 24, PrisonMaxMonths: 60, Fine: false,
		Rite: RiteOrdinary, Eligible: true, Sec7: false,
		Reason: "racismo em contexto esportivo sem conduta do caput ou do § 1º do art. 201: crime do art. 20, § 2º-A, da Lei 7.716/1989, punido com reclusão de 2 a 5 anos e proibição de frequência, por 3 anos, a locais destinados a práticas esportivas, cumulativa com a reclusão (não é conversão)",
		Why:    fmt.Sprintf("Fatos em %s: racismo no contexto de atividade esportiva, sem tumulto, violência ou invasão: aplica-se o art. 20, § 2º-A, da Lei 7.716/1989, incluído pela Lei 14.532/2023 (em vigor desde 11/01/2023).", q.FactsDate.BR()),
	}
	if q.Eligible != nil && !*q.Eligible {
		r.Notes = append(r.Notes, "eligible=false ignorado: a proibição de frequência do art. 20, § 2º-A, da Lei 7.716/1989 é pena cumulativa, não conversão; não depende de primariedade")
	}
	if slices.Contains(q.Conduct, WordAgainstWomen) {
		r.Notes = append(r.Notes, "against_women sem conduta do caput ou do § 1º não é infração do art. 201; considerado só o racismo (art. 20, § 2º-A, da Lei 7.716/1989)")
	}
	return r, nil
}

// finish fills the prison range, the fine, the rite and the JECRIM measures
// of a person's or group's range (Lei 14.597/2023, art. 201, caput, §§ 6º
// and 7º; Lei 10.671/2003, art. 41-B; Lei 9.099/1995, arts. 61, 76, 89).
func finish(r *Range) {
	switch {
	case strings.HasPrefix(r.Article, "art. 201") || strings.HasPrefix(r.Article, "art. 41-B"):
		lo, hi := 12, 24 // reclusão de 1 a 2 anos
		if r.Organiser { // § 6º: + 1/3 até a metade
			lo, hi = lo+lo/3, hi+hi/2
		}
		if r.Sec7 { // § 7º: em dobro
			lo, hi = 2*lo, 2*hi
		}
		r.PrisonMinMonths, r.PrisonMaxMonths, r.Fine = lo, hi, true
		r.Offence = "art. 201"
		if strings.HasPrefix(r.Article, "art. 41-B") {
			r.Offence = "art. 41-B"
		}
		if r.Organiser {
			r.Offence += ", § 6º"
		}
		if r.Sec7 {
			r.Offence += " c/c § 7º"
		}
	default:
		// Art. 39 of 2003 (a sanction imposed by sentence, no prison), group
		// bans (civil) and Lei 7.716/1989 (set by aloneRange).
		if r.Offence == "" {
			r.Offence = r.Article
		}
	}
	switch {
	case strings.HasPrefix(r.Article, "art. 39-") || strings.HasPrefix(r.Article, "art. 18"):
		r.Rite = RiteCivil
	case r.PrisonMaxMonths > 24:
		r.Rite = RiteOrdinary
	default:
		r.Rite = RiteJECRIM
	}
	r.PleaAllowed = r.Rite == RiteJECRIM && !r.Organiser
	r.SuspensionAllowed = r.Rite != RiteCivil && r.PrisonMinMonths <= 12 && r.Article != "art. 39"
	if r.Sec7 && r.Rite == RiteOrdinary && !r.Organiser {
		r.Notes = append(r.Notes, fmt.Sprintf("pena máxima de %s com o § 7º: fora do JECRIM (Lei 9.099/1995, art. 61), rito ordinário; sem transação penal (art. 76) nem suspensão condicional (art. 89: pena mínima acima de 1 ano)", monthsPT(r.PrisonMaxMonths)))
	}
	if r.Organiser {
		r.Notes = append(r.Notes, fmt.Sprintf("pena de %s a %s com o § 6º: fora do JECRIM (Lei 9.099/1995, art. 61), rito ordinário", monthsPT(r.PrisonMinMonths), monthsPT(r.PrisonMaxMonths)))
	}
}

// CheckPrison checks the reclusão fixed by the dosimetry, in months, against
// r (Lei 14.597/2023, art. 201, caput, §§ 6º, 7º; Lei 10.671/2003, art.
// 41-B; Lei 7.716/1989, art. 20, § 2º-A). It returns a Portuguese message,
// "" when months fits.
func CheckPrison(r Range, months int) string {
	if r.PrisonMaxMonths == 0 {
		return fmt.Sprintf("o %s não prevê pena privativa de liberdade", cite(r.Article, r.Law))
	}
	if months < r.PrisonMinMonths || months > r.PrisonMaxMonths {
		return fmt.Sprintf("a reclusão deve estar entre %d e %d meses (%s)", r.PrisonMinMonths, r.PrisonMaxMonths, cite(r.Article, r.Law))
	}
	return ""
}

// Fine days, dias-multa (CP, art. 49: no mínimo 10 e no máximo 360).
const (
	MinFineDays = 10
	MaxFineDays = 360
)

// CheckFineDays checks a fine in dias-multa (CP, art. 49): a Portuguese
// message, "" when days is within 10..360.
func CheckFineDays(days int) string {
	if days < MinFineDays || days > MaxFineDays {
		return fmt.Sprintf("a multa é de %d a %d dias-multa (CP, art. 49)", MinFineDays, MaxFineDays)
	}
	return ""
}
