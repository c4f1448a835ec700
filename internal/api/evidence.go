package api

import (
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// addEvidence: POST /api/v1/cases/:id/evidence, multipart/form-data with
// the field file (PDF, JPEG or PNG, told by content; at most 10 MB, 413
// above) and an optional description (prosecutor, police, clerk).
func (s *API) addEvidence(c echo.Context) error {
	id, err := server.PathID(c, "id")
	if err != nil {
		return err
	}
	up, err := readUpload(c, true, "description")
	if err != nil {
		return err
	}
	filename, data, description := up.filename, up.data, up.fields["description"]
	if err := withIfMatch(c); err != nil {
		return err
	}
	v, err := s.Cases.Case.AddEvidence(c.Request().Context(), server.Actor(c), id, filename, description, data)
	if err != nil {
		return caseFail(c, err)
	}
	c.Response().Header().Set(echo.HeaderLocation, fmt.Sprintf("/api/v1/evidence/%d", v.ID))
	return c.JSON(http.StatusCreated, v)
}

// upload is a multipart/form-data body: the file of field file (its name
// and bytes, at most cases.MaxEvidenceBytes) and the text fields asked.
type upload struct {
	filename string
	data     []byte
	gotFile  bool
	fields   map[string]string
}

// readUpload reads c's multipart/form-data body (415 otherwise; 413 past
// the evidence limit): one file in field file (422 when required and
// missing, or when two are sent) and the text fields names (64 KB each).
func readUpload(c echo.Context, fileRequired bool, names ...string) (*upload, error) {
	mt, _, err := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType))
	if err != nil || mt != "multipart/form-data" {
		return nil, server.Unsupported(c, "multipart/form-data (o arquivo no campo file)")
	}
	req := c.Request()
	req.Body = http.MaxBytesReader(c.Response(), req.Body, cases.MaxEvidenceBytes+server.MultipartSlack)
	mr, err := req.MultipartReader()
	if err != nil {
		return nil, errs.New(errs.Unreadable, "Corpo multipart ilegível.")
	}
	up := &upload{fields: map[string]string{}}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, tooLargeOr(err, "Corpo multipart ilegível.")
		}
		switch name := part.FormName(); {
		case name == "file":
			if up.gotFile {
				return nil, errs.InvalidField("file", "one_file", "envie um arquivo por requisição.")
			}
			up.gotFile, up.filename = true, part.FileName()
			up.data, err = io.ReadAll(io.LimitReader(part, cases.MaxEvidenceBytes+1))
			if err != nil {
				return nil, tooLargeOr(err, "Não foi possível ler o arquivo.")
			}
			if len(up.data) > cases.MaxEvidenceBytes {
				return nil, evidenceTooLarge()
			}
		case slices.Contains(names, name):
			b, err := io.ReadAll(io.LimitReader(part, 64<<10))
			if err != nil {
				return nil, tooLargeOr(err, "Não foi possível ler o campo "+name+".")
			}
			up.fields[name] = string(b)
		}
		part.Close()
	}
	if fileRequired && !up.gotFile {
		return nil, errs.InvalidField("file", "required", "envie o arquivo no campo file (multipart/form-data).")
	}
	return up, nil
}

func tooLargeOr(err error, msg string) error {
	if server.BodyTooLarge(err) {
		return evidenceTooLarge()
	}
	return errs.New(errs.Unreadable, msg)
}

// listEvidence: GET /api/v1/cases/:id/evidence (staff of the court).
func (s *API) listEvidence(c echo.Context) error {
	id, err := server.PathID(c, "id")
	if err != nil {
		return err
	}
	items, err := s.Cases.Case.ListEvidence(c.Request().Context(), server.Actor(c), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"items": items})
}

// evidenceTooLarge is the 413 of an evidence upload, naming the limit.
func evidenceTooLarge() error {
	return echo.NewHTTPError(http.StatusRequestEntityTooLarge, fmt.Sprintf("O arquivo excede o limite de %s por prova (PDF, JPEG ou PNG).", server.SizePT(cases.MaxEvidenceBytes)))
}
