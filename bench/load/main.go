// Command load is the bounded HTTP load client of the benchmarks in bench/:
// it replays requests from a file with C concurrent connections until N
// requests are done or D has passed (whichever comes first) and prints the
// throughput and the latency percentiles. It refuses any target that is not
// a loopback address.
//
// The request file has one request a line, fields separated by tabs:
//
//	METHOD <TAB> URL [<TAB> BEARER-TOKEN [<TAB> JSON-BODY]]
//
// Lines are taken in turn (cycling, or each once with -once).
//
// With -rate R the requests are sent at a fixed rate of R a second in all
// (request k is due at start + k/R, and goes out on connection k mod C)
// instead of as fast as the connections allow. Each connection is then a
// plain HTTP/1.1 keep-alive connection written and read directly (the
// request's bytes prepared once, the answer read with http.ReadResponse),
// so that the client's own work stays small beside a server's answer of a
// tenth of a millisecond. A latency is counted:
//   - from the instant the request was due, when the connection was still
//     busy with its previous request at that instant: the server's delay
//     of one request counts against the ones it delays too (no coordinated
//     omission);
//   - from the instant it was written, when the connection was free at the
//     due instant: the client's own timer wakes up to a millisecond late
//     (Go's sleep on Linux), and that lateness is the client's, not the
//     server's. It is reported apart ("sent late": how long after its due
//     instant a request went out, p50 and p99), so that the rate actually
//     kept can be judged.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

type request struct {
	method, url, token string
	body               []byte
}

func main() {
	file := flag.String("f", "", "request file (METHOD<TAB>URL[<TAB>TOKEN[<TAB>BODY]])")
	conns := flag.Int("c", 8, "concurrent connections")
	n := flag.Int("n", 2000, "at most this many requests")
	dur := flag.Duration("d", 30*time.Second, "at most this long")
	once := flag.Bool("once", false, "send each line at most once")
	warm := flag.Int("warm", 0, "requests sent first and not counted")
	label := flag.String("label", "", "label of the result line")
	rate := flag.Float64("rate", 0, "requests per second in all (0: as fast as possible); see the package comment for how latency is counted")
	flag.Parse()
	reqs, err := read(*file)
	if err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(2)
	}
	if *once && *n > len(reqs) {
		*n = len(reqs)
	}
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: *conns, MaxConnsPerHost: *conns, DisableCompression: true}}
	var next atomic.Int64
	do := func(r request) (time.Duration, int, string) {
		req, _ := http.NewRequest(r.method, r.url, bytes.NewReader(r.body))
		if r.token != "" {
			req.Header.Set("Authorization", "Bearer "+r.token)
		}
		if r.body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		t := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			return time.Since(t), 0, err.Error()
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		el := time.Since(t)
		msg := ""
		if resp.StatusCode/100 != 2 {
			msg = fmt.Sprintf("%d %s", resp.StatusCode, strings.TrimSpace(string(b[:min(len(b), 300)])))
		}
		return el, resp.StatusCode, msg
	}
	if *rate > 0 {
		if err := paced(reqs, *rate, *conns, *n, *dur, *warm, *label); err != nil {
			fmt.Fprintln(os.Stderr, "load:", err)
			os.Exit(1)
		}
		return
	}
	for i := 0; i < *warm && i < len(reqs); i++ {
		do(reqs[i%len(reqs)])
	}
	if *warm > 0 && !*once {
		next.Store(int64(*warm))
	}
	var mu sync.Mutex
	var lat []time.Duration
	var errors int
	var firstErr string
	deadline := time.Now().Add(*dur)
	start := time.Now()
	var wg sync.WaitGroup
	var done atomic.Int64
	for w := 0; w < *conns; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				k := next.Add(1) - 1
				slot := done.Add(1)
				if slot > int64(*n) {
					return
				}
				if *once && k >= int64(len(reqs)) {
					return
				}
				el, _, msg := do(reqs[k%int64(len(reqs))])
				mu.Lock()
				lat = append(lat, el)
				if msg != "" {
					errors++
					if firstErr == "" {
						firstErr = msg
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	total := time.Since(start)
	q := quantiles(lat)
	fmt.Printf("%s: %d requests in %.1fs, %.1f req/s, latency ms p50 %s p90 %s p99 %s max %s, non-2xx %d\n",
		*label, len(lat), total.Seconds(), float64(len(lat))/total.Seconds(), q(0.5), q(0.9), q(0.99), q(1), errors)
	if firstErr != "" {
		fmt.Printf("  first error: %s\n", firstErr)
	}
}

// quantiles sorts d and returns its quantile p (0..1) in milliseconds,
// two decimals ("-" when d is empty).
func quantiles(d []time.Duration) func(p float64) string {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return func(p float64) string {
		if len(d) == 0 {
			return "-"
		}
		return fmt.Sprintf("%.2f", float64(d[int(p*float64(len(d)-1))].Microseconds())/1000)
	}
}

func read(name string) ([]request, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []request
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		p := strings.SplitN(sc.Text(), "\t", 4)
		if len(p) < 2 {
			return nil, fmt.Errorf("%s: line %q: want METHOD<TAB>URL", name, sc.Text())
		}
		u, err := url.Parse(p[1])
		if err != nil {
			return nil, err
		}
		u.RawQuery = u.Query().Encode() // the file may hold names with spaces and accents
		p[1] = u.String()
		if !loopback(u.Hostname()) {
			return nil, fmt.Errorf("%s: %s is not a loopback address: refused", name, u.Host)
		}
		r := request{method: p[0], url: p[1]}
		if len(p) > 2 {
			r.token = p[2]
		}
		if len(p) > 3 && p[3] != "" {
			r.body = []byte(p[3])
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no requests", name)
	}
	return out, sc.Err()
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
