package ui

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/juizado/juizado/internal/server"
	"github.com/labstack/echo/v4"
)

// Public pages (no login): the form to type a document's verification
// code (GET /verificar), which goes on to /verificar/{code}.

// verifyForm: GET /verificar[?codigo=] — the form; a code of the right
// shape goes to its verification page.
func (s *UI) verifyForm(c echo.Context) error {
	typed := strings.TrimSpace(c.QueryParam("codigo"))
	p := server.Page{Title: "Verificar documento", Form: url.Values{"codigo": {typed}}}
	if typed == "" {
		return s.Page(c, http.StatusOK, "verificar_form", p)
	}
	code := strings.ToUpper(strings.NewReplacer(" ", "", "-", "", ".", "").Replace(typed))
	ok := len(code) == 12
	for _, r := range code {
		ok = ok && (r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}
	if !ok {
		p.Errs = map[string]string{"codigo": "O código tem 12 letras e números (como ABCD-EFGH-IJKL); confira o que foi digitado."}
		return s.Page(c, http.StatusUnprocessableEntity, "verificar_form", p)
	}
	return c.Redirect(http.StatusSeeOther, "/verificar/"+code[:4]+"-"+code[4:8]+"-"+code[8:])
}
