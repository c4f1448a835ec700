package ui

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// noticesData is the data of the defence's notices page: its clients'
// electronic notices, the pending ones (nobody opened them and they have
// not counted) first.
type noticesData struct {
	Pending []calendar.NoticeView
	Others  []calendar.NoticeView
}

// noticesPage: GET /intimacoes (defence): the electronic notices of the
// caller's clients (calendar.Service.DefenceNotices), the pending ones with
// the day they count on if not opened and an "Abrir" button, the others
// with the day they counted on, the last day of the window that follows
// and the days left (Lei 11.419/2006, art. 5º).
func (s *UI) noticesPage(c echo.Context) error {
	items, err := s.Cases.Calendar.DefenceNotices(c.Request().Context(), server.Actor(c))
	if err != nil {
		return s.pageFail(c, err)
	}
	var d noticesData
	for _, n := range items {
		if n.Pending {
			d.Pending = append(d.Pending, n)
		} else {
			d.Others = append(d.Others, n)
		}
	}
	return s.Page(c, http.StatusOK, "intimacoes", server.Page{Title: "Intimações", Data: d})
}

// openNoticePage: POST /intimacoes/:id/abrir (defence): opens the notice
// (calendar.Service.OpenNotice: the first opening fixes the day it counts
// on, Lei 11.419/2006, art. 5º, §§ 1º and 2º) and returns to the list
// with the day and the window's last day.
func (s *UI) openNoticePage(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return s.PageError(c, http.StatusNotFound, "Intimação não encontrada.")
	}
	var v *calendar.NoticeView
	if err := s.InTx(c, func(ctx context.Context) error {
		var err error
		v, err = s.Cases.Calendar.OpenNotice(ctx, server.Actor(c), id)
		return err
	}); err != nil {
		return s.pageFail(c, err)
	}
	s.flash(c, fmt.Sprintf("Intimação %s aberta (processo %s, %s): considera-se feita em %s; o prazo de recurso corre até %s.", v.What, v.CaseNumber, v.Defendant, v.CountsOn.BR(), v.LastDay.BR()))
	return redirect(c, "/intimacoes")
}
