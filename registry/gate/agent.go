package gate

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
	"github.com/juizado/juizado/internal/textcheck"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/juizado/juizado/registry/blocklist/wire"
)

// Duration is a time.Duration written in JSON as Go's duration text ("24h").
type Duration time.Duration

// UnmarshalJSON reads "24h", "90m" and the like.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("max_age: %w", err)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("max_age: %w", err)
	}
	*d = Duration(v)
	return nil
}

// Config is the agent's configuration file (../shared/API.md "Gate agent").
type Config struct {
	DataDir string   `json:"data_dir"`
	Addr    string   `json:"addr"`   // default 127.0.0.1:8090
	Device  string   `json:"device"` // names the agent in the check records
	MaxAge  Duration `json:"max_age"`
	// Venues are the venues this gate guards (names as in the court's venue
	// table; case, accents and the popular name in parentheses ignored). A
	// name no court's venue list knows is reported (StatusReport.UnknownVenues).
	Venues []string `json:"venues"`
	// Clubs, optional, are the clubs whose home matches these venues host:
	// a ban scoped to a club's home matches blocks here when listed.
	Clubs  []string      `json:"clubs"`
	Courts []CourtConfig `json:"courts"`
	// Logger, not in the file, receives each court's errors when they
	// change, its recovery and damage found in the store (nil:
	// slog.Default()).
	Logger *slog.Logger `json:"-"`
}

// CourtConfig is one court the agent follows: its base URL, the club token
// and the pinned public keys (base64 of 32 bytes).
type CourtConfig struct {
	URL   string   `json:"url"`
	Token string   `json:"token"`
	Keys  []string `json:"keys"`
}

// MaxDevice is the most characters of device: the court stores at most
// that many (POST /api/v1/blocklist/checks).
const MaxDevice = 200

// DefaultMaxAge is max_age when the file has none.
const DefaultMaxAge = 24 * time.Hour

// MinMaxAge is the least max_age accepted: the long-poll waits up to about
// 30 s for the court's answer, so a shorter max_age would report a healthy
// copy stale between two answers.
const MinMaxAge = time.Minute

// LoadConfig reads and checks a configuration file: one JSON object (no
// trailing data, no unknown field, no key twice, names exact), data_dir,
// device (at most MaxDevice characters, no control or format characters:
// internal/textcheck) and at least one court required; max_age at least MinMaxAge (DefaultMaxAge when absent);
// each court's url absolute http(s) with a host and not listed twice
// (a trailing "/" ignored), its token not empty. The error names the field.
func LoadConfig(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c Config
	var obj json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&obj); err != nil {
		return nil, fmt.Errorf("gate: %s: %w", path, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("gate: %s: data after the JSON object", path)
	}
	// Read as encoding/json reads it, but strictly: a key named twice (also
	// spelled with escapes), a key in another case or an unknown key is an
	// error naming it, rather than a value silently winning.
	if err := jsonv2.Unmarshal(obj, &c, jsonv1.DefaultOptionsV1(), jsontext.AllowDuplicateNames(false),
		jsonv2.RejectUnknownMembers(true), jsonv2.MatchCaseInsensitiveNames(false), jsonv1.ReportErrorsWithLegacySemantics(false)); err != nil {
		if field := errField(err); field != "" {
			return nil, fmt.Errorf("gate: %s: %s: %w", path, field, err)
		}
		return nil, fmt.Errorf("gate: %s: %w", path, err)
	}
	var present struct {
		MaxAge *json.RawMessage `json:"max_age"`
	}
	_ = json.Unmarshal(b, &present)
	if c.DataDir == "" {
		return nil, errors.New("gate: data_dir is required")
	}
	if strings.TrimSpace(c.Device) == "" {
		return nil, errors.New("gate: device is required (names this gate in the check records sent to the courts)")
	}
	// The courts refuse a batch whose device they would not store: refused
	// here, the agent does not start to collect records no court takes.
	if rule, msg := textcheck.Problem(c.Device, MaxDevice, false); rule != "" {
		return nil, fmt.Errorf("gate: device %q: %s (%s)", c.Device, msg, rule)
	}
	if len(c.Courts) == 0 {
		return nil, errors.New("gate: courts is required (at least one)")
	}
	seen := map[string]int{}
	for i, cc := range c.Courts {
		u, err := url.Parse(cc.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" {
			return nil, fmt.Errorf("gate: courts[%d].url %q: must be an absolute http:// or https:// URL with a host", i, cc.URL)
		}
		key := strings.ToLower(u.Scheme+"://"+u.Host) + strings.TrimRight(u.EscapedPath(), "/")
		if j, ok := seen[key]; ok {
			return nil, fmt.Errorf("gate: courts[%d].url %q: the same court as courts[%d]", i, cc.URL, j)
		}
		seen[key] = i
		if strings.TrimSpace(cc.Token) == "" {
			return nil, fmt.Errorf("gate: courts[%d].token is required (the club token of %s)", i, cc.URL)
		}
	}
	if c.Addr == "" {
		c.Addr = "127.0.0.1:8090"
	}
	switch {
	case present.MaxAge == nil:
		c.MaxAge = Duration(DefaultMaxAge)
	case time.Duration(c.MaxAge) < MinMaxAge:
		return nil, fmt.Errorf("gate: max_age %s: must be at least %s (default %s when absent)", time.Duration(c.MaxAge), MinMaxAge, DefaultMaxAge)
	}
	return &c, nil
}

