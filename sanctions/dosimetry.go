package sanctions

import (
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/juizado/juizado/internal/errs"
)

// DaysPerMonth is the month of the dosimetry's arithmetic: fractions of a
// penalty are taken on months of 30 days and years of 12 months, the
// practice of the courts (the calendar of CP art. 10 counts the serving of
// a penalty, not its computation).
const DaysPerMonth = 30

// Penalty is a prison term as a sentence states it: Months (of the
// dosimetry, 12 to a year) and Days (0 to 29, DaysPerMonth). Fractions of
// a day are discarded (CP art. 11).
type Penalty struct {
	Months int `json:"months"`
	Days   int `json:"days"`
}

// TotalDays is p in days of the dosimetry (Months × 30 + Days).
func (p Penalty) TotalDays() int { return p.Months*DaysPerMonth + p.Days }

// PenaltyOfDays is the penalty of n days of the dosimetry: 320 → 10 months
// and 20 days.
func PenaltyOfDays(n int) Penalty { return Penalty{Months: n / DaysPerMonth, Days: n % DaysPerMonth} }

// Text writes p in Portuguese as sentences do: "1 ano, 2 meses e 10 dias",
// "8 meses", "2 anos".
func (p Penalty) Text() string {
	var parts []string
	if y := p.Months / 12; y == 1 {
		parts = append(parts, "1 ano")
	} else if y > 1 {
		parts = append(parts, fmt.Sprintf("%d anos", y))
	}
	if m := p.Months % 12; m > 0 {
		parts = append(parts, monthsPT(m))
	}
	if p.Days == 1 {
		parts = append(parts, "1 dia")
	} else if p.Days > 1 {
		parts = append(parts, fmt.Sprintf("%d dias", p.Days))
	}
	switch len(parts) {
	case 0:
		return "0 dia"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " e " + parts[len(parts)-1]
}

// CauseKind is whether a cause of the third phase decreases or increases
// the penalty (causas de diminuição e de aumento, CP art. 68).
type CauseKind string

// The kinds of a cause.
const (
	CauseDecrease CauseKind = "decrease" // causa de diminuição (minorante)
	CauseIncrease CauseKind = "increase" // causa de aumento (majorante)
)

// Fraction is the fraction a cause applies, Num/Den: 1/3, 2/3, 1/1 (the
// "em dobro" of Lei 14.597/2023, art. 201, § 7º), 2/1 (up to the triple,
// CP art. 71, parágrafo único). Both in 1..100.
type Fraction struct {
	Num int `json:"num"`
	Den int `json:"den"`
}

// String writes f as "1/3".
func (f Fraction) String() string { return fmt.Sprintf("%d/%d", f.Num, f.Den) }

// rat is f as a rational number.
func (f Fraction) rat() *big.Rat { return big.NewRat(int64(f.Num), int64(f.Den)) }

// ParseFraction reads "1/3" (spaces allowed); ok is false for anything
// else, a zero denominator included.
func ParseFraction(s string) (Fraction, bool) {
	n, d, found := strings.Cut(strings.ReplaceAll(s, " ", ""), "/")
	num, err1 := strconv.Atoi(n)
	den, err2 := strconv.Atoi(d)
	if !found || err1 != nil || err2 != nil || den == 0 {
		return Fraction{}, false
	}
	return Fraction{Num: num, Den: den}, true
}

// Cause is a cause of decrease or increase of the third phase (CP art.
// 68): its kind, the fraction the judge applies, and the article that
// provides it, as the sentence cites it ("CP, art. 14, II"; required).
type Cause struct {
	Kind     CauseKind `json:"kind"`
	Fraction Fraction  `json:"fraction"`
	Article  string    `json:"article"`
}

// knownCause is a cause whose legal fraction range DosimetryThirdPhase
// checks: key (articleKey), name, kind, lowest and highest fraction.
type knownCause struct {
	key, name, cite string
	kind            CauseKind
	lo, hi          Fraction
}

// knownCauses are the causes whose fractions the law fixes and the
// sentences of this court meet.
var knownCauses = []knownCause{
	// CP art. 14, II: "pune-se a tentativa com a pena correspondente ao
	// crime consumado, diminuída de um a dois terços".
	{"cp|14||ii", "tentativa", "CP, art. 14, II", CauseDecrease, Fraction{1, 3}, Fraction{2, 3}},
	// CP art. 16: "a pena será reduzida de um a dois terços".
	{"cp|16||", "arrependimento posterior", "CP, art. 16", CauseDecrease, Fraction{1, 3}, Fraction{2, 3}},
	// CP art. 29, § 1º: "a pena pode ser diminuída de um sexto a um terço".
	{"cp|29|1|", "participação de menor importância", "CP, art. 29, § 1º", CauseDecrease, Fraction{1, 6}, Fraction{1, 3}},
	// CP art. 71, caput: "aumentada, em qualquer caso, de um sexto a dois
	// terços".
	{"cp|71||", "crime continuado", "CP, art. 71, caput", CauseIncrease, Fraction{1, 6}, Fraction{2, 3}},
	// CP art. 71, parágrafo único: "aumentar a pena ... até o triplo".
	{"cp|71|pu|", "crime continuado específico", "CP, art. 71, parágrafo único", CauseIncrease, Fraction{0, 1}, Fraction{2, 1}},
	// Lei 14.597/2023, art. 201, § 6º: "aumentadas de 1/3 (um terço) até a
	// metade" for the organiser, preparer or inciter.
	{"lge|201|6|", "organização, preparação ou incitação", "Lei 14.597/2023, art. 201, § 6º", CauseIncrease, Fraction{1, 3}, Fraction{1, 2}},
	// Lei 14.597/2023, art. 201, § 7º: "as penas serão aplicadas em dobro".
	{"lge|201|7|", "racismo ou infração contra a mulher", "Lei 14.597/2023, art. 201, § 7º", CauseIncrease, Fraction{1, 1}, Fraction{1, 1}},
}

// Keys (articleKey) of the causes of increase of Lei 14.597/2023, art.
// 201, for CitesCause: § 6º, the organiser, preparer or inciter (1/3 to
// 1/2), and § 7º, racism or an offence against women (doubled).
const (
	CauseOrganiser = "lge|201|6|"
	CauseSec7      = "lge|201|7|"
)

// CitesCause reports whether the citation article names the cause of key
// (CauseOrganiser, CauseSec7; read as articleKey reads a cause's article:
// "Lei 14.597/2023, art. 201, § 6º" names CauseOrganiser).
func CitesCause(article, key string) bool { return articleKey(article) == key }

// Patterns of articleKey.
var (
	reArticle = regexp.MustCompile(`\bart(?:igo|\.)?\s*(\d+)(?:-([a-z]))?`)
	reParagr  = regexp.MustCompile(`§\s*(\d+)`)
	reUnique  = regexp.MustCompile(`par[áa]grafo\s+[úu]nico|par\.\s*[úu]nico|§\s*[úu]nico|p\.\s*[úu]nico`)
	reInciso  = regexp.MustCompile(`(?:^|[\s,;])([ivx]+)(?:$|[\s,;.])`)
)

// articleKey reads an article's citation into "law|article|paragraph|
// inciso" ("cp|14||ii", "lge|201|6|", "cp|71|pu|"): law "cp" for the
// Código Penal or when no law is named, "lge" for Lei 14.597/2023, "" for
// another law (no known cause).
func articleKey(s string) string {
	s = strings.NewReplacer("º", "", "°", "", "ª", "").Replace(strings.ToLower(s))
	law := "cp"
	switch {
	case strings.Contains(s, "14.597") || strings.Contains(s, "lge") || strings.Contains(s, "lei geral do esporte"):
		law = "lge"
	case strings.Contains(s, "lei") || strings.Contains(s, "decreto"):
		law = ""
	}
	m := reArticle.FindStringSubmatchIndex(s)
	if m == nil || law == "" {
		return ""
	}
	art := s[m[2]:m[3]]
	if m[4] >= 0 {
		art += "-" + s[m[4]:m[5]]
	}
	rest := s[m[1]:]
	para := ""
	if reUnique.MatchString(rest) {
		para = "pu"
	} else if p := reParagr.FindStringSubmatch(rest); p != nil {
		para = p[1]
	}
	inciso := ""
	if i := reInciso.FindStringSubmatch(rest); i != nil {
		inciso = i[1]
	}
	return law + "|" + art + "|" + para + "|" + inciso
}

// specialPart: the cause is of the special part (CP arts. 121 on, or
// another law), where CP art. 68, parágrafo único, lets the judge apply
// only the one that increases or decreases most.
func specialPart(key string) bool {
	law, rest, _ := strings.Cut(key, "|")
	art, _, _ := strings.Cut(rest, "|")
	n, _ := strconv.Atoi(strings.SplitN(art, "-", 2)[0])
	return law != "cp" || n > 120
}

// ThirdPhaseInput is the third phase of the dosimetry (CP art. 68): the
// offence's abstract range in months (MinMonths, MaxMonths: the type's,
// before the causes — 12 to 24 for Lei 14.597/2023, art. 201, caput), the
// intermediate penalty (after the second phase), the causes in the order
// the sentence applies them, and the final penalty the judge states (nil:
// computed).
type ThirdPhaseInput struct {
	MinMonths, MaxMonths int
	Intermediate         Penalty
	Causes               []Cause
	Final                *Penalty
}

// CauseStep is one cause applied: the cause, its name and legal range in
// Portuguese when the article is known ("tentativa", "de 1/3 a 2/3"), and
// the penalty before and after it (fractions of a day discarded for
// display only: the chain is exact, see DosimetryThirdPhase).
type CauseStep struct {
	Cause  Cause   `json:"cause"`
	Name   string  `json:"name"`
	Range  string  `json:"range"`
	Before Penalty `json:"before"`
	After  Penalty `json:"after"`
}

// ThirdPhase is the result of DosimetryThirdPhase: the intermediate
// penalty, the trail of causes, the final penalty, whether it is below the
// abstract minimum or above the maximum (lawful in the third phase), and
// notes in Portuguese for the sentence (one per cause, then the range).
type ThirdPhase struct {
	Intermediate Penalty     `json:"intermediate"`
	Steps        []CauseStep `json:"steps"`
	Final        Penalty     `json:"final"`
	BelowMinimum bool        `json:"below_minimum"`
	AboveMaximum bool        `json:"above_maximum"`
	Notes        []string    `json:"notes"`
}

// MaxCauses bounds the causes of one third phase.
const MaxCauses = 10

// MaxFinalMonths bounds the final penalty the third phase may reach: 40
// years, the longest time a penalty of deprivation of liberty may be
// served (CP art. 75, as amended by Lei 13.964/2019). A chain of causes
// past it is refused on dosimetry.causes: it is a typing error, never a
// sentence (and it would not fit the store).
const MaxFinalMonths = 40 * 12

// CheckIntermediate checks the intermediate penalty of the second phase
// (aggravating and mitigating circumstances, CP arts. 61 to 66) against
// the abstract range [minMonths, maxMonths]: a mitigating circumstance
// cannot take it below the minimum (Súmula 231 do STJ), nor an aggravating
// one above the maximum. Only the second phase is so bound; the causes of
// the third go beyond (DosimetryThirdPhase). Errors, errs.Invalid:
// dosimetry.intermediate_days outside 0..29, dosimetry.intermediate_months
// outside the range.
func CheckIntermediate(minMonths, maxMonths int, p Penalty) error {
	if p.Days < 0 || p.Days >= DaysPerMonth {
		return errs.InvalidField("dosimetry.intermediate_days", "range", "os dias da pena intermediária vão de 0 a 29 (meses de 30 dias).")
	}
	if p.Months < 0 || p.TotalDays() < minMonths*DaysPerMonth || p.TotalDays() > maxMonths*DaysPerMonth {
		return errs.InvalidField("dosimetry.intermediate_months", "range", fmt.Sprintf("a pena intermediária (agravantes e atenuantes, CP, arts. 61 a 66) não sai dos limites do tipo, de %s a %s (Súmula 231 do STJ); só as causas de aumento e de diminuição da terceira fase (CP, art. 68) vão além.", PenaltyOfDays(minMonths*DaysPerMonth).Text(), PenaltyOfDays(maxMonths*DaysPerMonth).Text()))
	}
	return nil
}

// DosimetryThirdPhase applies the causes of decrease and increase to the
// intermediate penalty (CP art. 68, "por último, as causas de diminuição e
// de aumento"):
//
//   - each cause in the order given, on the penalty the previous one left
//     (the cascade the courts use); the arithmetic is exact and only the
//     final penalty discards fractions of a day (CP art. 11), so the order
//     cannot change the result (a product commutes) and the trail follows
//     the sentence's own order;
//   - every cause given is applied: when two causes of the special part
//     (another law, or CP arts. 121 on) of the same kind are given, the
//     judge could have applied only the one that most increases or
//     decreases (CP art. 68, parágrafo único) — his choice, noted, not
//     imposed; the causes of the general part (CP arts. 14, 16, 29, 71)
//     always all apply;
//   - the final penalty may go below the abstract minimum or above the
//     maximum (Súmula 231 do STJ binds the second phase only,
//     CheckIntermediate);
//   - a known article's fraction must lie in its legal range (CP art. 14,
//     II and art. 16: 1/3 to 2/3 decrease; art. 29, § 1º: 1/6 to 1/3
//     decrease; art. 71, caput: 1/6 to 2/3 increase; art. 71, parágrafo
//     único: up to the triple; Lei 14.597/2023, art. 201, § 6º: 1/3 to 1/2
//     increase, § 7º: doubled); another article's is taken as given.
//
// Errors, errs.Invalid naming each field at fault: CheckIntermediate's
// (when MaxMonths > 0), dosimetry.causes over MaxCauses or leaving no
// penalty (less than a day), dosimetry.causes[i].kind neither decrease nor
// increase or not the known article's, dosimetry.causes[i].fraction with
// a term outside 1..100, a decrease not below 1 (a decrease of the whole is
// an exemption from penalty, not a cause of decrease) or outside the
// known article's range, dosimetry.causes[i].article empty,
// dosimetry.final_months when in.Final differs from the result.
func DosimetryThirdPhase(in ThirdPhaseInput) (ThirdPhase, error) {
	if in.MaxMonths > 0 {
		if err := CheckIntermediate(in.MinMonths, in.MaxMonths, in.Intermediate); err != nil {
			return ThirdPhase{}, err
		}
	} else if in.Intermediate.Days < 0 || in.Intermediate.Days >= DaysPerMonth || in.Intermediate.TotalDays() < 1 {
		return ThirdPhase{}, errs.InvalidField("dosimetry.intermediate_months", "range", "informe a pena intermediária, em meses e dias (0 a 29).")
	}
	if len(in.Causes) > MaxCauses {
		return ThirdPhase{}, errs.InvalidField("dosimetry.causes", "max", fmt.Sprintf("no máximo %d causas de aumento ou de diminuição.", MaxCauses))
	}
	var f errs.Fields
	knowns := make([]*knownCause, len(in.Causes))
	for i, c := range in.Causes {
		knowns[i] = checkCause(&f, i, c)
	}
	if err := f.Err(); err != nil {
		return ThirdPhase{}, err
	}
	r := ThirdPhase{Intermediate: in.Intermediate, Steps: []CauseStep{}, Notes: []string{}}
	exact := new(big.Rat).SetInt64(int64(in.Intermediate.TotalDays()))
	for i, c := range in.Causes {
		step := CauseStep{Cause: c, Before: floorPenalty(exact)}
		factor := new(big.Rat).SetInt64(1)
		verb := "aumentada"
		if c.Kind == CauseDecrease {
			factor.Sub(factor, c.Fraction.rat())
			verb = "diminuída"
		} else {
			factor.Add(factor, c.Fraction.rat())
		}
		exact.Mul(exact, factor)
		if exact.Cmp(new(big.Rat).SetInt64(MaxFinalMonths*DaysPerMonth)) > 0 {
			return ThirdPhase{}, errs.InvalidField(fmt.Sprintf("dosimetry.causes[%d].fraction", i), "max",
				fmt.Sprintf("as causas aplicadas levam a pena além de %d anos, o limite de cumprimento das penas (CP, art. 75): confira as frações.", MaxFinalMonths/12))
		}
		step.After = floorPenalty(exact)
		what := ""
		if k := knowns[i]; k != nil {
			step.Name, step.Range = k.name, rangeText(*k)
			what = fmt.Sprintf(" (%s; %s)", k.name, step.Range)
		}
		r.Steps = append(r.Steps, step)
		r.Notes = append(r.Notes, fmt.Sprintf("%s%s: %s de %s, de %s para %s.", strings.TrimSpace(c.Article), what, verb, c.Fraction, step.Before.Text(), step.After.Text()))
	}
	r.Final = floorPenalty(exact)
	if r.Final.TotalDays() < 1 {
		return ThirdPhase{}, errs.InvalidField("dosimetry.causes", "no_penalty", "as causas de diminuição não deixam pena de ao menos um dia (CP, art. 11).")
	}
	if in.Final != nil && *in.Final != r.Final {
		return ThirdPhase{}, errs.InvalidField("dosimetry.final_months", "dosimetry", fmt.Sprintf("a pena definitiva informada (%s) difere da que resulta das causas aplicadas à pena intermediária (%s; frações de dia desprezadas, CP, art. 11).", in.Final.Text(), r.Final.Text()))
	}
	r.Notes = append(r.Notes, r.rangeNotes(in)...)
	return r, nil
}

// checkCause validates cause i into f and returns its known cause, if any.
func checkCause(f *errs.Fields, i int, c Cause) *knownCause {
	field := fmt.Sprintf("dosimetry.causes[%d]", i)
	if strings.TrimSpace(c.Article) == "" {
		f.Add(field+".article", "required", "cite o artigo que prevê a causa (ex.: CP, art. 14, II).")
	}
	if c.Kind != CauseDecrease && c.Kind != CauseIncrease {
		f.Add(field+".kind", "oneof", "use decrease (causa de diminuição) ou increase (causa de aumento).")
		return nil
	}
	fr := c.Fraction
	switch {
	case fr.Num < 1 || fr.Num > 100 || fr.Den < 1 || fr.Den > 100:
		f.Add(field+".fraction", "range", "a fração tem numerador e denominador de 1 a 100 (ex.: 1/3).")
		return nil
	case c.Kind == CauseDecrease && fr.Num >= fr.Den:
		f.Add(field+".fraction", "range", fmt.Sprintf("uma diminuição de %s não deixa pena: a fração fica abaixo de 1 (a isenção de pena não é causa de diminuição).", fr))
		return nil
	}
	key := articleKey(c.Article)
	for k := range knownCauses {
		kc := &knownCauses[k]
		if kc.key != key {
			continue
		}
		if kc.kind != c.Kind {
			f.Add(field+".kind", "article", fmt.Sprintf("o %s (%s) é causa de %s.", kc.cite, kc.name, kindPT(kc.kind)))
			return nil
		}
		if fr.rat().Cmp(kc.lo.rat()) < 0 || fr.rat().Cmp(kc.hi.rat()) > 0 {
			f.Add(field+".fraction", "article", fmt.Sprintf("o %s (%s) prevê %s de %s: %s está fora.", kc.cite, kc.name, kindPT(kc.kind), rangeText(*kc), fr))
			return nil
		}
		return kc
	}
	return nil
}

// kindPT names a kind in Portuguese.
func kindPT(k CauseKind) string {
	if k == CauseDecrease {
		return "diminuição"
	}
	return "aumento"
}

// rangeText is a known cause's range in Portuguese: "de 1/3 a 2/3", "até
// 2/1", "1/1".
func rangeText(k knownCause) string {
	switch {
	case k.lo == k.hi:
		return k.lo.String()
	case k.lo.Num == 0:
		return "até " + k.hi.String()
	}
	return "de " + k.lo.String() + " a " + k.hi.String()
}

// floorPenalty is the penalty of x days, fractions of a day discarded (CP
// art. 11).
func floorPenalty(x *big.Rat) Penalty {
	q := new(big.Int).Quo(x.Num(), x.Denom()) // x ≥ 0: truncation is the floor
	return PenaltyOfDays(int(q.Int64()))
}

// rangeNotes are the notes on the final penalty against the abstract range
// and on concurring causes of the special part (CP art. 68, parágrafo
// único), setting BelowMinimum and AboveMaximum.
func (r *ThirdPhase) rangeNotes(in ThirdPhaseInput) []string {
	var notes []string
	if in.MaxMonths > 0 {
		final := r.Final.TotalDays()
		r.BelowMinimum = final < in.MinMonths*DaysPerMonth
		r.AboveMaximum = final > in.MaxMonths*DaysPerMonth
		switch {
		case r.BelowMinimum:
			notes = append(notes, fmt.Sprintf("Pena definitiva de %s, abaixo do mínimo abstrato de %s: cabível por causa de diminuição na terceira fase (CP, art. 68); a Súmula 231 do STJ limita só a segunda fase.", r.Final.Text(), PenaltyOfDays(in.MinMonths*DaysPerMonth).Text()))
		case r.AboveMaximum:
			notes = append(notes, fmt.Sprintf("Pena definitiva de %s, acima do máximo abstrato de %s: cabível por causa de aumento na terceira fase (CP, art. 68).", r.Final.Text(), PenaltyOfDays(in.MaxMonths*DaysPerMonth).Text()))
		}
	}
	special := map[CauseKind]int{}
	for _, c := range in.Causes {
		if specialPart(articleKey(c.Article)) {
			special[c.Kind]++
		}
	}
	for _, k := range []CauseKind{CauseIncrease, CauseDecrease} {
		if special[k] > 1 {
			notes = append(notes, fmt.Sprintf("Concorrem causas de %s da parte especial: o(a) juiz(a) pode limitar-se a uma só, prevalecendo a que mais %s (CP, art. 68, parágrafo único); aplicadas todas as informadas.", kindPT(k), map[CauseKind]string{CauseIncrease: "aumente", CauseDecrease: "diminua"}[k]))
		}
	}
	return notes
}
