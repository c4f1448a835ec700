package sanctions

import (
	"fmt"
	"slices"
	"strings"

	"github.com/juizado/juizado/internal/civil"
)

// Query is the input of BanRange: who, when, what, and the modifiers of
// DOMAIN.md §2. Nil pointers take the defaults given per field.
type Query struct {
	// Subject is Person or Group; anything else is a NotCoveredError
	// (Field "subject").
	Subject Subject
	// FactsDate is the date of the facts; it chooses the law (tempus regit
	// actum; CF, art. 5º, XL). It must be a valid date.
	FactsDate civil.Date
	// Conduct lists conduct words (ConductWords). Empty means no conduct
	// check. Unknown words, or a list where no word qualifies at the date
	// for the subject, give a NotCoveredError (Field "conduct").
	Conduct []string
	// Eligible: the defendant is primário, has bons antecedentes and was
	// never punished under the article (art. 41-B, § 2º; Lei 14.597/2023,
	// art. 201, § 2º). Nil means true. Ignored, with a note, under art. 39
	// of 2003 (no such condition) and for groups.
	Eligible *bool
	// Organiser: organised, prepared or incited the tumult (Lei 14.597/2023,
	// art. 201, § 6º: none of §§ 2º–5º). Nil means derived from Conduct
	// (WordOrganiser). Ignored, with a note, before 15/06/2023 and for groups.
	Organiser *bool
	// Sec7: racism in sport or offence against women (Lei 14.597/2023, art.
	// 201, § 7º). Nil means derived from Conduct (WordRacism or
	// WordAgainstWomen). Ignored, with a note, before 15/06/2023 and for groups.
	Sec7 *bool
	// OffVenue: a group's conduct under art. 39-C (Lei 13.912/2019) / art. 184
	// (Lei 14.597/2023): the group and the members involved, even at another
	// place or date. Nil means derived from Conduct: true when it holds a
	// word of 184 I–III (training_ground_invasion, fan_fight,
	// attack_on_sport_people) and no word of 183 § 2º / 39-A. Ignored, with
	// a note, for persons.
	OffVenue *bool
	// Sec7DoublesBan is the judge's (court's) reading of art. 201, § 7º:
	// whether the doubling reaches the ban range (6 to 72 months). Nil means
	// true, the literal reading ("as penalidades previstas neste artigo").
	Sec7DoublesBan *bool
}

