package form

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
)

// ParseDateBR reads a date typed as dd/mm/aaaa (or AAAA-MM-DD) with
// civil.ParseBR, the one reader of typed dates, and words its errors as the
// pages do: "data inválida: use dd/mm/aaaa" (civil.ErrNotDateBR) or "data
// inexistente: confira dia e mês" (civil.ErrNoSuchDay), without the final
// period (ISODate and Instant add it).
func ParseDateBR(s string) (civil.Date, error) {
	d, err := civil.ParseBR(s)
	switch {
	case errors.Is(err, civil.ErrNoSuchDay):
		return civil.Date{}, errors.New("data inexistente: confira dia e mês")
	case err != nil:
		return civil.Date{}, errors.New("data inválida: use dd/mm/aaaa")
	}
	return d, nil
}

// ISODate turns a typed date into AAAA-MM-DD for the services; "" stays
// "", and a date it cannot read is added to f under field.
func ISODate(f *errs.Fields, field, typed string) string {
	typed = strings.TrimSpace(typed)
	if typed == "" {
		return ""
	}
	d, err := ParseDateBR(typed)
	if err != nil {
		f.Add(field, "date", err.Error()+".")
		return ""
	}
	return d.String()
}

// Instant joins a date (dd/mm/aaaa) and a time (hh:mm) in loc into RFC 3339.
func Instant(f *errs.Fields, field, date, clock string, loc *time.Location, required bool) string {
	if strings.TrimSpace(date) == "" {
		if required {
			f.Add(field, "required", "Informe a data (dd/mm/aaaa).")
		}
		return ""
	}
	d, err := ParseDateBR(date)
	if err != nil {
		f.Add(field, "date", err.Error()+".")
		return ""
	}
	var hh, mm int
	clock = strings.TrimSpace(clock)
	// The time has a field of its own, named field+"_hora": its error goes there.
	if clock == "" {
		f.Add(field+"_hora", "time", "Informe também a hora (hh:mm).")
		return ""
	}
	if n, err := fmt.Sscanf(clock, "%d:%d", &hh, &mm); err != nil || n != 2 || hh < 0 || hh > 23 || mm < 0 || mm > 59 {
		f.Add(field+"_hora", "time", "Hora inválida: use hh:mm (por exemplo 15:20).")
		return ""
	}
	return time.Date(d.Year, d.Month, d.Day, hh, mm, 0, 0, loc).Format(time.RFC3339)
}
