package authz

import (
	"sync"
	"time"

	"github.com/casbin/casbin/v2"
	"github.com/juizado/juizado/internal/accounts"
)

// Decider answers Allowed from a short-lived cache: the same (role, domain,
// route, method) is decided by Casbin at most once per TTL, which takes the
// policy evaluation off the hot path (the gate's CPF check) while a policy
// change still takes effect within TTL plus the watcher's delay, well
// under the 5 seconds the access rules allow.
type Decider struct {
	E   *casbin.SyncedEnforcer
	TTL time.Duration // default 1 s

	mu sync.RWMutex
	m  map[decisionKey]decision
}

// decisionKey is the request of a decision: a struct of the four strings,
// so that a lookup builds no key (a joined string, boxed in an interface for
// a sync.Map, cost the gate's check two allocations).
type decisionKey struct{ role, domain, route, method string }

type decision struct {
	allowed bool
	until   time.Time
}

// maxDecisions bounds the cache: past it, the cache starts again empty (the
// keys are roles × domains × routes, far fewer in practice).
const maxDecisions = 100000

// Allowed is Allowed through the cache.
func (d *Decider) Allowed(u accounts.User, route, method string) (bool, error) {
	return d.AllowedIn(u, u.Domain(), route, method)
}

// AllowedIn is Allowed for a caller that has u's domain at hand (domain
// must be u.Domain()): the same decision, without making the domain again.
func (d *Decider) AllowedIn(u accounts.User, domain, route, method string) (bool, error) {
	key := decisionKey{u.Role, domain, route, method}
	now := time.Now()
	d.mu.RLock()
	dec, found := d.m[key]
	d.mu.RUnlock()
	if found && now.Before(dec.until) {
		return dec.allowed, nil
	}
	ok, err := allowedIn(d.E, u.Role, domain, route, method)
	if err != nil {
		return false, err
	}
	ttl := d.TTL
	if ttl <= 0 {
		ttl = time.Second
	}
	d.mu.Lock()
	if d.m == nil || len(d.m) >= maxDecisions {
		d.m = map[decisionKey]decision{}
	}
	d.m[key] = decision{allowed: ok, until: now.Add(ttl)}
	d.mu.Unlock()
	return ok, nil
}
