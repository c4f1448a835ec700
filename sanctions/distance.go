package sanctions

import "math"

// EarthRadiusMeters is the mean radius of the Earth (IUGG R1 = 6,371,008.8
// m) used by DistanceMeters.
const EarthRadiusMeters = 6371008.8

// Distances of the 5,000 m rule, in metres.
const (
	// AtVenueMeters: facts at most this far from the venue's coordinates are
	// recorded "at the venue". The coordinates of venues.csv mark a point
	// inside the stadium; 500 m covers the largest Brazilian stadiums, their
	// gates and their forecourts (Maracanã's plot is about 500 m across).
	AtVenueMeters = 500
	// SurroundingsMeters is the radius of Lei 14.597/2023, art. 201, § 1º, I
	// (Lei 10.671/2003, art. 41-B, § 1º, I; art. 39, § 1º, of the original
	// text): "num raio de 5.000 (cinco mil) metros ao redor do local de
	// realização do evento esportivo".
	SurroundingsMeters = 5000
)

// DistanceMeters returns the great-circle distance in metres between two
// points given in decimal degrees (WGS 84 latitude and longitude), by the
// haversine formula on a sphere of EarthRadiusMeters. It is symmetric, 0
// for the same point and at most π·R (20,015,115 m) for antipodes; the
// spherical model errs by under 0.5 % against the ellipsoid, a few metres at
// the 5,000 m of the rule.
func DistanceMeters(lat1, lon1, lat2, lon2 float64) float64 {
	rad := math.Pi / 180
	φ1, φ2 := lat1*rad, lat2*rad
	dφ, dλ := (lat2-lat1)*rad, (lon2-lon1)*rad
	h := math.Sin(dφ/2)*math.Sin(dφ/2) + math.Cos(φ1)*math.Cos(φ2)*math.Sin(dλ/2)*math.Sin(dλ/2)
	h = math.Min(1, math.Max(0, h)) // rounding must not leave asin's domain
	return 2 * EarthRadiusMeters * math.Asin(math.Sqrt(h))
}

// PlaceRelation is where the facts happened relative to the venue, as the
// case records it for the 5,000 m rule (Lei 14.597/2023, art. 201, § 1º, I;
// Lei 10.671/2003, art. 41-B, § 1º, I, and art. 39, § 1º, original text).
type PlaceRelation string

// Place relations, from the most to the least specific.
const (
	AtVenue     PlaceRelation = "at_venue"     // at most AtVenueMeters from the venue
	Within5000m PlaceRelation = "within_5000m" // at most SurroundingsMeters (§ 1º, I, first part)
	OnRoute     PlaceRelation = "on_route"     // farther, on the way to or from the venue (§ 1º, I, "no trajeto")
	Beyond5000m PlaceRelation = "beyond_5000m" // farther and not on the route: outside § 1º, I
)

// PlaceOf returns the relation for facts distanceM metres from the venue
// (see DistanceMeters): AtVenue up to AtVenueMeters inclusive, Within5000m
// up to SurroundingsMeters inclusive; beyond that, OnRoute when the filer
// says the facts happened on the way to or from the venue, else Beyond5000m
// (the conduct is then outside art. 201, § 1º, I, and the case is accepted
// with a warning). Being on the route matters only beyond 5,000 m: nearer,
// the distance alone brings the facts within § 1º, I.
func PlaceOf(distanceM float64, onRoute bool) PlaceRelation {
	switch {
	case distanceM <= AtVenueMeters:
		return AtVenue
	case distanceM <= SurroundingsMeters:
		return Within5000m
	case onRoute:
		return OnRoute
	}
	return Beyond5000m
}
