package gate

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"runtime/debug"
	"sort"
	"strings"
	"testing"
	"time"
	"unsafe"
)

func ptr(s string) *string { return &s }

// answers lists the check lines of every entry of cpf held by x, sorted by
// ban id, as the agent would answer them on day (dates and scope applied).
func answers(x *entryIndex, cpf, day string) []CheckBan {
	k, _ := cpfKey(cpf)
	st := &courtState{entries: x, upIndex: newEntryIndex("", 0)}
	out := st.collect(k, day, checkDay(day), map[string]bool{}, map[string]bool{}, "X", nil)
	sort.Slice(out, func(i, j int) bool { return out[i].BanID < out[j].BanID })
	return out
}

// API.md "Gate agent": the compact index answers what the entries say
// (case number, court, first and last day; a precautionary ban has no last
// day), for several bans of one CPF, after removals, corrections and arena
// compactions, and an entry it cannot hold compactly (match days, scope)
// whole.
func TestEntryIndexAnswersAsTheEntries(t *testing.T) {
	x := newEntryIndex("26.0100", 0)
	a := Entry{CPF: "52998224725", BanID: 1, FirstDay: "2025-06-01", LastDay: ptr("2026-05-31"), CaseNumber: "0000001-11.2025.8.26.0100", Court: "26.0100"}
	b := Entry{CPF: "52998224725", BanID: 2, FirstDay: "2025-07-01", CaseNumber: "0000002-22.2025.8.19.0001", Court: "19.0001"}
	c := Entry{CPF: "52998224725", BanID: 3, FirstDay: "2025-06-01", LastDay: ptr("2025-12-31"), CaseNumber: "3", Court: "26.0100",
		MatchDays: []string{"2025-06-15"}}
	odd := Entry{CPF: "123", BanID: 4, FirstDay: "2025-06-01"}
	for _, e := range []Entry{a, b, c, odd} {
		x.put(&e)
	}
	if x.n != 4 {
		t.Fatalf("n = %d", x.n)
	}
	want := []CheckBan{{BanID: 1, FirstDay: "2025-06-01", LastDay: ptr("2026-05-31"), CaseNumber: a.CaseNumber, Court: "26.0100"},
		{BanID: 2, FirstDay: "2025-07-01", CaseNumber: b.CaseNumber, Court: "19.0001"},
		{BanID: 3, FirstDay: "2025-06-01", LastDay: ptr("2025-12-31"), CaseNumber: "3", Court: "26.0100", MatchDays: []string{"2025-06-15"}}}
	if got := answers(x, a.CPF, "2025-06-15"); !reflect.DeepEqual(got, []CheckBan{want[0], want[2]}) {
		t.Fatalf("15 June: %+v", got)
	}
	if got := answers(x, a.CPF, "2025-07-01"); !reflect.DeepEqual(got, want[:2]) {
		t.Fatalf("1 July (no match day, ban 2 from its first day): %+v", got)
	}
	if got := answers(x, a.CPF, "2026-06-01"); !reflect.DeepEqual(got, want[1:2]) {
		t.Fatalf("after ban 1's last day: %+v", got)
	}
	// Removing the first of a CPF's entries keeps the others.
	if !x.del(a.CPF, 1) || x.del(a.CPF, 1) || x.n != 3 {
		t.Fatalf("del: n = %d", x.n)
	}
	if got := answers(x, a.CPF, "2025-07-01"); !reflect.DeepEqual(got, want[1:2]) {
		t.Fatalf("after removing ban 1: %+v", got)
	}
	x.delBan(3) // a removal naming another CPF
	if x.n != 2 || len(x.full) != 0 {
		t.Fatalf("delBan: n = %d, full %v", x.n, x.full)
	}
	if !x.del("123", 4) || x.n != 1 {
		t.Fatal("odd CPF not removed")
	}
	// Churn: 100,000 additions and removals force compactions; what stays
	// answers as before.
	for i := 0; i < 100_000; i++ {
		e := Entry{CPF: fmt.Sprintf("%011d", 10_000_000_000+i), BanID: int64(100 + i), FirstDay: "2025-01-01", CaseNumber: fmt.Sprintf("%025d", i), Court: "21.0001"}
		x.put(&e)
		if i%10 != 0 {
			x.del(e.CPF, e.BanID)
		}
	}
	if x.n != 1+10_000 || x.garbage > len(x.arena)/2+1<<20 {
		t.Fatalf("after churn: n = %d, arena %d, garbage %d", x.n, len(x.arena), x.garbage)
	}
	if got := answers(x, "10000099990", "2025-06-01"); len(got) != 1 || got[0].CaseNumber != fmt.Sprintf("%025d", 99990) || got[0].Court != "21.0001" {
		t.Fatalf("after compaction: %+v", got)
	}
	if got := answers(x, a.CPF, "2025-07-01"); !reflect.DeepEqual(got, want[1:2]) {
		t.Fatalf("after compaction, ban 2: %+v", got)
	}
}

