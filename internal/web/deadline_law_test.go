package web_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// GET /api/v1/legal/deadline with the parameters of the calendar the law
// fixes (API.md "Legal computations", DOMAIN.md §4): 20 November 2024 built
// in (Lei 14.759/2023); the criminal recess (CPP art. 798-A) and its
// exception; the Defensoria Pública's doubled window (LC 80/1994, art. 128,
// I); the prosecution's civil window doubled (CPC art. 180); 422 naming
// party, public_defender or recess_exception.
func TestLegalDeadline_CPP798A_Lei14759_LC80_CPC180_Parameters(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		query, last string
		days        float64
		rule        string
	}{
		{"notified_on=2024-11-08&kind=criminal_appeal", "2024-11-21", 10, "Súmula 310"},
		{"notified_on=2025-12-15&kind=criminal_appeal", "2026-01-26", 10, "art. 798-A"},
		{"notified_on=2025-12-15&kind=criminal_appeal&recess_exception=custody", "2025-12-26", 10, "798-A, I"},
		{"notified_on=2025-06-03&kind=criminal_appeal&party=defence&public_defender=true", "2025-06-23", 20, "LC 80/1994"},
		{"notified_on=2025-06-23&kind=civil_appeal&party=prosecution", "2025-08-04", 30, "CPC, art. 180"},
		// The windows of the embargos and of the recurso extraordinário.
		{"notified_on=2025-06-03&kind=criminal_embargos", "2025-06-09", 5, "art. 83"},
		{"notified_on=2025-06-23&kind=civil_embargos", "2025-06-30", 5, "1.023"},
		{"notified_on=2025-06-03&kind=criminal_extraordinary", "2025-06-18", 15, "102"},
	} {
		code, body, m := f.send(t, "GET", "/api/v1/legal/deadline?"+tc.query, "", "", "")
		if code != 200 || m["last_day"] != tc.last || m["days"] != tc.days || !strings.Contains(fmt.Sprint(m["rule"]), tc.rule) {
			t.Errorf("%s: %d %s, want last day %s, %v days, rule with %q", tc.query, code, body, tc.last, tc.days, tc.rule)
		}
	}
	for _, tc := range []struct{ query, field string }{
		{"notified_on=2025-06-06&kind=criminal_appeal&party=judge", "party"},
		{"notified_on=2025-06-06&kind=criminal_appeal&party=defence&public_defender=talvez", "public_defender"},
		{"notified_on=2025-06-06&kind=criminal_appeal&party=defendant&public_defender=true", "public_defender"},
		{"notified_on=2025-06-06&kind=criminal_appeal&recess_exception=ferias", "recess_exception"},
		{"notified_on=2025-06-06&kind=civil_appeal&recess_exception=custody", "recess_exception"},
		{"notified_on=2025-06-06&kind=agravo", "kind"},
	} {
		code, body, _ := f.send(t, "GET", "/api/v1/legal/deadline?"+tc.query, "", "", "")
		if code != 422 || !strings.Contains(body, `"field":"`+tc.field+`"`) {
			t.Errorf("%s: %d %s, want 422 on %s", tc.query, code, body, tc.field)
		}
	}
}

// The court's calendar is the clerk's to edit: DELETE /api/v1/holidays/{id}
// removes a day (clerk; 403 for the judge; 404 for an unknown one), and the
// deadline counted with the court no longer skips it (CPP art. 798, § 3º).
func TestRemoveHoliday_CPP798_sec3_OverHTTP(t *testing.T) {
	f := newFixture(t)
	code, body, h := f.send(t, "POST", "/api/v1/holidays", "clerk", "application/json", `{"date": "2025-06-19", "name": "Corpus Christi"}`)
	if code != 201 {
		t.Fatalf("holiday: %d %s", code, body)
	}
	path := fmt.Sprintf("/api/v1/holidays/%d", int64(h["id"].(float64)))
	if code, body, _ := f.send(t, "DELETE", path, "judge", "", ""); code != 403 {
		t.Errorf("judge removes: %d %s", code, body)
	}
	if code, body, _ := f.send(t, "DELETE", "/api/v1/holidays/999999", "clerk", "", ""); code != 404 {
		t.Errorf("unknown: %d %s", code, body)
	}
	if code, body, m := f.send(t, "DELETE", path, "clerk", "", ""); code != 200 || m["name"] != "Corpus Christi" {
		t.Errorf("clerk removes: %d %s", code, body)
	}
	if code, body, m := f.send(t, "GET", "/api/v1/legal/deadline?notified_on=2025-06-09&kind=criminal_appeal&court=26.0100", "", "", ""); code != 200 || m["last_day"] != "2025-06-19" {
		t.Errorf("after the removal: %d %s", code, body)
	}
}

