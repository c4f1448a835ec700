// Package actor defines who acts: the one "who acts" type of the module
// (Actor, with no aliases), taken by the services and recorded by the
// audit trail (carried in the context, db.WithActor). It is a package of
// its own, with no imports of the module, so that internal/db (which
// internal/accounts imports), internal/accounts and the domain can name it.
package actor

import "fmt"

// Actor is who acts in a service call and in the audit trail: the
// authenticated user's id, name and role, and their domain (the court of
// staff, TR.OOOO; the group of a fan_group manager; the club of a club
// account). The zero UserID is the system or an anonymous caller.
// accounts.User.Actor builds it from an account.
type Actor struct {
	UserID  int64
	Name    string
	Role    string
	Court   string
	GroupID int64  // fan_group role only
	Club    string // club role only
	// Counsel is the defence's standing (role defence only): "oab:SP123456"
	// for a lawyer, "defensoria:SP" for a public defender (issue 29).
	Counsel string
}

// Domain names the actor's domain as the access policy and the audit trail
// spell it (DOMAIN.md §7): the court code (staff), "group:ID" (fan_group)
// or "club:NAME" (club), the defence's standing ("oab:UFNNN" or
// "defensoria:UF"); "" for none.
func (a Actor) Domain() string {
	switch {
	case a.Court != "":
		return a.Court
	case a.GroupID != 0:
		return fmt.Sprintf("group:%d", a.GroupID)
	case a.Club != "":
		return "club:" + a.Club
	case a.Counsel != "":
		return a.Counsel
	}
	return ""
}
