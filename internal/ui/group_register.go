package ui

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"unicode"

	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/textcheck"
	"github.com/juizado/juizado/internal/ui/form"
	"github.com/juizado/juizado/registry"
	"github.com/labstack/echo/v4"
)

// The fan group manager's pages: the member register of their own group
// (list, search, add, edit, leave, rejoin, photo), the spreadsheet import
// with a preview of every line and its errors before applying, and the
// export. They call registry.Groups as the JSON API does.

// memberFields are the register's fields, in the form's order, with labels.
var memberFields = []struct{ Name, Label, Hint string }{
	{"full_name", "Nome completo", ""}, {"cpf", "CPF", "000.000.000-00"}, {"birth_date", "Data de nascimento", "dd/mm/aaaa"},
	{"mother_name", "Nome da mãe", ""}, {"father_name", "Nome do pai", "em branco se desconhecido"}, {"rg", "RG", ""},
	{"rg_issuer", "Órgão expedidor do RG", "ex.: SSP/SP"}, {"civil_status", "Estado civil", ""}, {"profession", "Profissão", ""},
	{"address", "Endereço", ""}, {"schooling", "Escolaridade", ""},
}

type groupPagesH struct {
	s   *UI
	svc *registry.Groups
}

// groupID is the manager's group.
func groupID(c echo.Context) int64 {
	u := pageUser(c)
	if u.GroupID == nil {
		return 0
	}
	return *u.GroupID
}

type registerData struct {
	Group   *registry.GroupView
	Members []registry.MemberView
	Total   int
	Fields  []struct{ Name, Label, Hint string }
}

// register: GET /torcida[?q=] — the register, searched by name or CPF.
func (h *groupPagesH) register(c echo.Context) error {
	return h.renderRegister(c, http.StatusOK, server.Page{Form: url.Values{"q": {c.QueryParam("q")}}})
}

func (h *groupPagesH) renderRegister(c echo.Context, status int, p server.Page) error {
	ctx := c.Request().Context()
	g, err := h.svc.GetGroup(ctx, server.Actor(c), groupID(c))
	if err != nil {
		return h.s.pageFail(c, err)
	}
	ms, err := h.svc.ListMembers(ctx, server.Actor(c), g.ID)
	if err != nil {
		return h.s.pageFail(c, err)
	}
	d := registerData{Group: g, Total: len(ms), Fields: memberFields}
	q := textcheck.FoldAccents(strings.TrimSpace(p.Form.Get("q")))
	digits := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, q)
	qWords := nameWords(q)
	for _, m := range ms {
		if q == "" || wordsBegin(nameWords(textcheck.FoldAccents(m.FullName)), qWords) || (digits != "" && strings.Contains(m.CPF, digits)) {
			d.Members = append(d.Members, m)
		}
	}
	p.Title = "Cadastro de associados · " + g.Name
	p.Data = d
	return h.s.Page(c, status, "torcida", p)
}

func formOf(c echo.Context) url.Values {
	vals, _ := c.FormParams()
	out := url.Values{}
	for k, v := range vals {
		if k != server.CSRFField {
			out[k] = v
		}
	}
	return out
}

// add: POST /torcida/associados.
func (h *groupPagesH) add(c echo.Context) error {
	var f errs.Fields
	in := form.Member(c.FormValue, &f)
	err := f.Err()
	var m *registry.MemberView
	if err == nil {
		m, err = h.svc.AddMember(c.Request().Context(), server.Actor(c), groupID(c), in)
	}
	if err != nil {
		fields, msg, status, ok := formErrors(err)
		if !ok {
			return err
		}
		return h.renderRegister(c, status, server.Page{Form: formOf(c), Errs: fields, Error: msg})
	}
	h.s.flash(c, "Associado(a) "+m.FullName+" incluído(a) no cadastro.")
	return redirect(c, fmt.Sprintf("/associados/%d", m.ID))
}

type memberData struct {
	Member *registry.MemberView
	Fields []struct{ Name, Label, Hint string }
}

// member: GET /associados/:id — the member's page: edit, photo, leave.
func (h *groupPagesH) member(c echo.Context) error {
	return h.renderMember(c, http.StatusOK, server.Page{})
}

func (h *groupPagesH) renderMember(c echo.Context, status int, p server.Page) error {
	id, err := server.IDParam(c, "Associado")
	if err != nil {
		return h.s.pageFail(c, err)
	}
	m, err := h.svc.GetMember(c.Request().Context(), server.Actor(c), id)
	if err != nil {
		return h.s.pageFail(c, err)
	}
	if p.Form == nil { // the stored values
		p.Form = url.Values{"full_name": {m.FullName}, "cpf": {m.CPF}, "birth_date": {m.BirthDate.BR()}, "mother_name": {m.MotherName},
			"rg": {m.RG}, "rg_issuer": {m.RGIssuer}, "civil_status": {m.CivilStatus}, "profession": {m.Profession}, "address": {m.Address}, "schooling": {m.Schooling}}
		if m.FatherName != nil {
			p.Form.Set("father_name", *m.FatherName)
		}
		if c, err := registry.ParseCPF(m.CPF); err == nil {
			p.Form.Set("cpf", c.Formatted())
		}
	}
	p.Title = m.FullName
	p.Data = memberData{Member: m, Fields: memberFields}
	return h.s.Page(c, status, "associado", p)
}