// errField is the field a strict reading error of the configuration is
// about, as courts[0].url ("" when the error does not say): the JSON
// Pointer of jsontext's and jsonv2's errors with indices in brackets.
func errField(err error) string {
	var ptr jsontext.Pointer
	var se *jsontext.SyntacticError
	var me *jsonv2.SemanticError
	switch {
	case errors.As(err, &se):
		ptr = se.JSONPointer
	case errors.As(err, &me):
		ptr = me.JSONPointer
	}
	field := ""
	for tok := range ptr.Tokens() {
		if _, err := strconv.Atoi(tok); err == nil && field != "" {
			field += "[" + tok + "]"
		} else if field == "" {
			field = tok
		} else {
			field += "." + tok
		}
	}
	return field
}

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

	day  atomic.Pointer[dayCache]   // the day of the last check
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
// court's entry in force today (America/Sao_Paulo, the agent's clock) that
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
	day, dayN := a.today(now)
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

// today is the date of now in a.Loc, computed once a day (the clock may
// move either way: any instant outside the cached day recomputes it).
func (a *Agent) today(now time.Time) (string, int32) {
	ns := now.UnixNano()
	if d := a.day.Load(); d != nil && ns >= d.from && ns < d.to {
		return d.day, d.n
	}
	t := now.In(a.Loc)
	y, m, dd := t.Date()
	start := time.Date(y, m, dd, 0, 0, 0, 0, a.Loc)
	d := &dayCache{from: start.UnixNano(), to: start.AddDate(0, 0, 1).UnixNano(), day: t.Format("2006-01-02")}
	d.n = checkDay(d.day)
	a.day.Store(d)
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
	descUnknown  = prometheus.NewDesc("gate_unknown_venue", "1 for each configured venue (as written) that no court's venue list knows (GET /status unknown_venues): bans scoped to the venue it was meant to name do not block here.", []string{"venue"}, nil)
)

func (c *courtCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descVersion, descAge, descEntries, descUpcoming, descError, descStore, descUpload, descAside, descSpool, descUnknown} {
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
		for _, kind := range []string{"conflict", "refused"} {
			ch <- prometheus.MustNewConstMetric(descAside, prometheus.CounterValue, float64(s.SetAside[kind]), s.Court, s.URL, kind)
		}
	}
	ch <- prometheus.MustNewConstMetric(descSpool, prometheus.GaugeValue, float64(c.a.spool.Waiting()))
}

