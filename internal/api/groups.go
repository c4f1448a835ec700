package api

import (
	"fmt"
	"net/http"

	"github.com/juizado/juizado/internal/documents"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/registry"
	"github.com/labstack/echo/v4"
)

// GroupHandlers serve the fan groups and their member registers
// (../shared/API.md "Fan groups and member registers"). The Casbin policy
// checks the role; the registry checks the domain (the group's managers,
// the staff of the group's court) and answers 404 across domains.
type GroupHandlers struct {
	API  *API               // the API it belongs to
	Svc  *registry.Groups   // the groups' and registers' service
	docs *documents.Service // the register extract (PDF)
}

// createGroup: POST /api/v1/groups (admin, clerk).
func (h *GroupHandlers) createGroup(c echo.Context) error {
	var in registry.GroupInput
	if err := server.BindJSON(c, &in); err != nil {
		return err
	}
	g, err := h.Svc.CreateGroup(c.Request().Context(), server.Actor(c), in)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, fmt.Sprintf("/api/v1/groups/%d", g.ID))
	return c.JSON(http.StatusCreated, g)
}

// listGroups: GET /api/v1/groups (staff of the court; a manager sees their group).
func (h *GroupHandlers) listGroups(c echo.Context) error {
	gs, err := h.Svc.ListGroups(c.Request().Context(), server.Actor(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"items": gs})
}

// getGroup: GET /api/v1/groups/:id.
func (h *GroupHandlers) getGroup(c echo.Context) error {
	id, err := server.IDParam(c, "Torcida")
	if err != nil {
		return err
	}
	g, err := h.Svc.GetGroup(c.Request().Context(), server.Actor(c), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, g)
}
