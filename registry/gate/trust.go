package gate

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/juizado/juizado/registry/blocklist/wire"
)

// ErrRefused wraps every reason a body from the court was not applied: bad
// or missing signature, unknown key, a page that does not continue the copy
// (version gap, other cursor). Nothing of a refused body is applied.
var ErrRefused = errors.New("gate: refused")

func refused(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrRefused, fmt.Sprintf(format, a...))
}

// publishedKey is one key of GET /api/v1/blocklist/key. NotAfter is null
// for the court's current key; a key the court rotated out is listed with
// the instant after which it no longer signs (blocklist.KeyRing.Rotate: the
// rotation plus blocklist.KeyRetention), until that instant.
type publishedKey struct {
	ID          string     `json:"id"`
	PublicKey   string     `json:"public_key"`
	NotAfter    *time.Time `json:"not_after"`
	EndorsedBy  string     `json:"endorsed_by"`
	Endorsement string     `json:"endorsement"`
}

// retiredFrom adds to known (key id → not_after, the earliest one seen) the
// not_after of every published key that has one; it reports whether known
// changed. A key once listed as retired stays retired: a later list that
// shows it current (a server not restarted since the rotation) or no
// longer lists it does not make it sign again.
func retiredFrom(known map[string]time.Time, published []publishedKey) bool {
	changed := false
	for _, p := range published {
		if p.NotAfter == nil || p.ID == "" {
			continue
		}
		id := p.ID
		if raw, err := base64.StdEncoding.DecodeString(p.PublicKey); err == nil && len(raw) == ed25519.PublicKeySize {
			id = wire.KeyID(raw)
		}
		if retire(known, id, *p.NotAfter) {
			changed = true
		}
	}
	return changed
}

// retire records not_after t of key id in known when it is the earliest
// seen for that key; it reports whether known changed.
func retire(known map[string]time.Time, id string, t time.Time) bool {
	if old, ok := known[id]; ok && !t.Before(old) {
		return false
	}
	known[id] = t.UTC()
	return true
}

// trustFrom returns the keys trusted: the pinned ones, then every published
// key endorsed (wire.RotationPrefix) by a key already trusted, to a fixed point.
func trustFrom(pinned map[string]ed25519.PublicKey, published []publishedKey) map[string]ed25519.PublicKey {
	t := make(map[string]ed25519.PublicKey, len(pinned)+len(published))
	for id, k := range pinned {
		t[id] = k
	}
	for added := true; added; {
		added = false
		for _, p := range published {
			raw, err := base64.StdEncoding.DecodeString(p.PublicKey)
			if err != nil || len(raw) != ed25519.PublicKeySize {
				continue
			}
			pub := ed25519.PublicKey(raw)
			id := wire.KeyID(pub)
			if _, ok := t[id]; ok || p.EndorsedBy == "" {
				continue
			}
			by, ok := t[p.EndorsedBy]
			sig, err := base64.StdEncoding.DecodeString(p.Endorsement)
			if !ok || err != nil || !ed25519.Verify(by, []byte(wire.RotationPrefix+p.PublicKey), sig) {
				continue
			}
			t[id] = pub
			added = true
		}
	}
	return t
}

// signed is a body as received with its signature headers; a .sig file
// is its KeyID and Signature (Body is the .json file beside it; .sig files
// written with "Body":null still read).
type signed struct {
	Body      []byte `json:"-"`
	KeyID     string `json:"key_id"`
	Signature string `json:"signature"`
}

// verify checks s against the trusted keys: the key named must be trusted
// and the Ed25519 signature must be over the exact body bytes.
func verify(s signed, trusted map[string]ed25519.PublicKey) error {
	if err := unsigned(s); err != nil {
		return err
	}
	k, ok := trusted[s.KeyID]
	if !ok {
		return refused("signed by unknown key %q", s.KeyID)
	}
	sig, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s.Signature))
	if err != nil || len(sig) != ed25519.SignatureSize || !ed25519.Verify(k, s.Body, sig) {
		return refused("signature does not verify with key %s", s.KeyID)
	}
	return nil
}

