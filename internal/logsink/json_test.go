package logsink

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"math"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// sameAsSlog logs each record through JSON and through slog's own JSON
// handler and fails on the first line that differs.
func sameAsSlog(t *testing.T, records []slog.Record, derive func(slog.Handler) slog.Handler) {
	t.Helper()
	var got, want bytes.Buffer
	w := New(&got, 0, time.Hour)
	fast, slow := JSON(w), slog.Handler(slog.NewJSONHandler(&want, nil))
	if derive != nil {
		fast, slow = derive(fast), derive(slow)
	}
	ctx := context.Background()
	for _, r := range records {
		if fast.Enabled(ctx, r.Level) != slow.Enabled(ctx, r.Level) {
			t.Fatalf("Enabled(%v) differs", r.Level)
		}
		if !slow.Enabled(ctx, r.Level) {
			continue
		}
		before := want.Len()
		if err := fast.Handle(ctx, r.Clone()); err != nil {
			t.Fatal(err)
		}
		if err := slow.Handle(ctx, r.Clone()); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("line differs from slog's:\n got %q\nwant %q", got.Bytes()[before:], want.Bytes()[before:])
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// tricky are strings with every escape slog's JSON handler makes: each
// ASCII byte, invalid UTF-8, U+2028 and U+2029, HTML's <, > and &, and
// text in Portuguese.
func tricky() []string {
	var ascii strings.Builder
	for c := 0; c < utf8.RuneSelf; c++ {
		ascii.WriteByte(byte(c))
	}
	return []string{"", "request", "/api/v1/blocklist/check/:cpf", ascii.String(), "a\"b\\c\nd\re\tf\x00\x1f\x7f",
		"\xff\xfe bad \xc3", "sep\u2028par\u2029end", "<script>&amp;</script>", "não há sessão: ç, ã, é", "\U0001F600 emoji",
		string([]byte{0xe2, 0x80}), "trailing\\"}
}

// The request log line and every record of plain attributes are written
// byte for byte as slog.NewJSONHandler(w, nil) writes them: time, level,
// message and attributes in order, the same escapes, durations in
// nanoseconds, times in RFC 3339 with nanoseconds (issue 20: the request
// log line, one per request, without slog's general machinery).
func TestJSONWritesWhatSlogWrites(t *testing.T) {
	sp, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	times := []time.Time{now, now.UTC(), now.In(sp), time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, sp), {}}
	var rs []slog.Record
	// The request line as the server writes it.
	r := slog.NewRecord(now, slog.LevelInfo, "request", 0)
	r.AddAttrs(slog.String("request_id", "0123456789abcdef0123456789abcdef"), slog.String("method", "GET"),
		slog.String("route", "/api/v1/blocklist/check/:cpf"), slog.Int("status", 200), slog.Duration("latency", 12345*time.Nanosecond))
	rs = append(rs, r)
	for _, tm := range times {
		for _, l := range []slog.Level{slog.LevelDebug, slog.LevelInfo, slog.LevelInfo + 2, slog.LevelWarn, slog.LevelError, slog.LevelError + 4} {
			r := slog.NewRecord(tm, l, "m", 0)
			r.AddAttrs(slog.Time("at", tm))
			rs = append(rs, r)
		}
	}
	for _, s := range tricky() {
		r := slog.NewRecord(now, slog.LevelInfo, s, 0)
		r.AddAttrs(slog.String(s+"k", s), slog.String("k", s))
		rs = append(rs, r)
	}
	r = slog.NewRecord(now, slog.LevelWarn, "kinds", 0)
	r.AddAttrs(slog.Int64("min", math.MinInt64), slog.Int64("max", math.MaxInt64), slog.Uint64("u", math.MaxUint64),
		slog.Bool("t", true), slog.Bool("f", false), slog.Duration("neg", -time.Hour), slog.Duration("zero", 0),
		slog.Int("i", -1), slog.String("dup", "1"), slog.String("dup", "2"))
	rs = append(rs, r)
	// Attributes of other kinds, and empty keys: slog's handler writes them.
	r = slog.NewRecord(now, slog.LevelError, "other kinds", 0)
	r.AddAttrs(slog.Float64("f", 0.1), slog.Float64("nan", math.NaN()), slog.Any("err", errors.New("falhou")), slog.Any("m", map[string]int{"a": 1}),
		slog.Group("g", slog.String("in", "x")), slog.Group("empty"), slog.String("", "no key"), slog.Any("nil", nil),
		slog.Any("valuer", slog.StringValue("v")), slog.Time("far", time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)))
	rs = append(rs, r)
	rs = append(rs, slog.NewRecord(time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC), slog.LevelInfo, "year -1", 0))
	rs = append(rs, slog.NewRecord(now, slog.LevelInfo, "no attrs", 0))

	sameAsSlog(t, rs, nil)
	sameAsSlog(t, rs, func(h slog.Handler) slog.Handler { return h.WithAttrs([]slog.Attr{slog.String("svc", "juizado")}) })
	sameAsSlog(t, rs, func(h slog.Handler) slog.Handler { return h.WithGroup("req").WithAttrs([]slog.Attr{slog.Int("n", 1)}) })
}

// Arbitrary text in the message, keys and values is escaped as slog escapes
// it.
func FuzzJSONString(f *testing.F) {
	for _, s := range tricky() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := slog.NewRecord(time.Unix(0, 1), slog.LevelInfo, s, 0)
		r.AddAttrs(slog.String(s+"k", s))
		sameAsSlog(t, []slog.Record{r}, nil)
	})
}

// A warning written by JSON reaches the underlying writer at once, as
// through Handler.
func TestJSONFlushesWarnings(t *testing.T) {
	var out syncBuf
	w := New(&out, 0, time.Hour)
	defer w.Close()
	l := slog.New(JSON(w))
	l.Info("request", "status", 200)
	if got := out.String(); got != "" {
		t.Fatalf("info written at once: %q", got)
	}
	l.Warn("database unavailable", "route", "/x")
	if got := out.String(); !strings.Contains(got, `"msg":"request"`) || !strings.Contains(got, `"msg":"database unavailable"`) {
		t.Fatalf("warning not flushed with the line before it: %q", got)
	}
}

// BenchmarkRequestLine is the server's request log line through slog's JSON
// handler (as cmd/juizado installs it) and through JSON.
func BenchmarkRequestLine(b *testing.B) {
	for _, c := range []struct {
		name string
		h    func(*Writer) slog.Handler
	}{
		{"slog", func(w *Writer) slog.Handler { return Handler(slog.NewJSONHandler(w, nil), w) }},
		{"JSON", JSON},
	} {
		b.Run(c.name, func(b *testing.B) {
			w := New(io.Discard, 0, 0)
			defer w.Close()
			h := c.h(w)
			ctx := context.Background()
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					r := slog.NewRecord(time.Now(), slog.LevelInfo, "request", 0)
					r.AddAttrs(slog.String("request_id", "0123456789abcdef0123456789abcdef"), slog.String("method", "GET"),
						slog.String("route", "/api/v1/blocklist/check/:cpf"), slog.Int("status", 200), slog.Duration("latency", 12345*time.Nanosecond))
					_ = h.Handle(ctx, r)
				}
			})
		})
	}
}
