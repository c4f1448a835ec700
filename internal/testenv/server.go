package testenv

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/web"
	"github.com/juizado/juizado/templates"
	"gorm.io/gorm"
)

// ServerOption changes the server's dependencies before web.New.
type ServerOption func(*web.Deps)

// WithClock gives the server the clock clk.
func WithClock(clk clock.Clock) ServerOption { return func(d *web.Deps) { d.Clock = clk } }

// WithLogger gives the server the logger l.
func WithLogger(l *slog.Logger) ServerOption { return func(d *web.Deps) { d.Logger = l } }

// With changes the dependencies with f (the spool directory, secure
// cookies, the enforcer's policy...).
func With(f func(*web.Deps)) ServerOption { return ServerOption(f) }

// MustServer builds the server of a test on the migrated database g: the
// Casbin policy read from g (the base policy and casbin_rule), the court's
// zone America/Sao_Paulo, the embedded templates, the system clock and no
// logs, then the options in order. It fails the test if the server cannot
// be built.
func MustServer(tb testing.TB, g *gorm.DB, opts ...ServerOption) *web.Server {
	tb.Helper()
	enf, err := authz.Open(context.Background(), g)
	if err != nil {
		tb.Fatal(err)
	}
	loc, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		tb.Fatal(err)
	}
	d := web.Deps{DB: g, Enforcer: enf, Clock: clock.System{}, Loc: loc, Templates: templates.FS,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	for _, o := range opts {
		o(&d)
	}
	srv, err := web.New(d)
	if err != nil {
		tb.Fatal(err)
	}
	return srv
}
