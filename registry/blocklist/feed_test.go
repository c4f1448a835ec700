package blocklist_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/registry/blocklist"
)

// set is a gate's copy of the blocklist: entries by ban id.
type set map[int64]blocklist.Entry

func snapSet(s *blocklist.Snapshot) set {
	out := set{}
	for _, e := range s.Items {
		out[e.BanID] = e
	}
	return out
}

// apply pages through the feed from version since with pages of limit and
// applies each change as a gate would; it fails on a removal of an entry the
// gate lacks or an addition of one it has. It returns the final set and the
// sets reached at the end of each page (by the page's to).
func apply(t *testing.T, l *blocklist.Lists, from set, since int64, limit int) (set, map[int64]set) {
	t.Helper()
	ctx := context.Background()
	cur := set{}
	for k, v := range from {
		cur[k] = v
	}
	reached := map[int64]set{}
	latest, err := l.Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cursor := ""
	for i := 0; ; i++ {
		if i > 10000 {
			t.Fatal("feed does not end")
		}
		p, err := l.Changes(ctx, since, limit, cursor)
		if err != nil {
			t.Fatalf("Changes(%d, %d, %q): %v", since, limit, cursor, err)
		}
		if len(p.Changes) > limit {
			t.Fatalf("page of %d changes, limit %d", len(p.Changes), limit)
		}
		if p.From != since {
			t.Fatalf("page from %d, want %d", p.From, since)
		}
		for _, c := range p.Changes {
			if c.Version <= since || (p.Cursor == "" && c.Version > p.To) {
				t.Fatalf("change of version %d in a page from %d to %d", c.Version, p.From, p.To)
			}
			switch c.Op {
			case "remove":
				if _, ok := cur[c.BanID]; !ok {
					t.Fatalf("remove of ban %d the gate lacks (version %d, %s)", c.BanID, c.Version, c.Reason)
				}
				delete(cur, c.BanID)
			case "add":
				if _, ok := cur[c.BanID]; ok {
					t.Fatalf("add of ban %d the gate has (version %d, %s)", c.BanID, c.Version, c.Reason)
				}
				cur[c.BanID] = c.Entry
			default:
				t.Fatalf("op %q", c.Op)
			}
		}
		if p.Cursor != "" {
			if p.To != since {
				t.Fatalf("a cursor page moved to %d from %d", p.To, since)
			}
			cursor = p.Cursor
			continue
		}
		cursor = ""
		cp := set{}
		for k, v := range cur {
			cp[k] = v
		}
		reached[p.To] = cp
		if p.To >= latest.Version {
			return cur, reached
		}
		if p.To <= since {
			t.Fatalf("feed page did not advance: from %d to %d", since, p.To)
		}
		since = p.To
	}
}

