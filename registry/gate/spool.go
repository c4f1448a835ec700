package gate

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/juizado/juizado/registry/blocklist/wire"
)

// Record is one local check as kept in the spool (evidence, issue 20 §5):
// the CPF, the instant, the outcome and the version of every court's list
// consulted.
type Record struct {
	CPF       string           `json:"cpf"`
	CheckedAt time.Time        `json:"checked_at"`
	Blocked   bool             `json:"blocked"`
	Versions  map[string]int64 `json:"versions"`

	versionsJSON []byte // Versions as JSON (versionSet.js), when Check made the record
}

// SpoolFlushEvery is how often Agent.Run writes the buffered check
// records to the spool file: a kill -9 loses at most the records of the
// last interval (as the court's own check log, which writes every 200 ms).
const SpoolFlushEvery = 100 * time.Millisecond

// spoolBuffer is the size at which Append writes the buffer at once.
const spoolBuffer = 64 << 10

// Spool appends check records to a JSON-lines file and hands them out in
// batches: a batch is moved to outbox/<batch_id>.jsonl before it is sent, so
// a retry after a failure or a restart sends the same batch_id again and the
// court keeps it once. Records are buffered in memory and written by Flush
// (a write per check had been most of a check's cost: 18 µs of 19).
type Spool struct {
	Path   string
	Device string

	mu      sync.Mutex
	buf     []byte
	pending int

	outboxLines atomic.Int64 // lines of the outbox's batches, as Upload last counted them
}

// Append adds r to the spool as one JSON line (the form of Record), written
// to the file by the next Flush, or at once when the buffer reaches 64 KB.
func (s *Spool) Append(r Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf = appendRecord(s.buf, &r)
	s.pending++
	if len(s.buf) >= spoolBuffer {
		return s.flush()
	}
	return nil
}

// Flush appends the buffered records to the spool file.
func (s *Spool) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.flush()
}

func (s *Spool) flush() error {
	if len(s.buf) == 0 {
		return nil
	}
	f, err := os.OpenFile(s.Path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(s.buf)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		s.buf = s.buf[:0]
	}
	return err
}

// appendRecord appends r as json.Marshal writes it, and a newline.
func appendRecord(b []byte, r *Record) []byte {
	b = append(b, `{"cpf":`...)
	b = appendJSONString(b, r.CPF)
	b = append(b, `,"checked_at":"`...)
	b = appendInstant(b, r.CheckedAt)
	b = append(b, `","blocked":`...)
	b = strconv.AppendBool(b, r.Blocked)
	b = append(b, `,"versions":`...)
	if r.versionsJSON != nil {
		b = append(b, r.versionsJSON...)
	} else {
		b = appendVersions(b, r.Versions)
	}
	return append(b, "}\n"...)
}

// secondText is one second in UTC as RFC 3339 writes it up to the seconds
// ("2025-06-10T18:00:00"), cached for the instants of that second.
type secondText struct {
	unix int64
	text [19]byte
}

// set makes st the text of t's second; false when it is not 19 bytes (a
// year outside 0000..9999).
func (st *secondText) set(t time.Time) bool {
	st.unix = t.Unix()
	f := t.Truncate(time.Second).AppendFormat(st.text[:0], "2006-01-02T15:04:05")
	return len(f) == len(st.text)
}

var lastSecond atomic.Pointer[secondText]

// appendInstant appends t as t.AppendFormat(b, time.RFC3339Nano) does
// (tested), formatting the date and time once a second for a UTC t (every
// check's instant): the fraction's digits, trailing zeros dropped, and Z
// are appended by hand. Another zone is left to AppendFormat.
func appendInstant(b []byte, t time.Time) []byte {
	if t.Location() != time.UTC {
		return t.AppendFormat(b, time.RFC3339Nano)
	}
	st := lastSecond.Load()
	if st == nil || st.unix != t.Unix() {
		st = new(secondText)
		if !st.set(t) {
			return t.AppendFormat(b, time.RFC3339Nano)
		}
		lastSecond.Store(st)
	}
	return appendFractionZ(append(b, st.text[:]...), t.Nanosecond())
}

