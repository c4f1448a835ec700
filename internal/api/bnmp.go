package api

import (
	"net/http"

	"github.com/juizado/juizado/cases/bnmp"
	"github.com/juizado/juizado/internal/pdf"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// mandates: GET /api/v1/bnmp/mandates[?status=pending|registered|due|
// awaiting_identification] (clerk, judge; their court's only): the BNMP
// mandates of the court's bans, newest first, with their alerts (Res. CNJ
// 417/2021, arts. 19, 21 and 25): {items: [bnmp.View]}; another status is
// 422 on status.
func (s *API) mandates(c echo.Context) error {
	items, err := s.Cases.BNMP.List(c.Request().Context(), server.Actor(c), c.QueryParam("status"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"items": items})
}

// mandate: GET /api/v1/bnmp/mandates/:id (the mandate as JSON) or
// /api/v1/bnmp/mandates/:id.pdf (its document with the verification code)
// (clerk, judge); another court's mandate is 404.
func (s *API) mandate(c echo.Context) error {
	id, asPDF, err := bnmp.ParseID(c.Param("id"))
	if err != nil {
		return err
	}
	ctx, a := c.Request().Context(), server.Actor(c)
	if !asPDF {
		v, err := s.Cases.BNMP.Get(ctx, a, id)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, v)
	}
	doc, err := s.App.Documents.Mandate(ctx, a, id)
	if err != nil {
		return err
	}
	return server.SendDocument(c, doc, "mandado-bnmp-"+pdf.GroupCode(doc.Code))
}

// registerMandate: POST /api/v1/bnmp/mandates/:id/registered {bnmp_number,
// registered_on} (clerk): records the mandate's BNMP number and date;
// 422 naming the field, 409 when already registered, superseded or
// awaiting the CPF, 404 for another court's.
func (s *API) registerMandate(c echo.Context) error {
	id, asPDF, err := bnmp.ParseID(c.Param("id"))
	if err != nil || asPDF {
		return bnmp.NotFound(c.Param("id"))
	}
	var in bnmp.RegisterInput
	if err := server.BindJSON(c, &in); err != nil {
		return err
	}
	v, err := s.Cases.BNMP.Register(c.Request().Context(), server.Actor(c), id, in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}
