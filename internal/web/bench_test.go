package web_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/logsink"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/labstack/echo/v4"
)

// reportCPU reports the process's CPU time (user and system, every thread:
// the garbage collector's and the check log writer's too) per operation of
// the timed part of b as cpu-ns/op: unlike ns/op, it does not grow when
// other programs share the machine's cores. Call it when b's loop ends.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
}

// processCPU is the CPU time the process has used so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkBlocklistCheck is a gate's CPF check through every middleware
// (request id, log, security headers, metrics, session, token, Casbin) and
// the check log, in process (no network): the server's own cost per check
// (issue 6, "the check at half a constant handler"; bench/blocklist.sh
// measures over loopback). Compare with BenchmarkConstantHandler.
//
//	go run ./internal/pgtest/cmd/testcluster -- go test -run '^$' -bench . -benchmem ./internal/web/
func BenchmarkBlocklistCheck(b *testing.B) {
	f := newFixture(b)
	benchCheck(b, f, f.srv.Echo)
}

// BenchmarkBlocklistCheckSlogJSON is BenchmarkBlocklistCheck with the log
// handler cmd/juizado installs: slog's JSON handler over a logsink.Writer
// (here over io.Discard), rather than the tests' text handler.
func BenchmarkBlocklistCheckSlogJSON(b *testing.B) {
	f := newFixture(b)
	sink := logsink.New(io.Discard, 0, 0)
	defer sink.Close()
	srv := testenv.MustServer(b, f.g, testenv.WithLogger(slog.New(logsink.Handler(slog.NewJSONHandler(sink, nil), sink))))
	defer srv.Close()
	benchCheck(b, f, srv.Echo)
}

func benchCheck(b *testing.B, f *fixture, e *echo.Echo) {
	tok := "Bearer " + f.tokens["club"]
	warm := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/api/v1/blocklist/check/468.819.736-59", nil)
	req.Header.Set("Authorization", tok)
	e.ServeHTTP(warm, req)
	if warm.Code != http.StatusOK {
		b.Fatalf("check: %d %s", warm.Code, warm.Body)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := processCPU()
	defer func() { reportCPU(b, cpu) }()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest("GET", "/api/v1/blocklist/check/468.819.736-59", nil)
			req.Header.Set("Authorization", tok)
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
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
	cpu := processCPU()
	defer func() { reportCPU(b, cpu) }()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, httptest.NewRequest("GET", "/const", nil))
		}
	})
}
