package decisions_test

import (
	"context"
	"strings"
	"testing"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/testenv"
)

// LGE art. 201, § 1º, I: the distance from the facts to the venue and the
// place relation are recorded at filing and shown with the case.
func TestFile_LGE_art_201_sec1_I_DistanceAndPlace(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		in       func() cases.Representation
		rel      string
		min, max int
		warn     bool
	}{
		{"R1_at_venue", func() cases.Representation { return casetest.Fixture(t, "R1") }, "at_venue", 140, 152, false},
		{"R2_haddock_lobo_within_5000m", func() cases.Representation { return casetest.Fixture(t, "R2") }, "within_5000m", 3500, 3650, false},
		{"R2_on_route_said_but_within_5000m", func() cases.Representation {
			r := casetest.Fixture(t, "R2")
			r.Facts.OnRoute = casetest.Ptr(true)
			return r
		}, "within_5000m", 3500, 3650, false},
		{"far_on_route", func() cases.Representation {
			r := casetest.Fixture(t, "R2")
			r.Facts.Latitude, r.Facts.Longitude, r.Facts.OnRoute = casetest.Ptr(-22.99), casetest.Ptr(-43.36), casetest.Ptr(true)
			return r
		}, "on_route", 5001, 20000, false},
		{"far_not_on_route_warns", func() cases.Representation {
			r := casetest.Fixture(t, "R2")
			r.Facts.Latitude, r.Facts.Longitude = casetest.Ptr(-22.99), casetest.Ptr(-43.36)
			return r
		}, "beyond_5000m", 5001, 20000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := e.File(t, tc.in())
			if c.PlaceRelation == nil || *c.PlaceRelation != tc.rel || c.DistanceToVenueM == nil {
				t.Fatalf("relation %v distance %v, want %s", c.PlaceRelation, c.DistanceToVenueM, tc.rel)
			}
			v, err := e.Svc.Casefile.Get(ctx, e.Pros, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			if v.Facts.PlaceRelation == nil || *v.Facts.PlaceRelation != tc.rel || v.Facts.DistanceToVenueM == nil ||
				*v.Facts.DistanceToVenueM < tc.min || *v.Facts.DistanceToVenueM > tc.max {
				t.Errorf("view: relation %v distance %v, want %s in %d..%d m", v.Facts.PlaceRelation, v.Facts.DistanceToVenueM, tc.rel, tc.min, tc.max)
			}
			if got := len(v.Warnings) > 0 && strings.Contains(v.Warnings[0], "art. 201, § 1º, I"); got != tc.warn {
				t.Errorf("warnings %q, want a § 1º, I warning: %v", v.Warnings, tc.warn)
			}
		})
	}
	// The route needs an event.
	r := casetest.Fixture(t, "R1")
	r.Event, r.Facts.Conduct, r.Facts.OnRoute = nil, []string{"fan_fight"}, casetest.Ptr(true)
	_, err := e.Svc.Case.File(ctx, e.Pros, r)
	casetest.InvalidField(t, err, "facts.on_route", false)
	// Without coordinates nothing is computed.
	r = casetest.Fixture(t, "R1")
	r.Facts.Latitude, r.Facts.Longitude = nil, nil
	c := e.File(t, r)
	if c.DistanceToVenueM != nil || c.PlaceRelation != nil {
		t.Errorf("no coordinates: distance %v relation %v, want none", c.DistanceToVenueM, c.PlaceRelation)
	}
}
