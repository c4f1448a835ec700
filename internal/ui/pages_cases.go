package ui

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/api"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/ui/form"
	"github.com/juizado/juizado/sanctions"
	"github.com/labstack/echo/v4"
)

// Case pages for the staff of a court: the list of cases, the filing of a
// representation (prosecutor, police), the case page with its docket,
// parties, facts, documents and the forms of each role (evidence, plea
// agreement, breach, movement, hearing, transition), the judge's sentence
// form, the distribution and the hearings calendar. They call the same
// cases.Service as the JSON API.

// pageDownload serves a file with an API handler; its errors become pages.
func (s *UI) pageDownload(h echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if err := h(c); err != nil {
			return s.pageFail(c, err)
		}
		return nil
	}
}

// casesList is the data of the list of cases.
type casesList struct {
	Items    []cases.View
	Total    int64
	Statuses []string
	Mine     bool
}

// casesPage: GET /processos[?q=&status=&todos=1] — the court's cases; a
// judge sees the cases distributed to them unless todos=1.
func (s *UI) casesPage(c echo.Context) error {
	u := pageUser(c)
	q := cases.ListQuery{Q: c.QueryParam("q"), Status: c.QueryParam("status"), Number: c.QueryParam("number"), PerPage: 100}
	mine := u.Role == "judge" && c.QueryParam("todos") == ""
	if mine {
		q.JudgeID = u.ID
	}
	vals := url.Values{"q": {q.Q}, "status": {q.Status}, "number": {q.Number}}
	p := server.Page{Title: "Processos", Form: vals}
	if mine {
		p.Title = "Meus processos"
	}
	items, total, err := s.Cases.List(c.Request().Context(), server.Actor(c), q)
	if err != nil {
		fields, msg, status, ok := formErrors(err)
		if !ok {
			return err
		}
		p.Errs, p.Error = fields, msg
		p.Data = casesList{Statuses: cases.Statuses, Mine: mine}
		return s.Page(c, status, "processos", p)
	}
	p.Data = casesList{Items: items, Total: total, Statuses: cases.Statuses, Mine: mine}
	return s.Page(c, http.StatusOK, "processos", p)
}

// fileData is the data of the filing form: Defendants fieldsets shown, at
// most MaxDefendants (the API's limit, cases.MaxDefendants).
type fileData struct {
	Venues        []cases.Venue
	Defendants    int
	MaxDefendants int
	FilerKinds    []string
}

func (s *UI) venues(c echo.Context) ([]cases.Venue, error) {
	var vs []cases.Venue
	err := db.Conn(c.Request().Context(), s.Deps.DB).Order("name").Find(&vs).Error
	return vs, err
}

// fileForm: GET /processos/novo.
func (s *UI) fileForm(c echo.Context) error {
	u := pageUser(c)
	vals := url.Values{"filed_by.kind": {u.Role}, "n": {"1"}}
	return s.renderFileForm(c, http.StatusOK, server.Page{Form: vals}, 1)
}

func (s *UI) renderFileForm(c echo.Context, status int, p server.Page, n int) error {
	vs, err := s.venues(c)
	if err != nil {
		return err
	}
	p.Title = "Nova representação"
	p.Data = fileData{Venues: vs, Defendants: n, MaxDefendants: maxFormDefendants, FilerKinds: cases.FilerKinds}
	return s.Page(c, status, "processo_novo", p)
}

// maxFormDefendants is the filing form's limit of defendants: the API's.
const maxFormDefendants = cases.MaxDefendants

