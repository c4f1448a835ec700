package sanctions

import (
	"strings"

	"github.com/juizado/juizado/internal/civil"
)

// "In force on a day", spelled once (issue 18, point 3; DOMAIN.md §3: a ban
// is in force from the first instant of its first day to the end of its
// last, in the court's zone; a ban awaiting the final judgment is not,
// Súmula 643 STJ). Each term of the rule is written here once as a Go test
// on a Ban and as the SQL on table bans that says the same; Ban.InForce,
// Ban.State, InForceCond, UpcomingCond and InForceOrToStartCond are all
// built from these terms, and inforce_test.go checks on PostgreSQL that
// the Go and the SQL agree on every edge (first day, last day, the day
// after, not started, awaiting_final, lifted, precautionary).

// inForceTerm is one term of the rule: sql uses {b} for the column prefix
// (the table alias and a dot, or nothing) and {day} for the day.
type inForceTerm struct {
	sql   string
	holds func(b Ban, day civil.Date) bool
}

var (
	// inForceRuns: the stored status is the one of a ban that runs its
	// term (not awaiting the final judgment, lifted, replaced, reformed,
	// annulled, converted or undone).
	inForceRuns = inForceTerm{"{b}status = 'active'",
		func(b Ban, _ civil.Date) bool { return b.Status == StatusActive }}
	// inForceStarted: the first day has come (a ban with no first day yet
	// has not started).
	inForceStarted = inForceTerm{"{b}first_day <= {day}",
		func(b Ban, day civil.Date) bool { return b.FirstDay != nil && !day.Before(*b.FirstDay) }}
	// inForceNotEnded: the last day has not passed (no last day: a
	// precautionary ban, until lifted).
	inForceNotEnded = inForceTerm{"({b}last_day IS NULL OR {b}last_day >= {day})",
		func(b Ban, day civil.Date) bool { return b.LastDay == nil || !day.After(*b.LastDay) }}

	inForceRule = []inForceTerm{inForceRuns, inForceStarted, inForceNotEnded}
)

// InForce reports whether the ban is in force on day (a civil date in the
// court's zone): its status runs (active), the first day has come and the
// last day has not passed (no last day: a precautionary ban, until
// lifted). A ban awaiting the final judgment is not in force. The SQL of
// the same rule is InForceCond.
func (b Ban) InForce(day civil.Date) bool {
	for _, t := range inForceRule {
		if !t.holds(b, day) {
			return false
		}
	}
	return true
}

// UpcomingDays is how far ahead the blocklist publishes bans that have not
// started yet: a ban is upcoming on today when its first day is after
// today and no later than today + UpcomingDays (../shared/API.md "Gate
// agent": an agent offline for up to 7 days still starts each ban on its
// first day).
const UpcomingDays = 7

// Upcoming reports whether the ban will be in force from a first day that
// is after today and no later than today + UpcomingDays: it is in force on
// its own first day (so it runs, and is not awaiting the final judgment)
// and that day falls in the window. The SQL is UpcomingCond.
func (b Ban) Upcoming(today civil.Date) bool {
	if b.FirstDay == nil || !b.FirstDay.After(today) || b.FirstDay.After(today.AddDays(UpcomingDays)) {
		return false
	}
	return b.InForce(*b.FirstDay)
}

// InForceOrToStart reports whether the ban is in force on day or will be
// on a later day without a new decision: in force on the later of day and
// its first day (the certificate of ban status lists these). The SQL is
// InForceOrToStartCond.
func (b Ban) InForceOrToStart(day civil.Date) bool {
	d := day
	if b.FirstDay != nil && b.FirstDay.After(day) {
		d = *b.FirstDay
	}
	return b.InForce(d)
}

// Cond is an SQL condition on table bans (or an alias of it) with its
// arguments, in order: q.Where(c.SQL, c.Args...) or, in raw SQL, the
// condition's text with its arguments where its placeholders (?) fall.
type Cond struct {
	SQL  string
	Args []any
}

