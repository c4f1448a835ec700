package blocklist_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/registry/blocklist"
)

// refused stores b for the club account club and fails unless it is
// errs.Invalid naming exactly the fields of want (field → rule), each with
// a message, and nothing of the account was stored: no check record, no
// batch row (its batch_id is not used up).
func (e *env) refused(t *testing.T, club int64, b blocklist.CheckBatch, want map[string]string) {
	t.Helper()
	n, dup, err := e.lists.StoreCheckBatch(context.Background(), club, "Clube", b)
	var ae *errs.Error
	if !errors.As(err, &ae) || ae.Kind != errs.Invalid || n != 0 || dup {
		t.Fatalf("stored %d duplicate %v err %v, want errs.Invalid naming %v", n, dup, err, want)
	}
	got := map[string]string{}
	for _, fe := range ae.Fields {
		if _, twice := got[fe.Field]; twice || fe.Message == "" {
			t.Errorf("field %s named twice or without a message: %+v", fe.Field, ae.Fields)
		}
		got[fe.Field] = fe.Rule
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("fields %v, want %v (%v)", got, want, err)
	}
	var records, batches int64
	e.g.Raw("SELECT count(*) FROM blocklist_checks WHERE user_id = ?", club).Scan(&records)
	e.g.Raw("SELECT count(*) FROM blocklist_check_batches WHERE user_id = ?", club).Scan(&batches)
	if records != 0 || batches != 0 {
		t.Errorf("a refused batch left %d check records and %d batch rows", records, batches)
	}
}

// stores stores b for club and fails unless all its records were stored.
func (e *env) stores(t *testing.T, club int64, b blocklist.CheckBatch) {
	t.Helper()
	n, dup, err := e.lists.StoreCheckBatch(context.Background(), club, "Clube", b)
	if err != nil || n != len(b.Records) || dup {
		t.Fatalf("stored %d of %d duplicate %v err %v, want all stored", n, len(b.Records), dup, err)
	}
	if got := e.checkRows(t, club, strings.TrimSpace(b.BatchID)); got != int64(len(b.Records)) {
		t.Fatalf("%d rows of batch %q, want %d", got, b.BatchID, len(b.Records))
	}
}

// DOMAIN.md §6 (a check record is evidence of what the gate answered): a
// record without blocked, or with blocked null, is not a check; stored as
// false it would be an invented fact. The whole batch is refused.
func TestCheckBatchBlockedRequired_DOMAIN_6(t *testing.T) {
	e := newEnv(t)
	e.versions(t, 7)
	b := batchOf("b-blocked", "portao-1", "663.923.321-54", 3)
	b.Records[1].Blocked = nil
	e.refused(t, 9001, b, map[string]string{"records[1].blocked": "required"})
	b.Records[1].Blocked = ptr(false)
	e.stores(t, 9001, b)
	var blocked, unblocked int64
	e.g.Raw("SELECT count(*) FILTER (WHERE blocked), count(*) FILTER (WHERE NOT blocked) FROM blocklist_checks WHERE batch_id = 'b-blocked'").Row().Scan(&blocked, &unblocked)
	if blocked != 1 || unblocked != 2 {
		t.Errorf("stored outcomes: %d blocked, %d not, want 1 and 2", blocked, unblocked)
	}
}

