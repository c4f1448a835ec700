// Package documents is the court documents' service: it issues each
// document (sentence, notice, letter, summary, certificate, poster, the
// extract of a register) from what its owners answer (cases: the case,
// courts, bans, sentences; registry: the public list, groups and
// members), lays it out with internal/pdf under a fresh verification code,
// stores it (it owns the documents table: store.go) and verifies a copy
// against the record (Verify). Built once by app.New.
package documents

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/bnmp"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/execution"
	"github.com/juizado/juizado/cases/schedule"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/pdf"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/registry/blocklist"
	"gorm.io/gorm"
)

// Service issues the court documents: it reads the case, ban or list,
// fills the wording, lays out the PDF with a fresh verification code and
// stores it. Safe for concurrent use.
type Service struct {
	DB *gorm.DB
	// The case services the documents read (app.Cases's, built once by
	// app.New).
	Case      *cases.Service
	Casefile  *casefile.Service
	Decisions *decisions.Service
	Schedule  *schedule.Service
	Execution *execution.Service
	Lists     *blocklist.Lists
	// Groups are the fan groups' registers (the extract of a register).
	Groups *registry.Groups
	// BNMP are the bans' mandates (the mandate document).
	BNMP    *bnmp.Service
	Wording pdf.Wording
	// BaseURL is the court's public address (JUIZADO_PUBLIC_URL); the QR
	// code points to BaseURL/verificar/CODE.
	BaseURL string
	// Court is the court the public poster is issued by (JUIZADO_COURT).
	Court string
	Clock clock.Clock
	Loc   *time.Location
	// NewCode makes verification codes (pdf.NewCode when nil).
	NewCode func() (string, error)
}

func (s *Service) store() *Store { return &Store{DB: s.DB} }

// VerifyURL is where a code is checked.
func (s *Service) VerifyURL(code string) string {
	base := strings.TrimRight(s.BaseURL, "/")
	if base == "" {
		base = "http://localhost:8080"
	}
	return base + "/verificar/" + pdf.GroupCode(code)
}

// CourtData reads a court's name (cases.Service.CourtName): errs.NotFound
// for a court that does not exist.
func (s *Service) CourtData(ctx context.Context, code string) (pdf.CourtData, error) {
	name, err := s.Case.CourtName(ctx, code)
	if err != nil {
		return pdf.CourtData{}, err
	}
	return pdf.CourtData{Code: code, Name: pdf.Esc(name), Tribunal: pdf.Tribunal(code)}, nil
}

// issue fills the wording of kind with data, lays it out under a new code
// and stores it with doc's references.
func (s *Service) issue(ctx context.Context, kind pdf.Kind, court pdf.CourtData, data any, doc Document) (*Document, error) {
	return s.issueOnce(ctx, kind, court, data, doc, nil)
}

// issueOnce is issue with stored, when not nil, run after the layout and
// right before the insert: a document it returns (one stored meanwhile for
// the same decision) is returned instead, and the new layout is dropped.
func (s *Service) issueOnce(ctx context.Context, kind pdf.Kind, court pdf.CourtData, data any, doc Document, stored func() (*Document, error)) (*Document, error) {
	markup, err := s.Wording.Execute(kind, data)
	if err != nil {
		return nil, err
	}
	now := s.Clock.Now()
	newCode := s.NewCode
	if newCode == nil {
		newCode = pdf.NewCode
	}
	source := sha256.Sum256([]byte(markup))
	for attempt := 0; ; attempt++ {
		code, err := newCode()
		if err != nil {
			return nil, err
		}
		meta := pdf.Meta{Title: kind.Title(), CourtCode: court.Code, CourtName: pdf.Plain(court.Name), Code: code,
			VerifyURL: s.VerifyURL(code), IssuedAt: now, Loc: s.Loc}
		b, pages, err := pdf.Layout(meta, markup)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(b)
		d := doc
		d.Code, d.Kind, d.CourtCode, d.IssuedAt, d.Pages, d.Size = code, kind, court.Code, now, pages, len(b)
		d.SHA256, d.SourceSHA256, d.Content = sum[:], source[:], b
		if stored != nil && attempt == 0 {
			if prior, err := stored(); err != nil || prior != nil {
				return prior, err
			}
		}
		err = s.store().Insert(ctx, &d)
		if err == nil {
			return &d, nil
		}
		if !db.IsUniqueViolation(err, "documents_code_key") || attempt >= 3 {
			return nil, err
		}
	}
}