// filePage: POST /processos (multipart or urlencoded): files the
// representation, then stores the attachments, and goes to the case. The
// button "acao=mais" adds a defendant's fields instead; "acao=menos"
// removes the last.
func (s *UI) filePage(c echo.Context) error {
	vals, err := c.FormParams()
	if err != nil {
		return s.PageError(c, http.StatusBadRequest, "Formulário ilegível.")
	}
	delete(vals, server.CSRFField)
	n, _ := strconv.Atoi(vals.Get("n"))
	n = max(1, min(n, maxFormDefendants))
	switch vals.Get("acao") {
	case "mais":
		n = min(n+1, maxFormDefendants)
		vals.Set("n", strconv.Itoa(n))
		return s.renderFileForm(c, http.StatusOK, server.Page{Form: vals}, n)
	case "menos":
		n = max(1, n-1)
		vals.Set("n", strconv.Itoa(n))
		return s.renderFileForm(c, http.StatusOK, server.Page{Form: vals}, n)
	}
	var f errs.Fields
	in := cases.Representation{Ref: vals.Get("ref"), FiledBy: cases.FiledByInput{Kind: vals.Get("filed_by.kind"), Name: vals.Get("filed_by.name")}}
	for i := 0; i < n; i++ {
		get := func(k string) string { return strings.TrimSpace(vals.Get(fmt.Sprintf("defendants[%d].%s", i, k))) }
		d := cases.DefendantInput{Kind: get("kind")}
		if d.Kind == "" {
			d.Kind = "person"
		}
		if d.Kind == "person" {
			d.FullName, d.MotherName, d.FatherName, d.Address = get("full_name"), get("mother_name"), get("father_name"), get("address")
			if v := get("cpf"); v != "" {
				d.CPF = &v
			}
			d.BirthDate = form.IsoDate(&f, fmt.Sprintf("defendants[%d].birth_date", i), get("birth_date"))
			if d.BirthDate == "" && get("birth_date") != "" {
				d.BirthDate = "-" // already reported
			}
		} else {
			d.Name, d.SupportedClub = get("name"), get("supported_club")
			if v := get("cnpj"); v != "" {
				d.CNPJ = &v
			}
		}
		in.Defendants = append(in.Defendants, d)
	}
	if vals.Get("event.venue") != "" || vals.Get("event.competition") != "" || vals.Get("event.home") != "" {
		in.Event = &cases.EventInput{Competition: vals.Get("event.competition"), Home: vals.Get("event.home"), Away: vals.Get("event.away"), Venue: vals.Get("event.venue")}
		in.Event.Kickoff = form.Instant(&f, "event.kickoff", vals.Get("event.kickoff"), vals.Get("event.kickoff_hora"), s.Deps.Loc, false)
	}
	in.Facts.OccurredAt = form.Instant(&f, "facts.occurred_at", vals.Get("facts.occurred_at"), vals.Get("facts.occurred_at_hora"), s.Deps.Loc, true)
	for _, k := range []string{"latitude", "longitude"} {
		if v := strings.TrimSpace(vals.Get("facts." + k)); v != "" {
			x, err := strconv.ParseFloat(strings.Replace(v, ",", ".", 1), 64)
			if err != nil {
				f.Add("facts."+k, "number", "Use um número decimal, por exemplo -23,5453.")
				continue
			}
			if k == "latitude" {
				in.Facts.Latitude = &x
			} else {
				in.Facts.Longitude = &x
			}
		}
	}
	in.Facts.Conduct = vals["facts.conduct"]
	for _, line := range strings.Split(vals.Get("facts.police_reports"), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			in.Facts.PoliceReports = append(in.Facts.PoliceReports, line)
		}
	}
	in.Facts.Description = vals.Get("facts.description")
	if vals.Get("facts.on_route") != "" {
		t := true
		in.Facts.OnRoute = &t
	}
	// Attachments are checked before filing, so that a refused file files nothing.
	type upload struct {
		name string
		data []byte
	}
	var uploads []upload
	if mf, err := c.MultipartForm(); err == nil && mf != nil {
		for _, fh := range mf.File["anexos"] {
			if fh.Size == 0 && fh.Filename == "" {
				continue
			}
			if fh.Size > cases.MaxEvidenceBytes {
				f.Add("anexos", "size", fmt.Sprintf("O arquivo %s passa de 10 MB.", fh.Filename))
				continue
			}
			fd, err := fh.Open()
			if err != nil {
				return err
			}
			b, err := io.ReadAll(fd)
			fd.Close()
			if err != nil {
				return err
			}
			if ct := http.DetectContentType(b); ct != "application/pdf" && ct != "image/jpeg" && ct != "image/png" {
				f.Add("anexos", "type", fmt.Sprintf("O arquivo %s não é PDF, JPEG nem PNG.", fh.Filename))
				continue
			}
			uploads = append(uploads, upload{fh.Filename, b})
		}
	}
	fail := func(err error) error {
		fields, msg, status, ok := formErrors(err)
		if !ok {
			return err
		}
		if len(uploads) > 0 {
			msg += " Os anexos precisam ser escolhidos de novo."
		}
		return s.renderFileForm(c, status, server.Page{Form: vals, Errs: fields, Error: msg}, n)
	}
	if err := f.Err(); err != nil {
		// Report the service's own checks too, in one pass.
		return fail(mergeInvalid(err, s.checkRepresentation(c, in)))
	}
	k, err := s.Cases.File(c.Request().Context(), server.Actor(c), in)
	if err != nil {
		return fail(err)
	}
	var notes []string
	for _, up := range uploads {
		if _, err := s.Cases.AddEvidence(c.Request().Context(), server.Actor(c), k.ID, up.name, "Anexo da representação", up.data); err != nil {
			notes = append(notes, fmt.Sprintf("o anexo %s foi recusado (%v)", up.name, err))
		}
	}
	msg := "Representação autuada: processo " + cases.FormatNumber(k.Number) + "."
	if k.DistanceToVenueM != nil {
		msg += fmt.Sprintf(" Distância dos fatos ao local do evento: %s m (%s).", thousands(*k.DistanceToVenueM), server.PlaceLabel(k.PlaceRelation))
	}
	if len(uploads) > 0 {
		msg += fmt.Sprintf(" %d anexo(s) juntado(s).", len(uploads)-len(notes))
	}
	if len(notes) > 0 {
		msg += " Atenção: " + strings.Join(notes, "; ") + "."
	}
	s.flash(c, msg)
	return redirect(c, fmt.Sprintf("/processos/%d", k.ID))
}

