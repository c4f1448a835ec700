package web_test

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
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
// (the goal: the check at half a constant handler; bench/blocklist.sh
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

// BenchmarkBlocklistChecksUpload is a gate agent's batch of 10,000 check
// records (POST /api/v1/blocklist/checks, as registry/gate sends it) read,
// checked and stored: the court's cost of the evidence a stadium sends
// (at 3,600 checks a second an agent sends 36,000 records
// every 10 s). It reports, per record, the wall time (ns/record), this
// process's CPU (cpu-ns/record) and PostgreSQL's (pg-cpu-ns/record: every
// process named postgres, read from /proc; absent where /proc is not).
func BenchmarkBlocklistChecksUpload(b *testing.B) {
	f := newFixture(b)
	f.versions(b, 12)
	const n = 10000
	tok := "Bearer " + f.tokens["club"]
	at := time.Now().Add(-time.Hour).UTC()
	body := func(id string) []byte {
		buf := []byte(`{"batch_id":"` + id + `","device":"portao-norte-3","records":[`)
		for i := 0; i < n; i++ {
			if i > 0 {
				buf = append(buf, ',')
			}
			cpf := []string{"46881973659", "52998224725", "11144477735"}[i%3]
			buf = fmt.Appendf(buf, `{"cpf":%q,"checked_at":%q,"version":%d,"blocked":%t}`, cpf, at.Add(time.Duration(i)*time.Millisecond).Format(time.RFC3339Nano), 12, i%3 == 0)
		}
		return append(buf, "]}"...)
	}
	post := func(b *testing.B, payload []byte) {
		req := httptest.NewRequest("POST", "/api/v1/blocklist/checks", bytes.NewReader(payload))
		req.Header.Set("Authorization", tok)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		f.srv.Echo.ServeHTTP(rec, req)
		if rec.Code != http.StatusCreated {
			b.Fatalf("upload: %d %s", rec.Code, rec.Body)
		}
	}
	post(b, body("warm"))
	bodies := make([][]byte, b.N)
	for i := range bodies {
		bodies[i] = body(fmt.Sprintf("bench-%d-%d", b.N, i))
	}
	b.SetBytes(int64(len(bodies[0])))
	b.ResetTimer()
	cpu, pg := processCPU(), postgresCPU()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		post(b, bodies[i])
	}
	records := float64(b.N * n)
	b.ReportMetric(float64(time.Since(start).Nanoseconds())/records, "ns/record")
	b.ReportMetric(float64(processCPU()-cpu)/records, "cpu-ns/record")
	if pg >= 0 {
		b.ReportMetric(float64(postgresCPU()-pg)/records, "pg-cpu-ns/record")
	}
}

// postgresCPU is the CPU time used so far by every process named postgres
// on the machine (user and system, from /proc/PID/stat), or -1 without
// /proc.
func postgresCPU() time.Duration {
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return -1
	}
	var ticks int64
	for _, d := range dirs {
		stat, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ... utime(14) stime(15)
		open, close := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
		if open < 0 || close < open || string(stat[open+1:close]) != "postgres" {
			continue
		}
		fields := strings.Fields(string(stat[close+1:]))
		if len(fields) < 13 {
			continue
		}
		u, _ := strconv.ParseInt(fields[11], 10, 64)
		s, _ := strconv.ParseInt(fields[12], 10, 64)
		ticks += u + s
	}
	return time.Duration(ticks) * (time.Second / 100) // USER_HZ is 100 on Linux
}