// CaseDocument issues the summary of case id, or its sentence, notice or
// letter about ban banID (the sentence: SentenceDocument, one document
// per decision). Cases of other courts are errs.NotFound; a ban that is
// not of the case is errs.NotFound; a missing ban id errs.Invalid.
func (s *Service) CaseDocument(ctx context.Context, actor actor.Actor, kind pdf.Kind, caseID, banID int64) (*Document, error) {
	if kind == pdf.KindSentence {
		if banID == 0 {
			return nil, errs.InvalidField("ban_id", "required", "informe o impedimento (ban_id) ou o réu (defendant_id) a que o documento se refere.")
		}
		return s.SentenceDocument(ctx, actor, caseID, 0, banID)
	}
	return s.caseDocument(ctx, actor, kind, caseID, 0, banID)
}

// DefendantDocument issues the sentence or the notice of the decision of
// defendant defendantID of case caseID: the sentence document
// (SentenceDocument); the notice of the ban the sentence imposed (or of
// its precautionary ban), or, for an outcome with no ban (acquittal,
// prison), the notice of the sentence itself. errs.NotFound when the
// defendant has no signed decision in the case.
func (s *Service) DefendantDocument(ctx context.Context, actor actor.Actor, kind pdf.Kind, caseID, defendantID int64) (*Document, error) {
	switch kind {
	case pdf.KindSentence:
		return s.SentenceDocument(ctx, actor, caseID, defendantID, 0)
	case pdf.KindNotice, pdf.KindLetter:
	default:
		return nil, errs.InvalidField("defendant_id", "kind", "o resumo é do processo: não informe defendant_id.")
	}
	return s.caseDocument(ctx, actor, kind, caseID, defendantID, 0)
}

// caseData reads case caseID as actor sees it (errs.NotFound for another
// court's) with its court, the documents' data of the case and the
// document record to store (case, 20-digit number, issuer).
func (s *Service) caseData(ctx context.Context, actor actor.Actor, caseID int64) (*casefile.View, pdf.CourtData, *pdf.CaseData, Document, error) {
	v, err := s.Casefile.Get(ctx, actor, caseID)
	if err != nil {
		return nil, pdf.CourtData{}, nil, Document{}, err
	}
	court, err := s.CourtData(ctx, v.Court)
	if err != nil {
		return nil, pdf.CourtData{}, nil, Document{}, err
	}
	data := pdf.NewCaseData(v, court, s.Loc, s.Clock.Now())
	number := strings.NewReplacer("-", "", ".", "").Replace(v.Number)
	return v, court, data, Document{CaseID: &v.ID, CaseNumber: &number, IssuedBy: userID(actor)}, nil
}

