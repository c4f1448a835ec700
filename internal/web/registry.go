package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"github.com/juizado/juizado/internal/authz"
	"html/template"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/textcheck"
	"github.com/juizado/juizado/registry"
	"github.com/labstack/echo/v4"
)

func (s *Server) registryRoutes(api *echo.Group) {
	api.GET("/public/banned", s.publicBanned)
	api.GET("/blocklist", s.blocklist)
	api.GET("/blocklist/changes", s.blocklistChanges)
	api.GET("/blocklist/key", s.blocklistKey)
	api.GET("/blocklist/check/:cpf", s.blocklistCheck)
	api.POST("/blocklist/checks", s.blocklistChecksUpload)
	api.GET("/blocklist/awaiting-identification", s.awaitingIdentification)
}

func parsePages(fsys fs.FS) (map[string]*template.Template, error) {
	pages := map[string]*template.Template{}
	if fsys == nil {
		return pages, nil
	}
	for _, name := range []string{"impedidos"} {
		t, err := template.ParseFS(fsys, "html/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("web: template %s: %w", name, err)
		}
		pages[name] = t
	}
	return pages, nil
}

// render executes a page into a buffer first, so a failing template never
// sends half a page.
func (s *Server) render(c echo.Context, status int, name string, data any) error {
	t, ok := s.pages[name]
	if !ok {
		return fmt.Errorf("web: no page %q", name)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return err
	}
	return c.HTMLBlob(status, buf.Bytes())
}

// publicBanned: GET /api/v1/public/banned (anyone).
func (s *Server) publicBanned(c echo.Context) error {
	f, err := publicFilter(c)
	if err != nil {
		return err
	}
	l, err := s.publicListFor(c.Request().Context(), f)
	if err != nil {
		return err
	}
	return c.JSONBlob(http.StatusOK, l.body)
}

// publicPageSize is the number of names on one page of /impedidos.
const publicPageSize = 200

// publicPage: GET /impedidos, the public list for people (pt-BR).
func (s *Server) publicPage(c echo.Context) error {
	data := map[string]any{"Today": civil.Today(s.now(), s.deps.Loc).BR(),
		"Court": c.QueryParam("court"), "Club": c.QueryParam("club")}
	f, err := publicFilter(c)
	if err != nil { // the form again, the error next to the filter
		data["Error"] = err.(*errs.Error).Fields[0].Message
		return s.render(c, http.StatusUnprocessableEntity, "impedidos", data)
	}
	l, err := s.publicListFor(c.Request().Context(), f)
	if err != nil {
		return err
	}
	pages := max((len(l.items)+publicPageSize-1)/publicPageSize, 1)
	page := 1
	if v := strings.TrimSpace(c.QueryParam("pagina")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > pages {
			data["PageError"] = fmt.Sprintf("A página deve ser um número de 1 a %d.", pages)
			return s.render(c, http.StatusUnprocessableEntity, "impedidos", data)
		}
		page = n
	}
	from := (page - 1) * publicPageSize
	data["Items"] = l.items[from:min(from+publicPageSize, len(l.items))]
	data["Total"], data["Page"], data["Pages"] = len(l.items), page, pages
	if page > 1 {
		data["Prev"] = page - 1
	}
	if page < pages {
		data["Next"] = page + 1
	}
	return s.render(c, http.StatusOK, "impedidos", data)
}

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

// publicFilter reads ?court=TR.OOOO and ?club=NAME of the public list.
func publicFilter(c echo.Context) (registry.PublicFilter, error) {
	f := registry.PublicFilter{Court: strings.TrimSpace(c.QueryParam("court")), Club: strings.TrimSpace(c.QueryParam("club"))}
	if f.Court != "" && !registry.ValidCourt(f.Court) {
		return f, errs.InvalidField("court", "court", "court deve ser um código TR.OOOO (por exemplo 26.0100).")
	}
	if rule, msg := textcheck.Problem(f.Club, 200, false); rule != "" {
		return f, errs.InvalidField("club", rule, "club (nome do clube mandante): "+msg)
	}
	return f, nil
}

// Blocklist bodies are prepared once per version: the JSON and CSV bytes,
// their signatures and (on first demand) their gzip forms. A read serves the
// prepared bytes; the version is looked up in the database at most every
// blocklistFresh, at once after this process made a new version
// (Lists.OnVersion), and the blocklist is refreshed first when the court's
// date changed since the last look. The JSON body also carries the
// upcoming entries as of the court's date (registry.Snapshot.Upcoming),
// which move with the date and with sentences of bans that start later,
// with no new version: they are read again at each look, and when they or
// the date changed the JSON body is rebuilt (the items' bytes reused, the
// whole signed again) under a new ETag; the CSV (items only) and the
// check index stay those of the version.
const blocklistFresh = time.Second

