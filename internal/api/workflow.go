package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/execution"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

var etagVersion = regexp.MustCompile(`^"v([0-9]{1,9})"$`)

// etag is the case's ETag for its version.
func etag(version int) string { return fmt.Sprintf(`"v%d"`, version) }

// withIfMatch puts in the request context the case versions that If-Match
// accepts (cases.ExpectVersions); "*" or no header expects none. The header
// is a comma-separated list of entity tags (RFC 9110 §13.1.1; several header
// lines are one list): the write goes on when any member matches by strong
// comparison, so a weak tag W/"v4" never matches and a tag that names no
// version of ours matches nothing (412). A header that is not a list of
// entity tags is errs.Unreadable (400) naming If-Match.
func withIfMatch(c echo.Context) error {
	vals := c.Request().Header.Values("If-Match")
	if len(vals) == 0 {
		return nil
	}
	h := strings.TrimSpace(strings.Join(vals, ","))
	if h == "*" {
		return nil
	}
	tags, ok := parseETags(h)
	if !ok {
		return &errs.Error{Kind: errs.Unreadable, Message: "Cabeçalho If-Match malformado: use \"*\" ou uma lista de ETags entre aspas, como \"v3\" (a ETag da última leitura do processo).",
			Fields: []errs.FieldError{{Field: "If-Match", Rule: "entity_tag", Message: fmt.Sprintf("%q não é uma lista de ETags (RFC 9110, § 13.1.1).", h)}}}
	}
	var versions []int
	for _, t := range tags {
		if m := etagVersion.FindStringSubmatch(t); m != nil {
			v, _ := strconv.Atoi(m[1])
			versions = append(versions, v)
		}
	}
	c.SetRequest(c.Request().WithContext(cases.ExpectVersions(c.Request().Context(), versions...)))
	return nil
}

// parseETags splits an If-Match / If-None-Match value into its entity tags
// (`"x"` or `W/"x"`, as written); ok is false when the value is not a
// comma-separated list of them (empty members and white space around them
// are allowed, RFC 9110 §5.6.1).
func parseETags(h string) (tags []string, ok bool) {
	i := 0
	for i < len(h) {
		switch h[i] {
		case ' ', '\t', ',':
			i++
			continue
		}
		start := i
		if strings.HasPrefix(h[i:], "W/") {
			i += 2
		}
		if i >= len(h) || h[i] != '"' {
			return nil, false
		}
		i++
		for i < len(h) && h[i] != '"' {
			if b := h[i]; b < 0x21 || b == 0x7f {
				return nil, false
			}
			i++
		}
		if i >= len(h) {
			return nil, false
		}
		i++
		tags = append(tags, h[start:i])
		for i < len(h) && (h[i] == ' ' || h[i] == '\t') {
			i++
		}
		if i < len(h) && h[i] != ',' {
			return nil, false
		}
	}
	return tags, len(tags) > 0
}

// caseFail renders a stale If-Match as 412 problem+json (the other errors
// go to the server's error handler).
func caseFail(c echo.Context, err error) error {
	var stale *cases.StaleError
	if errors.As(err, &stale) {
		b, _ := json.Marshal(server.Problem{Type: "about:blank", Title: "Pré-condição falhou", Status: http.StatusPreconditionFailed,
			Detail: stale.Error(), Instance: c.Request().URL.Path})
		c.Response().Header().Set("ETag", etag(stale.Current))
		return c.Blob(http.StatusPreconditionFailed, "application/problem+json", b)
	}
	return err
}

// caseWrite runs a write on case :id with its body bound into in and
// answers status (or *statusOf[0], read after do, when given).
func caseWrite[T any](s *API, c echo.Context, status int, do func(id int64, in T) (any, error), statusOf ...*int) error {
	id, err := server.PathID(c, "id")
	if err != nil {
		return err
	}
	var in T
	if err := server.BindJSON(c, &in); err != nil {
		return err
	}
	if err := withIfMatch(c); err != nil {
		return err
	}
	out, err := do(id, in)
	if err != nil {
		return caseFail(c, err)
	}
	if v, ok := out.(*casefile.View); ok {
		c.Response().Header().Set("ETag", etag(v.Version))
	} else if v, ok := out.(interface{ CaseVersion() int }); ok {
		c.Response().Header().Set("ETag", etag(v.CaseVersion()))
	}
	if len(statusOf) > 0 {
		status = *statusOf[0]
	}
	return c.JSON(status, out)
}

// transition: POST /api/v1/cases/:id/transitions {to, note} (clerk,
// prosecutor, judge: each transition names its role).
func (s *API) transition(c echo.Context) error {
	return caseWrite(s, c, http.StatusOK, func(id int64, in casefile.TransitionInput) (any, error) {
		return s.Cases.Casefile.Transition(c.Request().Context(), server.Actor(c), id, in)
	})
}

