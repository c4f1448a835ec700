package blocklist

import (
	"context"
	"slices"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/textcheck"
	"github.com/juizado/juizado/sanctions"
)

// Applicable narrows a CPF's bans in force (Check, or the check index) to
// those that apply today at a gate guarding venueIDs (ids of the venue
// table; ../shared/API.md "Scope and match terms"):
//
//   - a ban counted in matches blocks only on its match days;
//   - a ban without scope (every statutory ban) blocks at every venue;
//   - a scoped ban blocks at the venues it names, and at the venues of the
//     home matches of the clubs it names. "A club's home matches" is read
//     from the ban's court's imported schedule: where that schedule has a
//     match at the venue today, the ban blocks when the home team of one of
//     those matches is a club it names (a stadium two clubs share blocks on
//     the named club's days only); where the schedule has no match there
//     today, it blocks when the venue is one of the named club's home
//     venues in the schedule (any match day), so a gate is never left open
//     by a schedule that does not list every event.
//
// With no venueIDs (a gate that said none, of a club with no home venue in
// any schedule) the venue is unknown and every ban in force blocks, as
// before scopes existed: a gate that cannot say where it stands is not
// told to let a banned person in.
func (l *Lists) Applicable(ctx context.Context, bans []CheckBan, venueIDs []int64) ([]CheckBan, error) {
	today := l.today()
	out := []CheckBan{}
	for _, b := range bans {
		if b.MatchDays != nil && !sanctions.DayList(b.MatchDays).Has(today) {
			continue
		}
		ok, err := l.appliesAt(ctx, b.Scope, b.Court, venueIDs, today)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, b)
		}
	}
	return out, nil
}

func (l *Lists) appliesAt(ctx context.Context, sc *sanctions.Scope, court string, venueIDs []int64, day civil.Date) (bool, error) {
	if sc == nil || len(venueIDs) == 0 {
		return true, nil
	}
	for _, v := range venueIDs {
		if slices.Contains(sc.VenueIDs, v) {
			return true, nil
		}
	}
	if len(sc.Clubs) == 0 {
		return false, nil
	}
	g := db.Conn(ctx, l.DB)
	for _, v := range venueIDs {
		var homes []string
		if err := g.Raw(`SELECT home FROM matches WHERE court_code = ? AND venue_id = ? AND match_date = ? AND NOT cancelled`,
			court, v, day).Scan(&homes).Error; err != nil {
			return false, err
		}
		if len(homes) > 0 {
			for _, h := range homes {
				for _, c := range sc.Clubs {
					if textcheck.Fold(h) == textcheck.Fold(c) {
						return true, nil
					}
				}
			}
			continue
		}
		for _, c := range sc.Clubs {
			var n int64
			if err := g.Raw(`SELECT count(*) FROM matches WHERE court_code = ? AND venue_id = ? AND f_unaccent(home) = f_unaccent(?)`,
				court, v, c).Scan(&n).Error; err != nil {
				return false, err
			}
			if n > 0 {
				return true, nil
			}
		}
	}
	return false, nil
}

// ClubVenues returns the ids of the venues where club plays at home in any
// court's imported schedule (case and accents ignored): the venues a club's
// token belongs to when its gate names none.
func (l *Lists) ClubVenues(ctx context.Context, club string) ([]int64, error) {
	var ids []int64
	err := db.Conn(ctx, l.DB).Raw(`SELECT DISTINCT venue_id FROM matches WHERE f_unaccent(home) = f_unaccent(?) ORDER BY 1`, club).Scan(&ids).Error
	return ids, err
}
