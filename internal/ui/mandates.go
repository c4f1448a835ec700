package ui

import (
	"context"
	"fmt"
	"net/http"

	"github.com/juizado/juizado/cases/bnmp"
	"github.com/juizado/juizado/internal/pdf"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/ui/form"
	"github.com/labstack/echo/v4"
)

// mandatesData is the BNMP page's content: the alerts (due), the mandates
// to register, those waiting for the person's CPF, and those registered.
type mandatesData struct {
	Due, Pending, Awaiting, Registered []bnmp.View
	// Clerk: the user may record registrations (the form is shown).
	Clerk bool
}

// mandatesPage: GET /mandados (clerk, judge): the court's BNMP mandates
// (Res. CNJ 417/2021): the alerts 10 days before each review date and
// mandate end (art. 25) and the precautionary measures past their review
// without renewal (art. 21, for the judge's decision), the queue to
// register with the form of the BNMP number and date, the mandates
// waiting for a CPF and those registered.
func (s *UI) mandatesPage(c echo.Context) error {
	return s.renderMandates(c, http.StatusOK, server.Page{})
}

func (s *UI) renderMandates(c echo.Context, status int, p server.Page) error {
	a := server.Actor(c)
	items, err := s.Cases.BNMP.List(c.Request().Context(), a, "")
	if err != nil {
		return s.pageFail(c, err)
	}
	d := mandatesData{Clerk: a.Role == "clerk"}
	for _, v := range items {
		if len(v.Alerts) > 0 || v.Lapsed {
			d.Due = append(d.Due, v)
		}
		switch v.Status {
		case bnmp.StatusPending:
			d.Pending = append(d.Pending, v)
		case bnmp.StatusAwaitingIdentification:
			d.Awaiting = append(d.Awaiting, v)
		case bnmp.StatusRegistered:
			d.Registered = append(d.Registered, v)
		}
	}
	p.Title, p.Data = "Mandados do BNMP", d
	return s.Page(c, status, "mandados", p)
}

// mandatePrefix is the prefix of the registration form's fields of
// mandate id ("reg[12].bnmp_number").
func mandatePrefix(id int64) string { return fmt.Sprintf("reg[%d].", id) }

// registerMandatePage: POST /mandados/:id/registro (clerk; form:
// reg[ID].bnmp_number, reg[ID].registered_on as dd/mm/aaaa): records the
// mandate's BNMP number and date (bnmp.Service.Register) and returns to
// the queue; errors are shown next to the fields.
func (s *UI) registerMandatePage(c echo.Context) error {
	id, asPDF, err := bnmp.ParseID(c.Param("id"))
	if err != nil || asPDF {
		return s.pageFail(c, bnmp.NotFound(c.Param("id")))
	}
	if _, err := s.Cases.BNMP.Get(c.Request().Context(), server.Actor(c), id); err != nil {
		return s.pageFail(c, err) // another court's or none: 404 before the form is read
	}
	prefix := mandatePrefix(id)
	v := form.New(c.FormValue, prefix, s.Deps.Loc)
	in := bnmp.RegisterInput{BNMPNumber: v.Trim("bnmp_number"), RegisteredOn: v.Date("registered_on")}
	v.Require("bnmp_number", "Informe o número do mandado no BNMP.")
	v.Require("registered_on", "Informe a data do registro no BNMP (dd/mm/aaaa).")
	err = v.Err()
	var out *bnmp.View
	if err == nil {
		err = s.InTx(c, func(ctx context.Context) error {
			var e error
			out, e = s.Cases.BNMP.Register(ctx, server.Actor(c), id, in)
			return e
		})
	}
	if err != nil {
		return s.formFail(c, prefix, err, s.renderMandates)
	}
	s.flash(c, fmt.Sprintf("Mandado %d (%s, processo %s) registrado no BNMP sob o nº %s em %s.", out.ID, out.Name, out.CaseNumber, *out.BNMPNumber, out.RegisteredOn.BR()))
	return redirect(c, "/mandados")
}

// mandateDocument: GET /mandados/:id (clerk, judge; the id may end in
// .pdf): the mandate's document with its verification code.
func (s *UI) mandateDocument(c echo.Context) error {
	id, _, err := bnmp.ParseID(c.Param("id"))
	if err != nil {
		return err
	}
	doc, err := s.App.Documents.Mandate(c.Request().Context(), server.Actor(c), id)
	if err != nil {
		return err
	}
	return server.SendDocument(c, doc, "mandado-bnmp-"+pdf.GroupCode(doc.Code))
}
