package api

import (
	"fmt"
	"io"
	"mime"
	"net/http"

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
	mt, _, err := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType))
	if err != nil || mt != "multipart/form-data" {
		return server.Unsupported(c, "multipart/form-data (o arquivo no campo file)")
	}
	req := c.Request()
	req.Body = http.MaxBytesReader(c.Response(), req.Body, cases.MaxEvidenceBytes+server.MultipartSlack)
	mr, err := req.MultipartReader()
	if err != nil {
		return errs.New(errs.Unreadable, "Corpo multipart ilegível.")
	}
	var (
		data        []byte
		filename    string
		description string
		gotFile     bool
	)
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return tooLargeOr(err, "Corpo multipart ilegível.")
		}
		switch part.FormName() {
		case "file":
			if gotFile {
				return errs.InvalidField("file", "one_file", "envie um arquivo por requisição.")
			}
			gotFile, filename = true, part.FileName()
			data, err = io.ReadAll(io.LimitReader(part, cases.MaxEvidenceBytes+1))
			if err != nil {
				return tooLargeOr(err, "Não foi possível ler o arquivo.")
			}
			if len(data) > cases.MaxEvidenceBytes {
				return evidenceTooLarge()
			}
		case "description":
			b, err := io.ReadAll(io.LimitReader(part, 64<<10))
			if err != nil {
				return tooLargeOr(err, "Não foi possível ler a descrição.")
			}
			description = string(b)
		}
		part.Close()
	}
	if !gotFile {
		return errs.InvalidField("file", "required", "envie o arquivo no campo file (multipart/form-data).")
	}
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
