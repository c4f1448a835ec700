package ui

import (
	"net/http"
	"net/url"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/app"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/ui/form"
	"github.com/labstack/echo/v4"
)

// contestData is the data of the public contest page (/impugnacao): the
// grounds offered, and the petition once filed.
type contestData struct {
	Grounds []petitionOption
	Filed   *cases.PetitionView
}

// contestForm: GET /impugnacao (anyone): the form by which a member
// reached by a group ban contests his inclusion without a lawyer (issue
// 29, item 5), proving who he is with the case number, his CPF and his
// birth date.
func (s *UI) contestForm(c echo.Context) error {
	return s.renderContest(c, http.StatusOK, server.Page{Form: url.Values{}}, nil)
}

func (s *UI) renderContest(c echo.Context, status int, p server.Page, filed *cases.PetitionView) error {
	d := contestData{Filed: filed}
	for _, g := range []string{cases.GroundNotMember, cases.GroundUnder18, cases.GroundHomonym} {
		d.Grounds = append(d.Grounds, petitionOption{g, cases.GroundPT[g]})
	}
	p.Title, p.Data = "Impugnação da inclusão no impedimento de torcida", d
	return s.Page(c, status, "impugnacao", p)
}

// contestPage: POST /impugnacao (anyone; form: numero, cpf, nascimento as
// dd/mm/aaaa, fundamento, texto, csrf) files the contest through
// app.App.PublicContest: a failed proof gives one message whatever failed,
// too many failures lock the CPF and the address as the sign-in does (429).
func (s *UI) contestPage(c echo.Context) error {
	vals := url.Values{}
	for _, k := range []string{"numero", "cpf", "nascimento", "fundamento", "texto"} {
		vals.Set(k, c.FormValue(k))
	}
	var f errs.Fields
	in := app.PublicContestInput{Number: vals.Get("numero"), CPF: vals.Get("cpf"), BirthDate: form.ISODate(&f, "birth_date", vals.Get("nascimento")),
		Ground: vals.Get("fundamento"), Text: vals.Get("texto")}
	err := f.Err()
	var v *cases.PetitionView
	if err == nil {
		v, err = s.App.PublicContest(c.Request().Context(), in, s.ClientIP(c))
	}
	if msg, locked := server.Locked(c, err); locked {
		return s.renderContest(c, http.StatusTooManyRequests, server.Page{Form: vals, Error: msg}, nil)
	}
	if err != nil {
		fields, msg, status, ok := formErrors(err)
		if !ok {
			return err
		}
		names := map[string]string{"number": "numero", "cpf": "cpf", "birth_date": "nascimento", "ground": "fundamento", "text": "texto"}
		pf := map[string]string{}
		for k, m := range fields {
			pf[names[k]] = m
		}
		return s.renderContest(c, status, server.Page{Form: vals, Errs: pf, Error: msg}, nil)
	}
	return s.renderContest(c, http.StatusOK, server.Page{Form: url.Values{}}, v)
}
