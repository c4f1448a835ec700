package pdf

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/textcheck"
	"github.com/juizado/juizado/sanctions"
	"gorm.io/gorm"
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
		s.PrisonMonths = Months(*rec.PrisonMonths)
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
			Intermediate: Months(dz.IntermediateMonths), IntermediateReasons: Esc(dz.IntermediateReasons),
			Final: Months(dz.FinalMonths), FinalReasons: Esc(dz.FinalReasons),
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

// decided is the ban as the sentence decided it: a ban that waits for the
// final judgment has no first or last day (Súmula 643 STJ), and so the
// document issued at signing says; a later download gives that same
// document, whatever happened since (the first and last days are on the
// docket and on the case's page once the judgment is final).
func decided(b sanctions.Ban) sanctions.Ban {
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

// sentenceOf picks the decision of case v that a document names: the
// defendant's signed sentence (else its latest), or the one that imposed
// ban banID (as the ban or as its precautionary ban); nil when none.
func sentenceOf(v *casefile.View, defendantID, banID int64) *decisions.SentenceRecord {
	var out *decisions.SentenceRecord
	for i := range v.Sentences {
		r := &v.Sentences[i]
		switch {
		case defendantID != 0 && r.DefendantID == defendantID:
		case banID != 0 && ((r.BanID != nil && *r.BanID == banID) || (r.PrecautionaryBanID != nil && *r.PrecautionaryBanID == banID)):
		default:
			continue
		}
		if out == nil || out.Status != "signed" {
			out = r
		}
	}
	return out
}

// caseBan is the ban id of case v as stored, or nil.
func caseBan(v *casefile.View, id int64) *sanctions.Ban {
	for i := range v.Bans {
		if v.Bans[i].ID == id {
			return &v.Bans[i].Ban
		}
	}
	return nil
}

// decisionData fills the wording data of the decision rec of case v: the
// defendant, the outcome, the ban as decided and the precautionary ban
// ordered with it, dated on the day of the signature (today for a
// minuta).
func (s *Service) decisionData(ctx context.Context, v *casefile.View, court CourtData, rec *decisions.SentenceRecord, draft bool) (*CaseData, error) {
	now := s.Clock.Now()
	if rec.SignedAt != nil {
		now = *rec.SignedAt
	}
	data := NewCaseData(v, court, s.Loc, now)
	data.Sentence, data.Draft, data.Title = NewSentenceData(*rec, s.Loc), draft, "SENTENÇA"
	day := civil.Today(now, s.Loc)
	if rec.BanID != nil {
		if b := caseBan(v, *rec.BanID); b != nil {
			bd := NewBanData(decided(*b), day)
			for i := range data.Bans {
				if data.Bans[i].ID == b.ID {
					data.Bans[i] = bd
				}
			}
		}
		data.WithBan(*rec.BanID, rec.DefendantID)
		if data.Ban != nil && !data.Ban.Person && data.Ban.GroupBanID == 0 {
			for _, bv := range v.Bans {
				if bv.ID == data.Ban.ID && bv.GroupID != nil {
					if err := s.exclusions(ctx, v, &bv, data); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	if data.Ban == nil {
		data.WithDefendant(rec.DefendantID)
	}
	if rec.PrecautionaryBanID != nil {
		if b := caseBan(v, *rec.PrecautionaryBanID); b != nil {
			bd := NewBanData(*b, day)
			data.Prec = &bd
		}
	}
	return data, nil
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

// SentenceDocument returns the sentence document of a defendant's decision
// in case caseID: the decision of defendantID, or the one that imposed ban
// banID. A signed decision has one document, issued once (at signing:
// IssueSentence, or at the first download) and stored with the sentence
// (sentences.document_id): one verification code per decision, and every
// later download gives the same PDF. A ban no recorded sentence decided (a
// plea agreement, a precautionary order alone, a member's ban) gives its
// decision, the same document while its wording comes out the same.
// errs.NotFound for a case of another court, a ban not of the case, or a
// defendant with no signed decision; errs.Invalid when neither id is
// given.
func (s *Service) SentenceDocument(ctx context.Context, actor cases.Actor, caseID, defendantID, banID int64) (*Document, error) {
	if defendantID == 0 && banID == 0 {
		return nil, errs.InvalidField("defendant_id", "required", "informe o réu (defendant_id) ou o impedimento (ban_id) da sentença.")
	}
	var out *Document
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		v, err := s.Casefile.Get(ctx, actor, caseID)
		if err != nil {
			return err
		}
		rec := sentenceOf(v, defendantID, banID)
		if rec == nil && defendantID != 0 {
			return errs.New(errs.NotFound, fmt.Sprintf("Não há sentença assinada do réu %d no processo %s.", defendantID, v.Number))
		}
		if rec == nil {
			out, err = s.banDecision(ctx, actor, v, banID)
			return err
		}
		out, err = s.storedSentence(ctx, actor, v, rec)
		return err
	})
	return out, err
}

// IssueSentence issues the sentence document of the decision of
// defendantID in case caseID right after the judge signs it (the web
// handlers of POST .../sentence and .../sentence/sign call it): the one
// document of that decision (SentenceDocument).
func (s *Service) IssueSentence(ctx context.Context, actor cases.Actor, caseID, defendantID int64) (*Document, error) {
	return s.SentenceDocument(ctx, actor, caseID, defendantID, 0)
}

// storedSentence returns the document stored with decision rec, issuing
// and storing it the first time (the sentence's row is locked meanwhile,
// so that two first downloads at once give one document).
func (s *Service) storedSentence(ctx context.Context, actor cases.Actor, v *casefile.View, rec *decisions.SentenceRecord) (*Document, error) {
	docID, err := s.Decisions.LockSentenceDocument(ctx, rec.ID)
	if err != nil {
		return nil, err
	}
	if docID != nil {
		return s.store().byID(ctx, *docID)
	}
	court, err := s.CourtData(ctx, v.Court)
	if err != nil {
		return nil, err
	}
	data, err := s.decisionData(ctx, v, court, rec, false)
	if err != nil {
		return nil, err
	}
	number := strings.NewReplacer("-", "", ".", "").Replace(v.Number)
	doc := Document{CaseID: &v.ID, CaseNumber: &number, IssuedBy: userID(actor), BanID: rec.BanID}
	if doc.BanID == nil {
		doc.BanID = rec.PrecautionaryBanID
	}
	d, err := s.issue(ctx, KindSentence, court, data, doc)
	if err != nil {
		return nil, err
	}
	if err := s.Decisions.SetSentenceDocument(ctx, rec.ID, d.ID); err != nil {
		return nil, err
	}
	return d, nil
}

// banDecision is the decision document of ban banID of case v when no
// recorded sentence imposed it, dated on the day the ban was decided; the
// same wording gives back the document already issued.
func (s *Service) banDecision(ctx context.Context, actor cases.Actor, v *casefile.View, banID int64) (*Document, error) {
	var ban *cases.BanView
	for i := range v.Bans {
		if v.Bans[i].ID == banID {
			ban = &v.Bans[i]
		}
	}
	court, err := s.CourtData(ctx, v.Court)
	if err != nil {
		return nil, err
	}
	when := s.Clock.Now()
	if ban != nil {
		when = ban.CreatedAt
	}
	data := NewCaseData(v, court, s.Loc, when)
	if ban == nil || !data.WithBan(banID, ban.DefendantID) {
		return nil, errs.New(errs.NotFound, fmt.Sprintf("Impedimento %d não encontrado no processo %s.", banID, v.Number))
	}
	data.Title = "SENTENÇA"
	if ban.Precautionary {
		data.Title = "DECISÃO"
	}
	if !data.Ban.Person && data.Ban.GroupBanID == 0 && ban.GroupID != nil {
		if err := s.exclusions(ctx, v, ban, data); err != nil {
			return nil, err
		}
	}
	markup, err := s.Wording.Execute(KindSentence, data)
	if err != nil {
		return nil, err
	}
	source := sha256.Sum256([]byte(markup))
	h := fnv.New64a()
	h.Write(source[:])
	if err := db.Conn(ctx, s.DB).Exec("SELECT pg_advisory_xact_lock(?)", int64(h.Sum64()>>1)).Error; err != nil {
		return nil, err
	}
	if d, err := s.store().bySource(ctx, KindSentence, court.Code, source[:]); err != nil || d != nil {
		return d, err
	}
	number := strings.NewReplacer("-", "", ".", "").Replace(v.Number)
	return s.issue(ctx, KindSentence, court, data, Document{CaseID: &v.ID, CaseNumber: &number, IssuedBy: userID(actor), BanID: &banID})
}

// errPreview rolls back the signature a preview simulates.
var errPreview = errors.New("pdf: preview rolled back")

// DraftPreview lays out the saved minuta of defendantID in case caseID
// (decisions.Service.Draft) as the sentence document it would be if signed
// now, marked "MINUTA — sem valor de documento", with no verification code
// and stored nowhere: the signature is run with the minuta's input in a
// transaction that is rolled back, so the preview checks the range, the
// term and the prison the same way the signature does (a minuta that would
// be refused is errs.Invalid naming the field). Only the judge of the case
// may preview it (errs.Forbidden); errs.NotFound when there is no minuta.
// It returns the PDF bytes and the number of pages.
func (s *Service) DraftPreview(ctx context.Context, actor cases.Actor, caseID, defendantID int64) ([]byte, int, error) {
	if defendantID == 0 {
		return nil, 0, errs.InvalidField("defendant_id", "required", "informe o réu (defendant_id) da minuta.")
	}
	draft, err := s.Decisions.Draft(ctx, actor, caseID, defendantID)
	if err != nil {
		return nil, 0, err
	}
	var in decisions.SentenceInput
	if err := json.Unmarshal(draft.Input, &in); err != nil {
		return nil, 0, err
	}
	in.Draft = false
	// The rollback below must undo only the simulated signature: never run
	// inside a caller's transaction.
	if _, inTx := db.Conn(ctx, s.DB).Statement.ConnPool.(gorm.TxCommitter); inTx {
		return nil, 0, errors.New("pdf: DraftPreview inside a transaction")
	}
	var pdfBytes []byte
	var pages int
	err = db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		res, err := s.Decisions.Sentence(ctx, actor, caseID, in)
		if err != nil {
			return err
		}
		v, err := s.Casefile.Get(ctx, actor, caseID)
		if err != nil {
			return err
		}
		court, err := s.CourtData(ctx, v.Court)
		if err != nil {
			return err
		}
		rec := res.Sentence
		rec.Status, rec.SignedAt = "draft", nil
		data, err := s.decisionData(ctx, v, court, &rec, true)
		if err != nil {
			return err
		}
		data.Today = LongDate(civil.Today(s.Clock.Now(), s.Loc))
		markup, err := s.Wording.Execute(KindSentence, data)
		if err != nil {
			return err
		}
		meta := Meta{Title: "Minuta de sentença — sem valor de documento", CourtCode: court.Code, CourtName: plain(court.Name),
			IssuedAt: s.Clock.Now(), Loc: s.Loc, Draft: true}
		pdfBytes, pages, err = Layout(meta, markup)
		if err != nil {
			return err
		}
		return errPreview
	})
	if !errors.Is(err, errPreview) {
		return nil, 0, err
	}
	return pdfBytes, pages, nil
}
