package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/registry"
	"github.com/labstack/echo/v4"
)

// listMembers: GET /api/v1/groups/:id/members (the group's managers;
// prosecutor, police, clerk, judge of its court; recorded).
func (h *GroupHandlers) listMembers(c echo.Context) error {
	id, err := server.IDParam(c, "Torcida")
	if err != nil {
		return err
	}
	items, err := h.Svc.ListMembers(c.Request().Context(), server.Actor(c), id)
	if err != nil {
		return err
	}
	server.NoStore(c)
	return c.JSON(http.StatusOK, map[string]any{"items": items})
}

// addMember: POST /api/v1/groups/:id/members (the group's managers).
func (h *GroupHandlers) addMember(c echo.Context) error {
	id, err := server.IDParam(c, "Torcida")
	if err != nil {
		return err
	}
	var in registry.MemberInput
	if err := server.BindJSON(c, &in); err != nil {
		return err
	}
	m, err := h.Svc.AddMember(c.Request().Context(), server.Actor(c), id, in)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, fmt.Sprintf("/api/v1/members/%d", m.ID))
	return c.JSON(http.StatusCreated, m)
}

// getMember: GET /api/v1/members/:id (recorded for anyone but the managers).
func (h *GroupHandlers) getMember(c echo.Context) error {
	id, err := server.IDParam(c, "Associado")
	if err != nil {
		return err
	}
	m, err := h.Svc.GetMember(c.Request().Context(), server.Actor(c), id)
	if err != nil {
		return err
	}
	server.NoStore(c)
	return c.JSON(http.StatusOK, m)
}

// patchMember: PATCH /api/v1/members/:id (the group's managers).
func (h *GroupHandlers) patchMember(c echo.Context) error {
	id, err := server.IDParam(c, "Associado")
	if err != nil {
		return err
	}
	var in registry.MemberInput
	if err := server.BindJSON(c, &in); err != nil {
		return err
	}
	m, err := h.Svc.UpdateMember(c.Request().Context(), server.Actor(c), id, in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, m)
}

// bindOptionalJSON binds a JSON body that may be empty.
func bindOptionalJSON(c echo.Context, dst any) error {
	if c.Request().ContentLength == 0 {
		return nil
	}
	return server.BindJSON(c, dst)
}

// leave: POST /api/v1/members/:id/leave {left_on?} (the group's managers).
func (h *GroupHandlers) leave(c echo.Context) error { return h.memberDate(c, h.Svc.Leave) }

// rejoin: POST /api/v1/members/:id/rejoin {joined_on?} (the group's managers).
func (h *GroupHandlers) rejoin(c echo.Context) error { return h.memberDate(c, h.Svc.Rejoin) }

// memberDate runs a dated change of a membership (leave, rejoin) on the
// member of the path with the optional date of the body.
func (h *GroupHandlers) memberDate(c echo.Context, change func(context.Context, actor.Actor, int64, registry.DateInput) (*registry.MemberView, error)) error {
	id, err := server.IDParam(c, "Associado")
	if err != nil {
		return err
	}
	var in registry.DateInput
	if err := bindOptionalJSON(c, &in); err != nil {
		return err
	}
	m, err := change(c.Request().Context(), server.Actor(c), id, in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, m)
}

// readBody reads at most limit bytes of the body: 413 above.
func readBody(c echo.Context, limit int64) ([]byte, error) {
	if c.Request().ContentLength > limit {
		return nil, echo.NewHTTPError(http.StatusRequestEntityTooLarge)
	}
	b, err := io.ReadAll(io.LimitReader(c.Request().Body, limit+1))
	if err != nil {
		if server.BodyTooLarge(err) {
			return nil, echo.NewHTTPError(http.StatusRequestEntityTooLarge)
		}
		return nil, errs.New(errs.Unreadable, "Não foi possível ler o corpo da requisição.")
	}
	if int64(len(b)) > limit {
		return nil, echo.NewHTTPError(http.StatusRequestEntityTooLarge)
	}
	return b, nil
}

// tooLarge maps the registry's *TooLargeError to 413.
func tooLarge(err error) error {
	var tl *registry.TooLargeError
	if errors.As(err, &tl) {
		return echo.NewHTTPError(http.StatusRequestEntityTooLarge, tl.Message)
	}
	return err
}