// Applying the feed to the snapshot of any version gives the snapshot of the
// latest one, across random sentences, future starts, expiries (the clock
// moves), liftings and corrections, with pages of every size.
func TestFeed_ApplyingChangesGivesTheSnapshot(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	seed := rng.Int63()
	rng.Seed(seed)
	t.Logf("seed %d", seed)
	snaps := map[int64]set{0: {}}
	var versions []int64
	record := func() {
		s, err := e.lists.Current(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if prev, ok := snaps[s.Version]; ok && !reflect.DeepEqual(prev, snapSet(s)) {
			t.Fatalf("version %d changed content", s.Version)
		}
		if _, ok := snaps[s.Version]; !ok {
			versions = append(versions, s.Version)
		}
		snaps[s.Version] = snapSet(s)
	}
	record()
	refs := []string{"R1", "R2", "R7", "R8"}
	var banIDs []int64
	for step := 0; step < 30; step++ {
		now := e.clk.Now()
		today := now.In(saoPaulo)
		switch op := rng.Intn(10); {
		case op < 4: // a sentence, starting today, in the past or in the future
			first := today.AddDate(0, 0, rng.Intn(40)-10).Format("2006-01-02")
			b, _ := e.sentence(t, e.reps[refs[rng.Intn(len(refs))]], first, []int{3, 6}[rng.Intn(2)])
			banIDs = append(banIDs, b.ID)
		case op < 7: // time passes: bans start and end at midnight
			e.at(now.Add(time.Duration(rng.Intn(50*24)) * time.Hour))
		case op < 8 && len(banIDs) > 0: // a ban lifted
			id := banIDs[rng.Intn(len(banIDs))]
			if err := e.g.Exec("UPDATE bans SET status = 'lifted' WHERE id = ?", id).Error; err != nil {
				t.Fatal(err)
			}
		case op < 9 && len(banIDs) > 0: // a correction of an entry's data
			id := banIDs[rng.Intn(len(banIDs))]
			if err := e.g.Exec("UPDATE bans SET name = name || ' (corrigido)' WHERE id = ?", id).Error; err != nil {
				t.Fatal(err)
			}
		default: // a read with nothing changed
		}
		record()
	}
	latest := versions[len(versions)-1]
	want := snaps[latest]
	if len(versions) < 5 {
		t.Fatalf("only %d versions made", len(versions))
	}
	for _, v := range append([]int64{0}, versions...) {
		for _, limit := range []int{1, 2, 3, 1000} {
			got, reached := apply(t, e.lists, snaps[v], v, limit)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("from version %d (limit %d): applying the feed gives %d entries, the snapshot of %d has %d\n got %v\nwant %v",
					v, limit, len(got), latest, len(want), keys(got), keys(want))
			}
			for to, s := range reached {
				if w, ok := snaps[to]; ok && !reflect.DeepEqual(s, w) {
					t.Fatalf("from %d (limit %d): the page ending at %d gives %v, its snapshot %v", v, limit, to, keys(s), keys(w))
				}
			}
		}
	}
	// Every change carries a known reason, and every kind of move shows up.
	var reasons []string
	if err := e.g.Raw("SELECT DISTINCT reason FROM blocklist_changes ORDER BY 1").Scan(&reasons).Error; err != nil {
		t.Fatal(err)
	}
	t.Logf("%d versions, reasons %v", len(versions), reasons)
}

