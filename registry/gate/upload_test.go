package gate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// benchSpool is n spool lines as Check appends them at a stadium gate: 11
// digit CPFs, one in 50 blocked, an instant every 37 µs, the versions of
// two courts.
func benchSpool(n int) []byte {
	vs := appendVersions(nil, map[string]int64{"26.0100": 81234, "19.0001": 77})
	at := time.Date(2025, 6, 10, 18, 0, 0, 0, time.UTC)
	var b []byte
	for i := range n {
		r := Record{CPF: fmt.Sprintf("%011d", 52998224725+int64(i)*7919), CheckedAt: at.Add(time.Duration(i) * 37 * time.Microsecond),
			Blocked: i%50 == 0, versionsJSON: vs}
		b = appendRecord(b, &r)
	}
	return b
}

// unmarshalRecord is a line's record for court as uploadFile read it
// before recordParser: json.Unmarshal into Record, false when that fails.
func unmarshalRecord(line []byte, court string) (batchRecord, bool) {
	var r Record
	if json.Unmarshal(line, &r) != nil {
		return batchRecord{}, false
	}
	return batchRecord{CPF: r.CPF, CheckedAt: r.CheckedAt, Version: r.Versions[court], Blocked: r.Blocked}, true
}

// sameRecord reports whether a and b are the same record: the same fields,
// the instants the same instant written the same (json.Marshal).
func sameRecord(a, b batchRecord) bool {
	ja, ea := a.CheckedAt.MarshalJSON()
	jb, eb := b.CheckedAt.MarshalJSON()
	return a.CPF == b.CPF && a.Version == b.Version && a.Blocked == b.Blocked && a.CheckedAt.Equal(b.CheckedAt) &&
		bytes.Equal(ja, jb) && (ea == nil) == (eb == nil)
}

// Issue 20 §5 (the evidence of each check reaches the court as recorded):
// the spool lines appendRecord writes, of one court or several, any
// version, instants with and without fractions, are read by hand
// (recordParser.exact) to exactly what json.Unmarshal reads, the instant
// the same time.Time value; for the court named, absent, or "" (a court
// not yet synced).
func TestRecordParserReadsAppendRecordLinesAsUnmarshal(t *testing.T) {
	sp, _ := time.LoadLocation("America/Sao_Paulo")
	versions := []map[string]int64{
		{"26.0100": 7},
		{"26.0100": 81234, "19.0001": 77},
		{"19.0001": 3, "8.0002": math.MaxInt64, "26.0100": math.MinInt64, "": -1},
		{"26.0100": 0, "19.0001": 1 << 62},
		{"19.0001": 5},
		{},
	}
	base := time.Date(2025, 6, 10, 23, 59, 59, 0, time.UTC)
	instants := []time.Time{base, base, base.Add(1), base.Add(120 * time.Millisecond), base.Add(999999999), base.Add(time.Second),
		base.Add(100 * time.Microsecond), base.Add(time.Second + 5), base.Add(123456789), base.Add(time.Second + 123456780),
		time.Date(2024, 2, 29, 12, 0, 0, 10, time.UTC), time.Date(2000, 2, 29, 0, 0, 0, 0, time.UTC),
		time.Date(1969, 12, 31, 23, 59, 59, 500, time.UTC), time.Unix(0, 0).UTC(), time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(0, 3, 1, 0, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)}
	cpfs := []string{"52998224725", "11144477735", "", "0"}
	courts := []string{"26.0100", "19.0001", "8.0002", "", "99.9999"}
	var lines [][]byte
	for i, at := range instants {
		for j, vs := range versions {
			r := Record{CPF: cpfs[(i+j)%len(cpfs)], CheckedAt: at, Blocked: (i+j)%3 == 0, Versions: vs}
			if j%2 == 0 {
				r.versionsJSON = appendVersions(nil, vs) // as Check makes it
			}
			lines = append(lines, bytes.TrimSuffix(appendRecord(nil, &r), []byte("\n")))
		}
	}
	lines = append(lines, bytes.TrimSuffix(appendRecord(nil, &Record{CPF: "52998224725", CheckedAt: base}), []byte("\n"))) // versions null
	for _, court := range courts {
		p := recordParser{court: court}
		for _, line := range lines {
			got, ok := p.exact(line)
			if !ok {
				t.Errorf("court %q: %s not read by hand", court, line)
				continue
			}
			want, wok := unmarshalRecord(line, court)
			if !wok || got != want { // == : the same time.Time value (wall, ext, location)
				t.Errorf("court %q: %s\n got %+v\nwant %+v (%v)", court, line, got, want, wok)
			}
		}
	}
	// Not the form appendRecord writes for a check (strings it escapes,
	// another zone): read as json.Unmarshal reads them.
	p := recordParser{court: "26.0100"}
	for _, r := range []Record{
		{CPF: `5299822472"5`, CheckedAt: base, Versions: versions[0]},
		{CPF: "5299822472<5", CheckedAt: base, Versions: versions[0]},
		{CPF: "52998224725é", CheckedAt: base, Versions: versions[0]},
		{CPF: "52998224725", CheckedAt: base, Versions: map[string]int64{"http://a/?x=1&y=2": 4, "26.0100": 8}},
		{CPF: "52998224725", CheckedAt: base.In(sp), Versions: versions[1]},
		{CPF: "52998224725", CheckedAt: base.Add(5).In(time.FixedZone("", 5*3600+30*60)), Versions: versions[1]},
	} {
		line := bytes.TrimSuffix(appendRecord(nil, &r), []byte("\n"))
		got, ok := p.record(line)
		want, wok := unmarshalRecord(line, "26.0100")
		if !ok || !wok || !sameRecord(got, want) {
			t.Errorf("%s\n got %+v %v\nwant %+v %v", line, got, ok, want, wok)
		}
	}
}

