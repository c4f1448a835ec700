package api

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/textcheck"
	"github.com/juizado/juizado/registry"
	"github.com/labstack/echo/v4"
)

// acceptsCSV reports whether an Accept header asks for text/csv (with a
// non-zero quality) ahead of JSON.
func acceptsCSV(accept string) bool {
	best, bestQ := "", -1.0
	for _, part := range strings.Split(accept, ",") {
		fields := strings.Split(part, ";")
		media := strings.ToLower(strings.TrimSpace(fields[0]))
		q := 1.0
		for _, p := range fields[1:] {
			if v, ok := strings.CutPrefix(strings.TrimSpace(p), "q="); ok {
				if f, err := strconv.ParseFloat(v, 64); err == nil {
					q = f
				}
			}
		}
		if (media == "text/csv" || media == "application/json") && q > 0 && q > bestQ {
			best, bestQ = media, q
		}
	}
	return best == "text/csv"
}

// etagMatches implements If-None-Match's weak comparison (RFC 9110 §13.1.2).
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

func blocklistCSV(snap *registry.Snapshot) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	// scope: empty for anywhere, else the entry's scope as JSON
	// ({"venues":[...],"venue_ids":[...],"clubs":[...]}); match_days: empty,
	// or the JSON array of the match days of a term counted in matches.
	_ = w.Write([]string{"cpf", "name", "birth_date", "first_day", "last_day", "ban_id", "group_ban_id", "case_number", "court", "scope", "match_days"})
	for _, e := range snap.Items {
		bd, ld, gb, sc, md := "", "", "", "", ""
		if e.Scope != nil {
			b, err := json.Marshal(e.Scope)
			if err != nil {
				return nil, err
			}
			sc = string(b)
		}
		if e.MatchDays != nil {
			b, err := json.Marshal(e.MatchDays)
			if err != nil {
				return nil, err
			}
			md = string(b)
		}
		if e.BirthDate != nil {
			bd = e.BirthDate.String()
		}
		if e.LastDay != nil {
			ld = e.LastDay.String()
		}
		if e.GroupBanID != nil {
			gb = fmt.Sprint(*e.GroupBanID)
		}
		_ = w.Write([]string{e.CPF, SafeCell(e.Name), bd, e.FirstDay.String(), ld, fmt.Sprint(e.BanID), gb, e.CaseNumber, e.Court, sc, md})
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// SafeCell keeps a CSV cell from running as a spreadsheet formula: a cell
// that begins with =, +, -, @, tab or carriage return is prefixed with an
// apostrophe (OWASP "CSV injection").
func SafeCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// Blocklist bodies are prepared once per version: the JSON and CSV bytes,
// their signatures and (on first demand) their gzip forms. A read serves the
// prepared bytes; the version is looked up in the database at most every
// blocklistFresh, at once after this process made a new version
// (Lists.OnVersion), and the blocklist is refreshed first when the court's
// date changed since the last look.
const blocklistFresh = time.Second

type BlocklistCache struct {
	mu        sync.Mutex // serialises lookups and rebuilds
	state     atomic.Pointer[blocklistState]
	pending   atomic.Int64 // the highest version Refresh made in this process
	pendingAt atomic.Int64 // when (unix ns)
	// downAt is when (unix ns) the database last failed to confirm the
	// version (degraded mode): for a second after, the version in memory
	// answers without trying again.
	downAt atomic.Int64
}

type blocklistState struct {
	p       *preparedList
	day     civil.Date // the court's date when the version was looked up
	checked time.Time  // when (real time)
}

type preparedList struct {
	Version     int64
	GeneratedAt time.Time
	entries     int
	JSON, CSV   *preparedBody
	Checks      checkIndex
}

type preparedBody struct {
	Body        []byte
	ContentType string
	etag        string // strong, per version and representation
	KeyID, Sig  string
	gzOnce      sync.Once
	gz          []byte
}

func (b *preparedBody) gzipped() []byte {
	b.gzOnce.Do(func() { b.gz = gzipBytes(b.Body) })
	return b.gz
}

func gzipBytes(body []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
	_, _ = zw.Write(body)
	_ = zw.Close()
	return buf.Bytes()
}

// noteVersion is Lists.OnVersion: the next read looks the version up.
func (s *API) NoteVersion(v int64) {
	for {
		cur := s.bl.pending.Load()
		if v <= cur || s.bl.pending.CompareAndSwap(cur, v) {
			break
		}
	}
	s.bl.pendingAt.Store(time.Now().UnixNano())
}

// preparedBlocklist returns the prepared bodies of the latest version. With
// the database unreachable (degraded mode, issue 16 item 3) it returns the
// version in memory, if there is one, and stale true; staleVersion then says
// how old it is.
func (s *API) PreparedBlocklist(ctx context.Context) (*preparedList, error) {
	p, _, err := s.preparedBlocklistAge(ctx)
	return p, err
}

// preparedBlocklistAge is preparedBlocklist that also says whether the
// version comes from memory because the database cannot confirm it.
func (s *API) preparedBlocklistAge(ctx context.Context) (*preparedList, bool, error) {
	st := s.bl.state.Load()
	if st != nil && time.Since(time.Unix(0, s.bl.downAt.Load())) < time.Second {
		return st.p, true, nil
	}
	p, err := s.preparedBlocklistDB(ctx)
	if err != nil && st != nil && db.IsUnavailable(err) {
		s.bl.downAt.Store(time.Now().UnixNano())
		return st.p, true, nil
	}
	return p, false, err
}

// staleVersion tells the client how old the version in memory is when the
// database could not confirm it: X-Blocklist-Verified-At (when this server
// last saw it current, RFC 3339) and X-Blocklist-Age (seconds since).
func (s *API) staleVersion(c echo.Context, stale bool) {
	st := s.bl.state.Load()
	if !stale || st == nil {
		return
	}
	h := c.Response().Header()
	h.Set("X-Blocklist-Verified-At", st.checked.UTC().Format(time.RFC3339))
	h.Set("X-Blocklist-Age", strconv.FormatInt(int64(time.Since(st.checked).Seconds()), 10))
	h.Set("X-Blocklist-Degraded", "database-unavailable")
}

// preparedBlocklistDB looks the latest version up in the database.
func (s *API) preparedBlocklistDB(ctx context.Context) (*preparedList, error) {
	today := civil.Today(s.Now(), s.Deps.Loc)
	if st := s.bl.state.Load(); st != nil && s.fresh(st, today) {
		return st.p, nil
	} else if st != nil && st.day == today {
		// Another request is reading or preparing a version (seconds at
		// hundreds of thousands of entries): the gates are answered from
		// the version in hand meanwhile rather than held. The request that
		// prepares sees the new version; on a new day everyone waits, so a
		// ban that starts or ends at midnight is never missed.
		if !s.bl.mu.TryLock() {
			return st.p, nil
		}
	} else {
		s.bl.mu.Lock()
	}
	defer s.bl.mu.Unlock()
	st := s.bl.state.Load()
	if st != nil && s.fresh(st, today) {
		return st.p, nil
	}
	if st == nil || st.day != today {
		// Bans that start or end at midnight: a new version with nobody acting.
		if err := s.Lists.Refresh(ctx); err != nil {
			return nil, err
		}
	}
	v, err := s.Lists.Latest(ctx)
	if err != nil {
		return nil, err
	}
	var p *preparedList
	if st != nil && st.p.Version == v.Version && v.Version != 0 {
		p = st.p
	} else {
		if v.Version == 0 {
			if err := s.Lists.Refresh(ctx); err != nil {
				return nil, err
			}
		}
		snap, err := s.Lists.Read(ctx)
		if err != nil {
			return nil, err
		}
		if p, err = s.prepare(snap); err != nil {
			return nil, err
		}
	}
	s.bl.state.Store(&blocklistState{p: p, day: today, checked: time.Now()})
	return p, nil
}

func (s *API) fresh(st *blocklistState, today civil.Date) bool {
	if st.day != today || time.Since(st.checked) >= blocklistFresh {
		return false
	}
	if pv := s.bl.pending.Load(); pv > st.p.Version && time.Since(time.Unix(0, s.bl.pendingAt.Load())) < 30*time.Second {
		return false
	}
	return true
}

func (s *API) prepare(snap *registry.Snapshot) (*preparedList, error) {
	p := &preparedList{Version: snap.Version, GeneratedAt: snap.GeneratedAt, entries: len(snap.Items)}
	var err error
	if p.Checks, err = newCheckIndex(snap.Items); err != nil {
		return nil, err
	}
	snap.Court = s.Deps.Court
	jb, err := json.Marshal(snap)
	if err != nil {
		return nil, err
	}
	cb, err := blocklistCSV(snap)
	if err != nil {
		return nil, err
	}
	for _, r := range []struct {
		into        **preparedBody
		body        []byte
		format, ctp string
	}{{&p.JSON, jb, "json", echo.MIMEApplicationJSON}, {&p.CSV, cb, "csv", "text/csv; charset=utf-8"}} {
		kid, sig, err := s.Deps.Keys.Sign(r.body)
		if err != nil {
			return nil, err
		}
		*r.into = &preparedBody{Body: r.body, ContentType: r.ctp, etag: fmt.Sprintf(`"blocklist-v%d-%s"`, snap.Version, r.format), KeyID: kid, Sig: sig}
	}
	return p, nil
}

// blocklist: GET /api/v1/blocklist (club): JSON or CSV from the prepared
// body, signed; strong ETag per version and representation (and content
// coding), 304 on a matching If-None-Match; gzip when accepted.
func (s *API) blocklist(c echo.Context) error {
	format := c.QueryParam("format")
	switch format {
	case "":
		format = "json"
		if acceptsCSV(c.Request().Header.Get(echo.HeaderAccept)) {
			format = "csv"
		}
	case "json", "csv":
	default:
		return errs.InvalidField("format", "oneof", "formato deve ser json ou csv.")
	}
	p, stale, err := s.preparedBlocklistAge(c.Request().Context())
	if err != nil {
		return err
	}
	s.staleVersion(c, stale)
	b := p.JSON
	if format == "csv" {
		b = p.CSV
	}
	gz := acceptsGzip(c.Request().Header.Get(echo.HeaderAcceptEncoding))
	etag := b.etag
	if gz {
		etag = strings.TrimSuffix(etag, `"`) + `-gzip"`
	}
	h := c.Response().Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "private, no-cache")
	h.Set("X-Blocklist-Version", strconv.FormatInt(p.Version, 10))
	h.Set("X-Juizado-Key-Id", b.KeyID)
	h.Set("X-Juizado-Signature", b.Sig)
	h.Add("Vary", "Accept, Accept-Encoding")
	inm := c.Request().Header.Get("If-None-Match")
	if inm != "" && (etagMatches(inm, b.etag) || etagMatches(inm, strings.TrimSuffix(b.etag, `"`)+`-gzip"`)) {
		return c.NoContent(http.StatusNotModified)
	}
	if gz {
		h.Set(echo.HeaderContentEncoding, "gzip")
		return c.Blob(http.StatusOK, b.ContentType, b.gzipped())
	}
	return c.Blob(http.StatusOK, b.ContentType, b.Body)
}

