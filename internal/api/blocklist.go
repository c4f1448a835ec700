package api

import (
	"bytes"
	"fmt"
	"math"
	"net/http"
	"net/textproto"
	"strconv"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/textcheck"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/registry/blocklist"
	"github.com/juizado/juizado/registry/blocklist/wire"
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

// staleVersion tells the client how old the version in memory is when the
// database could not confirm it: X-Blocklist-Verified-At (when this server
// last saw it current, RFC 3339) and X-Blocklist-Age (seconds since).
func staleVersion(c echo.Context, p *blocklist.Publisher, stale bool) {
	at, ok := p.VerifiedAt()
	if !stale || !ok {
		return
	}
	h := c.Response().Header()
	h.Set("X-Blocklist-Verified-At", at.UTC().Format(time.RFC3339))
	h.Set("X-Blocklist-Age", strconv.FormatInt(int64(time.Since(at).Seconds()), 10))
	h.Set("X-Blocklist-Degraded", "database-unavailable")
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
	p, stale, err := s.Blocklist.PreparedAge(c.Request().Context())
	if err != nil {
		return err
	}
	staleVersion(c, s.Blocklist, stale)
	b := p.JSON
	if format == "csv" {
		b = p.CSV
	}
	gz := acceptsGzip(c.Request().Header.Get(echo.HeaderAcceptEncoding))
	etag := b.ETag
	if gz {
		etag = strings.TrimSuffix(etag, `"`) + `-gzip"`
	}
	h := c.Response().Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "private, no-cache")
	h.Set("X-Blocklist-Version", strconv.FormatInt(p.Version, 10))
	h.Set(wire.HeaderKeyID, b.KeyID)
	h.Set(wire.HeaderSignature, b.Sig)
	h.Add("Vary", "Accept, Accept-Encoding")
	inm := c.Request().Header.Get("If-None-Match")
	if inm != "" && (etagMatches(inm, b.ETag) || etagMatches(inm, strings.TrimSuffix(b.ETag, `"`)+`-gzip"`)) {
		return c.NoContent(http.StatusNotModified)
	}
	if gz {
		h.Set(echo.HeaderContentEncoding, "gzip")
		return c.Blob(http.StatusOK, b.ContentType, b.Gzipped())
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

// capped reads the feed's optional integer parameter name (def when
// absent) from lo up, a value above hi cut to hi, as the feed has always
// done (API.md: limit "default and maximum 1000"; wait at most
// MaxFeedWait): below lo, or no integer, is a field error added to f
// ("range" or "integer", server.IntParam's rules), its message giving lo,
// hi and unit.
func capped(c echo.Context, f *errs.Fields, name string, lo, hi, def int64, unit string) int64 {
	raw := c.QueryParam(name)
	if raw == "" {
		return def
	}
	n, fe := server.IntParam(name, raw, lo, math.MaxInt64)
	if fe != nil {
		fe.Message = fmt.Sprintf("%s deve ser um número inteiro de %s, de %d em diante (acima de %d vale %d).", name, unit, lo, hi, hi)
		*f = append(*f, *fe)
		return def
	}
	return min(n, hi)
}

// blocklistChanges: GET /api/v1/blocklist/changes?since=V[&limit=N][&cursor=C][&wait=S][&nonce=X][&places=D]
// (club): a signed page of the change feed, read from the feed table
// (blocklist.Lists.Changes), with the court's time and the nonce echoed
// in the signed body (a nonce above wire.MaxNonce characters, or with a
// control or invisible character, is 422 on nonce); the snapshot's
// prepared bodies are not needed, nor made, here
// (blocklist.Publisher.FeedDay). The head page carries the places'
// digest, and the places unless places= names that digest (the agent
// holds them; issue 32, item 2). ../shared/API.md "Gate agent".
func (s *API) blocklistChanges(c echo.Context) error {
	ctx := c.Request().Context()
	if !c.QueryParams().Has("since") {
		return errs.InvalidField("since", "required", "informe since: a versão da última lista que o portão aplicou.")
	}
	var f errs.Fields
	since, fe := server.IntParam("since", c.QueryParam("since"), 0, server.MaxID)
	if fe != nil {
		f = append(f, *fe)
	}
	limit := int(capped(c, &f, "limit", 1, blocklist.MaxFeedPage, blocklist.MaxFeedPage, "mudanças"))
	wait := time.Duration(capped(c, &f, "wait", 0, int64(MaxFeedWait/time.Second), 0, "segundos")) * time.Second
	nonce := c.QueryParam("nonce")
	if rule, msg := textcheck.Problem(nonce, wire.MaxNonce, false); rule != "" {
		f.Add("nonce", rule, "nonce (eco assinado na página): "+msg)
	}
	if err := f.Err(); err != nil {
		return err
	}
	if err := s.Blocklist.FeedDay(ctx); err != nil { // a version for midnight's starts and ends
		return err
	}
	if wait > 0 && c.QueryParam("cursor") == "" {
		if err := s.Blocklist.AwaitVersion(ctx, since, wait); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err // the client went away during the wait: 499, no page read
		}
	}
	page, err := s.Blocklist.SignedChanges(ctx, since, limit, c.QueryParam("cursor"), nonce, c.QueryParam("places"))
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set(wire.HeaderKeyID, page.KeyID)
	h.Set(wire.HeaderSignature, page.Sig)
	h.Set("Cache-Control", "private, no-cache")
	h.Add("Vary", "Accept-Encoding")
	if len(page.Body) > 1024 && acceptsGzip(c.Request().Header.Get(echo.HeaderAcceptEncoding)) {
		h.Set(echo.HeaderContentEncoding, "gzip")
		return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, page.Gzipped())
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, page.Body)
}

