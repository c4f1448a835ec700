package ui

import (
	"context"
	"net/http"

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
// sec7_doubles_ban, publish_default, defensoria_doubles_jecrim): the
// court's reading of art. 201, § 7º, whether sentences publish the name by
// default, and whether the Defensoria Pública's windows are doubled in the
// JECRIM (LC 80/1994; cases.SetDefensoriaDoubling).
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
		_, err = s.Cases.Case.SetDefensoriaDoubling(ctx, code, c.FormValue("defensoria_doubles_jecrim") == "true")
		return err
	}); err != nil {
		return err
	}
	if !found {
		return s.PageError(c, http.StatusNotFound, "Juizado não encontrado.")
	}
	s.flash(c, "Configurações do juizado "+code+" salvas.")
	return redirect(c, "/admin/juizados")
}
