// Package civil holds the civil-date type that Juizado uses for every legal date
// (date of the facts, first and last day of a ban, birth date): a day of the
// calendar with no time and no zone, never a time.Time at midnight.
package civil

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"time"
)

// Date is a day of the proleptic Gregorian calendar (year, month, day), with
// no time of day and no time zone. The zero Date is invalid (year 0).
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// layout is the ISO 8601 calendar date form used in the API (YYYY-MM-DD).
const layout = "2006-01-02"

// Parse reads a date written as YYYY-MM-DD. It returns an error for any other
// form and for days that do not exist (2023-02-29).
func Parse(s string) (Date, error) {
	t, err := time.Parse(layout, s)
	if err != nil || len(s) != len(layout) {
		return Date{}, fmt.Errorf("civil: %q is not a date in the form YYYY-MM-DD", s)
	}
	return Of(t), nil
}

// MustParse is Parse that panics on error; for constants and tests only.
func MustParse(s string) Date {
	d, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return d
}

// Of returns the date of t in t's own location.
func Of(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Year: y, Month: m, Day: d}
}

// Today returns the calendar date at instant t in loc (the court's zone, by
// default America/Sao_Paulo).
func Today(t time.Time, loc *time.Location) Date { return Of(t.In(loc)) }

// New returns the date y-m-d, normalised the way time.Date normalises
// (2024-02-30 becomes 2024-03-01).
func New(y int, m time.Month, d int) Date {
	return Of(time.Date(y, m, d, 12, 0, 0, 0, time.UTC))
}

// IsZero reports whether d is the zero Date.
func (d Date) IsZero() bool { return d == Date{} }

// Valid reports whether d names a day that exists.
func (d Date) Valid() bool {
	return d.Year > 0 && d.Month >= 1 && d.Month <= 12 && d.Day >= 1 && d.Day <= DaysIn(d.Year, d.Month)
}

// DaysIn returns the number of days of month m of year y (28 to 31).
func DaysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 12, 0, 0, 0, time.UTC).Day()
}

// String writes d as YYYY-MM-DD.
func (d Date) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day) }

// BR writes d as dd/mm/aaaa, the form Brazilian users read.
func (d Date) BR() string { return fmt.Sprintf("%02d/%02d/%04d", d.Day, int(d.Month), d.Year) }

// AddDays returns d moved by n days (n may be negative).
func (d Date) AddDays(n int) Date {
	return Of(time.Date(d.Year, d.Month, d.Day+n, 12, 0, 0, 0, time.UTC))
}

// Compare returns -1, 0 or +1 as d is before, equal to or after o.
func (d Date) Compare(o Date) int {
	switch {
	case d.Year != o.Year:
		return sign(d.Year - o.Year)
	case d.Month != o.Month:
		return sign(int(d.Month) - int(o.Month))
	default:
		return sign(d.Day - o.Day)
	}
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

// Before reports whether d is before o.
func (d Date) Before(o Date) bool { return d.Compare(o) < 0 }

// After reports whether d is after o.
func (d Date) After(o Date) bool { return d.Compare(o) > 0 }

// Start returns the first instant of d in loc. On a day with no 00:00 (a
// daylight-saving change at midnight, as Brazil had before 2019) it is the
// first instant that exists, 01:00.
func (d Date) Start(loc *time.Location) time.Time {
	t := time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, loc)
	if Of(t) != d { // time.Date normalised a missing midnight back into the day before
		t = time.Date(d.Year, d.Month, d.Day, 1, 0, 0, 0, loc)
	}
	return t
}

// MarshalJSON writes d as "YYYY-MM-DD".
func (d Date) MarshalJSON() ([]byte, error) {
	return append(append(append(make([]byte, 0, 12), '"'), d.String()...), '"'), nil // digits and dashes: nothing to escape
}

// UnmarshalJSON reads "YYYY-MM-DD".
func (d *Date) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("civil: a date must be a string YYYY-MM-DD")
	}
	p, err := Parse(s)
	if err != nil {
		return err
	}
	*d = p
	return nil
}

// MarshalText writes d as YYYY-MM-DD.
func (d Date) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// Value stores d in a PostgreSQL date column.
func (d Date) Value() (driver.Value, error) { return d.String(), nil }

// Scan reads a PostgreSQL date column (time.Time or text).
func (d *Date) Scan(src any) error {
	switch v := src.(type) {
	case time.Time:
		*d = Date{Year: v.Year(), Month: v.Month(), Day: v.Day()}
		return nil
	case string:
		p, err := Parse(v)
		*d = p
		return err
	case []byte:
		p, err := Parse(string(v))
		*d = p
		return err
	}
	return fmt.Errorf("civil: cannot scan %T into a Date", src)
}
