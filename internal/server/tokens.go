package server

import (
	"context"
	"crypto/sha256"
	"sync"
	"time"

	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/db"
)

// tokenTTL bounds how long a token's user is taken from memory while the
// database answers: a token revoked or a user disabled elsewhere (another
// server, the CLI) is refused within this delay. Expiry is honoured to the
// instant, and revocations made through this server at once.
const tokenTTL = 5 * time.Second

// tokenCache remembers the users of valid tokens, so that a gate's CPF
// checks do not pay a database round trip each (the token's SHA-256 is the
// key; unknown tokens are not cached). While the database is unreachable
// (degraded mode, issue 16 item 3) an entry older than tokenTTL still
// answers for a token verified before the outage, unless it has expired or
// this server has seen it revoked.
type tokenCache struct {
	mu sync.RWMutex
	m  map[[32]byte]cachedUser
}

type cachedUser struct {
	u       authz.User
	until   time.Time  // real time: verified again after it
	expires *time.Time // the token's expiry (the server's clock); nil: never
}

// authenticate is authz.Authenticate with the cache in front.
func (s *Server) authenticate(ctx context.Context, token string) (authz.User, error) {
	key := sha256.Sum256([]byte(token))
	now := time.Now()
	s.tokens.mu.RLock()
	cu, ok := s.tokens.m[key]
	s.tokens.mu.RUnlock()
	if ok && cu.expires != nil && !s.Now().Before(*cu.expires) {
		s.forgetToken(key)
		return authz.User{}, authz.ErrUnauthenticated
	}
	if ok && now.Before(cu.until) {
		return cu.u, nil
	}
	u, expires, err := authz.AuthenticateUntil(ctx, s.Deps.DB, token, s.Now())
	if err != nil {
		if ok && db.IsUnavailable(err) {
			return cu.u, nil // verified before the outage; expiry checked above
		}
		if err == authz.ErrUnauthenticated && ok {
			s.forgetToken(key)
		}
		return u, err
	}
	s.tokens.mu.Lock()
	if s.tokens.m == nil || len(s.tokens.m) > 100000 {
		s.tokens.m = map[[32]byte]cachedUser{}
	}
	s.tokens.m[key] = cachedUser{u: u, until: now.Add(tokenTTL), expires: expires}
	s.tokens.mu.Unlock()
	return u, nil
}

func (s *Server) forgetToken(key [32]byte) {
	s.tokens.mu.Lock()
	delete(s.tokens.m, key)
	s.tokens.mu.Unlock()
}

// ForgetUser drops the cached tokens of user id (revoked or disabled
// through this server), keeping what the cache knows of everyone else for
// an outage.
func (s *Server) ForgetUser(id int64) {
	s.tokens.mu.Lock()
	for k, cu := range s.tokens.m {
		if cu.u.ID == id {
			delete(s.tokens.m, k)
		}
	}
	s.tokens.mu.Unlock()
}
