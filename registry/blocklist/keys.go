package blocklist

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/juizado/juizado/registry/blocklist/wire"
)

// KeyRetention is how long a rotated-out public key stays listed: a gate
// that read a snapshot signed by the previous key can still verify it.
const KeyRetention = 7 * 24 * time.Hour

// Key file names under the key directory.
const (
	currentKeyFile = "blocklist-ed25519.key" // PEM PKCS#8, the signing key
	retiredPrefix  = "blocklist-ed25519-"    // blocklist-ed25519-<id>.pub: PEM PKIX, header Not-After
	cursorKeyFile  = "feed-cursor.key"       // base64 of 32 random bytes: the feed cursors' HMAC key
)

// KeyRing holds the court's Ed25519 blocklist signing key in files under Dir
// (mode 0600, directory 0700; never in the database): the current key, made
// on first use, and the public keys rotated out, each listed until its
// not_after. ../shared/API.md "Running" (JUIZADO_KEY_DIR).
type KeyRing struct {
	Dir string

	mu        sync.Mutex
	priv      ed25519.PrivateKey
	id        string
	retired   []PublicKey
	cursorKey []byte
}

// PublicKey is a verification key as published at GET /api/v1/blocklist/key.
type PublicKey struct {
	ID        string     `json:"id"`
	PublicKey string     `json:"public_key"` // base64 of the 32 bytes
	NotAfter  *time.Time `json:"not_after"`  // null for the current key
	// EndorsedBy and Endorsement announce a rotation: the id of the key
	// that was current before this one and the base64 of its Ed25519
	// signature over wire.RotationMessage(this key), made by Rotate. A gate
	// that trusts the old key trusts this one through it. Absent for a key
	// made on first use.
	EndorsedBy  string            `json:"endorsed_by,omitempty"`
	Endorsement string            `json:"endorsement,omitempty"`
	Key         ed25519.PublicKey `json:"-"`
}

// endorsementSuffix names the file of a key's endorsement:
// blocklist-ed25519-<id>.endorsement holds "<old id> <base64 signature>".
const endorsementSuffix = ".endorsement"

// withEndorsement fills pk's EndorsedBy and Endorsement from its file in
// dir, when there is one.
func withEndorsement(dir string, pk PublicKey) PublicKey {
	if dir == "" {
		return pk
	}
	b, err := os.ReadFile(filepath.Join(dir, retiredPrefix+pk.ID+endorsementSuffix))
	if err != nil {
		return pk
	}
	if by, sig, ok := strings.Cut(strings.TrimSpace(string(b)), " "); ok {
		pk.EndorsedBy, pk.Endorsement = by, sig
	}
	return pk
}

// EphemeralKeyRing returns a ring with a key kept in memory only (tests, or
// a server started without a key directory).
func EphemeralKeyRing() *KeyRing {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	ck := make([]byte, 32)
	_, _ = rand.Read(ck)
	return &KeyRing{priv: priv, id: wire.KeyID(priv.Public().(ed25519.PublicKey)), cursorKey: ck}
}

// CursorKey returns the secret that authenticates the change feed's cursors
// (HMAC-SHA256, Lists.CursorKey): 32 random bytes in the file
// feed-cursor.key of Dir (mode 0600), made on first use, so that every
// server sharing the key directory accepts the cursors of the others. Key
// rotation (Rotate) leaves it alone: a cursor is only good for the pages of
// one version, and a gate refused one repeats the call without it.
func (k *KeyRing) CursorKey() ([]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.cursorKey != nil {
		return k.cursorKey, nil
	}
	if k.Dir == "" {
		return nil, errors.New("registry: no key directory (JUIZADO_KEY_DIR)")
	}
	if err := os.MkdirAll(k.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("registry: key directory: %w", err)
	}
	path := filepath.Join(k.Dir, cursorKeyFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		key := make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			return nil, err
		}
		tmp := path + ".tmp-" + hex.EncodeToString(key[:4])
		if err := os.WriteFile(tmp, []byte(base64.StdEncoding.EncodeToString(key)+"\n"), 0o600); err != nil {
			return nil, fmt.Errorf("registry: writing the cursor key: %w", err)
		}
		defer os.Remove(tmp)
		if err := os.Link(tmp, path); err != nil && !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("registry: writing the cursor key: %w", err)
		}
		b, err = os.ReadFile(path) // another process may have made it first
	}
	if err != nil {
		return nil, fmt.Errorf("registry: cursor key: %w", err)
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(key) < 32 {
		return nil, fmt.Errorf("registry: cursor key %s: not the base64 of 32 bytes", path)
	}
	k.cursorKey = key
	return key, nil
}

