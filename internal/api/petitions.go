package api

import (
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/app"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// filePetition: POST /api/v1/cases/:id/petitions (defence), JSON
// {defendant_id, kind, text, member_id?, ground?} or multipart/form-data
// with the same fields and a PDF in file → 201 with the petition {id,
// kind, status: "pending", late, effect, ...} (app.App.FilePetition; Lei
// 11.419/2006, art. 10). A case or defendant the caller does not
// represent is 404.
func (s *API) filePetition(c echo.Context) error {
	id, err := server.PathID(c, "id")
	if err != nil {
		return err
	}
	in, err := petitionInput(c)
	if err != nil {
		return err
	}
	v, err := s.App.FilePetition(c.Request().Context(), server.Actor(c), id, in)
	if err != nil {
		return caseFail(c, err)
	}
	c.Response().Header().Set(echo.HeaderLocation, fmt.Sprintf("/api/v1/petitions?status=pending#%d", v.ID))
	return c.JSON(http.StatusCreated, v)
}

// petitionInput reads a petition from a JSON or a multipart body.
func petitionInput(c echo.Context) (cases.PetitionInput, error) {
	var in cases.PetitionInput
	mt, _, _ := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType))
	if mt != "multipart/form-data" {
		return in, server.BindJSON(c, &in)
	}
	up, err := readUpload(c, false, "defendant_id", "kind", "text", "member_id", "ground")
	if err != nil {
		return in, err
	}
	var f errs.Fields
	in.DefendantID = formID(&f, up.fields, "defendant_id")
	in.MemberID = formID(&f, up.fields, "member_id")
	in.Kind, in.Text, in.Ground = strings.TrimSpace(up.fields["kind"]), up.fields["text"], strings.TrimSpace(up.fields["ground"])
	in.Filename, in.Data = up.filename, up.data
	return in, f.Err()
}

// formID parses the optional id in field name of fields (0 when absent);
// errors go to f.
func formID(f *errs.Fields, fields map[string]string, name string) int64 {
	v := strings.TrimSpace(fields[name])
	if v == "" {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		f.Add(name, "integer", "informe um número inteiro positivo.")
		return 0
	}
	return n
}

// listPetitions: GET /api/v1/petitions[?status=pending|answered] (judge:
// its queue; clerk: the court's procedural queue; defence: its own
// filings with their answers) → {items}.
func (s *API) listPetitions(c echo.Context) error {
	items, err := s.Cases.Case.Petitions(c.Request().Context(), server.Actor(c), c.QueryParam("status"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"items": items})
}

// answerPetition: POST /api/v1/petitions/:id/answer {decision: granted |
// refused | noted, text} (the judge of the case for the judge's queue,
// the clerk for the clerk's) → 200 with the petition answered
// (app.App.AnswerPetition); granting a contest of a group-ban inclusion
// removes the member from the blocklist (reason contested).
func (s *API) answerPetition(c echo.Context) error {
	id, err := server.ParseID(c, "id", "Petição %q não encontrada.")
	if err != nil {
		return err
	}
	var in cases.AnswerInput
	if err := server.BindJSON(c, &in); err != nil {
		return err
	}
	v, err := s.App.AnswerPetition(c.Request().Context(), server.Actor(c), id, in)
	if err != nil {
		return caseFail(c, err)
	}
	return c.JSON(http.StatusOK, v)
}

// publicContest: POST /api/v1/public/contests {number, cpf, birth_date,
// ground, text} (anyone, no token): a member's contest of his inclusion in
// a group ban, without a lawyer (app.App.PublicContest) → 201 with the
// petition; a failed proof is one 404 whatever failed (nobody learns
// whether a CPF is banned); too many failures for the CPF or from the
// address are 429 with Retry-After, as the sign-in.
func (s *API) publicContest(c echo.Context) error {
	var in app.PublicContestInput
	if err := server.BindJSON(c, &in); err != nil {
		return err
	}
	v, err := s.App.PublicContest(c.Request().Context(), in, s.ClientIP(c))
	if msg, locked := server.Locked(c, err); locked {
		return echo.NewHTTPError(http.StatusTooManyRequests, msg)
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, v)
}