// Issue 20 §5: a spool line that is not exactly appendRecord's form (keys
// in another order, escapes, spaces, other keys, numbers json reads
// otherwise, instants of another form, a line cut by a crash at any byte)
// is read by json.Unmarshal, or skipped when json.Unmarshal refuses it,
// as before: recordParser.record agrees with json.Unmarshal on every one,
// and exact reads by hand only the lines marked so.
func TestRecordParserOddLinesAsUnmarshal(t *testing.T) {
	const v = `"versions":{"19.0001":3,"26.0100":7}`
	for _, c := range []struct {
		line string
		fast bool // read by hand
	}{
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00.12Z","blocked":true,` + v + `}`, true},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00.120Z","blocked":true,` + v + `}`, true}, // trailing zero
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":false,"versions":null}`, true},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":false,"versions":{}}`, true},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":false,"versions":{"26.0100":7,"26.0100":9}}`, true}, // the last
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":false,"versions":{"26.0100":-0}}`, true},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":false,"versions":{"26.0100":9223372036854775807}}`, true},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":false,"versions":{"26.0100":-9223372036854775808}}`, true},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":false,"versions":{"26.0100":9223372036854775808}}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":false,"versions":{"26.0100":-9223372036854775809}}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":false,"versions":{"26.0100":12345678901234567890}}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":false,"versions":{"26.0100":7.0}}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":false,"versions":{"26.0100":7e0}}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":false,"versions":{"26.0100":07}}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":false,"versions":{"26.0100":-}}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":false,"versions":{"19.0001":1.5,"26.0100":7}}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":false,"versions":{"26.0100":"7"}}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":false,"versions":{"26.0100":7,}}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":false,"versions":{,"26.0100":7}}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":false,"versions":[]}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":false,"versions":{"26.0100":null}}`, false},
		{`{"checked_at":"2025-06-10T18:00:00Z","cpf":"52998224725","blocked":true,` + v + `}`, false}, // reordered
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z",` + v + `,"blocked":true}`, false},
		{`{"CPF":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":true,` + v + `}`, false},
		{`{"cpf":"5299822\u00347\"25","checked_at":"2025-06-10T18:00:00Z","blocked":true,` + v + `}`, false}, // escapes
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":true,"versions":{"26.0\u0031\u003000":7}}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:0\u0030Z","blocked":true,` + v + `}`, false},
		{`{"cpf":"5299822\\4725","checked_at":"2025-06-10T18:00:00Z","blocked":true,` + v + `}`, false},
		{"{\"cpf\":\"5299822\t4725\",\"checked_at\":\"2025-06-10T18:00:00Z\",\"blocked\":true," + v + `}`, false},
		{"{\"cpf\":\"52998224725\xff\",\"checked_at\":\"2025-06-10T18:00:00Z\",\"blocked\":true," + v + `}`, false},
		{`{"cpf":"52998224725é","checked_at":"2025-06-10T18:00:00Z","blocked":true,` + v + `}`, false},
		{`{ "cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":true,` + v + `}`, false}, // spaces
		{`{"cpf": "52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":true,"versions":{"26.0100": 7}}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":true,"versions":{"26.0100":7} }`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":true,` + v + `} `, false},
		{` {"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":true,` + v + `}x`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":true,` + v + `}}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":true,` + v + `,"gate":"n"}`, false}, // other keys
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":true,` + v + `,"cpf":"11144477735"}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":1,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00Z","blocked":null,` + v + `}`, false},
		{`{"cpf":null,"checked_at":null,"blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00+00:00","blocked":true,` + v + `}`, false}, // instants
		{`{"cpf":"52998224725","checked_at":"2025-06-10T15:00:00.5-03:00","blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00.1234567891Z","blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00.Z","blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00,5Z","blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T18:00:00z","blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10t18:00:00Z","blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T8:00:00Z","blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-02-29T18:00:00Z","blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"1900-02-29T18:00:00Z","blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-04-31T18:00:00Z","blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-13-10T18:00:00Z","blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-00-10T18:00:00Z","blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-00T18:00:00Z","blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T24:00:00Z","blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T23:60:00Z","blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10T23:59:60Z","blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"+2025-06-10T18:00:00Z","blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-10 18:00:00Z","blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"2025-06-1oT18:00:00Z","blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"","blocked":true,` + v + `}`, false},
		{`{"cpf":"52998224725","checked_at":"2024-02-29T18:00:00Z","blocked":true,"versions":{"19.0001":3}}`, true}, // court absent
		{`{"cpf":"52998224725","checked_at":"2024-02-29T18:00:00Z","blocked":true}`, false},
		{`{}`, false},
		{``, false},
		{`null`, false},
	} {
		p := recordParser{court: "26.0100"}
		got, ok := p.record([]byte(c.line))
		want, wok := unmarshalRecord([]byte(c.line), "26.0100")
		if ok != wok || !sameRecord(got, want) {
			t.Errorf("%s\n got %+v %v\nwant %+v %v", c.line, got, ok, want, wok)
		}
		// The instant is time.Time's own UnmarshalJSON on either path, so a
		// form of it other than appendInstant's may be read by hand too.
		if _, fast := p.exact([]byte(c.line)); (c.fast && !fast) || (fast && !wok) {
			t.Errorf("%s: read by hand %v, want %v", c.line, fast, c.fast)
		}
		// Cut at every byte (a crash in the middle of a write), after a
		// whole line read by the same parser (its second cached).
		q := recordParser{court: "26.0100"}
		q.record([]byte(c.line))
		for i := range len(c.line) {
			cut := []byte(c.line[:i])
			got, ok := q.record(cut)
			want, wok := unmarshalRecord(cut, "26.0100")
			if ok != wok || !sameRecord(got, want) {
				t.Errorf("%s\n got %+v %v\nwant %+v %v", cut, got, ok, want, wok)
			}
		}
	}
}

