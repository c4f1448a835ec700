package blocklist

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"slices"
	"testing"
	"time"
)

// The digest of a batch is written by hand; the digests stored since
// migration 00051 were made with json.Marshal of each record's line. Both
// must give the same bytes, or a retry of a batch stored before would be a
// 409 instead of a duplicate.
func TestBatchDigestIsTheJSONMarshalOne(t *testing.T) {
	sp := time.FixedZone("BRT", -3*3600)
	var recs []CheckRecord
	var blocked []bool
	for i, at := range []time.Time{
		time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC),
		time.Date(2026, 12, 1, 18, 0, 0, 123456789, time.UTC),
		time.Date(2026, 12, 1, 15, 0, 0, 120000000, sp),
		time.Date(1999, 1, 2, 3, 4, 5, 1000, time.UTC),
		time.Date(2030, 6, 30, 23, 59, 59, 999999999, sp),
	} {
		for _, v := range []int64{0, 1, 12, 1 << 40, -3} {
			recs = append(recs, CheckRecord{CPF: []string{"46881973659", "52998224725"}[i%2], CheckedAt: at, Version: v})
			blocked = append(blocked, v%2 == 0)
		}
	}
	old := func() []byte { // the code before the lines were written by hand
		var lines [][]byte
		for i, r := range recs {
			b, _ := json.Marshal([]any{r.CPF, r.CheckedAt.UTC().Format(time.RFC3339Nano), r.Version, blocked[i]})
			lines = append(lines, b)
		}
		slices.SortFunc(lines, bytes.Compare)
		h := sha256.New()
		for _, l := range lines {
			h.Write(l)
			h.Write([]byte{'\n'})
		}
		return h.Sum(nil)
	}
	if got, want := batchDigest(recs, blocked), old(); !bytes.Equal(got, want) {
		t.Errorf("digest %x, json.Marshal's lines give %x", got, want)
	}
	if a, b := batchDigest(recs[:3], blocked[:3]), batchDigest([]CheckRecord{recs[2], recs[0], recs[1]}, []bool{blocked[2], blocked[0], blocked[1]}); !bytes.Equal(a, b) {
		t.Error("the order of the records changed the digest")
	}
	flipped := slices.Clone(blocked)
	flipped[4] = !flipped[4]
	if bytes.Equal(batchDigest(recs, blocked), batchDigest(recs, flipped)) {
		t.Error("a changed outcome left the digest the same")
	}
}
