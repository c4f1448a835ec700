package logsink

import (
	"context"
	"log/slog"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// JSON returns the log handler of a server writing to w: the lines of
// slog.NewJSONHandler(w, nil), byte for byte, flushed at once from Warn up
// (Handler). A record whose attributes are all strings, integers, booleans,
// durations or times (the request log line's: one per request) is encoded
// here, without slog's general machinery (its handle state, buffer pool and
// the lock around the write: Writer takes whole lines already); any other
// record, and the handlers WithAttrs and WithGroup derive, are slog's own.
func JSON(w *Writer) slog.Handler {
	return Handler(&fastJSON{slow: slog.NewJSONHandler(w, nil), w: w}, w)
}

type fastJSON struct {
	slow slog.Handler // slog.NewJSONHandler(w, nil)
	w    *Writer
}

var linePool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

func (h *fastJSON) Enabled(ctx context.Context, l slog.Level) bool { return h.slow.Enabled(ctx, l) }

func (h *fastJSON) WithAttrs(as []slog.Attr) slog.Handler { return h.slow.WithAttrs(as) }

func (h *fastJSON) WithGroup(name string) slog.Handler { return h.slow.WithGroup(name) }

// Handle writes r as slog's JSON handler would, or lets that handler write
// it when r has an attribute of another kind.
func (h *fastJSON) Handle(ctx context.Context, r slog.Record) error {
	if !plainRecord(r) {
		return h.slow.Handle(ctx, r)
	}
	bp := linePool.Get().(*[]byte)
	b := append((*bp)[:0], '{')
	if !r.Time.IsZero() {
		b = append(b, `"time":`...)
		b = appendJSONTime(b, r.Time)
		b = append(b, ',')
	}
	b = append(b, `"level":`...)
	b = appendJSONString(b, r.Level.String())
	b = append(b, `,"msg":`...)
	b = appendJSONString(b, r.Message)
	r.Attrs(func(a slog.Attr) bool {
		b = append(b, ',')
		b = appendJSONString(b, a.Key)
		b = append(b, ':')
		b = appendJSONValue(b, a.Value)
		return true
	})
	b = append(b, '}', '\n')
	_, err := h.w.Write(b)
	if cap(b) <= 64<<10 { // a huge line's buffer is not kept
		*bp = b
		linePool.Put(bp)
	}
	return err
}

// plainRecord reports whether every attribute of r has a key and a value of
// a kind appendJSONValue writes as slog does, and every time (r's and the
// attributes') a year of four digits (slog writes an error there).
func plainRecord(r slog.Record) bool {
	if !r.Time.IsZero() && !fourDigitYear(r.Time) {
		return false
	}
	ok := true
	r.Attrs(func(a slog.Attr) bool {
		switch a.Value.Kind() {
		case slog.KindString, slog.KindInt64, slog.KindUint64, slog.KindBool, slog.KindDuration:
		case slog.KindTime:
			ok = fourDigitYear(a.Value.Time())
		default: // float, any (errors, marshalers), group, LogValuer
			ok = false
		}
		ok = ok && a.Key != ""
		return ok
	})
	return ok
}

func fourDigitYear(t time.Time) bool {
	y := t.Year()
	return y >= 0 && y < 10000
}

func appendJSONValue(b []byte, v slog.Value) []byte {
	switch v.Kind() {
	case slog.KindString:
		return appendJSONString(b, v.String())
	case slog.KindInt64:
		return strconv.AppendInt(b, v.Int64(), 10)
	case slog.KindUint64:
		return strconv.AppendUint(b, v.Uint64(), 10)
	case slog.KindBool:
		return strconv.AppendBool(b, v.Bool())
	case slog.KindDuration:
		return strconv.AppendInt(b, int64(v.Duration()), 10) // nanoseconds, as encoding/json
	case slog.KindTime:
		return appendJSONTime(b, v.Time())
	}
	panic("logsink: appendJSONValue of a kind plainRecord refuses: " + v.Kind().String())
}

// appendJSONTime writes t as slog's JSON handler does: RFC 3339 with
// nanoseconds, quoted.
func appendJSONTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// appendJSONString writes s as a JSON string with slog's JSON handler's
// escapes: \" and \\; \n, \r and \t; \u00XX for the other control
// characters; \ufffd for each byte of invalid UTF-8; \u2028 and \u2029
// (which JavaScript does not take in a string); everything else, HTML's
// <, > and & included, as it is.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