// memberFail re-renders the member's page with a form's errors.
func (h *groupPagesH) memberFail(c echo.Context, err error, keepForm bool) error {
	fields, msg, status, ok := formErrors(err)
	if !ok {
		return err
	}
	if status == http.StatusNotFound || status == http.StatusForbidden {
		return h.s.PageError(c, status, msg)
	}
	p := server.Page{Errs: fields, Error: msg}
	if keepForm {
		p.Form = formOf(c)
	}
	return h.renderMember(c, status, p)
}

// edit: POST /associados/:id.
func (h *groupPagesH) edit(c echo.Context) error {
	id, err := server.IDParam(c, "Associado")
	if err != nil {
		return h.s.pageFail(c, err)
	}
	var f errs.Fields
	in := form.Member(c.FormValue, &f)
	in.JoinedOn = nil
	if err := f.Err(); err != nil {
		return h.memberFail(c, err, true)
	}
	if _, err := h.svc.UpdateMember(c.Request().Context(), server.Actor(c), id, in); err != nil {
		return h.memberFail(c, err, true)
	}
	h.s.flash(c, "Cadastro atualizado.")
	return redirect(c, fmt.Sprintf("/associados/%d", id))
}

// leave: POST /associados/:id/saida (left_on, default today).
func (h *groupPagesH) leave(c echo.Context) error {
	id, err := server.IDParam(c, "Associado")
	if err != nil {
		return h.s.pageFail(c, err)
	}
	var f errs.Fields
	in := registry.DateInput{LeftOn: form.ISODate(&f, "left_on", c.FormValue("left_on"))}
	if err := f.Err(); err != nil {
		return h.memberFail(c, err, false)
	}
	m, err := h.svc.Leave(c.Request().Context(), server.Actor(c), id, in)
	if err != nil {
		return h.memberFail(c, err, false)
	}
	h.s.flash(c, fmt.Sprintf("Saída de %s registrada em %s.", m.FullName, server.DateBR(m.LeftOn)))
	return redirect(c, fmt.Sprintf("/associados/%d", id))
}

// rejoin: POST /associados/:id/retorno (joined_on, default today).
func (h *groupPagesH) rejoin(c echo.Context) error {
	id, err := server.IDParam(c, "Associado")
	if err != nil {
		return h.s.pageFail(c, err)
	}
	var f errs.Fields
	in := registry.DateInput{JoinedOn: form.ISODate(&f, "joined_on", c.FormValue("joined_on"))}
	if err := f.Err(); err != nil {
		return h.memberFail(c, err, false)
	}
	m, err := h.svc.Rejoin(c.Request().Context(), server.Actor(c), id, in)
	if err != nil {
		return h.memberFail(c, err, false)
	}
	h.s.flash(c, fmt.Sprintf("Retorno de %s registrado em %s.", m.FullName, m.JoinedOn.BR()))
	return redirect(c, fmt.Sprintf("/associados/%d", id))
}

// photo: POST /associados/:id/foto (multipart field foto: JPEG or PNG, 5 MB).
func (h *groupPagesH) photo(c echo.Context) error {
	id, err := server.IDParam(c, "Associado")
	if err != nil {
		return h.s.pageFail(c, err)
	}
	if _, err := h.svc.GetMember(c.Request().Context(), server.Actor(c), id); err != nil {
		return h.s.pageFail(c, err)
	}
	data, name, err := formFile(c, "foto", registry.MaxPhotoBytes)
	if err != nil {
		return h.memberFail(c, err, false)
	}
	if _, err := h.svc.SetPhoto(c.Request().Context(), server.Actor(c), id, data); err != nil {
		return h.memberFail(c, remap(tooLargeField(err, "foto"), map[string]string{"photo": "foto", "body": "foto"}), false)
	}
	h.s.flash(c, "Foto "+name+" guardada.")
	return redirect(c, fmt.Sprintf("/associados/%d", id))
}

// tooLargeField turns the registry's *TooLargeError into a field error.
func tooLargeField(err error, field string) error {
	if tl, ok := err.(*registry.TooLargeError); ok {
		return errs.InvalidField(field, "size", tl.Message)
	}
	return err
}

// formFile reads the uploaded file of field (at most limit bytes).
func formFile(c echo.Context, field string, limit int64) ([]byte, string, error) {
	fh, err := c.FormFile(field)
	if err != nil {
		return nil, "", errs.InvalidField(field, "required", "Escolha o arquivo.")
	}
	if fh.Size > limit {
		return nil, "", errs.InvalidField(field, "size", fmt.Sprintf("O arquivo passa de %d MB.", limit>>20))
	}
	fd, err := fh.Open()
	if err != nil {
		return nil, "", err
	}
	defer fd.Close()
	b, err := io.ReadAll(io.LimitReader(fd, limit+1))
	if err != nil {
		return nil, "", err
	}
	if int64(len(b)) > limit {
		return nil, "", errs.InvalidField(field, "size", fmt.Sprintf("O arquivo passa de %d MB.", limit>>20))
	}
	return b, fh.Filename, nil
}

// nameWords splits a folded name into its words (letters and digits).
func nameWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// wordsBegin reports whether every word of q begins a word of name, in any
// order, as the case search matches names (casefile.ListQuery): "joao silva"
// finds "João Pedro da Silva Araújo". No words in q: false.
func wordsBegin(name, q []string) bool {
	if len(q) == 0 {
		return false
	}
	for _, w := range q {
		found := false
		for _, n := range name {
			if strings.HasPrefix(n, w) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
