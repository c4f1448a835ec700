package civil

import (
	"errors"
	"testing"
)

// ParseBR reads the dates typed in forms and spreadsheets: dd/mm/aaaa,
// d/m/aaaa, AAAA-MM-DD; other forms and days the calendar lacks are refused
// with a Portuguese message of their own kind.
func TestParseBRReadsTypedDates(t *testing.T) {
	for s, want := range map[string]string{"05/03/2024": "2024-03-05", " 5/3/2024 ": "2024-03-05", "29/02/2024": "2024-02-29", "2024-03-05": "2024-03-05"} {
		d, err := ParseBR(s)
		if err != nil || d.String() != want {
			t.Errorf("ParseBR(%q) = %v, %v; want %s", s, d, err, want)
		}
	}
	for s, kind := range map[string]error{"05-03-2024": ErrNotDateBR, "5/3/24": ErrNotDateBR, "": ErrNotDateBR, "2024-3-5": ErrNotDateBR,
		"29/02/2023": ErrNoSuchDay, "31/04/2024": ErrNoSuchDay, "01/13/2024": ErrNoSuchDay, "00/01/2024": ErrNoSuchDay} {
		_, err := ParseBR(s)
		if !errors.Is(err, kind) {
			t.Errorf("ParseBR(%q) error = %v; want %v", s, err, kind)
		}
	}
	if _, err := ParseBR("31/02/2024"); err == nil || err.Error() != "a data 31/02/2024 não existe no calendário." {
		t.Errorf("message = %v", err)
	}
	if _, err := ParseBR("amanhã"); err == nil || err.Error() != `data "amanhã" inválida: use dd/mm/aaaa.` {
		t.Errorf("message = %v", err)
	}
}

// CP art. 27; ECA art. 2º: a minor until the day before the 18th birthday;
// born on 29/02, of age on 01/03 of a common year.
func TestMinorOnEighteenthBirthday(t *testing.T) {
	for _, c := range []struct {
		birth, day string
		minor      bool
	}{
		{"2006-06-15", "2024-06-14", true},
		{"2006-06-15", "2024-06-15", false},
		{"2004-02-29", "2022-02-28", true},
		{"2004-02-29", "2022-03-01", false},
		{"2000-01-01", "1999-01-01", true},
	} {
		if got := MinorOn(MustParse(c.birth), MustParse(c.day)); got != c.minor {
			t.Errorf("MinorOn(%s, %s) = %v, want %v", c.birth, c.day, got, c.minor)
		}
	}
}

// ParseISO reads the API's AAAA-MM-DD exactly; a day the calendar lacks
// (2024-02-30, and 0000-01-01: there is no year 0) is ErrNoSuchDay with the
// message the API answers, another form ErrNotDateISO.
func TestParseISOReadsAPIDates(t *testing.T) {
	if d, err := ParseISO("2024-02-29"); err != nil || d.String() != "2024-02-29" {
		t.Errorf("ParseISO(2024-02-29) = %v, %v", d, err)
	}
	for s, kind := range map[string]error{"2024-02-30": ErrNoSuchDay, "0000-01-01": ErrNoSuchDay, "2024-13-01": ErrNoSuchDay,
		"2024-3-5": ErrNotDateISO, " 2024-03-05": ErrNotDateISO, "05/03/2024": ErrNotDateISO, "": ErrNotDateISO} {
		if _, err := ParseISO(s); !errors.Is(err, kind) {
			t.Errorf("ParseISO(%q) error = %v; want %v", s, err, kind)
		}
	}
	if _, err := ParseISO("0000-01-01"); err == nil || err.Error() != "a data 0000-01-01 não existe no calendário." {
		t.Errorf("message = %v", err)
	}
	if _, err := ParseBR("01/01/0000"); !errors.Is(err, ErrNoSuchDay) {
		t.Errorf("ParseBR(01/01/0000) error = %v; want ErrNoSuchDay (no year 0)", err)
	}
}
