package api

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"

	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// importMatches: POST /api/v1/matches/import[?dry_run=true] (clerk). The
// body is the schedule as text/csv (matches-2025.csv format). 201 with the
// report when applied, 200 for a dry run, 422 (problem+json carrying the
// report) with nothing applied when any line has an error.
func (s *API) importMatches(c echo.Context) error {
	mt, _, _ := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType))
	switch mt {
	case "text/csv", "application/csv", "text/plain", "application/vnd.ms-excel":
	default:
		return server.Unsupported(c, "text/csv (a tabela de partidas)")
	}
	dry := false
	if v := c.QueryParam("dry_run"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return errs.InvalidField("dry_run", "bool", "use true ou false.")
		}
		dry = b
	}
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		if server.BodyTooLarge(err) {
			return echo.NewHTTPError(http.StatusRequestEntityTooLarge)
		}
		return errs.New(errs.Unreadable, "Não foi possível ler o corpo da requisição.")
	}
	rep, err := s.Cases.Schedule.ImportMatches(c.Request().Context(), server.Actor(c), body, dry)
	if err != nil {
		return err
	}
	if rep.HasErrors() {
		n := 0
		var fields []errs.FieldError
		for _, l := range rep.Lines {
			if l.Status != "error" {
				continue
			}
			n++
			for _, e := range l.Errors {
				field := e.Column
				if field == "" {
					field = "line"
				}
				fields = append(fields, errs.FieldError{Line: l.Line, Field: field, Rule: "csv", Message: e.Message})
			}
		}
		b, _ := json.Marshal(struct {
			server.Problem
			Lines   any  `json:"lines"`
			Created int  `json:"created"`
			Updated int  `json:"updated"`
			Applied bool `json:"applied"`
		}{server.Problem{Type: "about:blank", Title: server.TitleOf[422], Status: 422, Instance: c.Request().URL.Path,
			Detail: fmt.Sprintf("A tabela de partidas tem erros em %d linha(s); nada foi importado.", n), Errors: fields},
			rep.Lines, 0, 0, false})
		return c.Blob(http.StatusUnprocessableEntity, "application/problem+json", b)
	}
	if dry {
		return c.JSON(http.StatusOK, rep)
	}
	return c.JSON(http.StatusCreated, rep)
}
