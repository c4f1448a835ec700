package wire

import "testing"

// Places.Find matches as cases.FindVenue: the whole name or the popular
// name, case and accents ignored, the whole name first; a name two venues
// answer to is nobody's unless it is the first one's name; HomeVenues
// folds the club's name.
func TestPlacesFindAsFindVenue(t *testing.T) {
	p := &Places{
		Venues: []Venue{
			{ID: 1, Name: "Estádio Jornalista Mário Filho (Maracanã)", Aliases: []string{"Maracanã"}},
			{ID: 2, Name: "Arena Corinthians", Aliases: []string{}},
			{ID: 3, Name: "Neo Química Arena (Arena Corinthians)", Aliases: []string{"Arena Corinthians"}},
			{ID: 4, Name: "Estádio A (Popular)", Aliases: []string{"Popular"}},
			{ID: 5, Name: "Estádio B (Popular)", Aliases: []string{"Popular"}},
		},
		Homes: []Home{{Club: "São Paulo", VenueIDs: []int64{7, 9}}},
	}
	x := p.Index()
	for _, k := range []struct {
		name string
		id   int64
	}{
		{"maracana", 1},
		{"  MARACANÃ ", 1},
		{"estadio jornalista mario filho (maracana)", 1},
		{"Arena Corinthians", 2}, // the whole name of 2, first, and named exactly
		{"arena corinthians", 2}, // two venues: the first one's name, case ignored (EqualFold)
		{"ARENA CORINTHIANS", 2},
		{"Arena Corinthiãns", 0},   // accents differ from the first one's name: ambiguous
		{"Popular", 0},             // two popular names, neither a whole name
		{"Estadio Inexistente", 0}, // none
		{"Neo Química Arena", 0},   // the name without its popular part is not a name of it
	} {
		got := int64(0)
		if v := x.VenueNamed(k.name); v != nil {
			got = v.ID
		}
		if got != k.id {
			t.Errorf("Find(%q) = %d, want %d", k.name, got, k.id)
		}
	}
	if ids := x.HomeVenues("SAO PAULO"); len(ids) != 2 || ids[0] != 7 {
		t.Errorf("HomeVenues: %v", ids)
	}
	if x.HomeVenues("Santos") != nil || (*PlaceIndex)(nil).VenueNamed("x") != nil || (*Places)(nil).Digest() != "" {
		t.Errorf("nothing from nothing")
	}
	if d := p.Digest(); len(d) != 16 || d == (&Places{}).Digest() {
		t.Errorf("digest %q", d)
	}
}
