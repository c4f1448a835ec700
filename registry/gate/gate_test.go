package gate_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/internal/web"
	"github.com/juizado/juizado/registry/blocklist"
	"github.com/juizado/juizado/registry/gate"
	"github.com/juizado/juizado/templates"
	"gorm.io/gorm"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// testClock is a settable clock for the court.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *testClock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// court is one court on loopback: its own database, key ring and server.
type court struct {
	g     *gorm.DB
	srv   *web.Server
	http  *httptest.Server
	keys  *blocklist.KeyRing
	token string
	clk   *testClock
	n     int
}

var sp = func() *time.Location { l, _ := time.LoadLocation("America/Sao_Paulo"); return l }()

func newCourt(t testing.TB, code string, now time.Time) *court {
	t.Helper()
	ctx := context.Background()
	g := pgtest.NewDB(t)
	if err := cases.EnsureCourt(ctx, g, code, ""); err != nil {
		t.Fatal(err)
	}
	enf, err := authz.Open(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	c := &court{g: g, keys: &blocklist.KeyRing{Dir: t.TempDir()}, clk: &testClock{t: now}}
	c.srv, err = web.New(web.Deps{DB: g, Enforcer: enf, Clock: c.clk, Loc: sp, Templates: templates.FS, Keys: c.keys, Court: code,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.srv.Close)
	club := "Clube"
	u, _, err := accounts.EnsureUser(ctx, g, accounts.UserSpec{Name: "gate", Role: "club", Club: club})
	if err != nil {
		t.Fatal(err)
	}
	if c.token, err = accounts.NewToken(ctx, g, u.ID, time.Time{}); err != nil {
		t.Fatal(err)
	}
	pu, _, err := accounts.EnsureUser(ctx, g, accounts.UserSpec{Name: "mp", Role: "prosecutor", Court: code})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Exec(`INSERT INTO cases (number, court_code, year, sequence, status, filer_user_id, filer_role, filed_by_kind, filed_by_name,
	                    home_team, occurred_at, facts_date, filed_at)
		 VALUES ('00099999920258260100', ?, 2025, 999999, 'sentenced', ?, 'prosecutor', 'mp', 'Teste', 'Corinthians',
		         '2025-05-01 16:00-03', '2025-05-01', now())`, code, pu.ID).Error; err != nil {
		t.Fatal(err)
	}
	c.http = httptest.NewServer(c.srv.Echo)
	t.Cleanup(c.http.Close)
	return c
}

// ban sentences cpf from first to last (inclusive), scoped when scope is
// not empty, and refreshes the list.
func (c *court) ban(t testing.TB, cpf, first, last, scope string) {
	t.Helper()
	c.n++
	var defID int64
	if err := c.g.Raw(`INSERT INTO defendants (case_id, position, kind, full_name, cpf, birth_date)
		SELECT id, ?, 'person', 'Torcedor ' || ?, ?, date '1990-01-01' FROM cases LIMIT 1 RETURNING id`, c.n, cpf, cpf).Scan(&defID).Error; err != nil {
		t.Fatal(err)
	}
	var sc any
	source := "sentence"
	if scope != "" { // a scope comes with a settlement (migration 00040)
		sc, source = scope, "settlement"
	}
	if err := c.g.Exec(`INSERT INTO bans (case_id, defendant_id, subject, source, court_code, case_number, cpf, name, birth_date, facts_date,
		   law, article, range_min_months, range_max_months, first_day, months, computed_last_day, last_day, publish, created_at, scope)
		 SELECT d.case_id, d.id, 'person', ?, c.court_code, c.number, d.cpf, d.full_name, d.birth_date, '2025-05-01',
		        'Lei 14.597/2023', 'art. 201, § 2º', 6, 36, ?::date, 24, ?::date, ?::date, true, now(), ?::jsonb
		 FROM defendants d JOIN cases c ON c.id = d.case_id WHERE d.id = ?`, source, first, last, last, sc, defID).Error; err != nil {
		t.Fatal(err)
	}
	if err := c.srv.RefreshBlocklist(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func (c *court) pub(t testing.TB) string {
	t.Helper()
	ks, err := c.keys.Keys(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return ks[0].PublicKey
}

// agentClock is the agent's injected clock.
type agentClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *agentClock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *agentClock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// config is the agent's configuration of court c: its URL, its token and
// its current signing key (API.md "Gate agent").
func (c *court) config(t testing.TB) gate.CourtConfig {
	t.Helper()
	return gate.CourtConfig{URL: c.http.URL, Token: c.token, Keys: []string{c.pub(t)}}
}

// bannedCourt is newCourt for court 26.0100 with cpfRio banned from
// 01/06/2025 to 01/01/2026.
func bannedCourt(t testing.TB, now time.Time) *court {
	t.Helper()
	c := newCourt(t, "26.0100", now)
	c.ban(t, cpfRio, "2025-06-01", "2026-01-01", "")
	return c
}

// mustSync runs one Sync of agent a and fails the test on its error.
func mustSync(t testing.TB, a *gate.Agent) {
	t.Helper()
	if err := a.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func newAgent(t testing.TB, dir string, clk *agentClock, venues []string, courts ...gate.CourtConfig) *gate.Agent {
	t.Helper()
	a, err := gate.New(gate.Config{DataDir: dir, Device: "portao-1", MaxAge: gate.Duration(time.Hour), Venues: venues, Courts: courts}, clk.Now)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func day(s string, h, m int) time.Time {
	d, _ := time.ParseInLocation("2006-01-02", s, sp)
	return d.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute)
}

func check(t testing.TB, a *gate.Agent, cpf string) gate.CheckResult {
	t.Helper()
	rec := httptest.NewRecorder()
	a.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/check/"+cpf, nil))
	var r gate.CheckResult
	if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &r) != nil {
		t.Fatalf("check %s: %d %s", cpf, rec.Code, rec.Body)
	}
	return r
}

const (
	cpfRio   = "52998224725"
	cpfPoa   = "11144477735"
	cpfOther = "39053344705"
)

// API.md "Gate agent" (issue 20, the 16-byte slot): the bans whose id is
// above 2^32-1 (a PostgreSQL bigserial), whose first day is before
// 2000-01-01 or whose last day is after 2179-06-06 block at the agent as
// the court publishes them, from their first day to their last, like the
// ban of id 2^32-1 beside them.
func TestGateAgentAnswersBansBeyondTheSlot(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	c := newCourt(t, "26.0100", now)
	c.ban(t, cpfPoa, "2025-06-01", "2026-01-01", "")
	if err := c.g.Exec(`UPDATE bans SET facts_date = '1999-12-01', first_day = '1999-12-31' WHERE cpf = ?`, cpfPoa).Error; err != nil {
		t.Fatal(err)
	}
	c.ban(t, cpfOther, "2025-06-01", "2180-01-01", "")
	if err := pgtest.Admin(t, c.g).Exec(`SELECT setval(pg_get_serial_sequence('bans', 'id'), 4294967294)`).Error; err != nil {
		t.Fatal(err)
	}
	c.ban(t, cpfFourth, "2025-06-01", "2026-01-01", "") // id 2^32-1
	c.ban(t, cpfRio, "2025-06-01", "2026-01-01", "")    // id 2^32
	ids := map[string]int64{}
	for _, cpf := range []string{cpfRio, cpfPoa, cpfOther, cpfFourth} {
		var id int64
		if err := c.g.Raw(`SELECT id FROM bans WHERE cpf = ?`, cpf).Scan(&id).Error; err != nil {
			t.Fatal(err)
		}
		ids[cpf] = id
	}
	if ids[cpfFourth] != 1<<32-1 || ids[cpfRio] != 1<<32 {
		t.Fatalf("ban ids %v", ids)
	}
	clk := &agentClock{t: now}
	a := newAgent(t, t.TempDir(), clk, nil, c.config(t))
	mustSync(t, a)
	ref := check(t, a, cpfFourth) // held by a slot: the case number and court as published
	if !ref.Blocked || len(ref.Bans) != 1 || ref.Bans[0].BanID != 1<<32-1 || ref.Bans[0].FirstDay != "2025-06-01" ||
		ref.Bans[0].LastDay == nil || *ref.Bans[0].LastDay != "2026-01-01" || ref.Bans[0].Court != "26.0100" {
		t.Fatalf("ban of id 2^32-1: %+v", ref)
	}
	want := func(cpf, first, last string) gate.CheckBan {
		return gate.CheckBan{BanID: ids[cpf], FirstDay: first, LastDay: &last, CaseNumber: ref.Bans[0].CaseNumber, Court: "26.0100"}
	}
	blocks := func(when time.Time, cpf string, w *gate.CheckBan) {
		t.Helper()
		clk.Set(when)
		r := check(t, a, cpf)
		if w == nil {
			if r.Blocked || len(r.Bans) != 0 {
				t.Fatalf("%s on %s: %+v", cpf, when, r)
			}
			return
		}
		if !r.Blocked || len(r.Bans) != 1 || !reflect.DeepEqual(r.Bans[0], *w) {
			t.Fatalf("%s on %s: %+v, want %+v", cpf, when, r, *w)
		}
	}
	rio, poa, other := want(cpfRio, "2025-06-01", "2026-01-01"), want(cpfPoa, "1999-12-31", "2026-01-01"), want(cpfOther, "2025-06-01", "2180-01-01")
	blocks(now, cpfRio, &rio)
	blocks(now, cpfPoa, &poa)
	blocks(now, cpfOther, &other)
	blocks(day("2025-05-31", 23, 59), cpfRio, nil)
	blocks(day("2026-01-01", 23, 59), cpfRio, &rio)
	blocks(day("2026-01-02", 0, 0), cpfRio, nil)
	blocks(day("1999-12-30", 23, 59), cpfPoa, nil)
	blocks(day("1999-12-31", 0, 0), cpfPoa, &poa)
	blocks(day("2026-01-02", 0, 0), cpfPoa, nil)
	blocks(day("2179-06-07", 12, 0), cpfOther, &other)
	blocks(day("2180-01-01", 23, 59), cpfOther, &other)
	blocks(day("2180-01-02", 0, 0), cpfOther, nil)
	blocks(day("2180-01-02", 0, 0), cpfFourth, nil)
}

// DOMAIN.md §6 and API.md "Gate agent": a ban sentenced at one court blocks
// at an agent following two courts (each with its own database and key);
// the answer names the court and the versions; the copy on disk restarts
// the agent offline, answering with stale once older than max_age; a ban
// ends at midnight of America/Sao_Paulo with no contact.
func TestGateAgentTwoCourtsOfflineAndMidnightEnd(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	rio := newCourt(t, "19.0001", now)
	poa := newCourt(t, "21.0001", now)
	rio.ban(t, cpfRio, "2025-06-01", "2025-06-10", "")
	poa.ban(t, cpfPoa, "2025-06-01", "2026-06-01", "")
	clk := &agentClock{t: now}
	dir := t.TempDir()
	cfgs := []gate.CourtConfig{{URL: rio.http.URL, Token: rio.token, Keys: []string{rio.pub(t)}}, {URL: poa.http.URL, Token: poa.token, Keys: []string{poa.pub(t)}}}
	a := newAgent(t, dir, clk, nil, cfgs...)
	mustSync(t, a)
	r := check(t, a, "529.982.247-25")
	if !r.Blocked || len(r.Bans) != 1 || r.Bans[0].Court != "19.0001" || r.Stale || r.Versions["19.0001"] == 0 || r.Versions["21.0001"] == 0 {
		t.Fatalf("Rio ban at the agent: %+v", r)
	}
	if r := check(t, a, cpfPoa); !r.Blocked || r.Bans[0].Court != "21.0001" {
		t.Fatalf("Porto Alegre ban: %+v", r)
	}
	if r := check(t, a, cpfOther); r.Blocked {
		t.Fatalf("a CPF with no ban blocked: %+v", r)
	}
	// A new sentence reaches the agent through the feed.
	rio.ban(t, cpfOther, "2025-06-01", "2025-12-31", "")
	mustSync(t, a)
	if r := check(t, a, cpfOther); !r.Blocked {
		t.Fatalf("ban added by the feed not applied: %+v", r)
	}
	// Network cut: both courts stop; a new agent on the same data_dir starts
	// from disk, re-verifies and keeps enforcing.
	rio.http.Close()
	poa.http.Close()
	b := newAgent(t, dir, clk, nil, cfgs...)
	if err := b.Sync(context.Background()); err == nil {
		t.Fatal("sync with the courts stopped: no error")
	}
	if r := check(t, b, cpfOther); !r.Blocked || r.Stale {
		t.Fatalf("offline restart: %+v", r)
	}
	st := b.Status()
	if len(st.Courts) != 2 || st.Courts[0].LastError == "" || st.Courts[0].Version == 0 {
		t.Fatalf("status offline: %+v", st)
	}
	// 23:59 still blocked, 00:00 of the 11th (São Paulo) the Rio ban ended;
	// more than max_age since the last contact: stale.
	clk.Set(day("2025-06-10", 23, 59))
	if r := check(t, b, cpfRio); !r.Blocked {
		t.Fatalf("last day 23:59: %+v", r)
	}
	clk.Set(day("2025-06-11", 0, 0))
	if r := check(t, b, cpfRio); r.Blocked || !r.Stale {
		t.Fatalf("after the last day, offline: %+v", r)
	}
	if r := check(t, b, cpfPoa); !r.Blocked {
		t.Fatalf("Porto Alegre ban offline: %+v", r)
	}
	rec := httptest.NewRecorder()
	b.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if !strings.Contains(rec.Body.String(), `gate_court_version{court="19.0001"`) {
		t.Errorf("metrics: %s", rec.Body)
	}
}

// API.md "Signed responses": a feed page with one byte changed on the way is
// refused and nothing of it applied (last_error says why); an unknown key
// is refused; a key rotated by the court (endorsed by the old one) is
// trusted and its pages applied.
func TestGateAgentRefusesTamperingAndFollowsRotation(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	c := bannedCourt(t, now)
	// A proxy in the middle that, while on, changes one byte of every feed
	// page with changes.
	var edit atomic.Pointer[func(*http.Response, []byte) []byte]
	flip := func(resp *http.Response, b []byte) []byte {
		if strings.Contains(resp.Request.URL.Path, "/changes") {
			b = bytes.Replace(b, []byte("Torcedor"), []byte("Torcedxr"), 1)
		}
		return b
	}
	px := mitm(t, c.http.URL, &edit)
	clk := &agentClock{t: now}
	a := newAgent(t, t.TempDir(), clk, nil, gate.CourtConfig{URL: px.URL, Token: c.token, Keys: []string{c.pub(t)}})
	mustSync(t, a)
	v0 := a.Status().Courts[0].Version
	edit.Store(&flip)
	c.ban(t, cpfPoa, "2025-06-01", "2026-01-01", "")
	if err := a.Sync(context.Background()); err == nil {
		t.Fatal("tampered page applied")
	}
	st := a.Status().Courts[0]
	if st.Version != v0 || !strings.Contains(st.LastError, "signature") {
		t.Fatalf("after tampering: %+v", st)
	}
	if r := check(t, a, cpfPoa); r.Blocked {
		t.Fatalf("tampered change applied: %+v", r)
	}
	edit.Store(nil)
	// Rotation: the new key is endorsed by the pinned one.
	if _, err := c.keys.Rotate(time.Now()); err != nil {
		t.Fatal(err)
	}
	c2 := newCourt(t, "26.0100", now)                  // an unrelated court's key ...
	c.ban(t, cpfOther, "2025-06-01", "2026-01-01", "") // signed by the new key only
	if err := a.Sync(context.Background()); err != nil {
		t.Fatalf("after rotation: %v (%+v)", err, a.Status())
	}
	if r := check(t, a, cpfPoa); !r.Blocked || !check(t, a, cpfOther).Blocked {
		t.Fatalf("page signed by the rotated key not applied: %+v", r)
	}
	// ... is not trusted: a court signing with a key nobody endorsed.
	b := newAgent(t, t.TempDir(), clk, nil, gate.CourtConfig{URL: c2.http.URL, Token: c2.token, Keys: []string{c.pub(t)}})
	if err := b.Sync(context.Background()); err == nil || !strings.Contains(b.Status().Courts[0].LastError, "unknown key") {
		t.Fatalf("unknown key: %v %+v", err, b.Status())
	}
	if r := check(t, b, cpfRio); r.Blocked {
		t.Fatalf("unverified list applied: %+v", r)
	}
}

// A venue-scoped ban blocks only at the venues it names; a match-counted
// one only on its match days.
func TestGateAgentScope(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	c := newCourt(t, "26.0100", now)
	c.ban(t, cpfRio, "2025-06-01", "2026-01-01", `{"venues": ["Estádio do Maracanã"], "venue_ids": [], "clubs": []}`)
	clk := &agentClock{t: now}
	cfg := c.config(t)
	here := newAgent(t, t.TempDir(), clk, []string{"estadio do maracana"}, cfg)
	there := newAgent(t, t.TempDir(), clk, []string{"Arena do Grêmio"}, cfg)
	for _, a := range []*gate.Agent{here, there} {
		mustSync(t, a)
	}
	if r := check(t, here, cpfRio); !r.Blocked {
		t.Fatalf("scoped ban at its venue: %+v", r)
	}
	if r := check(t, there, cpfRio); r.Blocked {
		t.Fatalf("scoped ban at another venue: %+v", r)
	}
}

// API.md "Gate agent", court side: GET /blocklist/changes?since=V&wait=S
// answers as soon as a version after V is committed, and with an empty page
// at the end of the wait; the agent's long-poll applies the new ban.
func TestFeedLongPollAnswersOnCommit(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	c := bannedCourt(t, now)
	clk := &agentClock{t: now}
	a := newAgent(t, t.TempDir(), clk, nil, c.config(t))
	mustSync(t, a)
	start := time.Now()
	if more, err := a.Courts[0].Poll(context.Background(), time.Second); err != nil || more || time.Since(start) < 900*time.Millisecond {
		t.Fatalf("wait with nothing new: more=%v err=%v after %v", more, err, time.Since(start))
	}
	banned := make(chan struct{})
	go func() {
		defer close(banned)
		time.Sleep(300 * time.Millisecond)
		c.ban(t, cpfPoa, "2025-06-01", "2026-01-01", "")
	}()
	start = time.Now()
	more, err := a.Courts[0].Poll(context.Background(), 20*time.Second)
	<-banned
	if err != nil || !more || time.Since(start) > 5*time.Second {
		t.Fatalf("long-poll: more=%v err=%v after %v", more, err, time.Since(start))
	}
	if r := check(t, a, cpfPoa); !r.Blocked {
		t.Fatalf("ban committed during the long-poll: %+v", r)
	}
	req, _ := http.NewRequest("GET", c.http.URL+"/api/v1/blocklist/changes?since=1&wait=x", nil)
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 422 {
		t.Fatalf("wait=x: %v %v", resp, err)
	}
	resp.Body.Close()
}

// DOMAIN.md §6 ("each read is logged"): the checks the agent answered are
// spooled on disk and sent to the court in batches; the court stores each
// batch once (a retry sends the same batch_id), so an upload repeated after
// a lost answer adds nothing.
func TestGateAgentSpoolsChecksAndUploadsOnce(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	rio := newCourt(t, "19.0001", now)
	rio.ban(t, cpfRio, "2025-06-01", "2025-06-30", "")
	clk := &agentClock{t: now}
	dir := t.TempDir()
	a := newAgent(t, dir, clk, nil, gate.CourtConfig{URL: rio.http.URL, Token: rio.token, Keys: []string{rio.pub(t)}})
	mustSync(t, a)
	check(t, a, cpfRio)
	check(t, a, cpfOther)
	count := func() (n int64) {
		rio.g.Raw("SELECT count(*) FROM blocklist_checks WHERE device = 'portao-1'").Scan(&n)
		return n
	}
	if err := a.Upload(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 2 {
		t.Fatalf("%d check records at the court, want 2", n)
	}
	var blocked int64
	rio.g.Raw("SELECT count(*) FROM blocklist_checks WHERE device = 'portao-1' AND blocked AND version > 0").Scan(&blocked)
	if blocked != 1 {
		t.Errorf("%d blocked records with their version, want 1", blocked)
	}
	if err := a.Upload(context.Background()); err != nil || count() != 2 {
		t.Fatalf("second upload: %v, %d records", err, count())
	}
}

// A ban scoped to a club's home matches (CPP art. 319, II) blocks at an
// agent configured with venues only (API.md "Gate agent": no clubs) exactly
// where and when the court's own check at that venue blocks: at the club's
// home venue on its match days and on days without a match there, not on
// another club's home match day at a shared stadium, not at other venues.
// The court writes the schedule into the entry (scope.club_venues); a
// schedule imported after the ban reaches the agent by the feed.
func TestGateAgentClubScopeFollowsTheCourtsSchedule(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	c := newCourt(t, "26.0100", now)
	match := func(home, away, venue, date string) {
		t.Helper()
		if err := c.g.Exec(`INSERT INTO matches (court_code, competition, round, home, away, venue_id, match_date, kickoff_local, kickoff, imported_at)
			SELECT '26.0100', 'Campeonato Paulista', ?, ?, ?, v.id, ?::date, '16:00', (?::date + time '16:00') AT TIME ZONE 'America/Sao_Paulo', now()
			FROM venues v WHERE v.name = ?`, home+date, home, away, date, date, venue).Error; err != nil {
			t.Fatal(err)
		}
	}
	match("Corinthians", "Santos", "Arena Corinthians", "2025-06-15")
	match("São Paulo", "Santos", "Arena Corinthians", "2025-06-20") // a shared stadium: another club's day
	match("Palmeiras", "Corinthians", "Allianz Parque", "2025-06-18")
	c.ban(t, cpfRio, "2025-06-01", "2026-01-01", `{"venues": [], "venue_ids": [], "clubs": ["CORINTHIANS"]}`)
	clk := &agentClock{t: now}
	cfg := c.config(t)
	arena := newAgent(t, t.TempDir(), clk, []string{"Arena Corinthians"}, cfg)
	allianz := newAgent(t, t.TempDir(), clk, []string{"Allianz Parque"}, cfg)
	courtCheck := func(venue string) bool {
		t.Helper()
		req, _ := http.NewRequest("GET", c.http.URL+"/api/v1/blocklist/check/"+cpfRio+"?venue="+url.QueryEscape(venue), nil)
		req.Header.Set("Authorization", "Bearer "+c.token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var r struct{ Blocked bool }
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || resp.StatusCode != 200 {
			t.Fatalf("court check at %s: %d %v", venue, resp.StatusCode, err)
		}
		return r.Blocked
	}
	for _, a := range []*gate.Agent{arena, allianz} {
		mustSync(t, a)
	}
	for _, k := range []struct {
		date          string
		arena, others bool
	}{
		{"2025-06-10", true, false},  // no match at the Arena that day: its home venue
		{"2025-06-15", true, false},  // Corinthians at home
		{"2025-06-18", true, false},  // Corinthians away at the Allianz Parque: not a home match
		{"2025-06-20", false, false}, // São Paulo's home match at the Arena
	} {
		at := day(k.date, 15, 0)
		clk.Set(at)
		c.clk.Set(at)
		if got := check(t, arena, cpfRio).Blocked; got != k.arena {
			t.Errorf("%s, agent at the Arena Corinthians: blocked %v, want %v", k.date, got, k.arena)
		}
		if got := courtCheck("Arena Corinthians"); got != k.arena {
			t.Errorf("%s, court's check at the Arena Corinthians: blocked %v, want %v", k.date, got, k.arena)
		}
		if got := check(t, allianz, cpfRio).Blocked; got != k.others {
			t.Errorf("%s, agent at the Allianz Parque: blocked %v, want %v", k.date, got, k.others)
		}
		if got := courtCheck("Allianz Parque"); got != k.others {
			t.Errorf("%s, court's check at the Allianz Parque: blocked %v, want %v", k.date, got, k.others)
		}
	}
	// A schedule imported later: Corinthians plays a home match at the
	// Allianz Parque on 2025-06-28; the next refresh publishes it and the
	// agent blocks there from then on, offline.
	clk.Set(now)
	c.clk.Set(now)
	match("Corinthians", "Guarani", "Allianz Parque", "2025-06-28")
	if err := c.srv.RefreshBlocklist(context.Background()); err != nil {
		t.Fatal(err)
	}
	mustSync(t, allianz)
	c.http.Close() // the network is down from here on
	for _, k := range []struct {
		date    string
		allianz bool
	}{{"2025-06-18", false}, {"2025-06-25", true}, {"2025-06-28", true}} {
		clk.Set(day(k.date, 15, 0))
		if got := check(t, allianz, cpfRio).Blocked; got != k.allianz {
			t.Errorf("%s, agent at the Allianz Parque after the new schedule: blocked %v, want %v", k.date, got, k.allianz)
		}
	}
}

// outboxCase is a court (19.0001, cpfRio banned), an agent synced with it
// (logging into logs) and the agent's outbox folder, made: for the tests
// that put a batch in the outbox by hand.
func outboxCase(t *testing.T, logs *logBuffer) (rio *court, a *gate.Agent, outbox string) {
	t.Helper()
	now := day("2025-06-10", 15, 0)
	rio = newCourt(t, "19.0001", now)
	rio.ban(t, cpfRio, "2025-06-01", "2025-06-30", "")
	dir := t.TempDir()
	a = loggedAgent(t, dir, &agentClock{t: now}, 24*time.Hour, logs, gate.CourtConfig{URL: rio.http.URL, Token: rio.token, Keys: []string{rio.pub(t)}})
	mustSync(t, a)
	outbox = filepath.Join(dir, "outbox")
	if err := os.MkdirAll(outbox, 0o700); err != nil {
		t.Fatal(err)
	}
	return rio, a, outbox
}

// A batch the court refuses with 409 (its batch_id already holds other
// records of this club) cannot succeed when sent again: the agent keeps it
// aside on disk (*.conflict), logs it and goes on, so the batches after it
// still reach the court (a retry forever would hold back every later
// check record).
func TestGateAgentSetsAsideABatchTheCourtRefusesAsAConflict(t *testing.T) {
	rio, a, outbox := outboxCase(t, &logBuffer{})
	// The court already holds batch "00000000000000000001-aa" of this club
	// with another record.
	const id = "00000000000000000001-aa"
	body := `{"batch_id": "` + id + `", "device": "portao-1", "records": [{"cpf": "` + cpfOther + `", "checked_at": "2025-06-10T12:00:00Z", "version": 1, "blocked": false}]}`
	req, _ := http.NewRequest("POST", rio.http.URL+"/api/v1/blocklist/checks", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+rio.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("the first batch: %v %v", resp, err)
	}
	resp.Body.Close()
	line := `{"cpf":"` + cpfRio + `","checked_at":"2025-06-10T12:00:01Z","blocked":true,"versions":{"19.0001":1}}` + "\n"
	if err := os.WriteFile(filepath.Join(outbox, id+".jsonl"), []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	check(t, a, cpfRio) // a later check, cut into a batch of its own
	if err := a.Upload(context.Background()); err != nil {
		t.Fatalf("upload with a conflicting batch first: %v", err)
	}
	var n int64
	rio.g.Raw("SELECT count(*) FROM blocklist_checks WHERE device = 'portao-1'").Scan(&n)
	if n != 2 { // the court's first batch, and the later check
		t.Fatalf("%d check records at the court, want 2", n)
	}
	left, _ := filepath.Glob(filepath.Join(outbox, "*.jsonl"))
	aside, _ := filepath.Glob(filepath.Join(outbox, id+".jsonl.*.conflict"))
	if len(left) != 0 || len(aside) != 1 {
		t.Fatalf("outbox: %v waiting, %v set aside; want none waiting and the conflicting batch aside", left, aside)
	}
	if b, err := os.ReadFile(aside[0]); err != nil || string(b) != line {
		t.Fatalf("the batch set aside: %q %v", b, err)
	}
}

// A batch the court refuses for good with 422 (here a record from a gate
// clock an hour fast: the court takes no checked_at more than 5 minutes
// ahead) is kept aside as *.refused with the court's answer beside it, not
// retried forever: the later batches reach the court, and the refusal is
// logged and reported (GET /status set_aside and last_set_aside,
// gate_check_batches_set_aside) rather than silent.
func TestGateAgentSetsAsideABatchTheCourtRefusesAndSaysSo(t *testing.T) {
	var logs logBuffer
	rio, a, outbox := outboxCase(t, &logs)
	now := day("2025-06-10", 15, 0)
	const id = "00000000000000000001-bb"
	ahead := now.Add(time.Hour).UTC().Format(time.RFC3339)
	line := `{"cpf":"` + cpfRio + `","checked_at":"` + ahead + `","blocked":true,"versions":{"19.0001":1}}` + "\n"
	if err := os.WriteFile(filepath.Join(outbox, id+".jsonl"), []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	check(t, a, cpfRio) // a later check, cut into a batch of its own
	if err := a.Upload(context.Background()); err != nil {
		t.Fatalf("upload with a refused batch first: %v", err)
	}
	var n int64
	rio.g.Raw("SELECT count(*) FROM blocklist_checks WHERE device = 'portao-1'").Scan(&n)
	if n != 1 {
		t.Fatalf("%d check records at the court, want 1 (the later check)", n)
	}
	left, _ := filepath.Glob(filepath.Join(outbox, "*.jsonl"))
	aside, _ := filepath.Glob(filepath.Join(outbox, id+".jsonl.*.refused"))
	if len(left) != 0 || len(aside) != 1 {
		t.Fatalf("outbox: %v waiting, %v set aside; want none waiting and the refused batch aside", left, aside)
	}
	if b, err := os.ReadFile(aside[0]); err != nil || string(b) != line {
		t.Fatalf("the batch set aside: %q %v", b, err)
	}
	if b, err := os.ReadFile(aside[0] + ".answer"); err != nil || !strings.Contains(string(b), "records[0].checked_at") {
		t.Errorf("the court's answer kept beside it: %s %v", b, err)
	}
	st := a.Status().Courts[0]
	if !strings.Contains(st.LastSetAside, id) || !strings.Contains(st.LastSetAside, "422") || st.SetAside["refused"] != 1 || st.UploadError != "" {
		t.Errorf("status: last_set_aside %q, set_aside %v, upload_error %q; want the batch and 422 named, refused 1, no error retried", st.LastSetAside, st.SetAside, st.UploadError)
	}
	m := serve(a, "GET", "/metrics").Body.String()
	for _, want := range []string{
		`gate_check_batches_set_aside{court="19.0001",kind="refused",url="` + rio.http.URL + `"} 1`,
		`gate_check_batches_set_aside{court="19.0001",kind="conflict",url="` + rio.http.URL + `"} 0`,
		`gate_court_upload_error{court="19.0001",url="` + rio.http.URL + `"} 0`,
	} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	if logs.count("gate check batch refused by the court for good; kept aside, not sent again") != 1 {
		t.Errorf("the refusal not logged once:\n%s", logs.String())
	}
}

// A batch of the outbox whose only line was cut by a crash holds no check
// record: the agent does not send it (the court refuses a batch without
// records, 422, and a retry forever would hold back every later batch); it
// leaves the outbox and the later checks reach the court.
func TestGateAgentDoesNotSendABatchWithoutRecords(t *testing.T) {
	rio, a, outbox := outboxCase(t, &logBuffer{})
	const id = "00000000000000000001-aa"
	if err := os.WriteFile(filepath.Join(outbox, id+".jsonl"), []byte(`{"cpf":"`+cpfRio+`","checked_at":"2025-06-1`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	check(t, a, cpfRio) // a later check, cut into a batch of its own
	if err := a.Upload(context.Background()); err != nil {
		t.Fatalf("upload with a batch of no records first: %v", err)
	}
	var records, batches int64
	rio.g.Raw("SELECT count(*) FROM blocklist_checks WHERE cpf = ? AND blocked", cpfRio).Scan(&records)
	rio.g.Raw("SELECT count(*) FROM blocklist_check_batches WHERE batch_id = ?", id).Scan(&batches)
	if records != 1 || batches != 0 {
		t.Fatalf("at the court: %d records of the later check, %d batches %s; want 1 and 0", records, batches, id)
	}
	if left, _ := filepath.Glob(filepath.Join(outbox, "*")); len(left) != 0 {
		t.Fatalf("outbox: %v left, want nothing", left)
	}
}

// GET /check/{cpf}?venue=NAME answers for one of the gate's venues, as the
// court's check does for any (API.md, blocklist check ?venue=): a gate at
// two venues blocks a ban scoped to one of them only there. A venue the
// gate does not guard, an empty one or two are 422 on venue, nothing
// checked or recorded; a gate with no venues is blocked by every ban and
// answers for no venue; other parameters are ignored.
func TestGateAgentCheckAtOneOfItsVenues(t *testing.T) {
	now := day("2025-06-10", 15, 0)
	c := newCourt(t, "26.0100", now)
	c.ban(t, cpfRio, "2025-06-01", "2026-01-01", `{"venues": ["Estádio do Maracanã"], "venue_ids": [], "clubs": []}`)
	clk := &agentClock{t: now}
	cfg := c.config(t)
	a := newAgent(t, t.TempDir(), clk, []string{"Estádio do Maracanã", "Arena do Grêmio"}, cfg)
	none := newAgent(t, t.TempDir(), clk, nil, cfg)
	for _, g := range []*gate.Agent{a, none} {
		mustSync(t, g)
	}
	blocked := func(g *gate.Agent, path string) bool {
		t.Helper()
		rec := serve(g, "GET", path)
		var r gate.CheckResult
		if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &r) != nil {
			t.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
		}
		return r.Blocked
	}
	if !blocked(a, "/check/"+cpfRio) || !blocked(a, "/check/"+cpfRio+"?venue=ESTADIO+DO+MARACANA") || !blocked(a, "/check/"+cpfRio+"?venue=Est%C3%A1dio+do+Maracan%C3%A3") {
		t.Fatal("the ban scoped to the Maracanã does not block at the gate's Maracanã")
	}
	if blocked(a, "/check/"+cpfRio+"?venue=arena+do+gremio") {
		t.Fatal("the ban scoped to the Maracanã blocks at the gate's Arena do Grêmio")
	}
	if !blocked(a, "/check/"+cpfRio+"?t=123") || !blocked(none, "/check/"+cpfRio) {
		t.Fatal("a check without venue= is not the gate's whole answer")
	}
	checks := func() string { // the gate_checks_total lines of /metrics
		var out []string
		for _, l := range strings.Split(serve(a, "GET", "/metrics").Body.String(), "\n") {
			if strings.HasPrefix(l, "gate_checks_total{") {
				out = append(out, l)
			}
		}
		return strings.Join(out, "; ")
	}
	before := checks()
	for _, q := range []string{"venue=Allianz+Parque", "venue=", "venue=Maracana&venue=Arena+do+Gremio", "venue=%zz"} {
		rec := serve(a, "GET", "/check/"+cpfRio+"?"+q)
		if rec.Code != 422 || rec.Header().Get("Content-Type") != "application/problem+json" {
			t.Errorf("?%s: %d %s", q, rec.Code, rec.Body)
		}
	}
	if rec := serve(none, "GET", "/check/"+cpfRio+"?venue=Maracana"); rec.Code != 422 || !strings.Contains(rec.Body.String(), `"venue"`) {
		t.Errorf("a gate with no venues, ?venue=: %d %s", rec.Code, rec.Body)
	}
	if _, ok := a.CheckAt(cpfRio, "Allianz Parque"); ok {
		t.Error("CheckAt answered for a venue the gate does not guard")
	}
	if after := checks(); after != before || before == "" {
		t.Errorf("refused checks counted: %s → %s", before, after)
	}
}