// errUnsigned is a body with neither signature header.
const errUnsigned = "the response has no signature (X-Juizado-Key-Id/X-Juizado-Signature missing)"

// unsigned refuses s when it has no key id or no signature.
func unsigned(s signed) error {
	if strings.TrimSpace(s.KeyID) == "" || strings.TrimSpace(s.Signature) == "" {
		if s.KeyID == "" && s.Signature == "" {
			return refused("%s", errUnsigned)
		}
		return refused("the response has an incomplete signature (X-Juizado-Key-Id %q, X-Juizado-Signature %q)", s.KeyID, s.Signature)
	}
	return nil
}

// keyList is the body of GET /api/v1/blocklist/key.
type keyList struct {
	Keys []publishedKey `json:"keys"`
}

// verifyKeyList checks a key list as signed by the court: it must be
// signed (unsigned) by a key trusted already, or by one the list's own
// endorsements chain to a trusted key (a rotation: the court signs with
// its new key, which its previous key endorsed), not retired; the Ed25519
// signature over the exact bytes. It returns the list and the keys trusted
// with it (trustFrom). Caller holds mu.
func (c *Court) verifyKeyList(s signed, trusted map[string]ed25519.PublicKey) (keyList, map[string]ed25519.PublicKey, error) {
	var ks keyList
	if err := unsigned(s); err != nil {
		return ks, nil, refused("key list: %v", strings.TrimPrefix(err.Error(), ErrRefused.Error()+": "))
	}
	if err := json.Unmarshal(s.Body, &ks); err != nil {
		return ks, nil, refused("key list: %v", err)
	}
	t := trustFrom(trusted, ks.Keys)
	if err := verify(s, t); err != nil {
		return ks, nil, refused("key list: %v", strings.TrimPrefix(err.Error(), ErrRefused.Error()+": "))
	}
	if err := c.notRetired(s.KeyID); err != nil {
		return ks, nil, err
	}
	return ks, t, nil
}

// refreshKeys reads GET /api/v1/blocklist/key, which must verify
// (verifyKeyList: an unsigned list, or one signed by a key the agent does
// not trust, is refused and nothing of it used, so a key is never retired,
// nor trusted, by what the court did not sign); it trusts the keys endorsed
// by trusted ones and records the not_after of the keys the court rotated
// out. A list that changes either is stored (keylists/, with its
// signature) for the next start, which verifies it again (loadKeys).
func (c *Court) refreshKeys(ctx context.Context) error {
	resp, body, err := c.get(ctx, "/api/v1/blocklist/key")
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("gate: GET /api/v1/blocklist/key: %s", resp.Status)
	}
	s := signedOf(resp, body)
	c.mu.Lock()
	ks, t, err := c.verifyKeyList(s, c.trusted)
	old := c.trusted
	retired := maps.Clone(c.retired)
	c.mu.Unlock()
	if err != nil {
		return err
	}
	if retired == nil {
		retired = map[string]time.Time{}
	}
	changed := retiredFrom(retired, ks.Keys)
	if !changed && len(t) == len(old) {
		return nil
	}
	if err := c.storeKeyList(s); err != nil {
		return err
	}
	c.mu.Lock()
	c.retired, c.trusted = retired, t
	c.mu.Unlock()
	return nil
}

// storeKeyList keeps a verified key list as keylists/<hash of the body>.json
// with its .sig.
func (c *Court) storeKeyList(s signed) error {
	dir := filepath.Join(c.Dir, "keylists")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	h := sha256.Sum256(s.Body)
	base := filepath.Join(dir, hex.EncodeToString(h[:8]))
	sig, _ := json.Marshal(signed{KeyID: s.KeyID, Signature: s.Signature})
	if err := writeAtomic(base+".sig", sig); err != nil {
		return err
	}
	return writeAtomic(base+".json", s.Body)
}

