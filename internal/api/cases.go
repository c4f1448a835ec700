package api

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/sanctions"
	"github.com/labstack/echo/v4"
)

func PathID(c echo.Context, name string) (int64, error) {
	id, err := strconv.ParseInt(c.Param(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, errs.New(errs.NotFound, fmt.Sprintf("Processo %q não encontrado: o identificador deve ser um número inteiro positivo.", c.Param(name)))
	}
	return id, nil
}

// fileCase: POST /api/v1/cases (prosecutor, police). With an
// Idempotency-Key header, a filing repeated by the same filer with the
// same key and body answers 200 with the first case (Idempotent-Replayed:
// true); the same key with another body is 422.
func (s *API) fileCase(c echo.Context) error {
	var in cases.Representation
	if err := server.BindJSON(c, &in); err != nil {
		return err
	}
	key := strings.TrimSpace(c.Request().Header.Get("Idempotency-Key"))
	k, replayed, err := s.Cases.FileOnce(c.Request().Context(), server.Actor(c), in, key)
	if err != nil {
		return err
	}
	v, err := s.Cases.Get(c.Request().Context(), server.Actor(c), k.ID)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, fmt.Sprintf("/api/v1/cases/%d", k.ID))
	c.Response().Header().Set("ETag", etag(v.Version))
	if replayed {
		c.Response().Header().Set("Idempotent-Replayed", "true")
		return c.JSON(http.StatusOK, v)
	}
	return c.JSON(http.StatusCreated, v)
}

// getCase: GET /api/v1/cases/:id.
func (s *API) getCase(c echo.Context) error {
	id, err := PathID(c, "id")
	if err != nil {
		return err
	}
	v, err := s.Cases.Get(c.Request().Context(), server.Actor(c), id)
	if err != nil {
		return err
	}
	return caseJSON(c, v)
}

// caseJSON answers a case with its ETag ("v{version}"); 304 when
// If-None-Match names it.
func caseJSON(c echo.Context, v *cases.View) error {
	tag := etag(v.Version)
	c.Response().Header().Set("ETag", tag)
	for _, t := range strings.Split(c.Request().Header.Get("If-None-Match"), ",") {
		if t = strings.TrimPrefix(strings.TrimSpace(t), "W/"); t == tag || t == "*" {
			return c.NoContent(http.StatusNotModified)
		}
	}
	return c.JSON(http.StatusOK, v)
}

// caseByNumber: GET /api/v1/cases/by-number/:number.
func (s *API) caseByNumber(c echo.Context) error {
	v, err := s.Cases.ByNumber(c.Request().Context(), server.Actor(c), c.Param("number"))
	if err != nil {
		return err
	}
	return caseJSON(c, v)
}

// listCases: GET /api/v1/cases?q=&cpf=&status=&judge_id=&from=&to=&number=&sort=&page=&per_page=.
func (s *API) listCases(c echo.Context) error {
	var f errs.Fields
	num := func(name string) int {
		v := c.QueryParam(name)
		if v == "" {
			return 0
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			f.Add(name, "integer", "deve ser um número inteiro a partir de 1.")
			return -1
		}
		return n
	}
	q := cases.ListQuery{Q: c.QueryParam("q"), CPF: c.QueryParam("cpf"), Status: c.QueryParam("status"), Page: num("page"), PerPage: num("per_page"),
		From: c.QueryParam("from"), To: c.QueryParam("to"), Number: c.QueryParam("number"), Sort: c.QueryParam("sort")}
	if v := c.QueryParam("judge_id"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			f.Add("judge_id", "integer", "deve ser o identificador (número inteiro positivo) de um(a) juiz(a).")
		}
		q.JudgeID = n
	}
	for _, name := range []string{"q", "cpf", "status", "from", "to", "number", "sort"} {
		if v := c.QueryParam(name); strings.ContainsRune(v, 0) || !utf8.ValidString(v) {
			f.Add(name, "text", "o parâmetro contém caracteres inválidos.")
		}
	}
	if err := f.Err(); err != nil {
		return err
	}
	items, total, err := s.Cases.List(c.Request().Context(), server.Actor(c), q)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"items": items, "total": total})
}

