package ui

import (
	"fmt"
	"net/http"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// distributionRow is one judge's count of cases.
type distributionRow struct {
	JudgeID int64
	Name    string
	Total   int
	Open    int
}

type distributionData struct {
	Judges  []distributionRow
	Pending []cases.View
	Recent  []cases.View
}

// distributionPage: GET /distribuicao (clerk, judge): cases per judge, the
// cases waiting for a judge, the latest distributed.
func (s *UI) distributionPage(c echo.Context) error {
	ctx := c.Request().Context()
	court := server.Actor(c).Court
	var d distributionData
	err := db.Conn(ctx, s.Deps.DB).Raw(`SELECT u.id AS judge_id, u.name, count(k.id) AS total,
		count(k.id) FILTER (WHERE k.status NOT IN ('final', 'archived')) AS open
		FROM users u LEFT JOIN cases k ON k.judge_id = u.id
		WHERE u.role = 'judge' AND u.court_code = ? AND u.disabled_at IS NULL GROUP BY u.id, u.name ORDER BY u.name`, court).Scan(&d.Judges).Error
	if err != nil {
		return err
	}
	if d.Pending, _, err = s.Cases.List(ctx, server.Actor(c), cases.ListQuery{Status: cases.StatusFiled, PerPage: 100}); err != nil {
		return err
	}
	if d.Recent, _, err = s.Cases.List(ctx, server.Actor(c), cases.ListQuery{PerPage: 20}); err != nil {
		return err
	}
	return s.Page(c, http.StatusOK, "distribuicao", server.Page{Title: "Distribuição", Data: d})
}

// distributePending: POST /distribuicao (clerk): distributes the cases
// filed while the court had no judge.
func (s *UI) distributePending(c echo.Context) error {
	n, err := s.Cases.DistributePending(c.Request().Context(), server.Actor(c).Court)
	if err != nil {
		return err
	}
	s.flash(c, fmt.Sprintf("%d processo(s) distribuído(s).", n))
	return redirect(c, "/distribuicao")
}
