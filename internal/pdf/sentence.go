package pdf

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/textcheck"
	"github.com/juizado/juizado/sanctions"
)

// SentenceData is one defendant's decision (decisions.SentenceRecord) as the
// sentence document and the minuta's preview show it: the outcome, the
// offence, the prison term and the fine, why there is no conversion, the
// ground of an acquittal, the judge's own text and the dosimetry.
type SentenceData struct {
	ID      int64
	Outcome string // decisions.OutcomeBan, OutcomePrison, OutcomeAcquittal
	// OutcomePT names the outcome in Portuguese ("absolvição (CPP, art.
	// 386, VII)", "condenação à reclusão e multa, sem conversão", ...).
	OutcomePT  string
	Acquittal  bool
	Prison     bool // conviction to reclusão (and fine) with no conversion
	Conviction bool // prison or ban
	// Cumulative: racism in a sporting context, Lei 7.716/1989, art. 20,
	// § 2º-A: reclusão with the fixed, cumulative 3-year ban.
	Cumulative bool
	// Law and Article of the conviction (the offence, before any
	// conversion: "art. 201, § 6º"), Rule both ("art. 201, § 6º, da Lei
	// 14.597/2023").
	Law, Article, Rule string
	PrisonMonths       string // "20 (vinte) meses"; "" when not fixed
	FineDays           string // "30 (trinta) dias-multa"; "" when none
	// NoConversionReason: why the reclusão is not converted (art. 201, §
	// 2º not met, or § 6º), in the judge's words and the law's.
	NoConversionReason string
	// AcquittalItem is the item of CPP art. 386 ("VII"), AcquittalText its
	// wording.
	AcquittalItem, AcquittalText string
	// Report and Reasoning are the judge's own text (CF art. 93, IX), one
	// entry per paragraph, escaped.
	Report, Reasoning []string
	// Dosimetry: the prison term in its three phases (CP arts. 59 and 68);
	// nil when the judge gave none.
	Dosimetry *DosimetryData
	// Flags the judge applied to this defendant, in Portuguese (§ 6º, § 7º,
	// § 1º II, § 1º III), and those derived from the case's conduct.
	Flags []string
	// SignedOn is the long date of the signature ("" for a minuta).
	SignedOn string
	Status   string // "assinada", "reformada em recurso", "anulada em recurso", "minuta"
}

// DosimetryData is the prison term fixed in three phases (CP arts. 59 and
// 68): base, intermediate and final, each with the judge's reasons.
type DosimetryData struct {
	Base, BaseReasons                 string
	Intermediate, IntermediateReasons string
	Final, FinalReasons               string
	// Causes are the causes of decrease and increase of the third phase
	// (CP art. 68), one line each with its article, fraction and effect,
	// then the note on the range (below the minimum, above the maximum:
	// Súmula 231 STJ binds the second phase only); nil without causes.
	Causes []string
}

// penaltyText writes months and days of reclusão: Months(months), with
// ", e N dias" when days > 0.
func penaltyText(months, days int) string {
	t := Months(months)
	if days > 0 {
		t += " e " + Count(days, "dia", "dias")
	}
	return t
}

var sentenceStatusPT = map[string]string{"signed": "assinada", "reformed": "reformada em recurso", "annulled": "anulada em recurso", "draft": "minuta"}

