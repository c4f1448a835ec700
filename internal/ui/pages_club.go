package ui

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/api"
	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/registry"
	"github.com/labstack/echo/v4"
)

// The club's page: the blocklist's version and last change with download
// buttons (the same prepared, signed bodies as GET /api/v1/blocklist, with
// the session instead of a token), a CPF check for the gate, and the API
// tokens of the club's own gate users.

const sessNewToken = "new_token"

type clubToken struct {
	authz.Token
	UserName string
	State    string
}

type clubData struct {
	Version     int64
	GeneratedAt time.Time
	Count       int
	Check       *api.CheckAnswer
	Users       []authz.User
	Tokens      []clubToken
	NewToken    string
}

// clubUsers are the enabled users of the signed-in user's club.
func (s *UI) clubUsers(c echo.Context) ([]authz.User, error) {
	u := pageUser(c)
	var us []authz.User
	if u.Club == nil {
		return nil, nil
	}
	err := db.Conn(c.Request().Context(), s.Deps.DB).Where("role = 'club' AND club = ? AND disabled_at IS NULL", *u.Club).Order("name").Find(&us).Error
	return us, err
}

// clubPage: GET /clube[?cpf=] — the blocklist, the CPF check, the tokens.
func (s *UI) clubPage(c echo.Context) error {
	ctx := c.Request().Context()
	p := server.Page{Title: "Lista de impedidos", Form: url.Values{"cpf": {c.QueryParam("cpf")}}}
	pl, err := s.PreparedBlocklist(ctx)
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
			d.Check = &api.CheckAnswer{CPF: cpf.Formatted(), Blocked: len(bans) > 0, Bans: bans, Version: pl.Version}
			u := pageUser(c)
			club := ""
			if u.Club != nil {
				club = *u.Club
			}
			s.LogCheck(registry.CheckRecord{UserID: u.ID, Club: club, CPF: cpf.String(), CheckedAt: s.Now(), Version: pl.Version})
		}
	}
	if d.Users, err = s.clubUsers(c); err != nil {
		return err
	}
	for _, cu := range d.Users {
		ts, err := authz.ListTokens(ctx, s.Deps.DB, cu.ID)
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
		pl, err := s.PreparedBlocklist(c.Request().Context())
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

// clubNewToken: POST /clube/tokens (usuario, validade): a token for one of
// the club's own users, shown once.
func (s *UI) clubNewToken(c echo.Context) error {
	us, err := s.clubUsers(c)
	if err != nil {
		return err
	}
	var f errs.Fields
	id := formID(c.FormValue("usuario"))
	var target *authz.User
	for i := range us {
		if us[i].ID == id {
			target = &us[i]
		}
	}
	if target == nil {
		f.Add("usuario", "oneof", "Escolha um usuário do clube.")
	}
	var exp time.Time
	if v := strings.TrimSpace(c.FormValue("validade")); v != "" {
		d, err := authz.ParseExpiry(v)
		if err != nil {
			f.Add("validade", "expiry", "Validade inválida: use dias, como 90d (no máximo dez anos).")
		} else {
			exp = s.Now().Add(d)
		}
	}
	if err := f.Err(); err != nil {
		fields, msg, status, _ := formErrors(err)
		return s.clubFail(c, status, fields, msg)
	}
	var tok string
	if err := s.InTx(c, func(ctx context.Context) error {
		var err error
		tok, err = authz.NewToken(ctx, s.Deps.DB, target.ID, exp)
		return err
	}); err != nil {
		return err
	}
	s.Sessions.Put(c.Request().Context(), sessNewToken, tok)
	s.flash(c, "Token criado para "+target.Name+". Copie-o agora: ele não será mostrado de novo.")
	return redirect(c, "/clube#tokens")
}

// clubFail re-renders the club page with a form's errors.
func (s *UI) clubFail(c echo.Context, status int, fields map[string]string, msg string) error {
	vals := formOf(c)
	c.QueryParams().Del("cpf")
	p := server.Page{Title: "Lista de impedidos", Form: vals, Errs: fields, Error: msg}
	pl, err := s.PreparedBlocklist(c.Request().Context())
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

// clubRevokeToken: POST /clube/tokens/:id/revogar — a token of the club's own users.
func (s *UI) clubRevokeToken(c echo.Context) error {
	id, err := api.IDParam(c, "Token")
	if err != nil {
		return s.pageFail(c, err)
	}
	us, err := s.clubUsers(c)
	if err != nil {
		return err
	}
	var owner int64
	if err := db.Conn(c.Request().Context(), s.Deps.DB).Raw("SELECT user_id FROM api_tokens WHERE id = ?", id).Scan(&owner).Error; err != nil {
		return err
	}
	mine := false
	for _, u := range us {
		mine = mine || u.ID == owner
	}
	if !mine {
		return s.PageError(c, http.StatusNotFound, "Token não encontrado entre os do clube.")
	}
	if err := s.InTx(c, func(ctx context.Context) error {
		_, err := authz.RevokeToken(ctx, s.Deps.DB, id, s.Now())
		return err
	}); err != nil {
		if errors.Is(err, authz.ErrNoToken) {
			return s.PageError(c, http.StatusNotFound, "Token não encontrado.")
		}
		return err
	}
	s.ForgetUser(owner) // revoked here: refused at once, not after tokenTTL
	s.flash(c, fmt.Sprintf("Token nº %d revogado: o portão que o usa deixa de ser atendido.", id))
	return redirect(c, "/clube#tokens")
}