// Range is the result of BanRange: the ban range allowed for the query, the
// rule applied and why. Months are calendar months (CP, art. 10).
type Range struct {
	// Convertible is false when the rule allows no ban (the reclusão is not
	// converted): Reason says why.
	Convertible bool
	// Reason, when !Convertible: why, naming the article (Portuguese).
	Reason string
	// Law applied, e.g. "Lei 14.597/2023", "Lei 10.671/2003 (Lei 12.299/2010)",
	// "Lei 10.671/2003 (Lei 13.912/2019)", "Lei 10.671/2003".
	Law string
	// Article applied, e.g. "art. 201, § 2º", "art. 201, § 2º c/c § 7º",
	// "art. 201, § 6º", "art. 41-B, § 2º", "art. 39", "art. 39-A", "art. 39-C",
	// "art. 183, § 2º", "art. 184".
	Article string
	// MinMonths is the statutory minimum in months (0 for groups: none).
	MinMonths int
	// MaxMonths is the statutory maximum in months.
	MaxMonths int
	// Members, groups only: MembersAll (183 § 2º / 39-A) or MembersInvolved
	// (184 / 39-C).
	Members string
	// Sec7Applied: the § 7º doubling was applied to the range.
	Sec7Applied bool
	// Sec7DoublesBan: the § 7º reading in force for this computation; store
	// it with the ban.
	Sec7DoublesBan bool
	// Organiser, Sec7, OffVenue, Eligible: the effective flags after
	// derivation from Conduct and after ignoring those that do not exist at
	// the date or for the subject (an ignored Eligible reads true, an
	// ignored Organiser, Sec7 or OffVenue reads false).
	Organiser bool
	Sec7      bool
	OffVenue  bool
	Eligible  bool
	// Why says which rule applies and why (date of the facts; a later milder
	// law, CF, art. 5º, XL), in Portuguese.
	Why string
	// Notes lists, in Portuguese, the flags and conduct words ignored
	// because they do not exist at the date or for the subject.
	Notes []string
	// Cumulative is true for Lei 7.716/1989, art. 20, § 2º-A (racism in a
	// sporting context with no conduct of art. 201's caput or § 1º): the
	// ban ("proibição de frequência") of exactly 36 months is imposed
	// together with the reclusão, not converted from it. Convertible is
	// false and MinMonths = MaxMonths = 36.
	Cumulative bool
	// PrisonMinMonths and PrisonMaxMonths are the reclusão the offence
	// carries, in months, after Lei 14.597/2023, art. 201, §§ 6º and 7º
	// (caput 12–24; § 6º 16–36; § 7º 24–48; both 32–72; art. 41-B 12–24;
	// Lei 7.716/1989, art. 20, § 2º-A 24–60). Both 0 where the rule has no
	// prison (art. 39 of 2003, a sanction by sentence; group bans, civil).
	PrisonMinMonths, PrisonMaxMonths int
	// Fine: the offence also carries a fine in dias-multa (CP art. 49):
	// arts. 41-B and 201 ("e multa").
	Fine bool
	// Rite is RiteJECRIM when the maximum prison is at most 24 months (Lei
	// 9.099/1995, art. 61), RiteOrdinary above, RiteCivil for groups.
	Rite string
	// PleaAllowed: a plea agreement is possible (Lei 9.099/1995, art. 76,
	// within the JECRIM, and not barred by art. 201, § 6º). Suspension
	// allowed: the minimum prison is at most 12 months (art. 89).
	PleaAllowed, SuspensionAllowed bool
	// Offence is the article of the conviction, before any conversion:
	// "art. 201", "art. 201, § 6º", "art. 201 c/c § 7º", "art. 41-B", "art.
	// 39", "art. 20, § 2º-A" (Lei 7.716/1989), or the group article.
	Offence string
}

// Rites of Range.Rite.
const (
	// RiteJECRIM: an offence of lesser potential (maximum ≤ 2 years), Lei
	// 9.099/1995, art. 61.
	RiteJECRIM = "jecrim"
	// RiteOrdinary: maximum above 2 years (§ 6º, § 7º, Lei 7.716/1989): out
	// of the JECRIM ("rito ordinário"), still tracked here.
	RiteOrdinary = "ordinary"
	// RiteCivil: group cases (ação civil pública, TAC; LGE art. 180).
	RiteCivil = "civil"
)

// BanRange returns the ban range for q: the rule in force at q.FactsDate for
// q.Subject (DOMAIN.md §2), replaced by a later rule of the same kind when
// that one is strictly milder (CF, art. 5º, XL; CP, art. 2º, parágrafo
// único), with the modifiers of Lei 14.597/2023, art. 201, §§ 2º, 6º and 7º
// for persons. A non-convertible result (eligibility, § 6º) is a Range with
// Convertible false, not an error. The error is a *NotCoveredError when no
// statute covers the subject, the date or the conduct.
func BanRange(q Query) (Range, error) { return banRange(catalogue(), q) }

