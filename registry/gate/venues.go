package gate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// A gate's configured venues are compared with the courts' venue tables
// (GET /api/v1/venues): a name no court knows (a misspelling, "Arena
// Corintians") matches no scoped ban, so every ban scoped to the venue it
// meant would silently not block here. The comparison is a report for the
// operator (GET /status unknown_venues, gate_unknown_venue, one log line
// per change); checks are answered as before.

// CourtVenue is one venue of a court's table as GET /api/v1/venues lists
// it: the name scoped bans carry (scope.venues, club_venues) and the other
// names the court matches it by (Aliases: its popular name in
// parentheses).
type CourtVenue struct {
	Name    string   `json:"name"`
	Aliases []string `json:"aliases"`
}

// VenuesEvery is how often the agent reads a court's venue list again
// while the court answers the feed.
const VenuesEvery = time.Hour

// VenuesRetry is the pause before the agent asks a court for its venue
// list again after a failure (the court answered the feed, not the list).
const VenuesRetry = time.Minute

// venuesTimeout bounds a request for the venue list (a few kilobytes), so
// that a court slow to answer it holds the feed that follows it little.
const venuesTimeout = 30 * time.Second

// venuesFile is the court's last venue list under Court.Dir, the body as
// received, so that an offline restart still compares the venues.
const venuesFile = "venues.json"

// venueList is the body of GET /api/v1/venues: Venues nil when the key is
// missing or null (not a venue list).
type venueList struct {
	Venues []CourtVenue `json:"venues"`
}

// parseVenues reads a venue list body; an error when it is not one.
func parseVenues(b []byte) ([]CourtVenue, error) {
	var l venueList
	if err := json.Unmarshal(b, &l); err != nil {
		return nil, fmt.Errorf("gate: venues: %w", err)
	}
	if l.Venues == nil {
		return nil, errors.New("gate: venues: the answer has no venues list")
	}
	return l.Venues, nil
}

// loadVenues restores the court's last venue list from its store (none
// when the file is missing or unreadable: nothing is reported from it).
func (c *Court) loadVenues() {
	b, err := os.ReadFile(filepath.Join(c.Dir, venuesFile))
	if err != nil {
		return
	}
	vs, err := parseVenues(b)
	if err != nil {
		c.logger().Warn("gate venue list not loaded", "url", c.URL, "error", err.Error())
		return
	}
	c.mu.Lock()
	c.venues = vs
	c.mu.Unlock()
}

// syncVenues reads the court's venue list when it is due (never read since
// start, VenuesEvery after the last answer, VenuesRetry after a failure,
// or the clock moved back): called after the court answered the feed.
// A 200 list replaces the one held (in memory and in venuesFile); a 404 is
// a court without the list (older than it): the one held is dropped; any
// other failure keeps the one held. None is an error of the sync: a change
// of failure is logged once.
func (c *Court) syncVenues(ctx context.Context) {
	now := c.Now()
	c.mu.Lock()
	due := c.venuesNext.IsZero() || !now.Before(c.venuesNext) || now.Before(c.venuesAsked)
	if due {
		c.venuesAsked, c.venuesNext = now, now.Add(VenuesRetry)
	}
	c.mu.Unlock()
	if !due {
		return
	}
	vs, err := c.fetchVenues(ctx)
	if ctx.Err() != nil {
		return // the agent stopping: asked again at the next start
	}
	switch {
	case errors.Is(err, errNoVenues):
		_ = os.Remove(filepath.Join(c.Dir, venuesFile))
		c.setVenues(nil, now)
	case err == nil:
		c.setVenues(vs, now)
		c.note(&c.venuesErr, "", "gate venue list recovered")
		return
	}
	c.note(&c.venuesErr, err.Error(), "gate venue list error", "list_held", c.hasVenues())
}

// errNoVenues is a court that answers 404 to GET /api/v1/venues.
var errNoVenues = errors.New("gate: GET /api/v1/venues: 404, a court without the venue list (older): its venues are not compared")

