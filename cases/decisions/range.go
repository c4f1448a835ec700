package decisions

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
)

// defendantFlags resolves one defendant's flags: those the judge stated,
// else, for a sole defendant, those of the case's conduct (DOMAIN.md §2:
// penalties are personal; CF art. 5º, XLV–XLVI). It returns the flags and
// the conduct words of this defendant (the event's words plus the personal
// words that hold for the defendant).
func defendantFlags(c cases.Case, nDefendants int, in SentenceInput) (Flags, []string) {
	var fl Flags
	sole := nDefendants == 1
	pick := func(name string, given *bool, derived bool) bool {
		if given != nil {
			return *given
		}
		if sole && derived {
			fl.Derived = append(fl.Derived, name)
			return true
		}
		if sole {
			fl.Derived = append(fl.Derived, name)
		}
		return false
	}
	has := func(w string) bool { return slices.Contains(c.Conduct, w) }
	fl.Organiser = pick("organiser", in.Organiser, has(sanctions.WordOrganiser))
	fl.Sec7 = pick("sec7", in.Sec7, has(sanctions.WordRacism) || has(sanctions.WordAgainstWomen))
	fl.Weapons = pick("weapons", in.Weapons, has(sanctions.WordWeapons))
	fl.FanFight = pick("fan_fight", in.FanFight, has(sanctions.WordFanFight))
	fl.Eligible = in.Eligible == nil || *in.Eligible
	var conduct []string
	for _, w := range c.Conduct {
		if !slices.Contains(sanctions.PersonalWords, w) {
			conduct = append(conduct, w)
		}
	}
	if fl.Weapons {
		conduct = append(conduct, sanctions.WordWeapons)
	}
	if fl.FanFight {
		conduct = append(conduct, sanctions.WordFanFight)
	}
	if fl.Organiser {
		conduct = append(conduct, sanctions.WordOrganiser)
	}
	if fl.Sec7 {
		ground := in.Sec7Ground
		if ground == "" {
			ground = sanctions.WordRacism
			if has(sanctions.WordAgainstWomen) && !has(sanctions.WordRacism) {
				ground = sanctions.WordAgainstWomen
			}
		}
		conduct = append(conduct, ground)
	}
	if fl.Derived == nil {
		fl.Derived = []string{}
	}
	return fl, conduct
}

// SentenceRange is the rule that a sentence with in's flags would apply to
// defendant in.DefendantID of case caseID of the actor's court (the
// sentence page shows it before signing): the same computation as
// Sentence. errs.NotFound for a case or defendant not of the court.
func (s *Service) SentenceRange(ctx context.Context, actor actor.Actor, caseID int64, in SentenceInput) (sanctions.Range, Flags, error) {
	var c cases.Case
	if err := db.Conn(ctx, s.DB).Where("id = ? AND court_code = ?", caseID, actor.Court).Limit(1).Find(&c).Error; err != nil {
		return sanctions.Range{}, Flags{}, err
	}
	if c.ID == 0 {
		return sanctions.Range{}, Flags{}, cases.NotFound(fmt.Sprintf("Processo %d", caseID))
	}
	var d cases.Defendant
	if err := db.Conn(ctx, s.DB).Where("id = ? AND case_id = ?", in.DefendantID, c.ID).Limit(1).Find(&d).Error; err != nil {
		return sanctions.Range{}, Flags{}, err
	}
	if d.ID == 0 {
		return sanctions.Range{}, Flags{}, errs.InvalidField("defendant_id", "defendant_of_case", fmt.Sprintf("o réu %d não é parte deste processo.", in.DefendantID))
	}
	var court cases.Court
	if err := db.Conn(ctx, s.DB).Where("code = ?", c.CourtCode).Take(&court).Error; err != nil {
		return sanctions.Range{}, Flags{}, err
	}
	return s.rangeFor(ctx, c, d, court, in)
}

