package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/pgtest"
	"gorm.io/gorm"
)

// juizado user create/password/disable/enable/list and token
// create --expires/list/revoke, run in-process against a fresh database.
func TestUserAndTokenCommands(t *testing.T) {
	ctx := context.Background()
	g, run := cliEnv(t)
	must := func(stdin string, args ...string) string {
		t.Helper()
		out, err := run(stdin, args...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		return out
	}

	out := must("uma senha do cartório\n", "user", "create", "--name", "ana", "--role", "clerk", "--password-stdin")
	if !strings.Contains(out, "created user ana") || !strings.Contains(out, "court 26.0100") {
		t.Fatalf("user create: %s", out)
	}
	if _, err := accounts.CheckPassword(ctx, g, "ana", "uma senha do cartório"); err != nil {
		t.Fatalf("the password does not sign in: %v", err)
	}
	if out, err := run("outra senha qualquer\n", "user", "create", "--name", "ana", "--role", "clerk", "--password-stdin"); err == nil || !strings.Contains(err.Error(), "user password") {
		t.Errorf("creating ana twice: %v %s", err, out)
	}
	if _, err := run("curta\n", "user", "create", "--name", "bia", "--role", "judge", "--password-stdin"); !errors.Is(err, accounts.ErrWeakPassword) {
		t.Errorf("short password: %v", err)
	}
	if _, err := run("", "user", "create", "--name", "bia", "--role", "fan_group", "--password-stdin"); err == nil {
		t.Error("fan_group without --group accepted")
	}
	must("nova senha do cartório", "user", "password", "--name", "ana", "--password-stdin")
	if _, err := accounts.CheckPassword(ctx, g, "ana", "nova senha do cartório"); err != nil {
		t.Fatalf("new password: %v", err)
	}

	// Tokens with expiry, listed and revoked.
	out = must("", "token", "create", "--role", "clerk", "--name", "ana", "--expires", "90d")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	tok := lines[len(lines)-1]
	u, err := authenticate(ctx, g, tok, time.Now())
	if err != nil || u.Name != "ana" {
		t.Fatalf("token: %v %v", u, err)
	}
	if _, err := authenticate(ctx, g, tok, time.Now().Add(91*24*time.Hour)); !errors.Is(err, accounts.ErrUnauthenticated) {
		t.Errorf("token valid after 91 days: %v", err)
	}
	if _, err := run("", "token", "create", "--role", "clerk", "--name", "ana", "--expires", "0d"); err == nil {
		t.Error("--expires 0d accepted")
	}
	ts, err := accounts.ListTokens(ctx, g, u.ID)
	if err != nil || len(ts) != 1 {
		t.Fatalf("tokens: %v %v", ts, err)
	}
	out = must("", "token", "list", "--name", "ana")
	if !strings.Contains(out, "active") || !strings.Contains(out, ts[0].ExpiresAt.Format("2006-01-02")) {
		t.Errorf("token list: %s", out)
	}
	must("", "token", "revoke", "1")
	if _, err := authenticate(ctx, g, tok, time.Now()); !errors.Is(err, accounts.ErrUnauthenticated) {
		t.Errorf("revoked token: %v", err)
	}
	if out := must("", "token", "list", "--name", "ana"); !strings.Contains(out, "revoked") {
		t.Errorf("token list after revoke: %s", out)
	}
	if _, err := run("", "token", "revoke", "999"); !errors.Is(err, accounts.ErrNoToken) {
		t.Errorf("revoking an unknown token: %v", err)
	}
	if _, err := run("", "token", "revoke", "--all"); err == nil {
		t.Error("--all without --name accepted")
	}
	a := lastLine(must("", "token", "create", "--role", "clerk", "--name", "ana"))
	b := lastLine(must("", "token", "create", "--role", "clerk", "--name", "ana"))
	if out := must("", "token", "revoke", "--all", "--name", "ana"); !strings.Contains(out, "revoked 2 token(s)") {
		t.Errorf("revoke --all: %s", out)
	}
	for _, tk := range []string{a, b} {
		if _, err := authenticate(ctx, g, tk, time.Now()); !errors.Is(err, accounts.ErrUnauthenticated) {
			t.Errorf("token after revoke --all: %v", err)
		}
	}

	// Disable and enable.
	c := lastLine(must("", "token", "create", "--role", "clerk", "--name", "ana"))
	must("", "user", "disable", "--name", "ana")
	if _, err := accounts.CheckPassword(ctx, g, "ana", "nova senha do cartório"); !errors.Is(err, accounts.ErrBadCredentials) {
		t.Errorf("disabled user signs in: %v", err)
	}
	if _, err := authenticate(ctx, g, c, time.Now()); !errors.Is(err, accounts.ErrUnauthenticated) {
		t.Errorf("disabled user's token: %v", err)
	}
	if out := must("", "user", "list"); !strings.Contains(out, "disabled") {
		t.Errorf("user list: %s", out)
	}
	must("", "user", "enable", "--name", "ana")
	if _, err := accounts.CheckPassword(ctx, g, "ana", "nova senha do cartório"); err != nil {
		t.Errorf("enabled user: %v", err)
	}
	if _, err := run("", "user", "disable", "--name", "ninguem"); !errors.Is(err, accounts.ErrNoUser) {
		t.Errorf("disabling an unknown user: %v", err)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// cliEnv is a fresh database as DATABASE_URL (court 26.0100 the default)
// for in-process runs of the CLI: the database handle, and run, which
// executes one command line with stdin and returns what it printed.
func cliEnv(t *testing.T) (*gorm.DB, func(stdin string, args ...string) (string, error)) {
	t.Helper()
	return cliEnvOn(t, pgtest.NewDSN(t))
}

// cliEnvOn is cliEnv on the database of dsn.
func cliEnvOn(t *testing.T, dsn string) (*gorm.DB, func(stdin string, args ...string) (string, error)) {
	t.Helper()
	t.Setenv("DATABASE_URL", dsn)
	t.Setenv("JUIZADO_COURT", "26.0100")
	g, err := db.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s, _ := g.DB(); s.Close() })
	return g, func(stdin string, args ...string) (string, error) {
		t.Helper()
		root := rootCmd()
		var out bytes.Buffer
		root.SetArgs(args)
		root.SetIn(strings.NewReader(stdin))
		root.SetOut(&out)
		root.SetErr(&out)
		err := root.Execute()
		return out.String(), err
	}
}

// authenticate is the user of token at now (accounts.AuthenticateUntil
// without the expiry).
func authenticate(ctx context.Context, g *gorm.DB, token string, now time.Time) (accounts.User, error) {
	u, _, err := accounts.AuthenticateUntil(ctx, g, token, now)
	return u, err
}
