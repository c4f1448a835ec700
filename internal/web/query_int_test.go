package web_test

import (
	"fmt"
	"strings"
	"testing"
)

// Integer query parameters are read by one reader (server.IntParam), with
// the body reader's rules (BindJSON): text that is no integer is 422 rule
// "integer"; an integer outside the parameter's limits (below its minimum,
// above its maximum, beyond an int64) is 422 rule "range", the message
// naming the parameter and the limits; never ignored (record_id=2^66
// answered 200 with an empty list), never a 500; a valid value still
// answers as before.
func TestQueryIntegersIntegerAndRangeRules(t *testing.T) {
	f := newFixture(t)
	c := f.fileCase(t, "R1")
	caseID := int64(c["id"].(float64))
	def := int64(c["defendants"].([]any)[0].(map[string]any)["id"].(float64))
	judge := f.users["judge"].ID
	for _, tc := range []struct {
		role, path, field, rule, inMessage string
	}{
		// The audit trail: record_id was looked for as text, so an id
		// beyond an int64 found nothing and answered 200.
		{"judge", "/api/v1/audit?record_id=99999999999999999999", "record_id", "range", "record_id deve ser um número inteiro de 1 a 9223372036854775807"},
		{"judge", "/api/v1/audit?table=cases&record_id=-5", "record_id", "range", "-5 está fora desse intervalo"},
		{"judge", "/api/v1/audit?record_id=0", "record_id", "range", "de 1 a 9223372036854775807"},
		{"judge", "/api/v1/audit?actor_id=99999999999999999999", "actor_id", "range", "actor_id deve ser um número inteiro de 1 a 9223372036854775807"},
		{"judge", "/api/v1/audit?actor_id=0", "actor_id", "range", "de 1 a"},
		{"judge", "/api/v1/audit?actor_id=1.5", "actor_id", "integer", `não "1.5"`},
		{"judge", "/api/v1/audit?page=1.5", "page", "integer", "page deve ser um número inteiro de 1 a 1000000"},
		{"judge", "/api/v1/audit?page=-1", "page", "range", "page deve ser um número inteiro de 1 a 1000000: -1 está fora desse intervalo."},
		{"judge", "/api/v1/audit?limit=1001", "limit", "range", "de 1 a 1000"},
		// The case list: page=-1 was rule "integer".
		{"judge", "/api/v1/cases?page=-1", "page", "range", "page deve ser um número inteiro de 1 a 1000000: -1 está fora desse intervalo."},
		{"judge", "/api/v1/cases?page=0", "page", "range", "de 1 a 1000000"},
		{"judge", "/api/v1/cases?page=1.5", "page", "integer", `page deve ser um número inteiro de 1 a 1000000, não "1.5".`},
		{"judge", "/api/v1/cases?page=1e3", "page", "integer", `não "1e3"`},
		{"judge", "/api/v1/cases?page=9223372036854775807", "page", "range", "de 1 a 1000000"}, // (page-1)·per_page overflowed the offset
		{"judge", "/api/v1/cases?page=99999999999999999999", "page", "range", "de 1 a 1000000"},
		{"judge", "/api/v1/cases?per_page=101", "per_page", "range", "per_page deve ser um número inteiro de 1 a 100"},
		{"judge", "/api/v1/cases?per_page=x", "per_page", "integer", `não "x"`},
		{"judge", "/api/v1/cases?judge_id=99999999999999999999", "judge_id", "range", "judge_id deve ser um número inteiro de 1 a 9223372036854775807"},
		{"judge", "/api/v1/cases?judge_id=-1", "judge_id", "range", "de 1 a"},
		{"judge", "/api/v1/cases?judge_id=x", "judge_id", "integer", `não "x"`},
		// The change feed: since=-1 was rule "min", limit above 1000 and
		// wait above 30 were cut down silently.
		{"club", "/api/v1/blocklist/changes?since=-1", "since", "range", "since deve ser um número inteiro de 0 a 9223372036854775807"},
		{"club", "/api/v1/blocklist/changes?since=99999999999999999999", "since", "range", "de 0 a 9223372036854775807"},
		{"club", "/api/v1/blocklist/changes?since=1.5", "since", "integer", `não "1.5"`},
		{"club", "/api/v1/blocklist/changes?since=", "since", "integer", `não ""`},
		// The feed's limit and wait: above their maximum cut to it (API.md:
		// limit "default and maximum 1000"; below), below their minimum refused.
		{"club", "/api/v1/blocklist/changes?since=0&limit=0", "limit", "range", "limit deve ser um número inteiro de mudanças, de 1 em diante (acima de 1000 vale 1000)"},
		{"club", "/api/v1/blocklist/changes?since=0&wait=-1", "wait", "range", "wait deve ser um número inteiro de segundos, de 0 em diante (acima de 30 vale 30)"},
		{"club", "/api/v1/blocklist/changes?since=0&wait=99999999999999999999", "wait", "range", "acima de 30 vale 30"},
		{"club", "/api/v1/blocklist/changes?since=0&wait=x", "wait", "integer", "wait deve ser um número inteiro de segundos"},
		// The ban term: months=1.5 was rule "range".
		{"", "/api/v1/legal/ban-term?first_day=2024-02-01&months=1.5", "months", "integer", "months deve ser um número inteiro de 1 a 1200"},
		{"", "/api/v1/legal/ban-term?first_day=2024-02-01&months=1201", "months", "range", "de 1 a 1200"},
		{"", "/api/v1/legal/ban-term?first_day=2024-02-01&months=99999999999999999999", "months", "range", "de 1 a 1200"},
		{"", "/api/v1/legal/ban-term?first_day=2024-02-01", "months", "required", "informe months"},
		// Holidays: year=1999 was rule "integer".
		{"judge", "/api/v1/holidays?year=1999", "year", "range", "year deve ser um número inteiro de 2000 a 2200"},
		{"judge", "/api/v1/holidays?year=20x5", "year", "integer", `não "20x5"`},
		// Documents: the id of the ban or the defendant.
		{"judge", fmt.Sprintf("/api/v1/cases/%d/documents/sentence.pdf?defendant_id=99999999999999999999", caseID), "defendant_id", "range", "defendant_id deve ser um número inteiro de 1 a 9223372036854775807"},
		{"judge", fmt.Sprintf("/api/v1/cases/%d/documents/sentence.pdf?ban_id=0", caseID), "ban_id", "range", "de 1 a"},
		{"judge", fmt.Sprintf("/api/v1/cases/%d/documents/sentence.pdf?ban_id=1.5", caseID), "ban_id", "integer", `não "1.5"`},
	} {
		code, out, m := f.send(t, "GET", tc.path, tc.role, "", "")
		fields, _ := m["errors"].([]any)
		if code != 422 || len(fields) != 1 {
			t.Errorf("%s: %d %s, want 422 with one field error", tc.path, code, out)
			continue
		}
		fe := fields[0].(map[string]any)
		if fe["field"] != tc.field || fe["rule"] != tc.rule || !strings.Contains(fe["message"].(string), tc.inMessage) {
			t.Errorf("%s: %v, want field %s, rule %s, a message with %q", tc.path, fe, tc.field, tc.rule, tc.inMessage)
		}
	}

	// Valid values answer as before: 200, the value read.
	var recordID string
	if err := f.g.Raw("SELECT record_id FROM audit_log WHERE domain = '26.0100' AND table_name = 'cases' ORDER BY id LIMIT 1").Scan(&recordID).Error; err != nil || recordID != fmt.Sprint(caseID) {
		t.Fatalf("the filing's audit row: %q %v, want record %d", recordID, err, caseID)
	}
	code, out, m := f.send(t, "GET", "/api/v1/audit?table=cases&record_id="+recordID+"&page=1&per_page=1000&actor_id="+fmt.Sprint(f.users["prosecutor"].ID), "judge", "", "")
	if items, _ := m["items"].([]any); code != 200 || len(items) == 0 || m["page"] != float64(1) || m["per_page"] != float64(1000) {
		t.Errorf("audit of the case's record: %d %s", code, out)
	}
	// A court's code is a record key too: looked for as written.
	if code, out, m = f.send(t, "GET", "/api/v1/audit?record_id=26.0100&page=+2&limit=%201%20", "judge", "", ""); code != 200 || m["page"] != float64(2) || m["per_page"] != float64(1) {
		t.Errorf("record_id as a court's code: %d %s", code, out)
	}
	code, out, m = f.send(t, "GET", fmt.Sprintf("/api/v1/cases?page=1&per_page=100&judge_id=%d", judge), "judge", "", "")
	if code != 200 || m["items"] == nil {
		t.Errorf("cases, valid page: %d %s", code, out)
	}
	if code, out, m = f.send(t, "GET", "/api/v1/cases?page=1000000&per_page=100", "judge", "", ""); code != 200 || len(m["items"].([]any)) != 0 {
		t.Errorf("cases, the last page allowed: %d %s", code, out)
	}
	if code, out, m = f.send(t, "GET", "/api/v1/cases?per_page=1", "judge", "", ""); code != 200 || len(m["items"].([]any)) != 1 {
		t.Errorf("cases, per_page=1: %d %s", code, out)
	}
	if code, out, m = f.send(t, "GET", "/api/v1/blocklist/changes?since=0&limit=1000&wait=0", "club", "", ""); code != 200 || m["from"] != float64(0) {
		t.Errorf("feed, valid limit and wait: %d %s", code, out)
	}
	if code, out, m = f.send(t, "GET", "/api/v1/blocklist/changes?since=0&limit=5000&wait=0", "club", "", ""); code != 200 || m["from"] != float64(0) || len(m["changes"].([]any)) > 1000 {
		t.Errorf("feed, limit above 1000 (cut to 1000): %d %s", code, out)
	}
	if code, out, m = f.send(t, "GET", "/api/v1/legal/ban-term?first_day=2024-02-01&months=1200", "", "", ""); code != 200 || m["months"] != float64(1200) {
		t.Errorf("ban term, 1200 months: %d %s", code, out)
	}
	if code, out, _ = f.send(t, "GET", "/api/v1/holidays?year=2200", "judge", "", ""); code != 200 {
		t.Errorf("holidays of 2200: %d %s", code, out)
	}
	if code, out, _ = f.send(t, "GET", fmt.Sprintf("/api/v1/cases/%d/documents/sentence.pdf?defendant_id=%d", caseID, def), "judge", "", ""); code != 404 {
		// No decision yet: the valid id is read and the sentence not found.
		t.Errorf("sentence of a defendant not yet sentenced: %d %s", code, out)
	}
}
