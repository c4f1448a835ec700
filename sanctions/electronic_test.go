package sanctions_test

import (
	"testing"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/sanctions"
)

// Lei 11.419/2006, art. 5º: the day an electronic notice counts on. Made
// available on Tuesday 10/06/2025: opened on Friday 13 (working) counts on
// 13 (§ 1º); opened on Saturday 14 counts on Monday 16 (§ 2º); opened on a
// court holiday (Corpus Christi 19/06, on the court's calendar) counts on
// Friday 20; never opened, counts on the tenth day, Friday 20 (§ 3º),
// pending until then; made available on Wednesday 11, the tenth day is
// Saturday 21 and it counts on Monday 23 (STJ, REsp 1.663.172/TO); opened
// after the tenth day, it had already counted; opened on 07/01/2026, in
// the recess (not a day without business: the courts sit), it counts that
// day.
func TestCountElectronicNotice_Lei11419_art5(t *testing.T) {
	court := sanctions.Holidays{civil.MustParse("2025-06-19"): "Corpus Christi"}
	day := func(s string) *civil.Date { d := civil.MustParse(s); return &d }
	for _, tc := range []struct {
		name, available string
		opened          *civil.Date
		today, counts   string
		tacit, pending  bool
	}{
		{"opened Friday", "2025-06-10", day("2025-06-13"), "2025-06-13", "2025-06-13", false, false},
		{"opened Saturday", "2025-06-10", day("2025-06-14"), "2025-06-14", "2025-06-16", false, false},
		{"opened on the court's holiday", "2025-06-10", day("2025-06-19"), "2025-06-19", "2025-06-20", false, false},
		{"never opened, before the tenth day", "2025-06-10", nil, "2025-06-19", "2025-06-20", true, true},
		{"never opened, on the tenth day", "2025-06-10", nil, "2025-06-20", "2025-06-20", true, false},
		{"tenth day a Saturday", "2025-06-11", nil, "2025-06-22", "2025-06-23", true, true},
		{"opened on the tenth day, a Saturday", "2025-06-11", day("2025-06-21"), "2025-06-21", "2025-06-23", false, false},
		{"opened after the tenth day", "2025-06-10", day("2025-06-23"), "2025-06-23", "2025-06-20", true, false},
		{"opened in the recess", "2025-12-29", day("2026-01-07"), "2026-01-07", "2026-01-07", false, false},
	} {
		got := sanctions.CountElectronicNotice(civil.MustParse(tc.available), tc.opened, civil.MustParse(tc.today), court)
		if got.CountsOn.String() != tc.counts || got.Tacit != tc.tacit || got.Pending != tc.pending || got.Rule == "" {
			t.Errorf("%s: %+v; want counts_on %s, tacit %v, pending %v", tc.name, got, tc.counts, tc.tacit, tc.pending)
		}
	}
}
