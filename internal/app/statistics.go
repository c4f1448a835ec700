package app

import (
	"context"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/registry/blocklist"
)

// The court's statistics (issue 30 item 6; ../shared/API.md "Court's
// desk": GET /api/v1/statistics): aggregates only, no personal data, every
// count from 1 to 4 suppressed ("<5"). The queries live in the owners of
// their tables (cases, cases/decisions); this file assembles them.

// MinShownCount is the smallest count the statistics show: a count from 1
// to MinShownCount-1 is suppressed (shown as "<5"), so that no figure
// points at a few people (LGPD, Lei 13.709/2018, art. 12: aggregate data
// is anonymous only when no one can be singled out). Zero is shown.
const MinShownCount = 5

// StatisticsMonths is how many months the series cover: the current month
// and the 11 before it.
const StatisticsMonths = 12

// StatisticsTTL is how long a court's statistics are served as computed
// before they are computed again (and never past the day they describe).
const StatisticsTTL = 5 * time.Minute

// Count is a count as published: N, or suppressed (1 to 4: JSON "<5",
// N zero so that nothing of it travels).
type Count struct {
	N          int
	Suppressed bool
}

// shown returns n as published: suppressed when 0 < n < MinShownCount.
func shown(n int) Count {
	if n > 0 && n < MinShownCount {
		return Count{Suppressed: true}
	}
	return Count{N: n}
}

// MarshalJSON writes the count as a JSON number, or the string "<5" when
// suppressed.
func (c Count) MarshalJSON() ([]byte, error) {
	if c.Suppressed {
		return []byte(`"<5"`), nil
	}
	return strconv.AppendInt(nil, int64(c.N), 10), nil
}

// String is the count for people: "<5" when suppressed, else the number
// with the Brazilian thousands separator (1.234).
func (c Count) String() string {
	if c.Suppressed {
		return "<5"
	}
	s := strconv.Itoa(c.N)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "." + s[i:]
	}
	return s
}

// Statistics are a court's figures on AsOf (a civil date in the court's
// zone), every count as published (Count).
type Statistics struct {
	// Court is the court's code (TR.OOOO), CourtName its name.
	Court     string     `json:"court"`
	CourtName string     `json:"court_name"`
	AsOf      civil.Date `json:"as_of"`
	// Months are the months of the series, oldest first (YYYY-MM).
	Months []string `json:"months"`
	// BansInForce is the number of bans in force at the end of each month
	// of Months (the last: on AsOf).
	BansInForce []DayFigure `json:"bans_in_force"`
	// NewBansByLaw and NewBansBySource are the bans decided in each month,
	// by the law of the date of the facts and by the decision's source
	// (sanctions.Source): every month × every key seen in the period.
	NewBansByLaw    []MonthFigure `json:"new_bans_by_law"`
	NewBansBySource []MonthFigure `json:"new_bans_by_source"`
	// ByClub is, per home club of the case's event, the cases filed and the
	// bans in force on AsOf; "" is a case that names no club.
	ByClub []ClubFigure `json:"by_club"`
	// CasesByStage is the cases in each status (cases.Status*).
	CasesByStage []StageFigure `json:"cases_by_stage"`
	// DaysToSentence and DaysToFinal are the medians of the days from the
	// filing to each defendant's first sentence and to his final judgment.
	DaysToSentence MedianFigure `json:"days_to_sentence"`
	DaysToFinal    MedianFigure `json:"days_to_final"`
}

// DayFigure is a count on a day of Month.
type DayFigure struct {
	Month string     `json:"month"`
	On    civil.Date `json:"on"`
	Count Count      `json:"count"`
}

// MonthFigure is the count of Key (a law or a source) in Month.
type MonthFigure struct {
	Month string `json:"month"`
	Key   string `json:"key"`
	Count Count  `json:"count"`
}

// ClubFigure is a home club's cases and bans in force.
type ClubFigure struct {
	Club        string `json:"club"`
	Cases       Count  `json:"cases"`
	BansInForce Count  `json:"bans_in_force"`
}

