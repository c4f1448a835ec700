package gate

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Record is one local check as kept in the spool (evidence, issue 20 §5):
// the CPF, the instant, the outcome and the version of every court's list
// consulted.
type Record struct {
	CPF       string           `json:"cpf"`
	CheckedAt time.Time        `json:"checked_at"`
	Blocked   bool             `json:"blocked"`
	Versions  map[string]int64 `json:"versions"`
}

// Spool appends check records to a JSON-lines file and hands them out in
// batches: a batch is moved to outbox/<batch_id>.jsonl before it is sent, so
// a retry after a failure or a restart sends the same batch_id again and the
// court keeps it once.
type Spool struct {
	Path   string
	Device string

	mu      sync.Mutex
	pending int
}

// Append adds r to the spool file (one line, synced by the OS on close).
func (s *Spool) Append(r Record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := os.OpenFile(s.Path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.Write(append(b, '\n'))
	if err == nil {
		s.pending++
	}
	return err
}

// Pending is the number of records appended since the agent started and
// not yet moved to a batch.
func (s *Spool) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pending
}

func (s *Spool) outbox() string { return filepath.Join(filepath.Dir(s.Path), "outbox") }

// cut moves the spool file to a new batch in the outbox and returns the
// batches waiting, oldest first.
func (s *Spool) cut() ([]string, error) {
	if err := os.MkdirAll(s.outbox(), 0o700); err != nil {
		return nil, err
	}
	s.mu.Lock()
	if st, err := os.Stat(s.Path); err == nil && st.Size() > 0 {
		id := make([]byte, 16)
		_, _ = rand.Read(id)
		name := fmt.Sprintf("%020d-%s.jsonl", time.Now().UnixNano(), hex.EncodeToString(id))
		if err := os.Rename(s.Path, filepath.Join(s.outbox(), name)); err != nil {
			s.mu.Unlock()
			return nil, err
		}
		s.pending = 0
	}
	s.mu.Unlock()
	names, err := filepath.Glob(filepath.Join(s.outbox(), "*.jsonl"))
	sort.Strings(names)
	return names, err
}

// checkBatch is the body of POST /api/v1/blocklist/checks.
type checkBatch struct {
	BatchID string        `json:"batch_id"`
	Device  string        `json:"device"`
	Records []batchRecord `json:"records"`
}

type batchRecord struct {
	CPF       string    `json:"cpf"`
	CheckedAt time.Time `json:"checked_at"`
	Version   int64     `json:"version"`
	Blocked   bool      `json:"blocked"`
}

// Upload sends every waiting batch to every court (POST
// /api/v1/blocklist/checks with the club token), each record with that
// court's version; a batch leaves the outbox once every court took it.
func (a *Agent) Upload(ctx context.Context) error {
	if a.spool == nil {
		return nil
	}
	names, err := a.spool.cut()
	if err != nil {
		return err
	}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return err
		}
		var recs []Record
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var r Record
			if json.Unmarshal(sc.Bytes(), &r) == nil { // a line cut by a crash is skipped
				recs = append(recs, r)
			}
		}
		id := strings.TrimSuffix(filepath.Base(n), ".jsonl")
		all := true
		for _, c := range a.Courts {
			mark := n + "." + KeyID([]byte(c.URL)) + ".sent"
			if _, err := os.Stat(mark); err == nil {
				continue
			}
			st := c.Status()
			body := checkBatch{BatchID: id, Device: a.Config.Device, Records: make([]batchRecord, 0, len(recs))}
			for _, r := range recs {
				body.Records = append(body.Records, batchRecord{CPF: r.CPF, CheckedAt: r.CheckedAt, Version: r.Versions[st.Court], Blocked: r.Blocked})
			}
			if err := c.postChecks(ctx, body); err != nil {
				all = false
				continue
			}
			_ = os.WriteFile(mark, nil, 0o600)
		}
		if !all {
			return fmt.Errorf("gate: batch %s not taken by every court", id)
		}
		matches, _ := filepath.Glob(n + ".*.sent")
		for _, m := range matches {
			_ = os.Remove(m)
		}
		_ = os.Remove(n)
	}
	return nil
}

func (c *Court) postChecks(ctx context.Context, body checkBatch) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL+"/api/v1/blocklist/checks", bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.Token)
	resp, err := c.Client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("gate: POST /api/v1/blocklist/checks: %s", resp.Status)
	}
	return nil
}