// acceptsGzip reports whether an Accept-Encoding header accepts gzip.
func acceptsGzip(ae string) bool {
	for _, part := range strings.Split(ae, ",") {
		fields := strings.Split(part, ";")
		coding := strings.ToLower(strings.TrimSpace(fields[0]))
		if coding != "gzip" && coding != "x-gzip" && coding != "*" {
			continue
		}
		q := 1.0
		for _, p := range fields[1:] {
			if v, ok := strings.CutPrefix(strings.TrimSpace(p), "q="); ok {
				if f, err := strconv.ParseFloat(v, 64); err == nil {
					q = f
				}
			}
		}
		if q > 0 {
			return true
		}
	}
	return false
}

// blocklistChanges: GET /api/v1/blocklist/changes?since=V[&limit=N][&cursor=C]
// (club): a signed page of the change feed.
func (s *API) blocklistChanges(c echo.Context) error {
	ctx := c.Request().Context()
	if !c.QueryParams().Has("since") {
		return errs.InvalidField("since", "required", "informe since: a versão da última lista que o portão aplicou.")
	}
	since, err := registry.ParseVersion("since", c.QueryParam("since"))
	if err != nil {
		return err
	}
	limit := registry.MaxFeedPage
	if l := c.QueryParam("limit"); l != "" {
		n, err := strconv.Atoi(strings.TrimSpace(l))
		if err != nil {
			return errs.InvalidField("limit", "integer", fmt.Sprintf("limit deve ser um número inteiro (de 1 a %d), não %q.", registry.MaxFeedPage, l))
		}
		if n < 1 {
			return errs.InvalidField("limit", "min", fmt.Sprintf("limit deve ser de 1 a %d.", registry.MaxFeedPage))
		}
		limit = min(n, registry.MaxFeedPage)
	}
	var wait time.Duration
	if w := c.QueryParam("wait"); w != "" {
		n, err := strconv.Atoi(strings.TrimSpace(w))
		if err != nil || n < 0 {
			return errs.InvalidField("wait", "integer", fmt.Sprintf("wait deve ser um número inteiro de segundos (de 0 a %d), não %q.", int(MaxFeedWait/time.Second), w))
		}
		wait = min(time.Duration(n)*time.Second, MaxFeedWait)
	}
	if _, err := s.PreparedBlocklist(ctx); err != nil { // refreshes at a new day
		return err
	}
	if wait > 0 && c.QueryParam("cursor") == "" {
		if err := s.awaitVersion(ctx, since, wait); err != nil {
			return err
		}
	}
	page, err := s.Lists.Changes(ctx, since, limit, c.QueryParam("cursor"))
	if err != nil {
		return err
	}
	body, err := json.Marshal(page)
	if err != nil {
		return err
	}
	kid, sig, err := s.Deps.Keys.Sign(body)
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("X-Juizado-Key-Id", kid)
	h.Set("X-Juizado-Signature", sig)
	h.Set("Cache-Control", "private, no-cache")
	h.Add("Vary", "Accept-Encoding")
	if len(body) > 1024 && acceptsGzip(c.Request().Header.Get(echo.HeaderAcceptEncoding)) {
		h.Set(echo.HeaderContentEncoding, "gzip")
		return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, gzipBytes(body))
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, body)
}