func (s *Service) caseDocument(ctx context.Context, actor actor.Actor, kind pdf.Kind, caseID, defendantID, banID int64) (*Document, error) {
	v, court, data, doc, err := s.caseData(ctx, actor, caseID)
	if err != nil {
		return nil, err
	}
	if kind == pdf.KindSummary {
		return s.issue(ctx, kind, court, data, doc)
	}
	if defendantID != 0 {
		rec := sentenceOf(v, defendantID, 0)
		if rec == nil {
			return nil, errs.New(errs.NotFound, fmt.Sprintf("Não há sentença assinada do réu %d no processo %s.", defendantID, v.Number))
		}
		data.Sentence = pdf.NewSentenceData(*rec, s.Loc)
		switch {
		case rec.BanID != nil:
			banID = *rec.BanID
		case rec.PrecautionaryBanID != nil:
			banID = *rec.PrecautionaryBanID
		case kind == pdf.KindLetter:
			return nil, errs.New(errs.NotFound, fmt.Sprintf("A sentença do réu %d não impôs impedimento: não há ofício a expedir.", defendantID))
		default:
			data.WithDefendant(defendantID)
			return s.issue(ctx, kind, court, data, doc)
		}
	}
	if banID == 0 {
		return nil, errs.InvalidField("ban_id", "required", "informe o impedimento (ban_id) a que o documento se refere.")
	}
	var ban *cases.BanView
	for i := range v.Bans {
		if v.Bans[i].ID == banID {
			ban = &v.Bans[i]
		}
	}
	if ban == nil || !data.WithBan(banID, ban.DefendantID) {
		return nil, errs.New(errs.NotFound, fmt.Sprintf("Impedimento %d não encontrado no processo %s.", banID, v.Number))
	}
	if data.Sentence == nil && kind == pdf.KindNotice {
		if rec := sentenceOf(v, 0, banID); rec != nil {
			data.Sentence = pdf.NewSentenceData(*rec, s.Loc)
		}
	}
	if kind == pdf.KindNotice && data.Ban.Reporting != nil && !data.Ban.AwaitingFinal {
		wv, err := s.Schedule.ReportingWindows(ctx, actor, banID)
		if err != nil {
			return nil, err
		}
		data.Ban.SetWindows(wv.Windows, s.Loc)
	}
	doc.BanID = &banID
	return s.issue(ctx, kind, court, data, doc)
}

// exclusions adds to the sentence of group ban ban the members the judge
// excluded (name and CPF from the group's register) and the reason, as the
// docket records them.
func (s *Service) exclusions(ctx context.Context, v *casefile.View, ban *cases.BanView, data *pdf.CaseData) error {
	ids, reason := pdf.Exclusions(v.Movements, ban.Article, ban.Law)
	if len(ids) == 0 {
		return nil
	}
	ms, err := registry.GroupMembers(ctx, s.DB, *ban.GroupID, ids)
	if err != nil {
		return err
	}
	for _, m := range ms {
		data.Excluded = append(data.Excluded, pdf.MemberBanData{MemberID: m.ID, Name: pdf.Esc(m.FullName), CPF: pdf.FormatCPF(m.CPF)})
	}
	pdf.SortMembers(data.Excluded)
	data.ExclusionReason = pdf.Esc(reason)
	return nil
}

func userID(a actor.Actor) *int64 {
	if a.UserID == 0 {
		return nil
	}
	id := a.UserID
	return &id
}

// Certificate issues the certificate of the ban status of cpf in the
// actor's court: the bans in force or yet to start ("nada consta" when
// none) and, apart, the bans decided that wait for the final judgment,
// which are not in force (Súmula 643 STJ; CF art. 5º, LVII). A malformed
// CPF is errs.Invalid.
func (s *Service) Certificate(ctx context.Context, actor actor.Actor, cpfText string) (*Document, error) {
	cpf, err := registry.ParseCPF(cpfText)
	if err != nil {
		return nil, errs.InvalidField("cpf", "cpf", err.Error())
	}
	court, err := s.CourtData(ctx, actor.Court)
	if err != nil {
		return nil, err
	}
	now := s.Clock.Now()
	today := civil.Today(now, s.Loc)
	st, err := s.Execution.BanStatusOf(ctx, actor, cpf.String(), today)
	if err != nil {
		return nil, err
	}
	data := &pdf.CertificateData{Court: court, CPF: cpf.Formatted(), Name: pdf.Esc(st.Name), Today: pdf.LongDate(today), Time: pdf.LongDateTime(now, s.Loc)}
	for _, b := range st.Bans {
		data.Bans = append(data.Bans, pdf.NewBanData(b, today))
	}
	for _, b := range st.Awaiting {
		data.Awaiting = append(data.Awaiting, pdf.NewBanData(b, today))
	}
	return s.issue(ctx, pdf.KindCertificate, court, data, Document{IssuedBy: userID(actor)})
}

// MaxPosterNames bounds a poster: a list for one stadium's gates, not the
// whole country's (about 100 pages of A4 in large type).
const MaxPosterNames = 5000