// DOMAIN.md §6: a record's version is the version of this court's list the
// agent answered from. Missing is refused (required); negative or above
// the court's latest version (made here by real sentences) is a version
// that never was (range). 0 (the agent held no list of this court yet) and
// the latest version itself are checks.
func TestCheckBatchVersionRequiredAndUpToTheLatest_DOMAIN_6(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.sentence(t, e.reps["R1"], "2025-06-10", 3)
	e.sentence(t, e.reps["R2"], "2025-06-10", 3)
	latest, err := e.lists.Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var inTable int64
	e.g.Raw("SELECT max(version) FROM blocklist_versions").Scan(&inTable)
	if latest.Version < 1 || latest.Version != inTable {
		t.Fatalf("latest version %d (table: %d), want the sentences' version", latest.Version, inTable)
	}
	for name, c := range map[string]struct {
		v    *int64
		rule string
	}{
		"missing":          {nil, "required"},
		"negative":         {ptr(int64(-1)), "range"},
		"one above latest": {ptr(latest.Version + 1), "range"},
		"far above latest": {ptr(int64(1) << 40), "range"},
		"minimum int64":    {ptr(int64(-1 << 63)), "range"},
		"maximum int64":    {ptr(int64(1<<63 - 1)), "range"},
	} {
		t.Run(name, func(t *testing.T) {
			b := batchOf("b-version", "portao-1", "663.923.321-54", 3)
			b.Records[0].Version, b.Records[1].Version, b.Records[2].Version = ptr(int64(0)), ptr(latest.Version), c.v
			e.refused(t, 9001, b, map[string]string{"records[2].version": c.rule})
		})
	}
	b := batchOf("b-version", "portao-1", "663.923.321-54", 2)
	b.Records[0].Version, b.Records[1].Version = ptr(int64(0)), ptr(latest.Version)
	e.stores(t, 9001, b)
	var versions []int64
	e.g.Raw("SELECT version FROM blocklist_checks WHERE batch_id = 'b-version' ORDER BY version").Scan(&versions)
	if !slices.Equal(versions, []int64{0, latest.Version}) {
		t.Errorf("stored versions %v, want [0 %d]", versions, latest.Version)
	}
}

// A court without any version yet takes version 0 only: 1 is above its
// latest (0).
func TestCheckBatchVersionOfACourtWithoutList_DOMAIN_6(t *testing.T) {
	e := newEnv(t)
	if v, err := e.lists.Latest(context.Background()); err != nil || v.Version != 0 {
		t.Fatalf("a new court's latest version %d %v, want 0", v.Version, err)
	}
	b := batchOf("b-nolist", "portao-1", "663.923.321-54", 2)
	b.Records[0].Version, b.Records[1].Version = ptr(int64(0)), ptr(int64(1))
	e.refused(t, 9001, b, map[string]string{"records[1].version": "range"})
	b.Records[1].Version = ptr(int64(0))
	e.stores(t, 9001, b)
}

// Lei 14.597/2023 (Lei Geral do Esporte), of 14/06/2023: a check of a
// juizado do torcedor's list made with this system is not earlier than
// 2023-06-14T00:00:00-03:00 (the same instant in any zone); nor is it more
// than 5 minutes ahead of the court's clock; a missing instant is refused.
func TestCheckBatchCheckedAtFromLei14597To5MinutesAhead(t *testing.T) {
	e := newEnv(t)
	e.versions(t, 7)
	now := e.clk.Now()
	brt := time.FixedZone("BRT", -3*3600)
	for name, at := range map[string]time.Time{
		"missing":                        {},
		"a nanosecond before 14/06/2023": time.Date(2023, 6, 13, 23, 59, 59, 999999999, brt),
		"13/06/2023 in UTC":              time.Date(2023, 6, 14, 2, 59, 59, 0, time.UTC),
		"Estatuto do Torcedor (2003)":    time.Date(2003, 5, 16, 12, 0, 0, 0, brt),
		"5 minutes and 1 s ahead":        now.Add(5*time.Minute + time.Second),
		"a year ahead":                   now.AddDate(1, 0, 0),
	} {
		t.Run(name, func(t *testing.T) {
			b := batchOf("b-at", "portao-1", "663.923.321-54", 2)
			b.Records[1].CheckedAt = at
			e.refused(t, 9001, b, map[string]string{"records[1].checked_at": "instant"})
		})
	}
	b := batchOf("b-at", "portao-1", "663.923.321-54", 3)
	b.Records[0].CheckedAt = time.Date(2023, 6, 14, 0, 0, 0, 0, brt)
	b.Records[1].CheckedAt = time.Date(2023, 6, 14, 3, 0, 0, 0, time.UTC)
	b.Records[2].CheckedAt = now.Add(5 * time.Minute)
	e.stores(t, 9001, b)
}

// API.md "Gate agent": a batch is the agent's check records; with none
// (records missing, null or empty) it is refused and its batch_id is not
// used up: the same id then stores a real batch.
func TestCheckBatchRecordsRequired(t *testing.T) {
	e := newEnv(t)
	e.versions(t, 7)
	e.refused(t, 9001, blocklist.CheckBatch{BatchID: "b-empty", Device: "portao-1"}, map[string]string{"records": "required"})
	e.refused(t, 9001, blocklist.CheckBatch{BatchID: "b-empty", Device: "portao-1", Records: []blocklist.UploadedCheck{}}, map[string]string{"records": "required"})
	e.stores(t, 9001, batchOf("b-empty", "portao-1", "663.923.321-54", 1))
}

