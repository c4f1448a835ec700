package web_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/juizado/juizado/cases"
)

// GET /api/v1/venues (docs/api.md, "The gate blocklist"; the gate agent's
// configured venues are compared with it): the court's venue table, public
// stadium names with no personal data, answered without a token and with
// a club's; the seed of venues.csv and a venue an admin added, by name,
// each with the aliases cases.FindVenue matches it by, so that every name
// and alias listed resolves to the venue listed (one matching, the
// court's).
func TestVenuesListTheCourtsVenueTable(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if err := f.g.Exec(`INSERT INTO venues (name, city, uf, latitude, longitude, capacity, time_zone)
		VALUES ('Arena da Amazônia (Vivaldão)', 'Manaus', 'AM', -3.08310, -60.02820, 44000, 'America/Manaus')`).Error; err != nil {
		t.Fatal(err)
	}
	type venue struct {
		ID       int64    `json:"id"`
		Name     string   `json:"name"`
		Aliases  []string `json:"aliases"`
		City     string   `json:"city"`
		UF       string   `json:"uf"`
		TimeZone string   `json:"time_zone"`
	}
	var first []venue
	for _, tok := range []string{"", f.tokens["club"], f.tokens["judge"]} {
		rec := f.call("GET", "/api/v1/venues", tok)
		var body struct {
			Venues []venue `json:"venues"`
		}
		if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json" || json.Unmarshal(rec.Body.Bytes(), &body) != nil {
			t.Fatalf("GET /api/v1/venues (token %v): %d %q %s", tok != "", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
		}
		if first == nil {
			first = body.Venues
		} else if len(body.Venues) != len(first) {
			t.Errorf("with a token: %d venues, without: %d", len(body.Venues), len(first))
		}
	}
	var n int64
	if err := f.g.Raw(`SELECT count(*) FROM venues`).Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	if int64(len(first)) != n || n != 16 { // 15 of the seed and the one added
		t.Fatalf("%d venues listed, %d in the table (want 16)", len(first), n)
	}
	var order []string // by name, in the database's collation
	if err := f.g.Raw(`SELECT name FROM venues ORDER BY name, id`).Scan(&order).Error; err != nil {
		t.Fatal(err)
	}
	by := map[string]venue{}
	for i, v := range first {
		if v.Name != order[i] {
			t.Errorf("venue %d: %q, want %q (by name)", i, v.Name, order[i])
		}
		if v.Aliases == nil {
			t.Errorf("%q: aliases null, want a list", v.Name)
		}
		by[v.Name] = v
		for _, name := range append([]string{v.Name}, v.Aliases...) {
			got, err := cases.FindVenue(ctx, f.g, name)
			if err != nil || got == nil || got.ID != v.ID {
				t.Errorf("%q listed for venue %d, FindVenue gives %+v (%v)", name, v.ID, got, err)
			}
		}
	}
	if v := by["Estádio Jornalista Mário Filho (Maracanã)"]; len(v.Aliases) != 1 || v.Aliases[0] != "Maracanã" || v.City != "Rio de Janeiro" || v.UF != "RJ" || v.TimeZone != "America/Sao_Paulo" {
		t.Errorf("Maracanã: %+v", v)
	}
	if v := by["Arena Corinthians"]; len(v.Aliases) != 0 || v.City != "São Paulo" {
		t.Errorf("Arena Corinthians: %+v", v)
	}
	if v := by["Arena da Amazônia (Vivaldão)"]; len(v.Aliases) != 1 || v.Aliases[0] != "Vivaldão" || v.TimeZone != "America/Manaus" || v.UF != "AM" {
		t.Errorf("the venue an admin added: %+v", v)
	}
	if _, ok := by["Arena Corintians"]; ok {
		t.Error("a misspelt name listed")
	}
}
