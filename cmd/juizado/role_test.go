package main

import (
	"os"
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/pgtest"
)

// The server's connections run as juizado_app although DATABASE_URL names
// the cluster's superuser, and so do the CLI's data commands: the user a
// `token create` makes is audited as the application's (not "outside"),
// while `migrate` works as the role it was given (../shared/API.md
// "Operations"; issue 32, item 4).
func TestRole_ServerAndCLIDataCommandsRunAsJuizadoApp(t *testing.T) {
	dsn := pgtest.NewDSN(t)
	m, _ := startOn(t, clock.System{}, dsn, "")
	var cur, sess string
	if err := m.DB.Raw("SELECT current_user::text, session_user::text").Row().Scan(&cur, &sess); err != nil {
		t.Fatal(err)
	}
	if cur != db.AppRole || sess != "postgres" {
		t.Fatalf("the server's connection: current_user %q, session_user %q; want %s taken by postgres", cur, sess, db.AppRole)
	}
	run := cli(t, buildBinary(t), append(os.Environ(), "DATABASE_URL="+dsn))
	if out, code := run("token", "create", "--role", "clerk", "--name", "cartorio-cli"); code != 0 {
		t.Fatalf("token create: %d %s", code, out)
	}
	var role, name string
	if err := m.DB.Raw("SELECT role, actor_name FROM audit_log WHERE table_name = 'users' AND after->>'name' = 'cartorio-cli' AND action = 'insert'").Row().Scan(&role, &name); err != nil {
		t.Fatal(err)
	}
	if role == "outside" {
		t.Fatalf("the CLI's insert audited as %q by %q, want the application's", role, name)
	}
	if out, code := run("migrate", "up"); code != 0 || !strings.Contains(out, "up to date") {
		t.Fatalf("migrate up as the DSN's role: %d %s", code, out)
	}
}
