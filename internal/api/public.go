package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/textcheck"
	"github.com/juizado/juizado/registry/blocklist"
	"github.com/labstack/echo/v4"
	"golang.org/x/sync/singleflight"
)

// publicTTL bounds how long a public list is served from memory: a version
// of the blocklist or a new day makes it stale at once; a published ban of a
// person without a CPF (which makes no blocklist version) shows within this
// delay.
const publicTTL = 10 * time.Second

// publicCache keeps the public list (Lei 10.671/2003, art. 5º, parágrafo
// único, VI; DOMAIN.md §6) per filter, read once for many readers: the list
// has no login and, at a national scale, hundreds of thousands of names.
type publicCache struct {
	mu    sync.Mutex
	m     map[blocklist.PublicFilter]*publicList
	group singleflight.Group
}

// publicList is the list for one filter at one blocklist version and day:
// the entries (for the page) and the API's JSON body.
type publicList struct {
	version int64
	day     civil.Date
	at      time.Time
	Items   []blocklist.PublicEntry
	body    []byte
}

// PublicListFor returns the public list for f, from memory while it is
// fresh; concurrent readers of a stale list wait for one read.
func (s *API) PublicListFor(ctx context.Context, f blocklist.PublicFilter) (*publicList, error) {
	p, err := s.PreparedBlocklist(ctx)
	if err != nil {
		return nil, err
	}
	day := civil.Today(s.Now(), s.Deps.Loc)
	fresh := func() *publicList {
		s.public.mu.Lock()
		defer s.public.mu.Unlock()
		if l := s.public.m[f]; l != nil && l.version == p.Version && l.day == day && time.Since(l.at) < publicTTL {
			return l
		}
		return nil
	}
	if l := fresh(); l != nil {
		return l, nil
	}
	v, err, _ := s.public.group.Do(f.Court+"\x00"+f.Club, func() (any, error) {
		if l := fresh(); l != nil {
			return l, nil
		}
		items, err := s.Lists.Public(ctx, f)
		if err != nil {
			return nil, err
		}
		body, err := json.Marshal(map[string]any{"items": items})
		if err != nil {
			return nil, err
		}
		l := &publicList{version: p.Version, day: day, at: time.Now(), Items: items, body: append(body, '\n')}
		s.public.mu.Lock()
		if s.public.m == nil || len(s.public.m) >= 64 { // filters are the readers' to choose: bounded
			s.public.m = map[blocklist.PublicFilter]*publicList{}
		}
		s.public.m[f] = l
		s.public.mu.Unlock()
		return l, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*publicList), nil
}

// publicBanned: GET /api/v1/public/banned (anyone).
func (s *API) publicBanned(c echo.Context) error {
	f, err := PublicFilter(c)
	if err != nil {
		return err
	}
	l, err := s.PublicListFor(c.Request().Context(), f)
	if err != nil {
		return err
	}
	return c.JSONBlob(http.StatusOK, l.body)
}

// PublicFilter reads ?court=TR.OOOO and ?club=NAME of the public list.
func PublicFilter(c echo.Context) (blocklist.PublicFilter, error) {
	f := blocklist.PublicFilter{Court: strings.TrimSpace(c.QueryParam("court")), Club: strings.TrimSpace(c.QueryParam("club"))}
	if f.Court != "" && !blocklist.ValidCourt(f.Court) {
		return f, errs.InvalidField("court", "court", "court deve ser um código TR.OOOO (por exemplo 26.0100).")
	}
	if rule, msg := textcheck.Problem(f.Club, 200, false); rule != "" {
		return f, errs.InvalidField("club", rule, "club (nome do clube mandante): "+msg)
	}
	return f, nil
}
