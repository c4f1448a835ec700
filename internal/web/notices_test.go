package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Electronic notices to the defence over HTTP (Lei 11.419/2006, art. 5º;
// issue 29, item 3): the clerk's case page offers "intimação eletrônica à
// defesa"; the clerk makes the notice available (201, pending, counting on
// the tenth day if not opened); the linked lawyer lists it with the days
// left, another lawyer lists nothing and gets 404 opening it, the clerk 403
// on the defence's list; the lawyer opens it on Friday 13/06/2025 on the
// "Intimações" page: it counts that Friday, the window runs to 25/06,
// opening again through the API is idempotent (the first day kept, two
// openings); the final judgment is 409 on the last day and goes through
// the day after. The list of notices is an audited read of the client's
// data.
func TestElectronicNoticeToTheDefence_Lei11419_art5_OverHTTP(t *testing.T) {
	w := newWF(t)
	id, def := sentencedOverHTTP(w)
	w.notify(id, "prosecution", def, "2025-06-10", true)
	w.notify(id, "defendant", def, "2025-06-10", true)
	w.defenceUser("lawyer", "Dra. Ana Advogada", "SP123456", "")
	w.defenceUser("other", "Dr. Outro Advogado", "RJ654321", "")
	rec, _ := w.do("PUT", fmt.Sprintf("/api/v1/cases/%d/defendants/%d/counsel", id, def), "clerk", map[string]any{"user": "Dra. Ana Advogada"})
	w.want(rec, 201, "linking the lawyer")
	if page := w.browser("wf-clerk").do("GET", fmt.Sprintf("/processos/%d", id), nil).Body.String(); !strings.Contains(page, `name="int.electronic"`) || !strings.Contains(page, "Intimação eletrônica à defesa") {
		t.Error("the clerk's notice form does not offer the electronic notice to the defence")
	}

	rec, n := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/notifications", id), "clerk", map[string]any{"party": "defence", "defendant_id": def, "electronic": true})
	w.want(rec, 201, "the electronic notice made available")
	if n["electronic"] != true || n["pending"] != true || n["available_on"] != "2025-06-10" || n["counts_on"] != "2025-06-20" {
		t.Errorf("made available: %s", rec.Body)
	}
	rec, list := w.do("GET", "/api/v1/defence/notices", "lawyer", nil)
	w.want(rec, 200, "the lawyer's notices")
	items := list["items"].([]any)
	if len(items) != 1 {
		t.Fatalf("the lawyer lists %d notices: %s", len(items), rec.Body)
	}
	it := items[0].(map[string]any)
	nid := int64(it["id"].(float64))
	if it["pending"] != true || it["opened_on"] != nil || it["counts_on"] != "2025-06-20" || it["last_day"] != "2025-07-02" || it["days_left"] != float64(23) {
		t.Errorf("pending notice: %v", it)
	}
	var reads int64
	if err := w.g.Raw(`SELECT count(*) FROM audit_log WHERE action = 'read' AND role = 'defence' AND table_name = 'defendants'
		AND record_id = ? AND after->>'via' = 'defence_notices'`, fmt.Sprint(def)).Scan(&reads).Error; err != nil {
		t.Fatal(err)
	}
	if reads != 1 {
		t.Errorf("%d audited reads of the client's name on the notices list, want 1", reads)
	}
	rec, list = w.do("GET", "/api/v1/defence/notices", "other", nil)
	w.want(rec, 200, "another lawyer's notices")
	if len(list["items"].([]any)) != 0 {
		t.Errorf("another lawyer lists %s", rec.Body)
	}
	open := fmt.Sprintf("/api/v1/defence/notices/%d/open", nid)
	rec, _ = w.do("POST", open, "other", nil)
	w.want(rec, 404, "another lawyer opens the notice")
	if !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/problem+json") {
		t.Errorf("404 is %s", rec.Header().Get("Content-Type"))
	}
	rec, _ = w.do("GET", "/api/v1/defence/notices", "clerk", nil)
	w.want(rec, 403, "the clerk on the defence's list")

	w.clk.Set(time.Date(2025, 6, 13, 15, 0, 0, 0, w.loc)) // a Friday
	lawyer := w.browser("Dra. Ana Advogada")
	page := lawyer.do("GET", "/intimacoes", nil)
	if page.Code != 200 || !strings.Contains(page.Body.String(), fmt.Sprintf(`action="/intimacoes/%d/abrir"`, nid)) || !strings.Contains(page.Body.String(), "20/06/2025") {
		t.Fatalf("the notices page: %d %s", page.Code, page.Body)
	}
	if rec := lawyer.do("POST", fmt.Sprintf("/intimacoes/%d/abrir", nid), nil); rec.Code != 303 {
		t.Fatalf("opening on the page: %d %s", rec.Code, rec.Body)
	}
	body := lawyer.do("GET", "/intimacoes", nil).Body.String()
	if !strings.Contains(body, "considera-se feita em 13/06/2025") || !strings.Contains(body, "25/06/2025") || strings.Contains(body, "/abrir") {
		t.Errorf("after the opening the page shows: %s", body)
	}
	w.clk.Set(time.Date(2025, 6, 16, 10, 0, 0, 0, w.loc))
	rec, v := w.do("POST", open, "lawyer", nil)
	w.want(rec, 200, "opening again")
	if v["opened_on"] != "2025-06-13" || v["counts_on"] != "2025-06-13" || v["last_day"] != "2025-06-25" || v["openings"] != float64(2) || v["pending"] != false {
		t.Errorf("opened again: %s", rec.Body)
	}

	w.clk.Set(time.Date(2025, 6, 25, 12, 0, 0, 0, w.loc))
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", id), "clerk", map[string]any{"to": "final", "defendant_id": def})
	w.want(rec, 409, "final judgment on the defence's last day")
	w.clk.Set(time.Date(2025, 6, 26, 12, 0, 0, 0, w.loc))
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", id), "clerk", map[string]any{"to": "final", "defendant_id": def})
	w.want(rec, 200, "final judgment the day after")
}
