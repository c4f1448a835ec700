package civil

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Errors of ParseBR, for callers that word the message themselves
// (errors.Is): the text is not a date in a known form, or names a day the
// calendar does not have (31/02/2024).
var (
	ErrNotDateBR = errors.New("civil: not a date in the form dd/mm/aaaa")
	ErrNoSuchDay = errors.New("civil: no such day in the calendar")
)

var (
	brForm  = regexp.MustCompile(`^(\d{1,2})/(\d{1,2})/(\d{4})$`)
	isoForm = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})$`)
)

// dateBRError is an error of ParseBR: its message is in Portuguese (shown
// as typed to the user) and it matches ErrNotDateBR or ErrNoSuchDay.
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
	if m < 1 || m > 12 || d < 1 || d > DaysIn(y, time.Month(m)) {
		return Date{}, &dateBRError{ErrNoSuchDay, fmt.Sprintf("a data %s não existe no calendário.", s)}
	}
	return Date{Year: y, Month: time.Month(m), Day: d}, nil
}