// fetchVenues asks the court for its venue list and stores a valid answer
// in venuesFile.
func (c *Court) fetchVenues(ctx context.Context) ([]CourtVenue, error) {
	ctx, cancel := context.WithTimeout(ctx, venuesTimeout)
	defer cancel()
	resp, body, err := c.get(ctx, "/api/v1/venues")
	if err != nil {
		return nil, err
	}
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound:
		return nil, errNoVenues
	default:
		return nil, fmt.Errorf("gate: GET /api/v1/venues: %s", resp.Status)
	}
	vs, err := parseVenues(body)
	if err != nil {
		return nil, err
	}
	if err := writeAtomic(filepath.Join(c.Dir, venuesFile), body); err != nil {
		c.logger().Warn("gate venue list not stored", "url", c.URL, "error", err.Error())
	}
	return vs, nil
}

// setVenues holds vs (nil: none) as the court's venue list, asked again
// VenuesEvery after now, and tells the agent when the list changed.
func (c *Court) setVenues(vs []CourtVenue, now time.Time) {
	c.mu.Lock()
	changed := (c.venues == nil) != (vs == nil) || !slices.EqualFunc(c.venues, vs, func(a, b CourtVenue) bool {
		return a.Name == b.Name && slices.Equal(a.Aliases, b.Aliases)
	})
	c.venues, c.venuesNext = vs, now.Add(VenuesEvery)
	on := c.onVenues
	c.mu.Unlock()
	if changed && on != nil {
		on()
	}
}

// hasVenues reports whether the court's venue list is held.
func (c *Court) hasVenues() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.venues != nil
}

// venueKeys adds to keys the folded names of the court's venue list as the
// agent matches a scoped ban's venues (venueNames of each name, and each
// alias folded); it reports whether the court's list is held.
func (c *Court) venueKeys(keys map[string]bool) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, v := range c.venues {
		for _, n := range venueNames(v.Name) {
			keys[n] = true
		}
		for _, al := range v.Aliases {
			for _, n := range venueNames(al) {
				keys[n] = true
			}
		}
	}
	return c.venues != nil
}

// unknownVenues returns the configured venues (as written, in the order of
// the configuration, each once) that no court whose venue list is held
// knows: none of the forms the agent matches a venue by (venueNames: the
// folded name, without its part in parentheses, or that part) is a form of
// a name or alias of any court's venues. None while no court's list is
// held: a court not reached yet, or without the list, reports nothing.
func (a *Agent) unknownVenues() []string {
	keys := map[string]bool{}
	held := false
	for _, c := range a.Courts {
		if c.venueKeys(keys) {
			held = true
		}
	}
	out := []string{}
	if !held {
		return out
	}
	seen := map[string]bool{}
	for _, v := range a.Config.Venues {
		if seen[fold(v)] {
			continue
		}
		seen[fold(v)] = true
		known := false
		for _, n := range venueNames(v) {
			if keys[n] {
				known = true
				break
			}
		}
		if !known {
			out = append(out, v)
		}
	}
	return out
}

// noteVenues compares the configured venues again (a court's venue list
// changed, or the agent started) and keeps the result for GET /status and
// the metrics; a change is logged once: a warning naming the venues no
// court knows, information when they are all known again.
func (a *Agent) noteVenues() {
	// Computed and stored under vmu, so that two courts' lists changing at
	// once cannot leave the older comparison in place (lock order: vmu,
	// then a court's mu; setVenues calls this without its mu).
	a.vmu.Lock()
	defer a.vmu.Unlock()
	u := a.unknownVenues()
	was := a.unknown
	a.unknown = u
	if slices.Equal(was, u) {
		return
	}
	var courts []string
	for _, c := range a.Courts {
		if c.hasVenues() {
			courts = append(courts, c.URL)
		}
	}
	if len(u) > 0 {
		a.logger().Warn("gate venues unknown to the courts", "venues", u, "courts", courts,
			"hint", "a ban scoped to a venue blocks here only when venues names it as the court's venue table does (GET /api/v1/venues): check the spelling")
	} else if len(was) > 0 {
		a.logger().Info("gate venues known to the courts", "previous", was, "courts", courts)
	}
}

// UnknownVenues returns the configured venues that no court whose venue
// list the agent holds knows (GET /status unknown_venues): empty when all
// are known or no court's list is held yet. The slice is the agent's: read
// only.
func (a *Agent) UnknownVenues() []string {
	a.vmu.Lock()
	defer a.vmu.Unlock()
	if a.unknown == nil {
		return []string{}
	}
	return a.unknown
}

// logger is Config.Logger, else slog.Default().
func (a *Agent) logger() *slog.Logger {
	if a.Config.Logger != nil {
		return a.Config.Logger
	}
	return slog.Default()
}