func keys(s set) []int64 {
	var out []int64
	for k := range s {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Reasons: a new ban, a future ban starting, an expiry, a lifting, a
// correction (remove then add of the same ban in one version).
func TestFeed_Reasons(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	v0, err := e.lists.Current(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b1, _ := e.sentence(t, e.reps["R1"], "2025-06-10", 3) // in force: new_ban
	b2, _ := e.sentence(t, e.reps["R2"], "2025-07-01", 3) // future: start
	b3, _ := e.sentence(t, e.reps["R8"], "2025-06-10", 6)
	e.at(time.Date(2025, 7, 1, 0, 0, 30, 0, saoPaulo))
	if err := e.lists.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if err := e.g.Exec("UPDATE bans SET status = 'lifted' WHERE id = ?", b3.ID).Error; err != nil {
		t.Fatal(err)
	}
	if err := e.g.Exec("UPDATE bans SET name = 'Nome Corrigido' WHERE id = ?", b2.ID).Error; err != nil {
		t.Fatal(err)
	}
	if err := e.lists.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	e.at(time.Date(2025, 9, 10, 0, 0, 1, 0, saoPaulo)) // b1's last day was 09/09
	if err := e.lists.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	p, err := e.lists.Changes(ctx, v0.Version, 1000, "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range p.Changes {
		got = append(got, fmt.Sprintf("%s %d %s", c.Op, c.BanID, c.Reason))
	}
	want := []string{
		fmt.Sprintf("add %d new_ban", b1.ID),
		fmt.Sprintf("add %d new_ban", b3.ID),
		fmt.Sprintf("add %d start", b2.ID),
		fmt.Sprintf("remove %d correction", b2.ID),
		fmt.Sprintf("remove %d lifted", b3.ID),
		fmt.Sprintf("add %d correction", b2.ID),
		fmt.Sprintf("remove %d expiry", b1.ID),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("changes\n got %q\nwant %q", got, want)
	}
	if p.To != p.Changes[len(p.Changes)-1].Version {
		t.Errorf("to %d, last change's version %d", p.To, p.Changes[len(p.Changes)-1].Version)
	}
	b, _ := json.Marshal(p.Changes[0])
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	for _, k := range []string{"version", "op", "reason", "ban_id", "cpf", "name", "first_day", "last_day", "case_number", "court"} {
		if _, ok := m[k]; !ok {
			t.Errorf("change JSON lacks %q: %s", k, b)
		}
	}
}

// 422 for since negative or above the current version; 410 when older than
// what the feed keeps.
func TestFeed_GoneAndInvalid(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	e.sentence(t, e.reps["R1"], "2025-06-10", 3)
	e.sentence(t, e.reps["R2"], "2025-06-10", 3)
	v, err := e.lists.Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, since := range []int64{-1, v.Version + 1} {
		if _, err := e.lists.Changes(ctx, since, 10, ""); errs.KindOf(err) != errs.Invalid {
			t.Errorf("since %d: %v, want invalid", since, err)
		}
	}
	if _, err := e.lists.Changes(ctx, 0, 10, "garbage"); errs.KindOf(err) != errs.Invalid {
		t.Errorf("bad cursor: %v", err)
	}
	if err := e.lists.PruneFeed(ctx, v.Version-1); err != nil {
		t.Fatal(err)
	}
	if _, err := e.lists.Changes(ctx, v.Version-2, 10, ""); !errors.Is(err, blocklist.ErrFeedGone) || errs.KindOf(err) != errs.Gone {
		t.Errorf("since below the floor: %v, want gone", err)
	}
	if p, err := e.lists.Changes(ctx, v.Version-1, 10, ""); err != nil || len(p.Changes) != 1 || p.To != v.Version {
		t.Errorf("since at the floor: %+v %v", p, err)
	}
	if p, err := e.lists.Changes(ctx, v.Version, 10, ""); err != nil || len(p.Changes) != 0 || p.To != v.Version {
		t.Errorf("since current: %+v %v", p, err)
	}
}

// A person without a CPF is never a name-only entry: the ban waits for
// identification.
func TestAwaitingIdentification(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	rep := e.reps["R1"]
	rep.Defendants[0].CPF = nil
	b, _ := e.sentence(t, rep, "2025-06-10", 3)
	items, err := e.lists.AwaitingIdentification(ctx, court)
	if err != nil || len(items) != 1 || items[0].BanID != b.ID {
		t.Fatalf("awaiting: %+v %v", items, err)
	}
	if items, _ := e.lists.AwaitingIdentification(ctx, "99.9999"); len(items) != 0 {
		t.Errorf("other court: %+v", items)
	}
	s, _ := e.lists.Current(ctx)
	if len(s.Items) != 0 {
		t.Errorf("blocklist holds a person without CPF: %+v", s.Items)
	}
}

func TestPublicFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	e.sentence(t, e.reps["R1"], "2025-06-10", 3)
	var home string
	if err := e.g.Raw("SELECT home_team FROM cases ORDER BY id LIMIT 1").Scan(&home).Error; err != nil || home == "" {
		t.Skipf("R1 has no home team (%q, %v)", home, err)
	}
	for _, tc := range []struct {
		f    blocklist.PublicFilter
		want int
	}{{blocklist.PublicFilter{}, 1}, {blocklist.PublicFilter{Court: court}, 1}, {blocklist.PublicFilter{Court: "35.0001"}, 0},
		{blocklist.PublicFilter{Club: home}, 1}, {blocklist.PublicFilter{Club: "  " + home + " "}, 1}, {blocklist.PublicFilter{Club: "Nenhum FC"}, 0}} {
		got, err := e.lists.Public(ctx, tc.f)
		if err != nil || len(got) != tc.want {
			t.Errorf("Public(%+v): %d entries, want %d (%v)", tc.f, len(got), tc.want, err)
		}
	}
}

// Key files: 0600 in a 0700 directory; the id is the short SHA-256 of the
// public key; signatures verify; rotation keeps the previous key listed for
// 7 days.
func TestKeyRing(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "keys")
	ring := &blocklist.KeyRing{Dir: dir}
	body := []byte(`{"version":1}`)
	kid, sig, err := ring.Sign(body)
	if err != nil {
		t.Fatal(err)
	}
	if len(kid) != 16 {
		t.Errorf("key id %q", kid)
	}
	st, err := os.Stat(dir)
	if err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("key dir mode %v %v", st.Mode().Perm(), err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 1 {
		t.Fatalf("key files %v", files)
	}
	for _, f := range files {
		if st, _ := os.Stat(f); st.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v", f, st.Mode().Perm())
		}
	}
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	keys, err := ring.Keys(now)
	if err != nil || len(keys) != 1 || keys[0].ID != kid || keys[0].NotAfter != nil {
		t.Fatalf("keys %+v %v", keys, err)
	}
	if k, ok := blocklist.Verify(body, sig, keys); !ok || k.ID != kid {
		t.Error("signature does not verify")
	}
	if _, ok := blocklist.Verify([]byte(`{"version":2}`), sig, keys); ok {
		t.Error("signature verifies another body")
	}
	// The same directory read again gives the same key.
	if kid2, _, _ := (&blocklist.KeyRing{Dir: dir}).Sign(body); kid2 != kid {
		t.Errorf("reloaded key id %s, want %s", kid2, kid)
	}
	newID, err := ring.Rotate(now)
	if err != nil || newID == kid {
		t.Fatalf("rotate: %s %v", newID, err)
	}
	keys, _ = ring.Keys(now)
	if len(keys) != 2 || keys[0].ID != newID || keys[1].ID != kid || !keys[1].NotAfter.Equal(now.Add(7*24*time.Hour)) {
		t.Fatalf("after rotation: %+v", keys)
	}
	if _, ok := blocklist.Verify(body, sig, keys); !ok {
		t.Error("a snapshot signed before the rotation no longer verifies")
	}
	if keys, _ := ring.Keys(now.Add(8 * 24 * time.Hour)); len(keys) != 1 {
		t.Errorf("the rotated key is still listed after 8 days: %+v", keys)
	}
	files, _ = filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		if st, _ := os.Stat(f); st.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v", f, st.Mode().Perm())
		}
	}
	reloaded, _ := (&blocklist.KeyRing{Dir: dir}).Keys(now)
	if len(reloaded) != 2 || reloaded[0].ID != newID {
		t.Errorf("reloaded after rotation: %+v", reloaded)
	}
}

