package cases

import "context"

// Court returns court code (TR.OOOO) with its defaults (GetCourt);
// errs.NotFound when there is none.
func (s *Service) Court(ctx context.Context, code string) (*Court, error) {
	return GetCourt(ctx, s.DB, code)
}

// SetCourtDefaults sets court code's defaults for new sentences: the
// reading of Lei 14.597/2023, art. 201, § 7º and the publication of
// individual bans (SetCourtDefaults); found is false when there is no such
// court.
func (s *Service) SetCourtDefaults(ctx context.Context, code string, sec7DoublesBan, publish bool) (found bool, err error) {
	return SetCourtDefaults(ctx, s.DB, code, sec7DoublesBan, publish)
}

// JudgeLoads returns each judge's load of cases (JudgeLoads): what
// equitable distribution weighs.
func (s *Service) JudgeLoads(ctx context.Context, judgeIDs []int64) (map[int64]JudgeLoad, error) {
	return JudgeLoads(ctx, s.DB, judgeIDs)
}

// Venues returns every venue by name (ListVenues).
func (s *Service) Venues(ctx context.Context) ([]Venue, error) { return ListVenues(ctx, s.DB) }

// VenueAliases returns every venue with its alias (ListVenueAliases): the
// table GET /api/v1/venues publishes.
func (s *Service) VenueAliases(ctx context.Context) ([]ListedVenue, error) {
	return ListVenueAliases(ctx, s.DB)
}

// FindVenue returns the venue whose name or popular name matches name
// (FindVenue); nil when none or several do.
func (s *Service) FindVenue(ctx context.Context, name string) (*Venue, error) {
	return FindVenue(ctx, s.DB, name)
}

// SetDefensoriaDoubling sets whether court code doubles the Defensoria
// Pública's windows in the JECRIM (LC 80/1994, arts. 44, I, 89, I, and
// 128, I; SetDefensoriaDoubling); found is false
// when there is no such court.
func (s *Service) SetDefensoriaDoubling(ctx context.Context, code string, doubles bool) (found bool, err error) {
	return SetDefensoriaDoubling(ctx, s.DB, code, doubles)
}

// SetCourtDataJud sets court code's judging unit for the DataJud export
// (Res. CNJ 331/2020; SetCourtDataJud): errs.Invalid naming the field out
// of its rule; found is false when there is no such court.
func (s *Service) SetCourtDataJud(ctx context.Context, code string, u DataJudUnit) (found bool, err error) {
	return SetCourtDataJud(ctx, s.DB, code, u)
}

// SetCourtName renames court code (SetCourtName): errs.Invalid on "name"
// for an empty or malformed name; found is false when there is no such
// court.
func (s *Service) SetCourtName(ctx context.Context, code, name string) (found bool, err error) {
	return SetCourtName(ctx, s.DB, code, name)
}
