package blocklist

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Publisher serves the court's blocklist to the gates: the snapshot
// prepared and signed once per version (Prepared), the signed pages of the
// change feed and their long-poll (SignedChanges, AwaitVersion), the
// refresh ticker (Run), the log of the gates' CPF checks (LogCheck) and
// the metrics of what this process serves (Metrics). ../shared/API.md
// "Public list and blocklist"; DOMAIN.md §6.
//
// Make it with NewPublisher; it is safe for concurrent use.
type Publisher struct {
	// Lists reads the bans in force and makes the versions.
	Lists *Lists
	// Keys signs the bodies (JUIZADO_KEY_DIR, or EphemeralKeyRing).
	Keys *KeyRing
	// Court is the code (TR.OOOO) of the court this deployment serves
	// (JUIZADO_COURT), written in the snapshot; "" for none.
	Court string
	// Logger receives the ticker's errors.
	Logger *slog.Logger

	bl       blocklistCache
	checkLog *CheckLog
}

// NewPublisher makes the publisher of l's blocklist signed with keys and
// tells l to report the versions it makes (Lists.OnVersion), so that the
// next read after a sentence serves the new version at once.
func NewPublisher(l *Lists, keys *KeyRing, court string, logger *slog.Logger) *Publisher {
	if logger == nil {
		logger = slog.Default()
	}
	p := &Publisher{Lists: l, Keys: keys, Court: court, Logger: logger}
	l.OnVersion = p.NoteVersion
	return p
}

// now is the court's clock (Lists.Clock).
func (s *Publisher) now() time.Time { return s.Lists.Clock.Now() }

// SignedChanges returns the page of the change feed after version since
// (Lists.Changes: at most limit changes, continuing from cursor) as JSON,
// signed with the current key. Errors are Lists.Changes's.
func (s *Publisher) SignedChanges(ctx context.Context, since int64, limit int, cursor string) (*Body, error) {
	page, err := s.Lists.Changes(ctx, since, limit, cursor)
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(page)
	if err != nil {
		return nil, err
	}
	kid, sig, err := s.Keys.Sign(body)
	if err != nil {
		return nil, err
	}
	return &Body{Body: body, ContentType: "application/json", KeyID: kid, Sig: sig}, nil
}

// AwaitVersion returns as soon as a version after since is committed (read
// every 100 ms from the database, so a commit by another server sharing it
// is seen too), when wait ends, or when ctx ends (the caller then sees
// ctx.Err()). A since above the current version returns at once (Changes
// refuses it).
func (s *Publisher) AwaitVersion(ctx context.Context, since int64, wait time.Duration) error {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		v, err := s.Lists.Latest(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if v.Version != since {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-deadline.C:
			return nil
		case <-tick.C:
			// A new day: the midnight version is made before the page.
			if err := s.FeedDay(ctx); err != nil {
				return err
			}
		}
	}
}

// StartCheckLog makes l the gates' check log, kept on disk under spoolDir
// while the database is unreachable ("" for memory only).
func (s *Publisher) StartCheckLog(l *CheckLog, spoolDir string) {
	s.checkLog = l
	if spoolDir != "" {
		l.SpoolTo(filepath.Join(spoolDir, "blocklist-checks.jsonl"))
	}
}

// LogCheck queues a CPF check for the check log (DOMAIN.md §6: each read
// is logged); without a check log it does nothing.
func (s *Publisher) LogCheck(r CheckRecord) {
	if s.checkLog != nil {
		s.checkLog.Log(r)
	}
}

// Close writes the CPF checks still queued.
func (s *Publisher) Close() {
	if s.checkLog != nil {
		s.checkLog.Close()
	}
}

// Run refreshes the blocklist every interval until ctx ends,
// so that a ban starting or ending at midnight (America/Sao_Paulo) makes a
// new version within a minute with nobody acting, and prepares its bodies.
func (s *Publisher) Run(ctx context.Context, interval time.Duration) {
	var lastPrune time.Time
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := s.Lists.Refresh(ctx); err != nil {
				if ctx.Err() == nil {
					s.Logger.Error("blocklist refresh", "err", err.Error())
				}
				continue
			}
			if _, err := s.Prepared(ctx); err != nil && ctx.Err() == nil {
				s.Logger.Error("blocklist prepare", "err", err.Error())
			}
			if now := s.now(); now.Sub(lastPrune) > time.Hour {
				lastPrune = now
				if err := s.Lists.PruneFeedOlderThan(ctx, now.Add(-FeedRetention)); err != nil && ctx.Err() == nil {
					s.Logger.Error("blocklist feed prune", "err", err.Error())
				}
			}
		}
	}
}

// Metrics registers the gauges of the blocklist this instance
// serves (issue 10): its version, entries and when it was made, how many
// versions committed in the database it has not served yet (the feed's lag
// at this instance: 0 when up to date), and the CPF checks waiting to be
// written to the check log. Read at scrape time; before the first
// blocklist request of the process the served version is 0.
func (s *Publisher) Metrics(reg prometheus.Registerer) {
	served := func() *Prepared {
		if st := s.bl.state.Load(); st != nil {
			return st.p
		}
		return nil
	}
	gauge := func(name, help string, f func() float64) prometheus.GaugeFunc {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: "juizado", Subsystem: "blocklist", Name: name, Help: help}, f)
	}
	reg.MustRegister(
		gauge("version", "Blocklist version served by this instance.", func() float64 {
			if p := served(); p != nil {
				return float64(p.Version)
			}
			return 0
		}),
		gauge("entries", "Entries (bans in force with a CPF) of the version served.", func() float64 {
			if p := served(); p != nil {
				return float64(p.entries)
			}
			return 0
		}),
		gauge("generated_timestamp_seconds", "When the version served was made (Unix time).", func() float64 {
			if p := served(); p != nil {
				return float64(p.GeneratedAt.Unix())
			}
			return 0
		}),
		gauge("feed_lag_versions", "Versions committed in the database that this instance does not serve yet (-1: the database cannot be read).", func() float64 {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			v, err := s.Lists.Latest(ctx)
			if err != nil {
				return -1
			}
			var have int64
			if p := served(); p != nil {
				have = p.Version
			}
			return float64(max(v.Version-have, 0))
		}),
		gauge("check_log_pending", "CPF checks waiting to be written to the check log.", func() float64 {
			if s.checkLog == nil {
				return 0
			}
			return float64(s.checkLog.Pending())
		}),
	)
}
