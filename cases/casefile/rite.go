package casefile

import (
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/sanctions"
)

// caseRite is "civil" for group cases, "ordinary" when a defendant's
// offence has a maximum above 2 years (Lei 9.099/1995, art. 61: § 6º, § 7º
// of art. 201, Lei 7.716/1989) by the sentences or, before them, by the
// case's conduct, else "jecrim".
func caseRite(c cases.Case, sentences []decisions.SentenceRecord) string {
	if c.Flow == cases.FlowCivil {
		return sanctions.RiteCivil
	}
	for _, r := range sentences {
		if strings.Contains(r.Article, "§ 6º") || strings.Contains(r.Article, "§ 7º") || r.Article == sanctions.Art7716 {
			return sanctions.RiteOrdinary
		}
	}
	if len(sentences) == 0 && !c.FactsDate.Before(civil.New(2023, 1, 11)) {
		rg, err := sanctions.BanRange(sanctions.Query{Subject: sanctions.Person, FactsDate: c.FactsDate, Conduct: c.Conduct})
		if err == nil && rg.Rite == sanctions.RiteOrdinary {
			return sanctions.RiteOrdinary
		}
	}
	return sanctions.RiteJECRIM
}
