package ui

import (
	"context"
	"fmt"
	"io"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/execution"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/ui/form"
	"github.com/labstack/echo/v4"
)

// evidencePage: POST /processos/:id/provas (multipart: arquivo, descricao).
func (s *UI) evidencePage(c echo.Context) error {
	id, err := s.caseExists(c)
	if err != nil {
		return s.pageFail(c, err)
	}
	fh, err := c.FormFile("prova.file")
	if err != nil {
		return s.caseFormFail(c, "prova.", errs.InvalidField("file", "required", "escolha o arquivo (PDF, JPEG ou PNG, até 10 MB)."))
	}
	fd, err := fh.Open()
	if err != nil {
		return err
	}
	defer fd.Close()
	data, err := io.ReadAll(io.LimitReader(fd, cases.MaxEvidenceBytes+1))
	if err != nil {
		return err
	}
	if len(data) > cases.MaxEvidenceBytes {
		return s.caseFormFail(c, "prova.", errs.InvalidField("file", "size", "o arquivo passa de 10 MB."))
	}
	if _, err := s.Cases.Case.AddEvidence(c.Request().Context(), server.Actor(c), id, fh.Filename, c.FormValue("prova.description"), data); err != nil {
		return s.caseFormFail(c, "prova.", err)
	}
	s.flash(c, "Arquivo "+fh.Filename+" juntado aos autos.")
	return redirect(c, fmt.Sprintf("/processos/%d#provas", id))
}

// pleaPage: POST /processos/:id/acordo (prosecutor): offers a plea agreement.
func (s *UI) pleaPage(c echo.Context) error {
	id, in, ok, resp := caseForm(s, c, "acordo.", form.Plea)
	if !ok {
		return resp
	}
	r, err := s.Cases.Decisions.OfferPlea(c.Request().Context(), server.Actor(c), id, in)
	if err != nil {
		return s.caseFormFail(c, "acordo.", err)
	}
	msg := fmt.Sprintf("Transação penal proposta: impedimento de %d meses.", r.Plea.Months)
	return s.doneOnCase(c, id, "", msg, r.Warnings)
}

// breachPage: POST /processos/:id/descumprimento (prosecutor, police): an
// unjustified breach of one of the case's bans in force, through
// execution.Service.RecordBreach; the notice says what it opens for that kind
// of ban (DOMAIN.md §8: the proposed conversion of a conversion ban, LGE
// art. 201, § 3º / Lei 10.671/2003, art. 41-B, § 3º; the undoing of a plea
// agreement; no conversion for a group member's or an art. 39 ban).
func (s *UI) breachPage(c echo.Context) error {
	id, b, ok, resp := caseForm(s, c, "desc.", form.Breach)
	if !ok {
		return resp
	}
	banID, in := b.BanID, b.Input
	// One transaction carrying the user: a ban of another case is refused
	// and nothing is recorded.
	r, ok, resp := pageWrite(s, c, "desc.", func(ctx context.Context) (*execution.BreachResult, error) {
		r, err := s.Cases.Execution.RecordBreach(ctx, server.Actor(c), banID, in)
		if err == nil && r.Breach.CaseID != id {
			err = errs.New(errs.NotFound, "Impedimento não encontrado neste processo.")
		}
		return r, err
	})
	if !ok {
		return resp
	}
	// What the breach opens depends on the kind of ban (DOMAIN.md §8).
	msg := "Descumprimento registrado."
	if r.Conversion != nil {
		msg += " Aberta a conversão em pena privativa de liberdade, a decidir pelo(a) juiz(a): " + r.Conversion.Note
	}
	return s.doneOnCase(c, id, "", msg, r.Warnings)
}

// movementPage: POST /processos/:id/movimentos (clerk).
func (s *UI) movementPage(c echo.Context) error {
	id, in, ok, resp := caseForm(s, c, "mov.", form.Movement)
	if !ok {
		return resp
	}
	if _, err := s.Cases.Case.AddMovement(c.Request().Context(), server.Actor(c), id, in); err != nil {
		return s.caseFormFail(c, "mov.", err)
	}
	s.flash(c, "Movimentação registrada.")
	return redirect(c, fmt.Sprintf("/processos/%d#autos", id))
}

// hearingPage: POST /processos/:id/audiencias (clerk).
func (s *UI) hearingPage(c echo.Context) error {
	id, in, ok, resp := caseForm(s, c, "aud.", form.Hearing)
	if !ok {
		return resp
	}
	h, err := s.Cases.Case.ScheduleHearing(c.Request().Context(), server.Actor(c), id, in)
	if err != nil {
		return s.caseFormFail(c, "aud.", remap(err, map[string]string{"starts_at": "date", "ends_at": "ends"}))
	}
	s.flash(c, fmt.Sprintf("Audiência marcada para %s, sala %s.", server.DateTimeBR(h.StartsAt, s.Deps.Loc), h.Room))
	return redirect(c, fmt.Sprintf("/processos/%d#audiencias", id))
}

// transitionPage: POST /processos/:id/andamento (clerk, prosecutor, judge).
func (s *UI) transitionPage(c echo.Context) error {
	id, in, ok, resp := caseForm(s, c, "and.", form.Transition)
	if !ok {
		return resp
	}
	v, err := s.Cases.Casefile.Transition(c.Request().Context(), server.Actor(c), id, in)
	if err != nil {
		return s.caseFormFail(c, "and.", err)
	}
	s.flash(c, "Andamento registrado: "+server.OrSelf(cases.StatusPT[v.Status], v.Status)+".")
	return redirect(c, fmt.Sprintf("/processos/%d", id))
}
