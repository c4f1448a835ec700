package cases

import (
	"context"
	"errors"
	"time"

	"github.com/juizado/juizado/internal/clock"
	"gorm.io/gorm"
)

// Blocklist is told, inside the transaction of each write that changes
// bans (a sentence, a final judgment, a lift, a breach, ...), which bans
// changed: blocklist.Lists.RefreshBans makes the blocklist version.
type Blocklist interface {
	RefreshBans(ctx context.Context, banIDs ...int64) error
}

// Core is what every part of cases shares: the database, the clock, the
// court's time zone and the blocklist publisher, with the case's lock, its
// status and version, and its docket movements. Each part's Service embeds
// it; NewCore builds it once (internal/app).
type Core struct {
	DB    *gorm.DB
	Clock clock.Clock
	// Loc is the court's time zone for legal dates (America/Sao_Paulo).
	Loc *time.Location
	// Blocklist is told which bans each write changed (never nil).
	Blocklist Blocklist
}

// NewCore checks and returns the shared core of the case services: the
// database, the court's zone and the blocklist publisher are required (a
// nil one is an error, so that no write that changes bans skips the
// blocklist); a nil clock is the system's.
func NewCore(g *gorm.DB, clk clock.Clock, loc *time.Location, bl Blocklist) (Core, error) {
	switch {
	case g == nil:
		return Core{}, errors.New("cases: no database")
	case loc == nil:
		return Core{}, errors.New("cases: no time zone for the court's dates")
	case bl == nil:
		return Core{}, errors.New("cases: no blocklist publisher: every write that changes bans refreshes the blocklist")
	}
	if clk == nil {
		clk = clock.System{}
	}
	return Core{DB: g, Clock: clk, Loc: loc, Blocklist: bl}, nil
}

// Service runs the use cases of the case itself, one transaction each:
// filing (Lei 9.099/1995, arts. 77 and 78; CNJ numbers, Res. CNJ 65/2008)
// and distribution, the docket and the workflow of statuses, hearings,
// evidence, and the reads of its parties' other records.
type Service struct {
	Core
	// Days is the court's own calendar hearings are checked against
	// (cases/calendar.Service; nil: the national holidays alone).
	Days CourtCalendar
}

// New returns the case service over core.
func New(core Core) *Service { return &Service{Core: core} }

// Now is the service's "now": the injected clock, or the system's.
func (s *Core) Now() time.Time {
	if s.Clock == nil {
		return time.Now()
	}
	return s.Clock.Now()
}

// RefreshBlocklist makes the blocklist version of a write that changed the
// bans banIDs, in the write's transaction (blocklist.Lists.RefreshBans).
func (s *Core) RefreshBlocklist(ctx context.Context, banIDs ...int64) error {
	return s.Blocklist.RefreshBans(ctx, banIDs...)
}