// checkRepresentation runs the service's validation alone (no filing) for
// the error list of a form that already failed our own parsing; nil when
// the service has nothing to add.
func (s *UI) checkRepresentation(c echo.Context, in cases.Representation) error {
	// The service validates before touching the database beyond lookups;
	// an actor without court makes it stop at the court lookup.
	_, err := s.Cases.File(c.Request().Context(), cases.Actor{Court: "00.0000"}, in)
	if errs.KindOf(err) == errs.Invalid {
		return err
	}
	return nil
}

// mergeInvalid joins the field errors of two Invalid errors (first wins
// for a field named by both).
func mergeInvalid(a, b error) error {
	ea, _ := a.(*errs.Error)
	eb, _ := b.(*errs.Error)
	if eb == nil {
		return a
	}
	if ea == nil {
		return b
	}
	seen := map[string]bool{}
	out := &errs.Error{Kind: errs.Invalid, Message: ea.Message}
	for _, f := range ea.Fields {
		seen[f.Field] = true
		// A wrong time (field X_hora) left X empty for the service: its
		// "required" on X would point at the date the user typed right.
		seen[strings.TrimSuffix(f.Field, "_hora")] = true
		out.Fields = append(out.Fields, f)
	}
	for _, f := range eb.Fields {
		if !seen[f.Field] && !(f.Field == "defendants" || strings.HasSuffix(f.Field, ".birth_date") && seen[f.Field]) {
			out.Fields = append(out.Fields, f)
		}
	}
	return out
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte('.')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// caseData is the data of the case page.
type caseData struct {
	Case     *cases.View
	Evidence []cases.EvidenceView
	Next     []cases.Transition
	Persons  []cases.DefendantView
	Distance string
	Kinds    []string
	// Actions: the decision forms the user is offered (pages_workflow.go).
	Actions caseActions
	// Names are the defendants' names by id (person or group).
	Names map[int64]string
	// InForce are the case's bans in force today: the ones a breach can be
	// recorded against (a ban awaiting the final judgment is not in force).
	InForce []cases.BanView
}

// Name is the name of defendant id (an int64 or *int64; "" for none).
func (d caseData) Name(id any) string {
	switch x := id.(type) {
	case int64:
		return d.Names[x]
	case *int64:
		if x != nil {
			return d.Names[*x]
		}
	}
	return ""
}

func caseID(c echo.Context) (int64, error) { return api.PathID(c, "id") }

// casePage: GET /processos/:id.
func (s *UI) casePage(c echo.Context) error {
	return s.renderCase(c, http.StatusOK, server.Page{})
}

func (s *UI) renderCase(c echo.Context, status int, p server.Page) error {
	id, err := caseID(c)
	if err != nil {
		return s.pageFail(c, err)
	}
	v, err := s.Cases.Get(c.Request().Context(), server.Actor(c), id)
	if err != nil {
		return s.pageFail(c, err)
	}
	ev, err := s.Cases.ListEvidence(c.Request().Context(), server.Actor(c), id)
	if err != nil {
		return s.pageFail(c, err)
	}
	u := pageUser(c)
	d := caseData{Case: v, Evidence: ev, Kinds: cases.HearingKinds[v.Flow], Actions: caseActionsFor(v, u.Role, u.ID, civil.Today(s.Now(), s.Deps.Loc))}
	for _, t := range v.Next {
		if t.Via == "" && slices.Contains(t.Roles, u.Role) {
			d.Next = append(d.Next, t)
		}
	}
	if len(d.Actions.Unlinked) > 0 {
		if d.Actions.Groups, err = s.Cases.RegisteredGroups(c.Request().Context(), server.Actor(c)); err != nil {
			return err
		}
	}
	for _, b := range v.Bans {
		if b.State == sanctions.StateInForce {
			d.InForce = append(d.InForce, b)
		}
	}
	d.Names = map[int64]string{}
	for _, def := range v.Defendants {
		if def.Kind == "person" {
			d.Persons = append(d.Persons, def)
			d.Names[def.ID] = def.FullName
		} else {
			d.Names[def.ID] = def.Name
		}
	}
	if v.Facts.DistanceToVenueM != nil {
		d.Distance = thousands(*v.Facts.DistanceToVenueM) + " m"
	}
	p.Title = "Processo " + v.Number
	p.Data = d
	return s.Page(c, status, "processo", p)
}

// caseFormFail re-renders the case page with a form's errors (fields
// prefixed with the form's name) or answers the error.
func (s *UI) caseFormFail(c echo.Context, prefix string, err error) error {
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
	return s.renderCase(c, status, server.Page{Errs: pf, Form: vals, Error: msg})
}

// caseExists answers 404 for a case the user cannot see (before reading a form).
func (s *UI) caseExists(c echo.Context) (int64, error) {
	id, err := caseID(c)
	if err != nil {
		return 0, err
	}
	if _, err := s.Cases.Get(c.Request().Context(), server.Actor(c), id); err != nil {
		return 0, err
	}
	return id, nil
}

// evidencePage: POST /processos/:id/provas (multipart: arquivo, descricao).
func (s *UI) evidencePage(c echo.Context) error {
	id, err := s.caseExists(c)
	if err != nil {
		return s.pageFail(c, err)
	}
	fh, err := c.FormFile("prova.file")
	if err != nil {
		return s.caseFormFail(c, "prova.", errs.InvalidField("file", "required", "escolha o arquivo (PDF, JPEG ou PNG, até 10 MB)."))
	}
	fd, err := fh.Open()
	if err != nil {
		return err
	}
	defer fd.Close()
	data, err := io.ReadAll(io.LimitReader(fd, cases.MaxEvidenceBytes+1))
	if err != nil {
		return err
	}
	if len(data) > cases.MaxEvidenceBytes {
		return s.caseFormFail(c, "prova.", errs.InvalidField("file", "size", "o arquivo passa de 10 MB."))
	}
	if _, err := s.Cases.AddEvidence(c.Request().Context(), server.Actor(c), id, fh.Filename, c.FormValue("prova.description"), data); err != nil {
		return s.caseFormFail(c, "prova.", err)
	}
	s.flash(c, "Arquivo "+fh.Filename+" juntado aos autos.")
	return redirect(c, fmt.Sprintf("/processos/%d#provas", id))
}

func formInt(f *errs.Fields, field, v string) *int {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		f.Add(field, "integer", "Use um número inteiro.")
		return nil
	}
	return &n
}