// MaxFeedWait caps the long-poll of GET /api/v1/blocklist/changes?wait=.
const MaxFeedWait = 30 * time.Second

// awaitVersion returns as soon as a version after since is committed (read
// every 100 ms from the database, so a commit by another server sharing it
// is seen too), when wait ends, or when the client goes away. A since above
// the current version returns at once (Changes answers 422).
func (s *API) awaitVersion(ctx context.Context, since int64, wait time.Duration) error {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		v, err := s.Lists.Latest(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if v.Version != since {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-deadline.C:
			return nil
		case <-tick.C:
			if st := s.bl.state.Load(); st == nil || civil.Today(s.Now(), s.Deps.Loc) != st.day {
				// A new day: the midnight version is made before the page.
				if _, err := s.PreparedBlocklist(ctx); err != nil {
					return err
				}
			}
		}
	}
}

// blocklistKey: GET /api/v1/blocklist/key (anyone): the public keys that
// verify the blocklist's signatures.
func (s *API) blocklistKey(c echo.Context) error {
	keys, err := s.Deps.Keys.Keys(s.Now())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"keys": keys})
}

// checkAnswer is the answer to a CPF check, with the list version it read.
type CheckAnswer struct {
	CPF     string              `json:"cpf"`
	Blocked bool                `json:"blocked"`
	Bans    []registry.CheckBan `json:"bans"`
	Version int64               `json:"version"`
}

