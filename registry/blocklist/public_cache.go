package blocklist

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/juizado/juizado/internal/civil"
	"golang.org/x/sync/singleflight"
)

// publicTTL bounds how long a public list is served from memory: a version
// of the blocklist or a new day makes it stale at once; a published ban of a
// person without a CPF (which makes no blocklist version) shows within this
// delay.
const publicTTL = 10 * time.Second

// PublicCache keeps the public list (Lei 10.671/2003, art. 5º, parágrafo
// único, VI; DOMAIN.md §6) per filter, read once for many readers: the list
// has no login and, at a national scale, hundreds of thousands of names.
// The API's GET /api/v1/public/banned and the page /impedidos read it
// (../shared/API.md "Public list and blocklist"). The zero value with
// Publisher set is ready; it is safe for concurrent use.
type PublicCache struct {
	// Publisher gives the blocklist's version (a new version makes the
	// cached lists stale) and its Lists the bans in force.
	Publisher *Publisher

	mu    sync.Mutex
	m     map[PublicFilter]*PublicList
	group singleflight.Group
}

// PublicList is the public list for one filter at one blocklist version
// and day: the entries (for the page) and the API's JSON body.
type PublicList struct {
	version int64
	day     civil.Date
	at      time.Time
	// Items are the published bans in force that day, ordered by name
	// (Lists.Public).
	Items []PublicEntry
	// Body is the API's JSON answer, {"items": Items} and a newline.
	Body []byte
}

// For returns the public list for f, from memory while it is fresh (same
// blocklist version, same day in the court's zone, younger than 10 s);
// concurrent readers of a stale list wait for one read. Errors are the
// database's.
func (pc *PublicCache) For(ctx context.Context, f PublicFilter) (*PublicList, error) {
	p, err := pc.Publisher.Prepared(ctx)
	if err != nil {
		return nil, err
	}
	l := pc.Publisher.Lists
	day := civil.Today(l.Clock.Now(), l.Loc)
	fresh := func() *PublicList {
		pc.mu.Lock()
		defer pc.mu.Unlock()
		if pl := pc.m[f]; pl != nil && pl.version == p.Version && pl.day == day && time.Since(pl.at) < publicTTL {
			return pl
		}
		return nil
	}
	if pl := fresh(); pl != nil {
		return pl, nil
	}
	v, err, _ := pc.group.Do(f.Court+"\x00"+f.Club, func() (any, error) {
		if pl := fresh(); pl != nil {
			return pl, nil
		}
		items, err := l.Public(ctx, f)
		if err != nil {
			return nil, err
		}
		body, err := json.Marshal(map[string]any{"items": items})
		if err != nil {
			return nil, err
		}
		pl := &PublicList{version: p.Version, day: day, at: time.Now(), Items: items, Body: append(body, '\n')}
		pc.mu.Lock()
		if pc.m == nil || len(pc.m) >= 64 { // filters are the readers' to choose: bounded
			pc.m = map[PublicFilter]*PublicList{}
		}
		pc.m[f] = pl
		pc.mu.Unlock()
		return pl, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*PublicList), nil
}
