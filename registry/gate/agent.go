package gate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Agent follows the courts of a Config and answers checks from their copies.
type Agent struct {
	Config Config
	Courts []*Court
	// Now is the agent's clock (injectable); the day of a check is its date
	// in America/Sao_Paulo.
	Now func() time.Time
	Loc *time.Location

	venues, clubs map[string]bool
	venue         []map[string]bool // each configured venue's names, for GET /check/{cpf}?venue=
	spool         *Spool

	vmu     sync.Mutex
	unknown []string // configured venues no court's venue list knows (venues.go)

	vset atomic.Pointer[versionSet] // the versions the last checks read

	reg                *prometheus.Registry
	checks             *prometheus.CounterVec
	checkedY, checkedN prometheus.Counter // checks{blocked="true"}, {blocked="false"}
}

// New builds an agent from cfg, loading each court's stored copy from
// cfg.DataDir (no network). now nil is the system clock. MaxAge 0 is
// DefaultMaxAge; a negative MaxAge is refused (it would turn stale
// reporting off).
func New(cfg Config, now func() time.Time) (*Agent, error) {
	if now == nil {
		now = time.Now
	}
	switch {
	case cfg.MaxAge == 0:
		cfg.MaxAge = Duration(DefaultMaxAge)
	case cfg.MaxAge < 0:
		return nil, fmt.Errorf("gate: max_age %s: must be positive (default %s)", time.Duration(cfg.MaxAge), DefaultMaxAge)
	}
	loc, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		return nil, err
	}
	a := &Agent{Config: cfg, Now: now, Loc: loc, venues: map[string]bool{}, clubs: map[string]bool{}}
	for _, v := range cfg.Venues {
		one := map[string]bool{}
		for _, n := range venueNames(v) {
			a.venues[n], one[n] = true, true
		}
		a.venue = append(a.venue, one)
	}
	for _, c := range cfg.Clubs {
		a.clubs[fold(c)] = true
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, err
	}
	for i, cc := range cfg.Courts {
		h := sha256.Sum256([]byte(strings.TrimRight(cc.URL, "/")))
		c, err := NewCourt(cc.URL, cc.Token, filepath.Join(cfg.DataDir, "courts", hex.EncodeToString(h[:8])), cc.Keys, now)
		if err != nil {
			return nil, fmt.Errorf("gate: courts[%d]: %w", i, err)
		}
		c.Logger = cfg.Logger
		c.MaxAge = time.Duration(cfg.MaxAge)
		if err := c.Load(); err != nil && !errors.Is(err, ErrRefused) {
			return nil, err
		}
		c.onVenues = a.noteVenues
		a.Courts = append(a.Courts, c)
	}
	a.noteVenues() // from the venue lists stored: reported offline too
	a.spool = &Spool{Path: filepath.Join(cfg.DataDir, "checks.jsonl"), Device: cfg.Device}
	a.metrics()
	return a, nil
}

// Check answers whether cpf (11 digits) is blocked now at this gate: any
// court's entry in force today (America/Sao_Paulo, by that court's signed
// time advanced by the agent's clock since: Court.courtNow) that
// covers a venue the gate guards. The check is recorded in the spool. Each
// court's index is read under its read lock (a page is applied in place
// under the write lock), so the cost does not depend on the number of
// entries: about 0.4–0.7 µs (BenchmarkGate, bench/README.md).
func (a *Agent) Check(cpf string) CheckResult { return a.check(cpf, a.venues) }

// CheckAt is Check for one of the gate's configured venues, named as in
// the configuration or by one of its other names (case and accents
// ignored, the popular name in parentheses): the court's
// GET /api/v1/blocklist/check/{cpf}?venue=NAME, a ban scoped elsewhere
// does not block. ok is false, and nothing is checked or recorded, when
// venue is none of the gate's venues (a gate answers for the venues it
// guards, not for any).
func (a *Agent) CheckAt(cpf, venue string) (r CheckResult, ok bool) {
	for _, n := range venueNames(venue) {
		for _, one := range a.venue {
			if one[n] {
				return a.check(cpf, one), true
			}
		}
	}
	return CheckResult{}, false
}

