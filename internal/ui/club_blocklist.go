package ui

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/registry/blocklist"
	"github.com/labstack/echo/v4"
)

// The club's page: the blocklist's version and last change with download
// buttons (the same prepared, signed bodies as GET /api/v1/blocklist, with
// the session instead of a token), a CPF check for the gate, and the API
// tokens of the club's own gate users.

type clubData struct {
	Version     int64
	GeneratedAt time.Time
	// Entries is the number of bans on the list (the rows of the
	// spreadsheet), CPFs the people they name.
	Entries, CPFs int
	// Venues are the venues the staff may say its gate is at; Venue the one
	// chosen (0: none, then HomeVenues, its club's home venues, decide).
	Venues     []cases.Venue
	Venue      int64
	HomeVenues []string
	// Check is the answer for the CPF asked: its bans in force, whether one
	// blocks here today; AskVenue when the answer depends on a venue the
	// staff has not given.
	Check    *gateAnswer
	AskVenue bool
	Users    []accounts.User
	Tokens   []clubToken
	NewToken string
}

// gateAnswer is the gate staff's check of one CPF (blocklist.GateCheck).
type gateAnswer struct {
	CPF     string
	Blocked bool
	Bans    []blocklist.GateBan
	Version int64
	// Place says where the answer holds ("em Arena X", "nos locais de
	// mando de Clube"; "" with no venue: anywhere).
	Place string
}

// clubPage: GET /clube[?cpf=&local=] — the blocklist, the CPF check for the
// gate's venue (issue 30, item 3: where and on which days each ban
// applies, the name and photo to compare, the case), the tokens.
func (s *UI) clubPage(c echo.Context) error {
	ctx := c.Request().Context()
	p := server.Page{Title: "Lista de impedidos", Form: url.Values{"cpf": {c.QueryParam("cpf")}, "local": {c.QueryParam("local")}}}
	d, err := s.clubBase(c)
	if err != nil {
		return err
	}
	status := http.StatusOK
	errsOf := map[string]string{}
	venues, place, err := s.gateVenues(c, &d, errsOf)
	if err != nil {
		return err
	}
	if v := strings.TrimSpace(c.QueryParam("cpf")); v != "" && len(errsOf) == 0 {
		cpf, err := registry.ParseCPFAnySpelling(v)
		if err != nil {
			errsOf["cpf"] = upperFirst(err.Error()) + "."
		} else {
			bans, blocked, err := s.App.Lists.GateCheck(ctx, cpf, venues)
			if err != nil {
				return err
			}
			d.Check = &gateAnswer{CPF: cpf.Formatted(), Blocked: blocked, Bans: bans, Version: d.Version, Place: place}
			for _, b := range bans {
				d.AskVenue = d.AskVenue || (len(venues) == 0 && (b.Scope != nil || len(b.MatchDays) > 0))
			}
			u := pageUser(c)
			club := ""
			if u.Club != nil {
				club = *u.Club
			}
			s.App.Blocklist.LogCheck(blocklist.CheckRecord{UserID: u.ID, Club: club, CPF: cpf.String(), CheckedAt: s.Now(), Version: d.Version})
		}
	}
	if len(errsOf) > 0 {
		status, p.Errs = http.StatusUnprocessableEntity, errsOf
	}
	for _, cu := range d.Users {
		ts, err := s.App.Accounts.ListTokens(ctx, cu.ID)
		if err != nil {
			return err
		}
		for _, t := range ts {
			d.Tokens = append(d.Tokens, clubToken{Token: t, UserName: cu.Name, State: map[string]string{"active": "ativo", "expired": "expirado", "revoked": "revogado"}[t.State(s.Now())]})
		}
	}
	d.NewToken = s.Sessions.PopString(ctx, sessNewToken)
	c.Response().Header().Set("Cache-Control", "no-store")
	p.Data = d
	return s.Page(c, status, "clube", p)
}

