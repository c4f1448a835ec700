package web_test

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// A client's Host header never becomes a metrics label: anyone could add
// series without end.
func TestMetricsIgnoreHostHeader(t *testing.T) {
	f := newFixture(t)
	for _, h := range []string{"evil-1.example", "evil-2.example"} {
		req := httptest.NewRequest("GET", "/healthz", nil)
		req.Host = h
		f.srv.Echo.ServeHTTP(httptest.NewRecorder(), req)
	}
	rec := f.call("GET", "/metrics", "")
	if strings.Contains(rec.Body.String(), "evil-") {
		t.Fatal("the Host header reached the metrics labels")
	}
	if !strings.Contains(rec.Body.String(), `url="/healthz"`) {
		t.Fatal("no series for /healthz")
	}
}