// putPhoto: PUT /api/v1/members/:id/photo, body the JPEG or PNG (checked by
// content, at most 5 MB, stored without metadata; the group's managers).
func (h *GroupHandlers) putPhoto(c echo.Context) error {
	id, err := server.IDParam(c, "Associado")
	if err != nil {
		return err
	}
	ct := strings.ToLower(strings.TrimSpace(strings.SplitN(c.Request().Header.Get(echo.HeaderContentType), ";", 2)[0]))
	switch ct {
	case "", "image/jpeg", "image/jpg", "image/png", "application/octet-stream":
	default:
		return server.Unsupported(c, "image/jpeg ou image/png (a foto como corpo)")
	}
	body, err := readBody(c, registry.MaxPhotoBytes)
	if err != nil {
		return err
	}
	m, err := h.Svc.SetPhoto(c.Request().Context(), server.Actor(c), id, body)
	if err != nil {
		return tooLarge(err)
	}
	return c.JSON(http.StatusOK, m)
}

// importMembers: POST /api/v1/groups/:id/members/import[?dry_run=true]
// (the group's managers): text/csv or application/zip. Dry run 200 with the
// report; real import 201 when applied, 422 with the report and nothing
// applied when a line has an error.
func (h *GroupHandlers) importMembers(c echo.Context) error {
	id, err := server.IDParam(c, "Torcida")
	if err != nil {
		return err
	}
	dry := false
	switch strings.ToLower(c.QueryParam("dry_run")) {
	case "", "false", "0":
	case "true", "1":
		dry = true
	default:
		return errs.InvalidField("dry_run", "boolean", "dry_run deve ser true ou false.")
	}
	ct := strings.ToLower(strings.TrimSpace(strings.SplitN(c.Request().Header.Get(echo.HeaderContentType), ";", 2)[0]))
	switch ct {
	case "", "text/csv", "application/csv", "text/plain", "application/vnd.ms-excel", "text/comma-separated-values",
		"application/zip", "application/x-zip-compressed", "application/octet-stream":
	default:
		return server.Unsupported(c, "text/csv (a planilha) ou application/zip (a planilha com as fotos)")
	}
	body, err := readBody(c, registry.MaxImportBytes)
	if err != nil {
		return err
	}
	rep, err := h.Svc.Import(c.Request().Context(), server.Actor(c), id, registry.ImportInput{Body: body, ContentType: ct, DryRun: dry})
	if err != nil {
		return tooLarge(err)
	}
	switch {
	case dry:
		return c.JSON(http.StatusOK, rep)
	case rep.Applied:
		return c.JSON(http.StatusCreated, rep)
	}
	// 422: the report as a problem document; nothing was applied.
	b, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		return err
	}
	doc["type"] = "about:blank"
	doc["title"] = server.TitleOf[http.StatusUnprocessableEntity]
	doc["status"] = http.StatusUnprocessableEntity
	doc["detail"] = fmt.Sprintf("A planilha tem %d linha(s) com erro; nada foi importado (applied: false). Corrigidos os erros, a importação criaria %d associado(s) e atualizaria %d: created e updated contam o que seria feito.", rep.Errors, rep.Created, rep.Updated)
	doc["instance"] = c.Request().URL.Path
	out, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	return c.Blob(http.StatusUnprocessableEntity, "application/problem+json", out)
}

// exportMembers: GET /api/v1/groups/:id/members/export?format=csv|pdf (who
// may read the register; recorded). CSV for Excel in Brazil: UTF-8 with
// BOM, `;`. PDF: the register extract ("extrato do cadastro de associados",
// LGE art. 178 § 4º), a court document stored under a verification code
// (X-Juizado-Document-Code), without the photos.
func (h *GroupHandlers) exportMembers(c echo.Context) error {
	id, err := server.IDParam(c, "Torcida")
	if err != nil {
		return err
	}
	switch c.QueryParam("format") {
	case "", "csv":
	case "pdf":
		doc, err := h.docs.Register(c.Request().Context(), server.Actor(c), id)
		if err != nil {
			return err
		}
		return server.SendDocument(c, doc, fmt.Sprintf("cadastro-torcida-%d", id))
	default:
		return errs.InvalidField("format", "oneof", "formatos de exportação disponíveis: csv e pdf.")
	}
	body, _, err := h.Svc.ExportCSV(c.Request().Context(), server.Actor(c), id)
	if err != nil {
		return err
	}
	server.NoStore(c)
	c.Response().Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="cadastro-torcida-%d.csv"`, id))
	return c.Blob(http.StatusOK, "text/csv; charset=utf-8", body)
}