// paragraphs splits a judge's text into escaped paragraphs (blank lines or
// line breaks separate them).
func paragraphs(text string) []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if p = Esc(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// rule writes "article, da law" (or "article da law" when the article has
// no comma), as BanData.Rule.
func rule(article, law string) string {
	if article == "" {
		return law
	}
	if strings.Contains(article, ",") {
		return article + ", da " + law
	}
	return article + " da " + law
}

// NewSentenceData prepares a stored decision for the wording; loc is the
// court's zone (the day of the signature).
func NewSentenceData(rec decisions.SentenceRecord, loc *time.Location) *SentenceData {
	s := &SentenceData{ID: rec.ID, Outcome: rec.Outcome, Law: Esc(rec.Law), Article: Esc(rec.Article),
		Acquittal: rec.Outcome == decisions.OutcomeAcquittal, Prison: rec.Outcome == decisions.OutcomePrison,
		NoConversionReason: Esc(rec.NoConversionReason), Report: paragraphs(rec.Report), Reasoning: paragraphs(rec.Reasoning),
		Status: or(sentenceStatusPT, rec.Status)}
	s.Conviction = s.Prison || rec.Outcome == decisions.OutcomeBan
	s.Cumulative = rec.Outcome == decisions.OutcomeBan && rec.Article == sanctions.Art7716
	s.Rule = rule(s.Article, s.Law)
	if rec.PrisonMonths != nil {
		days := 0
		if rec.PrisonDays != nil {
			days = *rec.PrisonDays
		}
		s.PrisonMonths = penaltyText(*rec.PrisonMonths, days)
	}
	if rec.FineDays != nil {
		s.FineDays = Count(*rec.FineDays, "dia-multa", "dias-multa")
	}
	if rec.SignedAt != nil {
		s.SignedOn = LongDate(civil.Of(rec.SignedAt.In(loc)))
	}
	if s.Acquittal {
		s.AcquittalItem = Esc(rec.AcquittalGround)
		s.AcquittalText = Esc(decisions.AcquittalGrounds[rec.AcquittalGround])
	}
	var dz decisions.Dosimetry
	if len(rec.Dosimetry) > 0 && string(rec.Dosimetry) != "null" && json.Unmarshal(rec.Dosimetry, &dz) == nil && dz.FinalMonths > 0 {
		s.Dosimetry = &DosimetryData{
			Base: Months(dz.BaseMonths), BaseReasons: Esc(dz.BaseReasons),
			Intermediate: penaltyText(dz.IntermediateMonths, dz.IntermediateDays), IntermediateReasons: Esc(dz.IntermediateReasons),
			Final: penaltyText(dz.FinalMonths, dz.FinalDays), FinalReasons: Esc(dz.FinalReasons),
		}
		if dz.ThirdPhase != nil {
			for _, n := range dz.ThirdPhase.Notes {
				s.Dosimetry.Causes = append(s.Dosimetry.Causes, Esc(n))
			}
		}
	}
	var fl decisions.Flags
	if len(rec.Flags) > 0 && json.Unmarshal(rec.Flags, &fl) == nil {
		for _, f := range []struct {
			on   bool
			name string
		}{
			{fl.Organiser, "organização, preparação ou incitação do tumulto (art. 201, § 6º)"},
			{fl.Sec7, "racismo no esporte ou infração contra a mulher (art. 201, § 7º)"},
			{fl.Weapons, "porte de instrumentos que possam servir à prática de violência (art. 201, § 1º, II)"},
			{fl.FanFight, "participação em briga de torcidas (art. 201, § 1º, III)"},
		} {
			if f.on && !s.Cumulative && !s.Acquittal {
				s.Flags = append(s.Flags, f.name)
			}
		}
	}
	switch {
	case s.Acquittal:
		s.OutcomePT = fmt.Sprintf("absolvição (Código de Processo Penal, art. 386, %s)", s.AcquittalItem)
	case s.Prison:
		s.OutcomePT = "condenação à reclusão, sem conversão em pena impeditiva de comparecimento"
		if s.FineDays != "" {
			s.OutcomePT = "condenação à reclusão e multa, sem conversão em pena impeditiva de comparecimento"
		}
	case s.Cumulative:
		s.OutcomePT = "condenação à reclusão e à proibição de frequência a locais destinados a práticas esportivas, cumulativas (Lei 7.716/1989, art. 20, § 2º-A)"
	case rec.Outcome == decisions.OutcomeBan:
		s.OutcomePT = "condenação com conversão em impedimento de comparecimento"
	default:
		s.OutcomePT = Esc(rec.Outcome)
	}
	return s
}

// Decided is the ban as the sentence decided it: a ban that waits for the
// final judgment has no first or last day (Súmula 643 STJ), and so the
// document issued at signing says; a later download gives that same
// document, whatever happened since (the first and last days are on the
// docket and on the case's page once the judgment is final).
func Decided(b sanctions.Ban) sanctions.Ban {
	if b.Precautionary || (b.Source != sanctions.FromSentence && b.Source != sanctions.FromCivilJudgment) {
		return b
	}
	switch b.Status {
	case sanctions.StatusAwaitingFinal, sanctions.StatusActive, sanctions.StatusReformed, sanctions.StatusAnnulled, sanctions.StatusConverted:
	default:
		return b
	}
	b.Status, b.FirstDay, b.CreditDays, b.CreditReason = sanctions.StatusAwaitingFinal, nil, nil, ""
	if b.OverrideReason == "" || b.StartNotBefore == nil {
		b.LastDay, b.ComputedLastDay, b.OverrideReason = nil, nil, ""
	}
	return b
}

// WithDefendant picks the defendant id of the case for a decision with no
// ban (an acquittal, a prison conviction); a group defendant makes it a
// civil decision.
func (c *CaseData) WithDefendant(id int64) {
	for j := range c.Defendants {
		if c.Defendants[j].ID == id {
			c.Defendant = &c.Defendants[j]
		}
	}
	if c.Defendant != nil && !c.Defendant.Person {
		c.Civil, c.Group = true, c.Defendant
		c.GroupLabel = c.Defendant.Name
		if !strings.HasPrefix(textcheck.Fold(c.GroupLabel), "torcida") {
			c.GroupLabel = "torcida organizada " + c.GroupLabel
		}
	}
}