// Issue 20 (resident memory at 1,000,000 entries): a slot is 16 bytes, so
// the map of the index holds 24 bytes an entry (key and slot).
func TestSlotIs16Bytes(t *testing.T) {
	if n := unsafe.Sizeof(slot{}); n != 16 {
		t.Fatalf("slot is %d bytes, want 16", n)
	}
}

// The day counts of a slot are the calendar (proleptic Gregorian, as
// time.Date): every day from 1600 to 2400 converts both ways as time
// formats it and counts as days since 2000-01-01; a slot holds exactly
// the days from 2000-01-01 to 2179-06-06 and writes each back as it read
// it; a text that names no day is not a day (the entry goes whole to
// full, and a check day of another form is before every slot).
func TestDayCountsAreTheCalendar(t *testing.T) {
	epoch := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).Unix() / 86400
	from, to := time.Date(1600, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2401, 1, 1, 0, 0, 0, 0, time.UTC)
	var buf []byte
	for d := from; d.Before(to); d = d.AddDate(0, 0, 1) {
		want := int(d.Unix()/86400 - epoch)
		text := d.Format("2006-01-02")
		if n, ok := civilDays(text); !ok || int(n) != want || checkDay(text) != int32(want) {
			t.Fatalf("%s: civilDays %d %v, want %d", text, n, ok, want)
		}
		if y, m, dd := civilFromDays(want); y != d.Year() || m != int(d.Month()) || dd != d.Day() {
			t.Fatalf("civilFromDays(%d) = %d-%d-%d, want %s", want, y, m, dd, text)
		}
		n, ok := slotDay(text)
		if in := want >= 0 && want <= 65535; ok != in || (in && int(n) != want) {
			t.Fatalf("%s: slotDay %d %v", text, n, ok)
		}
		if ok {
			if buf = appendDay(buf[:0], n); string(buf) != text {
				t.Fatalf("appendDay(%d) = %s, want %s", n, buf, text)
			}
		}
	}
	for _, s := range []string{"2000-01-01", "2024-02-29", "2179-06-06"} {
		if _, ok := slotDay(s); !ok {
			t.Errorf("%s not held by a slot", s)
		}
	}
	for _, s := range []string{"1999-12-31", "2179-06-07", "9999-12-31", "0000-01-01"} {
		if _, ok := slotDay(s); ok {
			t.Errorf("%s held by a slot", s)
		}
	}
	for _, s := range []string{"2025-02-29", "2100-02-29", "2025-04-31", "2025-13-01", "2025-00-10", "2025-01-00", "2025-01-32",
		"2025-1-01", "20250101", "2025/01/01", "abcd-01-01", "", "12025-01-01", "-001-01-01"} {
		if n, ok := civilDays(s); ok {
			t.Errorf("%q read as day %d", s, n)
		}
		if checkDay(s) != noDay {
			t.Errorf("check day %q not before every slot", s)
		}
	}
	if n, _ := civilDays("0000-01-01"); checkDay("0000-01-01") != n || n <= noDay {
		t.Errorf("year 0: %d", n)
	}
}

