package ui

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// flash leaves msg for the next page the user sees (after a redirect).
func (s *UI) flash(c echo.Context, msg string) {
	if c.Get(server.SessionKey) != nil {
		s.Sessions.Put(c.Request().Context(), server.SessFlash, msg)
	}
}

// redirect answers a POST with 303 to path (redirect after POST).
func redirect(c echo.Context, path string) error { return c.Redirect(http.StatusSeeOther, path) }

// pageDates rewrites the services' date format (the API's AAAA-MM-DD) into
// the one the pages' date fields take (dd/mm/aaaa): "informe a data de
// nascimento (AAAA-MM-DD)." reads "(dd/mm/aaaa)" next to a dd/mm/aaaa
// field. The API's own messages are untouched.
var pageDates = strings.NewReplacer(
	"(AAAA-MM-DD)", "(dd/mm/aaaa)",
	"(notified_on, AAAA-MM-DD)", "(dd/mm/aaaa)",
	"use AAAA-MM-DD.", "use dd/mm/aaaa.",
)

// formErrors splits a service error into the messages by field (what the
// form shows next to each field, dates worded as the pages take them:
// pageDates) and the page's message. ok is false for
// an error that is not the user's input (a fault of ours): the caller
// returns it.
func formErrors(err error) (fields map[string]string, msg string, status int, ok bool) {
	var e *errs.Error
	if !errors.As(err, &e) || e.Kind == errs.Internal || e.Kind == errs.Unauthorized {
		return nil, "", 0, false
	}
	fields = map[string]string{}
	for _, f := range e.Fields {
		name := f.Field
		if i := strings.Index(name, "facts.conduct["); i == 0 {
			name = "facts.conduct"
		}
		m := upperFirst(pageDates.Replace(f.Message))
		if prev, dup := fields[name]; dup {
			fields[name] = prev + " " + m
		} else {
			fields[name] = m
		}
	}
	msg = pageDates.Replace(e.Message)
	if len(e.Fields) > 0 {
		msg = "Corrija os campos indicados abaixo."
	}
	return fields, msg, server.StatusOf[e.Kind], true
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}

// pageFail answers a page request whose service call failed: the error's
// status and message on the error page; internal faults go to the error
// handler (500).
func (s *UI) pageFail(c echo.Context, err error) error {
	var e *errs.Error
	if errors.As(err, &e) && e.Kind != errs.Internal {
		msg := e.Message
		for _, f := range e.Fields {
			msg += " " + upperFirst(f.Message)
		}
		return s.PageError(c, server.StatusOf[e.Kind], msg)
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		msg := fmt.Sprint(he.Message)
		if he.Code == http.StatusRequestEntityTooLarge {
			msg = "O arquivo enviado é grande demais."
		}
		return s.PageError(c, he.Code, msg)
	}
	return err
}

// pageUser returns the signed-in user (the guards have checked there is one).
func pageUser(c echo.Context) accounts.User {
	u, _ := c.Get(server.UserKey).(accounts.User)
	return u
}
