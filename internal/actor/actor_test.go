package actor

import "testing"

// DOMAIN.md §7: the domain of an actor is the court of staff, "group:ID"
// of a fan group's manager and "club:NAME" of a club account, as the
// policy and the audit trail spell it; none for the system.
func TestDomainSpellsCourtGroupOrClub(t *testing.T) {
	for _, c := range []struct {
		a    Actor
		want string
	}{
		{Actor{UserID: 1, Role: "judge", Court: "26.0100"}, "26.0100"},
		{Actor{UserID: 2, Role: "fan_group", GroupID: 7}, "group:7"},
		{Actor{UserID: 3, Role: "club", Club: "Clube Atlético"}, "club:Clube Atlético"},
		{Actor{UserID: 4, Role: "defence", Counsel: "oab:SP123456"}, "oab:SP123456"},
		{Actor{}, ""},
	} {
		if got := c.a.Domain(); got != c.want {
			t.Errorf("%+v.Domain() = %q, want %q", c.a, got, c.want)
		}
	}
}
