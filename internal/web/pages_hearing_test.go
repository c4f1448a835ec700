package web_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/sanctions"
)

// The hearing form's times (aud.starts, aud.ends as hh:mm): a time missing
// or that does not exist (25:99, abc, 24:00, 99:99) answers 422 with the
// message next to the field the page shows (the error was filed under
// starts_at_hora, a field the page does not have), nothing scheduled; a
// valid time schedules the hearing.
func TestPageHearingTimeErrorsShowNextToTheField(t *testing.T) {
	f := newFixture(t)
	c := f.fileCase(t, "R1")
	caseURL := fmt.Sprintf("/processos/%d", int(c["id"].(float64)))
	clerk := f.browser(t, "clerk")
	clerk.do("GET", caseURL, nil)
	// A day with court business about six weeks ahead (within the 5 years
	// a hearing may be set): no weekend, national holiday or recess (CPP
	// arts. 792 and 798-A).
	day := f.clk.Now().AddDate(0, 0, 40)
	for {
		if ok, _, _ := sanctions.MayHoldHearing(sanctions.HearingQuery{Day: civil.Of(day)}); ok {
			break
		}
		day = day.AddDate(0, 0, 1)
	}
	date := day.Format("02/01/2006")
	for _, tc := range []struct{ starts, ends, id, msg string }{
		{"25:99", "", "f-aud-starts-erro", "Hora inválida: use hh:mm"},
		{"abc", "", "f-aud-starts-erro", "Hora inválida: use hh:mm"},
		{"24:00", "", "f-aud-starts-erro", "Hora inválida: use hh:mm"},
		{"", "", "f-aud-starts-erro", "Informe também a hora (hh:mm)"},
		{"14:00", "99:99", "f-aud-ends-erro", "Hora inválida: use hh:mm"},
	} {
		form := url.Values{"aud.kind": {"preliminary"}, "aud.date": {date}, "aud.starts": {tc.starts}, "aud.ends": {tc.ends}, "aud.room": {"Sala 3"}}
		rec := clerk.do("POST", caseURL+"/audiencias", form)
		b := rec.Body.String()
		if rec.Code != 422 || !strings.Contains(b, `id="`+tc.id+`"`) {
			t.Errorf("starts=%q ends=%q: %d, want 422 with %s", tc.starts, tc.ends, rec.Code, tc.id)
			continue
		}
		sel := b[strings.Index(b, `id="`+tc.id+`"`):]
		if i := strings.Index(sel, "</"); i > 0 {
			sel = sel[:i]
		}
		if !strings.Contains(sel, tc.msg) {
			t.Errorf("starts=%q ends=%q: the field's error %q lacks %q", tc.starts, tc.ends, sel, tc.msg)
		}
	}
	var n int64
	if err := f.g.Raw("SELECT count(*) FROM hearings").Scan(&n).Error; err != nil || n != 0 {
		t.Fatalf("refused forms scheduled %d hearings (%v)", n, err)
	}
	form := url.Values{"aud.kind": {"preliminary"}, "aud.date": {date}, "aud.starts": {"14:00"}, "aud.ends": {"15:30"}, "aud.room": {"Sala 3"}}
	if rec := clerk.do("POST", caseURL+"/audiencias", form); rec.Code != 303 {
		t.Fatalf("valid hearing: %d %s", rec.Code, rec.Body)
	}
	if err := f.g.Raw("SELECT count(*) FROM hearings").Scan(&n).Error; err != nil || n != 1 {
		t.Errorf("%d hearings after the valid form (%v), want 1", n, err)
	}
}
