package sanctions_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
)

// day reads an ISO date in a test table.
func day(s string) civil.Date { return civil.MustParse(s) }

// invalidOn fails unless err is errs.Invalid naming field.
func invalidOn(t *testing.T, err error, field string) {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) || e.Kind != errs.Invalid {
		t.Fatalf("error = %v (%T), want errs.Invalid on %s", err, err, field)
	}
	for _, f := range e.Fields {
		if f.Field == field {
			if f.Message == "" {
				t.Errorf("field %s without a message", field)
			}
			return
		}
	}
	t.Fatalf("fields = %+v, want one named %s", e.Fields, field)
}

// The Gregorian computus: Easter Sundays from published tables (the
// earliest possible, 22 March, in 1818 and 2285; the latest, 25 April, in
// 1943 and 2038).
func TestEaster_GregorianComputus(t *testing.T) {
	t.Parallel()
	for year, want := range map[int]string{
		1818: "1818-03-22", 1943: "1943-04-25", 2000: "2000-04-23", 2008: "2008-03-23", 2011: "2011-04-24",
		2019: "2019-04-21", 2023: "2023-04-09", 2024: "2024-03-31", 2025: "2025-04-20", 2026: "2026-04-05",
		2038: "2038-04-25", 2285: "2285-03-22",
	} {
		if got := sanctions.Easter(year); got.String() != want {
			t.Errorf("Easter(%d) = %s, want %s", year, got, want)
		}
	}
}

// Lei 662/1949, art. 1º, as worded by Lei 10.607/2002; Lei 6.802/1980;
// Lei 14.759/2023; Good Friday: the whole list of 2025, in date order,
// with Portuguese names and the law of each.
func TestNationalHolidays_Lei662_Lei10607_Lei6802_Lei14759_List2025(t *testing.T) {
	t.Parallel()
	want := []struct{ date, name, law string }{
		{"2025-01-01", "Confraternização Universal", "Lei 662/1949"},
		{"2025-04-18", "Sexta-feira da Paixão", "Lei 9.093/1995"}, // Easter 20/04 − 2
		{"2025-04-21", "Tiradentes", "Lei 10.607/2002"},
		{"2025-05-01", "Dia do Trabalho", "Lei 10.607/2002"},
		{"2025-09-07", "Independência do Brasil", "Lei 10.607/2002"},
		{"2025-10-12", "Nossa Senhora Aparecida", "Lei 6.802/1980"},
		{"2025-11-02", "Finados", "Lei 10.607/2002"},
		{"2025-11-15", "Proclamação da República", "Lei 10.607/2002"},
		{"2025-11-20", "Dia Nacional de Zumbi e da Consciência Negra", "Lei 14.759/2023"},
		{"2025-12-25", "Natal", "Lei 662/1949"},
	}
	got := sanctions.NationalHolidays(2025)
	if len(got) != len(want) {
		t.Fatalf("2025: %d holidays %+v, want %d", len(got), got, len(want))
	}
	for i, w := range want {
		if got[i].Date.String() != w.date || got[i].Name != w.name || !strings.Contains(got[i].Law, w.law) {
			t.Errorf("holiday %d = %+v, want %s %s (%s)", i, got[i], w.date, w.name, w.law)
		}
	}
}

// Lei 14.759/2023 (published 22/12/2023): 20 November is a national
// holiday from 2024; 20/11/2023 was an ordinary Monday.
func TestNationalHolidays_Lei14759_ZumbiFrom2024(t *testing.T) {
	t.Parallel()
	if h, ok := sanctions.NationalHolidayOn(day("2023-11-20")); ok {
		t.Errorf("20/11/2023 is %+v: Lei 14.759/2023 came in December 2023", h)
	}
	for _, d := range []string{"2024-11-20", "2025-11-20", "2030-11-20"} {
		h, ok := sanctions.NationalHolidayOn(day(d))
		if !ok || h.Law != sanctions.LawZumbi || !strings.Contains(h.Name, "Consciência Negra") {
			t.Errorf("%s: %+v %v, want Dia Nacional de Zumbi e da Consciência Negra (Lei 14.759/2023)", d, h, ok)
		}
	}
	if n := len(sanctions.NationalHolidays(2023)); n != 9 {
		t.Errorf("2023 has %d national holidays, want 9 (7 of Lei 662/1949, 12/10 and Good Friday)", n)
	}
	if n := len(sanctions.NationalHolidays(2024)); n != 10 {
		t.Errorf("2024 has %d national holidays, want 10", n)
	}
}

