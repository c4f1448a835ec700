package api

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/juizado/juizado/internal/documents"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/pdf"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/registry/blocklist"
	"github.com/labstack/echo/v4"
)

// Documents serves the certificates, the public poster and the public
// verification of the court documents (PDF); the case documents and the
// minuta are the server core's downloads (server.Server.CaseDocument,
// SentenceDraft), shared with the pages.
type Documents struct {
	API *API               // the API it belongs to
	Svc *documents.Service // the documents' service, made once
}

// maxUpload bounds a copy uploaded for verification (the server's body
// limit is 2 MB as well; issued documents are far smaller).
const maxUpload = 2 << 20

// newDocuments makes the documents' handlers over the application's
// documents service (app.App.Documents) and checks the court's own wording
// (logged).
func (s *API) newDocuments() *Documents {
	d := &Documents{API: s, Svc: s.App.Documents}
	if s.Deps.Templates != nil {
		if err := d.Svc.Wording.Check(); err != nil {
			s.Deps.Logger.Error("document wording", "err", err.Error())
		}
	}
	return d
}

// certificate: GET /api/v1/certificates/:cpf (the CPF with or without
// punctuation, optionally ending in .pdf).
func (d *Documents) certificate(c echo.Context) error {
	cpf := strings.TrimSuffix(c.Param("cpf"), ".pdf")
	doc, err := d.Svc.Certificate(c.Request().Context(), server.Actor(c), cpf)
	if err != nil {
		return err
	}
	return server.SendDocument(c, doc, "certidao-"+pdf.GroupCode(doc.Code))
}

// poster: GET /impedidos.pdf[?court=TR.OOOO][&club=NAME] (anyone).
func (d *Documents) poster(c echo.Context) error {
	f := blocklist.PublicFilter{Court: strings.TrimSpace(c.QueryParam("court")), Club: c.QueryParam("club")}
	if f.Court != "" && !blocklist.ValidCourt(f.Court) {
		return errs.InvalidField("court", "court", "código do juizado inválido: use TR.OOOO (ex.: 26.0100).")
	}
	if len(f.Club) > 200 {
		return errs.InvalidField("club", "max_length", "nome de clube longo demais.")
	}
	doc, err := d.Svc.Poster(c.Request().Context(), f)
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("X-Juizado-Document-Code", pdf.GroupCode(doc.Code))
	h.Set("Content-Disposition", `inline; filename="impedidos.pdf"`)
	h.Set("Cache-Control", "public, max-age=300")
	return c.Blob(http.StatusOK, "application/pdf", doc.Content)
}

// wantsJSON: ?format=json, or an Accept header that prefers JSON to HTML.
func wantsJSON(c echo.Context) (bool, error) {
	switch c.QueryParam("format") {
	case "json":
		return true, nil
	case "html":
		return false, nil
	case "":
	default:
		return false, errs.InvalidField("format", "oneof", "formato deve ser html ou json.")
	}
	accept := strings.ToLower(c.Request().Header.Get(echo.HeaderAccept))
	return strings.Contains(accept, "application/json") && !strings.Contains(accept, "text/html"), nil
}

// verifyPage is what the HTML verification page shows.
type verifyPage struct {
	Code       string
	V          *documents.Verification
	Comparison *documents.Comparison
	Error      string
}

func (d *Documents) html(c echo.Context, status int, p verifyPage) error {
	if !d.API.HasPage("verificar") { // a server without templates
		return c.String(status, p.Error)
	}
	return d.API.Render(c, status, "verificar", p)
}

// htmlError renders a typed error on the HTML page with its status.
func (d *Documents) htmlError(c echo.Context, code string, err error) error {
	var e *errs.Error
	if !errors.As(err, &e) || e.Kind == errs.Internal {
		return err
	}
	msg := e.Message
	for _, f := range e.Fields {
		msg = f.Message
	}
	return d.html(c, server.StatusOf[e.Kind], verifyPage{Code: code, Error: msg})
}

// verify: GET /verificar/:code (anyone): what the document is, HTML or JSON.
func (d *Documents) verify(c echo.Context) error {
	asJSON, err := wantsJSON(c)
	if err != nil {
		return err
	}
	v, _, err := d.Svc.Verify(c.Request().Context(), c.Param("code"))
	if err != nil {
		if asJSON {
			return err
		}
		return d.htmlError(c, c.Param("code"), err)
	}
	if asJSON {
		return c.JSON(http.StatusOK, v)
	}
	return d.html(c, http.StatusOK, verifyPage{Code: v.Code, V: v})
}

// compare: POST /verificar/:code with the copy (multipart field "file",
// or the PDF as the body) or ?sha256=HEX: authentic or altered.
func (d *Documents) compare(c echo.Context) error {
	asJSON, err := wantsJSON(c)
	if err != nil {
		return err
	}
	fail := func(err error) error {
		if asJSON {
			return err
		}
		return d.htmlError(c, c.Param("code"), err)
	}
	v, doc, err := d.Svc.Verify(c.Request().Context(), c.Param("code"))
	if err != nil {
		return fail(err)
	}
	sum, err := submittedSum(c)
	if err != nil {
		return fail(err)
	}
	cmp := documents.Compare(*v, doc, sum)
	if asJSON {
		return c.JSON(http.StatusOK, cmp)
	}
	return d.html(c, http.StatusOK, verifyPage{Code: v.Code, V: v, Comparison: &cmp})
}

// submittedSum is the SHA-256 of the copy sent: ?sha256= (or form field
// sha256), a multipart file "file", or the raw body.
func submittedSum(c echo.Context) ([]byte, error) {
	hexSum := strings.TrimSpace(c.QueryParam("sha256"))
	ct := strings.ToLower(c.Request().Header.Get(echo.HeaderContentType))
	if hexSum == "" && strings.HasPrefix(ct, "application/x-www-form-urlencoded") {
		hexSum = strings.TrimSpace(c.FormValue("sha256"))
	}
	if hexSum != "" {
		return parseSum(hexSum)
	}
	var r io.Reader = c.Request().Body
	if strings.HasPrefix(ct, "multipart/form-data") {
		if err := c.Request().ParseMultipartForm(maxUpload); err != nil {
			return nil, errs.New(errs.Unreadable, "Não foi possível ler o arquivo enviado.")
		}
		if v := strings.TrimSpace(c.Request().FormValue("sha256")); v != "" {
			return parseSum(v)
		}
		fh, err := c.FormFile("file")
		if err != nil {
			return nil, errs.InvalidField("file", "required", "envie a cópia do documento (PDF) no campo file, ou o sha256.")
		}
		f, err := fh.Open()
		if err != nil {
			return nil, errs.New(errs.Unreadable, "Não foi possível ler o arquivo enviado.")
		}
		defer f.Close()
		r = f
	}
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(r, maxUpload+1))
	if err != nil {
		return nil, errs.New(errs.Unreadable, "Não foi possível ler o arquivo enviado.")
	}
	if n == 0 {
		return nil, errs.InvalidField("file", "required", "envie a cópia do documento (PDF) ou o sha256.")
	}
	if n > maxUpload {
		return nil, echo.NewHTTPError(http.StatusRequestEntityTooLarge, fmt.Sprintf("arquivo maior que %d MB", maxUpload>>20))
	}
	return h.Sum(nil), nil
}

func parseSum(v string) ([]byte, error) {
	b, err := hex.DecodeString(strings.ToLower(strings.TrimSpace(v)))
	if err != nil || len(b) != sha256.Size {
		return nil, errs.InvalidField("sha256", "sha256", "sha256 deve ter 64 algarismos hexadecimais.")
	}
	return b, nil
}