// MaxFeedWait caps the long-poll of GET /api/v1/blocklist/changes?wait=.
const MaxFeedWait = 30 * time.Second

// blocklistKey: GET /api/v1/blocklist/key (anyone): the public keys that
// verify the blocklist's signatures, the list signed like the snapshot
// (X-Juizado-Key-Id, X-Juizado-Signature; blocklist.Publisher.SignedKeys).
func (s *API) blocklistKey(c echo.Context) error {
	b, err := s.Blocklist.SignedKeys()
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set(wire.HeaderKeyID, b.KeyID)
	h.Set(wire.HeaderSignature, b.Sig)
	h.Set("Cache-Control", "no-cache")
	return c.Blob(http.StatusOK, b.ContentType, b.Body)
}

// blocklistCheck: GET /api/v1/blocklist/check/:cpf (club), answered from the
// prepared version in memory; the check is logged off the request path.
func (s *API) blocklistCheck(c echo.Context) error {
	cpf, err := registry.ParseCPFAnySpelling(c.Param("cpf"))
	if err != nil {
		return errs.InvalidField("cpf", "cpf", err.Error())
	}
	p, stale, err := s.Blocklist.PreparedAge(c.Request().Context())
	if err != nil {
		return err
	}
	staleVersion(c, s.Blocklist, stale)
	bans := p.Checks.Bans(cpf.String())
	venueName := ""
	if c.Request().URL.RawQuery != "" { // QueryParam parses the query into a map
		venueName = strings.TrimSpace(c.QueryParam("venue"))
	}
	u, _ := c.Get(server.UserKey).(accounts.User)
	if bans != nil && (bytes.Contains(bans, []byte(`"scope":`)) || bytes.Contains(bans, []byte(`"match_days":`))) {
		// A scoped or match-counted ban: answer for the gate's venue
		// (?venue=, else the home venues of the club's account).
		if bans, err = s.scopedCheck(p, bans, venueName, u); err != nil {
			return err
		}
	} else if venueName != "" {
		if _, err := checkVenue(p, venueName); err != nil {
			return err
		}
	}
	if u.ID != 0 {
		club := ""
		if u.Club != nil {
			club = *u.Club
		}
		s.Blocklist.LogCheck(blocklist.CheckRecord{UserID: u.ID, Club: club, CPF: cpf.String(), CheckedAt: s.Now(), Version: p.Version})
	}
	c.Response().Header()[headerContentType] = valueJSON // JSONBlob's Header.Set would allocate the value
	return c.JSONBlob(http.StatusOK, appendCheckAnswer(make([]byte, 0, 64+len(bans)), cpf.String(), bans, p.Version))
}

