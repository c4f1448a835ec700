package sanctions

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/registry/blocklist/wire"
)

// Scope is where a ban applies when the judge names the places (CPP art.
// 319, II; Lei 9.099/1995, art. 89, § 1º, II; a TAC); nil is anywhere. It
// is the one type the court stores (bans.scope, jsonb), signs on the
// blocklist and the gate agent reads: wire.Scope.
type Scope = wire.Scope

// ClubVenue is a venue where one of a scope's clubs plays at home in the
// court's imported schedule, with its open days (wire.ClubVenue).
type ClubVenue = wire.ClubVenue

// MatchTerm is a term counted in matches ("os próximos 3 jogos do Sport em
// casa"): Matches matches of Club (home matches only with HomeOnly) from
// the ban's first day on, as the court's imported schedule lists them.
// The ban covers those matches' days (Ban.MatchDays) and ends on the last.
type MatchTerm struct {
	Matches  int    `json:"matches"`
	Club     string `json:"club"`
	HomeOnly bool   `json:"home_only"`
}

// Value stores the term as jsonb.
func (m MatchTerm) Value() (driver.Value, error) {
	b, err := json.Marshal(m)
	return string(b), err
}

// Scan reads a jsonb match term.
func (m *MatchTerm) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*m = MatchTerm{}
		return nil
	case []byte:
		return json.Unmarshal(v, m)
	case string:
		return json.Unmarshal([]byte(v), m)
	}
	return fmt.Errorf("sanctions: cannot scan %T into a MatchTerm", src)
}

// DayList is a list of civil dates (a match-counted ban's match days),
// stored as a jsonb array; nil is NULL (no match term).
type DayList []civil.Date

// Value stores the days as a jsonb array (NULL when nil).
func (d DayList) Value() (driver.Value, error) {
	if d == nil {
		return nil, nil
	}
	b, err := json.Marshal([]civil.Date(d))
	return string(b), err
}

// Scan reads a jsonb array of dates.
func (d *DayList) Scan(src any) error {
	var b []byte
	switch v := src.(type) {
	case nil:
		*d = nil
		return nil
	case []byte:
		b = v
	case string:
		b = []byte(v)
	default:
		return fmt.Errorf("sanctions: cannot scan %T into a DayList", src)
	}
	var out []civil.Date
	if err := json.Unmarshal(b, &out); err != nil {
		return err
	}
	*d = out
	return nil
}

// Has reports whether day is one of the days.
func (d DayList) Has(day civil.Date) bool {
	for _, x := range d {
		if x == day {
			return true
		}
	}
	return false
}

// AnywherePT is the scope of a statutory ban in words.
const AnywherePT = "qualquer local em que se realize evento esportivo"

// ScopePT says where a ban applies, in Portuguese: AnywherePT for nil, or
// "Estádio A e Estádio B; jogos em casa do Sport".
func ScopePT(s *Scope) string {
	if s == nil {
		return AnywherePT
	}
	var parts []string
	if len(s.Venues) > 0 {
		parts = append(parts, listPT(s.Venues))
	}
	if len(s.Clubs) > 0 {
		parts = append(parts, "jogos em casa de "+listPT(s.Clubs))
	}
	if len(parts) == 0 {
		return AnywherePT
	}
	return strings.Join(parts, "; ")
}

// MatchTermPT says a match-counted term in Portuguese: "os próximos 3 jogos
// do Sport como mandante (22/02/2026, 01/03/2026 e 08/03/2026)"; "" for nil.
func MatchTermPT(m *MatchTerm, days DayList) string {
	if m == nil {
		return ""
	}
	t := fmt.Sprintf("os próximos %d jogos de %s", m.Matches, m.Club)
	if m.Matches == 1 {
		t = "o próximo jogo de " + m.Club
	}
	if m.HomeOnly {
		t += " como mandante"
	}
	if len(days) > 0 {
		t += " (" + DaysPT(days) + ")"
	}
	return t
}

// DaysPT lists days as Portuguese prose, dd/mm/aaaa: "22/02/2026,
// 01/03/2026 e 08/03/2026" ("" for none).
func DaysPT(days []civil.Date) string {
	ds := make([]string, len(days))
	for i, d := range days {
		ds[i] = d.BR()
	}
	return listPT(ds)
}

// DaysOfBanPT says on which days a ban blocks, in Portuguese: on its match
// days only for a term counted in matches ("somente nos dias de jogo:
// 22/02/2026 e 01/03/2026"), else every day of its period (DOMAIN.md §6).
func DaysOfBanPT(matchDays []civil.Date) string {
	if len(matchDays) == 0 {
		return "todos os dias do período"
	}
	return "somente nos dias de jogo: " + DaysPT(matchDays)
}

// listPT joins a list as Portuguese prose: "A", "A e B", "A, B e C".
func listPT(l []string) string {
	switch len(l) {
	case 0:
		return ""
	case 1:
		return l[0]
	}
	return strings.Join(l[:len(l)-1], ", ") + " e " + l[len(l)-1]
}