func (a *Agent) check(cpf string, venues map[string]bool) CheckResult {
	now := a.Now()
	r := CheckResult{CPF: cpf, Bans: []CheckBan{}, CheckedAt: now.UTC()}
	k, valid := cpfKey(cpf)
	maxAge := time.Duration(a.Config.MaxAge)
	var nb [8]string
	var vb [8]int64
	names, vers := nb[:0], vb[:0]
	for _, c := range a.Courts {
		c.smu.RLock()
		name := c.name()
		var v int64
		if st := c.state; st != nil {
			v = st.version
			if valid {
				// The court's date, not the agent's: its signed time
				// advanced by the agent's time since (freshness.go).
				day, dayN := dayOf(&c.fresh.day, c.courtNow(now), a.Loc)
				r.Bans = st.collect(k, day, dayN, venues, a.clubs, name, r.Bans)
			}
		}
		c.smu.RUnlock()
		names, vers = append(names, name), append(vers, v)
		t := c.confirmed.Load()
		if age := now.Sub(time.Unix(0, t)); t == 0 || age < 0 || (maxAge > 0 && age > maxAge) {
			r.Stale = true
		}
	}
	vs := a.versions(names, vers)
	r.Versions, r.versionsJSON = vs.m, vs.js
	r.Blocked = len(r.Bans) > 0
	if r.Blocked {
		a.checkedY.Inc()
	} else {
		a.checkedN.Inc()
	}
	if a.spool != nil {
		_ = a.spool.Append(Record{CPF: cpf, CheckedAt: r.CheckedAt, Blocked: r.Blocked, Versions: r.Versions, versionsJSON: vs.js})
	}
	return r
}

// versionSet is the version of every court's copy as a check read them
// (court code, else URL, in the order of Agent.Courts), with the map and
// the JSON object of CheckResult.Versions: made when a version changes and
// shared, read only, by every check until the next change, so that a check
// builds no map (a fresh map had been about a fifth of a check's cost).
type versionSet struct {
	names []string
	vers  []int64
	m     map[string]int64
	js    []byte // m as encoding/json writes it: {"26.0100":12,...}, keys sorted
}

// versions returns the set of names and vers: the last one when they are
// the same, else a new one (stored for the checks that follow).
func (a *Agent) versions(names []string, vers []int64) *versionSet {
	if vs := a.vset.Load(); vs != nil && slices.Equal(vs.names, names) && slices.Equal(vs.vers, vers) {
		return vs
	}
	vs := &versionSet{names: slices.Clone(names), vers: slices.Clone(vers), m: make(map[string]int64, len(names))}
	for i, n := range names {
		vs.m[n] = vers[i]
	}
	vs.js = appendVersions(nil, vs.m)
	a.vset.Store(vs)
	return vs
}

// appendVersions appends m as encoding/json writes it (keys sorted).
func appendVersions(b []byte, m map[string]int64) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		b = strconv.AppendInt(b, m[k], 10)
	}
	return append(b, '}')
}

// dayCache is one day in America/Sao_Paulo: [from, to) in Unix
// nanoseconds, as YYYY-MM-DD and as the day count a check compares slots
// with (checkDay: days since 2000-01-01).
type dayCache struct {
	from, to int64
	day      string
	n        int32
}

// dayOf is the date of now in loc, computed once a day into cache (the
// clock may move either way: any instant outside the cached day
// recomputes it).
func dayOf(cache *atomic.Pointer[dayCache], now time.Time, loc *time.Location) (string, int32) {
	ns := now.UnixNano()
	if d := cache.Load(); d != nil && ns >= d.from && ns < d.to {
		return d.day, d.n
	}
	t := now.In(loc)
	y, m, dd := t.Date()
	start := time.Date(y, m, dd, 0, 0, 0, 0, loc)
	d := &dayCache{from: start.UnixNano(), to: start.AddDate(0, 0, 1).UnixNano(), day: t.Format("2006-01-02")}
	d.n = checkDay(d.day)
	cache.Store(d)
	return d.day, d.n
}