// StageFigure is the count of cases in Stage (cases.Status*).
type StageFigure struct {
	Stage string `json:"stage"`
	Count Count  `json:"count"`
}

// MedianFigure is a median in days over Count defendants; MedianDays is
// null when fewer than MinShownCount defendants count.
type MedianFigure struct {
	Count      Count    `json:"count"`
	MedianDays *float64 `json:"median_days"`
}

// statsCache holds each court's last statistics.
type statsCache struct {
	mu sync.Mutex
	m  map[string]*statsEntry
}

// statsEntry is one court's statistics and when they were computed. mu
// is held by the computation of an empty entry (its callers wait for it)
// and around every read and write of the fields; refreshing is set while
// a stale entry is computed again in the background.
type statsEntry struct {
	mu         sync.Mutex
	at         time.Time
	s          *Statistics
	refreshing bool
}

// statsRefreshTimeout bounds a background computation of the statistics.
const statsRefreshTimeout = 2 * time.Minute

// Statistics returns the statistics of court (TR.OOOO; "" the App's
// court, or the first court when the App has none) as of today in the
// court's zone, in one read-only snapshot. The first call for a court
// computes them (concurrent callers wait for that one computation); later
// calls answer the figures kept, and once they are older than
// StatisticsTTL or of an earlier day, one computation starts in the
// background and its figures replace them when done (stale while
// revalidating: no caller waits for the queries again). A code not shaped
// TR.OOOO is errs.Invalid on "court"; an unknown court errs.NotFound.
func (a *App) Statistics(ctx context.Context, court string) (*Statistics, error) {
	if court == "" {
		court = a.Court
	}
	if court == "" { // no configured court: the first one
		first, err := a.Cases.Case.FirstCourt(ctx)
		if err != nil {
			return nil, err
		}
		court = first
	}
	if !blocklist.ValidCourt(court) {
		return nil, errs.InvalidField("court", "court", "court deve ser um código TR.OOOO (por exemplo 26.0100).")
	}
	a.stats.mu.Lock()
	if a.stats.m == nil {
		a.stats.m = map[string]*statsEntry{}
	}
	e := a.stats.m[court]
	if e == nil {
		e = &statsEntry{}
		a.stats.m[court] = e
	}
	a.stats.mu.Unlock()

	e.mu.Lock()
	defer e.mu.Unlock()
	now := a.Clock.Now()
	today := civil.Today(now, a.Loc)
	if e.s != nil {
		fresh := e.s.AsOf == today && now.Sub(e.at) < StatisticsTTL && !now.Before(e.at)
		if !fresh && !e.refreshing {
			e.refreshing = true
			go a.refreshStatistics(court, e)
		}
		return e.s, nil
	}
	s, err := a.computeStatistics(ctx, court, today)
	if err != nil {
		return nil, err
	}
	e.at, e.s = now, s
	return s, nil
}

// refreshStatistics computes court's statistics again for e, in the
// background (its own context, bounded by statsRefreshTimeout); on an
// error e keeps its figures and the next call tries again.
func (a *App) refreshStatistics(court string, e *statsEntry) {
	ctx, cancel := context.WithTimeout(context.Background(), statsRefreshTimeout)
	defer cancel()
	now := a.Clock.Now()
	s, err := a.computeStatistics(ctx, court, civil.Today(now, a.Loc))
	e.mu.Lock()
	defer e.mu.Unlock()
	e.refreshing = false
	if err == nil {
		e.at, e.s = now, s
	}
}

