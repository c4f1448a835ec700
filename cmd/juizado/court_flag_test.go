package main

import (
	"strings"
	"testing"
)

// token create and user create take --court only for a state court (TR 01–27
// under J = 8) that exists, or the default JUIZADO_COURT; --create-court
// creates a new one explicitly. Nothing is created for a refused court.
func TestCourtFlagIsValidated(t *testing.T) {
	g, run := cliEnv(t)
	courts := func(code string) int64 {
		var n int64
		if err := g.Raw("SELECT count(*) FROM courts WHERE code = ?", code).Scan(&n).Error; err != nil {
			t.Fatal(err)
		}
		return n
	}
	// The default court needs no flag.
	if out, err := run("", "token", "create", "--role", "judge", "--name", "J padrão"); err != nil {
		t.Fatalf("default court: %v %s", err, out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"token", "create", "--role", "judge", "--name", "X", "--court", "99.9999"}, "not a state court"},
		{[]string{"token", "create", "--role", "judge", "--name", "X", "--court", "99.9999", "--create-court"}, "not a state court"},
		{[]string{"token", "create", "--role", "judge", "--name", "X", "--court", "00.0100", "--create-court"}, "not a state court"},
		{[]string{"token", "create", "--role", "judge", "--name", "X", "--court", "28.0001", "--create-court"}, "not a state court"},
		{[]string{"token", "create", "--role", "judge", "--name", "X", "--court", "26.100"}, "not TR.OOOO"},
		{[]string{"token", "create", "--role", "judge", "--name", "X", "--court", "+6.0100"}, "not TR.OOOO"},
		{[]string{"token", "create", "--role", "judge", "--name", "X", "--court", "19.0001"}, "--create-court"},
		{[]string{"user", "create", "--role", "clerk", "--name", "Y", "--court", "99.9999", "--password-stdin"}, "not a state court"},
		{[]string{"user", "create", "--role", "clerk", "--name", "Y", "--court", "19.0001", "--password-stdin"}, "--create-court"},
	} {
		out, err := run("uma senha do cartório\n", tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v %s, want an error saying %q", tc.args, err, out, tc.want)
		}
	}
	for _, c := range []string{"99.9999", "00.0100", "28.0001", "19.0001"} {
		if courts(c) != 0 {
			t.Errorf("court %s created by a refused command", c)
		}
	}
	var users int64
	g.Raw("SELECT count(*) FROM users WHERE name IN ('X', 'Y')").Scan(&users)
	if users != 0 {
		t.Errorf("%d users made by refused commands", users)
	}
	// Explicitly, a new state court.
	if out, err := run("", "token", "create", "--role", "judge", "--name", "Juíza RJ", "--court", "19.0001", "--create-court"); err != nil || !strings.Contains(out, "court 19.0001") {
		t.Fatalf("--create-court: %v %s", err, out)
	}
	if courts("19.0001") != 1 {
		t.Error("19.0001 not created")
	}
	// Now it exists: no flag needed.
	if out, err := run("uma senha do cartório\n", "user", "create", "--role", "clerk", "--name", "Escrivã RJ", "--court", "19.0001", "--password-stdin"); err != nil {
		t.Fatalf("existing court: %v %s", err, out)
	}
}