// rangeFor is the rule for defendant d of case c with the sentence's flags
// (sanctions.BanRange), as an errs.Invalid naming the field when no statute
// covers it.
func (s *Service) rangeFor(ctx context.Context, c cases.Case, d cases.Defendant, court cases.Court, in SentenceInput) (sanctions.Range, Flags, error) {
	var n int64
	if err := db.Conn(ctx, s.DB).Model(&cases.Defendant{}).Where("case_id = ?", c.ID).Count(&n).Error; err != nil {
		return sanctions.Range{}, Flags{}, err
	}
	doubles := court.Sec7DoublesBan
	if in.Sec7DoublesBan != nil {
		doubles = *in.Sec7DoublesBan
	}
	q := sanctions.Query{Subject: sanctions.Person, FactsDate: c.FactsDate, Eligible: in.Eligible, OffVenue: in.OffVenue, Sec7DoublesBan: &doubles}
	var fl Flags
	if d.Kind == "fan_group" {
		q.Subject, q.Conduct, q.Organiser, q.Sec7 = sanctions.Group, c.Conduct, in.Organiser, in.Sec7
		fl = Flags{Eligible: true, Derived: []string{}}
	} else {
		var conduct []string
		fl, conduct = defendantFlags(c, int(n), in)
		if in.Sec7Ground != "" && in.Sec7Ground != sanctions.WordRacism && in.Sec7Ground != sanctions.WordAgainstWomen {
			return sanctions.Range{}, fl, errs.InvalidField("sec7_ground", "oneof", "use racism ou against_women (Lei 14.597/2023, art. 201, § 7º).")
		}
		org, sec7 := fl.Organiser, fl.Sec7
		q.Conduct, q.Organiser, q.Sec7 = conduct, &org, &sec7
		if len(c.Conduct) == 0 {
			q.Conduct = nil
		} else if len(conduct) == 0 {
			// Every word of the case is personal (weapons, fan_fight,
			// organiser, racism, against_women) and none was stated for this
			// defendant: no conduct of his is described.
			return sanctions.Range{}, fl, errs.InvalidField("defendant_id", "conduct_stated", fmt.Sprintf("as condutas da representação (%s) são pessoais e nenhuma foi afirmada para este réu: informe weapons, fan_fight, organiser ou sec7 (a pena é pessoal: CF, art. 5º, XLV e XLVI).", strings.Join(c.Conduct, ", ")))
		}
	}
	rg, err := sanctions.BanRange(q)
	if err != nil {
		var nc *sanctions.NotCoveredError
		if errors.As(err, &nc) {
			field := nc.Field
			if field == "" || field == "conduct" || field == "facts_date" || field == "subject" {
				field = "defendant_id"
				if nc.Field == "conduct" && d.Kind == "person" {
					field = "sec7"
					if !fl.Sec7 {
						field = "defendant_id"
					}
				}
			}
			return rg, fl, errs.InvalidField(field, "covered", nc.Reason)
		}
		return rg, fl, err
	}
	fl.Eligible = rg.Eligible
	if d.Kind != "fan_group" && n > 1 {
		for word, given := range map[string]*bool{sanctions.WordOrganiser: in.Organiser, sanctions.WordRacism: in.Sec7, sanctions.WordAgainstWomen: in.Sec7} {
			if given == nil && slices.Contains(c.Conduct, word) {
				rg.Notes = append(rg.Notes, fmt.Sprintf("a representação descreve %q e o processo tem %d réus: a condição não foi afirmada para este réu e não se aplica a ele (a pena é pessoal: CF, art. 5º, XLV e XLVI); informe-a se for o caso.", word, n))
			}
		}
	}
	return rg, fl, nil
}

// DefaultOutcome is the outcome the law gives a sentence by default under
// rule rg: the conversion to a ban (or the cumulative ban of Lei
// 7.716/1989) where the rule allows it, or where there is no reclusão to
// impose; else the reclusão without conversion (Lei 14.597/2023, art. 201,
// § 2º).
func DefaultOutcome(rg sanctions.Range) string {
	if rg.Convertible || rg.Cumulative || rg.PrisonMaxMonths == 0 {
		return OutcomeBan
	}
	return OutcomePrison
}