// Checks are written in batches, off the request path, and all of them by
// Close.
func TestCheckLog(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	club := "Palmeiras"
	u, _, err := accounts.EnsureUser(ctx, e.g, accounts.UserSpec{Name: "portaria", Role: "club", Club: club})
	if err != nil {
		t.Fatal(err)
	}
	log := blocklist.NewCheckLog(e.g, nil, 16, time.Hour)
	for i := 0; i < 2500; i++ {
		log.Log(blocklist.CheckRecord{UserID: u.ID, Club: club, CPF: "66392332154", CheckedAt: t0, Version: 7})
	}
	log.Close()
	log.Log(blocklist.CheckRecord{UserID: u.ID, Club: club, CPF: "66392332154", CheckedAt: t0, Version: 7})
	var n int64
	if err := e.g.Raw("SELECT count(*) FROM blocklist_checks WHERE user_id = ? AND club = ? AND cpf = '66392332154' AND version = 7", u.ID, club).Scan(&n).Error; err != nil || n != 2501 {
		t.Errorf("%d check rows, want 2501 (%v)", n, err)
	}
}

// A batch the database refuses (here: the table is briefly renamed) is kept
// and written at a later tick; none is lost.
func TestCheckLogRetries(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	u, _, err := accounts.EnsureUser(ctx, e.g, accounts.UserSpec{Name: "portaria", Role: "club", Club: "Santos"})
	if err != nil {
		t.Fatal(err)
	}
	if err := pgtest.Admin(t, e.g).Exec("ALTER TABLE blocklist_checks RENAME TO blocklist_checks_away").Error; err != nil {
		t.Fatal(err)
	}
	log := blocklist.NewCheckLog(e.g, slog.New(slog.NewTextHandler(io.Discard, nil)), 0, 10*time.Millisecond)
	for i := 0; i < 1500; i++ {
		log.Log(blocklist.CheckRecord{UserID: u.ID, Club: "Santos", CPF: "66392332154", CheckedAt: t0, Version: 3})
	}
	time.Sleep(100 * time.Millisecond) // several ticks fail
	if err := pgtest.Admin(t, e.g).Exec("ALTER TABLE blocklist_checks_away RENAME TO blocklist_checks").Error; err != nil {
		t.Fatal(err)
	}
	log.Close()
	var n int64
	if err := e.g.Raw("SELECT count(*) FROM blocklist_checks WHERE club = 'Santos' AND version = 3").Scan(&n).Error; err != nil || n != 1500 {
		t.Errorf("%d check rows after the failed writes, want 1500 (%v)", n, err)
	}
}