// Poster issues the public list poster (blocklist.Lists.Public narrowed by
// f), headed by the court f.Court or else s.Court; the same list on the
// same day gives back the document already issued. More than
// MaxPosterNames names: errs.Invalid on club (narrow the list).
func (s *Service) Poster(ctx context.Context, f blocklist.PublicFilter) (*Document, error) {
	code := f.Court
	if code == "" {
		code = s.Court
	}
	if code == "" {
		var err error
		if code, err = s.Case.FirstCourt(ctx); err != nil {
			return nil, err
		}
	}
	court, err := s.CourtData(ctx, code)
	if err != nil {
		return nil, err
	}
	items, err := s.Lists.Public(ctx, f)
	if err != nil {
		return nil, err
	}
	if len(items) > MaxPosterNames {
		return nil, errs.InvalidField("club", "too_many",
			fmt.Sprintf("o cartaz teria %d nomes (no máximo %d): filtre pelo clube (club) ou pelo juizado (court).", len(items), MaxPosterNames))
	}
	data := pdf.NewPosterData(court, items, civil.Today(s.Clock.Now(), s.Loc))
	return s.issueUnlessSame(ctx, pdf.KindPoster, court, data, Document{})
}

// issueUnlessSame is issue, unless a document of kind of the court was
// issued from the very same wording filled with data (bySource): that one
// is returned, with its code.
func (s *Service) issueUnlessSame(ctx context.Context, kind pdf.Kind, court pdf.CourtData, data any, doc Document) (*Document, error) {
	markup, err := s.Wording.Execute(kind, data)
	if err != nil {
		return nil, err
	}
	source := sha256.Sum256([]byte(markup))
	if d, err := s.store().bySource(ctx, kind, court.Code, source[:]); err != nil || d != nil {
		return d, err
	}
	return s.issue(ctx, kind, court, data, doc)
}

// Verify tells what the document issued under code is (text as typed:
// ParseCode); errs.Invalid for text that cannot be a code, errs.NotFound
// for a code never issued.
func (s *Service) Verify(ctx context.Context, text string) (*Verification, *Document, error) {
	code, err := pdf.ParseCode(text)
	if err != nil {
		return nil, nil, errs.InvalidField("code", "code", err.Error())
	}
	d, err := s.store().ByCode(ctx, code)
	if err != nil {
		return nil, nil, err
	}
	court, err := s.CourtData(ctx, d.CourtCode)
	if err != nil {
		return nil, nil, err
	}
	v := &Verification{Code: pdf.GroupCode(d.Code), Kind: d.Kind, Title: d.Kind.Title(), IssuedAt: d.IssuedAt.UTC(),
		IssuedOn: pdf.LongDate(civil.Today(d.IssuedAt, s.Loc)), Court: d.CourtCode, CourtName: pdf.Plain(court.Name),
		Tribunal: court.Tribunal, Pages: d.Pages, Size: d.Size, SHA256: fmt.Sprintf("%x", d.SHA256)}
	if d.CaseNumber != nil {
		v.CaseNumber = pdf.FormatCNJ(*d.CaseNumber)
	}
	return v, d, nil
}

// Register issues the extract of group groupID's register of members
// ("extrato do cadastro de associados", LGE art. 178 § 4º) to those who may
// read the register (registry.Groups.Extract: the group's managers; the
// prosecutors, police, clerks and judges of its court, whose read is
// recorded), headed by the group's court. errs.NotFound for anyone else.
// The read, its records and the stored document go in one transaction.
func (s *Service) Register(ctx context.Context, a actor.Actor, groupID int64) (*Document, error) {
	var out *Document
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		g, ms, err := s.Groups.Extract(ctx, a, groupID)
		if err != nil {
			return err
		}
		code := g.Court
		if code == "" {
			code = s.Court
		}
		court, err := s.CourtData(ctx, code)
		if err != nil {
			return err
		}
		data := pdf.NewRegisterData(court, g, ms, s.Loc, s.Clock.Now())
		doc := Document{GroupID: &g.ID}
		if a.UserID != 0 {
			id := a.UserID
			doc.IssuedBy = &id
		}
		out, err = s.issue(ctx, pdf.KindRegister, court, data, doc)
		return err
	})
	return out, err
}
