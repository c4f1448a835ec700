package api

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/juizado/juizado/cases/execution"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// banWrite binds the body of a write on ban :id and answers 200 with what do
// returns.
func banWrite[T any](c echo.Context, do func(id int64, in T) (any, error)) error {
	id, err := banID(c)
	if err != nil {
		return err
	}
	var in T
	if err := server.BindJSON(c, &in); err != nil {
		return err
	}
	out, err := do(id, in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

// renewBan: POST /api/v1/bans/:id/renew {review_on, reason} (the judge of
// the case): renews a precautionary ban (CPP art. 319, II).
func (s *API) renewBan(c echo.Context) error {
	return banWrite(c, func(id int64, in execution.RenewInput) (any, error) {
		return s.Cases.Execution.Renew(c.Request().Context(), server.Actor(c), id, in)
	})
}

// correctBan: POST /api/v1/bans/:id/correct {last_day, reason} (the judge of
// the case): corrects a material error in a final ban's last day.
func (s *API) correctBan(c echo.Context) error {
	return banWrite(c, func(id int64, in execution.CorrectInput) (any, error) {
		b, err := s.Cases.Execution.Correct(c.Request().Context(), server.Actor(c), id, in)
		return map[string]any{"ban": b}, err
	})
}

// creditBan: POST /api/v1/bans/:id/credit {days, reason} (the judge of the
// case): the decision on the time under precautionary bans (CP art. 42).
func (s *API) creditBan(c echo.Context) error {
	return banWrite(c, func(id int64, in execution.CreditInput) (any, error) {
		b, err := s.Cases.Execution.Credit(c.Request().Context(), server.Actor(c), id, in)
		return map[string]any{"ban": b}, err
	})
}

// decideBreach: POST /api/v1/breaches/:id/decision {decision, balance_days?,
// reason} (the judge of the case; DOMAIN.md §8).
func (s *API) decideBreach(c echo.Context) error {
	id, err := server.ParseID(c, "id", "Descumprimento %q não encontrado.")
	if err != nil {
		return err
	}
	var in execution.BreachDecisionInput
	if err := server.BindJSON(c, &in); err != nil {
		return err
	}
	br, err := s.Cases.Execution.DecideBreach(c.Request().Context(), server.Actor(c), id, in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"breach": br})
}

// reportingWindows: GET /api/v1/bans/:id/reporting-windows[?format=ics]
// (prosecutor, police, clerk, judge): the windows of the reporting duty (Lei
// 14.597/2023, art. 201, § 4º) as JSON, or as an iCalendar feed with
// format=ics or Accept: text/calendar.
func (s *API) reportingWindows(c echo.Context) error {
	id, err := banID(c)
	if err != nil {
		return err
	}
	format := c.QueryParam("format")
	switch format {
	case "", "json", "ics":
	default:
		return errs.InvalidField("format", "oneof", "format deve ser json ou ics.")
	}
	v, err := s.Cases.Schedule.ReportingWindows(c.Request().Context(), server.Actor(c), id)
	if err != nil {
		return err
	}
	if format == "ics" || (format == "" && strings.Contains(c.Request().Header.Get(echo.HeaderAccept), "text/calendar")) {
		c.Response().Header().Set("Content-Disposition", fmt.Sprintf(`inline; filename="impedimento-%d.ics"`, id))
		return c.Blob(http.StatusOK, "text/calendar; charset=utf-8", v.ICS(s.Now()))
	}
	return c.JSON(http.StatusOK, v)
}

// recordBreach: POST /api/v1/bans/:id/breaches (prosecutor, police): an
// unjustified breach (Lei 14.597/2023, art. 201, § 3º) and the conversion
// step it opens.
func (s *API) recordBreach(c echo.Context) error {
	id, err := banID(c)
	if err != nil {
		return err
	}
	var in execution.BreachInput
	if err := server.BindJSON(c, &in); err != nil {
		return err
	}
	r, err := s.Cases.Execution.RecordBreach(c.Request().Context(), server.Actor(c), id, in)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, fmt.Sprintf("/api/v1/cases/%d", r.Breach.CaseID))
	return c.JSON(http.StatusCreated, r)
}

// liftBan: POST /api/v1/bans/:id/lift (the judge of the case): lifts a
// precautionary ban (CPP art. 319, II; art. 282, § 5º).
func (s *API) liftBan(c echo.Context) error {
	id, err := banID(c)
	if err != nil {
		return err
	}
	var in execution.LiftInput
	if err := server.BindJSON(c, &in); err != nil {
		return err
	}
	b, err := s.Cases.Execution.Lift(c.Request().Context(), server.Actor(c), id, in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"ban": b})
}

// extendBan: POST /api/v1/bans/:id/extend (the judge of the case): a final
// ban is never extended (409, CF art. 5º, XXXVI); a precautionary ban is
// renewed with a new review date.
func (s *API) extendBan(c echo.Context) error {
	id, err := banID(c)
	if err != nil {
		return err
	}
	var in execution.ExtendInput
	if err := server.BindJSON(c, &in); err != nil {
		return err
	}
	r, err := s.Cases.Execution.Extend(c.Request().Context(), server.Actor(c), id, in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, r)
}
