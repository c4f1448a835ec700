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
		if err := json.NewEncoder(&want).Encode(blocklist.CheckAnswer{CPF: "46881973659", Blocked: len(tc.bans) > 0, Bans: tc.bans, Version: 901}); err != nil {
			t.Fatal(err)
		}
		if got := appendCheckAnswer(nil, "46881973659", tc.pre, 901); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("got  %s\nwant %s", got, want.Bytes())
		}
	}
}
