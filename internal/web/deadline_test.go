package web_test

import (
	"strings"
	"testing"
)

// GET /api/v1/legal/deadline with no login (API.md "Legal computations"):
// CPP art. 798, § 1º, with Súmula 310 do STF (a Friday notice starts the
// criminal window on Monday), CPC art. 1.003, § 5º (15 working days for
// group cases), the court's holidays with court=TR.OOOO, and 422
// problem+json naming the field for bad parameters.
func TestLegalDeadline_Sumula310_CPC_art1003_NoLogin(t *testing.T) {
	f := newFixture(t)
	code, body, m := f.send(t, "GET", "/api/v1/legal/deadline?notified_on=2025-06-06&kind=criminal_appeal", "", "", "")
	if code != 200 || m["notified_on"] != "2025-06-06" || m["first_day"] != "2025-06-09" || m["last_day"] != "2025-06-18" || m["days"] != float64(10) ||
		!strings.Contains(m["rule"].(string), "art. 82, § 1º") {
		t.Fatalf("Friday notice: %d %s", code, body)
	}
	if sk, ok := m["skipped"].([]any); !ok || len(sk) != 2 || sk[0].(map[string]any)["date"] != "2025-06-07" || sk[0].(map[string]any)["why"] != "sábado" {
		t.Errorf("skipped %v", m["skipped"])
	}
	// The court's calendar: Corpus Christi on 19/06/2025.
	code, body, _ = f.send(t, "POST", "/api/v1/holidays", "clerk", "application/json", `{"date": "2025-06-19", "name": "Corpus Christi"}`)
	if code != 201 {
		t.Fatalf("holiday: %d %s", code, body)
	}
	code, body, m = f.send(t, "GET", "/api/v1/legal/deadline?notified_on=2025-06-16&kind=civil_appeal&court=26.0100", "", "", "")
	if code != 200 || m["first_day"] != "2025-06-17" || m["last_day"] != "2025-07-08" || m["days"] != float64(15) || !strings.Contains(m["rule"].(string), "1.003, § 5º") {
		t.Errorf("civil with the court's calendar: %d %s", code, body)
	}
	code, body, m = f.send(t, "GET", "/api/v1/legal/deadline?notified_on=2025-06-16&kind=civil_appeal", "", "", "")
	if code != 200 || m["last_day"] != "2025-07-07" {
		t.Errorf("civil without a court: %d %s", code, body)
	}
	for _, tc := range []struct{ query, field string }{
		{"kind=criminal_appeal", "notified_on"},
		{"notified_on=2025-02-30&kind=criminal_appeal", "notified_on"},
		{"notified_on=2025-06-06", "kind"},
		{"notified_on=2025-06-06&kind=recurso", "kind"},
		{"notified_on=2025-06-06&kind=criminal_appeal&court=abc", "court"},
		{"notified_on=2025-06-06&kind=criminal_appeal&court=26.0999", "court"},
		{"notified_on=2025-06-06&kind=criminal_appeal&court=99.9999", "court"},
	} {
		code, body, _ := f.send(t, "GET", "/api/v1/legal/deadline?"+tc.query, "", "", "")
		if code != 422 || !strings.Contains(body, `"field":"`+tc.field+`"`) {
			t.Errorf("%s: %d %s, want 422 on %s", tc.query, code, body, tc.field)
		}
		if strings.Contains(tc.query, "court=99.9999") && strings.Contains(body, "TR.OOOO") {
			t.Errorf("court 99.9999 is written TR.OOOO; the answer should say TR 99 is no state court: %s", body)
		}
	}
}
