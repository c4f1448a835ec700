package sanctions

import (
	"sort"
	"time"

	"github.com/juizado/juizado/internal/civil"
)

// Laws of the national holidays, as cited in NationalHoliday.Law and in the
// reasons CountPeriod and MayHoldHearing give.
const (
	// LawHolidays is the list of civil national holidays: Lei 662/1949,
	// art. 1º, as worded by Lei 10.607/2002 (1/1, 21/4, 1/5, 7/9, 2/11,
	// 15/11 and 25/12).
	LawHolidays = "Lei 662/1949, art. 1º, na redação da Lei 10.607/2002"
	// LawAparecida is Lei 6.802/1980, art. 1º: 12 October, Nossa Senhora
	// Aparecida, a national holiday since 1980.
	LawAparecida = "Lei 6.802/1980, art. 1º"
	// LawZumbi is Lei 14.759/2023, art. 1º: 20 November, Dia Nacional de
	// Zumbi e da Consciência Negra, a national holiday from 2024 (the law
	// was published on 22/12/2023: 20/11/2023 was not a holiday).
	LawZumbi = "Lei 14.759/2023, art. 1º"
	// LawGoodFriday is the source of Good Friday (Sexta-feira da Paixão):
	// a religious holiday kept by Lei 9.093/1995, art. 2º, and a day
	// without business in every state court by its own rules (for the
	// federal courts, Lei 5.010/1966, art. 62, II). Built in because every
	// court observes it, which no other movable day earns (Carnival and
	// Corpus Christi are on the court's own calendar).
	LawGoodFriday = "Lei 9.093/1995, art. 2º; observada por todos os tribunais"
)

// First years of the national holidays that did not always exist.
const (
	// AparecidaSince is the first year 12 October is a national holiday
	// (Lei 6.802, of 30/06/1980).
	AparecidaSince = 1980
	// ZumbiSince is the first year 20 November is a national holiday (Lei
	// 14.759, of 21/12/2023, published on 22/12/2023).
	ZumbiSince = 2024
)

// NationalHoliday is a day without court business throughout Brazil, by
// law: its date, its name in Portuguese ("Natal", "Sexta-feira da Paixão")
// and the law that makes it a holiday (LawHolidays, LawAparecida,
// LawZumbi, LawGoodFriday).
type NationalHoliday struct {
	Date civil.Date `json:"date"`
	Name string     `json:"name"`
	Law  string     `json:"law"`
}

// Easter returns Easter Sunday of year by the Gregorian computus (the
// "anonymous Gregorian" algorithm of Meeus, Jones and Butcher), valid for
// every Gregorian year (from 1583): 2024-03-31, 2025-04-20, 2026-04-05.
func Easter(year int) civil.Date {
	a := year % 19
	b, c := year/100, year%100
	d, e := b/4, b%4
	f := (b + 8) / 25
	g := (b - f + 1) / 3
	h := (19*a + b - d - g + 15) % 30
	i, k := c/4, c%4
	l := (32 + 2*e + 2*i - h - k) % 7
	m := (a + 11*h + 22*l) / 451
	n := h + l - 7*m + 114
	return civil.Date{Year: year, Month: time.Month(n / 31), Day: n%31 + 1}
}

// NationalHolidays returns the national holidays of year in date order:
// Confraternização Universal (1/1), Tiradentes (21/4), Dia do Trabalho
// (1/5), Independência do Brasil (7/9), Finados (2/11), Proclamação da
// República (15/11) and Natal (25/12) by Lei 662/1949 as worded by Lei
// 10.607/2002; Nossa Senhora Aparecida (12/10) from 1980 (Lei 6.802/1980);
// Dia Nacional de Zumbi e da Consciência Negra (20/11) from 2024 (Lei
// 14.759/2023); and Sexta-feira da Paixão (Easter − 2 days), which every
// state court observes. Carnival and Corpus Christi are not national
// holidays: the court's calendar holds them. The list is meant for the
// years the system counts (2000 to 2200); it does not trace the wording of
// Lei 662/1949 before 2002.
func NationalHolidays(year int) []NationalHoliday {
	day := func(m time.Month, d int) civil.Date { return civil.Date{Year: year, Month: m, Day: d} }
	hs := []NationalHoliday{
		{day(time.January, 1), "Confraternização Universal", LawHolidays},
		{day(time.April, 21), "Tiradentes", LawHolidays},
		{day(time.May, 1), "Dia do Trabalho", LawHolidays},
		{day(time.September, 7), "Independência do Brasil", LawHolidays},
		{day(time.November, 2), "Finados", LawHolidays},
		{day(time.November, 15), "Proclamação da República", LawHolidays},
		{day(time.December, 25), "Natal", LawHolidays},
		{Easter(year).AddDays(-2), "Sexta-feira da Paixão", LawGoodFriday},
	}
	if year >= AparecidaSince {
		hs = append(hs, NationalHoliday{day(time.October, 12), "Nossa Senhora Aparecida", LawAparecida})
	}
	if year >= ZumbiSince {
		hs = append(hs, NationalHoliday{day(time.November, 20), "Dia Nacional de Zumbi e da Consciência Negra", LawZumbi})
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i].Date.Before(hs[j].Date) })
	return hs
}

// NationalHolidayOn returns the national holiday on d (NationalHolidays)
// and true, or false when d is none.
func NationalHolidayOn(d civil.Date) (NationalHoliday, bool) {
	for _, h := range NationalHolidays(d.Year) {
		if h.Date == d {
			return h, true
		}
	}
	return NationalHoliday{}, false
}

// Holidays is a court's own calendar, kept by its clerk: the days without
// court business it declared (Carnival, Corpus Christi, local holidays)
// with their names. A nil Holidays has none. The national holidays are
// built in (NationalHolidays) and need not be listed.
type Holidays map[civil.Date]string

// weekday returns the day of the week of d.
func weekday(d civil.Date) time.Weekday {
	return time.Date(d.Year, d.Month, d.Day, 12, 0, 0, 0, time.UTC).Weekday()
}

// NoCourtBusiness says whether d is a day without court business and why,
// in Portuguese: "sábado" or "domingo"; "feriado nacional: Natal (Lei
// 662/1949, art. 1º, na redação da Lei 10.607/2002)"; or "feriado do
// juizado: Corpus Christi" for a day of the court's calendar court (nil:
// none). A weekend is named before a holiday that falls on it, and a
// national holiday before the same day on the court's calendar. The
// recesses of 20 December to 20 January are not days without business
// (the courts sit): CriminalRecess and CivilSuspension say when they
// suspend deadlines and hearings.
func NoCourtBusiness(d civil.Date, court Holidays) (string, bool) {
	switch weekday(d) {
	case time.Saturday:
		return "sábado", true
	case time.Sunday:
		return "domingo", true
	}
	if h, ok := NationalHolidayOn(d); ok {
		return "feriado nacional: " + h.Name + " (" + h.Law + ")", true
	}
	if name, ok := court[d]; ok {
		return "feriado do juizado: " + name, true
	}
	return "", false
}
