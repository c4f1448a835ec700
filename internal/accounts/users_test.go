package accounts_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestPasswords(t *testing.T) {
	h, err := accounts.HashPassword("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q", h)
	}
	h2, _ := accounts.HashPassword("correct horse battery")
	if h == h2 {
		t.Error("two hashes of one password are equal (no salt?)")
	}
	if !accounts.VerifyPassword(h, "correct horse battery") || accounts.VerifyPassword(h, "correct horse batterY") {
		t.Error("verify")
	}
	for _, bad := range []string{"", "$argon2i$v=19$m=19456,t=2,p=1$AAAA$AAAA", h[:len(h)-4], strings.Replace(h, "t=2", "t=0", 1)} {
		if accounts.VerifyPassword(bad, "correct horse battery") {
			t.Errorf("verified against %q", bad)
		}
	}
	ctx := context.Background()
	g := pgtest.NewDB(t)
	if err := cases.EnsureCourt(ctx, g, "26.0100", ""); err != nil {
		t.Fatal(err)
	}
	u, _, err := accounts.EnsureUser(ctx, g, accounts.UserSpec{Name: "Ana", Role: "clerk", Court: "26.0100"})
	if err != nil {
		t.Fatal(err)
	}
	if err := accounts.SetPassword(ctx, g, u.ID, "curta"); !errors.Is(err, accounts.ErrWeakPassword) {
		t.Fatalf("short password: %v", err)
	}
	if err := accounts.SetPassword(ctx, g, u.ID, "uma senha longa"); err != nil {
		t.Fatal(err)
	}
	if err := accounts.SetPassword(ctx, g, u.ID, "outra senha longa"); err != nil {
		t.Fatal(err)
	}
	if got, err := accounts.CheckPassword(ctx, g, "Ana", "outra senha longa"); err != nil || got.ID != u.ID {
		t.Fatalf("check: %v %v", got, err)
	}
	for _, c := range [][2]string{{"Ana", "uma senha longa"}, {"ana", "outra senha longa"}, {"Bia", "outra senha longa"}} {
		if _, err := accounts.CheckPassword(ctx, g, c[0], c[1]); !errors.Is(err, accounts.ErrBadCredentials) {
			t.Errorf("%v: %v", c, err)
		}
	}
	// The audit trail records password changes without the hash.
	var after []string
	g.Raw("SELECT after::text FROM audit_log WHERE table_name = 'user_passwords' ORDER BY id").Scan(&after)
	if len(after) != 2 {
		t.Fatalf("audit rows: %v", after)
	}
	for _, a := range after {
		if strings.Contains(a, "argon2") || !strings.Contains(a, "(oculto)") {
			t.Errorf("audit row shows the hash: %s", a)
		}
	}
}

// Five failures lock the account for 15 minutes from the first of them,
// even for the right password; then it opens again.
func TestLockoutWindow(t *testing.T) {
	ctx := context.Background()
	g := pgtest.NewDB(t)
	if err := cases.EnsureCourt(ctx, g, "26.0100", ""); err != nil {
		t.Fatal(err)
	}
	u, _, err := accounts.EnsureUser(ctx, g, accounts.UserSpec{Name: "juiza", Role: "judge", Court: "26.0100"})
	if err != nil {
		t.Fatal(err)
	}
	if err := accounts.SetPassword(ctx, g, u.ID, "senha da juíza"); err != nil {
		t.Fatal(err)
	}
	l := accounts.DefaultLockout
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	for i := 0; i < 5; i++ {
		_, n, err := l.Login(ctx, g, "juiza", "errada", "203.0.113.1", t0.Add(time.Duration(i)*time.Second))
		if !errors.Is(err, accounts.ErrBadCredentials) || n != i+1 {
			t.Fatalf("failure %d: %v, count %d", i+1, err, n)
		}
	}
	_, _, err = l.Login(ctx, g, "JUIZA", "senha da juíza", "203.0.113.2", t0.Add(time.Minute))
	var le *accounts.LockedError
	if !errors.As(err, &le) || !le.Until.Equal(t0.Add(15*time.Minute)) {
		t.Fatalf("locked: %v", err)
	}
	if got, _, err := l.Login(ctx, g, "juiza", "senha da juíza", "203.0.113.2", t0.Add(15*time.Minute+time.Second)); err != nil || got.ID != u.ID {
		t.Fatalf("after the lock: %v", err)
	}
	var n int64
	g.Raw("SELECT count(*) FROM login_failures WHERE account = 'juiza'").Scan(&n)
	if n != 0 {
		t.Errorf("a success left %d failures", n)
	}
}

func TestParseExpiry(t *testing.T) {
	for in, want := range map[string]time.Duration{"90d": 90 * 24 * time.Hour, "1d": 24 * time.Hour, "12h": 12 * time.Hour, "30m": 30 * time.Minute} {
		if got, err := accounts.ParseExpiry(in); err != nil || got != want {
			t.Errorf("%s: %v %v", in, got, err)
		}
	}
	for _, in := range []string{"", "0d", "-1d", "d", "1.5d", "x", "99999d", "-3h"} {
		if _, err := accounts.ParseExpiry(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}
