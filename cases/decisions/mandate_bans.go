package decisions

import (
	"context"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/sanctions"
)

// MandateBans returns, by id, the persons' bans of court that the BNMP
// mandates follow (Res. CNJ 417/2021, arts. 18 to 21; cases/bnmp): those
// that have started or have a first day fixed and still run on day from
// (active, with no last day or a last day on or after from), and the bans
// listed in also whatever their state (the bans with mandates, whose end
// before the term is a revocation). A group's ban is left out: its
// members' bans carry their mandates.
func (s *Service) MandateBans(ctx context.Context, court string, from civil.Date, also []int64) ([]sanctions.Ban, error) {
	if also == nil {
		also = []int64{}
	}
	var out []sanctions.Ban
	err := db.Conn(ctx, s.DB).Where(`court_code = ? AND subject = 'person' AND first_day IS NOT NULL AND (
			(status = 'active' AND (last_day IS NULL OR last_day >= ?)) OR id IN ?)`, court, from, append(also, 0)).
		Order("id").Find(&out).Error
	return out, err
}