// appendFractionZ appends the fraction of a second of ns nanoseconds as
// time.RFC3339Nano writes it (".12", trailing zeros dropped; nothing for
// 0), and Z.
func appendFractionZ(b []byte, ns int) []byte {
	if ns != 0 {
		var d [10]byte
		d[0] = '.'
		for i := 9; i >= 1; i-- {
			d[i] = byte('0' + ns%10)
			ns /= 10
		}
		n := 10
		for d[n-1] == '0' {
			n--
		}
		b = append(b, d[:n]...)
	}
	return append(b, 'Z')
}

// appendJSONString appends s as encoding/json writes a string: quotes,
// backslashes, control characters and <, >, & escaped; a string with bytes
// above ASCII is left to encoding/json itself.
func appendJSONString(b []byte, s string) []byte {
	plain := true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80:
			j, _ := json.Marshal(s)
			return append(b, j...)
		case c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&':
			plain = false
		}
	}
	if plain { // a CPF, a date, a case number: copied as it is
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c == '\b':
			b = append(b, '\\', 'b')
		case c == '\f':
			b = append(b, '\\', 'f')
		case c < 0x20 || c == '<' || c == '>' || c == '&':
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// Pending is the number of records appended since the agent started and
// not yet moved to a batch (buffered or in the spool file).
func (s *Spool) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pending
}

// Waiting is the number of check records not yet taken by every court:
// Pending, and the lines of the batches in the outbox (counted by each
// Upload: a batch of an earlier run counts from the first Upload).
func (s *Spool) Waiting() int {
	return s.Pending() + int(s.outboxLines.Load())
}

func (s *Spool) outbox() string { return filepath.Join(filepath.Dir(s.Path), "outbox") }

// cut moves the spool file to a new batch in the outbox and returns the
// batches waiting, oldest first.
func (s *Spool) cut() ([]string, error) {
	if err := os.MkdirAll(s.outbox(), 0o700); err != nil {
		return nil, err
	}
	s.mu.Lock()
	if err := s.flush(); err != nil {
		s.mu.Unlock()
		return nil, err
	}
	if st, err := os.Stat(s.Path); err == nil && st.Size() > 0 {
		id := make([]byte, 16)
		_, _ = rand.Read(id)
		name := fmt.Sprintf("%020d-%s.jsonl", time.Now().UnixNano(), hex.EncodeToString(id))
		if err := os.Rename(s.Path, filepath.Join(s.outbox(), name)); err != nil {
			s.mu.Unlock()
			return nil, err
		}
		s.pending = 0
	}
	s.mu.Unlock()
	names, err := filepath.Glob(filepath.Join(s.outbox(), "*.jsonl"))
	sort.Strings(names)
	return names, err
}

// MaxCheckBatch is the most records the agent sends in one request (the
// court's blocklist.MaxCheckBatch): a larger batch goes in parts.
const MaxCheckBatch = 10000

// checkBatch is the body of POST /api/v1/blocklist/checks.
type checkBatch struct {
	BatchID string        `json:"batch_id"`
	Device  string        `json:"device"`
	Records []batchRecord `json:"records"`
}

type batchRecord struct {
	CPF       string    `json:"cpf"`
	CheckedAt time.Time `json:"checked_at"`
	Version   int64     `json:"version"`
	Blocked   bool      `json:"blocked"`
}

// recordParser reads the lines of a spool file for the upload to one court
// (court, its code: the version a record carries is that court's). A line
// of exactly the form appendRecord writes is read by hand (exact):
// json.Unmarshal into Record, with a map of the versions, had been most of
// an upload's cost (BenchmarkUploadParse), on the CPUs that answer the
// checks. Any other line is read by json.Unmarshal, as before.
type recordParser struct {
	court string
}

// record reads line as a Record and returns its record for the court;
// false for a line that is not a Record (a line cut by a crash).
func (p *recordParser) record(line []byte) (batchRecord, bool) {
	if r, ok := p.exact(line); ok {
		return r, true
	}
	var r Record
	if json.Unmarshal(line, &r) != nil {
		return batchRecord{}, false
	}
	return batchRecord{CPF: r.CPF, CheckedAt: r.CheckedAt, Version: r.Versions[p.court], Blocked: r.Blocked}, true
}

