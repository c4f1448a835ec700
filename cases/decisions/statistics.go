package decisions

import (
	"context"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/sanctions"
)

// The court's statistics of bans and sentences (issue 30 item 6; GET
// /api/v1/statistics): set-based aggregates of one court, no row of a
// person. A ban here is a ban the court decided (bans.group_ban_id IS
// NULL): a group's ban counts once, not once per member it reaches.

// DayCount is how many bans were in force on Day.
type DayCount struct {
	Day civil.Date
	N   int
}

// BansInForceOn returns, for each of days (civil dates in the court's
// zone, in ascending order), how many bans of court (TR.OOOO) were in
// force on it as the records stand now (sanctions.InForceThenSpanSQL: a
// ban lifted since counts on the days before its lifting; DOMAIN.md §3,
// Súmula 643 STJ), in the order of days. One pass over the court's bans:
// each ban's span of days in force falls between two of days
// (width_bucket), the count per pair of places is added up here.
func (s *Service) BansInForceOn(ctx context.Context, court string, days []civil.Date) ([]DayCount, error) {
	if len(days) == 0 {
		return nil, nil
	}
	list := make([]string, len(days))
	for i, d := range days {
		list[i] = d.String()
	}
	first, last := sanctions.InForceThenSpanSQL("b")
	var rows []struct {
		From, To, N int // the ban is in force on days[From:To]
	}
	arr := "string_to_array(?, ',')::date[]"
	err := db.Conn(ctx, s.DB).Raw(`
		SELECT width_bucket(x.first - 1, `+arr+`) AS "from", coalesce(width_bucket(x.last, `+arr+`), ?) AS "to", count(*) AS n
		  FROM (SELECT `+first+` AS first, `+last+` AS last FROM bans b WHERE b.court_code = ? AND b.group_ban_id IS NULL) x
		 WHERE x.first <= ?
		 GROUP BY 1, 2`, strings.Join(list, ","), strings.Join(list, ","), len(days), court, days[len(days)-1]).Scan(&rows).Error
	if err != nil {
		return nil, err
	}
	out := make([]DayCount, len(days))
	for i, d := range days {
		out[i].Day = d
	}
	for _, r := range rows {
		for j := r.From; j < min(r.To, len(days)); j++ {
			out[j].N += r.N
		}
	}
	return out, nil
}

// NewBans is how many bans the court decided in Month (YYYY-MM, in the
// court's zone, by the decision's instant bans.created_at) under Law
// (sanctions.Law*: the law of the date of the facts) from Source (the
// decision: sentence, plea_agreement, conditional_suspension,
// civil_judgment, settlement, precautionary_order).
type NewBans struct {
	Month  string
	Law    string
	Source string
	N      int
}

// NewBansSince returns the bans court (TR.OOOO) decided from the first
// instant of from (a civil date in zone, an IANA name: America/Sao_Paulo)
// on, by month, law and source, in that order.
func (s *Service) NewBansSince(ctx context.Context, court string, from civil.Date, zone string) ([]NewBans, error) {
	var rows []NewBans
	err := db.Conn(ctx, s.DB).Raw(`
		SELECT to_char(b.created_at AT TIME ZONE ?, 'YYYY-MM') AS month, b.law, b.source, count(*) AS n
		  FROM bans b
		 WHERE b.court_code = ? AND b.group_ban_id IS NULL AND b.created_at >= (?::date)::timestamp AT TIME ZONE ?
		 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`, zone, court, from.String(), zone).Scan(&rows).Error
	return rows, err
}

// BansInForceByClub returns how many bans of court (TR.OOOO) are in force
// on day (sanctions.InForceCond) by the home club of the event of the
// ban's case (cases.home_team; "" when the case names none), most first.
func (s *Service) BansInForceByClub(ctx context.Context, court string, day civil.Date) ([]cases.StatCount, error) {
	in := sanctions.InForceCond("b", day)
	var rows []cases.StatCount
	err := db.Conn(ctx, s.DB).Raw(`
		SELECT c.home_team AS key, count(*) AS n
		  FROM bans b JOIN cases c ON c.id = b.case_id
		 WHERE b.court_code = ? AND b.group_ban_id IS NULL AND `+in.SQL+`
		 GROUP BY 1 ORDER BY 2 DESC, 1`, append([]any{court}, in.Args...)...).Scan(&rows).Error
	return rows, err
}

// MedianDaysToSentence returns the median of the days from the filing of
// the case (cases.filed_at) to each defendant's first signed sentence
// (sentences.signed_at; a precautionary decision is not a sentence), both
// as dates in zone (an IANA name), over the defendants of court's cases
// sentenced so far (Lei 9.099/1995, art. 81).
func (s *Service) MedianDaysToSentence(ctx context.Context, court, zone string) (cases.MedianDays, error) {
	var m cases.MedianDays
	err := db.Conn(ctx, s.DB).Raw(`
		SELECT count(*) AS n, coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY x.days), 0) AS days
		  FROM (SELECT DISTINCT ON (s.defendant_id)
		               (s.signed_at AT TIME ZONE ?)::date - (c.filed_at AT TIME ZONE ?)::date AS days
		          FROM sentences s JOIN cases c ON c.id = s.case_id
		         WHERE c.court_code = ? AND s.signed_at IS NOT NULL AND s.outcome <> 'precautionary'
		         ORDER BY s.defendant_id, s.signed_at) x`, zone, zone, court).Scan(&m).Error
	return m, err
}
