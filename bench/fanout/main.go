// Command fanout is the load of bench/fanout.sh (issue 32, item 7: a
// state's gates at once): CLIENTS feed clients, each a gate agent's
// long-poll (GET /api/v1/blocklist/changes?since=V&wait=30&nonce=…, the
// next since the page's to, its own keep-alive connection), follow one
// court on loopback while the cases of -cases become final one after the
// other (the judge's sentence and every party's notice with a waiver of
// appeal, untimed; then the timed clerk's POST
// /api/v1/cases/{id}/transitions {"to": "final"}). It prints:
//   - per final judgment, the time from the call to each client's answer
//     with the new version, and over all of them p50, p99 and the max of
//     "the last client's answer" (goal: p99 < 2 s at 1,000 clients);
//   - the court's resident memory (VmRSS, VmHWM of -pid) before the
//     clients and with every client waiting;
//   - the court's check throughput (GET /api/v1/blocklist/check/{cpf},
//     -conns callers) while the clients wait and the cases become final,
//     as a ratio of the constant Echo handler (-const, bench/constecho)
//     run with the same callers just before and just after.
//
// Loopback only: a court or constant URL on another host is refused.
package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

var (
	court   = flag.String("court", "http://127.0.0.1:18090", "the court's base URL (loopback)")
	club    = flag.String("club", "", "a club token (the feed and the check)")
	clerk   = flag.String("clerk", "", "a clerk token of the court (transitions, notices, final judgment)")
	prosec  = flag.String("prosecutor", "", "a prosecutor token of the court (the accusation)")
	casesF  = flag.String("cases", "", "file: case_id <TAB> defendant_id <TAB> judge token, one case a line")
	clients = flag.Int("clients", 1000, "feed clients long-polling")
	constU  = flag.String("const", "http://127.0.0.1:18081/const", "the constant Echo handler (bench/constecho)")
	cpf     = flag.String("cpf", "468.819.736-59", "the CPF the check load asks")
	conns   = flag.Int("conns", 8, "callers of the check load and of the constant handler")
	pid     = flag.Int("pid", 0, "the court's process id (resident memory)")
	today   = flag.String("today", time.Now().Format("2006-01-02"), "the notices' date (the court's date, YYYY-MM-DD)")
)