// Sync brings every court up to date once; it returns the first error.
func (a *Agent) Sync(ctx context.Context) error {
	var first error
	for _, c := range a.Courts {
		if err := c.Sync(ctx); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// UploadEvery is how often Agent.Run sends the check records to the
// courts while they answer; after a failure the pause doubles up to a
// minute. (Sent every second instead, at 25,000 checks a second on a
// 2-vCPU machine shared with the court, the uploads took a third of the
// agent's check rate: bench/README.md.)
const UploadEvery = 10 * time.Second

// Run follows every court (long-poll), writes the buffered check records
// every SpoolFlushEvery and uploads them every UploadEvery, until ctx ends.
func (a *Agent) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for _, c := range a.Courts {
		wg.Add(1)
		go func(c *Court) { defer wg.Done(); c.Run(ctx) }(c)
	}
	wg.Add(2)
	go func() {
		defer wg.Done()
		pause := UploadEvery
		for ctx.Err() == nil {
			if err := a.Upload(ctx); err != nil {
				pause = min(2*pause, time.Minute) // a court down: fewer tries
			} else {
				pause = UploadEvery
			}
			sleep(ctx, pause)
		}
	}()
	go func() {
		defer wg.Done()
		t := time.NewTicker(SpoolFlushEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				_ = a.spool.Flush()
			}
		}
	}()
	wg.Wait()
	_ = a.spool.Flush()
}

// Flush writes the check records still buffered to the spool file (Run
// does it every SpoolFlushEvery and when it returns; Upload before it cuts
// a batch).
func (a *Agent) Flush() error {
	if a.spool == nil {
		return nil
	}
	return a.spool.Flush()
}

// StatusReport is GET /status: every court's copy, and UnknownVenues, the
// configured venues (as written) that no court whose venue list the agent
// holds knows (Agent.UnknownVenues): a ban scoped to the venue they were
// meant to name does not block at this gate. Empty when every configured
// venue is known, or while no court's venue list is held (a court not
// reached yet, or older than the list): nothing is reported without one.
type StatusReport struct {
	Courts        []Status `json:"courts"`
	UnknownVenues []string `json:"unknown_venues"`
}

// Status reports every court's copy and the configured venues no court
// knows.
func (a *Agent) Status() StatusReport {
	r := StatusReport{Courts: []Status{}, UnknownVenues: a.UnknownVenues()}
	for _, c := range a.Courts {
		r.Courts = append(r.Courts, c.Status())
	}
	return r
}

func (a *Agent) metrics() {
	a.reg = prometheus.NewRegistry()
	a.checks = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "gate_checks_total", Help: "CPF checks answered, by outcome."}, []string{"blocked"})
	a.checkedY, a.checkedN = a.checks.WithLabelValues("true"), a.checks.WithLabelValues("false")
	a.reg.MustRegister(a.checks, &courtCollector{a})
}

type courtCollector struct{ a *Agent }

