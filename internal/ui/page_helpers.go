package ui

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
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
		m := upperFirst(PageWords(pageDates.Replace(f.Message)))
		if prev, dup := fields[name]; dup {
			fields[name] = prev + " " + m
		} else {
			fields[name] = m
		}
	}
	msg = PageWords(pageDates.Replace(e.Message))
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

// apiFieldHint is a parenthesis of a service's message that names the API's
// fields for a client ("(defendant_id)", "(group_id, número inteiro
// positivo)", "(stay_in_district: true)"): a person filling a form does not
// read it.
var apiFieldHint = regexp.MustCompile(` ?\((?:use )?[a-z]+_[a-z_]+(?:\[\d+\])?(?:[:,][^)]*)?\)`)

// apiFieldWords are the API's field names and values that the services'
// messages name, in the words of the forms' labels (issue 30, item 4).
var apiFieldWords = strings.NewReplacer(
	`outcome "ban" com prison_months`, "a condenação com impedimento e a reclusão (meses)",
	`outcome "prison" com prison_months e fine_days`, "a condenação sem conversão, com a reclusão (meses) e os dias-multa",
	`"acquittal"`, "a absolvição",
	"circumstances_favourable", "“circunstâncias do art. 76, § 2º, III, favoráveis”",
	"circumstances_statement", "“exposição das circunstâncias”",
	"precautionary_until_final", "“impedimento cautelar até o trânsito em julgado”",
	"excluded_member_ids", "“associados excluídos”",
	"member_ids", "“associados alcançados”",
	"prison_months", "“reclusão (meses)”",
	"fine_days", "“dias-multa”",
	"override_reason", "“motivo da alteração”",
	"repair_damage", "“reparação do dano”",
	"repair_impossible", "“impossibilidade de reparar o dano”",
	"stay_in_district", "“proibição de ausentar-se da comarca”",
	"monthly_appearance", "“comparecimento mensal a juízo”",
	"stadium_ban", "“impedimento de comparecer a estádios”",
	"review_on", "“data de revisão”",
	"first_day", "“primeiro dia”",
	"defendant_id", "“réu”",
	"ban_id", "“impedimento”",
	"group_id", "“torcida cadastrada”",
	"supported_club", "“clube”",
	"full_name", "“nome completo”",
	"court_code", "“juizado”",
	"tpu_code", "“código da TPU”",
)

// PageWords rewrites a service's message for a page: the API field hints
// in parentheses dropped, the fields it names in the words of the forms.
// The API keeps the message as the service wrote it.
func PageWords(msg string) string {
	return apiFieldWords.Replace(apiFieldHint.ReplaceAllString(msg, ""))
}
