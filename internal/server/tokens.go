package server

import (
	"context"
	"crypto/sha256"
	"sync"
	"time"

	"github.com/juizado/juizado/internal/accounts"
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
// (degraded mode) an entry older than tokenTTL still
// answers for a token verified before the outage, unless it has expired or
// this server has seen it revoked.
type tokenCache struct {
	mu sync.RWMutex
	m  map[[32]byte]cachedUser
}

type cachedUser struct {
	tokenUser
	until   time.Time  // real time: verified again after it
	expires *time.Time // the token's expiry (the server's clock); nil: never
}

// tokenUser is a token's user with what each of its requests derives from
// it, made once per verification rather than once per request.
type tokenUser struct {
	u      accounts.User
	domain string // u.Domain(), the Casbin domain
	boxed  any    // u as the echo context holds it (UserKey)
}

func newTokenUser(u accounts.User) tokenUser {
	return tokenUser{u: u, domain: u.Domain(), boxed: u}
}

// tokenKey is the SHA-256 of token, hashed from a copy on the stack: the
// conversion of a string longer than 32 bytes to []byte would allocate on
// every request (valid tokens are at most 200 bytes, AuthenticateUntil).
func tokenKey(token string) [32]byte {
	var buf [200]byte
	if len(token) > len(buf) {
		return sha256.Sum256([]byte(token))
	}
	n := copy(buf[:], token)
	return sha256.Sum256(buf[:n])
}

// authenticate is accounts.AuthenticateUntil with the cache in front.
func (s *Server) authenticate(ctx context.Context, token string) (tokenUser, error) {
	key := tokenKey(token)
	now := time.Now()
	s.tokens.mu.RLock()
	cu, ok := s.tokens.m[key]
	s.tokens.mu.RUnlock()
	if ok && cu.expires != nil && !s.Now().Before(*cu.expires) {
		s.forgetToken(key)
		return tokenUser{}, accounts.ErrUnauthenticated
	}
	if ok && now.Before(cu.until) {
		return cu.tokenUser, nil
	}
	u, expires, err := s.App.Accounts.AuthenticateUntil(ctx, token, s.Now())
	if err != nil {
		if ok && db.IsUnavailable(err) {
			return cu.tokenUser, nil // verified before the outage; expiry checked above
		}
		if err == accounts.ErrUnauthenticated && ok {
			s.forgetToken(key)
		}
		return tokenUser{u: u}, err
	}
	tu := newTokenUser(u)
	s.tokens.mu.Lock()
	if s.tokens.m == nil || len(s.tokens.m) > 100000 {
		s.tokens.m = map[[32]byte]cachedUser{}
	}
	s.tokens.m[key] = cachedUser{tokenUser: tu, until: now.Add(tokenTTL), expires: expires}
	s.tokens.mu.Unlock()
	return tu, nil
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
