package sanctions

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
	_ "time/tzdata"

	"github.com/juizado/juizado/internal/civil"
)

var saoPaulo = func() *time.Location {
	l, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		panic(err)
	}
	return l
}()

// Great-circle distances against values that follow from the sphere (a
// degree of the equator, a quarter meridian, antipodes) and the fixtures'
// places (R1 in front of Arena Corinthians; R2 in Rua Haddock Lobo, about 3
// km from Maracanã, inside the 5,000 m of art. 201, § 1º, I).
func TestDistanceMeters_LGE_art_201_sec1_I_Haversine(t *testing.T) {
	R := EarthRadiusMeters
	for _, tc := range []struct {
		name                   string
		lat1, lon1, lat2, lon2 float64
		want, tol              float64
	}{
		{"same_point", -22.91216, -43.23018, -22.91216, -43.23018, 0, 1e-9},
		{"one_degree_of_equator", 0, 0, 0, 1, math.Pi * R / 180, 1e-6},
		{"one_degree_of_meridian", 10, 20, 11, 20, math.Pi * R / 180, 1e-6},
		{"quarter_meridian_equator_to_pole", 0, 0, 90, 0, math.Pi * R / 2, 1e-6},
		{"antipodes", 0, 0, 0, 180, math.Pi * R, 1e-6},
		{"antipodes_across_the_date_line", 10, 170, -10, -10, math.Pi * R, 1e-3},
		// R1: facts at (-23.546, -46.473), Arena Corinthians (-23.54531, -46.47423).
		{"R1_arena_corinthians", -23.546, -46.473, -23.54531, -46.47423, 146, 2},
		// R2: Rua Haddock Lobo (-22.931, -43.202), Maracanã (-22.91216, -43.23018).
		{"R2_haddock_lobo_maracana", -22.931, -43.202, -22.91216, -43.23018, 3_565, 10},
		// Maracanã to São Januário, about 2.4 km.
		{"maracana_sao_januario", -22.91216, -43.23018, -22.89070, -43.22830, 2_395, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := DistanceMeters(tc.lat1, tc.lon1, tc.lat2, tc.lon2)
			if math.Abs(got-tc.want) > tc.tol {
				t.Errorf("DistanceMeters = %.3f m, want %.3f ± %.3f", got, tc.want, tc.tol)
			}
			if back := DistanceMeters(tc.lat2, tc.lon2, tc.lat1, tc.lon1); math.Abs(back-got) > 1e-6 {
				t.Errorf("not symmetric: %.6f vs %.6f", got, back)
			}
		})
	}
}

// LGE art. 201, § 1º, I: at the venue (≤ 500 m, our threshold), within
// 5,000 m, on the route (beyond 5,000 m, when the filer says so), beyond.
func TestPlaceOf_LGE_art_201_sec1_I(t *testing.T) {
	for _, tc := range []struct {
		d       float64
		onRoute bool
		want    PlaceRelation
	}{
		{0, false, AtVenue},
		{500, false, AtVenue},
		{500.01, false, Within5000m},
		{500.01, true, Within5000m},
		{3565, false, Within5000m}, // R2
		{5000, false, Within5000m},
		{5000.01, false, Beyond5000m},
		{5000.01, true, OnRoute},
		{42000, true, OnRoute},
		{42000, false, Beyond5000m},
	} {
		if got := PlaceOf(tc.d, tc.onRoute); got != tc.want {
			t.Errorf("PlaceOf(%v, %v) = %s, want %s", tc.d, tc.onRoute, got, tc.want)
		}
	}
}

func at(s string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04", s, saoPaulo)
	if err != nil {
		panic(err)
	}
	return t
}

func dp(s string) *civil.Date { d := civil.MustParse(s); return &d }

