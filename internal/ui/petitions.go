package ui

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// petitionsData is the data of the petitions page (/peticoes): the
// defence's filings with their answers and its filing form, or the judge's
// or the clerk's queue with the answer form of each petition.
type petitionsData struct {
	Items []cases.PetitionView
	// Defence: the caller files petitions (its clients, the kinds, the
	// members a contest may name, the grounds).
	Defence bool
	Clients []petitionClient
	Kinds   []petitionOption
	Grounds []petitionOption
	Members []petitionOption
	// Answers: the caller answers the petitions listed (judge, clerk).
	Answers bool
	// Pending: only the pending ones are listed (the queue).
	Pending bool
}

// petitionClient is a client the defence may petition for: the value
// "case:defendant" and the label (name and case number).
type petitionClient struct{ Value, Label string }

// petitionOption is an option of a select: value and label.
type petitionOption struct{ Value, Label string }

// petitionsPage: GET /peticoes[?todas=1] (defence: its petitions and the
// filing form; judge and clerk: the pending petitions of their queue, or
// every one with todas=1, each with the answer form).
func (s *UI) petitionsPage(c echo.Context) error {
	return s.renderPetitions(c, http.StatusOK, server.Page{Form: url.Values{}})
}

func (s *UI) renderPetitions(c echo.Context, status int, p server.Page) error {
	ctx := c.Request().Context()
	a := server.Actor(c)
	d := petitionsData{Defence: a.Role == accounts.RoleDefence}
	d.Answers = !d.Defence && s.May(pageUser(c), http.MethodPost, "/peticoes/:id/resposta")
	filter := ""
	if !d.Defence && c.QueryParam("todas") == "" {
		filter, d.Pending = "pending", true
	}
	items, err := s.Cases.Case.Petitions(ctx, a, filter)
	if err != nil {
		return s.pageFail(c, err)
	}
	d.Items = items
	if d.Defence {
		if err := s.petitionChoices(ctx, a.UserID, &d); err != nil {
			return s.pageFail(c, err)
		}
	}
	p.Title = "Petições"
	p.Data = d
	return s.Page(c, status, "peticoes", p)
}

// petitionChoices fills the defence's form: its clients, the kinds, the
// grounds and the members a contest may name (by name, of its clients'
// group bans).
func (s *UI) petitionChoices(ctx context.Context, counselID int64, d *petitionsData) error {
	cs, err := s.Cases.Case.Clients(ctx, counselID)
	if err != nil {
		return err
	}
	for _, r := range cs {
		d.Clients = append(d.Clients, petitionClient{Value: fmt.Sprintf("%d:%d", r.CaseID, r.DefendantID), Label: r.Defendant + " — processo " + r.CaseNumber})
		bans, err := s.Cases.Decisions.ContestableBans(ctx, r.CaseID, r.DefendantID)
		if err != nil {
			return err
		}
		for _, b := range bans {
			d.Members = append(d.Members, petitionOption{Value: strconv.FormatInt(*b.MemberID, 10), Label: b.Name + " (" + r.Defendant + ")"})
		}
	}
	for _, k := range cases.PetitionKinds {
		d.Kinds = append(d.Kinds, petitionOption{k, cases.PetitionKindPT[k]})
	}
	for _, g := range []string{cases.GroundNotMember, cases.GroundUnder18, cases.GroundHomonym} {
		d.Grounds = append(d.Grounds, petitionOption{g, cases.GroundPT[g]})
	}
	return nil
}

// filePetitionPage: POST /peticoes (defence; multipart form: pet.client as
// "case:defendant", pet.kind, pet.text, pet.member_id and pet.ground for a
// contest, pet.file a PDF) files the petition through app.App.FilePetition.
func (s *UI) filePetitionPage(c echo.Context) error {
	vals := url.Values{}
	for _, k := range []string{"pet.client", "pet.kind", "pet.text", "pet.member_id", "pet.ground"} {
		vals.Set(k, c.FormValue(k))
	}
	var f errs.Fields
	in := cases.PetitionInput{Kind: vals.Get("pet.kind"), Text: vals.Get("pet.text"), Ground: vals.Get("pet.ground")}
	caseStr, defStr, _ := strings.Cut(vals.Get("pet.client"), ":")
	caseID, _ := strconv.ParseInt(caseStr, 10, 64)
	in.DefendantID, _ = strconv.ParseInt(defStr, 10, 64)
	if caseID == 0 || in.DefendantID == 0 {
		f.Add("client", "required", "escolha o(a) cliente.")
	}
	if in.Kind == cases.PetitionGroupContest {
		in.MemberID, _ = strconv.ParseInt(vals.Get("pet.member_id"), 10, 64)
	} else {
		in.Ground = ""
	}
	if fh, err := c.FormFile("pet.file"); err == nil {
		fd, err := fh.Open()
		if err != nil {
			return err
		}
		defer fd.Close()
		if in.Data, err = io.ReadAll(io.LimitReader(fd, cases.MaxEvidenceBytes+1)); err != nil {
			return err
		}
		in.Filename = fh.Filename
	}
	err := f.Err()
	var v *cases.PetitionView
	if err == nil {
		v, err = s.App.FilePetition(c.Request().Context(), server.Actor(c), caseID, in)
	}
	if err != nil {
		return s.petitionsFail(c, "pet.", vals, err)
	}
	msg := fmt.Sprintf("Petição %d protocolada (%s): aguarda resposta.", v.ID, v.KindPT())
	if v.Late {
		msg += " Apresentada fora do prazo: recebida e anotada como intempestiva para a decisão do(a) juiz(a)."
	}
	if v.EffectNote != "" {
		msg += " " + v.EffectNote
	}
	s.flash(c, msg)
	return redirect(c, "/peticoes")
}

// answerPetitionPage: POST /peticoes/:id/resposta (judge, clerk; form:
// resp.decision, resp.text) answers the petition through
// app.App.AnswerPetition.
func (s *UI) answerPetitionPage(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return s.PageError(c, http.StatusNotFound, "Petição não encontrada.")
	}
	vals := url.Values{"resp.decision": {c.FormValue("resp.decision")}, "resp.text": {c.FormValue("resp.text")}, "resp.id": {c.Param("id")}}
	v, err := s.App.AnswerPetition(c.Request().Context(), server.Actor(c), id, cases.AnswerInput{Decision: vals.Get("resp.decision"), Text: vals.Get("resp.text")})
	if err != nil {
		return s.petitionsFail(c, "resp.", vals, err)
	}
	s.flash(c, fmt.Sprintf("Petição %d respondida: %s.", v.ID, v.DecisionPT()))
	return redirect(c, "/peticoes")
}

// petitionsFail shows the petitions page again with the errors of err
// next to the fields of prefix, or the error page.
func (s *UI) petitionsFail(c echo.Context, prefix string, vals url.Values, err error) error {
	fields, msg, status, ok := formErrors(err)
	if !ok {
		return err
	}
	pf := map[string]string{}
	for k, m := range fields {
		pf[prefix+k] = m
	}
	if len(fields) == 0 {
		msg = upperFirst(msg)
	}
	return s.renderPetitions(c, status, server.Page{Form: vals, Errs: pf, Error: msg})
}
