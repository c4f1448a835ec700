package api

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/sanctions"
	"github.com/labstack/echo/v4"
)

func boolParam(c echo.Context, name string, f *errs.Fields) *bool {
	v := c.QueryParam(name)
	if v == "" {
		return nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		f.Add(name, "bool", "use true ou false.")
		return nil
	}
	return &b
}

// dateParam reads the query date v (YYYY-MM-DD) of field with
// civil.ParseISO, as the other endpoints read dates (cases): a value in
// another form is "informe FIELD como AAAA-MM-DD."; one in that form that is
// no day of the calendar (2024-02-30; 0000-01-01: there is no year 0) is "a
// data V não existe no calendário." (civil.NoSuchDay). ok is false on error.
func dateParam(f *errs.Fields, field, v string) (civil.Date, bool) {
	d, err := civil.ParseISO(v)
	switch {
	case errors.Is(err, civil.ErrNoSuchDay):
		f.Add(field, "date", err.Error())
	case err != nil:
		f.Add(field, "date", "informe "+field+" como AAAA-MM-DD.")
	default:
		return d, true
	}
	return civil.Date{}, false
}

// banRange: GET /api/v1/legal/ban-range (anyone): the range the law allows
// for the date of the facts (sanctions.BanRange).
func (s *API) banRange(c echo.Context) error {
	var f errs.Fields
	q := sanctions.Query{Subject: sanctions.Subject(c.QueryParam("subject"))}
	if q.Subject != sanctions.Person && q.Subject != sanctions.Group {
		f.Add("subject", "oneof", "subject deve ser person ou group.")
	}
	q.FactsDate, _ = dateParam(&f, "facts_date", c.QueryParam("facts_date"))
	q.Eligible = boolParam(c, "eligible", &f)
	q.Organiser = boolParam(c, "organiser", &f)
	q.Sec7 = boolParam(c, "sec7", &f)
	q.OffVenue = boolParam(c, "off_venue", &f)
	q.Sec7DoublesBan = boolParam(c, "sec7_doubles_ban", &f)
	if q.Organiser == nil {
		q.Organiser = new(bool)
	}
	if q.Sec7 == nil {
		q.Sec7 = new(bool)
	}
	if q.OffVenue == nil {
		q.OffVenue = new(bool)
	}
	if cs := c.QueryParam("conduct"); cs != "" {
		for _, w := range strings.Split(cs, ",") {
			w = strings.TrimSpace(w)
			if !sanctions.IsConductWord(w) {
				f.Add("conduct", "oneof", "conduta desconhecida "+strconv.Quote(w)+"; use: "+strings.Join(sanctions.ConductWords, ", ")+".")
			}
			q.Conduct = append(q.Conduct, w)
		}
		// With conduct words the flags not given are derived from them.
		if c.QueryParam("organiser") == "" {
			q.Organiser = nil
		}
		if c.QueryParam("sec7") == "" {
			q.Sec7 = nil
		}
		if c.QueryParam("off_venue") == "" {
			q.OffVenue = nil
		}
	}
	if err := f.Err(); err != nil {
		return err
	}
	r, err := sanctions.BanRange(q)
	if err != nil {
		var nc *sanctions.NotCoveredError
		if errors.As(err, &nc) {
			field := nc.Field
			if field == "" {
				field = "facts_date"
			}
			return errs.InvalidField(field, "covered", nc.Reason)
		}
		return err
	}
	out := rangeBody(r)
	if q.Subject != sanctions.Group {
		delete(out, "members")
	}
	return c.JSON(http.StatusOK, out)
}

// banTerm: GET /api/v1/legal/ban-term (anyone): the last day of a ban (CP
// art. 10, sanctions.LastDay).
func (s *API) banTerm(c echo.Context) error {
	var f errs.Fields
	first, _ := dateParam(&f, "first_day", c.QueryParam("first_day"))
	var months int
	if !c.QueryParams().Has("months") {
		f.Add("months", "required", "informe months: o prazo do impedimento em meses, de 1 a 1200.")
	} else if n, fe := server.IntParam("months", c.QueryParam("months"), 1, 1200); fe != nil {
		f = append(f, *fe)
	} else {
		months = int(n)
	}
	if err := f.Err(); err != nil {
		return err
	}
	last, err := sanctions.LastDay(first, months)
	if errors.Is(err, sanctions.ErrFirstDay) {
		return errs.InvalidField("first_day", "date", civil.NoSuchDay(c.QueryParam("first_day")).Error())
	}
	if err != nil {
		return errs.InvalidField("months", "range", err.Error())
	}
	if last.Year > 9999 {
		return errs.InvalidField("months", "range", "o último dia passaria do ano 9999.")
	}
	return c.JSON(http.StatusOK, map[string]any{"first_day": first, "months": months, "last_day": last})
}

// legalDeadline: GET /api/v1/legal/deadline?notified_on=YYYY-MM-DD&kind=
// criminal_appeal|civil_appeal|criminal_embargos|civil_embargos|
// criminal_extraordinary[&court=TR.OOOO][&party=prosecution|defendant|
// defence][&public_defender=true][&recess_exception=custody|maria_da_penha|
// urgent] (anyone): the appeal window opened by a notification
// (sanctions.CountPeriod; DOMAIN.md §4: national holidays built in, the
// recess of CPP art. 798-A or CPC art. 220, the doublings of CPC art. 180
// and LC 80/1994), with that court's holidays and setting when court is
// given: {notified_on, counted_from, first_day, last_day, days,
// working_days, kind, rule, skipped}.
func (s *API) legalDeadline(c echo.Context) error {
	p, err := s.Cases.Calendar.LegalDeadline(c.Request().Context(), calendar.DeadlineQuery{NotifiedOn: c.QueryParam("notified_on"), Kind: c.QueryParam("kind"),
		Court: c.QueryParam("court"), Party: c.QueryParam("party"), PublicDefender: c.QueryParam("public_defender"), RecessException: c.QueryParam("recess_exception")})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}