// The schedule of ../shared/fixtures/matches-2025.csv (all venues in
// America/Sao_Paulo's offset in 2025).
var schedule = []Match{
	{ID: 1, Competition: "Campeonato Brasileiro Série A", Round: "1", Home: "Corinthians", Away: "Palmeiras", Kickoff: at("2025-03-30 16:00")},
	{ID: 2, Competition: "Campeonato Brasileiro Série A", Round: "2", Home: "São Paulo", Away: "Corinthians", Kickoff: at("2025-04-06 18:30")},
	{ID: 3, Competition: "Campeonato Brasileiro Série A", Round: "3", Home: "Corinthians", Away: "Santos", Kickoff: at("2025-04-13 11:00")},
	{ID: 4, Competition: "Campeonato Brasileiro Série A", Round: "4", Home: "Grêmio", Away: "Corinthians", Kickoff: at("2025-04-20 21:30")},
	{ID: 5, Competition: "Copa do Brasil", Round: "3ª fase (ida)", Home: "Corinthians", Away: "Flamengo", Kickoff: at("2025-04-23 19:30")},
	{ID: 6, Competition: "Campeonato Brasileiro Série A", Round: "5", Home: "Corinthians", Away: "Internacional", Kickoff: at("2025-04-27 16:00")},
	{ID: 7, Competition: "Campeonato Brasileiro Série A", Round: "1", Home: "Flamengo", Away: "Vasco da Gama", Kickoff: at("2025-03-30 18:30")},
	{ID: 8, Competition: "Campeonato Brasileiro Série A", Round: "2", Home: "Vasco da Gama", Away: "Fluminense", Kickoff: at("2025-04-06 16:00")},
	{ID: 9, Competition: "Campeonato Brasileiro Série A", Round: "3", Home: "Botafogo", Away: "Vasco da Gama", Kickoff: at("2025-04-13 20:00")},
	{ID: 10, Competition: "Campeonato Brasileiro Série A", Round: "4", Home: "Vasco da Gama", Away: "Cruzeiro", Kickoff: at("2025-04-20 23:30")},
}

func ids(ws []Window) []int64 {
	var out []int64
	for _, w := range ws {
		out = append(out, w.Match.ID)
	}
	return out
}

func sameIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// LGE art. 201, § 4º: from 2 hours before kick-off to 2 hours after the end
// of every match of the named club (home or away) or competition within the
// term; a window crossing midnight stays one window.
func TestReportingWindows_LGE_art_201_sec4(t *testing.T) {
	for _, tc := range []struct {
		name string
		duty Duty
		term Term
		want []int64
	}{
		{"club_home_and_away_whole_april", Duty{Club: "Corinthians"}, Term{civil.MustParse("2025-03-30"), dp("2025-06-29")}, []int64{1, 2, 3, 4, 5, 6}},
		{"club_accents_and_case_ignored", Duty{Club: "  vasco DA gama "}, Term{civil.MustParse("2025-03-01"), dp("2025-05-31")}, []int64{7, 8, 9, 10}},
		{"competition", Duty{Competition: "copa do brasil"}, Term{civil.MustParse("2025-01-01"), dp("2025-12-31")}, []int64{5}},
		{"term_starts_on_match_day_counts_it", Duty{Club: "Corinthians"}, Term{civil.MustParse("2025-04-27"), dp("2025-07-26")}, []int64{6}},
		{"term_ends_the_day_before_a_match_excludes_it", Duty{Club: "Corinthians"}, Term{civil.MustParse("2025-01-27"), dp("2025-04-26")}, []int64{1, 2, 3, 4, 5}},
		{"term_ends_on_match_day_includes_it", Duty{Club: "Corinthians"}, Term{civil.MustParse("2025-01-28"), dp("2025-04-27")}, []int64{1, 2, 3, 4, 5, 6}},
		{"precautionary_no_last_day", Duty{Club: "Corinthians"}, Term{civil.MustParse("2025-04-21"), nil}, []int64{5, 6}},
		{"no_club_no_competition", Duty{}, Term{civil.MustParse("2025-01-01"), nil}, nil},
		{"unknown_club", Duty{Club: "Juventus"}, Term{civil.MustParse("2025-01-01"), nil}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ReportingWindows(schedule, tc.duty, tc.term, saoPaulo)
			if got == nil {
				t.Fatal("nil result, want an empty list")
			}
			if !sameIDs(ids(got), tc.want) {
				t.Errorf("matches %v, want %v", ids(got), tc.want)
			}
			for _, w := range got {
				if !w.Clipped && (!w.Start.Equal(w.Match.Kickoff.Add(-2*time.Hour)) || !w.End.Equal(w.Match.Kickoff.Add(4*time.Hour))) {
					t.Errorf("match %d: window %s–%s, want kick-off −2 h to kick-off + 2 h + 2 h", w.Match.ID, w.Start, w.End)
				}
			}
		})
	}
}

