package web_test

import (
	"encoding/json"
	"fmt"
	"testing"
)

// POST /api/v1/cases with persons and fan groups (API.md; DOMAIN.md §4):
// 201 with the criminal case and linked_case {id, number} of the civil
// one, which links back the same way.
func TestFileMixed_DOMAIN4_LinkedCaseOverHTTP(t *testing.T) {
	f := newFixture(t)
	var r5, r1 map[string]any
	if err := json.Unmarshal([]byte(representation(t, "R5")), &r5); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(representation(t, "R1")), &r1); err != nil {
		t.Fatal(err)
	}
	r5["defendants"] = append(r1["defendants"].([]any), r5["defendants"].([]any)...)
	body, _ := json.Marshal(r5)
	code, raw, m := f.send(t, "POST", "/api/v1/cases", "prosecutor", "application/json", string(body))
	if code != 201 || m["flow"] != "criminal" {
		t.Fatalf("mixed filing: %d %s", code, raw)
	}
	lc, ok := m["linked_case"].(map[string]any)
	if !ok || lc["number"] == "" || lc["number"] == m["number"] {
		t.Fatalf("linked_case %v", m["linked_case"])
	}
	code, raw, civ := f.send(t, "GET", fmt.Sprintf("/api/v1/cases/%d", int(lc["id"].(float64))), "prosecutor", "", "")
	back, _ := civ["linked_case"].(map[string]any)
	if code != 200 || civ["flow"] != "civil" || back == nil || back["id"] != m["id"] || back["number"] != m["number"] {
		t.Errorf("civil case: %d %s", code, raw)
	}
	if ds := civ["defendants"].([]any); len(ds) != 1 || ds[0].(map[string]any)["kind"] != "fan_group" {
		t.Errorf("civil defendants %v", ds)
	}
	if ds := m["defendants"].([]any); len(ds) != 1 || ds[0].(map[string]any)["kind"] != "person" {
		t.Errorf("criminal defendants %v", ds)
	}
}