// formID reads an id chosen in a form; 0 when empty or not an int64 (a
// number too large no longer becomes 9223372036854775807).
func formID(v string) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// formRef reads an id chosen in a form: 0 when empty; a value that is not a
// positive integer of at most 19 digits is an error on field quoting what
// was typed (never a different number).
func formRef(f *errs.Fields, field, v string) int64 {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		f.Add(field, "id", fmt.Sprintf("Identificador %q inválido: escolha uma opção da lista.", v))
		return 0
	}
	return n
}

// pleaPage: POST /processos/:id/acordo (prosecutor): offers a plea agreement.
func (s *UI) pleaPage(c echo.Context) error {
	id, err := s.caseExists(c)
	if err != nil {
		return s.pageFail(c, err)
	}
	var f errs.Fields
	in := cases.PleaInput{DefendantID: formID(c.FormValue("acordo.defendant_id")), Months: formInt(&f, "months", c.FormValue("acordo.months")),
		FirstDay: form.IsoDate(&f, "first_day", c.FormValue("acordo.first_day"))}
	if err := f.Err(); err != nil {
		return s.caseFormFail(c, "acordo.", err)
	}
	r, err := s.Cases.OfferPlea(c.Request().Context(), server.Actor(c), id, in)
	if err != nil {
		return s.caseFormFail(c, "acordo.", err)
	}
	msg := fmt.Sprintf("Transação penal proposta: impedimento de %d meses.", r.Plea.Months)
	return s.doneOnCase(c, id, "", msg, r.Warnings)
}