// A 23:30 kick-off (Vasco × Cruzeiro, 20/04/2025) gives one window from
// 21:30 to 03:30 of the next day, not two.
func TestReportingWindows_LGE_art_201_sec4_CrossingMidnightIsOneWindow(t *testing.T) {
	got := ReportingWindows(schedule, Duty{Club: "Cruzeiro"}, Term{civil.MustParse("2025-04-01"), dp("2025-06-30")}, saoPaulo)
	if len(got) != 1 {
		t.Fatalf("%d windows, want 1", len(got))
	}
	w := got[0]
	if !w.Start.Equal(at("2025-04-20 21:30")) || !w.End.Equal(at("2025-04-21 03:30")) || w.Clipped {
		t.Errorf("window %s – %s (clipped %v), want 2025-04-20 21:30 – 2025-04-21 03:30", w.Start.In(saoPaulo), w.End.In(saoPaulo), w.Clipped)
	}
}

// The duty never outlives the ban: a 23:30 kick-off on the last day is cut
// at the end of that day; a 00:30 kick-off on the first day starts at its
// first instant. The match duration comes from the schedule when set.
func TestReportingWindows_LGE_art_201_sec4_TermBoundsAndDuration(t *testing.T) {
	ms := []Match{
		{ID: 1, Home: "A", Away: "B", Kickoff: at("2025-05-01 00:30")},
		{ID: 2, Home: "B", Away: "A", Kickoff: at("2025-05-31 23:30")},
		{ID: 3, Home: "A", Away: "C", Kickoff: at("2025-05-10 16:00"), Duration: 150 * time.Minute},
		{ID: 4, Home: "A", Away: "D", Kickoff: at("2025-04-30 23:59")},
		{ID: 5, Home: "A", Away: "E", Kickoff: at("2025-06-01 00:00")},
	}
	got := ReportingWindows(ms, Duty{Club: "a"}, Term{civil.MustParse("2025-05-01"), dp("2025-05-31")}, saoPaulo)
	if !sameIDs(ids(got), []int64{1, 3, 2}) {
		t.Fatalf("matches %v, want [1 3 2]", ids(got))
	}
	want := [][2]string{{"2025-05-01 00:00", "2025-05-01 04:30"}, {"2025-05-10 14:00", "2025-05-10 20:30"}, {"2025-05-31 21:30", "2025-06-01 00:00"}}
	for i, w := range got {
		if !w.Start.Equal(at(want[i][0])) || !w.End.Equal(at(want[i][1])) {
			t.Errorf("match %d: %s – %s, want %s – %s", w.Match.ID, w.Start.In(saoPaulo), w.End.In(saoPaulo), want[i][0], want[i][1])
		}
	}
	if !got[0].Clipped || got[1].Clipped || !got[2].Clipped {
		t.Errorf("clipped = %v %v %v, want true false true", got[0].Clipped, got[1].Clipped, got[2].Clipped)
	}
}

// RFC 5545: CRLF, BEGIN/END, UTC DTSTART/DTEND, escaped text, 75-octet lines.
func TestICS_RFC5545(t *testing.T) {
	stamp := time.Date(2025, 4, 1, 12, 0, 0, 0, time.UTC)
	long := strings.Repeat("Obrigação de permanência; ", 10)
	out := string(ICS(Calendar{ProdID: "-//Juizado//PT-BR", Name: "Teste", Events: []Event{
		{UID: "a@juizado", Start: at("2025-04-20 21:30"), End: at("2025-04-21 03:30"), Stamp: stamp, Summary: "Vasco, Cruzeiro", Description: long + "\nfim"},
		{UID: "b@juizado", Start: at("2025-04-23 17:30"), End: at("2025-04-23 23:30"), Stamp: stamp, Summary: "x"},
	}}))
	if !strings.HasPrefix(out, "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n") || !strings.HasSuffix(out, "END:VCALENDAR\r\n") {
		t.Fatalf("not a calendar:\n%s", out)
	}
	for _, l := range strings.Split(strings.TrimSuffix(out, "\r\n"), "\r\n") {
		if len(l) > 75 {
			t.Errorf("line of %d octets: %q", len(l), l)
		}
		if strings.Contains(l, "\n") {
			t.Errorf("bare LF in %q", l)
		}
	}
	for _, want := range []string{"DTSTART:20250421T003000Z", "DTEND:20250421T063000Z", "SUMMARY:Vasco\\, Cruzeiro", "UID:b@juizado", "DTSTAMP:20250401T120000Z"} {
		if !strings.Contains(out, want+"\r\n") {
			t.Errorf("missing %q", want)
		}
	}
	if n := strings.Count(out, "BEGIN:VEVENT\r\n"); n != 2 {
		t.Errorf("%d VEVENTs, want 2", n)
	}
	unfolded := strings.ReplaceAll(out, "\r\n ", "")
	if !strings.Contains(unfolded, "DESCRIPTION:"+strings.ReplaceAll(long, ";", "\\;")+"\\nfim\r\n") {
		t.Errorf("description not escaped and folded as RFC 5545 says:\n%s", unfolded)
	}
}