// The public list is ordered the way a reader looks a name up: accents and
// case ignored at first (Á with A), then the rest of the name.
func TestPublicOrderIgnoresAccentsAndCase(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	names := []string{"Bruno Dias", "Álvaro Souza", "alice Prado", "Alberto Reis", "Ângela Lima"}
	for _, n := range names {
		b, _ := e.sentence(t, e.reps["R1"], "2025-06-10", 3)
		if err := e.g.Exec("UPDATE bans SET name = ?, publish = true WHERE id = ?", n, b.ID).Error; err != nil {
			t.Fatal(err)
		}
	}
	got, err := e.lists.Public(ctx, blocklist.PublicFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, p := range got {
		order = append(order, p.Name)
	}
	want := []string{"Alberto Reis", "alice Prado", "Álvaro Souza", "Ângela Lima", "Bruno Dias"}
	if !reflect.DeepEqual(order, want) {
		t.Errorf("order %q, want %q", order, want)
	}
}

// cursorRule returns the rule of an Invalid error on field "cursor", or "".
func cursorRule(err error) string {
	var e *errs.Error
	if !errors.As(err, &e) || e.Kind != errs.Invalid || len(e.Fields) != 1 || e.Fields[0].Field != "cursor" {
		return ""
	}
	return e.Fields[0].Rule
}

// sealForTest writes a cursor as the server does (format 1, since, version,
// id, the first 16 bytes of HMAC-SHA256 with the context string): the
// layout is part of what this test pins down.
func sealForTest(key []byte, since, version, id int64) string {
	b := make([]byte, 25)
	b[0] = 1
	binary.BigEndian.PutUint64(b[1:], uint64(since))
	binary.BigEndian.PutUint64(b[9:], uint64(version))
	binary.BigEndian.PutUint64(b[17:], uint64(id))
	m := hmac.New(sha256.New, key)
	m.Write([]byte("juizado blocklist feed cursor v1\x00"))
	m.Write(b)
	return base64.RawURLEncoding.EncodeToString(append(b, m.Sum(nil)[:16]...))
}

// A cursor is bound to the since it was issued for and authenticated: one
// of another since, a made-up or altered one, or one past the current
// version is 422 on cursor, never a page that claims to start at since but
// skips changes. A chain of genuine cursors still gives the snapshot.
func TestFeed_CursorBoundToSince(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	key := []byte("0123456789abcdef0123456789abcdef")
	e.lists.CursorKey = func() ([]byte, error) { return key, nil }
	v0, err := e.lists.Current(ctx)
	if err != nil {
		t.Fatal(err)
	}
	e.sentence(t, e.reps["R7"], "2025-06-10", 3) // in force at once: a version of its own
	// Three bans that start on the same future day: one version, three adds.
	var ids []int64
	for _, ref := range []string{"R1", "R2", "R8"} {
		b, _ := e.sentence(t, e.reps[ref], "2025-07-01", 3)
		ids = append(ids, b.ID)
	}
	e.at(time.Date(2025, 7, 1, 0, 0, 30, 0, saoPaulo))
	if err := e.lists.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if err := e.g.Exec("UPDATE bans SET name = name || ' (corrigido)' WHERE id = ?", ids[0]).Error; err != nil {
		t.Fatal(err)
	}
	if err := e.lists.Refresh(ctx); err != nil { // a removal and an addition in one version
		t.Fatal(err)
	}
	latest, err := e.lists.Current(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var start int64 // the version of the three adds
	if err := e.g.Raw("SELECT version FROM blocklist_changes GROUP BY version HAVING count(*) = 3").Scan(&start).Error; err != nil || start == 0 {
		t.Fatalf("version of the three starts: %d %v", start, err)
	}
	since := start - 1
	p, err := e.lists.Changes(ctx, since, 1, "")
	if err != nil || p.Cursor == "" || p.To != since || len(p.Changes) != 1 {
		t.Fatalf("first page: %+v %v", p, err)
	}
	issued := p.Cursor
	if issued != sealForTest(key, since, start, mustChangeID(t, e, start, 0)) {
		t.Errorf("cursor %q is not the documented layout", issued)
	}

	// The genuine cursor continues the same since; the page names it.
	p2, err := e.lists.Changes(ctx, since, 1, issued)
	if err != nil || p2.FromCursor != issued || p2.From != since || len(p2.Changes) != 1 {
		t.Fatalf("second page: %+v %v", p2, err)
	}

	bad := map[string]struct {
		since  int64
		cursor string
		rule   string
	}{
		"another since (lower)":         {v0.Version, issued, "cursor_since"},
		"another since (higher)":        {start, issued, "cursor_since"},
		"old layout, another since":     {0, "AAAAAAAAAAgAAAAAAAAACA", "cursor"},
		"old layout, past the current":  {since, "AAAAAAAAABQAAAAAAAAAAA", "cursor"},
		"made up with another key":      {since, sealForTest([]byte("another key, another key, 32 by."), since, start, 0), "cursor_signature"},
		"altered id":                    {since, alter(issued, 24), "cursor_signature"},
		"altered version":               {since, alter(issued, 16), "cursor_signature"},
		"genuine key, past the current": {since, sealForTest(key, since, latest.Version+4, 0), "cursor_range"},
		"genuine key, at since":         {since, sealForTest(key, since, since, 0), "cursor_range"},
		"genuine key, before since":     {since, sealForTest(key, since, since-1, 0), "cursor_range"},
		"genuine key, negative id":      {since, sealForTest(key, since, start, -5), "cursor_range"},
		"not base64":                    {since, "%%%", "cursor"},
		"truncated":                     {since, issued[:20], "cursor"},
		"genuine key, format 2":         {since, "Ag" + sealForTest(key, since, start, 0)[2:], "cursor"},
	}
	for name, tc := range bad {
		p, err := e.lists.Changes(ctx, tc.since, 1000, tc.cursor)
		if got := cursorRule(err); got != tc.rule {
			t.Errorf("%s: page %+v, error %v (rule %q), want 422 on cursor with rule %q", name, p, err, got, tc.rule)
		}
	}
	var fe *errs.Error
	_, err = e.lists.Changes(ctx, v0.Version, 1000, issued)
	if errors.As(err, &fe) && !strings.Contains(fe.Fields[0].Message, fmt.Sprintf("since=%d", since)) {
		t.Errorf("the message does not name the since the cursor was issued for: %q", fe.Fields[0].Message)
	}

	// From every version, with pages of one change, the chain of cursors
	// gives the latest snapshot.
	want := snapSet(latest)
	for v := v0.Version; v <= latest.Version; v++ {
		var from set
		if v == v0.Version {
			from = set{}
		} else {
			from = snapAt(t, e, v)
		}
		if got, _ := apply(t, e.lists, from, v, 1); !reflect.DeepEqual(got, want) {
			t.Errorf("from %d: %v, want %v", v, keys(got), keys(want))
		}
	}
}

// mustChangeID returns the id of the n-th change (by id) of version v.
func mustChangeID(t *testing.T, e *env, v int64, n int) int64 {
	t.Helper()
	var ids []int64
	if err := e.g.Raw("SELECT id FROM blocklist_changes WHERE version = ? ORDER BY id", v).Scan(&ids).Error; err != nil || len(ids) <= n {
		t.Fatalf("changes of version %d: %v %v", v, ids, err)
	}
	return ids[n]
}

// snapAt rebuilds the set of version v from the feed's changes up to v.
func snapAt(t *testing.T, e *env, v int64) set {
	t.Helper()
	p, err := e.lists.Changes(context.Background(), 0, 1000, "")
	if err != nil {
		t.Fatal(err)
	}
	s := set{}
	for _, c := range p.Changes {
		if c.Version > v {
			break
		}
		if c.Op == "add" {
			s[c.BanID] = c.Entry
		} else {
			delete(s, c.BanID)
		}
	}
	return s
}

// alter flips a bit of byte i of a cursor.
func alter(cursor string, i int) string {
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		panic(err)
	}
	b[i] ^= 1
	return base64.RawURLEncoding.EncodeToString(b)
}

// The cursor key lives in the key directory (0600), is made once and shared
// by every ring on that directory (servers behind one balancer accept each
// other's cursors), and a signing-key rotation leaves it alone.
func TestKeyRing_CursorKey(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "keys")
	a, err := (&blocklist.KeyRing{Dir: dir}).CursorKey()
	if err != nil || len(a) != 32 {
		t.Fatalf("cursor key %x %v", a, err)
	}
	st, err := os.Stat(filepath.Join(dir, "feed-cursor.key"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("cursor key file: %v %v", st, err)
	}
	ring := &blocklist.KeyRing{Dir: dir}
	if _, err := ring.Rotate(time.Now()); err != nil {
		t.Fatal(err)
	}
	if b, err := ring.CursorKey(); err != nil || !bytes.Equal(a, b) {
		t.Errorf("another ring on the same directory, after a rotation: %x %v, want %x", b, err, a)
	}
	if b, _ := blocklist.EphemeralKeyRing().CursorKey(); len(b) != 32 || bytes.Equal(a, b) {
		t.Errorf("ephemeral cursor key %x", b)
	}
}
