package ui

import (
	"context"
	"fmt"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/ui/form"
	"github.com/labstack/echo/v4"
)

// hearingAct runs a form posted on one hearing of the case page (fields
// prefix+name; the hearing in hearing_id must be one of the case's), with
// do, the service's act; its errors come back next to the fields
// (names: API fields to form fields), success redirects to the case's
// hearings with the notice done gives.
func hearingAct[T any](s *UI, c echo.Context, prefix string, read func(*form.Values) form.HearingAct[T],
	do func(context.Context, actor.Actor, int64, T) (*cases.HearingView, error), names map[string]string, done func(*cases.HearingView) string) error {
	id, act, ok, resp := caseForm(s, c, prefix, read)
	if !ok {
		return resp
	}
	ctx, who := c.Request().Context(), server.Actor(c)
	v, err := s.Cases.Casefile.Get(ctx, who, id)
	if err != nil {
		return s.pageFail(c, err)
	}
	found := false
	for _, h := range v.Hearings {
		found = found || h.ID == act.ID
	}
	if !found {
		return s.caseFormFail(c, prefix, errs.InvalidField("hearing_id", "case", "escolha uma audiência designada deste processo."))
	}
	h, err := do(ctx, who, act.ID, act.In)
	if err != nil {
		return s.caseFormFail(c, prefix, collapseIndexed(remap(err, names), "absent"))
	}
	s.flash(c, done(h))
	return redirect(c, fmt.Sprintf("/processos/%d#audiencias", id))
}

// redesignatePage: POST /processos/:id/audiencias/redesignacao (clerk).
func (s *UI) redesignatePage(c echo.Context) error {
	return hearingAct(s, c, "red.", form.Redesignate, s.Cases.Case.RedesignateHearing,
		map[string]string{"starts_at": "date", "ends_at": "ends"}, func(h *cases.HearingView) string {
			return fmt.Sprintf("Audiência redesignada para %s, sala %s. Intime as partes da nova data.", server.DateTimeBR(h.StartsAt, s.Deps.Loc), h.Room)
		})
}

// cancelHearingPage: POST /processos/:id/audiencias/cancelamento (clerk).
func (s *UI) cancelHearingPage(c echo.Context) error {
	return hearingAct(s, c, "can.", form.CancelHearing, s.Cases.Case.CancelHearing, nil, func(h *cases.HearingView) string {
		return fmt.Sprintf("Audiência de %s cancelada.", server.DateTimeBR(h.StartsAt, s.Deps.Loc))
	})
}

// hearingResultPage: POST /processos/:id/audiencias/resultado (clerk).
func (s *UI) hearingResultPage(c echo.Context) error {
	return hearingAct(s, c, "res.", form.HearingResult, s.Cases.Case.RecordHearingResult, nil, func(h *cases.HearingView) string {
		return fmt.Sprintf("Resultado registrado: audiência %s.", cases.HearingStatusPT[h.Status])
	})
}