// blocklistCheck: GET /api/v1/blocklist/check/:cpf (club), answered from the
// prepared version in memory; the check is logged off the request path.
func (s *API) blocklistCheck(c echo.Context) error {
	cpf, err := registry.ParseCPFAnySpelling(c.Param("cpf"))
	if err != nil {
		return errs.InvalidField("cpf", "cpf", err.Error())
	}
	p, stale, err := s.preparedBlocklistAge(c.Request().Context())
	if err != nil {
		return err
	}
	s.staleVersion(c, stale)
	bans := p.Checks.bans(cpf.String())
	venueName := strings.TrimSpace(c.QueryParam("venue"))
	u, _ := c.Get(server.UserKey).(authz.User)
	if bans != nil && (bytes.Contains(bans, []byte(`"scope":`)) || bytes.Contains(bans, []byte(`"match_days":`))) {
		// A scoped or match-counted ban: answer for the gate's venue
		// (?venue=, else the home venues of the club's account).
		if bans, err = s.scopedCheck(c.Request().Context(), bans, venueName, u); err != nil {
			return err
		}
	} else if venueName != "" {
		if _, err := s.checkVenue(c.Request().Context(), venueName); err != nil {
			return err
		}
	}
	if u.ID != 0 && s.checkLog != nil {
		club := ""
		if u.Club != nil {
			club = *u.Club
		}
		s.checkLog.Log(registry.CheckRecord{UserID: u.ID, Club: club, CPF: cpf.String(), CheckedAt: s.Now(), Version: p.Version})
	}
	return c.JSONBlob(http.StatusOK, appendCheckAnswer(make([]byte, 0, 64+len(bans)), cpf.String(), bans, p.Version))
}

