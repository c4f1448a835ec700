package gate_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/juizado/juizado/registry/gate"
)

// venueAgent is newAgent with venues and a JSON logger into logs.
func venueAgent(t *testing.T, dir string, clk *agentClock, logs *logBuffer, venues []string, courts ...gate.CourtConfig) *gate.Agent {
	t.Helper()
	a, err := gate.New(gate.Config{DataDir: dir, Device: "portao-1", MaxAge: gate.Duration(time.Hour), Venues: venues, Courts: courts,
		Logger: slog.New(slog.NewJSONHandler(logs, nil))}, clk.Now)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// switches are the ways front fails: down cuts every request (the
// connection closed with no answer, as a court unreachable), older answers
// 404 to GET /api/v1/venues (a court older than it), broken 503 to it.
type switches struct{ down, older, broken atomic.Bool }

// front serves c behind the switches sw.
func front(t *testing.T, c *court) (*httptest.Server, *switches) {
	t.Helper()
	sw := &switches{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if sw.down.Load() {
			panic(http.ErrAbortHandler)
		}
		if r.URL.Path == "/api/v1/venues" && sw.older.Load() {
			http.NotFound(w, r)
			return
		}
		if r.URL.Path == "/api/v1/venues" && sw.broken.Load() {
			http.Error(w, "indisponível", http.StatusServiceUnavailable)
			return
		}
		c.srv.Echo.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, sw
}

// status is the agent's GET /status as a client reads it.
type status struct {
	Courts []struct {
		URL         string `json:"url"`
		Venues      *int   `json:"venues"`
		VenuesError string `json:"venues_error"`
		LastError   string `json:"last_error"`
	} `json:"courts"`
	UnknownVenues []string `json:"unknown_venues"`
}

func getStatus(t *testing.T, a *gate.Agent) status {
	t.Helper()
	rec := serve(a, "GET", "/status")
	var st status
	if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &st) != nil || st.UnknownVenues == nil {
		t.Fatalf("GET /status: %d %s (want unknown_venues, a list)", rec.Code, rec.Body)
	}
	return st
}

// unknownMetrics are the gate_unknown_venue lines of GET /metrics.
func unknownMetrics(a *gate.Agent) []string {
	var out []string
	for _, l := range strings.Split(serve(a, "GET", "/metrics").Body.String(), "\n") {
		if strings.HasPrefix(l, "gate_unknown_venue{") {
			out = append(out, l)
		}
	}
	return out
}

// API.md "Gate agent" (venues: the venues the gate guards; a scoped ban
// blocks only there): a configured venue that no court's venue table
// knows (GET /api/v1/venues), "Arena Corintians", would let every ban
// scoped to Arena Corinthians through this gate without a word; the agent
// says so at sync, in GET /status unknown_venues, gate_unknown_venue and
// one warning per change. The same venue in other case and accents, by its
// popular name, or its name without the part in parentheses (the forms a
// scoped ban's venue is matched by) is known. Checking stays as it was;
// a court failing to give the list (503) keeps the one held, with no sync
// error; an offline restart keeps the report from the list stored; the
// report follows the court's table (a venue an admin adds clears it); and
// Agent.Run reads the list as Sync does.
func TestGateAgentReportsAConfiguredVenueNoCourtKnows(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	c := newCourt(t, "26.0100", now)
	c.ban(t, cpfRio, "2025-06-01", "2026-01-01", `{"venues": ["Arena Corinthians"], "venue_ids": [4], "clubs": []}`)
	clk := &agentClock{t: now}
	dir := t.TempDir()
	var logs logBuffer
	venues := []string{"Arena Corintians", "ESTADIO SAO JANUARIO", "maracana", "Estádio José Pinheiro Borda", "Arena Corintians "}
	srv, sw := front(t, c)
	cfg := gate.CourtConfig{URL: srv.URL, Token: c.token, Keys: []string{c.pub(t)}}
	a := venueAgent(t, dir, clk, &logs, venues, cfg)
	if st := getStatus(t, a); len(st.UnknownVenues) != 0 || st.Courts[0].Venues != nil {
		t.Fatalf("before any contact (no venue list held): %+v", st)
	}
	mustSync(t, a)
	st := getStatus(t, a)
	if !reflect.DeepEqual(st.UnknownVenues, []string{"Arena Corintians"}) || st.Courts[0].Venues == nil || *st.Courts[0].Venues != 15 || st.Courts[0].VenuesError != "" {
		t.Fatalf("after sync: %+v", st)
	}
	if m := unknownMetrics(a); !reflect.DeepEqual(m, []string{`gate_unknown_venue{venue="Arena Corintians"} 1`}) {
		t.Errorf("metrics: %q", m)
	}
	if n := logs.count("gate venues unknown to the courts"); n != 1 || !strings.Contains(logs.String(), `"venues":["Arena Corintians"]`) {
		t.Errorf("%d warnings: %s", n, logs.String())
	}
	// A report, not a change of checking: the ban scoped to Arena
	// Corinthians does not block here, as before.
	if r := check(t, a, cpfRio); r.Blocked {
		t.Fatalf("a check changed by the report: %+v", r)
	}
	// The list is read again an hour later; the court failing to give it
	// (503) is no error of the sync and keeps the list held, asked again a
	// minute later; the same answer then logs nothing.
	sw.broken.Store(true)
	clk.Set(now.Add(gate.VenuesEvery))
	if err := a.Sync(context.Background()); err != nil {
		t.Fatalf("the venue list failing: %v", err)
	}
	if st := getStatus(t, a); !reflect.DeepEqual(st.UnknownVenues, []string{"Arena Corintians"}) || *st.Courts[0].Venues != 15 ||
		!strings.Contains(st.Courts[0].VenuesError, "503") || st.Courts[0].LastError != "" {
		t.Fatalf("the venue list failing: %+v", st)
	}
	sw.broken.Store(false)
	clk.Set(now.Add(gate.VenuesEvery + gate.VenuesRetry))
	mustSync(t, a)
	if st := getStatus(t, a); st.Courts[0].VenuesError != "" || len(st.UnknownVenues) != 1 {
		t.Fatalf("the venue list back: %+v", st)
	}
	if n := logs.count("gate venues unknown to the courts"); n != 1 {
		t.Errorf("the same report logged %d times", n)
	}
	if n := logs.count("gate venue list error"); n != 1 {
		t.Errorf("%d venue list errors logged, want 1", n)
	}
	// Agent.Run reads the list at its first contact too.
	ctx, cancel := context.WithCancel(context.Background())
	r := venueAgent(t, t.TempDir(), clk, &logBuffer{}, venues, cfg)
	done := make(chan struct{})
	go func() { defer close(done); r.Run(ctx) }()
	for deadline := time.Now().Add(20 * time.Second); len(r.UnknownVenues()) == 0 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	<-done
	if u := r.UnknownVenues(); !reflect.DeepEqual(u, []string{"Arena Corintians"}) {
		t.Fatalf("under Run: %q", u)
	}
	// An offline restart reports from the list stored.
	sw.down.Store(true)
	b := venueAgent(t, dir, clk, &logs, venues, cfg)
	if err := b.Sync(context.Background()); err == nil {
		t.Fatal("sync with the court stopped: no error")
	}
	if st := getStatus(t, b); !reflect.DeepEqual(st.UnknownVenues, []string{"Arena Corintians"}) || st.Courts[0].Venues == nil || st.Courts[0].LastError == "" {
		t.Fatalf("offline restart: %+v", st)
	}
	if m := unknownMetrics(b); len(m) != 1 {
		t.Errorf("offline restart, metrics: %q", m)
	}
	if n := logs.count("gate venues unknown to the courts"); n != 2 { // a, and b at its start
		t.Errorf("%d warnings, want 2", n)
	}
	// The court's table gains the name (an admin adds it): at the first
	// reading after the court is back the report clears, logged once.
	if err := c.g.Exec(`INSERT INTO venues (name, city, uf, latitude, longitude) VALUES ('Arena Corintians', 'São Paulo', 'SP', -23.5, -46.4)`).Error; err != nil {
		t.Fatal(err)
	}
	sw.down.Store(false)
	mustSync(t, b)
	if st := getStatus(t, b); len(st.UnknownVenues) != 0 || *st.Courts[0].Venues != 16 {
		t.Fatalf("the name in the court's table: %+v", st)
	}
	if m := unknownMetrics(b); len(m) != 0 {
		t.Errorf("metrics with every venue known: %q", m)
	}
	if n, k := logs.count("gate venues unknown to the courts"), logs.count("gate venues known to the courts"); n != 2 || k != 1 {
		t.Errorf("%d warnings, %d all-known lines; want 2 and 1", n, k)
	}
}

// A court that cannot be reached, or one older than the venue list (404),
// yields no report and no sync error: only the venue lists of the courts
// that answered count, and a venue any of them knows is known (the union
// of the courts' tables). A court that answers 404 after having answered
// the list no longer counts.
func TestGateAgentReportsNoVenueWithoutACourtsList(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	clk := &agentClock{t: now}
	venues := []string{"Arena Corintians", "Arena da Amazônia"}

	down := newCourt(t, "19.0001", now)
	down.http.Close()
	var logs logBuffer
	a := venueAgent(t, t.TempDir(), clk, &logs, venues, gate.CourtConfig{URL: down.http.URL, Token: down.token, Keys: []string{down.pub(t)}})
	if err := a.Sync(context.Background()); err == nil {
		t.Fatal("sync with the court down: no error")
	}
	if st := getStatus(t, a); len(st.UnknownVenues) != 0 || st.Courts[0].Venues != nil {
		t.Fatalf("court down: %+v", st)
	}
	if m := unknownMetrics(a); len(m) != 0 || logs.count("gate venues unknown to the courts") != 0 {
		t.Fatalf("court down, reported: %q %s", m, logs.String())
	}

	// An older court: everything but GET /api/v1/venues (404).
	old := newCourt(t, "21.0001", now)
	oldSrv, sw := front(t, old)
	sw.older.Store(true)
	oldCfg := gate.CourtConfig{URL: oldSrv.URL, Token: old.token, Keys: []string{old.pub(t)}}
	b := venueAgent(t, t.TempDir(), clk, &logs, venues, oldCfg)
	if err := b.Sync(context.Background()); err != nil {
		t.Fatalf("an older court: %v", err)
	}
	st := getStatus(t, b)
	if len(st.UnknownVenues) != 0 || st.Courts[0].Venues != nil || !strings.Contains(st.Courts[0].VenuesError, "404") || st.Courts[0].LastError != "" {
		t.Fatalf("an older court: %+v", st)
	}

	// With a court that has the list beside it, and Arena da Amazônia in
	// that court's table only: only the misspelt name is reported.
	am := newCourt(t, "13.0001", now)
	if err := am.g.Exec(`INSERT INTO venues (name, city, uf, latitude, longitude, time_zone) VALUES ('Arena da Amazônia', 'Manaus', 'AM', -3.08, -60.03, 'America/Manaus')`).Error; err != nil {
		t.Fatal(err)
	}
	other := newCourt(t, "26.0100", now)
	cfgs := []gate.CourtConfig{oldCfg, {URL: am.http.URL, Token: am.token, Keys: []string{am.pub(t)}}, {URL: other.http.URL, Token: other.token, Keys: []string{other.pub(t)}}}
	m := venueAgent(t, t.TempDir(), clk, &logs, venues, cfgs...)
	mustSync(t, m)
	if st := getStatus(t, m); !reflect.DeepEqual(st.UnknownVenues, []string{"Arena Corintians"}) {
		t.Fatalf("three courts: %+v", st)
	}

	// The older court gains the list, the agent reads it an hour later,
	// then the court goes back (404): its list is dropped, nothing is
	// reported from it.
	sw.older.Store(false)
	clk.Set(now.Add(gate.VenuesEvery))
	mustSync(t, b)
	if st := getStatus(t, b); !reflect.DeepEqual(st.UnknownVenues, []string{"Arena Corintians", "Arena da Amazônia"}) || st.Courts[0].VenuesError != "" {
		t.Fatalf("the court with the list: %+v", st)
	}
	sw.older.Store(true)
	clk.Set(now.Add(2 * gate.VenuesEvery))
	mustSync(t, b)
	if st := getStatus(t, b); len(st.UnknownVenues) != 0 || st.Courts[0].Venues != nil {
		t.Fatalf("the court without the list again: %+v", st)
	}
}
