package sanctions

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/sharedfix"
)

func TestLastDay_SharedCases(t *testing.T) {
	b, err := os.ReadFile(sharedfix.Path(t, "cases", "ban-terms.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []struct {
			FirstDay string `json:"first_day"`
			Months   int    `json:"months"`
			LastDay  string `json:"last_day"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Cases) == 0 {
		t.Fatal("no cases in ban-terms.json")
	}
	for _, c := range f.Cases {
		t.Run(fmt.Sprintf("CP_art_10/%s+%dm", c.FirstDay, c.Months), func(t *testing.T) {
			got, err := LastDay(civil.MustParse(c.FirstDay), c.Months)
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != c.LastDay {
				t.Errorf("LastDay(%s, %d) = %s, want %s", c.FirstDay, c.Months, got, c.LastDay)
			}
		})
	}
}

// DOMAIN.md §3 table, plus edge cases.
func TestLastDay_CP_art_10(t *testing.T) {
	cases := []struct {
		name   string
		first  string
		months int
		want   string
	}{
		{"domain_31jan_3m_rolls_forward", "2024-01-31", 3, "2024-04-30"},
		{"domain_29feb_1y_rolls_forward", "2024-02-29", 12, "2025-02-28"},
		{"domain_10mar_3m", "2024-03-10", 3, "2024-06-09"},
		{"domain_15jun_3y", "2024-06-15", 36, "2027-06-14"},
		{"domain_30nov_3m_leap_feb", "2023-11-30", 3, "2024-02-29"},
		{"first_of_month_ends_last_of_previous", "2025-01-01", 12, "2025-12-31"},
		{"first_of_march_1m", "2023-03-01", 1, "2023-03-31"},
		{"31jan_1m_common_year", "2023-01-31", 1, "2023-02-28"},
		{"31jan_1m_leap_year", "2024-01-31", 1, "2024-02-29"},
		{"30jan_1m_common_year_rolls", "2023-01-30", 1, "2023-02-28"},
		{"29jan_1m_common_year_rolls", "2023-01-29", 1, "2023-02-28"},
		{"29jan_1m_leap_year_exists", "2024-01-29", 1, "2024-02-28"},
		{"31mar_1m_april", "2024-03-31", 1, "2024-04-30"},
		{"31aug_1m_sept", "2024-08-31", 1, "2024-09-30"},
		{"15dec_1m_year_change", "2024-12-15", 1, "2025-01-14"},
		{"29feb_4y_leap_to_leap", "2024-02-29", 48, "2028-02-28"},
		{"art_201_§7_max_72m", "2024-06-15", 72, "2030-06-14"},
		{"2100_not_leap", "2099-02-28", 12, "2100-02-27"},
		{"29nov_to_2100_feb_rolls", "2099-11-29", 3, "2100-02-28"},
		{"2000_leap", "1999-11-29", 3, "2000-02-28"},
		{"2000_leap_30nov", "1999-11-30", 3, "2000-02-29"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := LastDay(civil.MustParse(c.first), c.months)
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != c.want {
				t.Errorf("LastDay(%s, %d) = %s, want %s", c.first, c.months, got, c.want)
			}
		})
	}
}

func TestLastDay_Errors(t *testing.T) {
	for _, m := range []int{0, -1, MaxTermMonths + 1} {
		if _, err := LastDay(civil.MustParse("2024-01-01"), m); !errors.Is(err, ErrTermMonths) {
			t.Errorf("months %d: err = %v, want ErrTermMonths", m, err)
		}
	}
	for _, d := range []civil.Date{{}, {Year: 2023, Month: 2, Day: 29}, {Year: 2024, Month: 13, Day: 1}} {
		if _, err := LastDay(d, 3); !errors.Is(err, ErrFirstDay) {
			t.Errorf("first %v: err = %v, want ErrFirstDay", d, err)
		}
	}
	if _, err := LastDay(civil.MustParse("2024-01-01"), MaxTermMonths); err != nil {
		t.Errorf("MaxTermMonths: %v", err)
	}
}

// refLastDay is an independent implementation: it steps month by month with
// its own leap-year rule, finds the corresponding date (rolling forward to
// the 1st of the next month when the day does not exist), and steps one day
// back by hand. It uses neither time nor civil arithmetic.
func refLastDay(y, m, d, months int) (int, int, int) {
	leap := func(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }
	dim := func(y, m int) int {
		switch m {
		case 2:
			if leap(y) {
				return 29
			}
			return 28
		case 4, 6, 9, 11:
			return 30
		}
		return 31
	}
	cy, cm := y, m
	for range months {
		cm++
		if cm == 13 {
			cy, cm = cy+1, 1
		}
	}
	cd := d
	if cd > dim(cy, cm) { // roll forward to the 1st of the next month
		cd = 1
		cm++
		if cm == 13 {
			cy, cm = cy+1, 1
		}
	}
	// one day back
	cd--
	if cd == 0 {
		cm--
		if cm == 0 {
			cy, cm = cy-1, 12
		}
		cd = dim(cy, cm)
	}
	return cy, cm, cd
}

// Property test: every first day of 2000–2030, every term of 1 to 72 months.
func TestLastDay_BruteForce_2000_2030(t *testing.T) {
	n := 0
	for d := civil.MustParse("2000-01-01"); d.Year <= 2030; d = d.AddDays(1) {
		for months := 1; months <= 72; months++ {
			got, err := LastDay(d, months)
			if err != nil {
				t.Fatalf("LastDay(%s, %d): %v", d, months, err)
			}
			y, m, dd := refLastDay(d.Year, int(d.Month), d.Day, months)
			want := civil.Date{Year: y, Month: time.Month(m), Day: dd}
			if got != want {
				t.Fatalf("LastDay(%s, %d) = %s, want %s", d, months, got, want)
			}
			n++
		}
	}
	if n != 11323*72 {
		t.Fatalf("checked %d cases, want %d", n, 11323*72)
	}
}

// checkLastDayProperties checks the invariants of CP art. 10 with roll-forward.
func checkLastDayProperties(t *testing.T, first civil.Date, months int) {
	t.Helper()
	got, err := LastDay(first, months)
	if err != nil {
		t.Fatalf("LastDay(%s, %d): %v", first, months, err)
	}
	if !got.Valid() || !got.After(first.AddDays(26)) {
		t.Fatalf("LastDay(%s, %d) = %s: invalid or too early", first, months, got)
	}
	// The day after the last day is the corresponding date: same day-number
	// months later, or (roll forward) the 1st of the month after.
	next := got.AddDays(1)
	mi := (first.Year*12 + int(first.Month) - 1) + months // month index of the target
	ti := next.Year*12 + int(next.Month) - 1
	switch {
	case ti == mi && next.Day == first.Day:
	case ti == mi+1 && next.Day == 1 && first.Day > civil.DaysIn(got.Year, got.Month) && got.Day == civil.DaysIn(got.Year, got.Month):
	default:
		t.Fatalf("LastDay(%s, %d) = %s: the day after is not the corresponding date", first, months, got)
	}
	y, m, d := refLastDay(first.Year, int(first.Month), first.Day, months)
	if want := (civil.Date{Year: y, Month: time.Month(m), Day: d}); got != want {
		t.Fatalf("LastDay(%s, %d) = %s, reference %s", first, months, got, want)
	}
	if months > 1 {
		prev, _ := LastDay(first, months-1)
		if !got.After(prev) {
			t.Fatalf("LastDay(%s, %d) = %s not after LastDay(.., %d) = %s", first, months, got, months-1, prev)
		}
	}
}

func FuzzLastDay(f *testing.F) {
	for _, s := range []struct{ y, m, d, months int }{
		{2024, 1, 31, 3}, {2024, 2, 29, 12}, {2024, 3, 10, 3}, {2024, 6, 15, 36},
		{2023, 11, 30, 3}, {2025, 1, 1, 12}, {1999, 12, 31, 2}, {2099, 2, 28, 12}, {2024, 8, 31, 72},
	} {
		f.Add(s.y, s.m, s.d, s.months)
	}
	f.Fuzz(func(t *testing.T, y, m, d, months int) {
		first := civil.Date{Year: y, Month: time.Month(m), Day: d}
		if y < 1 || y > 9000 || !first.Valid() {
			if _, err := LastDay(first, 1); err == nil && !first.Valid() {
				t.Fatalf("LastDay accepted invalid first day %v", first)
			}
			return
		}
		if months < 1 || months > MaxTermMonths {
			if _, err := LastDay(first, months); !errors.Is(err, ErrTermMonths) {
				t.Fatalf("LastDay(%s, %d): err = %v, want ErrTermMonths", first, months, err)
			}
			return
		}
		checkLastDayProperties(t, first, months)
	})
}
