package audit_test

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/audit"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/pgtest"
	"gorm.io/gorm"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

type signer struct{ key ed25519.PrivateKey }

func (s signer) Sign(msg []byte) (string, string, error) {
	return "k1", base64.StdEncoding.EncodeToString(ed25519.Sign(s.key, msg)), nil
}

func write(t *testing.T, g *gorm.DB, name string) {
	t.Helper()
	ctx := db.WithActor(context.Background(), actor.Actor{Name: "tester", Role: "admin", Court: "26.0100"})
	err := db.WithTx(ctx, g, func(ctx context.Context) error {
		if err := db.Conn(ctx, g).Exec("INSERT INTO courts (code, name) VALUES ('26.0100', 'x') ON CONFLICT DO NOTHING").Error; err != nil {
			return err
		}
		_, _, err := accounts.EnsureUser(ctx, g, accounts.UserSpec{Name: name, Role: "clerk", Court: "26.0100"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Every write is recorded with who, action, record and after; the trail is
// append-only; an edit made directly in the database is caught naming the
// first broken row; rewriting the chain is caught by the signed checkpoint.
func TestTrailRecordsWritesAndVerify(t *testing.T) {
	ctx := context.Background()
	g := pgtest.NewDB(t)
	write(t, g, "Ana")
	write(t, g, "Bia")
	rows, err := audit.List(ctx, g, audit.Filter{Table: "users"})
	if err != nil || len(rows) != 2 {
		t.Fatalf("users rows: %d %v", len(rows), err)
	}
	if r := rows[0]; r.Action != "insert" || r.ActorName != "tester" || r.Role != "admin" || r.Domain != "26.0100" || !strings.Contains(string(r.After), `"Bia"`) {
		t.Fatalf("row: %+v after %s", r, r.After)
	}
	if err := audit.Verify(ctx, g, nil); err != nil {
		t.Fatalf("intact trail: %v", err)
	}
	pub, priv, _ := ed25519.GenerateKey(nil)
	if _, err := audit.Checkpoint(ctx, g, signer{priv}); err != nil {
		t.Fatal(err)
	}
	keys := map[string]ed25519.PublicKey{"k1": pub}
	if err := audit.Verify(ctx, g, keys); err != nil {
		t.Fatalf("with checkpoint: %v", err)
	}
	// Append-only: UPDATE and DELETE are refused.
	if err := g.Exec("UPDATE audit_log SET actor_name = 'x'").Error; err == nil {
		t.Fatal("UPDATE on audit_log accepted")
	}
	if err := g.Exec("DELETE FROM audit_log").Error; err == nil {
		t.Fatal("DELETE on audit_log accepted")
	}
	// An edit made directly (triggers disabled by a superuser) is caught.
	var second int64
	g.Raw("SELECT id FROM audit_log ORDER BY id OFFSET 1 LIMIT 1").Scan(&second)
	admin := pgtest.Admin(t, g) // the application's role may not turn the triggers off
	tamper := func(sql string, args ...any) {
		err := admin.Transaction(func(tx *gorm.DB) error {
			if err := tx.Exec("SET LOCAL session_replication_role = replica").Error; err != nil {
				return err
			}
			return tx.Exec(sql, args...).Error
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	tamper("UPDATE audit_log SET actor_name = 'mallory' WHERE id = ?", second)
	var b *audit.Broken
	if err := audit.Verify(ctx, g, keys); !errors.As(err, &b) || b.ID != second {
		t.Fatalf("tampered row %d: Verify = %v", second, err)
	}
	// Rewriting the chain consistently from that row on: only the signed
	// checkpoint catches it.
	tamper(`UPDATE audit_log a SET row_hash = audit_row_hash(prev_hash, id, at, actor_id, actor_name, role, domain, action, table_name, record_id, before, after) WHERE id = ?`, second)
	// Row by row in id order (the trail holds the baseline rows of
	// migration 00095 too, so more than one row follows).
	var after []int64
	g.Raw("SELECT id FROM audit_log WHERE id > ? ORDER BY id", second).Scan(&after)
	for _, id := range after {
		tamper(`UPDATE audit_log a SET prev_hash = (SELECT row_hash FROM audit_log p WHERE p.id < a.id ORDER BY p.id DESC LIMIT 1),
		row_hash = audit_row_hash((SELECT row_hash FROM audit_log p WHERE p.id < a.id ORDER BY p.id DESC LIMIT 1), id, at, actor_id, actor_name, role, domain, action, table_name, record_id, before, after) WHERE id = ?`, id)
	}
	if err := audit.Verify(ctx, g, nil); err == nil || !strings.Contains(err.Error(), "ponto de controle") {
		t.Fatalf("rewritten chain: Verify = %v, want the checkpoint to catch it", err)
	}
}

// audit.Drifts compares every audited table's rows with their last audited
// image: none on a trail the application wrote (an instant written in
// another time zone is the same instant); a row edited, inserted or deleted
// by a superuser with the triggers off (session_replication_role =
// replica, which the application's role may not set) is named, by table and
// key (issue 32, item 4).
func TestAuditDrifts_NameRowsEditedWithTriggersDisabledBySuperuser(t *testing.T) {
	ctx := context.Background()
	g := pgtest.NewDB(t)
	write(t, g, "Ana")
	if err := g.Transaction(func(tx *gorm.DB) error { // the application writing in another zone
		if err := tx.Exec("SET LOCAL TimeZone = 'America/Sao_Paulo'").Error; err != nil {
			return err
		}
		return tx.Exec("INSERT INTO courts (code, name) VALUES ('19.0001', 'Rio'), ('13.0001', 'BH')").Error
	}); err != nil {
		t.Fatal(err)
	}
	drifts := func() []string {
		t.Helper()
		var out []string
		if err := audit.Drifts(ctx, g, func(d audit.Drift) error { out = append(out, d.String()); return nil }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	if d := drifts(); len(d) != 0 {
		t.Fatalf("drifts on a trail the application wrote: %q", d)
	}
	var ana int64
	g.Raw("SELECT id FROM users WHERE name = 'Ana'").Scan(&ana)
	err := pgtest.Admin(t, g).Transaction(func(tx *gorm.DB) error {
		for _, q := range []string{"SET LOCAL session_replication_role = replica",
			"UPDATE users SET name = 'Mallory' WHERE name = 'Ana'",
			"INSERT INTO courts (code, name) VALUES ('26.0200', 'Sneaky')",
			"DELETE FROM courts WHERE code = '13.0001'"} {
			if err := tx.Exec(q).Error; err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(drifts(), "\n")
	for _, want := range []string{`courts {"code": "13.0001"}: deleted unseen (last audit row`, `courts {"code": "26.0200"}: no audit row`,
		`users {"id": ` + strconv.FormatInt(ana, 10) + `}: differs (last audit row`} {
		if !strings.Contains(got, want) {
			t.Errorf("drifts:\n%s\nwant %q", got, want)
		}
	}
	if n := strings.Count(got, "\n") + 1; n != 3 {
		t.Errorf("%d drifts, want 3:\n%s", n, got)
	}
}
