package ui

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/juizado/juizado/internal/app"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/registry/blocklist"
	"github.com/labstack/echo/v4"
)

// statsView is the statistics page's content: the court's figures, each a
// chart with its table and its CSV.
type statsView struct {
	Stats   *app.Statistics
	Figures []statFigure
	// Public: the page for anyone (any court, chosen in its form); else the
	// staff's page of their own court.
	Public bool
	// Court is the court asked for (public page's form), CSVPath the
	// address of the figures' CSV files.
	Court   string
	CSVPath string
}

// statsCourt returns the court a statistics request is about: the staff's
// own court (public false), or ?juizado= (TR.OOOO, default the server's
// court); bad is the message for a code not shaped TR.OOOO.
func (s *UI) statsCourt(c echo.Context, public bool) (court, bad string) {
	if !public {
		return server.Actor(c).Court, ""
	}
	court = strings.TrimSpace(c.QueryParam("juizado"))
	if court == "" {
		return "", "" // the server's court (app.App.Statistics)
	}
	if !blocklist.ValidCourt(court) {
		return court, "Informe o código do juizado com dois algarismos, um ponto e quatro algarismos (por exemplo 26.0100)."
	}
	return court, ""
}

// statistics returns court's statistics (app.App.Statistics) and their
// figures; the caller answers an error with pageFail (an unknown court: the
// 404 page).
func (s *UI) statistics(c echo.Context, court string) (*app.Statistics, []statFigure, error) {
	st, err := s.App.Statistics(c.Request().Context(), court)
	if err != nil {
		return nil, nil, err
	}
	figs, err := statFigures(st)
	return st, figs, err
}

// statisticsPage: GET /estatisticas[?juizado=TR.OOOO] (anyone) and GET
// /juizado/estatisticas (the court's staff, their court): the court's
// statistics (app.App.Statistics; issue 30 item 6): aggregates only,
// counts from 1 to 4 as "<5", each chart with its table and a CSV
// download. A code not shaped TR.OOOO is 422 with the form; an unknown
// court 404.
func (s *UI) statisticsPage(public bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		court, bad := s.statsCourt(c, public)
		v := statsView{Public: public, Court: court, CSVPath: "/juizado/estatisticas.csv"}
		p := server.Page{Title: "Estatísticas do juizado"}
		if public {
			v.CSVPath, p.Title = "/estatisticas.csv", "Estatísticas dos juizados do torcedor"
		}
		if bad != "" {
			p.Error, p.Errs, p.Data = "Corrija o código do juizado.", map[string]string{"juizado": bad}, v
			return s.Page(c, http.StatusUnprocessableEntity, "estatisticas", p)
		}
		st, figs, err := s.statistics(c, court)
		if err != nil {
			return s.pageFail(c, err)
		}
		v.Stats, v.Figures = st, figs
		p.Data = v
		return s.Page(c, http.StatusOK, "estatisticas", p)
	}
}

// statisticsCSV: GET /estatisticas.csv?juizado=TR.OOOO&tabela=ID (anyone)
// and GET /juizado/estatisticas.csv?tabela=ID (the staff's court): the
// table of one figure of the statistics page as a CSV in Excel's
// Brazilian form (statFigure.statCSV); an unknown table is 404.
func (s *UI) statisticsCSV(public bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		court, bad := s.statsCourt(c, public)
		if bad != "" {
			return s.PageError(c, http.StatusUnprocessableEntity, bad)
		}
		st, figs, err := s.statistics(c, court)
		if err != nil {
			return s.pageFail(c, err)
		}
		id := c.QueryParam("tabela")
		for i := range figs {
			if figs[i].ID != id {
				continue
			}
			b, err := figs[i].statCSV()
			if err != nil {
				return err
			}
			c.Response().Header().Set("Content-Disposition",
				fmt.Sprintf(`attachment; filename="estatisticas-%s-%s-%s.csv"`, st.Court, figs[i].ID, st.AsOf))
			return c.Blob(http.StatusOK, "text/csv; charset=utf-8", b)
		}
		return s.PageError(c, http.StatusNotFound, "Não há essa tabela nas estatísticas.")
	}
}
