package web_test

import (
	"strings"
	"testing"
	"time"
)

// DOMAIN.md §6 ("each read is logged") for checks made at the gate, also
// offline: POST /api/v1/blocklist/checks (club) stores a gate agent's batch
// once per batch_id — a retry after a lost answer stores nothing twice — and
// a batch with a bad record is 422 naming it, with nothing stored.
func TestBlocklistChecksUpload_OncePerBatch_DOMAIN_6(t *testing.T) {
	f := newFixture(t)
	at := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	body := `{"batch_id": "00000000000000000001-ab", "device": "Catraca Leste 3", "records": [` +
		`{"cpf": "663.923.321-54", "checked_at": "` + at + `", "version": 7, "blocked": true},` +
		`{"cpf": "52601815906", "checked_at": "` + at + `", "version": 7, "blocked": false}]}`
	count := func() (n int64) {
		f.g.Raw("SELECT count(*) FROM blocklist_checks WHERE batch_id = '00000000000000000001-ab' AND device = 'Catraca Leste 3'").Scan(&n)
		return n
	}
	code, out, m := f.send(t, "POST", "/api/v1/blocklist/checks", "club", "application/json", body)
	if code != 201 || m["stored"] != float64(2) || m["duplicate"] != false || count() != 2 {
		t.Fatalf("first upload: %d %s (stored rows %d)", code, out, count())
	}
	code, out, m = f.send(t, "POST", "/api/v1/blocklist/checks", "club", "application/json", body)
	if code != 200 || m["duplicate"] != true || m["stored"] != float64(0) || count() != 2 {
		t.Fatalf("replayed batch: %d %s (stored rows %d)", code, out, count())
	}
	bad := strings.Replace(strings.Replace(body, "52601815906", "52601815907", 1), "0001-ab", "0002-ab", 1)
	code, out, _ = f.send(t, "POST", "/api/v1/blocklist/checks", "club", "application/json", bad)
	if code != 422 || !strings.Contains(out, "records[1].cpf") {
		t.Errorf("bad CPF: %d %s, want 422 naming records[1].cpf", code, out)
	}
	// An instant that is not RFC 3339 is the record's field (422), not
	// unreadable JSON: the body is JSON.
	for _, v := range []string{`"ontem"`, `"2026-12-01"`, `123`, `""`} {
		worse := strings.Replace(strings.Replace(body, `"`+at+`"`, v, 1), "0001-ab", "0003-ab", 1)
		code, out, _ := f.send(t, "POST", "/api/v1/blocklist/checks", "club", "application/json", worse)
		if code != 422 || !strings.Contains(out, `"field":"records[0].checked_at"`) {
			t.Errorf("checked_at %s: %d %s, want 422 naming records[0].checked_at", v, code, out)
		}
	}
	var n int64
	f.g.Raw("SELECT count(*) FROM blocklist_checks WHERE batch_id = '00000000000000000002-ab'").Scan(&n)
	if n != 0 {
		t.Errorf("a refused batch stored %d records", n)
	}
	if code, _, _ := f.send(t, "POST", "/api/v1/blocklist/checks", "prosecutor", "application/json", body); code != 403 {
		t.Errorf("prosecutor uploads: %d, want 403", code)
	}
}
