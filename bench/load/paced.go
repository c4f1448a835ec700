package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// wire is a request's bytes as written on a keep-alive HTTP/1.1 connection.
func wire(r request) (host string, b []byte, err error) {
	u, err := url.Parse(r.url)
	if err != nil {
		return "", nil, err
	}
	var w bytes.Buffer
	fmt.Fprintf(&w, "%s %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: juizado-bench-load\r\n", r.method, u.RequestURI(), u.Host)
	if r.token != "" {
		fmt.Fprintf(&w, "Authorization: Bearer %s\r\n", r.token)
	}
	if r.body != nil {
		fmt.Fprintf(&w, "Content-Type: application/json\r\nContent-Length: %d\r\n", len(r.body))
	}
	w.WriteString("\r\n")
	w.Write(r.body)
	return u.Host, w.Bytes(), nil
}

// paced sends n requests (at most for dur) at rate a second over conns
// connections, request k due at start + k/rate on connection k mod conns,
// after warm requests that are not counted, and prints the latencies as
// the package comment says.
func paced(reqs []request, rate float64, conns, n int, dur time.Duration, warm int, label string) error {
	hosts := make([]string, len(reqs))
	bodies := make([][]byte, len(reqs))
	for i, r := range reqs {
		var err error
		if hosts[i], bodies[i], err = wire(r); err != nil {
			return err
		}
	}
	type conn struct {
		c net.Conn
		r *bufio.Reader
	}
	cs := make([]*conn, conns)
	for i := range cs {
		c, err := net.Dial("tcp", hosts[0])
		if err != nil {
			return err
		}
		defer c.Close()
		cs[i] = &conn{c, bufio.NewReaderSize(c, 64<<10)}
	}
	// one sends request k on c and reads its answer: its status, or an error.
	one := func(c *conn, k int) (int, string, error) {
		if _, err := c.c.Write(bodies[k%len(bodies)]); err != nil {
			return 0, "", err
		}
		resp, err := http.ReadResponse(c.r, nil)
		if err != nil {
			return 0, "", err
		}
		var msg string
		if resp.StatusCode/100 != 2 {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
			msg = fmt.Sprintf("%d %s", resp.StatusCode, strings.TrimSpace(string(b)))
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, msg, err
	}
	for k := 0; k < warm; k++ {
		if _, _, err := one(cs[k%conns], k); err != nil {
			return fmt.Errorf("warm-up: %w", err)
		}
	}
	if d := time.Duration(float64(n) / rate * float64(time.Second)); d < dur {
		dur = d
	}
	n = min(n, int(rate*dur.Seconds()))
	lat := make([]time.Duration, n)
	late := make([]time.Duration, n)
	sent := make([]bool, n)
	var mu sync.Mutex
	var errs int
	var firstErr string
	start := time.Now().Add(10 * time.Millisecond)
	var wg sync.WaitGroup
	for w := range cs {
		wg.Add(1)
		go func(c *conn) {
			defer wg.Done()
			free := start // when this connection's previous answer ended
			for k := w; k < n; k += conns {
				due := start.Add(time.Duration(float64(k) / rate * float64(time.Second)))
				if d := time.Until(due); d > 0 {
					time.Sleep(d)
				}
				t := time.Now()
				from := t // free at the due instant: counted from the write
				if free.After(due) {
					from = due // busy at the due instant: the delay counts
				}
				status, msg, err := one(c, warm+k)
				end := time.Now()
				free = end
				if err != nil {
					mu.Lock()
					errs++
					if firstErr == "" {
						firstErr = err.Error()
					}
					mu.Unlock()
					return // the connection is gone
				}
				lat[k], late[k], sent[k] = end.Sub(from), t.Sub(due), true
				if status/100 != 2 {
					mu.Lock()
					errs++
					if firstErr == "" {
						firstErr = msg
					}
					mu.Unlock()
				}
			}
		}(cs[w])
	}
	wg.Wait()
	total := time.Since(start)
	var l, lt []time.Duration
	for k := range sent {
		if sent[k] {
			l, lt = append(l, lat[k]), append(lt, late[k])
		}
	}
	q, ql := quantiles(l), quantiles(lt)
	fmt.Printf("%s: %d requests in %.1fs, %.1f req/s, latency ms p50 %s p90 %s p99 %s p99.9 %s max %s, non-2xx or failed %d; sent late ms p50 %s p99 %s\n",
		label, len(l), total.Seconds(), float64(len(l))/total.Seconds(), q(0.5), q(0.9), q(0.99), q(0.999), q(1), errs, ql(0.5), ql(0.99))
	if firstErr != "" {
		fmt.Printf("  first error: %s\n", firstErr)
	}
	return nil
}
