package api

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// BlocklistMetrics registers the gauges of the blocklist this instance
// serves (issue 10): its version, entries and when it was made, how many
// versions committed in the database it has not served yet (the feed's lag
// at this instance: 0 when up to date), and the CPF checks waiting to be
// written to the check log. Read at scrape time; before the first
// blocklist request of the process the served version is 0.
func (s *API) BlocklistMetrics(reg prometheus.Registerer) {
	served := func() *preparedList {
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