func main() {
	flag.Parse()
	for _, u := range []string{*court, *constU} {
		if !loopback(u) {
			log.Fatalf("fanout: %s is not a loopback address", u)
		}
	}
	cases, err := readCases(*casesF)
	if err != nil {
		log.Fatal(err)
	}
	tr := &http.Transport{MaxIdleConnsPerHost: *clients + 2**conns + 8, IdleConnTimeout: time.Minute}
	hc := &http.Client{Transport: tr, Timeout: 60 * time.Second}
	v0 := version(hc)
	fmt.Printf("version at start: %d; court memory before the clients: %s\n", v0, memory(*pid))

	// The clients: each reports the instant it first saw each version.
	seen := make([]sync.Map, *clients) // version → time.Time
	var waiting atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := range *clients {
		wg.Add(1)
		go func() { defer wg.Done(); follow(hc, v0, &seen[i], &waiting, stop) }()
	}
	for waiting.Load() < int64(*clients) {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(time.Second)
	fmt.Printf("%d clients waiting; court memory: %s\n", *clients, memory(*pid))

	c1 := load(hc, *constU, "", 3*time.Second)
	stopChecks := start(hc, *court+"/api/v1/blocklist/check/"+*cpf, *club)
	var lasts, all []time.Duration
	for _, c := range cases {
		if err := sentence(hc, c); err != nil {
			log.Fatal(err)
		}
		before := version(hc) // the sentence may have made one (a precautionary part): every client at it first
		if before > v0 {
			waitSeen(seen, before)
		}
		time.Sleep(500 * time.Millisecond) // every client's long-poll back at the court
		start := time.Now()
		if code, body := post(hc, fmt.Sprintf("/api/v1/cases/%d/transitions", c.id), *clerk, `{"to":"final"}`); code != 200 {
			log.Fatalf("final judgment of case %d: %d %s", c.id, code, body)
		}
		target := version(hc)
		for wait := time.Now().Add(10 * time.Second); target <= before && time.Now().Before(wait); target = version(hc) {
			time.Sleep(5 * time.Millisecond) // the check's version is confirmed against the database once a second
		}
		if target <= before {
			log.Fatalf("case %d: no new version after the final judgment (%d)", c.id, target)
		}
		last := waitSeen(seen, target)
		for i := range seen {
			at, _ := seen[i].Load(target)
			all = append(all, at.(time.Time).Sub(start))
		}
		lasts = append(lasts, last.Sub(start))
		fmt.Printf("case %d: version %d; last of %d clients answered %v after the final judgment call\n", c.id, target, *clients, last.Sub(start).Round(time.Millisecond))
	}
	checkRate := stopChecks()
	fmt.Printf("court memory with %d clients waiting, at the end: %s\n", *clients, memory(*pid))
	c2 := load(hc, *constU, "", 3*time.Second)
	close(stop)
	slices.Sort(all)
	slices.Sort(lasts)
	fmt.Printf("\nfinal judgment to a client's answer (%d answers): p50 %v, p99 %v, max %v\n", len(all),
		pct(all, 50), pct(all, 99), pct(all, 100))
	fmt.Printf("final judgment to the last client's answer (%d cases): p50 %v, p99 %v, max %v (goal: p99 < 2 s)\n", len(lasts),
		pct(lasts, 50), pct(lasts, 99), pct(lasts, 100))
	fmt.Printf("check throughput meanwhile: %.0f req/s; constant handler %.0f before, %.0f after: ratio %.2f (%d callers)\n",
		checkRate, c1, c2, checkRate/((c1+c2)/2), *conns)
	tr.CloseIdleConnections()
}

type kase struct {
	id, defendant int64
	judge         string
}

func readCases(path string) ([]kase, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []kase
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var k kase
		if _, err := fmt.Sscanf(strings.ReplaceAll(line, "\t", " "), "%d %d %s", &k.id, &k.defendant, &k.judge); err != nil {
			return nil, fmt.Errorf("cases: %q: %w", line, err)
		}
		out = append(out, k)
	}
	return out, nil
}

