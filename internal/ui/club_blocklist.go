package ui

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

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
	Count       int
	Check       *blocklist.CheckAnswer
	Users       []accounts.User
	Tokens      []clubToken
	NewToken    string
}

// clubPage: GET /clube[?cpf=] — the blocklist, the CPF check, the tokens.
func (s *UI) clubPage(c echo.Context) error {
	ctx := c.Request().Context()
	p := server.Page{Title: "Lista de impedidos", Form: url.Values{"cpf": {c.QueryParam("cpf")}}}
	pl, err := s.App.Blocklist.Prepared(ctx)
	if err != nil {
		return err
	}
	d := clubData{Version: pl.Version, GeneratedAt: pl.GeneratedAt, Count: pl.Checks.CPFs()}
	status := http.StatusOK
	if v := strings.TrimSpace(c.QueryParam("cpf")); v != "" {
		cpf, err := registry.ParseCPFAnySpelling(v)
		if err != nil {
			status = http.StatusUnprocessableEntity
			p.Errs = map[string]string{"cpf": upperFirst(err.Error()) + "."}
		} else {
			bans, err := pl.Checks.Decoded(cpf.String())
			if err != nil {
				return err
			}
			d.Check = &blocklist.CheckAnswer{CPF: cpf.Formatted(), Blocked: len(bans) > 0, Bans: bans, Version: pl.Version}
			u := pageUser(c)
			club := ""
			if u.Club != nil {
				club = *u.Club
			}
			s.App.Blocklist.LogCheck(blocklist.CheckRecord{UserID: u.ID, Club: club, CPF: cpf.String(), CheckedAt: s.Now(), Version: pl.Version})
		}
	}
	if d.Users, err = s.clubUsers(c); err != nil {
		return err
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

// clubDownload: GET /clube/lista.csv and /clube/lista.json — the prepared
// blocklist bodies, signed, as a download.
func (s *UI) clubDownload(format string) echo.HandlerFunc {
	return func(c echo.Context) error {
		pl, err := s.App.Blocklist.Prepared(c.Request().Context())
		if err != nil {
			return err
		}
		b := pl.JSON
		if format == "csv" {
			b = pl.CSV
		}
		h := c.Response().Header()
		h.Set("Cache-Control", "private, no-store")
		h.Set("X-Blocklist-Version", strconv.FormatInt(pl.Version, 10))
		h.Set("X-Juizado-Key-Id", b.KeyID)
		h.Set("X-Juizado-Signature", b.Sig)
		h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="impedidos-v%d.%s"`, pl.Version, format))
		return c.Blob(http.StatusOK, b.ContentType, b.Body)
	}
}

// clubFail re-renders the club page with a form's errors.
func (s *UI) clubFail(c echo.Context, status int, fields map[string]string, msg string) error {
	vals := formOf(c)
	c.QueryParams().Del("cpf")
	p := server.Page{Title: "Lista de impedidos", Form: vals, Errs: fields, Error: msg}
	pl, err := s.App.Blocklist.Prepared(c.Request().Context())
	if err != nil {
		return err
	}
	d := clubData{Version: pl.Version, GeneratedAt: pl.GeneratedAt, Count: pl.Checks.CPFs()}
	if d.Users, err = s.clubUsers(c); err != nil {
		return err
	}
	p.Data = d
	return s.Page(c, status, "clube", p)
}
