package web

import (
	"context"
	"crypto/sha256"
	"sync"
	"time"

	"github.com/juizado/juizado/internal/authz"
)

// tokenTTL bounds how long a token's user is taken from memory: a revoked
// or expired token, or a disabled user, is refused within this delay.
const tokenTTL = 5 * time.Second

// tokenCache remembers the users of valid tokens for tokenTTL, so that a
// gate's CPF checks do not pay a database round trip each (the token's
// SHA-256 is the key; unknown tokens are not cached).
type tokenCache struct {
	mu sync.RWMutex
	m  map[[32]byte]cachedUser
}

type cachedUser struct {
	u     authz.User
	until time.Time // real time
}

// authenticate is authz.Authenticate with the cache in front.
func (s *Server) authenticate(ctx context.Context, token string) (authz.User, error) {
	key := sha256.Sum256([]byte(token))
	now := time.Now()
	s.tokens.mu.RLock()
	cu, ok := s.tokens.m[key]
	s.tokens.mu.RUnlock()
	if ok && now.Before(cu.until) {
		return cu.u, nil
	}
	u, err := authz.Authenticate(ctx, s.deps.DB, token, s.now())
	if err != nil {
		return u, err
	}
	s.tokens.mu.Lock()
	if s.tokens.m == nil || len(s.tokens.m) > 100000 {
		s.tokens.m = map[[32]byte]cachedUser{}
	}
	s.tokens.m[key] = cachedUser{u: u, until: now.Add(tokenTTL)}
	s.tokens.mu.Unlock()
	return u, nil
}