// API.md "Gate agent" (POST /api/v1/blocklist/checks): the body the agent
// sends is the bytes json.Marshal writes for checkBatch: any device name
// (non-ASCII, quotes, <, >, &, U+2028, controls), no records ([]) or nil
// (null), instants in UTC across seconds and in other zones, any version;
// an instant RFC 3339 cannot write is an error as with json.Marshal. One
// encoder for every batch, as uploadFile uses it across parts.
func TestBatchEncoderIsMarshal(t *testing.T) {
	sp, _ := time.LoadLocation("America/Sao_Paulo")
	base := time.Date(2025, 6, 10, 23, 59, 59, 0, time.UTC)
	var recs []batchRecord
	for i, at := range []time.Time{base, base, base.Add(1), base.Add(120 * time.Millisecond), base.Add(999999999), base.Add(time.Second),
		base.Add(time.Second + 5), base.Add(-time.Hour), time.Unix(0, 0).UTC(), time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC), base.In(sp), base.Add(7).In(time.FixedZone("", -(2*3600 + 30*60))),
		base.Local(), {}} {
		recs = append(recs, batchRecord{CPF: []string{"52998224725", `5"2<9>&\`, "52998224725é\u2028", ""}[i%4], CheckedAt: at,
			Version: []int64{0, 7, -1, math.MaxInt64, math.MinInt64}[i%5], Blocked: i%2 == 1})
	}
	var enc batchEncoder
	for _, body := range []checkBatch{
		{BatchID: "00000001749580000000000000-0123abcd", Device: "portao-1", Records: []batchRecord{}},
		{BatchID: "x.0", Device: "Portão Norte <1> & \"2\"\n\t\u2028\x01\xff", Records: nil},
		{BatchID: "x.1", Device: "portao-1", Records: recs[:1]},
		{BatchID: "x.2", Device: "Maracanã — Setor Sul", Records: recs},
		{BatchID: "", Device: "", Records: recs[5:9]},
	} {
		want, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		got, err := enc.append([]byte("x"), &body)
		if err != nil || string(got) != "x"+string(want) {
			t.Errorf("%v\n got %s\nwant %s", err, got, want)
		}
	}
	for _, at := range []time.Time{time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2025, 1, 1, 0, 0, 0, 0, time.FixedZone("", 24*3600))} {
		body := checkBatch{BatchID: "x", Records: []batchRecord{{CheckedAt: at}}}
		if _, err := json.Marshal(body); err == nil {
			t.Fatalf("json.Marshal wrote %v", at)
		}
		if b, err := enc.append(nil, &body); err == nil {
			t.Errorf("%v: written %s", at, b)
		}
	}
}

// Issue 20 §5 and API.md (POST /api/v1/blocklist/checks in batches,
// idempotent by batch_id): uploadFile sends a spool of 25,000 lines, with a
// line cut by a crash and lines of another form among them, in three parts
// "<id>.0", "<id>.1", "<id>.2" whose bodies are the bytes json.Marshal
// writes for the records json.Unmarshal reads (each with the court's
// version), with one buffer and one records slice for the parts; a second
// upload sends nothing (the parts' marks).
func TestUploadFileSendsWhatEncodingJSONWould(t *testing.T) {
	var mu sync.Mutex
	var got [][]byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil || r.ContentLength != int64(len(b)) || r.Header.Get("Authorization") != "Bearer tok" {
			t.Errorf("request: %v, length %d of %d, %q", err, r.ContentLength, len(b), r.Header.Get("Authorization"))
		}
		mu.Lock()
		got = append(got, b)
		mu.Unlock()
	}))
	defer srv.Close()
	c := &Court{URL: srv.URL, Token: "tok", Client: srv.Client(),
		state: &courtState{court: "26.0100", entries: newEntryIndex("26.0100", 0), upcoming: map[int64]Entry{}, upIndex: newEntryIndex("26.0100", 0)}}
	a := &Agent{Config: Config{Device: "Portão Norte <1>"}}

	spool := benchSpool(25_000)
	odd := []string{
		`{"checked_at":"2025-06-10T18:00:00Z","cpf":"11144477735","blocked":true,"versions":{"26.0100":3}}` + "\n",
		`{"cpf":"11144477735","checked_at":"2025-06-10T15:00:00.5-03:00","blocked":false,"versions":{"26.0100":4}}` + "\n",
		`{"cpf":"1114447\u00377735","checked_at":"2025-06-10T18:00:00Z","blocked":false,"versions":{"19.0001":4}}` + "\n",
	}
	lines := strings.SplitAfter(string(spool), "\n")
	lines = append(lines[:7000], append(odd, lines[7000:]...)...)
	file := strings.Join(lines, "") + `{"cpf":"52998224725","checked_at":"2025-06-1` // cut by a crash
	n := filepath.Join(t.TempDir(), "00000001749580000000000000-0123abcd.jsonl")
	if err := os.WriteFile(n, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	var want [][]byte
	sc := bufio.NewScanner(strings.NewReader(file))
	body := checkBatch{Device: a.Config.Device, Records: []batchRecord{}}
	part := func() {
		body.BatchID = fmt.Sprintf("00000001749580000000000000-0123abcd.%d", len(want))
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		want, body.Records = append(want, b), []batchRecord{}
	}
	for sc.Scan() {
		if r, ok := unmarshalRecord(sc.Bytes(), "26.0100"); ok {
			body.Records = append(body.Records, r)
		}
		if len(body.Records) == MaxCheckBatch {
			part()
		}
	}
	part()
	if len(want) != 3 || !bytes.Contains(want[0], []byte(`"cpf":"11144477735","checked_at":"2025-06-10T15:00:00.5-03:00","version":4`)) {
		t.Fatalf("the expected parts: %d", len(want))
	}
	for round := range 2 {
		if err := a.uploadFile(t.Context(), c, n, "00000001749580000000000000-0123abcd", true); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		if len(got) != len(want) {
			t.Fatalf("round %d: %d parts sent, want %d", round, len(got), len(want))
		}
		for i := range want {
			if !bytes.Equal(got[i], want[i]) {
				t.Errorf("part %d: %d bytes, want %d (%.200s…)", i, len(got[i]), len(want[i]), got[i])
			}
		}
		mu.Unlock()
	}
}

// Issue 20, "Speed": the gate agent's upload reads every spool line and
// encodes the batch body while the gate answers checks on the same CPUs.
// BenchmarkUploadParse reads 10,000 lines (one part) as uploadFile does and
// encodes the body (hand: recordParser and batchEncoder; encoding_json:
// json.Unmarshal and json.Marshal, as uploadFile did before); reported per
// record.
//
//	go test -run '^$' -bench BenchmarkUploadParse ./registry/gate/
func BenchmarkUploadParse(b *testing.B) {
	const n = MaxCheckBatch
	spool := benchSpool(n)
	b.Run("hand", func(b *testing.B) {
		b.SetBytes(int64(len(spool)))
		var enc batchEncoder
		var buf []byte
		records := []batchRecord{}
		for range b.N {
			sc := bufio.NewScanner(bytes.NewReader(spool))
			p := recordParser{court: "26.0100"}
			body := checkBatch{BatchID: "x", Device: "portao-1", Records: records[:0]}
			for sc.Scan() {
				if r, ok := p.record(sc.Bytes()); ok {
					body.Records = append(body.Records, r)
				}
			}
			if records = body.Records; len(records) != n {
				b.Fatalf("%d records", len(records))
			}
			var err error
			if buf, err = enc.append(buf[:0], &body); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/record")
	})
	b.Run("encoding_json", func(b *testing.B) {
		b.SetBytes(int64(len(spool)))
		for range b.N {
			sc := bufio.NewScanner(bytes.NewReader(spool))
			body := checkBatch{BatchID: "x", Device: "portao-1", Records: []batchRecord{}}
			for sc.Scan() {
				if r, ok := unmarshalRecord(sc.Bytes(), "26.0100"); ok {
					body.Records = append(body.Records, r)
				}
			}
			if len(body.Records) != n {
				b.Fatalf("%d records", len(body.Records))
			}
			if _, err := json.Marshal(body); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/record")
	})
}