var (
	descVersion  = prometheus.NewDesc("gate_court_version", "Blocklist version of the court's copy.", []string{"court", "url"}, nil)
	descAge      = prometheus.NewDesc("gate_court_age_seconds", "Seconds since the court last confirmed the copy current (-1 never).", []string{"court", "url"}, nil)
	descEntries  = prometheus.NewDesc("gate_court_entries", "Entries in force held (GET /status entries).", []string{"court", "url"}, nil)
	descUpcoming = prometheus.NewDesc("gate_court_upcoming", "Entries held that start within 7 days (GET /status upcoming).", []string{"court", "url"}, nil)
	descStore    = prometheus.NewDesc("gate_court_store_error", "1 when part of the court's stored copy could not be used at start (set aside as *.refused; GET /status store_error).", []string{"court", "url"}, nil)
	descError    = prometheus.NewDesc("gate_court_error", "1 when the last contact with the court failed or was refused.", []string{"court", "url"}, nil)
	descUpload   = prometheus.NewDesc("gate_court_upload_error", "1 when the last try to send check records to the court failed and is being retried (GET /status upload_error).", []string{"court", "url"}, nil)
	descAside    = prometheus.NewDesc("gate_check_batches_set_aside", "Check batches the court refused for good since the agent started, kept in outbox/ (kind conflict: 409; refused: 400, 413, 415, 422).", []string{"court", "url", "kind"}, nil)
	descSpool    = prometheus.NewDesc("gate_spooled_checks", "Check records not yet taken by every court (buffered, in the spool file or in the outbox).", nil, nil)
	descSkew     = prometheus.NewDesc("gate_court_clock_skew_seconds", "The court's signed time minus the agent's clock when the last fresh page arrived (positive: the agent's clock is behind); absent while none arrived (GET /status clock_skew_seconds).", []string{"court", "url"}, nil)
	descRollback = prometheus.NewDesc("gate_court_rollback_refused_total", "Snapshots refused since the agent started because they were older than the copy held (GET /status rollback_refused).", []string{"court", "url"}, nil)
	descUnknown  = prometheus.NewDesc("gate_unknown_venue", "1 for each configured venue (as written) that no court's venue list knows (GET /status unknown_venues): bans scoped to the venue it was meant to name do not block here.", []string{"venue"}, nil)
)

func (c *courtCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descVersion, descAge, descEntries, descUpcoming, descError, descStore, descUpload, descAside, descSpool, descUnknown, descSkew, descRollback} {
		ch <- d
	}
}

func (c *courtCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.a.Status()
	for _, v := range st.UnknownVenues {
		ch <- prometheus.MustNewConstMetric(descUnknown, prometheus.GaugeValue, 1, v)
	}
	for _, s := range st.Courts {
		ch <- prometheus.MustNewConstMetric(descVersion, prometheus.GaugeValue, float64(s.Version), s.Court, s.URL)
		ch <- prometheus.MustNewConstMetric(descAge, prometheus.GaugeValue, s.AgeSeconds, s.Court, s.URL)
		ch <- prometheus.MustNewConstMetric(descEntries, prometheus.GaugeValue, float64(s.Entries), s.Court, s.URL)
		ch <- prometheus.MustNewConstMetric(descUpcoming, prometheus.GaugeValue, float64(s.Upcoming), s.Court, s.URL)
		e := 0.0
		if s.LastError != "" {
			e = 1
		}
		ch <- prometheus.MustNewConstMetric(descError, prometheus.GaugeValue, e, s.Court, s.URL)
		e = 0
		if s.StoreError != "" {
			e = 1
		}
		ch <- prometheus.MustNewConstMetric(descStore, prometheus.GaugeValue, e, s.Court, s.URL)
		e = 0
		if s.UploadError != "" {
			e = 1
		}
		ch <- prometheus.MustNewConstMetric(descUpload, prometheus.GaugeValue, e, s.Court, s.URL)
		if s.ClockSkewSeconds != nil {
			ch <- prometheus.MustNewConstMetric(descSkew, prometheus.GaugeValue, *s.ClockSkewSeconds, s.Court, s.URL)
		}
		ch <- prometheus.MustNewConstMetric(descRollback, prometheus.CounterValue, float64(s.RollbackRefused), s.Court, s.URL)
		for _, kind := range []string{"conflict", "refused"} {
			ch <- prometheus.MustNewConstMetric(descAside, prometheus.CounterValue, float64(s.SetAside[kind]), s.Court, s.URL, kind)
		}
	}
	ch <- prometheus.MustNewConstMetric(descSpool, prometheus.GaugeValue, float64(c.a.spool.Waiting()))
}
