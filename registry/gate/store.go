package gate

import (
	"bufio"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
)

// storeSnapshot stores the verified body of version (the synced file tmp,
// SHA-256 sum) with its signature s: the signature file, then the body
// renamed into place, the directory synced; the older snapshots and their
// pages go after.
func (c *Court) storeSnapshot(s signed, version int64, tmp string, sum []byte) error {
	if err := os.MkdirAll(filepath.Join(c.Dir, "pages"), 0o700); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(c.Dir, "snapshots"), 0o700); err != nil {
		return err
	}
	// Named by version and a hash of the body, so that a new snapshot of a
	// version already stored never pairs with the other one's signature
	// when a kill -9 falls between its two files.
	name := fmt.Sprintf("%020d-%x", version, sum[:8])
	base := filepath.Join(c.Dir, "snapshots", name)
	sig, _ := json.Marshal(signed{KeyID: s.KeyID, Signature: s.Signature})
	if err := writeAtomic(base+".sig", sig); err != nil {
		return err
	}
	if err := os.Rename(tmp, base+".json"); err != nil {
		return err
	}
	syncDir(filepath.Dir(base))
	// Only now the older snapshots and their pages go (every stored page:
	// the new snapshot's pages start again at 1, even when it has the
	// version of the one before). What Load set aside (*.refused) stays.
	olds, _ := filepath.Glob(filepath.Join(c.Dir, "snapshots", "*"))
	for _, n := range olds {
		if !strings.HasPrefix(filepath.Base(n), name+".") && !strings.HasSuffix(n, refusedSuffix) {
			_ = os.Remove(n)
		}
	}
	names, _ := filepath.Glob(filepath.Join(c.Dir, "pages", "*"))
	for _, n := range names {
		if !strings.HasSuffix(n, refusedSuffix) {
			_ = os.Remove(n)
		}
	}
	return nil
}

func (c *Court) storePage(s signed, snapVersion int64, seq int) error {
	base := filepath.Join(c.Dir, "pages", fmt.Sprintf("%020d-%09d", snapVersion, seq))
	sig, _ := json.Marshal(signed{KeyID: s.KeyID, Signature: s.Signature})
	if err := writeAtomic(base+".sig", sig); err != nil {
		return err
	}
	return writeAtomic(base+".json", s.Body)
}

// refusedSuffix ends the name of a stored file Load could not use, set
// aside (never deleted: it is the evidence of what went wrong).
const refusedSuffix = ".refused"

// setAside renames path to path.refused (path.1.refused, ... when taken).
func setAside(path string) {
	if _, err := os.Stat(path); err != nil {
		return
	}
	to := path + refusedSuffix
	for i := 1; ; i++ {
		if _, err := os.Lstat(to); errors.Is(err, os.ErrNotExist) {
			break
		}
		to = fmt.Sprintf("%s.%d%s", path, i, refusedSuffix)
	}
	_ = os.Rename(path, to)
}