// exact reads s when it is exactly of the form appendRecord writes:
//
//	{"cpf":"…","checked_at":"2025-06-10T18:00:00.12Z","blocked":false,"versions":{"26.0100":7,…}}
//
// its strings of printable ASCII without escapes (the instant read by
// time.Time's own UnmarshalJSON, as json.Unmarshal reads it), versions null
// or an object of int64s, no spaces; it reads what json.Unmarshal reads
// (tested), the version of a court named twice being the last. Else false,
// and s is left to json.Unmarshal.
func (p *recordParser) exact(s []byte) (r batchRecord, ok bool) {
	const (
		cpfKey      = `{"cpf":"`
		atKey       = `","checked_at":"`
		blockedKey  = `","blocked":`
		versionsKey = `,"versions":`
	)
	if !bytes.HasPrefix(s, []byte(cpfKey)) {
		return r, false
	}
	s = s[len(cpfKey):]
	n := plainString(s)
	if n < 0 || !bytes.HasPrefix(s[n:], []byte(atKey)) {
		return r, false
	}
	cpf := s[:n]
	s = s[n+len(atKey)-1:] // from the instant's opening quote
	n = plainString(s[1:])
	if n < 0 || r.CheckedAt.UnmarshalJSON(s[:n+2]) != nil || !bytes.HasPrefix(s[n+1:], []byte(blockedKey)) {
		return r, false
	}
	s = s[n+1+len(blockedKey):]
	switch {
	case bytes.HasPrefix(s, []byte("true")):
		r.Blocked, s = true, s[4:]
	case bytes.HasPrefix(s, []byte("false")):
		s = s[5:]
	default:
		return r, false
	}
	if !bytes.HasPrefix(s, []byte(versionsKey)) {
		return r, false
	}
	s = s[len(versionsKey):]
	if bytes.HasPrefix(s, []byte("null")) {
		s = s[4:]
	} else {
		if len(s) < 2 || s[0] != '{' {
			return r, false
		}
		s = s[1:]
		for first := true; len(s) > 0 && s[0] != '}'; first = false {
			if !first {
				if s[0] != ',' {
					return r, false
				}
				s = s[1:]
			}
			if len(s) == 0 || s[0] != '"' {
				return r, false
			}
			s = s[1:]
			n := plainString(s)
			if n < 0 || len(s) < n+2 || s[n+1] != ':' {
				return r, false
			}
			key := s[:n]
			s = s[n+2:]
			v, m := jsonInt64(s)
			if m == 0 {
				return r, false
			}
			s = s[m:]
			if string(key) == p.court {
				r.Version = v
			}
		}
		if len(s) == 0 {
			return r, false
		}
		s = s[1:] // the object's }
	}
	if len(s) != 1 || s[0] != '}' {
		return r, false
	}
	r.CPF = string(cpf)
	return r, true
}

// plainString is the length of the JSON string's content at the start of
// s up to its closing quote, when every byte of it is printable ASCII other
// than a backslash (what json.Unmarshal takes as it is); else -1.
func plainString(s []byte) int {
	for i, c := range s {
		switch {
		case c == '"':
			return i
		case c < 0x20 || c >= 0x7f || c == '\\':
			return -1
		}
	}
	return -1
}

// jsonInt64 reads the JSON number at the start of s when it is an integer
// (no fraction, no exponent, no leading zero) that fits an int64, as
// json.Unmarshal reads it into one; n is its length, 0 for anything else.
func jsonInt64(s []byte) (v int64, n int) {
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		n = 1
	}
	start := n
	var u uint64
	for ; n < len(s) && s[n] >= '0' && s[n] <= '9'; n++ {
		if n-start == 19 {
			return 0, 0 // more than int64's digits
		}
		u = u*10 + uint64(s[n]-'0')
	}
	switch {
	case n == start, s[start] == '0' && n > start+1:
		return 0, 0
	case neg && u <= 1<<63:
		return int64(-u), n
	case !neg && u < 1<<63:
		return int64(u), n
	}
	return 0, 0
}