// sentence: POST /api/v1/cases/:id/sentence (the judge of the case): one
// defendant's decision (outcome ban, prison or acquittal; or a
// precautionary ban alone), or its minuta with "draft": true (201 with
// status "draft": nothing decided).
func (s *API) sentence(c echo.Context) error {
	id, err := PathID(c, "id")
	if err != nil {
		return err
	}
	var in cases.SentenceInput
	if err := server.BindJSON(c, &in); err != nil {
		return err
	}
	if err := withIfMatch(c); err != nil {
		return err
	}
	r, err := s.Cases.Sentence(c.Request().Context(), server.Actor(c), id, in)
	if err != nil {
		return caseFail(c, err)
	}
	s.issueSigned(c, id, r)
	return c.JSON(http.StatusCreated, sentenceBody(r))
}

// issueSigned issues the sentence document of a signed decision once, at
// signing (one verification code per decision; later downloads return the
// same PDF). A failure is logged: the first download issues it then.
func (s *API) issueSigned(c echo.Context, caseID int64, r *cases.SentenceResult) {
	if r.Sentence.Status == "signed" && r.Outcome != cases.OutcomePrecautionary {
		s.IssueSentence(c, caseID, r.Sentence.DefendantID)
	}
}

// signDraft: POST /api/v1/cases/:id/sentence/sign {defendant_id} (the judge
// of the case): signs the saved minuta.
func (s *API) signDraft(c echo.Context) error {
	id, err := PathID(c, "id")
	if err != nil {
		return err
	}
	var in struct {
		DefendantID int64 `json:"defendant_id"`
	}
	if err := server.BindJSON(c, &in); err != nil {
		return err
	}
	if in.DefendantID == 0 {
		if _, err := s.Cases.Get(c.Request().Context(), server.Actor(c), id); err != nil {
			return err // a case of another court is 404 like an unknown one
		}
		return errs.InvalidField("defendant_id", "required", "informe o réu (defendant_id) cuja minuta será assinada.")
	}
	if err := withIfMatch(c); err != nil {
		return err
	}
	r, err := s.Cases.SignDraft(c.Request().Context(), server.Actor(c), id, in.DefendantID)
	if err != nil {
		return caseFail(c, err)
	}
	s.issueSigned(c, id, r)
	return c.JSON(http.StatusCreated, sentenceBody(r))
}

// sentenceBody is the answer of a sentence (API.md): {outcome, status,
// sentence, ban?, precautionary_ban?, member_bans, prison?, flags, range,
// warnings}.
func sentenceBody(r *cases.SentenceResult) map[string]any {
	members := make([]cases.BanView, 0, len(r.MemberBans))
	for _, m := range r.MemberBans {
		members = append(members, apiBan(m))
	}
	out := map[string]any{
		"outcome": r.Outcome, "status": r.Sentence.Status, "sentence": r.Sentence, "member_bans": members, "warnings": r.Warnings, "flags": r.Flags,
	}
	if r.Outcome != cases.OutcomePrecautionary {
		out["range"] = rangeBody(r.Range)
	}
	if r.Ban != nil {
		out["ban"] = apiBan(*r.Ban)
	}
	if r.PrecautionaryBan != nil {
		out["precautionary_ban"] = apiBan(*r.PrecautionaryBan)
	}
	if r.Prison != nil {
		out["prison"] = r.Prison
	}
	return out
}

// apiBan is a ban as the API shows it, with its state on the day it was
// written (awaiting_final for a sentence's ban; a plea or precautionary
// ban by its first day).
func apiBan(b sanctions.Ban) cases.BanView {
	v := cases.NewBanView(b)
	day := b.FactsDate
	if b.FirstDay != nil {
		day = *b.FirstDay
	}
	v.SetState(day)
	return v
}

// rangeBody is a sanctions.Range as the API shows it (legal/ban-range and
// the sentence's answer).
func rangeBody(r sanctions.Range) map[string]any {
	out := map[string]any{"convertible": r.Convertible, "law": r.Law, "article": r.Article, "why": r.Why,
		"offence": r.Offence, "rite": r.Rite, "plea_allowed": r.PleaAllowed, "suspension_allowed": r.SuspensionAllowed}
	if r.Convertible || r.Cumulative {
		out["min_months"], out["max_months"] = r.MinMonths, r.MaxMonths
	}
	if r.Convertible {
		out["sec7_applied"] = r.Sec7Applied
		if r.Members != "" {
			out["members"] = r.Members
		}
	} else {
		out["reason"] = r.Reason
	}
	if r.Cumulative {
		out["cumulative"] = true
	}
	if r.PrisonMaxMonths > 0 {
		out["prison"] = map[string]any{"min_months": r.PrisonMinMonths, "max_months": r.PrisonMaxMonths, "fine": r.Fine}
	}
	notes := r.Notes
	if notes == nil {
		notes = []string{}
	}
	out["notes"] = notes
	return out
}