// blocklistChecksUpload: POST /api/v1/blocklist/checks (club): a gate
// agent's batch of check records, stored once per batch_id (201 {batch_id,
// stored}; a batch already stored answers 200 {batch_id, stored: 0,
// duplicate: true}); a bad record is 422 naming it and nothing is stored.
func (s *API) blocklistChecksUpload(c echo.Context) error {
	var in registry.CheckBatch
	if err := server.BindJSON(c, &in); err != nil {
		return err
	}
	u, _ := c.Get(server.UserKey).(authz.User)
	club := ""
	if u.Club != nil {
		club = *u.Club
	}
	n, dup, err := s.Lists.StoreCheckBatch(c.Request().Context(), u.ID, club, in)
	if err != nil {
		return err
	}
	out := map[string]any{"batch_id": strings.TrimSpace(in.BatchID), "stored": n, "duplicate": dup}
	if dup {
		return c.JSON(http.StatusOK, out)
	}
	return c.JSON(http.StatusCreated, out)
}

// checkVenue resolves ?venue= of a check against the venue table (name,
// case and accents ignored, or the popular name in parentheses, as
// cases.FindVenue): 422 on venue when unknown.
func (s *API) checkVenue(ctx context.Context, name string) (int64, error) {
	if rule, msg := textcheck.Problem(name, 300, false); rule != "" {
		return 0, errs.InvalidField("venue", rule, "venue (nome do local): "+msg)
	}
	v, err := cases.FindVenue(ctx, s.Deps.DB, name)
	if err != nil {
		return 0, err
	}
	if v == nil {
		return 0, errs.InvalidField("venue", "known_venue", fmt.Sprintf("local desconhecido %q: não consta da tabela de locais do juizado.", name))
	}
	return v.ID, nil
}

// scopedCheck narrows a CPF's bans (the JSON array of the check index) to
// those that apply at the gate's venue today (registry.Lists.Applicable):
// the venue named, else the home venues of the caller's club in the
// imported schedules. It returns nil when none applies.
func (s *API) scopedCheck(ctx context.Context, raw []byte, venueName string, u authz.User) ([]byte, error) {
	var venues []int64
	if venueName != "" {
		id, err := s.checkVenue(ctx, venueName)
		if err != nil {
			return nil, err
		}
		venues = []int64{id}
	} else if u.Club != nil && *u.Club != "" {
		ids, err := s.Lists.ClubVenues(ctx, *u.Club)
		if err != nil {
			return nil, err
		}
		venues = ids
	}
	var all []registry.CheckBan
	if err := json.Unmarshal(raw, &all); err != nil {
		return nil, err
	}
	bans, err := s.Lists.Applicable(ctx, all, venues)
	if err != nil || len(bans) == 0 {
		return nil, err
	}
	return json.Marshal(bans)
}

// checkIndex answers CPF checks from memory with nothing for the garbage
// collector to scan: the CPF (11 digits, as an integer) maps to where its
// bans, encoded as the check's JSON array once per version, sit in one byte
// arena. A map of strings to slices held two pointers per CPF, and at
// 1,000,000 entries marking them cost the check a tenth of its rate.
type checkIndex struct {
	pos   map[uint64]uint64 // CPF → offset<<24 | length in arena
	arena []byte
}

