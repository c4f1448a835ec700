package civil

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Errors of ParseBR and ParseISO, for callers that word the message
// themselves (errors.Is): the text is not a date in the form read, or names
// a day the calendar does not have (31/02/2024; 0000-01-01: there is no
// year 0).
var (
	ErrNotDateBR  = errors.New("civil: not a date in the form dd/mm/aaaa")
	ErrNotDateISO = errors.New("civil: not a date in the form AAAA-MM-DD")
	ErrNoSuchDay  = errors.New("civil: no such day in the calendar")
)

var (
	brForm  = regexp.MustCompile(`^(\d{1,2})/(\d{1,2})/(\d{4})$`)
	isoForm = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})$`)
)

// dateBRError is an error of ParseBR or ParseISO: its message is in
// Portuguese (shown as typed to the user) and it matches ErrNotDateBR,
// ErrNotDateISO or ErrNoSuchDay.
type dateBRError struct {
	kind error
	msg  string
}

func (e *dateBRError) Error() string        { return e.msg }
func (e *dateBRError) Is(target error) bool { return target == e.kind }

// ParseBR reads a date as people type it in Brazil: dd/mm/aaaa (d/m/aaaa
// too, as Excel writes it), or the ISO form AAAA-MM-DD; surrounding spaces
// are ignored. This is the one reader of typed dates (forms, spreadsheets).
// The error's message is in Portuguese and names the text: "data "x"
// inválida: use dd/mm/aaaa." (errors.Is ErrNotDateBR) or "a data 31/02/2024
// não existe no calendário." (errors.Is ErrNoSuchDay).
func ParseBR(s string) (Date, error) {
	s = strings.TrimSpace(s)
	var y, m, d int
	if p := brForm.FindStringSubmatch(s); p != nil {
		d, _ = strconv.Atoi(p[1])
		m, _ = strconv.Atoi(p[2])
		y, _ = strconv.Atoi(p[3])
	} else if p := isoForm.FindStringSubmatch(s); p != nil {
		y, _ = strconv.Atoi(p[1])
		m, _ = strconv.Atoi(p[2])
		d, _ = strconv.Atoi(p[3])
	} else {
		return Date{}, &dateBRError{ErrNotDateBR, fmt.Sprintf("data %q inválida: use dd/mm/aaaa.", s)}
	}
	return calendarDay(s, y, m, d)
}

// ParseISO reads a date in the form of the API, AAAA-MM-DD, exactly (no
// spaces). The error's message is in Portuguese: "data "x" inválida: use
// AAAA-MM-DD." (errors.Is ErrNotDateISO) or "a data 2024-02-30 não existe
// no calendário." (errors.Is ErrNoSuchDay; also 0000-01-01).
func ParseISO(s string) (Date, error) {
	p := isoForm.FindStringSubmatch(s)
	if p == nil {
		return Date{}, &dateBRError{ErrNotDateISO, fmt.Sprintf("data %q inválida: use AAAA-MM-DD.", s)}
	}
	y, _ := strconv.Atoi(p[1])
	m, _ := strconv.Atoi(p[2])
	d, _ := strconv.Atoi(p[3])
	return calendarDay(s, y, m, d)
}

// NoSuchDay is the error of a date typed as s that names no day of the
// calendar: "a data S não existe no calendário." (errors.Is ErrNoSuchDay).
// ParseBR and ParseISO return it; callers that find a day invalid
// otherwise (sanctions.ErrFirstDay) word it with it too.
func NoSuchDay(s string) error {
	return &dateBRError{ErrNoSuchDay, fmt.Sprintf("a data %s não existe no calendário.", s)}
}

// calendarDay returns y-m-d, read from s, or NoSuchDay(s) when the
// calendar has no such day (Date.Valid: month 1 to 12, the month's days,
// a year after 0).
func calendarDay(s string, y, m, d int) (Date, error) {
	out := Date{Year: y, Month: time.Month(m), Day: d}
	if !out.Valid() {
		return Date{}, NoSuchDay(s)
	}
	return out, nil
}