// API.md "Gate agent": an entry a slot cannot hold compactly (a ban id
// above 2^32-1, a first day before 2000-01-01, a last day after
// 2179-06-06, or a negative id) is kept whole and answered as the entry
// says, on the days it is in force and not on the others, once when it is
// also upcoming; has, del and delBan find it by its whole id (not by its
// low 32 bits), and the slot-held entries beside it (id 2^32-1, the range's
// first and last day) answer the same.
func TestEntryIndexKeepsWholeWhatASlotCannotHold(t *testing.T) {
	const cpf = "52998224725"
	x := newEntryIndex("26.0100", 0)
	big := Entry{CPF: cpf, BanID: 1 << 32, FirstDay: "2025-06-01", LastDay: ptr("2026-05-31"), CaseNumber: "0000001-11.2025.8.26.0100", Court: "26.0100"}
	maxID := Entry{CPF: cpf, BanID: math.MaxInt64, FirstDay: "2025-06-01", CaseNumber: "0000002-22.2025.8.26.0100", Court: "19.0001"}
	early := Entry{CPF: cpf, BanID: 7, FirstDay: "1999-12-31", LastDay: ptr("2025-06-30"), CaseNumber: "0000003-33.2025.8.26.0100", Court: "26.0100"}
	late := Entry{CPF: cpf, BanID: 8, FirstDay: "2025-06-10", LastDay: ptr("2179-06-07"), CaseNumber: "0000004-44.2025.8.26.0100", Court: "26.0100"}
	neg := Entry{CPF: cpf, BanID: -5, FirstDay: "2025-06-01", CaseNumber: "5", Court: "26.0100"}
	edge := Entry{CPF: cpf, BanID: math.MaxUint32, FirstDay: "2000-01-01", LastDay: ptr("2179-06-06"), CaseNumber: "6", Court: "26.0100"}
	for _, e := range []Entry{big, maxID, early, late, neg, edge} {
		x.put(&e)
	}
	if x.n != 6 || len(x.full) != 5 {
		t.Fatalf("n = %d, full %d entries, want 5 (all but id 2^32-1)", x.n, len(x.full))
	}
	for _, e := range []Entry{big, maxID, early, late, neg} {
		if _, ok := x.full[e.BanID]; !ok {
			t.Fatalf("ban %d not kept whole", e.BanID)
		}
	}
	line := func(e Entry) CheckBan {
		return CheckBan{BanID: e.BanID, FirstDay: e.FirstDay, LastDay: e.LastDay, CaseNumber: e.CaseNumber, Court: e.Court}
	}
	for _, c := range []struct {
		day  string
		want []Entry
	}{
		{"1999-12-30", nil},
		{"1999-12-31", []Entry{early}},
		{"2000-01-01", []Entry{early, edge}},
		{"2025-06-09", []Entry{neg, early, edge, big, maxID}},
		{"2025-06-10", []Entry{neg, early, late, edge, big, maxID}},
		{"2025-07-01", []Entry{neg, late, edge, big, maxID}},
		{"2179-06-06", []Entry{neg, late, edge, maxID}},
		{"2179-06-07", []Entry{neg, late, maxID}},
		{"2179-06-08", []Entry{neg, maxID}},
		{"9999-12-31", []Entry{neg, maxID}},
	} {
		want := []CheckBan{}
		for _, e := range c.want {
			want = append(want, line(e))
		}
		got := answers(x, cpf, c.day)
		if got == nil {
			got = []CheckBan{}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: %+v, want %+v", c.day, got, want)
		}
	}
	// Upcoming too: an upcoming entry already in force answers once.
	up := newEntryIndex("26.0100", 0)
	for _, e := range []Entry{big, maxID} {
		up.put(&e)
	}
	k, _ := cpfKey(cpf)
	st := &courtState{entries: x, upIndex: up}
	if got := st.collect(k, "2025-06-09", checkDay("2025-06-09"), map[string]bool{}, map[string]bool{}, "X", nil); len(got) != 5 {
		t.Fatalf("upcoming entries in force answered twice: %+v", got)
	}
	// The whole id, not its low 32 bits: 0 and 2^32-1 are other bans.
	if !x.has(k, 1<<32) || !x.has(k, math.MaxInt64) || x.has(k, 0) || !x.has(k, -5) || x.has(k, math.MaxUint32-4) {
		t.Fatal("has does not tell the whole ids")
	}
	if x.del(cpf, 0) || x.del(cpf, -1) || x.n != 6 {
		t.Fatal("del removed a ban of other id")
	}
	if !x.del(cpf, 1<<32) || x.has(k, 1<<32) || !x.has(k, math.MaxUint32) || x.n != 5 || len(x.full) != 4 {
		t.Fatalf("del 2^32: n = %d, full %d", x.n, len(x.full))
	}
	x.delBan(math.MaxInt64)
	x.delBan(-5)
	if x.n != 3 || len(x.full) != 2 || x.has(k, math.MaxInt64) || x.has(k, -5) {
		t.Fatalf("delBan: n = %d, full %d", x.n, len(x.full))
	}
	if got := answers(x, cpf, "2025-06-10"); !reflect.DeepEqual(got, []CheckBan{line(early), line(late), line(edge)}) {
		t.Fatalf("after removals: %+v", got)
	}
}

