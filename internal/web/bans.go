package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/errs"
	"github.com/labstack/echo/v4"
)

func (s *Server) banRoutes(api *echo.Group) {
	api.GET("/bans/:id/reporting-windows", s.reportingWindows)
	api.POST("/bans/:id/breaches", s.recordBreach)
	api.POST("/bans/:id/lift", s.liftBan)
	api.POST("/bans/:id/extend", s.extendBan)
}

func banID(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, errs.New(errs.NotFound, fmt.Sprintf("Impedimento %q não encontrado: o identificador deve ser um número inteiro positivo.", c.Param("id")))
	}
	return id, nil
}

// reportingWindows: GET /api/v1/bans/:id/reporting-windows[?format=ics]
// (prosecutor, police, clerk, judge): the windows of the reporting duty (Lei
// 14.597/2023, art. 201, § 4º) as JSON, or as an iCalendar feed with
// format=ics or Accept: text/calendar.
func (s *Server) reportingWindows(c echo.Context) error {
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
	v, err := s.cases.ReportingWindows(c.Request().Context(), actor(c), id)
	if err != nil {
		return err
	}
	if format == "ics" || (format == "" && strings.Contains(c.Request().Header.Get(echo.HeaderAccept), "text/calendar")) {
		c.Response().Header().Set("Content-Disposition", fmt.Sprintf(`inline; filename="impedimento-%d.ics"`, id))
		return c.Blob(http.StatusOK, "text/calendar; charset=utf-8", v.ICS(s.now()))
	}
	return c.JSON(http.StatusOK, v)
}

// recordBreach: POST /api/v1/bans/:id/breaches (prosecutor, police): an
// unjustified breach (Lei 14.597/2023, art. 201, § 3º) and the conversion
// step it opens.
func (s *Server) recordBreach(c echo.Context) error {
	id, err := banID(c)
	if err != nil {
		return err
	}
	var in cases.BreachInput
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	r, err := s.cases.RecordBreach(c.Request().Context(), actor(c), id, in)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, fmt.Sprintf("/api/v1/cases/%d", r.Breach.CaseID))
	return c.JSON(http.StatusCreated, r)
}

// liftBan: POST /api/v1/bans/:id/lift (the judge of the case): lifts a
// precautionary ban (CPP art. 319, II; art. 282, § 5º).
func (s *Server) liftBan(c echo.Context) error {
	id, err := banID(c)
	if err != nil {
		return err
	}
	var in cases.LiftInput
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	b, err := s.cases.Lift(c.Request().Context(), actor(c), id, in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"ban": b})
}

// extendBan: POST /api/v1/bans/:id/extend (the judge of the case): adds
// months to a ban's term, counted from its original first day.
func (s *Server) extendBan(c echo.Context) error {
	id, err := banID(c)
	if err != nil {
		return err
	}
	var in cases.ExtendInput
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	r, err := s.cases.Extend(c.Request().Context(), actor(c), id, in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, r)
}
