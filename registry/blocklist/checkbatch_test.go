package blocklist_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/registry/blocklist"
)

// batchOf is a gate agent's batch: n checks of cpf a minute apart, ending an
// hour before t0, at version 7 (the court needs 7 versions: e.versions),
// the first blocked.
func batchOf(id, device, cpf string, n int) blocklist.CheckBatch {
	b := blocklist.CheckBatch{BatchID: id, Device: device}
	for i := 0; i < n; i++ {
		b.Records = append(b.Records, blocklist.UploadedCheck{CPF: cpf, CheckedAt: t0.Add(-time.Hour - time.Duration(n-i)*time.Minute), Version: ptr(int64(7)), Blocked: ptr(i == 0)})
	}
	return b
}

// versions makes the court's blocklist reach version n: rows of
// blocklist_versions numbered by its trigger (migration 00032, as Refresh's
// are), so that check records may carry versions up to n.
func (e *env) versions(t *testing.T, n int64) {
	t.Helper()
	for {
		v, err := e.lists.Latest(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if v.Version >= n {
			return
		}
		if err := e.g.Exec("INSERT INTO blocklist_versions (generated_at, digest, entries) VALUES (?, '\\x00', 0)", t0).Error; err != nil {
			t.Fatal(err)
		}
	}
}

// checkRows counts the check records of account user in batch id.
func (e *env) checkRows(t *testing.T, user int64, id string) (n int64) {
	t.Helper()
	if err := e.g.Raw("SELECT count(*) FROM blocklist_checks WHERE user_id = ? AND batch_id = ?", user, id).Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// DOMAIN.md §6 (each read is logged) and API.md "Gate agent (turn 2)":
// POST /blocklist/checks is idempotent by batch_id per club account. A
// batch id of one club never hides another club's batch: both are stored.
func TestCheckBatchIDIsTheAccounts_TwoClubsSameID_DOMAIN_6(t *testing.T) {
	e := newEnv(t)
	e.versions(t, 7)
	ctx := context.Background()
	const clubA, clubB = 9001, 9002
	n, dup, err := e.lists.StoreCheckBatch(ctx, clubA, "Clube A", batchOf("same-1", "portao-a", "663.923.321-54", 2))
	if err != nil || n != 2 || dup {
		t.Fatalf("club A: stored %d duplicate %v err %v", n, dup, err)
	}
	n, dup, err = e.lists.StoreCheckBatch(ctx, clubB, "Clube B", batchOf("same-1", "portao-b", "52601815906", 3))
	if err != nil || n != 3 || dup {
		t.Fatalf("club B, same batch id: stored %d duplicate %v err %v, want its 3 records stored", n, dup, err)
	}
	if a, b := e.checkRows(t, clubA, "same-1"), e.checkRows(t, clubB, "same-1"); a != 2 || b != 3 {
		t.Errorf("stored records: club A %d, club B %d, want 2 and 3", a, b)
	}
	var clubs int64
	e.g.Raw("SELECT count(*) FROM blocklist_check_batches WHERE batch_id = 'same-1'").Scan(&clubs)
	if clubs != 2 {
		t.Errorf("%d batches named same-1, want 2 (one per club)", clubs)
	}
}

// The same club resending a batch id with the same records (any spelling
// of its CPFs and instants, any order, the agent's device renamed) is a
// duplicate, nothing stored again; with other records (one more, a CPF or
// blocked changed) it is a conflict naming batch_id, nothing stored.
func TestCheckBatchResend_SameContentDuplicate_OtherContent409_DOMAIN_6(t *testing.T) {
	e := newEnv(t)
	e.versions(t, 7)
	ctx := context.Background()
	const club = 9001
	first := batchOf("b-1", "portao-1", "663.923.321-54", 3)
	if n, dup, err := e.lists.StoreCheckBatch(ctx, club, "Clube", first); err != nil || n != 3 || dup {
		t.Fatalf("first: stored %d duplicate %v err %v", n, dup, err)
	}
	again := batchOf("b-1", "portao-1-renomeado", "66392332154", 3)
	again.Records[0], again.Records[2] = again.Records[2], again.Records[0]
	for i := range again.Records {
		again.Records[i].CheckedAt = again.Records[i].CheckedAt.In(time.FixedZone("BRT", -3*3600))
	}
	if n, dup, err := e.lists.StoreCheckBatch(ctx, club, "Clube", again); err != nil || n != 0 || !dup {
		t.Fatalf("same content resent: stored %d duplicate %v err %v, want a duplicate", n, dup, err)
	}
	other := map[string]blocklist.CheckBatch{
		"one record more": batchOf("b-1", "portao-1", "663.923.321-54", 4),
		"another CPF":     batchOf("b-1", "portao-1", "52601815906", 3),
		"one record less": batchOf("b-1", "portao-1", "663.923.321-54", 2),
	}
	unblocked := batchOf("b-1", "portao-1", "663.923.321-54", 3)
	unblocked.Records[0].Blocked = ptr(false)
	other["blocked changed"] = unblocked
	for name, b := range other {
		n, dup, err := e.lists.StoreCheckBatch(ctx, club, "Clube", b)
		var ae *errs.Error
		if !errors.As(err, &ae) || ae.Kind != errs.Conflict || len(ae.Fields) != 1 || ae.Fields[0].Field != "batch_id" || n != 0 || dup {
			t.Errorf("%s: stored %d duplicate %v err %v, want a conflict on batch_id", name, n, dup, err)
		}
	}
	if got := e.checkRows(t, club, "b-1"); got != 3 {
		t.Errorf("%d records of b-1, want the first batch's 3", got)
	}
	var records int
	e.g.Raw("SELECT records FROM blocklist_check_batches WHERE user_id = ? AND batch_id = 'b-1'", club).Scan(&records)
	if records != 3 {
		t.Errorf("batch row says %d records, want 3", records)
	}
}

// A batch whose writing fails part-way (the database refuses its 1,201st
// record) stores nothing, not even its batch id: the
// agent's retry stores it whole, once, and a further retry is a duplicate.
func TestCheckBatchRetryAfterPartialFailureStoredOnce_DOMAIN_6(t *testing.T) {
	e := newEnv(t)
	e.versions(t, 8)
	ctx := context.Background()
	const club = 9001
	admin := pgtest.Admin(t, e.g) // DDL: not the application's role
	for _, q := range []string{
		"CREATE TABLE fail_checks (on_version bigint)",
		"INSERT INTO fail_checks VALUES (8)",
		`CREATE FUNCTION fail_check() RETURNS trigger LANGUAGE plpgsql AS $$
		 BEGIN
		   IF EXISTS (SELECT 1 FROM fail_checks WHERE on_version = NEW.version) THEN
		     RAISE EXCEPTION 'injected failure on version %', NEW.version;
		   END IF;
		   RETURN NEW;
		 END $$`,
		"CREATE TRIGGER fail_check BEFORE INSERT ON blocklist_checks FOR EACH ROW EXECUTE FUNCTION fail_check()",
	} {
		if err := admin.Exec(q).Error; err != nil {
			t.Fatal(err)
		}
	}
	b := batchOf("big-1", "portao-1", "663.923.321-54", 1500)
	b.Records[1200].Version = ptr(int64(8))
	if n, dup, err := e.lists.StoreCheckBatch(ctx, club, "Clube", b); err == nil || n != 0 || dup {
		t.Fatalf("failing write: stored %d duplicate %v err %v, want the injected failure", n, dup, err)
	}
	var batches int64
	e.g.Raw("SELECT count(*) FROM blocklist_check_batches WHERE batch_id = 'big-1'").Scan(&batches)
	if got := e.checkRows(t, club, "big-1"); got != 0 || batches != 0 {
		t.Fatalf("after the failure: %d records and %d batch rows, want none", got, batches)
	}
	if err := e.g.Exec("DELETE FROM fail_checks").Error; err != nil {
		t.Fatal(err)
	}
	if n, dup, err := e.lists.StoreCheckBatch(ctx, club, "Clube", b); err != nil || n != 1500 || dup {
		t.Fatalf("retry: stored %d duplicate %v err %v, want 1500", n, dup, err)
	}
	if n, dup, err := e.lists.StoreCheckBatch(ctx, club, "Clube", b); err != nil || n != 0 || !dup {
		t.Fatalf("second retry: stored %d duplicate %v err %v, want a duplicate", n, dup, err)
	}
	if got := e.checkRows(t, club, "big-1"); got != 1500 {
		t.Errorf("%d records of big-1, want 1500 (stored once)", got)
	}
}
