package web_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/sanctions"
)

// courtDay returns the first day from after days on that has court
// business (no weekend, national holiday or recess: CPP arts. 792 and
// 798-A), at hh:00 in São Paulo.
func courtDay(t *testing.T, from time.Time, after, hh int) time.Time {
	t.Helper()
	for i := after; i < after+60; i++ {
		d := from.In(testenv.SaoPaulo).AddDate(0, 0, i)
		if ok, _, _ := sanctions.MayHoldHearing(sanctions.HearingQuery{Day: civil.Of(d)}); ok {
			return time.Date(d.Year(), d.Month(), d.Day(), hh, 0, 0, 0, testenv.SaoPaulo)
		}
	}
	t.Fatal("no court day in 60 days")
	return time.Time{}
}

// Issue 30 over HTTP: GET /api/v1/desk as the clerk and the judge lists a
// hearing of the week with its parties (the police has no desk: 403);
// /painel shows the queue in Portuguese with the case number linking to
// the case's hearings; a second preliminary hearing is 422 on kind; the
// hearing acts answer problem+json 422 naming the field (a Saturday, a
// reason missing), 409 once the hearing is closed; the agenda names the
// parties and links to the hearing's acts; the case page's
// redesignation form shows its error next to the field and redesignates.
func TestDeskAndHearingActsOverHTTP(t *testing.T) {
	f := newFixture(t)
	c := f.fileCase(t, "R1")
	id := int(c["id"].(float64))
	number := c["number"].(string)
	now := f.clk.Now()
	day := courtDay(t, now, 1, 14)
	week := day.Sub(now) < 6*24*time.Hour && civil.Of(day.In(testenv.SaoPaulo)).Before(civil.Of(now.In(testenv.SaoPaulo)).AddDays(7))
	body := fmt.Sprintf(`{"kind": "preliminary", "starts_at": %q, "room": "Sala 2"}`, day.Format(time.RFC3339))
	code, b, h := f.send(t, "POST", fmt.Sprintf("/api/v1/cases/%d/hearings", id), "clerk", "application/json", body)
	if code != 201 {
		t.Fatalf("schedule: %d %s", code, b)
	}
	hid := int(h["id"].(float64))
	later := courtDay(t, day, 1, 10)
	code, b, _ = f.send(t, "POST", fmt.Sprintf("/api/v1/cases/%d/hearings", id), "clerk", "application/json",
		fmt.Sprintf(`{"kind": "preliminary", "starts_at": %q, "room": "Sala 3"}`, later.Format(time.RFC3339)))
	if code != 422 || !strings.Contains(b, `"kind"`) || !strings.Contains(b, "one_open") {
		t.Errorf("second preliminary hearing: %d %s", code, b)
	}

	for _, role := range []string{"clerk", "judge"} {
		code, b, _ := f.send(t, "GET", "/api/v1/desk", role, "", "")
		var v struct {
			Queues []struct {
				Kind  string
				Count int
				Items []struct {
					CaseID  int `json:"case_id"`
					Number  string
					Parties []string
				}
			}
		}
		if code != 200 || json.Unmarshal([]byte(b), &v) != nil {
			t.Fatalf("desk as %s: %d %s", role, code, b)
		}
		kind := "hearings_today"
		if week {
			kind = "hearings_week"
		}
		found := false
		for _, q := range v.Queues {
			if q.Kind == kind && q.Count == 1 && q.Items[0].CaseID == id && q.Items[0].Number == number &&
				len(q.Items[0].Parties) == 2 && q.Items[0].Parties[0] == "Ministério Público" {
				found = true
			}
		}
		if !found && (week || civil.Of(day.In(testenv.SaoPaulo)) == civil.Of(now.In(testenv.SaoPaulo))) {
			t.Errorf("desk as %s lacks the hearing in %s: %s", role, kind, b)
		}
	}
	if code, _, _ := f.send(t, "GET", "/api/v1/desk", "police", "", ""); code != 403 {
		t.Errorf("desk as police: %d", code)
	}
	page := f.browser(t, "clerk").do("GET", "/painel", nil).Body.String()
	if !strings.Contains(page, "Prazos de recurso que terminam hoje") || strings.Contains(page, "hearings_week") {
		t.Errorf("/painel lacks the clerk's queues or shows a kind")
	}
	if week && !strings.Contains(page, fmt.Sprintf(`<a href="/processos/%d#audiencias">%s</a>`, id, number)) {
		t.Errorf("/painel lacks the hearing's case linked to its hearings")
	}

	hearing := func(act string) string { return fmt.Sprintf("/api/v1/hearings/%d/%s", hid, act) }
	saturday := day
	for saturday.Weekday() != time.Saturday {
		saturday = saturday.AddDate(0, 0, 1)
	}
	code, b, _ = f.send(t, "POST", hearing("redesignate"), "clerk", "application/json", fmt.Sprintf(`{"starts_at": %q, "reason": "pauta"}`, saturday.Format(time.RFC3339)))
	if code != 422 || !strings.Contains(b, `"starts_at"`) || !strings.Contains(b, "sábado") {
		t.Errorf("redesignate to a Saturday: %d %s", code, b)
	}
	code, b, _ = f.send(t, "POST", hearing("cancel"), "clerk", "application/json", `{"reason": ""}`)
	if code != 422 || !strings.Contains(b, `"reason"`) {
		t.Errorf("cancel without a reason: %d %s", code, b)
	}
	if code, b, _ = f.send(t, "POST", hearing("cancel"), "judge", "application/json", `{"reason": "x"}`); code != 403 {
		t.Errorf("cancel as judge: %d %s", code, b)
	}
	if code, b, v := f.send(t, "POST", hearing("cancel"), "clerk", "application/json", `{"reason": "réu não localizado"}`); code != 200 || v["status"] != "cancelled" {
		t.Fatalf("cancel: %d %s", code, b)
	}
	if code, b, _ = f.send(t, "POST", hearing("result"), "clerk", "application/json", `{"held": true, "text": "x"}`); code != 409 {
		t.Errorf("result of a cancelled hearing: %d %s", code, b)
	}

	// The case page's redesignation form.
	code, b, h = f.send(t, "POST", fmt.Sprintf("/api/v1/cases/%d/hearings", id), "clerk", "application/json", body)
	if code != 201 {
		t.Fatalf("schedule again: %d %s", code, b)
	}
	hid = int(h["id"].(float64))
	clerk := f.browser(t, "clerk")
	caseURL := fmt.Sprintf("/processos/%d", id)
	name := c["defendants"].([]any)[0].(map[string]any)["full_name"].(string)
	agenda := clerk.do("GET", "/audiencias?from="+day.Format("02/01/2006")+"&to="+day.Format("02/01/2006"), nil).Body.String()
	if !strings.Contains(agenda, "Ministério Público; "+name) || !strings.Contains(agenda, caseURL+"#audiencia-atos") {
		t.Errorf("the agenda lacks the parties or the link to the hearing's acts")
	}
	if p := clerk.do("GET", caseURL, nil).Body.String(); !strings.Contains(p, "Redesignar") || !strings.Contains(p, "(designada)") {
		t.Errorf("the case page lacks the hearing's acts or its status in Portuguese")
	}
	form := url.Values{"red.hearing_id": {fmt.Sprint(hid)}, "red.date": {later.Format("02/01/2006")}, "red.starts": {"10:00"}, "red.reason": {""}}
	if rec := clerk.do("POST", caseURL+"/audiencias/redesignacao", form); rec.Code != 422 || !strings.Contains(rec.Body.String(), `id="f-red-reason-erro"`) {
		t.Errorf("redesignation without a reason: %d", rec.Code)
	}
	form.Set("red.reason", "pedido da defesa")
	if rec := clerk.do("POST", caseURL+"/audiencias/redesignacao", form); rec.Code != 303 {
		t.Fatalf("redesignation: %d %s", rec.Code, rec.Body)
	}
	var n int64
	if err := f.g.Raw("SELECT count(*) FROM hearings WHERE case_id = ? AND status = 'scheduled' AND redesignated_from = ?", id, hid).Scan(&n).Error; err != nil || n != 1 {
		t.Errorf("redesignated hearings: %d %v", n, err)
	}
}
