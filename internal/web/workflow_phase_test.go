package web_test

import (
	"fmt"
	"strings"
	"testing"
)

// POST /api/v1/cases/{id}/plea on a case in distributed is a 409 conflict
// about the case's phase, with no field (it answered 422 on "to", which the
// request does not have), as the other workflow conflicts are.
func TestPleaOutOfPhaseIs409(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	id, def, status := w.file("R1")
	if status != "distributed" {
		t.Fatalf("status %s, want distributed", status)
	}
	rec, _ := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/plea", id), "prosecutor", map[string]any{"defendant_id": def, "months": 6})
	w.want(rec, 409, "plea offer in distributed")
	if body := rec.Body.String(); strings.Contains(body, `"field"`) || !strings.Contains(body, "distribuído") || !strings.Contains(rec.Header().Get("Content-Type"), "application/problem+json") {
		t.Errorf("plea offer in distributed: %s", body)
	}
}
