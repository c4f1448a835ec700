package policy

import (
	"sync"
	"time"

	"github.com/casbin/casbin/v2"
	"github.com/juizado/juizado/internal/authz"
)

// Decider answers Allowed from a short-lived cache: the same (role, domain,
// route, method) is decided by Casbin at most once per TTL, which takes the
// policy evaluation off the hot path (the gate's CPF check) while a policy
// change still takes effect within TTL plus the watcher's delay, well
// under the 5 seconds the access rules allow.
type Decider struct {
	E   *casbin.SyncedEnforcer
	TTL time.Duration // default 1 s

	m sync.Map // key → decision
}

type decision struct {
	allowed bool
	until   time.Time
}

// Allowed is Allowed through the cache.
func (d *Decider) Allowed(u authz.User, route, method string) (bool, error) {
	key := u.Role + "\x00" + u.Domain() + "\x00" + route + "\x00" + method
	now := time.Now()
	if v, ok := d.m.Load(key); ok {
		if dec := v.(decision); now.Before(dec.until) {
			return dec.allowed, nil
		}
	}
	ok, err := Allowed(d.E, u, route, method)
	if err != nil {
		return false, err
	}
	ttl := d.TTL
	if ttl <= 0 {
		ttl = time.Second
	}
	d.m.Store(key, decision{allowed: ok, until: now.Add(ttl)})
	return ok, nil
}
