package authz_test

import (
	"context"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/internal/testenv"
)

// A policy that cannot be reloaded (its table unreadable) stays in force as
// last loaded, and the watcher writes one error line when the reloads
// start failing, not one per try, and one line when they succeed again
// (issue 32, item 5: one log line per change, not per reload).
func TestWatcherReportsFailingReloadsOnce(t *testing.T) {
	ctx := context.Background()
	g := pgtest.NewDB(t)
	owner := pgtest.Admin(t, g)
	e, err := authz.Open(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	logs := &testenv.LogBuffer{}
	w, err := authz.Watch(ctx, g, e, slog.New(slog.NewTextHandler(logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	exec := func(q string) {
		t.Helper()
		if err := owner.Exec(q).Error; err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	failed := func() int { return strings.Count(logs.String(), "reloading the policy failed") }
	exec("ALTER TABLE casbin_rule RENAME TO casbin_rule_fora")
	for range 15 { // notifications while the table cannot be read
		exec("NOTIFY " + authz.NotifyChannel)
		time.Sleep(100 * time.Millisecond)
	}
	if n := failed(); n != 1 {
		t.Errorf("%d error lines while the reloads fail, want 1:\n%s", n, logs)
	}
	court := "26.0100"
	if ok, _ := authz.Allowed(e, accounts.User{Role: "judge", CourtCode: &court}, "/api/v1/cases/:id/sentence", "POST"); !ok {
		t.Error("the policy last loaded is not in force while the reloads fail")
	}
	exec("ALTER TABLE casbin_rule_fora RENAME TO casbin_rule")
	exec("NOTIFY " + authz.NotifyChannel)
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(logs.String(), "the policy reloads again") {
		if time.Now().After(deadline) {
			t.Fatalf("no line when the policy reloads again:\n%s", logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
	m := regexp.MustCompile(`failed_reloads=(\d+)`).FindStringSubmatch(logs.String())
	if m == nil {
		t.Fatalf("the recovery line does not count the failed reloads:\n%s", logs)
	}
	if n, _ := strconv.Atoi(m[1]); n < 2 || failed() != 1 {
		t.Errorf("%s failed reloads in %d error lines, want several in one:\n%s", m[1], failed(), logs)
	}
}
