package server

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"mime"
	"net/http"
	"strings"

	"github.com/juizado/juizado/internal/documents"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/pdf"
	"github.com/juizado/juizado/internal/textcheck"
	"github.com/juizado/juizado/registry/blocklist"
	"github.com/labstack/echo/v4"
)

// The downloads and readers the JSON API (internal/api) and the pages
// (internal/ui) share: both register these handlers on their own routes
// (the pages turn their errors into pages), so neither imports the other.

// SendDocument answers with a stored court document (application/pdf,
// inline, named name.pdf, its verification code in X-Juizado-Document-Code).
func SendDocument(c echo.Context, doc *documents.Document, name string) error {
	h := c.Response().Header()
	h.Set("X-Juizado-Document-Code", pdf.GroupCode(doc.Code))
	h.Set("Content-Disposition", mime.FormatMediaType("inline", map[string]string{"filename": name + ".pdf"}))
	h.Set("Cache-Control", "private, no-store")
	return c.Blob(http.StatusOK, "application/pdf", doc.Content)
}

// queryID reads the positive integer query parameter name (an id, 1 to
// MaxID, QueryInt); 0 when absent; a 422 of rule "integer" or "range" for
// a bad value.
func queryID(c echo.Context, name string) (int64, error) {
	var f errs.Fields
	id := QueryInt(c, &f, name, 1, MaxID, 0)
	return id, f.Err()
}

// CaseDocument: GET /api/v1/cases/:id/documents/KIND.pdf (and the page
// /processos/:id/KIND.pdf). The certidão de trânsito em julgado (final.pdf)
// is of the case, or of ?defendant_id= alone. The sentence, notice and letter name what they
// are about: ?ban_id= (a ban of the case) or ?defendant_id= (the
// defendant's signed decision: the sentence of an acquittal or a prison
// conviction has no ban), one of the two. The sentence is one document per
// decision: every download gives the same PDF and code
// (documents.Service.CaseDocument, DefendantDocument).
func (s *Server) CaseDocument(k pdf.Kind) echo.HandlerFunc {
	names := map[pdf.Kind]string{pdf.KindSentence: "sentenca", pdf.KindNotice: "intimacao", pdf.KindLetter: "oficio", pdf.KindSummary: "resumo",
		pdf.KindFinal: "certidao-transito"}
	return func(c echo.Context) error {
		id, err := PathID(c, "id")
		if err != nil {
			return err
		}
		doc, err := s.caseDocumentFor(c, k, id)
		if err != nil {
			return err
		}
		return SendDocument(c, doc, names[k]+"-"+pdf.FormatCNJ(*doc.CaseNumber))
	}
}

// caseDocumentFor issues document k of case id for the ban_id or the
// defendant_id of the query (none for the summary).
func (s *Server) caseDocumentFor(c echo.Context, k pdf.Kind, id int64) (*documents.Document, error) {
	ctx := c.Request().Context()
	docs := s.App.Documents
	if k == pdf.KindSummary {
		return docs.CaseDocument(ctx, Actor(c), k, id, 0)
	}
	if k == pdf.KindFinal { // the whole case, or ?defendant_id= one party
		defID, err := queryID(c, "defendant_id")
		if err != nil {
			return nil, err
		}
		return docs.FinalCertificate(ctx, Actor(c), id, defID)
	}
	banID, err := queryID(c, "ban_id")
	if err != nil {
		return nil, err
	}
	defID, err := queryID(c, "defendant_id")
	if err != nil {
		return nil, err
	}
	switch {
	case banID != 0 && defID != 0:
		return nil, errs.InvalidField("defendant_id", "one_of", "informe o impedimento (ban_id) ou o réu (defendant_id), não os dois.")
	case banID == 0 && defID == 0:
		return nil, errs.InvalidField("ban_id", "required", "informe o impedimento (ban_id) ou o réu (defendant_id) a que o documento se refere.")
	case defID != 0:
		return docs.DefendantDocument(ctx, Actor(c), k, id, defID)
	}
	return docs.CaseDocument(ctx, Actor(c), k, id, banID)
}

// SentenceDraft: GET /api/v1/cases/:id/sentence/draft.pdf?defendant_id=
// (the judge of the case; the page /processos/:id/minuta.pdf): the saved
// minuta laid out as the sentence it would be if signed now, marked
// "MINUTA — sem valor de documento", with no verification code and stored
// nowhere (documents.Service.DraftPreview).
func (s *Server) SentenceDraft(c echo.Context) error {
	id, err := PathID(c, "id")
	if err != nil {
		return err
	}
	defID, err := queryID(c, "defendant_id")
	if err != nil {
		return err
	}
	if defID == 0 {
		return errs.InvalidField("defendant_id", "required", "informe o réu (defendant_id) da minuta.")
	}
	b, _, err := s.App.Documents.DraftPreview(c.Request().Context(), Actor(c), id, defID)
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Content-Disposition", mime.FormatMediaType("inline", map[string]string{"filename": fmt.Sprintf("minuta-sentenca-%d-%d.pdf", id, defID)}))
	h.Set("Cache-Control", "private, no-store")
	return c.Blob(http.StatusOK, "application/pdf", b)
}

// Evidence: GET /api/v1/evidence/:id (staff of the court; the page
// /provas/:id): the file as stored, with its type and SHA-256
// (cases.Service.GetEvidence).
func (s *Server) Evidence(c echo.Context) error {
	id, err := ParseID(c, "id", "Prova %q não encontrada.")
	if err != nil {
		return err
	}
	v, data, err := s.Cases.Case.GetEvidence(c.Request().Context(), Actor(c), id)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	h := c.Response().Header()
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": v.Filename}))
	h.Set("Repr-Digest", "sha-256=:"+base64.StdEncoding.EncodeToString(sum[:])+":")
	h.Set("ETag", `"`+v.SHA256+`"`)
	return c.Blob(http.StatusOK, v.ContentType, data)
}

// MemberPhoto: GET /api/v1/members/:id/photo (who may read the register;
// recorded; the page /associados/:id/foto): the member's photo
// (registry.Groups.GetPhoto).
func (s *Server) MemberPhoto(c echo.Context) error {
	id, err := IDParam(c, "Associado")
	if err != nil {
		return err
	}
	ctype, data, sum, err := s.App.Groups.GetPhoto(c.Request().Context(), Actor(c), id)
	if err != nil {
		return err
	}
	NoStore(c)
	c.Response().Header().Set("ETag", `"`+sum+`"`)
	c.Response().Header().Set("Content-Disposition", "inline")
	return c.Blob(http.StatusOK, ctype, data)
}

// PublicFilter reads ?court=TR.OOOO and ?club=NAME of the public list
// (GET /api/v1/public/banned and the page /impedidos); a 422 naming the
// field for a bad court code or club name.
func PublicFilter(c echo.Context) (blocklist.PublicFilter, error) {
	f := blocklist.PublicFilter{Court: strings.TrimSpace(c.QueryParam("court")), Club: strings.TrimSpace(c.QueryParam("club"))}
	if f.Court != "" && !blocklist.ValidCourt(f.Court) {
		return f, errs.InvalidField("court", "court", "court deve ser um código TR.OOOO (por exemplo 26.0100).")
	}
	if rule, msg := textcheck.Problem(f.Club, 200, false); rule != "" {
		return f, errs.InvalidField("club", rule, "club (nome do clube mandante): "+msg)
	}
	return f, nil
}