// computeStatistics reads court's figures on today in one read-only
// repeatable-read transaction.
func (a *App) computeStatistics(ctx context.Context, court string, today civil.Date) (*Statistics, error) {
	s := &Statistics{Court: court, AsOf: today}
	days := make([]civil.Date, StatisticsMonths)
	first := civil.New(today.Year, today.Month, 1)
	for i := range StatisticsMonths {
		m := civil.New(first.Year, first.Month-time.Month(StatisticsMonths-1-i), 1)
		s.Months = append(s.Months, m.String()[:7])
		days[i] = civil.New(m.Year, m.Month, civil.DaysIn(m.Year, m.Month))
	}
	days[StatisticsMonths-1] = today
	from := civil.New(first.Year, first.Month-time.Month(StatisticsMonths-1), 1)
	zone := a.Loc.String()
	cs, dec := a.Cases.Case, a.Cases.Decisions
	err := db.WithSnapshot(ctx, a.db, func(ctx context.Context) error {
		name, err := cs.CourtName(ctx, court)
		if err != nil {
			return err
		}
		s.CourtName = name
		inForce, err := dec.BansInForceOn(ctx, court, days)
		if err != nil {
			return err
		}
		for i, d := range inForce {
			s.BansInForce = append(s.BansInForce, DayFigure{Month: s.Months[i], On: d.Day, Count: shown(d.N)})
		}
		nb, err := dec.NewBansSince(ctx, court, from, zone)
		if err != nil {
			return err
		}
		byLaw, bySource := map[[2]string]int{}, map[[2]string]int{}
		for _, r := range nb {
			byLaw[[2]string{r.Month, r.Law}] += r.N
			bySource[[2]string{r.Month, r.Source}] += r.N
		}
		s.NewBansByLaw, s.NewBansBySource = monthGrid(s.Months, byLaw), monthGrid(s.Months, bySource)
		if err := a.clubFigures(ctx, s, today); err != nil {
			return err
		}
		stages, err := cs.CasesByStatus(ctx, court)
		if err != nil {
			return err
		}
		for _, r := range stages {
			s.CasesByStage = append(s.CasesByStage, StageFigure{Stage: r.Key, Count: shown(r.N)})
		}
		toSentence, err := dec.MedianDaysToSentence(ctx, court, zone)
		if err != nil {
			return err
		}
		toFinal, err := cs.MedianDaysToFinal(ctx, court, zone)
		if err != nil {
			return err
		}
		s.DaysToSentence, s.DaysToFinal = medianFigure(toSentence), medianFigure(toFinal)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// clubFigures fills s.ByClub: the cases per home club and the bans in
// force on today, the clubs with most bans in force first, then most
// cases, then by name.
func (a *App) clubFigures(ctx context.Context, s *Statistics, today civil.Date) error {
	cs, err := a.Cases.Case.CasesByHomeClub(ctx, s.Court)
	if err != nil {
		return err
	}
	bans, err := a.Cases.Decisions.BansInForceByClub(ctx, s.Court, today)
	if err != nil {
		return err
	}
	type pair struct{ cases, bans int }
	by := map[string]*pair{}
	get := func(k string) *pair {
		if by[k] == nil {
			by[k] = &pair{}
		}
		return by[k]
	}
	for _, r := range cs {
		get(r.Key).cases += r.N
	}
	for _, r := range bans {
		get(r.Key).bans += r.N
	}
	clubs := make([]string, 0, len(by))
	for k := range by {
		clubs = append(clubs, k)
	}
	sort.Slice(clubs, func(i, j int) bool {
		p, q := by[clubs[i]], by[clubs[j]]
		if p.bans != q.bans {
			return p.bans > q.bans
		}
		if p.cases != q.cases {
			return p.cases > q.cases
		}
		return clubs[i] < clubs[j]
	})
	for _, k := range clubs {
		s.ByClub = append(s.ByClub, ClubFigure{Club: k, Cases: shown(by[k].cases), BansInForce: shown(by[k].bans)})
	}
	return nil
}

// monthGrid lays counts (by month and key) out as every month × every key
// seen, months in order, keys by name.
func monthGrid(months []string, counts map[[2]string]int) []MonthFigure {
	seen := map[string]bool{}
	for k := range counts {
		seen[k[1]] = true
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []MonthFigure
	for _, m := range months {
		for _, k := range keys {
			out = append(out, MonthFigure{Month: m, Key: k, Count: shown(counts[[2]string{m, k}])})
		}
	}
	return out
}

// medianFigure publishes m: its count, and its median only over
// MinShownCount values or more.
func medianFigure(m cases.MedianDays) MedianFigure {
	f := MedianFigure{Count: shown(m.N)}
	if m.N >= MinShownCount {
		d := m.Days
		f.MedianDays = &d
	}
	return f
}