// batchEncoder writes the bodies of POST /api/v1/blocklist/checks for one
// upload, the instants' date and time to the second formatted once a
// second in a cache of its own (appendInstant's is the checks': the old
// instants of an upload would displace it).
type batchEncoder struct {
	sec  secondText
	have bool // sec is set
}

// append appends body as json.Marshal writes it (tested); an error, as
// json.Marshal's, for an instant that RFC 3339 cannot write (a year
// outside 0000..9999, a zone offset of 24 hours or more).
func (e *batchEncoder) append(b []byte, body *checkBatch) ([]byte, error) {
	b = append(b, `{"batch_id":`...)
	b = appendJSONString(b, body.BatchID)
	b = append(b, `,"device":`...)
	b = appendJSONString(b, body.Device)
	b = append(b, `,"records":`...)
	if body.Records == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range body.Records {
			r := &body.Records[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"cpf":`...)
			b = appendJSONString(b, r.CPF)
			b = append(b, `,"checked_at":`...)
			var err error
			if b, err = e.instant(b, r.CheckedAt); err != nil {
				return b, err
			}
			b = append(b, `,"version":`...)
			b = strconv.AppendInt(b, r.Version, 10)
			b = append(b, `,"blocked":`...)
			b = strconv.AppendBool(b, r.Blocked)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

// instant appends t as t.MarshalJSON writes it, by hand in UTC.
func (e *batchEncoder) instant(b []byte, t time.Time) ([]byte, error) {
	if t.Location() == time.UTC {
		if !e.have || e.sec.unix != t.Unix() {
			e.have = e.sec.set(t)
		}
		if e.have {
			b = append(append(b, '"'), e.sec.text[:]...)
			return append(appendFractionZ(b, t.Nanosecond()), '"'), nil
		}
	}
	j, err := t.MarshalJSON()
	if err != nil {
		return b, fmt.Errorf("gate: checked_at: %w", err)
	}
	return append(b, j...), nil
}

// Upload sends every waiting batch to every court (POST
// /api/v1/blocklist/checks with the club token; uploadFile), each record
// with that court's version; a batch leaves the outbox once every court
// took it.
func (a *Agent) Upload(ctx context.Context) error {
	if a.spool == nil {
		return nil
	}
	names, err := a.spool.cut()
	if err != nil {
		return err
	}
	counts := make([]int, len(names))
	total := 0
	for i, n := range names {
		if counts[i], err = countLines(n); err != nil {
			return err
		}
		total += counts[i]
	}
	a.spool.outboxLines.Store(int64(total))
	for i, n := range names {
		lines := counts[i]
		id := strings.TrimSuffix(filepath.Base(n), ".jsonl")
		all := true
		for _, c := range a.Courts {
			if err := a.uploadFile(ctx, c, n, id, lines > MaxCheckBatch); err != nil {
				all = false
			}
		}
		if !all {
			return fmt.Errorf("gate: batch %s not taken by every court", id)
		}
		matches, _ := filepath.Glob(n + ".*.sent")
		for _, m := range matches {
			_ = os.Remove(m)
		}
		_ = os.Remove(n)
		a.spool.outboxLines.Add(-int64(lines))
	}
	return nil
}

// uploadFile sends the batch file n to court c, each record with that
// court's version, in parts of at most MaxCheckBatch records (the court
// refuses more) read one part at a time: with parts, part i is batch
// "<id>.<i>" with a mark file of its own, the same at every retry; else the
// file is batch id. A file without any record (its lines all cut by a
// crash) sends nothing: the court refuses an empty batch.
func (a *Agent) uploadFile(ctx context.Context, c *Court, n, id string, parts bool) error {
	f, err := os.Open(n)
	if err != nil {
		return err
	}
	defer f.Close()
	key := wire.KeyID([]byte(c.URL))
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	p := recordParser{court: c.Status().Court}
	var enc batchEncoder
	records := []batchRecord{} // the part's records, reused by the parts
	for i, more := 0, true; more; i++ {
		body := checkBatch{BatchID: id, Device: a.Config.Device, Records: records[:0]}
		mark := n + "." + key + ".sent"
		if parts {
			body.BatchID, mark = fmt.Sprintf("%s.%d", id, i), fmt.Sprintf("%s.%s.%d.sent", n, key, i)
		}
		for len(body.Records) < MaxCheckBatch {
			if !sc.Scan() {
				more = false
				break
			}
			if r, ok := p.record(sc.Bytes()); ok { // a line cut by a crash is skipped
				body.Records = append(body.Records, r)
			}
		}
		records = body.Records
		if err := sc.Err(); err != nil {
			return err
		}
		if !more && len(body.Records) == 0 {
			// Nothing (left) to send: a part after the last record, or a
			// file of lines cut by a crash only. The court refuses a batch
			// without records (422), and a retry forever would hold back
			// every later batch.
			break
		}
		if _, err := os.Stat(mark); err == nil {
			continue
		}
		// A new buffer for each part: the transport may still read the
		// last one after Do returned.
		b, err := enc.append(make([]byte, 0, 100*len(body.Records)+200), &body)
		if err != nil {
			return err
		}
		err = c.postChecks(ctx, b)
		var final *batchRefusal
		switch {
		case errors.As(err, &final):
			// Kept on disk as <batch>.<court key>[.<part>].conflict or
			// .refused, with the court's answer beside it (.answer), not
			// sent again (the outbox sends *.jsonl), and marked done: a
			// retry cannot change the answer, and would hold back every
			// batch after it.
			aside := strings.TrimSuffix(mark, ".sent") + "." + final.kind
			_ = os.Link(n, aside)
			_ = os.WriteFile(aside+".answer", final.body, 0o600)
			c.setAside(final, body.BatchID, len(body.Records), aside)
		case err != nil:
			c.uploadFailed(err)
			return err
		default:
			c.uploaded()
		}
		_ = os.WriteFile(mark, nil, 0o600)
	}
	return nil
}

// countLines counts the lines of file n.
func countLines(n string) (int, error) {
	f, err := os.Open(n)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	lines := 0
	for {
		k, err := f.Read(buf)
		lines += bytes.Count(buf[:k], []byte{'\n'})
		if err == io.EOF {
			return lines, nil
		}
		if err != nil {
			return lines, err
		}
	}
}

// postChecks sends body (a checkBatch as JSON) to the court.
func (c *Court) postChecks(ctx context.Context, body []byte) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL+"/api/v1/blocklist/checks", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.Token)
	resp, err := c.Client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	_, _ = io.Copy(io.Discard, resp.Body)
	switch resp.StatusCode {
	case http.StatusConflict:
		return &batchRefusal{kind: "conflict", status: resp.Status, body: answer}
	case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType, http.StatusUnprocessableEntity:
		return &batchRefusal{kind: "refused", status: resp.Status, body: answer}
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("gate: POST /api/v1/blocklist/checks: %s", resp.Status)
	}
	return nil
}

// batchRefusal is the court's final answer to a batch, which sending it
// again cannot change: 409 (kind "conflict": the court holds a batch of
// this club under the same batch_id with other records) or 400, 413, 415,
// 422 (kind "refused": the court will not store these records, e.g. a
// checked_at more than 5 minutes ahead of its clock; body says why, as
// problem+json). Any other failure (no answer, 401/403 for a token, 404,
// 408, 429, 5xx) is retried.
type batchRefusal struct {
	kind   string // "conflict" or "refused"
	status string // the HTTP status line
	body   []byte // the court's answer (at most 64 KB)
}

func (e *batchRefusal) Error() string {
	return fmt.Sprintf("gate: POST /api/v1/blocklist/checks: %s (%s): %s", e.status, e.kind, e.detail())
}

// detail is the court's problem detail, else its answer's first 300 bytes.
func (e *batchRefusal) detail() string {
	var p struct {
		Detail string `json:"detail"`
	}
	if json.Unmarshal(e.body, &p) == nil && p.Detail != "" {
		return p.Detail
	}
	return string(e.body[:min(len(e.body), 300)])
}