// follow long-polls the feed from version v as one gate agent, storing in
// seen the instant each version reached it, until stop.
func follow(hc *http.Client, v int64, seen *sync.Map, waiting *atomic.Int64, stop chan struct{}) {
	first := true
	for {
		select {
		case <-stop:
			return
		default:
		}
		var nb [8]byte
		_, _ = rand.Read(nb[:])
		req, _ := http.NewRequest("GET", fmt.Sprintf("%s/api/v1/blocklist/changes?since=%d&wait=30&nonce=%s", *court, v, hex.EncodeToString(nb[:])), nil)
		req.Header.Set("Authorization", "Bearer "+*club)
		if first {
			waiting.Add(1)
			first = false
		}
		resp, err := hc.Do(req)
		if err != nil {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		var p struct{ To int64 }
		err = json.NewDecoder(resp.Body).Decode(&p)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		now := time.Now()
		for x := v + 1; x <= p.To; x++ {
			seen.LoadOrStore(x, now)
		}
		v = max(v, p.To)
	}
}

// waitSeen waits until every client has seen version v and returns the
// latest instant one of them did (fatal after 60 s).
func waitSeen(seen []sync.Map, v int64) time.Time {
	deadline := time.Now().Add(60 * time.Second)
	for {
		var last time.Time
		all := true
		for i := range seen {
			at, ok := seen[i].Load(v)
			if !ok {
				all = false
				break
			}
			if t := at.(time.Time); t.After(last) {
				last = t
			}
		}
		if all {
			return last
		}
		if time.Now().After(deadline) {
			log.Fatalf("version %d did not reach every client in 60 s", v)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// sentence receives case c's accusation (Lei 9.099/1995, arts. 77 and 81:
// no sentence without it), sentences its defendant (a 12-month ban) and records
// every party's notice with a waiver of appeal, so that the clerk may
// declare the final judgment.
func sentence(hc *http.Client, c kase) error {
	for _, st := range []struct{ token, to string }{{*clerk, "preliminary_hearing"}, {*prosec, "accusation"}, {*clerk, "instruction_hearing"}} {
		if code, body := post(hc, fmt.Sprintf("/api/v1/cases/%d/transitions", c.id), st.token, `{"to":"`+st.to+`"}`); code != 200 {
			return fmt.Errorf("case %d to %s: %d %s", c.id, st.to, code, body)
		}
	}
	if code, body := post(hc, fmt.Sprintf("/api/v1/cases/%d/sentence", c.id), c.judge,
		fmt.Sprintf(`{"defendant_id":%d,"ban":{"months":12},"text":{"reasoning":"Autoria e materialidade provadas pelas imagens."},"reporting_duty":{"place":"1º Distrito Policial","club":"Corinthians"}}`, c.defendant)); code != 201 {
		return fmt.Errorf("sentence of case %d: %d %s", c.id, code, body)
	}
	req, _ := http.NewRequest("GET", fmt.Sprintf("%s/api/v1/cases/%d", *court, c.id), nil)
	req.Header.Set("Authorization", "Bearer "+*clerk)
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	var cs struct{ Flow string }
	err = json.NewDecoder(resp.Body).Decode(&cs)
	resp.Body.Close()
	if err != nil {
		return err
	}
	parties := []string{`"party":"prosecution"`, fmt.Sprintf(`"party":"defendant","defendant_id":%d`, c.defendant)}
	if cs.Flow == "criminal" {
		parties = append(parties, fmt.Sprintf(`"party":"defence","defendant_id":%d`, c.defendant))
	}
	for _, p := range parties {
		if code, body := post(hc, fmt.Sprintf("/api/v1/cases/%d/notifications", c.id), *clerk,
			fmt.Sprintf(`{%s,"notified_on":"%s","waived_appeal":true}`, p, *today)); code != 201 {
			return fmt.Errorf("notice of case %d: %d %s", c.id, code, body)
		}
	}
	return nil
}

func post(hc *http.Client, path, token, body string) (int, string) {
	req, _ := http.NewRequest("POST", *court+path, bytes.NewBufferString(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// version is the court's current blocklist version (the check's answer).
func version(hc *http.Client) int64 {
	req, _ := http.NewRequest("GET", *court+"/api/v1/blocklist/check/"+*cpf, nil)
	req.Header.Set("Authorization", "Bearer "+*club)
	resp, err := hc.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	var a struct{ Version int64 }
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil {
		log.Fatalf("check: %v", err)
	}
	return a.Version
}

// load calls u with -conns callers for d and returns the answers a second.
func load(hc *http.Client, u, token string, d time.Duration) float64 {
	stop := start(hc, u, token)
	time.Sleep(d)
	return stop()
}

// start calls u with -conns callers until the function it returns is
// called, which returns the 200 answers a second meanwhile.
func start(hc *http.Client, u, token string) (stop func() float64) {
	done := make(chan struct{})
	var n atomic.Int64
	var wg sync.WaitGroup
	t0 := time.Now()
	for range *conns {
		wg.Add(1)
		go func() { defer wg.Done(); n.Add(loop(hc, u, token, done)) }()
	}
	return func() float64 {
		close(done)
		wg.Wait()
		return float64(n.Load()) / time.Since(t0).Seconds()
	}
}

// loop GETs u until stop and returns how many 200 answers came.
func loop(hc *http.Client, u, token string, stop chan struct{}) int64 {
	var n int64
	for {
		select {
		case <-stop:
			return n
		default:
		}
		req, _ := http.NewRequest("GET", u, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := hc.Do(req)
		if err != nil {
			continue
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 200 {
			n++
		}
	}
}

// memory is the VmRSS and VmHWM lines of process pid ("?" without one).
func memory(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if pid == 0 || err != nil {
		return "?"
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS") || strings.HasPrefix(l, "VmHWM") {
			out = append(out, strings.Join(strings.Fields(l), " "))
		}
	}
	return strings.Join(out, ", ")
}

func pct(s []time.Duration, p int) time.Duration {
	if len(s) == 0 {
		return 0
	}
	i := (len(s)*p + 99) / 100
	return s[max(0, min(len(s)-1, i-1))].Round(time.Millisecond)
}

func loopback(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	ip := net.ParseIP(u.Hostname())
	return (ip != nil && ip.IsLoopback()) || u.Hostname() == "localhost"
}