// banRange is BanRange over an explicit catalogue (tests use synthetic ones).
func banRange(cat []rule, q Query) (Range, error) {
	if q.Subject != Person && q.Subject != Group {
		return Range{}, &NotCoveredError{Field: "subject",
			Reason: fmt.Sprintf("sujeito %q desconhecido: use \"person\" (torcedor) ou \"group\" (torcida organizada)", string(q.Subject))}
	}
	if !q.FactsDate.Valid() {
		return Range{}, &NotCoveredError{Field: "facts_date", Reason: "data dos fatos ausente ou inválida"}
	}
	for _, w := range q.Conduct {
		if !IsConductWord(w) {
			return Range{}, &NotCoveredError{Field: "conduct",
				Reason: fmt.Sprintf("conduta %q desconhecida; condutas válidas: %s", w, strings.Join(ConductWords, ", "))}
		}
	}

	if q.Subject == Person && len(q.Conduct) > 0 && !containsAny(q.Conduct, caputWords...) {
		return aloneRange(q)
	}

	k := kindPerson
	if q.Subject == Group {
		k = kindGroupVenue
		if offVenue(q) {
			k = kindGroupOffVenue
		}
	}

	cur, ok := ruleAt(cat, q.Subject, k, q.FactsDate)
	if !ok {
		return Range{}, notCoveredAt(cat, q, k)
	}
	r, err := evaluate(cur, q)
	if err != nil {
		return Range{}, err
	}
	r.Why = fmt.Sprintf("Fatos em %s: aplica-se o %s, em vigor para fatos %s (lei do tempo do fato; lei posterior mais gravosa não retroage: CF, art. 5º, XL).",
		q.FactsDate.BR(), cite(r.Article, r.Law), period(cur))

	// Lex mitior: a later rule of the same subject and kind that is strictly
	// milder for these facts governs them (CF, art. 5º, XL; CP, art. 2º,
	// parágrafo único). The later rule applies as a whole (no lex tertia).
	best, bestRule := r, cur
	for _, later := range cat {
		if later.Subject != q.Subject || later.Kind != k || !later.From.After(cur.From) {
			continue
		}
		lr, err := evaluate(later, q)
		if err != nil || !milder(lr, best) {
			continue
		}
		best, bestRule = lr, later
	}
	if bestRule.From != cur.From || bestRule.Law != cur.Law || bestRule.Article != cur.Article {
		best.Why = fmt.Sprintf("Fatos em %s: vigorava o %s (%s), mas a lei posterior %s (em vigor desde %s) é mais benéfica (%s) e retroage: CF, art. 5º, XL; CP, art. 2º, parágrafo único.",
			q.FactsDate.BR(), cur.cite(), describe(r), bestRule.cite(), bestRule.From.BR(), describe(best))
		r = best
	}
	finish(&r)
	return r, nil
}

// ruleAt returns the rule of the catalogue for subject and kind in force at d.
func ruleAt(cat []rule, s Subject, k kind, d civil.Date) (rule, bool) {
	for _, r := range cat {
		if r.Subject == s && r.Kind == k && r.inForce(d) {
			return r, true
		}
	}
	return rule{}, false
}

// milder reports whether a is strictly milder than b for the defendant: a ban
// where b allows none, or a narrower maximum.
func milder(a, b Range) bool {
	if a.Convertible != b.Convertible {
		return a.Convertible
	}
	return a.Convertible && a.MaxMonths < b.MaxMonths
}

func describe(r Range) string {
	if !r.Convertible {
		return "sem conversão em pena impeditiva"
	}
	if r.MinMonths > 0 {
		return fmt.Sprintf("impedimento de %s a %s", monthsPT(r.MinMonths), monthsPT(r.MaxMonths))
	}
	return fmt.Sprintf("impedimento de até %s", monthsPT(r.MaxMonths))
}

func period(r rule) string {
	if r.Until.IsZero() {
		return "a partir de " + r.From.BR()
	}
	return "de " + r.From.BR() + " a " + r.Until.BR()
}

// offVenue is the effective OffVenue of a group query.
func offVenue(q Query) bool {
	if q.OffVenue != nil {
		return *q.OffVenue
	}
	return containsAny(q.Conduct, offVenueWords...) && !containsAny(q.Conduct, onVenueGroupWords...)
}

// notCoveredAt explains why no rule of kind k covers q.
func notCoveredAt(cat []rule, q Query, k kind) error {
	d := q.FactsDate.BR()
	switch {
	case q.Subject == Person:
		return &NotCoveredError{Field: "facts_date",
			Reason: fmt.Sprintf("fatos em %s: nenhuma lei previa o impedimento de comparecimento de torcedor (o art. 39 da Lei 10.671/2003 vigora desde 16/05/2003)", d)}
	case k == kindGroupOffVenue:
		if _, ok := ruleAt(cat, Group, kindGroupVenue, q.FactsDate); ok {
			return &NotCoveredError{Field: "off_venue",
				Reason: fmt.Sprintf("fatos em %s: a conduta de torcida organizada em local ou data distintos do evento (art. 39-C da Lei 10.671/2003, incluído pela Lei 13.912/2019) só é alcançada para fatos a partir de 26/11/2019", d)}
		}
		fallthrough
	default:
		return &NotCoveredError{Field: "facts_date",
			Reason: fmt.Sprintf("fatos em %s: nenhuma lei previa o impedimento de torcida organizada (o art. 39-A da Lei 10.671/2003, incluído pela Lei 12.299/2010, vigora desde 28/07/2010)", d)}
	}
}

