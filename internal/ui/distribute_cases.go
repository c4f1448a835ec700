package ui

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/casefile"
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
	Pending []casefile.View
	Recent  []casefile.View
}

// distributionPage: GET /distribuicao (clerk, judge): cases per judge, the
// cases waiting for a judge, the latest distributed.
func (s *UI) distributionPage(c echo.Context) error {
	ctx := c.Request().Context()
	court := server.Actor(c).Court
	var d distributionData
	judges, err := s.App.Accounts.CourtJudges(ctx, court)
	if err != nil {
		return err
	}
	ids := make([]int64, len(judges))
	for i, u := range judges {
		ids[i] = u.ID
	}
	loads, err := s.Cases.Case.JudgeLoads(ctx, ids)
	if err != nil {
		return err
	}
	for _, u := range judges {
		l := loads[u.ID]
		d.Judges = append(d.Judges, distributionRow{JudgeID: u.ID, Name: u.Name, Total: int(l.Total), Open: int(l.Open)})
	}
	// By name (the order of code points, as the database's C.UTF-8
	// collation sorts); CourtJudges gives them by id, kept among equal names.
	slices.SortStableFunc(d.Judges, func(a, b distributionRow) int { return strings.Compare(a.Name, b.Name) })
	if d.Pending, _, err = s.Cases.Casefile.List(ctx, server.Actor(c), casefile.ListQuery{Status: cases.StatusFiled, PerPage: 100}); err != nil {
		return err
	}
	if d.Recent, _, err = s.Cases.Casefile.List(ctx, server.Actor(c), casefile.ListQuery{PerPage: 20}); err != nil {
		return err
	}
	return s.Page(c, http.StatusOK, "distribuicao", server.Page{Title: "Distribuição", Data: d})
}

// distributePending: POST /distribuicao (clerk): distributes the cases
// filed while the court had no judge.
func (s *UI) distributePending(c echo.Context) error {
	n, err := s.Cases.Case.DistributePending(c.Request().Context(), server.Actor(c).Court)
	if err != nil {
		return err
	}
	s.flash(c, fmt.Sprintf("%d processo(s) distribuído(s).", n))
	return redirect(c, "/distribuicao")
}
