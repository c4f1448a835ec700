package api

import (
	"fmt"
	"net/http"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// CounselInput is the body of PUT
// /api/v1/cases/{id}/defendants/{defendant_id}/counsel: the name of the
// defence user to link.
type CounselInput struct {
	User string `json:"user"`
}

// linkCounsel: PUT /api/v1/cases/:id/defendants/:defendant_id/counsel
// {"user": NAME} (clerk): links the defence user to the defendant
// (cases.Service.LinkCounsel; CPP arts. 261 and 266, LC 80/1994, art. 4º,
// V); 201 with the representation when it links, 200 when the link was
// already active.
func (s *API) linkCounsel(c echo.Context) error {
	did, err := defendantID(c)
	if err != nil {
		return err
	}
	status := http.StatusOK
	return caseWrite(s, c, 0, func(id int64, in CounselInput) (any, error) {
		v, created, err := s.Cases.Case.LinkCounsel(c.Request().Context(), server.Actor(c), id, did, in.User)
		if created {
			status = http.StatusCreated
		}
		return v, err
	}, &status)
}

// unlinkCounsel: DELETE /api/v1/cases/:id/defendants/:defendant_id/counsel
// [?user=NAME] (clerk): ends the defendant's active representations (the
// user's only, when named); 200 with {items: the representations ended}.
func (s *API) unlinkCounsel(c echo.Context) error {
	id, err := server.PathID(c, "id")
	if err != nil {
		return err
	}
	did, err := defendantID(c)
	if err != nil {
		return err
	}
	if err := withIfMatch(c); err != nil {
		return err
	}
	items, err := s.Cases.Case.UnlinkCounsel(c.Request().Context(), server.Actor(c), id, did, c.QueryParam("user"))
	if err != nil {
		return caseFail(c, err)
	}
	return c.JSON(http.StatusOK, map[string]any{"items": items})
}

// requestCounsel: POST /api/v1/counsel-requests (defence), multipart with
// number (the case's CNJ number), cpf (the client's) and file (the
// procuração, PDF; optional for the Defensoria Pública): 201 with the
// request, status requested, awaiting the clerk.
func (s *API) requestCounsel(c echo.Context) error {
	up, err := readUpload(c, false, "number", "cpf")
	if err != nil {
		return err
	}
	v, err := s.Cases.Case.RequestCounsel(c.Request().Context(), server.Actor(c), cases.CounselRequestInput{
		Number: up.fields["number"], CPF: up.fields["cpf"], Filename: up.filename, Data: up.data})
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, fmt.Sprintf("/api/v1/counsel-requests/%d", v.ID))
	return c.JSON(http.StatusCreated, v)
}

// counselRequests: GET /api/v1/counsel-requests (clerk: its court's
// pending requests; defence: its own): {items}.
func (s *API) counselRequests(c echo.Context) error {
	items, err := s.Cases.Case.CounselRequests(c.Request().Context(), server.Actor(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"items": items})
}

// RefuseInput is the body of POST /api/v1/counsel-requests/{id}/refuse.
type RefuseInput struct {
	Reason string `json:"reason"`
}

// decideCounsel: POST /api/v1/counsel-requests/:id/approve (no body) or
// /refuse {"reason"} (clerk of the case's court): 200 with the request
// decided.
func (s *API) decideCounsel(approve bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := server.PathID(c, "id")
		if err != nil {
			return err
		}
		var in RefuseInput
		if !approve {
			if err := server.BindJSON(c, &in); err != nil {
				return err
			}
		}
		v, err := s.Cases.Case.DecideCounselRequest(c.Request().Context(), server.Actor(c), id, approve, in.Reason)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, v)
	}
}
