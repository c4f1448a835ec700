package web_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"
)

// BenchmarkBlocklistCheck is a gate's CPF check through every middleware
// (request id, log, security headers, metrics, session, token, Casbin) and
// the check log, in process (no network): the server's own cost per check
// (issue 6, "the check at half a constant handler"; bench/blocklist.sh
// measures over loopback). Compare with BenchmarkConstantHandler.
//
//	go run ./internal/pgtest/cmd/testcluster -- go test -run '^$' -bench . -benchmem ./internal/web/
func BenchmarkBlocklistCheck(b *testing.B) {
	f := newFixture(b)
	tok := "Bearer " + f.tokens["club"]
	warm := f.call("GET", "/api/v1/blocklist/check/468.819.736-59", f.tokens["club"])
	if warm.Code != http.StatusOK {
		b.Fatalf("check: %d %s", warm.Code, warm.Body)
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest("GET", "/api/v1/blocklist/check/468.819.736-59", nil)
			req.Header.Set("Authorization", tok)
			rec := httptest.NewRecorder()
			f.srv.Echo.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Fatalf("check: %d", rec.Code)
			}
		}
	})
}

// BenchmarkConstantHandler is the ceiling: a bare Echo handler returning a
// constant body (as bench/constecho), same harness.
func BenchmarkConstantHandler(b *testing.B) {
	e := echo.New()
	body := []byte(`{"cpf":"46881973659","blocked":false,"bans":[]}`)
	e.GET("/const", func(c echo.Context) error { return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, body) })
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, httptest.NewRequest("GET", "/const", nil))
		}
	})
}
