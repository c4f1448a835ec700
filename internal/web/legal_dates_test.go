package web_test

import (
	"strings"
	"testing"
)

// The legal computations tell a date in the right form that is no day of
// the calendar from a malformed one, as the other endpoints do, and report
// it on the date's field: ban-term?first_day=2024-02-30, ban-range?
// facts_date=2024-02-30 and ban-term?first_day=0000-01-01&months=1 (the
// error was on months).
func TestLegalEndpointsNonexistentDates(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct{ path, field, msg string }{
		{"/api/v1/legal/ban-term?first_day=2024-02-30&months=3", "first_day", "a data 2024-02-30 não existe no calendário."},
		{"/api/v1/legal/ban-range?subject=person&facts_date=2024-02-30", "facts_date", "a data 2024-02-30 não existe no calendário."},
		{"/api/v1/legal/ban-term?first_day=0000-01-01&months=1", "first_day", "a data 0000-01-01 não existe no calendário."},
		{"/api/v1/legal/ban-range?subject=person&facts_date=0000-01-01", "facts_date", "a data 0000-01-01 não existe no calendário."},
		{"/api/v1/legal/ban-term?first_day=30/02/2024&months=3", "first_day", "informe first_day como AAAA-MM-DD."},
		{"/api/v1/legal/ban-range?subject=person&facts_date=2024-2-3", "facts_date", "informe facts_date como AAAA-MM-DD."},
	} {
		code, body, _ := f.send(t, "GET", tc.path, "", "", "")
		if code != 422 || !strings.Contains(body, `"field":"`+tc.field+`"`) || !strings.Contains(body, tc.msg) {
			t.Errorf("%s: %d %s, want 422 on %s: %q", tc.path, code, body, tc.field, tc.msg)
		}
		if strings.Contains(body, `"field":"months"`) {
			t.Errorf("%s: error on months: %s", tc.path, body)
		}
	}
}