// Lei 6.802/1980: 12 October from 1980 on, not before.
func TestNationalHolidays_Lei6802_AparecidaFrom1980(t *testing.T) {
	t.Parallel()
	if _, ok := sanctions.NationalHolidayOn(day("1979-10-12")); ok {
		t.Error("12/10/1979 is a holiday: Lei 6.802 is of 1980")
	}
	for _, d := range []string{"1980-10-12", "2025-10-12"} {
		if h, ok := sanctions.NationalHolidayOn(day(d)); !ok || h.Name != "Nossa Senhora Aparecida" || h.Law != sanctions.LawAparecida {
			t.Errorf("%s: %+v %v", d, h, ok)
		}
	}
}

// Good Friday is Easter − 2 days: 18/04/2025 (Easter 20/04) and 03/04/2026
// (Easter 05/04); 29/03/2024 (Easter 31/03). The Thursday before is not a
// holiday.
func TestNationalHolidays_GoodFriday_EasterMinusTwo(t *testing.T) {
	t.Parallel()
	for _, d := range []string{"2024-03-29", "2025-04-18", "2026-04-03"} {
		if h, ok := sanctions.NationalHolidayOn(day(d)); !ok || h.Name != "Sexta-feira da Paixão" || h.Law != sanctions.LawGoodFriday {
			t.Errorf("%s: %+v %v, want Sexta-feira da Paixão", d, h, ok)
		}
	}
	for _, d := range []string{"2025-04-17", "2026-04-02", "2026-04-10"} {
		if h, ok := sanctions.NationalHolidayOn(day(d)); ok {
			t.Errorf("%s is %+v", d, h)
		}
	}
}

// Carnival (Easter − 48 and − 47: 03 and 04/03/2025, 16 and 17/02/2026),
// Ash Wednesday and Corpus Christi (Easter + 60: 19/06/2025, 04/06/2026)
// are not national holidays: the court's calendar holds them (DOMAIN.md
// § 4).
func TestNationalHolidays_CarnivalAndCorpusChristiAreNotNational(t *testing.T) {
	t.Parallel()
	for _, d := range []string{"2025-03-03", "2025-03-04", "2025-03-05", "2026-02-16", "2026-02-17", "2026-02-18", "2025-06-19", "2026-06-04"} {
		if h, ok := sanctions.NationalHolidayOn(day(d)); ok {
			t.Errorf("%s is a national holiday %+v", d, h)
		}
		if why, no := sanctions.NoCourtBusiness(day(d), nil); no {
			t.Errorf("%s without court business (%s) with no court calendar", d, why)
		}
	}
	if why, no := sanctions.NoCourtBusiness(day("2026-02-17"), sanctions.Holidays{day("2026-02-17"): "Carnaval"}); !no || why != "feriado do juizado: Carnaval" {
		t.Errorf("Carnival on the court's calendar: %q %v", why, no)
	}
}

// CPP art. 798, § 3º, and CPC art. 216: the days without court business
// and the reason each gives; a weekend is named before a holiday on it, a
// national holiday before the same day on the court's calendar; the
// recess is not a day without business (the courts sit).
func TestNoCourtBusiness_CPP798_sec3_Reasons(t *testing.T) {
	t.Parallel()
	court := sanctions.Holidays{day("2025-06-19"): "Corpus Christi", day("2025-04-21"): "Tiradentes (digitado)", day("2027-12-25"): "Natal"}
	for _, tc := range []struct{ date, why string }{
		{"2025-06-07", "sábado"},
		{"2025-06-08", "domingo"},
		{"2027-12-25", "sábado"}, // Natal on a Saturday
		{"2025-04-21", "feriado nacional: Tiradentes (Lei 662/1949, art. 1º, na redação da Lei 10.607/2002)"},
		{"2024-11-20", "feriado nacional: Dia Nacional de Zumbi e da Consciência Negra (Lei 14.759/2023, art. 1º)"},
		{"2025-06-19", "feriado do juizado: Corpus Christi"},
		{"2025-06-18", ""},
		{"2026-01-08", ""}, // a Thursday in the recess
	} {
		why, no := sanctions.NoCourtBusiness(day(tc.date), court)
		if why != tc.why || no != (tc.why != "") {
			t.Errorf("%s: %q %v, want %q", tc.date, why, no, tc.why)
		}
	}
}

