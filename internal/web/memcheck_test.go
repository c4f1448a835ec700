package web_test

import (
	"context"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/registry/gate"
)

// Every check from memory (issue 32, item 2): with the database down, the
// court's check (and a gate agent's, from the places signed with the
// list: a venue renamed in the table after the ban is matched by id)
// answers for a venue named by its name or its popular
// name, for a ban scoped to venues, for one scoped to a club's home
// matches (at a venue, and for the club's own token with no venue: its
// home venues), and for one counted in matches (its match days, the date
// moving on during the outage), from the version's places and entries in
// memory; an unknown venue is still 422 naming venue.
func TestOutage_ChecksWithVenueAndScopeFromMemory(t *testing.T) {
	cluster, g, _ := privateCluster(t)
	w := newWFOn(t, g)
	w.addJudge()
	w.importSchedule(scopeSchedule)
	const cpfClub, cpfMatches = "52998224725", "11144477735"
	caseID, defID, _ := w.file("R1")
	w.precautionary(caseID, defID, map[string]any{"scope": map[string]any{"venues": []string{"arena corinthians"}}})
	caseID, defID = w.filePerson("Torcedor do Clube", cpfClub)
	w.precautionary(caseID, defID, map[string]any{"scope": map[string]any{"clubs": []string{"CORINTHIANS"}}})
	caseID, defID = w.filePerson("Torcedor das Partidas", cpfMatches)
	w.precautionary(caseID, defID, map[string]any{"ban": map[string]any{"matches": 3, "club": "corinthians", "home_only": true}})
	ctx := context.Background()
	u, _, err := accounts.EnsureUser(ctx, w.g, accounts.UserSpec{Name: "portao-corinthians", Role: "club", Club: "Corinthians"})
	if err != nil {
		t.Fatal(err)
	}
	if w.tok["corinthians"], err = accounts.NewToken(ctx, w.g, u.ID, time.Time{}); err != nil {
		t.Fatal(err)
	}

	// 2025-06-15: Corinthians at home at the Arena Corinthians.
	w.clk.Set(time.Date(2025, 6, 15, 12, 0, 0, 0, w.loc))
	type ask struct {
		cpf, venue, as string
		blocked        bool
	}
	asks := []ask{
		{r1CPF, "Arena Corinthians", "club", true},
		{r1CPF, "ARENA CORINTHIANS", "club", true},
		{r1CPF, "Maracana", "club", false}, // the popular name of a venue the ban does not name
		{r1CPF, "Allianz Parque", "club", false},
		{cpfClub, "arena corinthians", "club", true}, // a named club's home match
		{cpfClub, "Allianz Parque", "club", false},
		{cpfClub, "", "corinthians", true}, // the club's home venue, from its token
		{cpfClub, "", "club", true},        // a club with no home venue: every ban blocks
		{cpfMatches, "Arena Corinthians", "club", true},
		{cpfMatches, "Allianz Parque", "club", true}, // a match-counted ban, not scoped: anywhere on its days
		{"39053344705", "Arena Corinthians", "club", false},
	}
	run := func(when string, asks []ask) {
		t.Helper()
		for _, a := range asks {
			path := "/api/v1/blocklist/check/" + a.cpf
			if a.venue != "" {
				path += "?venue=" + url.QueryEscape(a.venue)
			}
			rec, v := w.do("GET", path, a.as, nil)
			if rec.Code != 200 || v["blocked"] != a.blocked {
				t.Errorf("%s: check of %s at %q as %s: %d %v, want 200 blocked %v", when, a.cpf, a.venue, a.as, rec.Code, v, a.blocked)
			}
		}
	}
	run("database up", asks)

	// Gate agents synced with the court: one at the Arena and the Allianz
	// Parque, one at the Arena under the name the table gives it after
	// the ban ("Neo Química Arena (Arena Corinthians)", the old name now
	// its popular name): the ban names the old name, the agent's venue
	// ("Neo Química Arena") is matched by its id.
	if err := g.Exec(`UPDATE venues SET name = 'Neo Química Arena (Arena Corinthians)' WHERE name = 'Arena Corinthians'`).Error; err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // the places the court read are a second old at most
	court := httptest.NewServer(w.srv.Echo)
	defer court.Close()
	rec, keys := w.do("GET", "/api/v1/blocklist/key", "", nil)
	w.want(rec, 200, "keys")
	cc := gate.CourtConfig{URL: court.URL, Token: w.tok["club"], Keys: []string{keys["keys"].([]any)[0].(map[string]any)["public_key"].(string)}}
	agentClock := w.clk.Now
	newAgent := func(venues ...string) *gate.Agent {
		a, err := gate.New(gate.Config{DataDir: t.TempDir(), Device: "portao", MaxAge: gate.Duration(24 * time.Hour), Venues: venues, Courts: []gate.CourtConfig{cc}},
			func() time.Time { return agentClock() })
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		return a
	}
	two := newAgent("Arena Corinthians", "Allianz Parque")
	renamed := newAgent("Neo Química Arena")
	agentRun := func(when string, a *gate.Agent, asks []ask) {
		t.Helper()
		for _, k := range asks {
			if k.as != "club" || k.venue == "" || k.venue == "Maracana" {
				continue // the agent answers for its own venues
			}
			r, ok := a.CheckAt(k.cpf, k.venue)
			if !ok || r.Blocked != k.blocked {
				t.Errorf("%s: agent's check of %s at %q: ok %v blocked %v, want blocked %v", when, k.cpf, k.venue, ok, r.Blocked, k.blocked)
			}
		}
	}
	agentRun("database up", two, asks)
	atRenamed := []ask{{r1CPF, "Neo Química Arena", "club", true}, {cpfClub, "neo quimica arena", "club", true}, {cpfMatches, "Neo Química Arena", "club", true}}
	agentRun("database up, renamed venue", renamed, atRenamed)
	// The court knows the venue by its whole name or its popular name, as
	// cases.FindVenue: "Neo Química Arena" alone is not one of them.
	atRenamedCourt := []ask{{r1CPF, "Neo Química Arena (Arena Corinthians)", "club", true}, {cpfClub, "NEO QUIMICA ARENA (arena corinthians)", "club", true}}
	run("database up, renamed venue", atRenamedCourt)

	if err := cluster.Stop(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // past the second a version in memory counts as confirmed
	rec, _ = w.do("GET", "/api/v1/blocklist/check/"+r1CPF+"?venue=Arena+Corinthians", "club", nil)
	if rec.Code != 200 || rec.Header().Get("X-Blocklist-Degraded") != "database-unavailable" {
		t.Fatalf("check with the database down: %d, not answered from memory as degraded: %v", rec.Code, rec.Header())
	}
	run("database down", asks)
	if err := two.Sync(ctx); err == nil {
		t.Errorf("agent's sync with the court's database down: no error")
	}
	agentRun("database down", two, asks)
	agentRun("database down, renamed venue", renamed, atRenamed)
	run("database down, renamed venue", atRenamedCourt)
	rec, _ = w.do("GET", "/api/v1/blocklist/check/"+r1CPF+"?venue=Estadio+Inexistente", "club", nil)
	if rec.Code != 422 || !strings.Contains(rec.Body.String(), `"field":"venue"`) {
		t.Errorf("unknown venue with the database down: %d %s, want 422 on venue", rec.Code, rec.Body)
	}
	// The next day, still down: no match of Corinthians anywhere.
	w.clk.Set(time.Date(2025, 6, 16, 12, 0, 0, 0, w.loc))
	nextDay := []ask{
		{cpfMatches, "Arena Corinthians", "club", false},
		{cpfClub, "Arena Corinthians", "club", true}, // its home venue on a day without a match there
		{cpfClub, "Allianz Parque", "club", false},
		{r1CPF, "Arena Corinthians", "club", true},
	}
	run("database down, next day", nextDay)
	agentRun("database down, next day", two, nextDay)
	// 2025-06-20: São Paulo's home match at the Arena (a shared stadium).
	w.clk.Set(time.Date(2025, 6, 20, 12, 0, 0, 0, w.loc))
	run("database down, another club's day", []ask{{cpfClub, "Arena Corinthians", "club", false}, {cpfClub, "", "corinthians", false}})
	agentRun("database down, another club's day", two, []ask{{cpfClub, "Arena Corinthians", "club", false}})
	agentRun("database down, another club's day", renamed, []ask{{cpfClub, "Neo Química Arena", "club", false}})
	if err := cluster.Start(true); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond)
	w.clk.Set(time.Date(2025, 6, 15, 12, 0, 0, 0, w.loc))
	run("database back", asks)
}