// loadKeys rebuilds the keys trusted and the keys retired from the store:
// the pinned keys and those endorsed under them in the stored key lists
// (an endorsement verifies by itself: keys.json, written unsigned by
// earlier agents, still counts for them), then the not_after of every
// stored key list that verifies with those keys. Nothing else retires a
// key: retired.json, which earlier agents wrote from unsigned lists, is
// set aside (retired.json.refused) and logged, never read.
func (c *Court) loadKeys() {
	var lists []signed
	var all []publishedKey
	if b, err := os.ReadFile(filepath.Join(c.Dir, "keys.json")); err == nil {
		var ks keyList
		if json.Unmarshal(b, &ks) == nil {
			all = append(all, ks.Keys...)
		}
	}
	names, _ := filepath.Glob(filepath.Join(c.Dir, "keylists", "*.json"))
	sort.Strings(names)
	for _, n := range names {
		s, err := readSig(strings.TrimSuffix(n, ".json") + ".sig")
		if err == nil {
			s.Body, err = os.ReadFile(n)
		}
		var ks keyList
		if err != nil || json.Unmarshal(s.Body, &ks) != nil {
			continue
		}
		lists = append(lists, s)
		all = append(all, ks.Keys...)
	}
	trusted := trustFrom(c.Pinned, all)
	retired := map[string]time.Time{}
	c.mu.Lock() // verifyKeyList reads c.retired: none yet, a stored list is not judged by its date again
	for _, s := range lists {
		if ks, _, err := c.verifyKeyList(s, trusted); err == nil {
			retiredFrom(retired, ks.Keys)
		}
	}
	c.mu.Unlock()
	if old := filepath.Join(c.Dir, "retired.json"); fileExists(old) {
		setAside(old)
		c.logger().Warn("gate retired.json of an earlier agent set aside: a key is retired only by a key list the court signed",
			"url", c.URL, "kept", old+refusedSuffix)
	}
	c.mu.Lock()
	c.trusted, c.retired = trusted, retired
	c.mu.Unlock()
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// verifyFetched verifies a body from the court; a key it does not know yet
// sends it to the key list once (a rotation announced under a trusted key).
func (c *Court) verifyFetched(ctx context.Context, s signed) error {
	trusted, err := c.keysFor(ctx, s)
	if err != nil {
		return err
	}
	return verify(s, trusted)
}

// keysFor is what a body fetched from the court (a feed page, a snapshot)
// must pass before its signature is checked, and the keys to check it
// with: it must be signed (unsigned), by a key whose not_after has not
// passed (notRetired); a key the agent does not know yet sends it to the
// key list once (a rotation announced under a trusted key).
func (c *Court) keysFor(ctx context.Context, s signed) (map[string]ed25519.PublicKey, error) {
	if err := unsigned(s); err != nil {
		return nil, err
	}
	c.mu.Lock()
	_, known := c.trusted[s.KeyID]
	c.mu.Unlock()
	if !known {
		if err := c.refreshKeys(ctx); err != nil {
			return nil, err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.notRetired(s.KeyID); err != nil {
		return nil, err
	}
	return c.trusted, nil
}

// notRetired refuses a new body signed by a key whose not_after (as the
// court published it) has passed on the agent's clock: the court no longer
// signs with it, so a body it signs now is not the court's. Bodies stored
// when they were fetched are not judged again (Load). Caller holds mu.
func (c *Court) notRetired(id string) error {
	if t, ok := c.retired[id]; ok && !c.Now().Before(t) {
		return refused("signed by key %s, which the court retired at %s (not_after): not trusted for a new body", id, t.Format(time.RFC3339))
	}
	return nil
}

func signedOf(resp *http.Response, body []byte) signed {
	return signed{Body: body, KeyID: resp.Header.Get(wire.HeaderKeyID), Signature: resp.Header.Get(wire.HeaderSignature)}
}
