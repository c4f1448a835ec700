package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/accounts"
)

// DOMAIN.md §6 ("each read is logged") for checks made at the gate, also
// offline: POST /api/v1/blocklist/checks (club) stores a gate agent's batch
// once per batch_id — a retry after a lost answer stores nothing twice — and
// a batch with a bad record is 422 naming it, with nothing stored.
func TestBlocklistChecksUpload_OncePerBatch_DOMAIN_6(t *testing.T) {
	f := newFixture(t)
	f.versions(t, 7)
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

// API.md "Gate agent (turn 2)": batch_id is the idempotency key of the club
// account that sends it. Club B's batch "same-1" is stored although club A
// stored a "same-1" (201, its records kept); club A resending "same-1" with
// its records is 200 duplicate; with other records it is 409
// problem+json naming batch_id, nothing stored.
func TestBlocklistChecksUpload_BatchIDPerClub_409OnOtherRecords_DOMAIN_6(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	other, _, err := accounts.EnsureUser(ctx, f.g, accounts.UserSpec{Name: "u-club-b", Role: "club", Club: "Outro Clube", Group: 1})
	if err != nil {
		t.Fatal(err)
	}
	if f.tokens["club-b"], err = accounts.NewToken(ctx, f.g, other.ID, time.Time{}); err != nil {
		t.Fatal(err)
	}
	at := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	batch := func(cpfs ...string) string {
		recs := make([]string, len(cpfs))
		for i, c := range cpfs {
			recs[i] = `{"cpf": "` + c + `", "checked_at": "` + at + `", "version": 7, "blocked": false}`
		}
		return `{"batch_id": "same-1", "device": "portao-1", "records": [` + strings.Join(recs, ",") + `]}`
	}
	count := func(user int64) (n int64) {
		f.g.Raw("SELECT count(*) FROM blocklist_checks WHERE batch_id = 'same-1' AND user_id = ?", user).Scan(&n)
		return n
	}
	f.versions(t, 7)
	a, b := f.users["club"].ID, other.ID
	if code, out, m := f.send(t, "POST", "/api/v1/blocklist/checks", "club", "application/json", batch("663.923.321-54")); code != 201 || m["stored"] != float64(1) {
		t.Fatalf("club A: %d %s", code, out)
	}
	code, out, m := f.send(t, "POST", "/api/v1/blocklist/checks", "club-b", "application/json", batch("52601815906", "663.923.321-54"))
	if code != 201 || m["stored"] != float64(2) || m["duplicate"] != false || count(b) != 2 {
		t.Fatalf("club B, same batch id: %d %s (its stored rows %d), want 201 with its 2 records", code, out, count(b))
	}
	code, out, m = f.send(t, "POST", "/api/v1/blocklist/checks", "club", "application/json", batch("66392332154"))
	if code != 200 || m["duplicate"] != true || m["stored"] != float64(0) || count(a) != 1 {
		t.Fatalf("club A resends the same records: %d %s (rows %d), want 200 duplicate", code, out, count(a))
	}
	rec := f.do("POST", "/api/v1/blocklist/checks", f.tokens["club"], "application/json", []byte(batch("663.923.321-54", "52601815906")), "")
	if rec.Code != 409 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/problem+json") ||
		!strings.Contains(rec.Body.String(), `"field":"batch_id"`) || !strings.Contains(rec.Body.String(), "batch_id já usado com outros registros") {
		t.Fatalf("club A resends same-1 with other records: %d %s %s, want 409 problem+json naming batch_id", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
	if count(a) != 1 || count(b) != 2 {
		t.Errorf("stored rows after the conflict: club A %d, club B %d, want 1 and 2", count(a), count(b))
	}
}

// versions makes the court's blocklist reach version n: rows of
// blocklist_versions numbered by its trigger (migration 00032, as the
// court's Refresh numbers them), so that check records may carry versions
// up to n.
func (f *fixture) versions(t testing.TB, n int64) {
	t.Helper()
	for {
		var latest int64
		if err := f.g.Raw("SELECT coalesce(max(version), 0) FROM blocklist_versions").Scan(&latest).Error; err != nil {
			t.Fatal(err)
		}
		if latest >= n {
			return
		}
		if err := f.g.Exec("INSERT INTO blocklist_versions (generated_at, digest, entries) VALUES (now(), '\\x00', 0)").Error; err != nil {
			t.Fatal(err)
		}
	}
}

// DOMAIN.md §6 (a check record is evidence of what a gate answered): a
// batch holding anything that is not a real check is 422 problem+json
// naming the field and its rule, never a 500, and nothing of it is stored:
// blocked missing or null (required); version missing or null (required),
// negative or above the court's latest version (range), not an integer;
// checked_at before 2023-06-14T00:00:00-03:00 (Lei 14.597/2023) or more
// than 5 minutes ahead (instant); records missing, null or empty
// (required); batch_id and device with control or invisible characters
// (textcheck), too long in characters (max), batch_id empty (required).
func TestBlocklistChecksUpload_RefusesWhatIsNotACheck_422_DOMAIN_6(t *testing.T) {
	f := newFixture(t)
	f.versions(t, 7)
	var latest int64
	f.g.Raw("SELECT max(version) FROM blocklist_versions").Scan(&latest)
	at := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	ahead := time.Now().Add(10 * time.Minute).UTC().Format(time.RFC3339)
	rec := func(members string) string {
		return `{"batch_id": "lote-1", "device": "Catraca Leste 3", "records": [{"cpf": "663.923.321-54", "checked_at": "` + at + `", "version": 7, "blocked": true}, ` + members + `]}`
	}
	good := `{"cpf": "52601815906", "checked_at": "` + at + `", "version": 0, "blocked": false}`
	cases := []struct {
		name, body, field, rule string
	}{
		{"blocked missing", rec(`{"cpf": "52601815906", "checked_at": "` + at + `", "version": 7}`), "records[1].blocked", "required"},
		{"blocked null", rec(`{"cpf": "52601815906", "checked_at": "` + at + `", "version": 7, "blocked": null}`), "records[1].blocked", "required"},
		{"blocked a string", rec(`{"cpf": "52601815906", "checked_at": "` + at + `", "version": 7, "blocked": "sim"}`), "records[1].blocked", "type"},
		{"version missing", rec(`{"cpf": "52601815906", "checked_at": "` + at + `", "blocked": false}`), "records[1].version", "required"},
		{"version null", rec(`{"cpf": "52601815906", "checked_at": "` + at + `", "version": null, "blocked": false}`), "records[1].version", "required"},
		{"version negative", rec(`{"cpf": "52601815906", "checked_at": "` + at + `", "version": -1, "blocked": false}`), "records[1].version", "range"},
		{"version above the latest", rec(`{"cpf": "52601815906", "checked_at": "` + at + `", "version": ` + fmt.Sprint(latest+1) + `, "blocked": false}`), "records[1].version", "range"},
		{"version out of int64", rec(`{"cpf": "52601815906", "checked_at": "` + at + `", "version": 1e400, "blocked": false}`), "records[1].version", "range"},
		{"version not an integer", rec(`{"cpf": "52601815906", "checked_at": "` + at + `", "version": 1.5, "blocked": false}`), "records[1].version", "integer"},
		{"checked_at before Lei 14.597/2023", rec(`{"cpf": "52601815906", "checked_at": "2023-06-13T23:59:59-03:00", "version": 0, "blocked": false}`), "records[1].checked_at", "instant"},
		{"checked_at 10 minutes ahead", rec(`{"cpf": "52601815906", "checked_at": "` + ahead + `", "version": 0, "blocked": false}`), "records[1].checked_at", "instant"},
		{"checked_at missing", rec(`{"cpf": "52601815906", "version": 0, "blocked": false}`), "records[1].checked_at", "instant"},
		{"records missing", `{"batch_id": "lote-1", "device": "Catraca Leste 3"}`, "records", "required"},
		{"records null", `{"batch_id": "lote-1", "device": "Catraca Leste 3", "records": null}`, "records", "required"},
		{"records empty", `{"batch_id": "lote-1", "device": "Catraca Leste 3", "records": []}`, "records", "required"},
		{"batch_id empty", `{"batch_id": "", "device": "Catraca Leste 3", "records": [` + good + `]}`, "batch_id", "required"},
		{"batch_id missing", `{"device": "Catraca Leste 3", "records": [` + good + `]}`, "batch_id", "required"},
		{"batch_id with a bidi override", `{"batch_id": "lote-\u202e1", "device": "Catraca Leste 3", "records": [` + good + `]}`, "batch_id", "no_invisible"},
		{"batch_id with a line break", `{"batch_id": "lote-1\n", "device": "Catraca Leste 3", "records": [` + good + `]}`, "batch_id", "no_control"},
		{"batch_id of 101 characters", `{"batch_id": "` + strings.Repeat("ç", 101) + `", "device": "Catraca Leste 3", "records": [` + good + `]}`, "batch_id", "max"},
		{"device with a zero-width space", `{"batch_id": "lote-1", "device": "Catraca\u200b Leste 3", "records": [` + good + `]}`, "device", "no_invisible"},
		{"device with an escape character", `{"batch_id": "lote-1", "device": "Catraca \u001b[31mLeste", "records": [` + good + `]}`, "device", "no_control"},
		{"device of 201 characters", `{"batch_id": "lote-1", "device": "` + strings.Repeat("é", 201) + `", "records": [` + good + `]}`, "device", "max"},
	}
	stored := func() (n int64) {
		f.g.Raw("SELECT (SELECT count(*) FROM blocklist_checks WHERE user_id = ?) + (SELECT count(*) FROM blocklist_check_batches WHERE user_id = ?)", f.users["club"].ID, f.users["club"].ID).Scan(&n)
		return n
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := f.do("POST", "/api/v1/blocklist/checks", f.tokens["club"], "application/json", []byte(c.body), "")
			var p struct {
				Errors []struct{ Field, Rule, Message string }
			}
			_ = json.Unmarshal(r.Body.Bytes(), &p)
			named := false
			for _, e := range p.Errors {
				named = named || e.Field == c.field && e.Rule == c.rule && e.Message != ""
			}
			if r.Code != 422 || !strings.HasPrefix(r.Header().Get("Content-Type"), "application/problem+json") || !named {
				t.Errorf("%d %s %s, want 422 problem+json naming %s (rule %s)", r.Code, r.Header().Get("Content-Type"), r.Body, c.field, c.rule)
			}
			if n := stored(); n != 0 {
				t.Errorf("a refused batch stored %d rows", n)
			}
		})
	}
	// The refusals used up nothing: lote-1 of real checks, version 0 (no
	// list of this court yet) and the latest, blocked false, the first
	// instant of 14/06/2023 in Brasília, is stored.
	body := `{"batch_id": "lote-1", "device": "Catraca Leste 3", "records": [` + good + `,` +
		`{"cpf": "663.923.321-54", "checked_at": "2023-06-14T00:00:00-03:00", "version": ` + fmt.Sprint(latest) + `, "blocked": true}]}`
	if code, out, m := f.send(t, "POST", "/api/v1/blocklist/checks", "club", "application/json", body); code != 201 || m["stored"] != float64(2) {
		t.Fatalf("a batch of real checks: %d %s", code, out)
	}
	if n := stored(); n != 3 {
		t.Errorf("%d rows stored, want 2 records and their batch", n)
	}
}
