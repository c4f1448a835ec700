package accounts

import "github.com/juizado/juizado/internal/actor"

// Actor is who acts in a service call: the one "who acts" type of the
// module (internal/actor; cases.Actor, registry.Actor and the audit
// trail's db.Actor are the same type): the authenticated user's id, name
// and role, and their domain (Court, GroupID or Club; Actor.Domain spells
// it). The zero UserID is the system or an anonymous caller.
type Actor = actor.Actor

// Actor returns u as the actor of a service call.
func (u User) Actor() Actor {
	a := Actor{UserID: u.ID, Name: u.Name, Role: u.Role, Court: u.Court()}
	if u.GroupID != nil {
		a.GroupID = *u.GroupID
	}
	if u.Club != nil {
		a.Club = *u.Club
	}
	return a
}