// breachPage: POST /processos/:id/descumprimento (prosecutor, police): an
// unjustified breach of one of the case's bans in force, through
// cases.Service.RecordBreach; the notice says what it opens for that kind
// of ban (DOMAIN.md §8: the proposed conversion of a conversion ban, LGE
// art. 201, § 3º / Lei 10.671/2003, art. 41-B, § 3º; the undoing of a plea
// agreement; no conversion for a group member's or an art. 39 ban).
func (s *UI) breachPage(c echo.Context) error {
	id, err := s.caseExists(c)
	if err != nil {
		return s.pageFail(c, err)
	}
	var f errs.Fields
	banID := formID(c.FormValue("desc.ban_id"))
	if banID == 0 {
		f.Add("ban_id", "required", "Escolha o impedimento descumprido.")
	}
	in := cases.BreachInput{OccurredOn: form.IsoDate(&f, "occurred_on", c.FormValue("desc.occurred_on")), Source: c.FormValue("desc.source"),
		Reference: c.FormValue("desc.reference"), Description: c.FormValue("desc.description")}
	if in.OccurredOn == "" && c.FormValue("desc.occurred_on") == "" {
		f.Add("occurred_on", "required", "Informe a data do descumprimento (dd/mm/aaaa).")
	}
	if err := f.Err(); err != nil {
		return s.caseFormFail(c, "desc.", err)
	}
	// One transaction carrying the user: a ban of another case is refused
	// and nothing is recorded.
	r, ok, resp := pageWrite(s, c, "desc.", func(ctx context.Context) (*cases.BreachResult, error) {
		r, err := s.Cases.RecordBreach(ctx, server.Actor(c), banID, in)
		if err == nil && r.Breach.CaseID != id {
			err = errs.New(errs.NotFound, "Impedimento não encontrado neste processo.")
		}
		return r, err
	})
	if !ok {
		return resp
	}
	// What the breach opens depends on the kind of ban (DOMAIN.md §8).
	msg := "Descumprimento registrado."
	if r.Conversion != nil {
		msg += " Aberta a conversão em pena privativa de liberdade, a decidir pelo(a) juiz(a): " + r.Conversion.Note
	}
	return s.doneOnCase(c, id, "", msg, r.Warnings)
}

// movementPage: POST /processos/:id/movimentos (clerk).
func (s *UI) movementPage(c echo.Context) error {
	id, err := s.caseExists(c)
	if err != nil {
		return s.pageFail(c, err)
	}
	var f errs.Fields
	in := cases.MovementInput{Description: c.FormValue("mov.description"), TPUCode: formInt(&f, "tpu_code", c.FormValue("mov.tpu_code"))}
	if c.FormValue("mov.at") != "" {
		in.At = form.Instant(&f, "at", c.FormValue("mov.at"), c.FormValue("mov.at_hora"), s.Deps.Loc, false)
	}
	if err := f.Err(); err != nil {
		return s.caseFormFail(c, "mov.", err)
	}
	if _, err := s.Cases.AddMovement(c.Request().Context(), server.Actor(c), id, in); err != nil {
		return s.caseFormFail(c, "mov.", err)
	}
	s.flash(c, "Movimentação registrada.")
	return redirect(c, fmt.Sprintf("/processos/%d#autos", id))
}

