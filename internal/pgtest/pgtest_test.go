package pgtest_test

import (
	"context"
	"testing"

	"github.com/juizado/juizado/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestNewDBIsMigratedAndIsolated(t *testing.T) {
	t.Parallel()
	a, b := pgtest.NewDB(t), pgtest.NewDB(t)
	var n int64
	if err := a.WithContext(context.Background()).Raw("SELECT count(*) FROM venues").Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	if n != 15 {
		t.Fatalf("venues seeded by migration: got %d, want 15", n)
	}
	if err := a.Exec("INSERT INTO courts (code, name) VALUES ('26.0100', 'x')").Error; err != nil {
		t.Fatal(err)
	}
	if err := b.Raw("SELECT count(*) FROM courts").Scan(&n).Error; err != nil || n != 0 {
		t.Fatalf("databases are not isolated: %d courts in b (err %v)", n, err)
	}
}

func TestWithDBName(t *testing.T) {
	cases := map[string]string{
		"host=/tmp/x port=5432 user=postgres dbname=postgres sslmode=disable": "host=/tmp/x port=5432 user=postgres dbname=foo sslmode=disable",
		"postgres://u:p@localhost:5432/postgres?sslmode=disable":              "postgres://u:p@localhost:5432/foo?sslmode=disable",
		"host=/tmp/x": "host=/tmp/x dbname=foo",
	}
	for in, want := range cases {
		if got := pgtest.WithDBName(in, "foo"); got != want {
			t.Errorf("WithDBName(%q) = %q, want %q", in, got, want)
		}
	}
}
