package ui

// What every form posted on a case page does before and after its own
// work: the case (and the ban) of the path must be one the user can see,
// the form is read once by its reader in internal/ui/form, a field that
// cannot be read sends the case page back with the error next to it, the
// write runs in one transaction carrying the user, and the page redirects
// with a notice.

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/ui/form"
	"github.com/labstack/echo/v4"
)

// caseForm starts a form posted on the page of the case of the path, its
// fields named prefix+name: the error page for a case the user cannot
// see, then read; a field read cannot read sends the case page back. ok
// is false when the request was answered (resp).
func caseForm[T any](s *UI, c echo.Context, prefix string, read func(*form.Values) T) (id int64, in T, ok bool, resp error) {
	id, err := s.caseExists(c)
	if err != nil {
		return 0, in, false, s.pageFail(c, err)
	}
	v := form.New(c.FormValue, prefix, s.Deps.Loc).WithAll(func(name string) []string {
		vals, _ := c.FormParams()
		return vals[name]
	})
	in = read(v)
	if err := v.Err(); err != nil {
		return 0, in, false, s.caseFormFail(c, prefix, err)
	}
	return id, in, true, nil
}

// banForm is caseForm for the form kind ("rev", "ren", "cor", "det") of
// the ban of the field ban_id, one of the case's bans; its fields are
// named after the kind and the ban (form.BanPrefix), returned as prefix.
func banForm[T any](s *UI, c echo.Context, kind string, read func(*form.Values) T) (id int64, ban *cases.BanView, prefix string, in T, ok bool, resp error) {
	id, ban, err := s.caseBan(c)
	if err != nil {
		return 0, nil, "", in, false, s.pageFail(c, err)
	}
	prefix = form.BanPrefix(kind, ban.ID)
	v := form.New(c.FormValue, prefix, s.Deps.Loc)
	in = read(v)
	if err := v.Err(); err != nil {
		return 0, nil, "", in, false, s.caseFormFail(c, prefix, err)
	}
	return id, ban, prefix, in, true, nil
}

// caseFormFail re-renders the case page with a form's errors (fields
// prefixed with the form's name) or answers the error.
func (s *UI) caseFormFail(c echo.Context, prefix string, err error) error {
	return s.formFail(c, prefix, err, s.renderCase)
}

// formFail re-renders a page with render and a form's errors (fields
// prefixed with the form's name), answers 404 and 403 with the error page,
// and returns any other error as it is.
func (s *UI) formFail(c echo.Context, prefix string, err error, render func(echo.Context, int, server.Page) error) error {
	fields, msg, status, ok := formErrors(err)
	if !ok {
		return err
	}
	if status == http.StatusNotFound || status == http.StatusForbidden {
		return s.PageError(c, status, msg)
	}
	pf := map[string]string{}
	for k, v := range fields {
		pf[prefix+k] = v
	}
	vals, _ := c.FormParams()
	if len(fields) == 0 {
		msg = upperFirst(msg)
	}
	return render(c, status, server.Page{Errs: pf, Form: vals, Error: msg})
}

// caseExists answers 404 for a case the user cannot see (before reading a form).
func (s *UI) caseExists(c echo.Context) (int64, error) {
	id, err := caseID(c)
	if err != nil {
		return 0, err
	}
	if _, err := s.Cases.Casefile.Get(c.Request().Context(), server.Actor(c), id); err != nil {
		return 0, err
	}
	return id, nil
}

// remap renames the fields of an Invalid error (API names to form names).
func remap(err error, names map[string]string) error {
	e, ok := err.(*errs.Error)
	if !ok {
		return err
	}
	out := &errs.Error{Kind: e.Kind, Message: e.Message}
	for _, f := range e.Fields {
		if n, ok := names[f.Field]; ok {
			f.Field = n
		}
		out.Fields = append(out.Fields, f)
	}
	return out
}

// caseBan returns the case of the path and the ban of the form field ban_id,
// which must be one of that case's bans (errs.NotFound otherwise: a ban of
// another case is not decided from this page).
func (s *UI) caseBan(c echo.Context) (int64, *cases.BanView, error) {
	id, err := caseID(c)
	if err != nil {
		return 0, nil, err
	}
	v, err := s.Cases.Casefile.Get(c.Request().Context(), server.Actor(c), id)
	if err != nil {
		return 0, nil, err
	}
	want := form.ID(c.FormValue("ban_id"))
	for i := range v.Bans {
		if v.Bans[i].ID == want {
			return id, &v.Bans[i], nil
		}
	}
	return 0, nil, errs.New(errs.NotFound, "Impedimento não encontrado neste processo.")
}

// collapseIndexed renames the fields name[i] of an Invalid error to name.
func collapseIndexed(err error, name string) error {
	e, ok := err.(*errs.Error)
	if !ok {
		return err
	}
	out := &errs.Error{Kind: e.Kind, Message: e.Message}
	for _, f := range e.Fields {
		if strings.HasPrefix(f.Field, name+"[") {
			f.Field = name
		}
		out.Fields = append(out.Fields, f)
	}
	return out
}

// pageWrite runs write in one transaction carrying the user (inTx) and
// returns its result with ok true; when it fails, the case page is shown
// again with the error next to the form of the fields' prefix
// (caseFormFail), ok is false and resp is what the handler returns.
func pageWrite[T any](s *UI, c echo.Context, prefix string, write func(ctx context.Context) (T, error)) (out T, ok bool, resp error) {
	err := s.InTx(c, func(ctx context.Context) error {
		var err error
		out, err = write(ctx)
		return err
	})
	if err != nil {
		return out, false, s.caseFormFail(c, prefix, err)
	}
	return out, true, nil
}

// doneOnCase ends a case page's write: the message with the service's
// warnings as the next page's notice, and a redirect (303) to the case at
// anchor ("" or "#section").
func (s *UI) doneOnCase(c echo.Context, id int64, anchor, msg string, warnings []string) error {
	if len(warnings) > 0 {
		msg += " " + strings.Join(warnings, " ")
	}
	s.flash(c, PageWords(msg))
	return redirect(c, fmt.Sprintf("/processos/%d%s", id, anchor))
}