// addMovement: POST /api/v1/cases/:id/movements {description, tpu_code?, at?} (clerk).
func (s *API) addMovement(c echo.Context) error {
	return caseWrite(s, c, http.StatusCreated, func(id int64, in cases.MovementInput) (any, error) {
		return s.Cases.Case.AddMovement(c.Request().Context(), server.Actor(c), id, in)
	})
}

// reclassify: PUT /api/v1/cases/:id/classification {class_code,
// subject_codes, reason} (clerk): the case's TPU class and subjects
// corrected, docketed (cases.Reclassify; Res. CNJ 46/2007).
func (s *API) reclassify(c echo.Context) error {
	return caseWrite(s, c, http.StatusOK, func(id int64, in cases.ClassificationInput) (any, error) {
		return s.Cases.Case.Reclassify(c.Request().Context(), server.Actor(c), id, in)
	})
}

// offerPlea: POST /api/v1/cases/:id/plea {defendant_id, months, first_day?} (prosecutor).
func (s *API) offerPlea(c echo.Context) error {
	return caseWrite(s, c, http.StatusCreated, func(id int64, in decisions.PleaInput) (any, error) {
		return s.Cases.Decisions.OfferPlea(c.Request().Context(), server.Actor(c), id, in)
	})
}

// homologate: POST /api/v1/cases/:id/plea/homologate {defendant_id?, first_day?} (judge of the case).
func (s *API) homologate(c echo.Context) error {
	return caseWrite(s, c, http.StatusCreated, func(id int64, in decisions.HomologateInput) (any, error) {
		r, err := s.Cases.Decisions.Homologate(c.Request().Context(), server.Actor(c), id, in)
		if err != nil {
			return nil, err
		}
		return map[string]any{"ban": apiBan(*r.Ban), "warnings": r.Warnings,
			"range": map[string]any{"law": r.Range.Law, "article": r.Range.Article, "min_months": r.Range.MinMonths, "max_months": r.Range.MaxMonths}}, nil
	})
}

// appealResult: POST /api/v1/cases/:id/appeal-result {result, defendant_id?,
// decided_on?, text?, outcome?, ban?} (clerk): the Turma Recursal's result.
func (s *API) appealResult(c echo.Context) error {
	return caseWrite(s, c, http.StatusCreated, func(id int64, in decisions.AppealResultInput) (any, error) {
		return s.Cases.Casefile.RecordAppealResult(c.Request().Context(), server.Actor(c), id, in)
	})
}

// suspend: POST /api/v1/cases/:id/suspension {defendant_id, months, first_day?, conditions} (judge of the case).
func (s *API) suspend(c echo.Context) error {
	return caseWrite(s, c, http.StatusCreated, func(id int64, in decisions.SuspensionInput) (any, error) {
		return s.Cases.Decisions.Suspend(c.Request().Context(), server.Actor(c), id, in)
	})
}

// settle: POST /api/v1/cases/:id/settlement {defendant_id, terms,
// stadium_ban, months, first_day, member_ids, excluded_member_ids,
// exclusion_reason} (the judge of the case): homologates a group case's
// TAC; with stadium_ban it makes the bans, source settlement.
func (s *API) settle(c echo.Context) error {
	return caseWrite(s, c, http.StatusCreated, func(id int64, in decisions.SettlementInput) (any, error) {
		return s.Cases.Decisions.Settle(c.Request().Context(), server.Actor(c), id, in)
	})
}

// linkGroup: PUT /api/v1/cases/:id/defendants/:defendant_id/group
// {group_id} (clerk; the judge of the case): links a group defendant to the
// fan group registered in the case's court (casefile.Service.LinkGroup); 200
// with the case. A malformed or unknown defendant id is 404.
func (s *API) linkGroup(c echo.Context) error {
	did, err := defendantID(c)
	if err != nil {
		return err
	}
	return caseWrite(s, c, http.StatusOK, func(id int64, in casefile.LinkGroupInput) (any, error) {
		return s.Cases.Casefile.LinkGroup(c.Request().Context(), server.Actor(c), id, did, in)
	})
}

// notify: POST /api/v1/cases/:id/notifications {defendant_id, notified_on} (clerk):
// the ciência and the appeal deadline it opens.
func (s *API) notify(c echo.Context) error {
	return caseWrite(s, c, http.StatusCreated, func(id int64, in calendar.NotificationInput) (any, error) {
		return s.Cases.Calendar.Notify(c.Request().Context(), server.Actor(c), id, in)
	})
}

// identify: PUT /api/v1/cases/:id/defendants/:defendant_id/cpf {cpf,
// birth_date?} (clerk, judge of the court): the CPF of a person filed
// without one (execution.Service.Identify); their bans leave the queue
// awaiting identification and enter the blocklist. 200 with {defendant,
// bans, warnings} and the case's ETag. A malformed or unknown defendant id
// is 404.
func (s *API) identify(c echo.Context) error {
	did, err := defendantID(c)
	if err != nil {
		return err
	}
	return caseWrite(s, c, http.StatusOK, func(id int64, in execution.IdentificationInput) (any, error) {
		return s.Cases.Execution.Identify(c.Request().Context(), server.Actor(c), id, did, in)
	})
}