// hearingPage: POST /processos/:id/audiencias (clerk).
func (s *UI) hearingPage(c echo.Context) error {
	id, err := s.caseExists(c)
	if err != nil {
		return s.pageFail(c, err)
	}
	var f errs.Fields
	in := cases.HearingInput{Kind: c.FormValue("aud.kind"), Room: c.FormValue("aud.room"),
		StartsAt: form.Instant(&f, "starts_at", c.FormValue("aud.date"), c.FormValue("aud.starts"), s.Deps.Loc, true)}
	if c.FormValue("aud.ends") != "" && c.FormValue("aud.date") != "" {
		in.EndsAt = form.Instant(&f, "ends_at", c.FormValue("aud.date"), c.FormValue("aud.ends"), s.Deps.Loc, false)
	}
	if err := f.Err(); err != nil {
		return s.caseFormFail(c, "aud.", remap(err, map[string]string{"starts_at": "date"}))
	}
	h, err := s.Cases.ScheduleHearing(c.Request().Context(), server.Actor(c), id, in)
	if err != nil {
		return s.caseFormFail(c, "aud.", remap(err, map[string]string{"starts_at": "date", "ends_at": "ends"}))
	}
	s.flash(c, fmt.Sprintf("Audiência marcada para %s, sala %s.", server.DateTimeBR(h.StartsAt, s.Deps.Loc), h.Room))
	return redirect(c, fmt.Sprintf("/processos/%d#audiencias", id))
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

// transitionPage: POST /processos/:id/andamento (clerk, prosecutor, judge).
func (s *UI) transitionPage(c echo.Context) error {
	id, err := s.caseExists(c)
	if err != nil {
		return s.pageFail(c, err)
	}
	in := cases.TransitionInput{To: c.FormValue("and.to"), Note: c.FormValue("and.note")}
	if d := formID(c.FormValue("and.defendant_id")); d != 0 {
		in.DefendantID = &d
	}
	v, err := s.Cases.Transition(c.Request().Context(), server.Actor(c), id, in)
	if err != nil {
		return s.caseFormFail(c, "and.", err)
	}
	s.flash(c, "Andamento registrado: "+server.OrSelf(cases.StatusPT[v.Status], v.Status)+".")
	return redirect(c, fmt.Sprintf("/processos/%d", id))
}

// distributionRow is one judge's count of cases.
type distributionRow struct {
	JudgeID int64
	Name    string
	Total   int
	Open    int
}

type distributionData struct {
	Judges  []distributionRow
	Pending []cases.View
	Recent  []cases.View
}

// distributionPage: GET /distribuicao (clerk, judge): cases per judge, the
// cases waiting for a judge, the latest distributed.
func (s *UI) distributionPage(c echo.Context) error {
	ctx := c.Request().Context()
	court := server.Actor(c).Court
	var d distributionData
	err := db.Conn(ctx, s.Deps.DB).Raw(`SELECT u.id AS judge_id, u.name, count(k.id) AS total,
		count(k.id) FILTER (WHERE k.status NOT IN ('final', 'archived')) AS open
		FROM users u LEFT JOIN cases k ON k.judge_id = u.id
		WHERE u.role = 'judge' AND u.court_code = ? AND u.disabled_at IS NULL GROUP BY u.id, u.name ORDER BY u.name`, court).Scan(&d.Judges).Error
	if err != nil {
		return err
	}
	if d.Pending, _, err = s.Cases.List(ctx, server.Actor(c), cases.ListQuery{Status: cases.StatusFiled, PerPage: 100}); err != nil {
		return err
	}
	if d.Recent, _, err = s.Cases.List(ctx, server.Actor(c), cases.ListQuery{PerPage: 20}); err != nil {
		return err
	}
	return s.Page(c, http.StatusOK, "distribuicao", server.Page{Title: "Distribuição", Data: d})
}

// distributePending: POST /distribuicao (clerk): distributes the cases
// filed while the court had no judge.
func (s *UI) distributePending(c echo.Context) error {
	n, err := s.Cases.DistributePending(c.Request().Context(), server.Actor(c).Court)
	if err != nil {
		return err
	}
	s.flash(c, fmt.Sprintf("%d processo(s) distribuído(s).", n))
	return redirect(c, "/distribuicao")
}

type hearingDay struct {
	Day   string
	Items []cases.HearingView
}

// hearingsPage: GET /audiencias[?from=&to=] — the calendar, by date.
func (s *UI) hearingsPage(c echo.Context) error {
	var f errs.Fields
	vals := url.Values{"from": {c.QueryParam("from")}, "to": {c.QueryParam("to")}}
	from := form.IsoDate(&f, "from", c.QueryParam("from"))
	to := form.IsoDate(&f, "to", c.QueryParam("to"))
	p := server.Page{Title: "Audiências", Form: vals}
	var items []cases.HearingView
	err := f.Err()
	if err == nil {
		items, err = s.Cases.Calendar(c.Request().Context(), server.Actor(c), from, to)
	}
	status := http.StatusOK
	if err != nil {
		fields, msg, st, ok := formErrors(err)
		if !ok {
			return err
		}
		p.Errs, p.Error, status = fields, msg, st
	}
	var days []hearingDay
	for _, h := range items {
		day := civil.Today(h.StartsAt, s.Deps.Loc).BR()
		if len(days) == 0 || days[len(days)-1].Day != day {
			days = append(days, hearingDay{Day: day})
		}
		days[len(days)-1].Items = append(days[len(days)-1].Items, h)
	}
	p.Data = days
	return s.Page(c, status, "audiencias", p)
}