// The snapshot is read item by item into the index: the same entries and
// upcoming ones as json.Unmarshal of the body gives.
func TestStateOfReadsTheSnapshot(t *testing.T) {
	snap := Snapshot{Version: 7, GeneratedAt: time.Date(2025, 6, 10, 12, 0, 0, 0, time.UTC), Court: "26.0100",
		Items:    []Entry{{CPF: "52998224725", BanID: 1, FirstDay: "2025-06-01", CaseNumber: "1", Court: "26.0100"}, {CPF: "11144477735", BanID: 2, FirstDay: "2025-06-01", LastDay: ptr("2025-06-30"), CaseNumber: "2", Court: "26.0100"}},
		Upcoming: []Entry{{CPF: "39053344705", BanID: 3, FirstDay: "2025-06-12", CaseNumber: "3", Court: "26.0100"}}}
	body, _ := json.Marshal(snap)
	st, err := stateOf(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if st.version != 7 || st.court != "26.0100" || !st.generatedAt.Equal(snap.GeneratedAt) || st.entries.n != 2 || len(st.upcoming) != 1 || st.upIndex.n != 1 {
		t.Fatalf("state: %+v", st)
	}
	if _, err := stateOf(strings.NewReader(`{"version": 1, "items": [{"cpf": 5}]}`)); err == nil {
		t.Fatal("a malformed item was read")
	}
	if st, err := stateOf(strings.NewReader(`{"version": 2, "items": null, "extra": {"a": [1]}}`)); err != nil || st.version != 2 || st.entries.n != 0 {
		t.Fatalf("items null: %v %+v", err, st)
	}
}

// The spool's records are the JSON of Record, one a line.
func TestAppendRecordIsRecordJSON(t *testing.T) {
	r := Record{CPF: "5299822472\"5", CheckedAt: time.Date(2025, 6, 10, 18, 0, 0, 123456789, time.UTC), Blocked: true,
		Versions: map[string]int64{"26.0100": 9, "http://x/\\\n": 0}}
	b := appendRecord(nil, &r)
	if b[len(b)-1] != '\n' {
		t.Fatal("no newline")
	}
	var got Record
	if err := json.Unmarshal(b, &got); err != nil || !reflect.DeepEqual(got, r) {
		t.Fatalf("%s: %v %+v", b, err, got)
	}
}

// GET /check/{cpf} answers the bytes json.Encoder writes for CheckResult
// (API.md "Gate agent"), blocked or not, with or without a last day, with
// any court names; with a scope, encoding/json itself.
func TestAppendCheckResultIsEncoderJSON(t *testing.T) {
	at := time.Date(2025, 6, 10, 18, 0, 0, 120000000, time.UTC)
	for _, r := range []CheckResult{
		{CPF: "52998224725", Bans: []CheckBan{}, Versions: map[string]int64{"26.0100": 3}, CheckedAt: at},
		{CPF: "52998224725", Blocked: true, Stale: true, CheckedAt: at, Versions: map[string]int64{"26.0100": 3, "19.0001": 0, "http://a/?x=<1>&y=\"é\"\n": 9, "b": 1, "a": 2},
			Bans: []CheckBan{{BanID: 9, FirstDay: "2025-06-01", LastDay: ptr("2026-05-31"), CaseNumber: "0000001-11.2025.8.26.0100", Court: "26.0100"},
				{BanID: 10, FirstDay: "2025-06-01", CaseNumber: "x\u2028<y>", Court: "19.0001"}}},
		{CPF: "52998224725", Blocked: true, CheckedAt: at, Versions: map[string]int64{}, Bans: []CheckBan{{BanID: 1, FirstDay: "2025-06-01", Court: "c",
			Scope: &Scope{Venues: []string{"Maracanã"}}, MatchDays: []string{"2025-06-15"}}}},
		{CPF: "52998224725"},
	} {
		var want bytes.Buffer
		if err := json.NewEncoder(&want).Encode(r); err != nil {
			t.Fatal(err)
		}
		if got := appendCheckResult(nil, &r); string(got) != want.String() {
			t.Errorf("\n got %s\nwant %s", got, want.String())
		}
	}
}

// verifyStream agrees with crypto/ed25519.Verify: good signatures, a byte
// changed in the message or the signature, another key, a non-canonical S.
func TestVerifyStreamIsEd25519Verify(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	other, _, _ := ed25519.GenerateKey(nil)
	for i, n := range []int{0, 1, 100, 70_000} {
		msg := bytes.Repeat([]byte{byte(i), 'x'}, n)
		sig := ed25519.Sign(priv, msg)
		bad := append([]byte(nil), msg...)
		if n > 0 {
			bad[n/2] ^= 1
		}
		badSig := append([]byte(nil), sig...)
		badSig[5] ^= 1
		bigS := append([]byte(nil), sig...)
		bigS[63] |= 0xf0
		for _, c := range []struct {
			k   ed25519.PublicKey
			m   []byte
			sig []byte
		}{{pub, msg, sig}, {pub, bad, sig}, {pub, msg, badSig}, {other, msg, sig}, {pub, msg, bigS}, {pub, msg, sig[:10]}} {
			want := ed25519.Verify(c.k, c.m, c.sig)
			if got := verifyStream(c.k, c.sig, bytes.NewReader(c.m)) == nil; got != want {
				t.Errorf("n=%d: verifyStream %v, ed25519.Verify %v", n, got, want)
			}
		}
	}
}

// API.md "Gate agent" (versions: {COURT: VERSION}): the versions a check
// reports are those it read; results of the same versions share one
// read-only map, a new version makes a new one (an earlier result keeps
// what it read); the answer and the spool's record are still the bytes
// encoding/json writes for them.
func TestCheckVersionsSharedUntilAVersionChanges(t *testing.T) {
	at := time.Date(2025, 6, 10, 18, 0, 0, 0, time.UTC)
	court := func(name string, v int64) *Court {
		x := newEntryIndex(name, 0)
		x.put(&Entry{CPF: "52998224725", FirstDay: "2025-06-01", BanID: v, CaseNumber: "0000001-11.2025.8.26.0100", Court: name})
		return &Court{URL: "http://" + name, Now: func() time.Time { return at },
			state: &courtState{court: name, version: v, entries: x, upcoming: map[int64]Entry{}, upIndex: newEntryIndex(name, 0)}}
	}
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	a := &Agent{Courts: []*Court{court("26.0100", 7), court("19.0001", 3)}, Now: func() time.Time { return at }, Loc: loc,
		spool: &Spool{Path: t.TempDir() + "/checks.jsonl"}}
	a.metrics()
	r1, r2 := a.Check("52998224725"), a.Check("11144477735")
	want := map[string]int64{"26.0100": 7, "19.0001": 3}
	if !r1.Blocked || len(r1.Bans) != 2 || !reflect.DeepEqual(r1.Versions, want) || !reflect.DeepEqual(r2.Versions, want) || r2.Blocked {
		t.Fatalf("checks: %+v %+v", r1, r2)
	}
	if reflect.ValueOf(r1.Versions).UnsafePointer() != reflect.ValueOf(r2.Versions).UnsafePointer() {
		t.Error("two checks of the same versions built two maps")
	}
	a.Courts[1].smu.Lock()
	a.Courts[1].state.version = 4 // a page applied in place
	a.Courts[1].smu.Unlock()
	r3 := a.Check("52998224725")
	if r3.Versions["19.0001"] != 4 || r1.Versions["19.0001"] != 3 {
		t.Errorf("after a new version: %v (the earlier result: %v)", r3.Versions, r1.Versions)
	}
	for _, r := range []CheckResult{r1, r2, r3} {
		var enc bytes.Buffer
		if err := json.NewEncoder(&enc).Encode(r); err != nil {
			t.Fatal(err)
		}
		if got := appendCheckResult(nil, &r); string(got) != enc.String() {
			t.Errorf("answer\n got %s\nwant %s", got, enc.String())
		}
	}
	a.spool.mu.Lock()
	lines := strings.Split(strings.TrimSuffix(string(a.spool.buf), "\n"), "\n")
	a.spool.mu.Unlock()
	if len(lines) != 3 {
		t.Fatalf("spool: %q", lines)
	}
	for i, r := range []CheckResult{r1, r2, r3} {
		js, _ := json.Marshal(Record{CPF: r.CPF, CheckedAt: r.CheckedAt, Blocked: r.Blocked, Versions: r.Versions})
		if lines[i] != string(js) {
			t.Errorf("spool record %d\n got %s\nwant %s", i, lines[i], js)
		}
	}
}

// The instants of the answer and of the spool's record (checked_at) are
// the bytes of time.RFC3339Nano, whatever the fraction (none, trailing
// zeros, nanoseconds), within a second, across seconds and in another zone.
func TestAppendInstantIsRFC3339Nano(t *testing.T) {
	sp, _ := time.LoadLocation("America/Sao_Paulo")
	base := time.Date(2025, 6, 10, 23, 59, 59, 0, time.UTC)
	for _, at := range []time.Time{base, base.Add(1), base.Add(120 * time.Millisecond), base.Add(999999999), base.Add(time.Second),
		base.Add(100 * time.Microsecond), base.Add(time.Second + 5), time.Date(1969, 12, 31, 23, 59, 59, 500, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), base.In(sp), base, time.Unix(0, 0).UTC()} {
		if got, want := string(appendInstant([]byte("x"), at)), "x"+at.Format(time.RFC3339Nano); got != want {
			t.Errorf("%v: %s, want %s", at, got, want)
		}
	}
}

// gcPercent reads the garbage collector's setting (SetGCPercent answers the
// one it replaces).
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// A snapshot decoded collects garbage at a tenth of growth and gives the
// setting back afterwards, also when decodings overlap and when one fails
// (the peak resident memory of a sync at 1,000,000 entries, issue 20).
func TestDecodingLowersTheGCPercentAndRestoresIt(t *testing.T) {
	prev := debug.SetGCPercent(80)
	defer debug.SetGCPercent(prev)
	r1 := lowGC()
	r2 := lowGC()
	if p := gcPercent(); p != 10 {
		t.Fatalf("during two decodings: GC percent %d, want 10", p)
	}
	r1()
	if p := gcPercent(); p != 10 {
		t.Fatalf("one decoding still under way: GC percent %d, want 10", p)
	}
	r2()
	if p := gcPercent(); p != 80 {
		t.Fatalf("after the decodings: GC percent %d, want 80", p)
	}
	if _, err := stateOf(strings.NewReader(`{"version": 3, "items": [{"cpf": 1}]}`)); err == nil {
		t.Fatal("a snapshot with a CPF that is a number decoded")
	}
	if p := gcPercent(); p != 80 {
		t.Fatalf("after a failed decoding: GC percent %d, want 80", p)
	}
}

// appendJSONString writes every string as json.Marshal does: each ASCII
// byte alone and between plain text (the copied-whole path and the escaping
// one), and text above ASCII.
func TestAppendJSONStringIsMarshal(t *testing.T) {
	var cases []string
	for c := 0; c < 0x80; c++ {
		cases = append(cases, string(rune(c)), "0000001-11."+string(rune(c))+"2025")
	}
	cases = append(cases, "", "52998224725", "2025-06-01", "São Paulo", "a\u2028b", "x\xffy")
	for _, s := range cases {
		want, _ := json.Marshal(s)
		if got := appendJSONString([]byte("p"), s); string(got) != "p"+string(want) {
			t.Errorf("%q: got %s, want %s", s, got[1:], want)
		}
	}
}