// load reads the keys, creating the current key on first use. Caller holds mu.
func (k *KeyRing) load() error {
	if k.priv != nil {
		return nil
	}
	if k.Dir == "" {
		return errors.New("registry: no key directory (JUIZADO_KEY_DIR)")
	}
	if err := os.MkdirAll(k.Dir, 0o700); err != nil {
		return fmt.Errorf("registry: key directory: %w", err)
	}
	_ = os.Chmod(k.Dir, 0o700)
	path := filepath.Join(k.Dir, currentKeyFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		priv, err := newKeyFile(path)
		if err != nil {
			return err
		}
		k.priv = priv
	} else if err != nil {
		return fmt.Errorf("registry: signing key: %w", err)
	} else {
		priv, err := parsePrivate(b)
		if err != nil {
			return fmt.Errorf("registry: signing key %s: %w", path, err)
		}
		k.priv = priv
	}
	k.id = wire.KeyID(k.priv.Public().(ed25519.PublicKey))
	retired, err := readRetired(k.Dir)
	if err != nil {
		return err
	}
	k.retired = retired
	return nil
}

// newKeyFile makes a key and writes it to path (0600) atomically; when
// another process made one first, that one is used.
func newKeyFile(path string) (ed25519.PrivateKey, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, err
	}
	tmp := path + ".tmp-" + hex.EncodeToString(priv[:4])
	if err := os.WriteFile(tmp, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		return nil, fmt.Errorf("registry: writing the signing key: %w", err)
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, os.ErrExist) {
			b, err := os.ReadFile(path)
			if err != nil {
				return nil, err
			}
			return parsePrivate(b)
		}
		return nil, fmt.Errorf("registry: writing the signing key: %w", err)
	}
	return priv, nil
}

func parsePrivate(b []byte) (ed25519.PrivateKey, error) {
	blk, _ := pem.Decode(b)
	if blk == nil || blk.Type != "PRIVATE KEY" {
		return nil, errors.New("not a PEM private key")
	}
	k, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
	if err != nil {
		return nil, err
	}
	priv, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, errors.New("not an Ed25519 key")
	}
	return priv, nil
}

func readRetired(dir string) ([]PublicKey, error) {
	names, err := filepath.Glob(filepath.Join(dir, retiredPrefix+"*.pub"))
	if err != nil {
		return nil, err
	}
	var out []PublicKey
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		pk, err := ParsePublicKey(b)
		if err != nil {
			return nil, fmt.Errorf("registry: %s: %w", n, err)
		}
		out = append(out, pk)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].NotAfter.After(*out[j].NotAfter) })
	return out, nil
}

// ParsePublicKey reads a public key: PEM "PUBLIC KEY" (with an optional
// Not-After header) or the base64 of the 32 bytes.
func ParsePublicKey(b []byte) (PublicKey, error) {
	if blk, _ := pem.Decode(b); blk != nil {
		k, err := x509.ParsePKIXPublicKey(blk.Bytes)
		if err != nil {
			return PublicKey{}, err
		}
		pub, ok := k.(ed25519.PublicKey)
		if !ok {
			return PublicKey{}, errors.New("not an Ed25519 key")
		}
		pk := publicKey(pub, nil)
		if na := blk.Headers["Not-After"]; na != "" {
			t, err := time.Parse(time.RFC3339, na)
			if err != nil {
				return PublicKey{}, fmt.Errorf("Not-After: %w", err)
			}
			pk.NotAfter = &t
		}
		return pk, nil
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return PublicKey{}, errors.New("not a base64 Ed25519 public key (32 bytes) nor a PEM public key")
	}
	return publicKey(ed25519.PublicKey(raw), nil), nil
}

func publicKey(pub ed25519.PublicKey, notAfter *time.Time) PublicKey {
	return PublicKey{ID: wire.KeyID(pub), PublicKey: base64.StdEncoding.EncodeToString(pub), NotAfter: notAfter, Key: pub}
}