// LGE art. 201, § 3º: days served from the first day to the day before the
// breach; balance of the quantum (counted by the calendar), at least 30 days.
func TestBreachConversion_LGE_art_201_sec3(t *testing.T) {
	for _, tc := range []struct {
		name          string
		first, last   string
		breach        string
		prison        *int
		served        int
		quantum, bal  int
		floor, absent bool
	}{
		{"breach_on_first_day_serves_nothing", "2025-04-01", "2026-03-31", "2025-04-01", ip(12), 0, 365, 365, false, false},
		{"ten_days_served", "2025-04-01", "2026-03-31", "2025-04-11", ip(12), 10, 365, 355, false, false},
		{"leap_year_quantum", "2024-01-01", "2024-12-31", "2024-03-01", ip(12), 60, 366, 306, false, false},
		{"floor_of_30_days", "2025-01-01", "2026-12-31", "2025-12-15", ip(12), 348, 365, 30, true, false},
		{"served_beyond_quantum_still_30", "2025-01-01", "2026-12-31", "2026-06-01", ip(12), 516, 365, 30, true, false},
		{"exactly_30_left_no_floor", "2025-01-01", "2026-12-31", "2025-12-02", ip(12), 335, 365, 30, false, false},
		{"breach_on_last_day", "2025-01-01", "2025-03-31", "2025-03-31", ip(12), 89, 365, 276, false, false},
		{"quantum_not_fixed", "2025-04-01", "2026-03-31", "2025-05-01", nil, 30, 0, 0, false, true},
		{"precautionary_no_last_day", "2025-04-01", "", "2027-04-01", ip(24), 730, 730, 30, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			term := Term{First: civil.MustParse(tc.first)}
			if tc.last != "" {
				term.Last = dp(tc.last)
			}
			c, err := BreachConversion(term, civil.MustParse(tc.breach), tc.prison, "art. 201, § 3º, da Lei 14.597/2023")
			if err != nil {
				t.Fatal(err)
			}
			if c.DaysServed != tc.served || c.MinimumDays != 30 || !strings.Contains(c.Note, "art. 201, § 3º") {
				t.Errorf("served %d (want %d), minimum %d, note %q", c.DaysServed, tc.served, c.MinimumDays, c.Note)
			}
			if tc.absent {
				if c.QuantumFixed || c.BalanceDays != nil || c.QuantumDays != nil || !strings.Contains(c.Note, "fixa") {
					t.Errorf("quantum not fixed: got %+v", c)
				}
				return
			}
			if !c.QuantumFixed || *c.QuantumDays != tc.quantum || *c.BalanceDays != tc.bal || c.FloorApplied != tc.floor {
				t.Errorf("quantum %v balance %v floor %v, want %d %d %v", *c.QuantumDays, *c.BalanceDays, c.FloorApplied, tc.quantum, tc.bal, tc.floor)
			}
		})
	}
	for _, b := range []string{"2025-03-31", "2026-04-01"} {
		_, err := BreachConversion(Term{civil.MustParse("2025-04-01"), dp("2026-03-31")}, civil.MustParse(b), ip(12), "art. 201, § 3º, da Lei 14.597/2023")
		var de *BreachDateError
		if !errors.As(err, &de) {
			t.Errorf("breach on %s outside the term: err %v, want *BreachDateError", b, err)
		}
	}
}

func ip(n int) *int { return &n }

// DOMAIN.md §3 / LGE art. 201, § 2º: an extension counts from the original
// first day, never chained from the previous last day; the total stays in
// the range recorded on the ban.
func TestDaysBetween(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		n    int
	}{{"2025-01-01", "2025-01-01", 0}, {"2025-01-01", "2025-01-02", 1}, {"2024-02-28", "2024-03-01", 2}, {"2025-02-28", "2025-03-01", 1}, {"2025-01-02", "2025-01-01", -1}, {"2018-11-03", "2018-11-05", 2}} {
		if got := DaysBetween(civil.MustParse(tc.a), civil.MustParse(tc.b)); got != tc.n {
			t.Errorf("DaysBetween(%s, %s) = %d, want %d", tc.a, tc.b, got, tc.n)
		}
	}
}
