package api

import (
	"net/http"

	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// fileEmbargos: POST /api/v1/cases/:id/embargos {defendant_id, party,
// filed_on, text} (clerk): embargos de declaração (Lei 9.099/1995, art. 83)
// → 201 with the embargos; every party's window as to the defendant is
// interrupted (§ 2º).
func (s *API) fileEmbargos(c echo.Context) error {
	return caseWrite(s, c, http.StatusCreated, func(id int64, in calendar.EmbargosInput) (any, error) {
		return s.Cases.Calendar.FileEmbargos(c.Request().Context(), server.Actor(c), id, in)
	})
}

// ruleEmbargos: POST /api/v1/embargos/:id/ruling {decided_on, granted,
// text} (the judge of the case) → 200 with the embargos ruled; the
// windows run again from each party's notice of the ruling.
func (s *API) ruleEmbargos(c echo.Context) error {
	id, err := server.ParseID(c, "id", "Embargos de declaração %q não encontrados.")
	if err != nil {
		return err
	}
	var in calendar.RulingInput
	if err := server.BindJSON(c, &in); err != nil {
		return err
	}
	e, err := s.Cases.Calendar.RuleEmbargos(c.Request().Context(), server.Actor(c), id, in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, e)
}
