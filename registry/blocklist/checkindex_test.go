package blocklist

import (
	"encoding/json"
	"testing"

	"github.com/juizado/juizado/internal/civil"
)

// The check index gives each CPF the JSON of all its bans in force, in the
// snapshot's order (a leading zero kept apart from the same digits without
// it), and nothing for a CPF that is not blocked.
func TestCheckIndex(t *testing.T) {
	last := civil.MustParse("2027-03-14")
	items := []Entry{
		{CPF: "46881973659", BanID: 7, FirstDay: civil.MustParse("2026-03-15"), LastDay: &last, CaseNumber: "A", Court: "26.0100"},
		{CPF: "04688197365", BanID: 8, FirstDay: civil.MustParse("2026-04-01"), CaseNumber: "B", Court: "26.0100"},
		{CPF: "46881973659", BanID: 9, FirstDay: civil.MustParse("2026-11-01"), CaseNumber: "C", Court: "35.0001"},
	}
	x, err := newCheckIndex(items)
	if err != nil {
		t.Fatal(err)
	}
	want := func(bans ...CheckBan) string {
		b, _ := json.Marshal(bans)
		return string(b)
	}
	if got := string(x.Bans("46881973659")); got != want(
		CheckBan{BanID: 7, FirstDay: items[0].FirstDay, LastDay: &last, CaseNumber: "A", Court: "26.0100"},
		CheckBan{BanID: 9, FirstDay: items[2].FirstDay, CaseNumber: "C", Court: "35.0001"}) {
		t.Errorf("two bans: %s", got)
	}
	if got := string(x.Bans("04688197365")); got != want(CheckBan{BanID: 8, FirstDay: items[1].FirstDay, CaseNumber: "B", Court: "26.0100"}) {
		t.Errorf("leading zero: %s", got)
	}
	if x.Bans("52998224725") != nil || x.CPFs() != 2 {
		t.Errorf("not blocked: %s; %d CPFs", x.Bans("52998224725"), x.CPFs())
	}
	if d, err := x.Decoded("46881973659"); err != nil || len(d) != 2 || d[1].BanID != 9 {
		t.Errorf("decoded %+v %v", d, err)
	}
}
