package api

import (
	"net/http"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/sanctions"
	"github.com/labstack/echo/v4"
)

// sentence: POST /api/v1/cases/:id/sentence (the judge of the case): one
// defendant's decision (outcome ban, prison or acquittal; or a
// precautionary ban alone), or its minuta with "draft": true (201 with
// status "draft": nothing decided).
func (s *API) sentence(c echo.Context) error {
	id, err := server.PathID(c, "id")
	if err != nil {
		return err
	}
	var in decisions.SentenceInput
	if err := server.BindJSON(c, &in); err != nil {
		return err
	}
	if err := withIfMatch(c); err != nil {
		return err
	}
	r, err := s.App.Sentence(c.Request().Context(), server.Actor(c), id, in)
	if err != nil {
		return caseFail(c, err)
	}
	return c.JSON(http.StatusCreated, sentenceBody(r))
}

// signDraft: POST /api/v1/cases/:id/sentence/sign {defendant_id} (the judge
// of the case): signs the saved minuta.
func (s *API) signDraft(c echo.Context) error {
	id, err := server.PathID(c, "id")
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
		if _, err := s.Cases.Casefile.Get(c.Request().Context(), server.Actor(c), id); err != nil {
			return err // a case of another court is 404 like an unknown one
		}
		return errs.InvalidField("defendant_id", "required", "informe o réu (defendant_id) cuja minuta será assinada.")
	}
	if err := withIfMatch(c); err != nil {
		return err
	}
	r, err := s.App.SignDraft(c.Request().Context(), server.Actor(c), id, in.DefendantID)
	if err != nil {
		return caseFail(c, err)
	}
	return c.JSON(http.StatusCreated, sentenceBody(r))
}

// sentenceBody is the answer of a sentence (API.md): {outcome, status,
// sentence, ban?, precautionary_ban?, member_bans, prison?, flags, range,
// warnings}.
func sentenceBody(r *decisions.SentenceResult) map[string]any {
	members := make([]cases.BanView, 0, len(r.MemberBans))
	for _, m := range r.MemberBans {
		members = append(members, apiBan(m))
	}
	out := map[string]any{
		"outcome": r.Outcome, "status": r.Sentence.Status, "sentence": r.Sentence, "member_bans": members, "warnings": r.Warnings, "flags": r.Flags,
	}
	if r.Outcome != decisions.OutcomePrecautionary {
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
