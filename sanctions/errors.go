package sanctions

import "fmt"

// NotCoveredError is returned by BanRange when no statute covers the subject,
// the date of the facts or the conduct (HTTP 422 in the API): anything before
// 16/05/2003 (Lei 10.671/2003, art. 45), a group before 28/07/2010 (art. 39-A
// came with Lei 12.299/2010), a group's off-venue conduct before 26/11/2019
// (art. 39-C came with Lei 13.912/2019), or a conduct list with no word that
// the rule in force reaches.
//
// Field names the query field at fault: "subject", "facts_date", "conduct"
// or "off_venue". Reason is a Portuguese sentence naming the article.
type NotCoveredError struct {
	Field  string
	Reason string
}

// Error returns Reason.
func (e *NotCoveredError) Error() string { return e.Reason }

// OutOfRangeError is returned by CheckMonths when a term of Months months lies
// outside [Min, Max] of the rule applied (Law, Article), e.g. 37 months under
// art. 41-B, § 2º (3 to 36 months). Min is at least 1: a group ban has no
// statutory minimum (Range.MinMonths 0, NoStatutoryMin true), but a ban of
// 0 months is no ban.
type OutOfRangeError struct {
	Months, Min, Max int
	Law, Article     string
	NoStatutoryMin   bool
}

// Error returns a Portuguese message naming the term, the range, the article
// and the law; without a statutory minimum it says so, and that the term is
// at least one month.
func (e *OutOfRangeError) Error() string {
	if e.NoStatutoryMin {
		return fmt.Sprintf("prazo de %s fora do permitido (%s): até %s; a lei não fixa mínimo, mas o impedimento tem ao menos %s",
			monthsPT(e.Months), cite(e.Article, e.Law), monthsPT(e.Max), monthsPT(e.Min))
	}
	return fmt.Sprintf("prazo de %s fora do intervalo permitido de %s a %s (%s)",
		monthsPT(e.Months), monthsPT(e.Min), monthsPT(e.Max), cite(e.Article, e.Law))
}

// NotConvertibleError is returned by CheckMonths when the rule allows no ban
// at all (Range.Convertible false): e.g. Lei 14.597/2023, art. 201, § 6º
// (organiser: none of §§ 2º–5º) or art. 201, § 2º / art. 41-B, § 2º (the
// defendant is not primário, has no bons antecedentes or was punished
// before). Reason is the Portuguese explanation of Range.Reason.
type NotConvertibleError struct {
	Reason, Law, Article string
}

// Error returns "pena não conversível em impedimento de comparecimento: " and
// the reason.
func (e *NotConvertibleError) Error() string {
	return "pena não conversível em impedimento de comparecimento: " + e.Reason
}

func monthsPT(n int) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d mês", n)
	}
	return fmt.Sprintf("%d meses", n)
}
