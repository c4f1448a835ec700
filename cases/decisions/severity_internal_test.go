package decisions

import "testing"

// CPP art. 617 compares the reclusão in months and then days (the days a
// third-phase fraction leaves, CP art. 68): a result with the same months
// and more days is heavier, fewer or as many days is not; a conversion of
// 9 months and 10 days of reclusão into a ban (Lei 14.597/2023, art. 201,
// § 2º) may reach 9 months, not 10 (CP art. 55 by analogy).
func TestSeverityHarsher_ReclusaoDays_CPP617(t *testing.T) {
	sentence := severity{outcome: OutcomePrison, prison: 9, prisonDays: 10, fines: 10}
	for _, tc := range []struct {
		name string
		n    severity
		want string
	}{
		{"more days", severity{outcome: OutcomePrison, prison: 9, prisonDays: 15, fines: 10}, "prison_months"},
		{"as many days", severity{outcome: OutcomePrison, prison: 9, prisonDays: 10, fines: 10}, ""},
		{"fewer days", severity{outcome: OutcomePrison, prison: 9, fines: 10}, ""},
		{"one month more, no days", severity{outcome: OutcomePrison, prison: 10, fines: 10}, "prison_months"},
		{"one month less, more days", severity{outcome: OutcomePrison, prison: 8, prisonDays: 29, fines: 10}, ""},
		{"conversion to 9 months", severity{outcome: OutcomeBan, banMonths: 9, prison: 9, prisonDays: 10, fines: 10}, ""},
		{"conversion to 10 months", severity{outcome: OutcomeBan, banMonths: 10, prison: 9, prisonDays: 10, fines: 10}, "ban.months"},
		{"more fine", severity{outcome: OutcomePrison, prison: 9, prisonDays: 10, fines: 11}, "fine_days"},
		{"acquittal", severity{outcome: OutcomeAcquittal}, ""},
	} {
		if got := tc.n.harsher(sentence); got != tc.want {
			t.Errorf("%s: harsher %q, want %q", tc.name, got, tc.want)
		}
	}
}
