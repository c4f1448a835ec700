package cases

import (
	"context"

	"github.com/juizado/juizado/internal/db"
)

// The court's statistics of cases (issue 30 item 6; GET
// /api/v1/statistics): set-based aggregates of one court, no row of a
// person.

// StatCount is how many cases (or defendants) had Key.
type StatCount struct {
	Key string
	N   int
}

// CasesByStatus returns how many cases of court (TR.OOOO) are in each
// status (Status*: the stage of the case, StatusPT names it), most first.
func (s *Service) CasesByStatus(ctx context.Context, court string) ([]StatCount, error) {
	var rows []StatCount
	err := db.Conn(ctx, s.DB).Raw(`SELECT status AS key, count(*) AS n FROM cases WHERE court_code = ?
		GROUP BY status ORDER BY 2 DESC, 1`, court).Scan(&rows).Error
	return rows, err
}

// CasesByHomeClub returns how many cases of court (TR.OOOO) were filed by
// the home club of their event (cases.home_team; "" when the case names
// none), most first.
func (s *Service) CasesByHomeClub(ctx context.Context, court string) ([]StatCount, error) {
	var rows []StatCount
	err := db.Conn(ctx, s.DB).Raw(`SELECT home_team AS key, count(*) AS n FROM cases WHERE court_code = ?
		GROUP BY home_team ORDER BY 2 DESC, 1`, court).Scan(&rows).Error
	return rows, err
}

// MedianDays is the median of N values in days; Days is meaningless when
// N is 0.
type MedianDays struct {
	N    int
	Days float64
}

// MedianDaysToFinal returns the median of the days from the filing of the
// case (cases.filed_at, as a date in zone, an IANA name) to each
// defendant's final judgment (defendants.final_on, the trânsito em
// julgado; CPP art. 283, Súmula 643 STJ), over the defendants of court's
// cases whose judgment is final.
func (s *Service) MedianDaysToFinal(ctx context.Context, court, zone string) (MedianDays, error) {
	var m MedianDays
	err := db.Conn(ctx, s.DB).Raw(`
		SELECT count(*) AS n, coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY d.final_on - (c.filed_at AT TIME ZONE ?)::date), 0) AS days
		  FROM defendants d JOIN cases c ON c.id = d.case_id
		 WHERE c.court_code = ? AND d.final_on IS NOT NULL`, zone, court).Scan(&m).Error
	return m, err
}
