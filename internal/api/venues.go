package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// venueItem is one venue of GET /api/v1/venues: the court's venue table
// (seeded from venues.csv, admins add more) as names are matched against
// it (cases.FindVenue: case and accents ignored, the whole name or an
// alias). Aliases are the other names a venue answers to: its popular name
// in parentheses at the end of name; empty when it has none.
type venueItem struct {
	ID       int64    `json:"id"`
	Name     string   `json:"name"`
	Aliases  []string `json:"aliases"`
	City     string   `json:"city"`
	UF       string   `json:"uf"`
	TimeZone string   `json:"time_zone"`
}

// venues: GET /api/v1/venues (anyone: the names of public stadiums, no
// personal data; a club token is accepted as on every public route). 200
// {venues: [{id, name, aliases, city, uf, time_zone}]} by name: what a gate
// agent compares its configured venues with, so that a misspelt venue
// (which no scoped ban would ever name) is reported, not silently ignored.
func (s *API) venues(c echo.Context) error {
	vs, err := s.Cases.Case.VenueAliases(c.Request().Context())
	if err != nil {
		return err
	}
	items := make([]venueItem, 0, len(vs))
	for _, v := range vs {
		it := venueItem{ID: v.ID, Name: v.Name, Aliases: []string{}, City: v.City, UF: v.UF, TimeZone: v.TimeZone}
		if v.Alias != "" {
			it.Aliases = append(it.Aliases, v.Alias)
		}
		items = append(items, it)
	}
	return c.JSON(http.StatusOK, map[string]any{"venues": items})
}