// newCheckIndex indexes the snapshot's entries by CPF (a CPF with two bans
// in force has both in its array, in the snapshot's order).
func newCheckIndex(items []registry.Entry) (checkIndex, error) {
	byCPF := make(map[string][]registry.CheckBan, len(items))
	order := make([]string, 0, len(items))
	for _, e := range items {
		if _, seen := byCPF[e.CPF]; !seen {
			order = append(order, e.CPF)
		}
		byCPF[e.CPF] = append(byCPF[e.CPF], registry.CheckBan{BanID: e.BanID, FirstDay: e.FirstDay, LastDay: e.LastDay, CaseNumber: e.CaseNumber, Court: e.Court,
			Scope: e.Scope, MatchDays: e.MatchDays})
	}
	x := checkIndex{pos: make(map[uint64]uint64, len(order))}
	for _, cpf := range order {
		b, err := json.Marshal(byCPF[cpf])
		if err != nil {
			return x, err
		}
		x.pos[cpfKey(cpf)] = uint64(len(x.arena))<<24 | uint64(len(b))
		x.arena = append(x.arena, b...)
	}
	return x, nil
}

// cpfKey is an 11-digit CPF as an integer.
func cpfKey(cpf string) uint64 {
	n, _ := strconv.ParseUint(cpf, 10, 64)
	return n
}

// bans returns the JSON array of cpf's bans in force, nil when none.
func (x checkIndex) bans(cpf string) []byte {
	p, ok := x.pos[cpfKey(cpf)]
	if !ok {
		return nil
	}
	off, n := p>>24, p&(1<<24-1)
	return x.arena[off : off+n : off+n]
}

// cpfs is the number of CPFs blocked.
func (x checkIndex) CPFs() int { return len(x.pos) }

// decoded returns cpf's bans in force (for the club's page).
func (x checkIndex) Decoded(cpf string) ([]registry.CheckBan, error) {
	var bans []registry.CheckBan
	if b := x.bans(cpf); b != nil {
		if err := json.Unmarshal(b, &bans); err != nil {
			return nil, err
		}
	}
	return bans, nil
}

// appendCheckAnswer appends the JSON of a checkAnswer (same fields, same
// order) built from the bans already encoded with the version, so that a
// gate's check encodes nothing per request. bans is nil when not blocked.
func appendCheckAnswer(b []byte, cpf string, bans []byte, version int64) []byte {
	b = append(b, `{"cpf":"`...)
	b = append(b, cpf...) // 11 digits: nothing to escape
	b = append(b, `","blocked":`...)
	b = strconv.AppendBool(b, bans != nil)
	b = append(b, `,"bans":`...)
	if bans == nil {
		b = append(b, `[]`...)
	} else {
		b = append(b, bans...)
	}
	b = append(b, `,"version":`...)
	b = strconv.AppendInt(b, version, 10)
	return append(b, '}', '\n')
}

// awaitingIdentification: GET /api/v1/blocklist/awaiting-identification
// (clerk, judge): bans in force of persons without a CPF, of the user's court.
func (s *API) awaitingIdentification(c echo.Context) error {
	items, err := s.Lists.AwaitingIdentification(c.Request().Context(), server.Actor(c).Court)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"items": items})
}

// RunBlocklistTicker refreshes the blocklist every interval until ctx ends,
// so that a ban starting or ending at midnight (America/Sao_Paulo) makes a
// new version within a minute with nobody acting, and prepares its bodies.
func (s *API) RunBlocklistTicker(ctx context.Context, interval time.Duration) {
	var lastPrune time.Time
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := s.Lists.Refresh(ctx); err != nil {
				if ctx.Err() == nil {
					s.Deps.Logger.Error("blocklist refresh", "err", err.Error())
				}
				continue
			}
			if _, err := s.PreparedBlocklist(ctx); err != nil && ctx.Err() == nil {
				s.Deps.Logger.Error("blocklist prepare", "err", err.Error())
			}
			if now := s.Now(); now.Sub(lastPrune) > time.Hour {
				lastPrune = now
				if err := s.Lists.PruneFeedOlderThan(ctx, now.Add(-registry.FeedRetention)); err != nil && ctx.Err() == nil {
					s.Deps.Logger.Error("blocklist feed prune", "err", err.Error())
				}
			}
		}
	}
}

// Close writes the CPF checks still queued.
func (s *API) Close() {
	if s.checkLog != nil {
		s.checkLog.Close()
	}
}
