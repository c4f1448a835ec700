package decisions

import (
	"testing"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/sanctions"
)

// Property (Lei 14.597/2023, art. 201, § 2º; CP art. 10): for every first day
// from 2023 to 2029 (leap years and every month end included) and every
// statutory range, the shortest override allowed is the last day of the
// minimum term and the longest the last day of the maximum term, both
// counted by sanctions.LastDay.
func TestOverrideBounds_EqualTermOfMinAndMax(t *testing.T) {
	ranges := []sanctions.Range{
		{MinMonths: 3, MaxMonths: 36},
		{MinMonths: 3, MaxMonths: 12},
		{MinMonths: 6, MaxMonths: 72},
		{MinMonths: 0, MaxMonths: 60}, // groups: no minimum, at least 1 month
	}
	for d := civil.New(2023, 1, 1); d.Before(civil.New(2030, 1, 1)); d = d.AddDays(1) {
		for _, rg := range ranges {
			wantLo, err := sanctions.LastDay(d, max(rg.MinMonths, 1))
			if err != nil {
				t.Fatal(err)
			}
			wantHi, err := sanctions.LastDay(d, rg.MaxMonths)
			if err != nil {
				t.Fatal(err)
			}
			lo, hi := overrideBounds(d, rg)
			if lo != wantLo || hi != wantHi {
				t.Fatalf("first day %s, range %d..%d: bounds %s..%s, want %s..%s", d, rg.MinMonths, rg.MaxMonths, lo, hi, wantLo, wantHi)
			}
			if withinOverrideBounds(d, wantLo.AddDays(-1), rg) || !withinOverrideBounds(d, wantLo, rg) ||
				!withinOverrideBounds(d, wantHi, rg) || withinOverrideBounds(d, wantHi.AddDays(1), rg) {
				t.Fatalf("first day %s, range %d..%d: withinOverrideBounds disagrees with %s..%s", d, rg.MinMonths, rg.MaxMonths, wantLo, wantHi)
			}
		}
	}
}
