package sanctions

import (
	"sort"
	"time"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/textcheck"
)

// DefaultMatchDuration is how long a match lasts when neither the schedule
// nor the competition's setting says otherwise: kick-off plus 2 hours
// (../shared/fixtures: "a match is taken to end 2 hours after kick-off").
const DefaultMatchDuration = 2 * time.Hour

// ReportingMargin is the time before kick-off and after the end of a match
// during which the person must stay at the place the judge names (Lei
// 14.597/2023, art. 201, § 4º; Lei 10.671/2003, art. 41-B, § 4º: "2 (duas)
// horas antecedentes e 2 (duas) horas posteriores").
const ReportingMargin = 2 * time.Hour

// Match is one match of a schedule the court imports. Kickoff is an instant
// (the local kick-off time read in the venue's time zone); Duration is the
// match's length (0 means DefaultMatchDuration).
type Match struct {
	ID          int64
	Competition string
	Round       string
	Home, Away  string
	Venue       string
	Kickoff     time.Time
	Duration    time.Duration
}

// End returns the instant the match is taken to end: Kickoff + Duration.
func (m Match) End() time.Time {
	d := m.Duration
	if d <= 0 {
		d = DefaultMatchDuration
	}
	return m.Kickoff.Add(d)
}

// Duty names whose matches bring the reporting duty (art. 201, § 4º): a
// club (its home and away matches) or a competition (all its matches).
// Names compare ignoring case, accents and repeated spaces. Exactly one is
// set; with neither, no match qualifies.
type Duty struct {
	Club, Competition string
}

// Term is a ban's term in civil dates of the court's zone: from the first
// instant of First to the end of Last; Last nil for a precautionary ban in
// force until lifted (CPP art. 319, II).
type Term struct {
	First civil.Date
	Last  *civil.Date
}

// Bounds returns the term as instants in loc: [start, end), end the zero
// time when the term has no last day.
func (t Term) Bounds(loc *time.Location) (start, end time.Time) {
	start = t.First.Start(loc)
	if t.Last != nil {
		end = t.Last.AddDays(1).Start(loc)
	}
	return start, end
}

// Window is the period of one match during which the reporting duty runs:
// from ReportingMargin before kick-off to ReportingMargin after the match's
// end, as one window even when it crosses midnight. Clipped is true when
// the window was cut to the ban's term (a kick-off near the first day's
// midnight or late on the last day): the duty never outlives the ban.
type Window struct {
	Match      Match
	Start, End time.Time
	Clipped    bool
}

// ReportingWindows returns the windows of the reporting duty of a ban with
// term in the court's zone loc (Lei 14.597/2023, art. 201, § 4º; Lei
// 10.671/2003, art. 41-B, § 4º): one per match of matches that involves
// duty.Club (home or away) or belongs to duty.Competition and whose kick-off
// falls within the term; each window runs from 2 hours before kick-off to 2
// hours after the match's end (Match.End), cut to the term's bounds.
// Windows are ordered by start, then match id; the result is never nil.
func ReportingWindows(matches []Match, duty Duty, term Term, loc *time.Location) []Window {
	out := []Window{}
	club, comp := textcheck.Fold(duty.Club), textcheck.Fold(duty.Competition)
	if club == "" && comp == "" {
		return out
	}
	start, end := term.Bounds(loc)
	for _, m := range matches {
		if club != "" && textcheck.Fold(m.Home) != club && textcheck.Fold(m.Away) != club {
			continue
		}
		if club == "" && textcheck.Fold(m.Competition) != comp {
			continue
		}
		if m.Kickoff.Before(start) || (!end.IsZero() && !m.Kickoff.Before(end)) {
			continue
		}
		w := Window{Match: m, Start: m.Kickoff.Add(-ReportingMargin), End: m.End().Add(ReportingMargin)}
		if w.Start.Before(start) {
			w.Start, w.Clipped = start, true
		}
		if !end.IsZero() && w.End.After(end) {
			w.End, w.Clipped = end, true
		}
		out = append(out, w)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Start.Equal(out[j].Start) {
			return out[i].Start.Before(out[j].Start)
		}
		return out[i].Match.ID < out[j].Match.ID
	})
	return out
}