// batch_id and device go through textcheck (as every name entering the
// system): controls (also a surrounding line break), bidi overrides,
// zero-width and other invisible characters and U+FFFD are refused with
// textcheck's rule; lengths count characters, not bytes (batch_id at most
// 100 after trimming, device at most 200: "max"); batch_id empty or only
// spaces is "required"; device may be empty.
func TestCheckBatchIDAndDeviceAreCheckedText(t *testing.T) {
	e := newEnv(t)
	e.versions(t, 7)
	for name, c := range map[string]struct {
		id, device string
		want       map[string]string
	}{
		"empty batch_id":            {"", "portao-1", map[string]string{"batch_id": "required"}},
		"batch_id of spaces":        {"   ", "portao-1", map[string]string{"batch_id": "required"}},
		"batch_id of 101 ç":         {strings.Repeat("ç", 101), "portao-1", map[string]string{"batch_id": "max"}},
		"batch_id with RLO":         {"lote-\u202e1", "portao-1", map[string]string{"batch_id": "no_invisible"}},
		"batch_id with ZWSP":        {"lote\u200b-1", "portao-1", map[string]string{"batch_id": "no_invisible"}},
		"batch_id with a NUL":       {"lote\x00-1", "portao-1", map[string]string{"batch_id": "no_control"}},
		"batch_id ending in a LF":   {"lote-1\n", "portao-1", map[string]string{"batch_id": "no_control"}},
		"batch_id with U+FFFD":      {"lote-\ufffd", "portao-1", map[string]string{"batch_id": "no_replacement"}},
		"batch_id not UTF-8":        {"lote-\xff", "portao-1", map[string]string{"batch_id": "utf8"}},
		"device of 201 é":           {"b-text", strings.Repeat("é", 201), map[string]string{"device": "max"}},
		"device with LRI":           {"b-text", "portao\u2066-1", map[string]string{"device": "no_invisible"}},
		"device with a tab":         {"b-text", "portao\t1", map[string]string{"device": "no_control"}},
		"both bad, and no records":  {"lote\u2028", "\u0085", map[string]string{"batch_id": "no_control", "device": "no_control", "records": "required"}},
		"device with a soft hyphen": {"b-text", "por\u00adtao", map[string]string{"device": "no_invisible"}},
	} {
		t.Run(name, func(t *testing.T) {
			b := batchOf(c.id, c.device, "663.923.321-54", 1)
			if _, ok := c.want["records"]; ok {
				b.Records = nil
			}
			e.refused(t, 9001, b, c.want)
		})
	}
	// 100 and 200 characters of two bytes each are within the limits (the
	// byte count, 200 and 400, is not the rule); surrounding spaces of
	// batch_id are trimmed, as before; an empty device is accepted.
	long := batchOf(" "+strings.Repeat("ç", 100)+" ", strings.Repeat("é", 200), "663.923.321-54", 1)
	e.stores(t, 9001, long)
	var device string
	e.g.Raw("SELECT device FROM blocklist_check_batches WHERE user_id = 9001 AND batch_id = ?", strings.Repeat("ç", 100)).Scan(&device)
	if device != strings.Repeat("é", 200) {
		t.Errorf("stored device %q", device)
	}
	e.stores(t, 9001, batchOf("São Paulo – portão 1", "", "663.923.321-54", 1))
}

// Every bad field of every record is named at once (not only the first of
// a record), and one bad record refuses the whole batch.
func TestCheckBatchNamesEveryBadField(t *testing.T) {
	e := newEnv(t)
	e.versions(t, 7)
	b := batchOf("b-all", "portao-1", "663.923.321-54", 3)
	b.Records[0] = blocklist.UploadedCheck{CPF: "663.923.321-55", CheckedAt: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), Version: ptr(int64(8))}
	b.Records[2].Version = ptr(int64(-7))
	e.refused(t, 9001, b, map[string]string{
		"records[0].cpf": "cpf", "records[0].checked_at": "instant", "records[0].version": "range", "records[0].blocked": "required",
		"records[2].version": "range",
	})
}

func ptr[T any](v T) *T { return &v }
