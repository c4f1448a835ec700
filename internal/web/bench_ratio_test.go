package web_test

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
)

// BenchmarkCheckVsConstantEcho measures, in one run and in process (no
// network), the court's CPF check through every middleware and the check
// log (GET /api/v1/blocklist/check/{cpf}, a blocked CPF, as a club) and
// the same with ?venue= (answered from the version's places in memory,
// issue 32 item 2), each for a second with GOMAXPROCS callers, between two
// seconds of a constant Echo handler (as bench/constecho); it reports the
// throughputs (req/s) and each check's ratio to the mean of the two
// constant runs (goal ≥ 0.8; bench/README.md).
//
//	go run ./internal/pgtest/cmd/testcluster -- go test -run '^$' -bench CheckVsConstantEcho ./internal/web/
func BenchmarkCheckVsConstantEcho(b *testing.B) {
	f := newFixture(b)
	ce := echo.New()
	body := []byte(`{"cpf":"46881973659","blocked":false,"bans":[]}`)
	ce.GET("/const", func(c echo.Context) error { return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, body) })
	tok := "Bearer " + f.tokens["club"]
	call := func(h http.Handler, path, auth string) func() bool {
		return func() bool {
			req := httptest.NewRequest("GET", path, nil)
			if auth != "" {
				req.Header.Set("Authorization", auth)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			return rec.Code == http.StatusOK
		}
	}
	constant := call(ce, "/const", "")
	check := call(f.srv.Echo, "/api/v1/blocklist/check/468.819.736-59", tok)
	atVenue := call(f.srv.Echo, "/api/v1/blocklist/check/468.819.736-59?venue=Maracan%C3%A3", tok)
	for _, do := range []func() bool{check, atVenue} {
		if !do() {
			b.Fatal("the check does not answer 200")
		}
	}
	var c1, ck, cv, c2 float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c1 += rate(b, constant, time.Second)
		ck += rate(b, check, time.Second)
		cv += rate(b, atVenue, time.Second)
		c2 += rate(b, constant, time.Second)
	}
	n := float64(b.N)
	base := (c1 + c2) / 2 / n
	b.ReportMetric(base, "echo-req/s")
	b.ReportMetric(ck/n, "check-req/s")
	b.ReportMetric(cv/n, "venue-req/s")
	b.ReportMetric(ck/n/base, "check/echo")
	b.ReportMetric(cv/n/base, "venue/echo")
}

// rate runs do with GOMAXPROCS goroutines for d and returns the calls a
// second; a call that fails fails the benchmark.
func rate(b *testing.B, do func() bool, d time.Duration) float64 {
	var n, bad atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	start := time.Now()
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				if !do() {
					bad.Add(1)
				}
				n.Add(1)
			}
		}()
	}
	time.Sleep(d)
	stop.Store(true)
	wg.Wait()
	if bad.Load() > 0 {
		b.Fatalf("%d of %d calls failed", bad.Load(), n.Load())
	}
	return float64(n.Load()) / time.Since(start).Seconds()
}