type blocklistCache struct {
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
	version     int64
	generatedAt time.Time
	entries     int
	json, csv   *preparedBody
	checks      checkIndex
	// day is the court's date the JSON body's upcoming entries count from
	// (its as_of), upJSON those entries as JSON.
	day    civil.Date
	upJSON []byte
}

type preparedBody struct {
	body        []byte
	contentType string
	etag        string // strong, per version and representation (JSON: and day and upcoming set)
	keyID, sig  string
	gzOnce      sync.Once
	gz          []byte
	// itemsEnd, in the JSON body, is where the tail after the items
	// begins (`,"upcoming":[...],"as_of":"..."}`, snapshotTail).
	itemsEnd int
}

func (b *preparedBody) gzipped() []byte {
	b.gzOnce.Do(func() { b.gz = gzipBytes(b.body) })
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
func (s *Server) noteVersion(v int64) {
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
func (s *Server) preparedBlocklist(ctx context.Context) (*preparedList, error) {
	p, _, err := s.preparedBlocklistAge(ctx)
	return p, err
}

// preparedBlocklistAge is preparedBlocklist that also says whether the
// version comes from memory because the database cannot confirm it.
func (s *Server) preparedBlocklistAge(ctx context.Context) (*preparedList, bool, error) {
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
func (s *Server) staleVersion(c echo.Context, stale bool) {
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
func (s *Server) preparedBlocklistDB(ctx context.Context) (*preparedList, error) {
	today := civil.Today(s.now(), s.deps.Loc)
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
		if err := s.lists.Refresh(ctx); err != nil {
			return nil, err
		}
	}
	v, err := s.lists.Latest(ctx)
	if err != nil {
		return nil, err
	}
	var p *preparedList
	if st != nil && st.p.version == v.Version && v.Version != 0 {
		p = st.p
		up, err := s.lists.Upcoming(ctx, today)
		if err != nil {
			return nil, err
		}
		if p, err = s.withUpcoming(p, up, today); err != nil {
			return nil, err
		}
	} else {
		if v.Version == 0 {
			if err := s.lists.Refresh(ctx); err != nil {
				return nil, err
			}
		}
		snap, err := s.lists.Read(ctx)
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

func (s *Server) fresh(st *blocklistState, today civil.Date) bool {
	if st.day != today || time.Since(st.checked) >= blocklistFresh {
		return false
	}
	if pv := s.bl.pending.Load(); pv > st.p.version && time.Since(time.Unix(0, s.bl.pendingAt.Load())) < 30*time.Second {
		return false
	}
	return true
}

func (s *Server) prepare(snap *registry.Snapshot) (*preparedList, error) {
	p := &preparedList{version: snap.Version, generatedAt: snap.GeneratedAt, entries: len(snap.Items), day: snap.AsOf}
	var err error
	if p.checks, err = newCheckIndex(snap.Items); err != nil {
		return nil, err
	}
	snap.Court = s.deps.Court
	if snap.Upcoming == nil {
		snap.Upcoming = []registry.Entry{}
	}
	jb, err := json.Marshal(snap)
	if err != nil {
		return nil, err
	}
	itemsEnd := bytes.LastIndex(jb, []byte(`,"upcoming":`))
	if p.upJSON, err = json.Marshal(snap.Upcoming); err != nil {
		return nil, err
	}
	if itemsEnd < 0 {
		return nil, fmt.Errorf("web: blocklist body without upcoming")
	}
	jb = append(jb[:itemsEnd], snapshotTail(p.upJSON, p.day)...)
	cb, err := blocklistCSV(snap)
	if err != nil {
		return nil, err
	}
	for _, r := range []struct {
		into        **preparedBody
		body        []byte
		format, ctp string
	}{{&p.json, jb, "json", echo.MIMEApplicationJSON}, {&p.csv, cb, "csv", "text/csv; charset=utf-8"}} {
		kid, sig, err := s.deps.Keys.Sign(r.body)
		if err != nil {
			return nil, err
		}
		etag := fmt.Sprintf(`"blocklist-v%d-%s"`, snap.Version, r.format)
		if r.format == "json" {
			etag = jsonETag(snap.Version, p.day, p.upJSON)
		}
		*r.into = &preparedBody{body: r.body, contentType: r.ctp, etag: etag, keyID: kid, sig: sig, itemsEnd: itemsEnd}
	}
	return p, nil
}

// snapshotTail is the end of the JSON snapshot after its items: the
// upcoming entries (up, a JSON array) and the date they count from, as
// json.Marshal writes registry.Snapshot's last two fields.
func snapshotTail(up []byte, day civil.Date) []byte {
	b := make([]byte, 0, len(up)+40)
	b = append(b, `,"upcoming":`...)
	b = append(b, up...)
	b = append(b, `,"as_of":"`...)
	b = append(b, day.String()...)
	return append(b, `"}`...)
}

// jsonETag is the strong ETag of the JSON snapshot: its version, the
// court's date and a digest of the upcoming set, which change the body with
// no new version ("blocklist-v12-20261201-1a2b3c4d-json").
func jsonETag(version int64, day civil.Date, up []byte) string {
	h := sha256.Sum256(up)
	return fmt.Sprintf(`"blocklist-v%d-%04d%02d%02d-%x-json"`, version, day.Year, int(day.Month), day.Day, h[:4])
}

// withUpcoming returns p with its JSON body rebuilt for the upcoming
// entries up as of day (the items' bytes kept, the body signed again), or
// p itself when neither changed.
func (s *Server) withUpcoming(p *preparedList, up []registry.Entry, day civil.Date) (*preparedList, error) {
	if up == nil {
		up = []registry.Entry{}
	}
	upJSON, err := json.Marshal(up)
	if err != nil {
		return nil, err
	}
	if p.day == day && bytes.Equal(upJSON, p.upJSON) {
		return p, nil
	}
	old := p.json
	tail := snapshotTail(upJSON, day)
	body := make([]byte, 0, old.itemsEnd+len(tail))
	body = append(append(body, old.body[:old.itemsEnd]...), tail...)
	kid, sig, err := s.deps.Keys.Sign(body)
	if err != nil {
		return nil, err
	}
	n := *p
	n.day, n.upJSON = day, upJSON
	n.json = &preparedBody{body: body, contentType: old.contentType, etag: jsonETag(p.version, day, upJSON), keyID: kid, sig: sig, itemsEnd: old.itemsEnd}
	return &n, nil
}

// blocklist: GET /api/v1/blocklist (club): JSON or CSV from the prepared
// body, signed; strong ETag per version and representation (and content
// coding), 304 on a matching If-None-Match; gzip when accepted.
func (s *Server) blocklist(c echo.Context) error {
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
	b := p.json
	if format == "csv" {
		b = p.csv
	}
	gz := acceptsGzip(c.Request().Header.Get(echo.HeaderAcceptEncoding))
	etag := b.etag
	if gz {
		etag = strings.TrimSuffix(etag, `"`) + `-gzip"`
	}
	h := c.Response().Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "private, no-cache")
	h.Set("X-Blocklist-Version", strconv.FormatInt(p.version, 10))
	h.Set("X-Juizado-Key-Id", b.keyID)
	h.Set("X-Juizado-Signature", b.sig)
	h.Add("Vary", "Accept, Accept-Encoding")
	inm := c.Request().Header.Get("If-None-Match")
	if inm != "" && (etagMatches(inm, b.etag) || etagMatches(inm, strings.TrimSuffix(b.etag, `"`)+`-gzip"`)) {
		return c.NoContent(http.StatusNotModified)
	}
	if gz {
		h.Set(echo.HeaderContentEncoding, "gzip")
		return c.Blob(http.StatusOK, b.contentType, b.gzipped())
	}
	return c.Blob(http.StatusOK, b.contentType, b.body)
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
func (s *Server) blocklistChanges(c echo.Context) error {
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
	if _, err := s.preparedBlocklist(ctx); err != nil { // refreshes at a new day
		return err
	}
	if wait > 0 && c.QueryParam("cursor") == "" {
		if err := s.awaitVersion(ctx, since, wait); err != nil {
			return err
		}
	}
	page, err := s.lists.Changes(ctx, since, limit, c.QueryParam("cursor"))
	if err != nil {
		return err
	}
	body, err := json.Marshal(page)
	if err != nil {
		return err
	}
	kid, sig, err := s.deps.Keys.Sign(body)
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
func (s *Server) awaitVersion(ctx context.Context, since int64, wait time.Duration) error {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		v, err := s.lists.Latest(ctx)
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
			if st := s.bl.state.Load(); st == nil || civil.Today(s.now(), s.deps.Loc) != st.day {
				// A new day: the midnight version is made before the page.
				if _, err := s.preparedBlocklist(ctx); err != nil {
					return err
				}
			}
		}
	}
}

// blocklistKey: GET /api/v1/blocklist/key (anyone): the public keys that
// verify the blocklist's signatures.
func (s *Server) blocklistKey(c echo.Context) error {
	keys, err := s.deps.Keys.Keys(s.now())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"keys": keys})
}

// checkAnswer is the answer to a CPF check, with the list version it read.
type checkAnswer struct {
	CPF     string              `json:"cpf"`
	Blocked bool                `json:"blocked"`
	Bans    []registry.CheckBan `json:"bans"`
	Version int64               `json:"version"`
}

// blocklistCheck: GET /api/v1/blocklist/check/:cpf (club), answered from the
// prepared version in memory; the check is logged off the request path.
func (s *Server) blocklistCheck(c echo.Context) error {
	cpf, err := registry.ParseCPFAnySpelling(c.Param("cpf"))
	if err != nil {
		return errs.InvalidField("cpf", "cpf", err.Error())
	}
	p, stale, err := s.preparedBlocklistAge(c.Request().Context())
	if err != nil {
		return err
	}
	s.staleVersion(c, stale)
	bans := p.checks.bans(cpf.String())
	venueName := strings.TrimSpace(c.QueryParam("venue"))
	u, _ := c.Get(userKey).(authz.User)
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
		s.checkLog.Log(registry.CheckRecord{UserID: u.ID, Club: club, CPF: cpf.String(), CheckedAt: s.now(), Version: p.version})
	}
	return c.JSONBlob(http.StatusOK, appendCheckAnswer(make([]byte, 0, 64+len(bans)), cpf.String(), bans, p.version))
}

// blocklistChecksUpload: POST /api/v1/blocklist/checks (club): a gate
// agent's batch of check records, stored once per batch_id (201 {batch_id,
// stored}; a batch already stored answers 200 {batch_id, stored: 0,
// duplicate: true}); a bad record is 422 naming it and nothing is stored.
func (s *Server) blocklistChecksUpload(c echo.Context) error {
	var in registry.CheckBatch
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	u, _ := c.Get(userKey).(authz.User)
	club := ""
	if u.Club != nil {
		club = *u.Club
	}
	n, dup, err := s.lists.StoreCheckBatch(c.Request().Context(), u.ID, club, in)
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
func (s *Server) checkVenue(ctx context.Context, name string) (int64, error) {
	if rule, msg := textcheck.Problem(name, 300, false); rule != "" {
		return 0, errs.InvalidField("venue", rule, "venue (nome do local): "+msg)
	}
	v, err := cases.FindVenue(ctx, s.deps.DB, name)
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
func (s *Server) scopedCheck(ctx context.Context, raw []byte, venueName string, u authz.User) ([]byte, error) {
	var venues []int64
	if venueName != "" {
		id, err := s.checkVenue(ctx, venueName)
		if err != nil {
			return nil, err
		}
		venues = []int64{id}
	} else if u.Club != nil && *u.Club != "" {
		ids, err := s.lists.ClubVenues(ctx, *u.Club)
		if err != nil {
			return nil, err
		}
		venues = ids
	}
	var all []registry.CheckBan
	if err := json.Unmarshal(raw, &all); err != nil {
		return nil, err
	}
	bans, err := s.lists.Applicable(ctx, all, venues)
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
func (x checkIndex) cpfs() int { return len(x.pos) }

// decoded returns cpf's bans in force (for the club's page).
func (x checkIndex) decoded(cpf string) ([]registry.CheckBan, error) {
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
func (s *Server) awaitingIdentification(c echo.Context) error {
	items, err := s.lists.AwaitingIdentification(c.Request().Context(), actor(c).Court)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"items": items})
}

// RunBlocklistTicker refreshes the blocklist every interval until ctx ends,
// so that a ban starting or ending at midnight (America/Sao_Paulo) makes a
// new version within a minute with nobody acting, and prepares its bodies.
func (s *Server) RunBlocklistTicker(ctx context.Context, interval time.Duration) {
	var lastPrune time.Time
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := s.lists.Refresh(ctx); err != nil {
				if ctx.Err() == nil {
					s.deps.Logger.Error("blocklist refresh", "err", err.Error())
				}
				continue
			}
			if _, err := s.preparedBlocklist(ctx); err != nil && ctx.Err() == nil {
				s.deps.Logger.Error("blocklist prepare", "err", err.Error())
			}
			if now := s.now(); now.Sub(lastPrune) > time.Hour {
				lastPrune = now
				if err := s.lists.PruneFeedOlderThan(ctx, now.Add(-registry.FeedRetention)); err != nil && ctx.Err() == nil {
					s.deps.Logger.Error("blocklist feed prune", "err", err.Error())
				}
			}
		}
	}
}

// Close writes the CPF checks still queued.
func (s *Server) Close() {
	if s.checkLog != nil {
		s.checkLog.Close()
	}
}

// Lists returns the server's public list and blocklist service.
func (s *Server) Lists() *registry.Lists { return s.lists }

// RefreshBlocklist makes a new blocklist version now if the bans in force
// changed (the ticker does it every minute).
func (s *Server) RefreshBlocklist(ctx context.Context) error { return s.lists.Refresh(ctx) }