// Handler serves GET /check/{cpf} (?venue=NAME: CheckAt), GET /status and
// GET /metrics. A CPF with punctuation is accepted; one that is not 11
// digits with valid check digits is 422. Every error is application/problem+json (RFC 9457:
// status, title, detail in Brazilian Portuguese): 404 for any other path
// (/check, /check/, /check/a/b included), 405 with Allow: GET for any other
// method on the three paths, 404 too for a path not in its clean form
// (//check/…, /check/../status: no redirect). HEAD is one of those: a HEAD /check/{cpf}
// answers 405 and is neither counted nor recorded (no evidence of a check
// that nobody read).
func (a *Agent) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/status", func(w http.ResponseWriter, r *http.Request) {
		if onlyGET(w, r) {
			writeJSON(w, a.Status())
		}
	})
	metrics := promhttp.HandlerFor(a.reg, promhttp.HandlerOpts{})
	mux.HandleFunc("/metrics", func(w http.ResponseWriter, r *http.Request) {
		if onlyGET(w, r) {
			metrics.ServeHTTP(w, r)
		}
	})
	notFound := func(w http.ResponseWriter, r *http.Request) {
		writeProblem(w, http.StatusNotFound, "Recurso não encontrado",
			"O agente do portão responde somente GET /check/{cpf}, GET /status e GET /metrics.", nil)
	}
	mux.HandleFunc("/", notFound)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		// A path that is not clean (//check/…, /check/../status) is 404,
		// not ServeMux's redirect to its clean form.
		if !cleanPath(p) {
			notFound(w, r)
			return
		}
		// /check/{cpf}, one segment, is answered here rather than through
		// the mux's pattern matching: it is the path a turnstile calls
		// thousands of times a second (bench/README.md).
		if seg, ok := strings.CutPrefix(p, "/check/"); ok && seg != "" && !strings.Contains(seg, "/") {
			if onlyGET(w, r) {
				a.serveCheck(w, r, seg)
			}
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// jsonType is the Content-Type of a check answer, set as a header value
// shared by every answer (net/http only reads it).
var jsonType = []string{"application/json"}

// serveCheck answers GET /check/{cpf} for the path segment seg (already
// unescaped by net/http).
func (a *Agent) serveCheck(w http.ResponseWriter, r *http.Request, seg string) {
	cpf, ok := ParseCPF(seg)
	if !ok {
		writeProblem(w, http.StatusUnprocessableEntity, "CPF inválido", "cpf: informe 11 dígitos com dígitos verificadores válidos.",
			[]map[string]string{{"field": "cpf", "message": "CPF inválido: 11 dígitos com dígitos verificadores válidos."}})
		return
	}
	var res CheckResult
	if r.URL.RawQuery == "" {
		res = a.Check(cpf)
	} else if res, ok = a.checkQuery(w, r, cpf); !ok {
		return
	}
	w.Header()["Content-Type"] = jsonType
	bp := answerBufs.Get().(*[]byte)
	*bp = appendCheckResult((*bp)[:0], &res)
	_, _ = w.Write(*bp)
	answerBufs.Put(bp)
}

// checkQuery answers a check with a query string: venue=NAME, once, one
// of the gate's venues, answers for that venue (CheckAt); a venue the gate
// does not guard, an empty one or two are 422 on venue and nothing is
// checked (a venue the agent ignored would let a turnstile think it was
// honoured). Other parameters are ignored, as the court's check does.
func (a *Agent) checkQuery(w http.ResponseWriter, r *http.Request, cpf string) (CheckResult, bool) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	bad := func(field, msg string) (CheckResult, bool) {
		writeProblem(w, http.StatusUnprocessableEntity, "Parâmetro inválido", field+": "+msg,
			[]map[string]string{{"field": field, "message": msg}})
		return CheckResult{}, false
	}
	if err != nil {
		return bad("query", "parâmetros ilegíveis: "+err.Error()+".")
	}
	vs, given := q["venue"]
	if !given { // other parameters are ignored, as the court's check ignores them
		return a.Check(cpf), true
	}
	if len(vs) != 1 || strings.TrimSpace(vs[0]) == "" {
		return bad("venue", "informe um só local, pelo nome.")
	}
	res, ok := a.CheckAt(cpf, q.Get("venue"))
	if !ok {
		if len(a.venue) == 0 {
			return bad("venue", "este portão não tem locais na configuração (venues): ele responde por todos os impedimentos, sem local.")
		}
		return bad("venue", fmt.Sprintf("%q não é um dos locais deste portão (%s).", q.Get("venue"), strings.Join(a.Config.Venues, "; ")))
	}
	return res, true
}

