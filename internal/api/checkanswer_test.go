package api

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/registry/blocklist"
)

// The check's answer, built from bans encoded once per version, is byte for
// byte what encoding the checkAnswer struct gives (blocked with two bans, one
// of them precautionary without a last day; not blocked).
func TestAppendCheckAnswerMatchesEncoding(t *testing.T) {
	last := civil.MustParse("2027-03-14")
	bans := []blocklist.CheckBan{
		{BanID: 7, FirstDay: civil.MustParse("2026-03-15"), LastDay: &last, CaseNumber: "0000001-23.2026.8.26.0100", Court: "26.0100"},
		{BanID: 9, FirstDay: civil.MustParse("2026-11-01"), CaseNumber: "0000002-23.2026.8.26.0100", Court: "26.0100"},
	}
	enc, err := json.Marshal(bans)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		bans []blocklist.CheckBan
		pre  []byte
	}{{bans, enc}, {[]blocklist.CheckBan{}, nil}} {
		var want bytes.Buffer
		if err := json.NewEncoder(&want).Encode(CheckAnswer{CPF: "46881973659", Blocked: len(tc.bans) > 0, Bans: tc.bans, Version: 901}); err != nil {
			t.Fatal(err)
		}
		if got := appendCheckAnswer(nil, "46881973659", tc.pre, 901); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("got  %s\nwant %s", got, want.Bytes())
		}
	}
}

// The check index gives each CPF the JSON of all its bans in force, in the
// snapshot's order (a leading zero kept apart from the same digits without
// it), and nothing for a CPF that is not blocked.
func TestCheckIndex(t *testing.T) {
	last := civil.MustParse("2027-03-14")
	items := []blocklist.Entry{
		{CPF: "46881973659", BanID: 7, FirstDay: civil.MustParse("2026-03-15"), LastDay: &last, CaseNumber: "A", Court: "26.0100"},
		{CPF: "04688197365", BanID: 8, FirstDay: civil.MustParse("2026-04-01"), CaseNumber: "B", Court: "26.0100"},
		{CPF: "46881973659", BanID: 9, FirstDay: civil.MustParse("2026-11-01"), CaseNumber: "C", Court: "35.0001"},
	}
	x, err := newCheckIndex(items)
	if err != nil {
		t.Fatal(err)
	}
	want := func(bans ...blocklist.CheckBan) string {
		b, _ := json.Marshal(bans)
		return string(b)
	}
	if got := string(x.bans("46881973659")); got != want(
		blocklist.CheckBan{BanID: 7, FirstDay: items[0].FirstDay, LastDay: &last, CaseNumber: "A", Court: "26.0100"},
		blocklist.CheckBan{BanID: 9, FirstDay: items[2].FirstDay, CaseNumber: "C", Court: "35.0001"}) {
		t.Errorf("two bans: %s", got)
	}
	if got := string(x.bans("04688197365")); got != want(blocklist.CheckBan{BanID: 8, FirstDay: items[1].FirstDay, CaseNumber: "B", Court: "26.0100"}) {
		t.Errorf("leading zero: %s", got)
	}
	if x.bans("52998224725") != nil || x.CPFs() != 2 {
		t.Errorf("not blocked: %s; %d CPFs", x.bans("52998224725"), x.CPFs())
	}
	if d, err := x.Decoded("46881973659"); err != nil || len(d) != 2 || d[1].BanID != 9 {
		t.Errorf("decoded %+v %v", d, err)
	}
}