// inForceSQL writes the in-force rule for the day expression dayExpr (a
// placeholder "?" or a SQL expression) on the columns of alias ("" for
// none), with one argument per occurrence of dayExpr when arg is not nil.
func inForceSQL(alias, dayExpr string, arg any) Cond {
	prefix := ""
	if alias != "" {
		prefix = alias + "."
	}
	var c Cond
	parts := make([]string, len(inForceRule))
	for i, t := range inForceRule {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(t.sql, "{b}", prefix), "{day}", dayExpr)
		if arg != nil {
			for range strings.Count(t.sql, "{day}") {
				c.Args = append(c.Args, arg)
			}
		}
	}
	c.SQL = "(" + strings.Join(parts, " AND ") + ")"
	return c
}

// InForceCond is Ban.InForce on day as an SQL condition on the columns of
// alias ("" for the bare columns of bans), in parentheses: (status =
// 'active' AND first_day <= day AND (last_day IS NULL OR last_day >= day)).
func InForceCond(alias string, day civil.Date) Cond { return inForceSQL(alias, "?", day) }

// UpcomingCond is Ban.Upcoming on today as an SQL condition on the columns
// of alias: in force on its own first day, and that first day after today
// and no later than today + UpcomingDays.
func UpcomingCond(alias string, today civil.Date) Cond {
	prefix := ""
	if alias != "" {
		prefix = alias + "."
	}
	c := inForceSQL(alias, prefix+"first_day", nil)
	c.SQL = "(" + c.SQL + " AND " + prefix + "first_day > ? AND " + prefix + "first_day <= ?)"
	c.Args = []any{today, today.AddDays(UpcomingDays)}
	return c
}

// InForceOrToStartCond is Ban.InForceOrToStart on day as an SQL condition
// on the columns of alias: in force on GREATEST(day, first_day).
func InForceOrToStartCond(alias string, day civil.Date) Cond {
	prefix := ""
	if alias != "" {
		prefix = alias + "."
	}
	return inForceSQL(alias, "GREATEST(CAST(? AS date), "+prefix+"first_day)", day)
}

// inForceRanThen: the stored status runs, or the ban ran and was stopped
// after the day (lifted, replaced by the final ban or converted: in force
// until the day before lifted_on). A ban awaiting the final judgment,
// reformed, annulled or undone never ran on a past day as it stands now.
const inForceRanThen = "({b}status = 'active' OR ({b}status IN ('lifted', 'replaced', 'converted') AND {b}lifted_on > {day}))"

// InForceThenSQL is "in force on a past day" as the record stands now, as
// SQL text on the columns of alias ("" for none) for the day expression
// dayExpr (a SQL expression of type date, e.g. a column of a series of
// days; it carries no argument): InForceCond's rule, but a ban lifted,
// replaced or converted since counts on the days before its lifted_on
// (DOMAIN.md §3; the statistics of bans in force over time, issue 30
// item 6). On today it says what InForceCond says of a ban not lifted
// after today.
func InForceThenSQL(alias, dayExpr string) string {
	prefix := ""
	if alias != "" {
		prefix = alias + "."
	}
	parts := []string{strings.ReplaceAll(strings.ReplaceAll(inForceRanThen, "{b}", prefix), "{day}", dayExpr)}
	for _, t := range inForceRule {
		if t.sql == inForceRuns.sql {
			continue
		}
		parts = append(parts, strings.ReplaceAll(strings.ReplaceAll(t.sql, "{b}", prefix), "{day}", dayExpr))
	}
	return "(" + strings.Join(parts, " AND ") + ")"
}

// InForceThenSpanSQL is InForceThenSQL as the span of days in force: SQL
// expressions on the columns of alias ("" for none) for the first day (NULL
// when the ban never ran: awaiting the final judgment, reformed, annulled,
// undone, or stopped with no lifted_on) and the last day (NULL while it has
// no end: a precautionary ban until lifted). A ban was in force on day d as
// the records stand now exactly when first <= d AND (last IS NULL OR last
// >= d); TestInForceThenSQL checks both forms agree. A count over many days
// reads each ban once with it (the statistics of bans in force over time).
func InForceThenSpanSQL(alias string) (first, last string) {
	b := ""
	if alias != "" {
		b = alias + "."
	}
	first = "(CASE WHEN " + b + "status = 'active' OR (" + b + "status IN ('lifted', 'replaced', 'converted') AND " + b + "lifted_on IS NOT NULL) THEN " + b + "first_day END)"
	last = "(CASE WHEN " + b + "status = 'active' THEN " + b + "last_day ELSE least(" + b + "last_day, " + b + "lifted_on - 1) END)"
	return first, last
}