// cleanPath reports whether p is in the form path.Clean gives it (rooted,
// no empty, "." or ".." segment, no trailing slash but the root's), without
// path.Clean's cost on the paths that are.
func cleanPath(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	if strings.Contains(p, "//") || strings.Contains(p, "/.") || (len(p) > 1 && p[len(p)-1] == '/') {
		return path.Clean(p) == p
	}
	return true
}

// onlyGET answers 405 (Allow: GET) to any method but GET and reports
// whether the request is a GET.
func onlyGET(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet {
		return true
	}
	w.Header().Set("Allow", http.MethodGet)
	writeProblem(w, http.StatusMethodNotAllowed, "Método não permitido",
		"O método "+r.Method+" não é aceito em "+r.URL.Path+": use GET.", nil)
	return false
}

// writeProblem writes an RFC 9457 problem: status, title, detail and, when
// given, the errors by field.
func writeProblem(w http.ResponseWriter, status int, title, detail string, errs []map[string]string) {
	p := map[string]any{"status": status, "title": title, "detail": detail}
	if errs != nil {
		p["errors"] = errs
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(p)
}

var answerBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// appendCheckResult appends r as json.NewEncoder(w).Encode(r) writes it
// (same bytes, map keys sorted, a final newline; tested): encoding/json's
// reflection had been the largest part of the check endpoint's own cost. A
// ban with a scope or match days is left to encoding/json.
func appendCheckResult(b []byte, r *CheckResult) []byte {
	for i := range r.Bans {
		if r.Bans[i].Scope != nil || len(r.Bans[i].MatchDays) > 0 {
			j, _ := json.Marshal(r)
			return append(append(b, j...), '\n')
		}
	}
	b = append(b, `{"cpf":`...)
	b = appendJSONString(b, r.CPF)
	b = append(b, `,"blocked":`...)
	b = strconv.AppendBool(b, r.Blocked)
	b = append(b, `,"bans":`...)
	if r.Bans == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range r.Bans {
			x := &r.Bans[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"ban_id":`...)
			b = strconv.AppendInt(b, x.BanID, 10)
			b = append(b, `,"first_day":`...)
			b = appendJSONString(b, x.FirstDay)
			b = append(b, `,"last_day":`...)
			if x.LastDay == nil {
				b = append(b, "null"...)
			} else {
				b = appendJSONString(b, *x.LastDay)
			}
			b = append(b, `,"case_number":`...)
			b = appendJSONString(b, x.CaseNumber)
			b = append(b, `,"court":`...)
			b = appendJSONString(b, x.Court)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"stale":`...)
	b = strconv.AppendBool(b, r.Stale)
	b = append(b, `,"versions":`...)
	if r.versionsJSON != nil {
		b = append(b, r.versionsJSON...)
	} else {
		b = appendVersions(b, r.Versions)
	}
	b = append(b, `,"checked_at":"`...)
	b = appendInstant(b, r.CheckedAt)
	return append(b, "\"}\n"...)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// ParseCPF reads a CPF with or without punctuation and spaces and checks
// its two check digits (Receita Federal's modulo 11, wire.CPFProblem, as
// the court does); it returns the 11 digits.
func ParseCPF(s string) (string, bool) {
	var buf [11]byte
	d := buf[:0]
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			if len(d) == 11 {
				return "", false
			}
			d = append(d, byte(r))
		case r == '.' || r == '-' || r == ' ' || r == '/':
		default:
			return "", false
		}
	}
	if len(d) != 11 {
		return "", false
	}
	cpf := string(d)
	if wire.CPFProblem(cpf) != "" {
		return "", false
	}
	return cpf, true
}