// POST /api/v1/cases/{id}/hearings in the criminal recess is 422 on
// starts_at citing CPP art. 798-A (API.md "Court's desk"); with
// recess_exception custody (art. 798-A, I) it is booked.
func TestScheduleHearing_CPP798A_RecessOverHTTP(t *testing.T) {
	f := newFixture(t)
	c := f.fileCase(t, "R1")
	path := fmt.Sprintf("/api/v1/cases/%d/hearings", int(c["id"].(float64)))
	// A weekday from 6 January of next year: in the recess.
	day := time.Date(f.clk.Now().Year()+1, time.January, 6, 12, 0, 0, 0, time.UTC)
	for day.Weekday() == time.Saturday || day.Weekday() == time.Sunday {
		day = day.AddDate(0, 0, 1)
	}
	in := fmt.Sprintf(`{"kind": "preliminary", "starts_at": "%sT14:00:00-03:00", "room": "Sala 1"`, day.Format("2006-01-02"))
	code, body, _ := f.send(t, "POST", path, "clerk", "application/json", in+`}`)
	if code != 422 || !strings.Contains(body, `"field":"starts_at"`) || !strings.Contains(body, "798-A") {
		t.Errorf("in the recess: %d %s", code, body)
	}
	if code, body, _ = f.send(t, "POST", path, "clerk", "application/json", in+`, "recess_exception": "custody"}`); code != 201 {
		t.Errorf("defendant in custody: %d %s", code, body)
	}
	// The page's form: the refusal next to the date, then the exception.
	caseURL := fmt.Sprintf("/processos/%d", int(c["id"].(float64)))
	clerk := f.browser(t, "clerk")
	clerk.do("GET", caseURL, nil)
	// (The instruction hearing: the preliminary one is booked above, and a
	// case has one open hearing of each kind.)
	form := url.Values{"aud.kind": {"instruction"}, "aud.date": {day.Format("02/01/2006")}, "aud.starts": {"16:00"}, "aud.room": {"Sala 2"}}
	rec := clerk.do("POST", caseURL+"/audiencias", form)
	if b := rec.Body.String(); rec.Code != 422 || !strings.Contains(b, `id="f-aud-date-erro"`) || !strings.Contains(b, "798-A") {
		t.Errorf("page, in the recess: %d", rec.Code)
	}
	form.Set("aud.recess_exception", "custody")
	if rec := clerk.do("POST", caseURL+"/audiencias", form); rec.Code != 303 {
		t.Errorf("page, in custody: %d %s", rec.Code, rec.Body)
	}
}

// The holidays page (clerk): the national holidays of the year and Good
// Friday are listed as built in, with their laws (Lei 14.759/2023 for 20
// November); the court's own days have a remove button, and removing one
// takes it out of the calendar; the judge sees no button.
func TestHolidaysPage_Lei14759_NationalBuiltInAndRemoval(t *testing.T) {
	f := newFixture(t)
	clerk := f.browser(t, "clerk")
	clerk.do("GET", "/feriados?ano=2026", nil)
	if rec := clerk.do("POST", "/feriados", url.Values{"date": {"16/02/2026"}, "name": {"Carnaval"}}); rec.Code != 303 {
		t.Fatalf("holiday: %d %s", rec.Code, rec.Body)
	}
	rec := clerk.do("GET", "/feriados?ano=2026", nil)
	expect(t, "holidays page", rec.Code, 200, rec.Body.String(), "Carnaval", "Sexta-feira da Paixão", "03/04/2026", "20/11/2026", "Lei 14.759/2023", "/excluir")
	if rec := f.browser(t, "judge").do("GET", "/feriados?ano=2026", nil); strings.Contains(rec.Body.String(), "/excluir") {
		t.Error("the judge sees the remove button")
	}
	var id int64
	f.g.Raw("SELECT id FROM court_holidays WHERE day = '2026-02-16'").Scan(&id)
	if rec := clerk.do("POST", fmt.Sprintf("/feriados/%d/excluir", id), url.Values{}); rec.Code != 303 {
		t.Fatalf("remove: %d %s", rec.Code, rec.Body)
	}
	var n int64
	f.g.Raw("SELECT count(*) FROM court_holidays").Scan(&n)
	if n != 0 {
		t.Errorf("%d holidays left", n)
	}
}
