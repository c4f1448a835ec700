package ui

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// courtsPage: GET /admin/juizados.
func (s *UI) courtsPage(c echo.Context) error {
	return s.renderCourts(c, http.StatusOK, server.Page{})
}

func (s *UI) renderCourts(c echo.Context, status int, p server.Page) error {
	cs, err := s.courts(c)
	if err != nil {
		return err
	}
	p.Title = "Juizados e configurações"
	p.Data = cs
	return s.Page(c, status, "admin_juizados", p)
}

// courtSettingsPage: POST /admin/juizados/configuracao (code,
// sec7_doubles_ban, publish_default, defensoria_doubles_jecrim, and the
// DataJud unit: unit_code, unit_name, ibge_municipality): the
// court's reading of art. 201, § 7º, whether sentences publish the name by
// default, and whether the Defensoria Pública's windows are doubled in the
// JECRIM (LC 80/1994; cases.SetDefensoriaDoubling); the judging unit the
// DataJud export names (Res. CNJ 331/2020; cases.SetCourtDataJud), when
// any of its fields is filled, each checked (422 with the field's message);
// and, when name is given, the court's name as pages and documents show it
// (cases.SetCourtName).
//
// Only the admin's own court: another court's code is 404, as an unknown one.
func (s *UI) courtSettingsPage(c echo.Context) error {
	code := c.FormValue("code")
	if code != server.Actor(c).Court {
		return s.PageError(c, http.StatusNotFound, "Juizado não encontrado.")
	}
	var found bool
	if err := s.InTx(c, func(ctx context.Context) error {
		var err error
		found, err = s.Cases.Case.SetCourtDefaults(ctx, code, c.FormValue("sec7_doubles_ban") == "true", c.FormValue("publish_default") == "true")
		if err != nil || !found {
			return err
		}
		if _, err = s.Cases.Case.SetDefensoriaDoubling(ctx, code, c.FormValue("defensoria_doubles_jecrim") == "true"); err != nil {
			return err
		}
		if name := c.FormValue("name"); name != "" {
			if _, err = s.Cases.Case.SetCourtName(ctx, code, name); err != nil {
				return err
			}
		}
		if u, given := dataJudUnit(c); given {
			_, err = s.Cases.Case.SetCourtDataJud(ctx, code, u)
		}
		return err
	}); err != nil {
		fields, msg, status, ok := formErrors(err)
		if !ok {
			return err
		}
		return s.renderCourts(c, status, server.Page{Error: msg, Errs: fields, Form: formOf(c)})
	}
	if !found {
		return s.PageError(c, http.StatusNotFound, "Juizado não encontrado.")
	}
	s.flash(c, "Configurações do juizado salvas.")
	return redirect(c, "/admin/juizados")
}

// dataJudUnit reads the DataJud unit of the court settings form; given is
// false when all three fields are empty (the unit is left as it is). A
// number that does not parse is 0, which the unit's check refuses.
func dataJudUnit(c echo.Context) (u cases.DataJudUnit, given bool) {
	code, name, ibge := strings.TrimSpace(c.FormValue("unit_code")), c.FormValue("unit_name"), strings.TrimSpace(c.FormValue("ibge_municipality"))
	if code == "" && strings.TrimSpace(name) == "" && ibge == "" {
		return u, false
	}
	u.UnitCode, _ = strconv.Atoi(code)
	u.IBGEMunicipality, _ = strconv.Atoi(ibge)
	u.UnitName = name
	return u, true
}
