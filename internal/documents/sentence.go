package documents

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/pdf"
	"github.com/juizado/juizado/sanctions"
	"gorm.io/gorm"
)

// decisionData fills the wording data of the decision rec of case v: the
// defendant, the outcome, the ban as decided and the precautionary ban
// ordered with it, dated on the day of the signature (today for a
// minuta).
func (s *Service) decisionData(ctx context.Context, v *casefile.View, court pdf.CourtData, rec *decisions.SentenceRecord, draft bool) (*pdf.CaseData, error) {
	now := s.Clock.Now()
	if rec.SignedAt != nil {
		now = *rec.SignedAt
	}
	data := pdf.NewCaseData(v, court, s.Loc, now)
	data.Sentence, data.Draft, data.Title = pdf.NewSentenceData(*rec, s.Loc), draft, "SENTENÇA"
	day := civil.Today(now, s.Loc)
	if rec.BanID != nil {
		if b := caseBan(v, *rec.BanID); b != nil {
			bd := pdf.NewBanData(pdf.Decided(*b), day)
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
			bd := pdf.NewBanData(*b, day)
			data.Prec = &bd
		}
	}
	return data, nil
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
func (s *Service) SentenceDocument(ctx context.Context, actor actor.Actor, caseID, defendantID, banID int64) (*Document, error) {
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
func (s *Service) IssueSentence(ctx context.Context, actor actor.Actor, caseID, defendantID int64) (*Document, error) {
	return s.SentenceDocument(ctx, actor, caseID, defendantID, 0)
}

// storedSentence returns the document stored with decision rec, issuing
// and storing it the first time. The layout is made before the sentence's
// row is locked (a slow layout never holds the lock others wait on); under
// the lock a document stored meanwhile wins and the new layout is dropped,
// so that two first downloads at once give one document.
func (s *Service) storedSentence(ctx context.Context, actor actor.Actor, v *casefile.View, rec *decisions.SentenceRecord) (*Document, error) {
	if rec.DocumentID != nil {
		return s.store().byID(ctx, *rec.DocumentID)
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
	var prior bool
	stored := func() (*Document, error) {
		docID, err := s.Decisions.LockSentenceDocument(ctx, rec.ID)
		if err != nil || docID == nil {
			return nil, err
		}
		prior = true
		return s.store().byID(ctx, *docID)
	}
	d, err := s.issueOnce(ctx, pdf.KindSentence, court, data, doc, stored)
	if err != nil || prior {
		return d, err
	}
	if err := s.Decisions.SetSentenceDocument(ctx, rec.ID, d.ID); err != nil {
		return nil, err
	}
	return d, nil
}

// banDecision is the decision document of ban banID of case v when no
// recorded sentence imposed it, dated on the day the ban was decided; the
// same wording gives back the document already issued.
func (s *Service) banDecision(ctx context.Context, actor actor.Actor, v *casefile.View, banID int64) (*Document, error) {
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
	data := pdf.NewCaseData(v, court, s.Loc, when)
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
	markup, err := s.Wording.Execute(pdf.KindSentence, data)
	if err != nil {
		return nil, err
	}
	source := sha256.Sum256([]byte(markup))
	h := fnv.New64a()
	h.Write(source[:])
	if err := db.Conn(ctx, s.DB).Exec("SELECT pg_advisory_xact_lock(?)", int64(h.Sum64()>>1)).Error; err != nil {
		return nil, err
	}
	if d, err := s.store().bySource(ctx, pdf.KindSentence, court.Code, source[:]); err != nil || d != nil {
		return d, err
	}
	number := strings.NewReplacer("-", "", ".", "").Replace(v.Number)
	return s.issue(ctx, pdf.KindSentence, court, data, Document{CaseID: &v.ID, CaseNumber: &number, IssuedBy: userID(actor), BanID: &banID})
}

// errPreview rolls back the signature a preview simulates.
var errPreview = errors.New("pdf.pdf: preview rolled back")

// DraftPreview lays out the saved minuta of defendantID in case caseID
// (decisions.Service.Draft) as the sentence document it would be if signed
// now, marked "MINUTA — sem valor de documento", with no verification code
// and stored nowhere: the signature is run with the minuta's input in a
// transaction that is rolled back, so the preview checks the range, the
// term and the prison the same way the signature does (a minuta that would
// be refused is errs.Invalid naming the field). Only the judge of the case
// may preview it (errs.Forbidden); errs.NotFound when there is no minuta.
// It returns the PDF bytes and the number of pages.
func (s *Service) DraftPreview(ctx context.Context, actor actor.Actor, caseID, defendantID int64) ([]byte, int, error) {
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
		return nil, 0, errors.New("pdf.pdf: DraftPreview inside a transaction")
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
		data.Today = pdf.LongDate(civil.Today(s.Clock.Now(), s.Loc))
		markup, err := s.Wording.Execute(pdf.KindSentence, data)
		if err != nil {
			return err
		}
		meta := pdf.Meta{Title: "Minuta de sentença — sem valor de documento", CourtCode: court.Code, CourtName: pdf.Plain(court.Name),
			IssuedAt: s.Clock.Now(), Loc: s.Loc, Draft: true}
		pdfBytes, pages, err = pdf.Layout(meta, markup)
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