// CPP art. 798-A, parágrafo único (applied to the JECRIM by Lei 9.099/1995,
// art. 92): no hearing from 20 December to 20 January, save the cases of
// its items I to III; the law is in force from 03/06/2022.
func TestMayHoldHearing_CPP798A_sole_NoHearingInRecess(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, date string
		exc        sanctions.RecessException
		ok         bool
		why        string
	}{
		{"Thursday in the recess", "2026-01-08", "", false, "798-A, parágrafo único"},
		{"first day of the recess, a Monday", "2027-12-20", "", false, "798-A, parágrafo único"},
		{"last day of the recess, a Tuesday", "2026-01-20", "", false, "798-A"},
		{"Friday before the recess", "2025-12-19", "", true, ""},
		{"first day after the recess", "2026-01-21", "", true, ""},
		{"defendant in custody (I)", "2026-01-08", sanctions.RecessCustody, true, "798-A, I"},
		{"Lei 11.340/2006 (II)", "2026-01-08", sanctions.RecessMariaDaPenha, true, "798-A, II"},
		{"urgent measure (III)", "2026-01-08", sanctions.RecessUrgent, true, "798-A, III"},
		{"Sunday in the recess: no business first", "2025-12-21", "", false, "dia sem expediente forense: domingo"},
		{"before Lei 14.365/2022: January 2021 had no criminal recess", "2021-01-08", "", true, ""},
		{"first recess of the law, 2022", "2022-12-20", "", false, "798-A"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ok, why, err := sanctions.MayHoldHearing(sanctions.HearingQuery{Day: day(tc.date), Exception: tc.exc})
			if err != nil || ok != tc.ok || !strings.Contains(why, tc.why) || (tc.why == "" && why != "") {
				t.Errorf("%s: %v %q %v, want %v %q", tc.date, ok, why, err, tc.ok, tc.why)
			}
		})
	}
}

// CPC art. 220, § 2º: no hearing in a civil case from 20 December to 20
// January, without exception (the exceptions of CPP art. 798-A are
// criminal: one given in a civil case is refused, never ignored).
func TestMayHoldHearing_CPC220_sec2_CivilRecess(t *testing.T) {
	t.Parallel()
	ok, why, err := sanctions.MayHoldHearing(sanctions.HearingQuery{Day: day("2026-01-08"), Civil: true})
	if err != nil || ok || !strings.Contains(why, "CPC, art. 220, § 2º") {
		t.Errorf("civil in the recess: %v %q %v", ok, why, err)
	}
	if ok, why, err := sanctions.MayHoldHearing(sanctions.HearingQuery{Day: day("2026-01-21"), Civil: true}); err != nil || !ok || why != "" {
		t.Errorf("civil on 21/01: %v %q %v", ok, why, err)
	}
	_, _, err = sanctions.MayHoldHearing(sanctions.HearingQuery{Day: day("2026-01-08"), Civil: true, Exception: sanctions.RecessCustody})
	invalidOn(t, err, "recess_exception")
	_, _, err = sanctions.MayHoldHearing(sanctions.HearingQuery{Day: day("2026-01-08"), Exception: "preso"})
	invalidOn(t, err, "recess_exception")
}

// CPP art. 792 and CPC art. 212: hearings on days with court business
// only: not on a weekend, a national holiday (Good Friday, 20/11 from
// 2024) nor a holiday of the court's calendar.
func TestMayHoldHearing_CPP792_DaysWithoutCourtBusiness(t *testing.T) {
	t.Parallel()
	court := sanctions.Holidays{day("2025-06-19"): "Corpus Christi"}
	for _, tc := range []struct {
		date  string
		court sanctions.Holidays
		ok    bool
		why   string
	}{
		{"2025-06-07", nil, false, "dia sem expediente forense: sábado"},
		{"2025-04-18", nil, false, "Sexta-feira da Paixão"},
		{"2026-04-03", nil, false, "Sexta-feira da Paixão"},
		{"2023-11-20", nil, true, ""},
		{"2024-11-20", nil, false, "Lei 14.759/2023"},
		{"2025-06-19", court, false, "feriado do juizado: Corpus Christi"},
		{"2025-06-19", nil, true, ""},
		{"2026-02-17", nil, true, ""}, // Carnival: only if the court declares it
	} {
		ok, why, err := sanctions.MayHoldHearing(sanctions.HearingQuery{Day: day(tc.date), Court: tc.court})
		if err != nil || ok != tc.ok || !strings.Contains(why, tc.why) || (tc.why == "" && why != "") {
			t.Errorf("%s: %v %q %v, want %v %q", tc.date, ok, why, err, tc.ok, tc.why)
		}
	}
}