// evaluate applies one rule to q: conduct check, flags, modifiers.
func evaluate(ru rule, q Query) (Range, error) {
	r := Range{
		Law: ru.Law, Article: ru.Article,
		MinMonths: ru.Min, MaxMonths: ru.Max, Members: ru.Members,
		Convertible: true, Eligible: true,
		Sec7DoublesBan: q.Sec7DoublesBan == nil || *q.Sec7DoublesBan,
	}
	note := func(format string, a ...any) { r.Notes = append(r.Notes, fmt.Sprintf(format, a...)) }

	// Conduct words.
	var qualifying []string
	seen := map[string]bool{}
	for _, w := range q.Conduct {
		if seen[w] {
			continue
		}
		seen[w] = true
		if ru.Words[w] {
			qualifying = append(qualifying, w)
		} else {
			note("%s", wordNote(ru, w))
		}
	}
	if len(q.Conduct) > 0 && len(qualifying) == 0 {
		reason := fmt.Sprintf("fatos em %s: nenhuma das condutas informadas (%s) é alcançada pelo %s, vigente na data dos fatos",
			q.FactsDate.BR(), strings.Join(q.Conduct, ", "), ru.cite())
		if ru.Kind == kindGroupOffVenue {
			reason += "; suas hipóteses são: I invasão de local de treinamento, II confronto entre torcedores, III ilícitos contra esportistas, árbitros, organizadores ou jornalistas esportivos"
		}
		return Range{}, &NotCoveredError{Field: "conduct", Reason: reason}
	}

	organiser := flag(q.Organiser, slices.Contains(q.Conduct, WordOrganiser))
	sec7 := flag(q.Sec7, containsAny(q.Conduct, WordRacism, WordAgainstWomen))
	eligible := q.Eligible == nil || *q.Eligible

	if q.Subject == Group {
		r.OffVenue = ru.Kind == kindGroupOffVenue
		if q.Eligible != nil && !eligible {
			note("eligible=false ignorado: a condição do § 2º (réu primário, com bons antecedentes) é da pena individual e não existe para a torcida organizada (%s)", ru.Article)
		}
		if q.Organiser != nil && organiser {
			note("organiser ignorado: o § 6º do art. 201 da Lei 14.597/2023 é causa de aumento da pena individual e não se aplica à torcida organizada")
		}
		if q.Sec7 != nil && sec7 {
			note("sec7 ignorado: o § 7º do art. 201 da Lei 14.597/2023 (pena em dobro) é da pena individual e não se aplica à torcida organizada; condutas racistas e discriminatórias da torcida estão no art. 183, § 2º")
		}
		if ru.Kind == kindGroupVenue && q.OffVenue == nil && !ru.From.Before(lei13912From) && containsAny(qualifying, WordViolence, WordRiot, WordInvasion, WordDiscrimination, WordRacism) && containsAny(q.Conduct, offVenueWords...) {
			note("conduta no evento e hipóteses do art. 184 / 39-C informadas juntas: aplicado o %s (a torcida e todos os associados); se os fatos ocorreram em local ou data distintos, informe off_venue=true", ru.Article)
		}
		return r, nil
	}

	// Persons.
	if q.OffVenue != nil && *q.OffVenue {
		note("off_venue ignorado: o art. 184 da Lei 14.597/2023 (art. 39-C da Lei 10.671/2003) é regra de torcida organizada; para o torcedor, a conduta nas imediações (5.000 m) ou no trajeto está no § 1º do %s", strings.SplitN(ru.Article, ",", 2)[0])
	}
	if ru.Eligibility {
		r.Eligible = eligible
	} else if !eligible {
		note("eligible=false ignorado: o %s não exige réu primário nem bons antecedentes", ru.cite())
	}
	if ru.Sec6 {
		r.Organiser = organiser
	} else if organiser && q.Organiser != nil {
		note("organiser ignorado: o § 6º do art. 201 (aumento de pena e vedação dos §§ 2º a 5º) só existe na Lei 14.597/2023, para fatos a partir de 15/06/2023; lei posterior mais gravosa não retroage (CF, art. 5º, XL)")
	}
	if ru.Sec7 {
		r.Sec7 = sec7
	} else if sec7 && q.Sec7 != nil {
		note("sec7 ignorado: o § 7º do art. 201 (pena em dobro) só existe na Lei 14.597/2023, para fatos a partir de 15/06/2023; lei posterior mais gravosa não retroage (CF, art. 5º, XL)")
	}
	if slices.Contains(q.Conduct, WordRacism) && !q.FactsDate.Before(lei14532From) {
		rule := "aplica-se o art. 201, § 7º"
		if !ru.Sec7 {
			rule = "aplica-se o " + ru.cite() + " (o § 7º do art. 201 só para fatos a partir de 15/06/2023)"
		}
		note("racismo com conduta do caput ou do § 1º: %s; o art. 20, § 2º-A, da Lei 7.716/1989 (crimes do art. 20, praticar, induzir ou incitar a discriminação; não a injúria racial do art. 2º-A: reclusão de 2 a 5 anos e proibição de frequência por 3 anos) também pode incidir, em concurso: o(a) juiz(a) decide", rule)
	}

	switch {
	case r.Organiser:
		r.Convertible = false
		r.Article = "art. 201, § 6º"
		r.MinMonths, r.MaxMonths = 0, 0
		r.Reason = "art. 201, § 6º, da Lei 14.597/2023: a quem organiza, prepara ou incita o tumulto não se aplicam os §§ 2º a 5º; não há conversão da reclusão em pena impeditiva de comparecimento nem transação penal"
		if !r.Eligible {
			note("além disso, o réu não preenche as condições do § 2º (primário, bons antecedentes, sem punição anterior pelo art. 201)")
		}
	case !r.Eligible:
		r.Convertible = false
		r.MinMonths, r.MaxMonths = 0, 0
		r.Reason = fmt.Sprintf("%s: a conversão em pena impeditiva de comparecimento exige réu primário, com bons antecedentes e sem punição anterior pelas condutas do artigo", ru.cite())
	case r.Sec7 && r.Sec7DoublesBan:
		r.Sec7Applied = true
		r.MinMonths, r.MaxMonths = 2*ru.Min, 2*ru.Max
		r.Article = ru.Article + " c/c § 7º"
	case r.Sec7:
		note("§ 7º do art. 201 (pena em dobro) reconhecido, mas pela leitura do juízo a dobra não alcança a pena impeditiva: prazo de %s a %s", monthsPT(ru.Min), monthsPT(ru.Max))
	}
	return r, nil
}

func flag(p *bool, derived bool) bool {
	if p != nil {
		return *p
	}
	return derived
}

// wordNote says why conduct word w is ignored under rule ru.
func wordNote(ru rule, w string) string {
	info := words[w]
	where := info.person
	if ru.Subject == Group {
		where = info.group
	}
	head := fmt.Sprintf("conduta %q (%s) ignorada: ", w, info.desc)
	switch {
	case where == "" && ru.Subject == Person:
		return head + "só se aplica a torcida organizada (" + info.group + ")"
	case where == "":
		return head + "é conduta do torcedor individual (" + info.person + "), não prevista para a torcida organizada no " + ru.cite()
	case ru.Kind == kindGroupOffVenue:
		return head + "não está entre as hipóteses (I a III) do " + ru.cite() + "; prevista em: " + where
	case ru.Kind == kindGroupVenue && slices.Contains(offVenueWords, w) && !ru.From.Before(lei13912From):
		return head + "é hipótese do art. 184 / art. 39-C (a torcida e somente os associados envolvidos); informe off_venue=true para aplicá-lo"
	default:
		return head + "não é alcançada pelo " + ru.cite() + ", vigente na data dos fatos; prevista em: " + where
	}
}
