package gate

import (
	"bytes"
	"errors"
	"log/slog"
	"net/url"
	"strings"
	"testing"
)

// README "Gate agent" (a court error is logged when it changes): one
// outage is one warning, although the requests that fail in it (the feed's
// long-poll, the snapshot, another since=V) quote other URLs; another
// failure is a new warning, and /status keeps the last text, URL included.
func TestCourtLogsAnOutageOnce(t *testing.T) {
	var log bytes.Buffer
	c := &Court{URL: "http://court.test", Logger: slog.New(slog.NewTextHandler(&log, nil))}
	refused := errors.New("dial tcp 127.0.0.1:9: connect: connection refused")
	for _, u := range []string{
		"http://court.test/api/v1/blocklist/changes?since=5&wait=25",
		"http://court.test/api/v1/blocklist/changes?since=5",
		"http://court.test/api/v1/blocklist?format=json",
	} {
		_ = c.fail(&url.Error{Op: "Get", URL: u, Err: refused})
	}
	if n := strings.Count(log.String(), "gate court error"); n != 1 {
		t.Fatalf("one outage logged %d times:\n%s", n, &log)
	}
	if st := c.Status(); !strings.Contains(st.LastError, "format=json") {
		t.Errorf("status last_error %q: want the last failure's text", st.LastError)
	}
	_ = c.fail(&url.Error{Op: "Get", URL: "http://court.test/api/v1/blocklist?format=json", Err: errors.New("EOF")})
	if n := strings.Count(log.String(), "gate court error"); n != 2 {
		t.Fatalf("a different failure not logged:\n%s", &log)
	}
	c.succeeded()
	if n := strings.Count(log.String(), "gate court recovered"); n != 1 {
		t.Fatalf("recovery logged %d times:\n%s", n, &log)
	}
}