// clubBase is the club page's data every answer shows: the version, its
// counts, the venues to choose from and the club's users.
func (s *UI) clubBase(c echo.Context) (clubData, error) {
	ctx := c.Request().Context()
	pl, err := s.App.Blocklist.Prepared(ctx)
	if err != nil {
		return clubData{}, err
	}
	d := clubData{Version: pl.Version, GeneratedAt: pl.GeneratedAt, Entries: pl.Entries(), CPFs: pl.Checks.CPFs()}
	if d.Venues, err = s.App.Cases.Case.Venues(ctx); err != nil {
		return d, err
	}
	d.Users, err = s.clubUsers(c)
	return d, err
}

// gateVenues resolves where the gate stands: the venue chosen (?local=, one
// of d.Venues, else an error on local), else the home venues of the
// staff's club in the imported schedules; it returns their ids and the
// place in words.
func (s *UI) gateVenues(c echo.Context, d *clubData, errsOf map[string]string) ([]int64, string, error) {
	if v := strings.TrimSpace(c.QueryParam("local")); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		for _, x := range d.Venues {
			if err == nil && x.ID == id {
				d.Venue = id
				return []int64{id}, "em " + x.Name, nil
			}
		}
		errsOf["local"] = "Escolha o local do portão na lista."
		return nil, "", nil
	}
	u := pageUser(c)
	if u.Club == nil || *u.Club == "" {
		return nil, "", nil
	}
	ids, err := s.App.Lists.ClubVenues(c.Request().Context(), *u.Club)
	if err != nil {
		return nil, "", err
	}
	for _, x := range d.Venues {
		if slices.Contains(ids, x.ID) {
			d.HomeVenues = append(d.HomeVenues, x.Name)
		}
	}
	switch len(d.HomeVenues) {
	case 0:
		return nil, "", nil
	case 1:
		return ids, "em " + d.HomeVenues[0], nil
	}
	return ids, "nos locais de mando de " + *u.Club, nil
}

// clubDownload: GET /clube/lista.csv and /clube/lista.json — the
// blocklist as a download: the JSON is the prepared body, signed, for
// systems; the CSV is the spreadsheet for people
// (blocklist.Prepared.PeopleCSV: Excel's Brazilian form, one row per ban).
func (s *UI) clubDownload(format string) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx := c.Request().Context()
		pl, err := s.App.Blocklist.Prepared(ctx)
		if err != nil {
			return err
		}
		h := c.Response().Header()
		h.Set("Cache-Control", "private, no-store")
		h.Set("X-Blocklist-Version", strconv.FormatInt(pl.Version, 10))
		h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="impedidos-v%d.%s"`, pl.Version, format))
		if format == "csv" {
			names := map[string]string{}
			b, err := pl.PeopleCSV(func(code string) string {
				if n, ok := names[code]; ok {
					return n
				}
				n, _ := s.App.Cases.Case.CourtName(ctx, code)
				names[code] = n
				return n
			})
			if err != nil {
				return err
			}
			return c.Blob(http.StatusOK, "text/csv; charset=utf-8", b)
		}
		b := pl.JSON
		h.Set("X-Juizado-Key-Id", b.KeyID)
		h.Set("X-Juizado-Signature", b.Sig)
		return c.Blob(http.StatusOK, b.ContentType, b.Body)
	}
}

// clubPhoto: GET /clube/foto/:id — the register photo of the member a ban
// in force names, for the gate staff to compare (app.App.GatePhoto; 404
// otherwise).
func (s *UI) clubPhoto(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return echo.ErrNotFound
	}
	ctype, data, err := s.App.GatePhoto(c.Request().Context(), server.Actor(c), id)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "private, no-store")
	return c.Blob(http.StatusOK, ctype, data)
}

// clubFail re-renders the club page with a form's errors.
func (s *UI) clubFail(c echo.Context, status int, fields map[string]string, msg string) error {
	vals := formOf(c)
	c.QueryParams().Del("cpf")
	p := server.Page{Title: "Lista de impedidos", Form: vals, Errs: fields, Error: msg}
	d, err := s.clubBase(c)
	if err != nil {
		return err
	}
	p.Data = d
	return s.Page(c, status, "clube", p)
}
