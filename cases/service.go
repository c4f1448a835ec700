package cases

import (
	"context"
	"time"

	"github.com/juizado/juizado/internal/clock"
	"gorm.io/gorm"
)

// Service runs the case use cases, one transaction each.
type Service struct {
	DB    *gorm.DB
	Clock clock.Clock
	// Loc is the court's time zone for legal dates (America/Sao_Paulo).
	Loc *time.Location
	// Blocklist is told, inside the transaction of each write that changes
	// bans (a sentence, a final judgment, a lift, a breach, ...), which bans
	// changed: registry.Lists.RefreshBans makes the blocklist version. Nil
	// skips it.
	Blocklist interface {
		RefreshBans(ctx context.Context, banIDs ...int64) error
	}
	heads headStats // name search: frequencies of name_heads.head
}

// now is the service's "now": the injected clock, or the system's.
func (s *Service) now() time.Time {
	if s.Clock == nil {
		return time.Now()
	}
	return s.Clock.Now()
}
