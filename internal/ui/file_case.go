package ui

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/ui/form"
	"github.com/labstack/echo/v4"
)

// fileData is the data of the filing form: Defendants fieldsets shown, at
// most MaxDefendants (the API's limit, cases.MaxDefendants).
type fileData struct {
	Venues        []cases.Venue
	Defendants    int
	MaxDefendants int
	FilerKinds    []string
}

func (s *UI) venues(c echo.Context) ([]cases.Venue, error) {
	return s.Cases.Case.Venues(c.Request().Context())
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
			d.BirthDate = form.ISODate(&f, fmt.Sprintf("defendants[%d].birth_date", i), get("birth_date"))
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
	k, err := s.Cases.Case.File(c.Request().Context(), server.Actor(c), in)
	if err != nil {
		return fail(err)
	}
	var notes []string
	for _, up := range uploads {
		if _, err := s.Cases.Case.AddEvidence(c.Request().Context(), server.Actor(c), k.ID, up.name, "Anexo da representação", up.data); err != nil {
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
	_, err := s.Cases.Case.File(c.Request().Context(), actor.Actor{Court: "00.0000"}, in)
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