// Sign signs body with the current key: it returns the key id and the
// base64 of the Ed25519 signature.
func (k *KeyRing) Sign(body []byte) (keyID, signature string, err error) {
	k.mu.Lock()
	if err := k.load(); err != nil {
		k.mu.Unlock()
		return "", "", err
	}
	priv, id := k.priv, k.id
	k.mu.Unlock()
	return id, base64.StdEncoding.EncodeToString(ed25519.Sign(priv, body)), nil
}

// Keys returns the current public key and the rotated-out ones whose
// not_after is after now, current first.
func (k *KeyRing) Keys(now time.Time) ([]PublicKey, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if err := k.load(); err != nil {
		return nil, err
	}
	out := []PublicKey{withEndorsement(k.Dir, publicKey(k.priv.Public().(ed25519.PublicKey), nil))}
	for _, r := range k.retired {
		if r.NotAfter.After(now) {
			out = append(out, withEndorsement(k.Dir, r))
		}
	}
	return out, nil
}

// AllKeys returns every public key in the ring, expired ones included (for
// verifying an old file offline).
func (k *KeyRing) AllKeys() ([]PublicKey, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if err := k.load(); err != nil {
		return nil, err
	}
	return append([]PublicKey{publicKey(k.priv.Public().(ed25519.PublicKey), nil)}, k.retired...), nil
}

// Rotate makes a new signing key; the previous public key stays listed
// until now + KeyRetention. It returns the new key's id. A server running
// with this directory picks the new key up when restarted.
func (k *KeyRing) Rotate(now time.Time) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if err := k.load(); err != nil {
		return "", err
	}
	old := k.priv.Public().(ed25519.PublicKey)
	der, err := x509.MarshalPKIXPublicKey(old)
	if err != nil {
		return "", err
	}
	notAfter := now.Add(KeyRetention).UTC().Truncate(time.Second)
	retiredPath := filepath.Join(k.Dir, retiredPrefix+wire.KeyID(old)+".pub")
	blk := &pem.Block{Type: "PUBLIC KEY", Headers: map[string]string{"Not-After": notAfter.Format(time.RFC3339)}, Bytes: der}
	if err := os.WriteFile(retiredPath, pem.EncodeToMemory(blk), 0o600); err != nil {
		return "", err
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return "", err
	}
	pkcs, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return "", err
	}
	// The outgoing key endorses its successor before it is replaced.
	newID := wire.KeyID(priv.Public().(ed25519.PublicKey))
	endorsement := wire.KeyID(old) + " " + base64.StdEncoding.EncodeToString(ed25519.Sign(k.priv, wire.RotationMessage(priv.Public().(ed25519.PublicKey)))) + "\n"
	if err := os.WriteFile(filepath.Join(k.Dir, retiredPrefix+newID+endorsementSuffix), []byte(endorsement), 0o600); err != nil {
		return "", err
	}
	path := filepath.Join(k.Dir, currentKeyFile)
	tmp := path + ".rotate"
	if err := os.WriteFile(tmp, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs}), 0o600); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", err
	}
	// Forget retired keys long expired.
	for _, r := range k.retired {
		if r.NotAfter.Before(now.Add(-KeyRetention)) {
			_ = os.Remove(filepath.Join(k.Dir, retiredPrefix+r.ID+".pub"))
			_ = os.Remove(filepath.Join(k.Dir, retiredPrefix+r.ID+endorsementSuffix))
		}
	}
	k.priv, k.id = priv, wire.KeyID(priv.Public().(ed25519.PublicKey))
	k.retired, err = readRetired(k.Dir)
	return k.id, err
}

// Verify reports whether signature (base64) is a valid Ed25519 signature of
// body by one of keys, and by which.
func Verify(body []byte, signature string, keys []PublicKey) (PublicKey, bool) {
	sig, err := base64.StdEncoding.DecodeString(strings.TrimSpace(signature))
	if err != nil || len(sig) != ed25519.SignatureSize {
		return PublicKey{}, false
	}
	for _, k := range keys {
		if ed25519.Verify(k.Key, body, sig) {
			return k, true
		}
	}
	return PublicKey{}, false
}