// The check's Content-Type as net/http keys it, with its value made once
// (full slice: an Add copies rather than writes into it).
var (
	headerContentType = textproto.CanonicalMIMEHeaderKey(echo.HeaderContentType)
	valueJSON         = []string{echo.MIMEApplicationJSON}[:1:1]
)

// blocklistChecksUpload: POST /api/v1/blocklist/checks (club): a gate
// agent's batch of check records, stored once per (club account, batch_id)
// (201 {batch_id, stored}; the same records again answer 200 {batch_id,
// stored: 0, duplicate: true}; other records under a batch_id the account
// used are 409 naming batch_id). A batch that is not made of real checks is
// 422 problem+json naming every bad field (blocklist.Lists.StoreCheckBatch:
// batch_id and device by textcheck, records required and at most
// blocklist.MaxCheckBatch, and in records[i] the cpf, checked_at from
// 2023-06-14T00:00:00-03:00 to 5 minutes ahead, version required from 0 to
// the latest blocklist version, blocked required); nothing is stored on
// 409 or 422.
func (s *API) blocklistChecksUpload(c echo.Context) error {
	var in blocklist.CheckBatch
	if err := server.BindJSON(c, &in); err != nil {
		return err
	}
	u, _ := c.Get(server.UserKey).(accounts.User)
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

// checkVenue resolves ?venue= of a check against the venue table of the
// version served (blocklist.Prepared.Venues: name, case and accents
// ignored, or the popular name in parentheses, as cases.FindVenue), from
// memory: 422 on venue when unknown.
func checkVenue(p *blocklist.Prepared, name string) (int64, error) {
	if p.Venues.Known(name) { // found before: a name already checked
		return p.Venues.VenueNamed(name).ID, nil
	}
	if rule, msg := textcheck.Problem(name, 300, false); rule != "" {
		return 0, errs.InvalidField("venue", rule, "venue (nome do local): "+msg)
	}
	v := p.Venues.VenueNamed(name)
	if v == nil {
		return 0, errs.InvalidField("venue", "known_venue", fmt.Sprintf("local desconhecido %q: não consta da tabela de locais do juizado.", name))
	}
	return v.ID, nil
}

// scopedCheck narrows a CPF's bans (the JSON array of the check index) to
// those that apply at the gate's venue today (blocklist.ApplicableOn):
// the venue named, else the home venues of the caller's club in the
// imported schedules, all read from the version served, so that it
// answers with the database down. It returns nil when none applies.
func (s *API) scopedCheck(p *blocklist.Prepared, raw []byte, venueName string, u accounts.User) ([]byte, error) {
	var venues []int64
	if venueName != "" {
		id, err := checkVenue(p, venueName)
		if err != nil {
			return nil, err
		}
		venues = []int64{id}
	} else if u.Club != nil && *u.Club != "" {
		venues = p.Venues.HomeVenues(*u.Club)
	}
	return s.Blocklist.ScopedBans(raw, venues)
}

// appendCheckAnswer appends the JSON of a blocklist.CheckAnswer (same fields, same
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

// registerCorrections: GET /api/v1/register-corrections (clerk, judge):
// the member bans of the user's court whose CPF the group's register has
// corrected since (execution.Service.RegisterCPFCorrections; issue 32,
// item 6): {items: [{ban_id, case_id, case_number, name, birth_date,
// ban_cpf, register_cpf, register_name, register_birth_date,
// same_person}]}.
func (s *API) registerCorrections(c echo.Context) error {
	items, err := s.Cases.Execution.RegisterCPFCorrections(c.Request().Context(), server.Actor(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"items": items})
}

// carryRegisterCorrection: POST /api/v1/register-corrections/:id/carry
// (the judge of the case; CPC art. 494, I): corrects the ban's CPF with the
// register's, with a docket movement and the blocklist version
// (execution.Service.CarryRegisterCPF): 200 with the correction carried;
// 404 when the ban has none to carry; 409 when the register changed the
// name or birth date too (not the same person).
func (s *API) carryRegisterCorrection(c echo.Context) error {
	id, err := server.IDParam(c, "Impedimento")
	if err != nil {
		return err
	}
	r, err := s.Cases.Execution.CarryRegisterCPF(c.Request().Context(), server.Actor(c), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, r)
}