// Load rebuilds the copy from Dir, re-verifying every stored body with the
// pinned keys and those rotated in under them (loadKeys). No network. It
// uses the newest stored snapshot that verifies and its pages up to the
// first one that does not verify or continue. When it cannot use every
// stored file (a snapshot or page that no longer verifies or continues,
// so a copy older than the one the court last confirmed, or none), the
// files not used are set aside as *.refused, the damage is logged and
// reported as StoreError, and the time of the court's last confirmation
// is not restored (nor kept on disk): the copy is stale until the court
// confirms it again. The highest version applied and the latest court time
// are restored either way (loadFreshness): an older snapshot is still
// refused after the damage.
func (c *Court) Load() error {
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return err
	}
	c.loadKeys()
	c.loadVenues()
	// Temporary files are writes a kill -9 interrupted: never renamed, so
	// never part of the store.
	for _, d := range []string{c.Dir, filepath.Join(c.Dir, "snapshots"), filepath.Join(c.Dir, "pages")} {
		tmps, _ := filepath.Glob(filepath.Join(d, "*.tmp"))
		for _, n := range tmps {
			_ = os.Remove(n)
		}
	}
	// The newest stored snapshot whose body verifies. A snapshot is stored
	// as its .sig, then its body renamed into place, then the older ones
	// removed: a stored body that does not verify is damage, not a write
	// a kill -9 interrupted.
	snaps, _ := filepath.Glob(filepath.Join(c.Dir, "snapshots", "*.json"))
	sort.Sort(sort.Reverse(sort.StringSlice(snaps)))
	var st *courtState
	var damage []string
	for _, n := range snaps {
		sigPath := strings.TrimSuffix(n, ".json") + ".sig"
		s, err := readSig(sigPath)
		if err == nil {
			st, err = loadSnapshot(n, s, c.trusted)
		}
		if err == nil {
			break
		}
		st = nil
		damage = append(damage, fmt.Sprintf("snapshot %s: %v", filepath.Base(n), err))
		setAside(n)
		setAside(sigPath)
	}
	pages := 0
	if st != nil {
		names, _ := filepath.Glob(filepath.Join(c.Dir, "pages", fmt.Sprintf("%020d-*.json", st.snap)))
		sort.Strings(names)
		var why error
		for _, n := range names {
			ps, err := readSig(strings.TrimSuffix(n, ".json") + ".sig")
			if err == nil {
				ps.Body, err = os.ReadFile(n)
			}
			if err == nil {
				err = verify(ps, c.trusted)
			}
			var p FeedPage
			if err == nil {
				if err = json.Unmarshal(ps.Body, &p); err != nil {
					err = refused("feed page: %v", err)
				}
			}
			if err == nil {
				err = st.continues(&p)
			}
			if err != nil {
				why = err
				break
			}
			st.apply(&p)
			pages++
		}
		if pages < len(names) {
			damage = append(damage, fmt.Sprintf("page %s: %v (it and the %d after it not used)", filepath.Base(names[pages]), why, len(names)-pages-1))
		}
		for _, n := range names[pages:] { // what did not verify or continue, and what follows it
			setAside(n)
			setAside(strings.TrimSuffix(n, ".json") + ".sig")
		}
		c.smu.Lock()
		c.state = st
		c.smu.Unlock()
		c.mu.Lock()
		c.pages = pages
		c.mu.Unlock()
	}
	if len(damage) > 0 {
		// The copy held now is not the one the court confirmed.
		c.loadFreshness(st, true)
		var version int64
		if st != nil {
			version = st.version
		}
		msg := fmt.Sprintf("stored copy damaged: %s; set aside as *%s, copy at version %d not confirmed until the court answers",
			strings.Join(damage, "; "), refusedSuffix, version)
		c.mu.Lock()
		c.storeErr = msg
		c.mu.Unlock()
		c.logger().Error("gate store damaged", "url", c.URL, "court", c.code(), "dir", c.Dir, "version", version, "error", msg)
		debug.FreeOSMemory()
		return nil
	}
	c.loadFreshness(st, false)
	if st == nil {
		return nil
	}
	debug.FreeOSMemory() // the garbage of the decoding
	return nil
}

// loadSnapshot verifies the stored snapshot file n against s (read once,
// streaming) and decodes it (read again, streaming).
func loadSnapshot(n string, s signed, trusted map[string]ed25519.PublicKey) (*courtState, error) {
	f, err := os.Open(n)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := verifySigned(s, trusted, bufio.NewReaderSize(f, 1<<20)); err != nil {
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return stateOf(bufio.NewReaderSize(f, 1<<20))
}

func readSig(path string) (signed, error) {
	var s signed
	b, err := os.ReadFile(path)
	if err != nil {
		return s, err
	}
	err = json.Unmarshal(b, &s)
	return s, err
}

// writeAtomic writes b to path through a synced temporary file and a rename.
func writeAtomic(path string, b []byte) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	syncDir(filepath.Dir(path))
	return nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

var (
	gcMu    sync.Mutex
	gcLow   int // decodings under way
	gcSaved int // the GC percent before the first of them
)

// lowGC has the garbage collector run when the heap has grown by a tenth
// (instead of GOGC's doubling) until the returned function is called: while
// a snapshot is decoded the index grows to its full size and each entry
// decoded leaves its garbage, so at the default the heap would reach twice
// the index before a collection (the peak resident memory of a sync at
// 1,000,000 entries). The index holds no pointers, so a collection costs
// little. Nested and concurrent calls share one setting.
func lowGC() (restore func()) {
	gcMu.Lock()
	if gcLow == 0 {
		gcSaved = debug.SetGCPercent(10)
	}
	gcLow++
	gcMu.Unlock()
	return func() {
		gcMu.Lock()
		gcLow--
		if gcLow == 0 {
			debug.SetGCPercent(gcSaved)
		}
		gcMu.Unlock()
	}
}
