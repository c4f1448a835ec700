package accounts

import "github.com/juizado/juizado/internal/actor"

// Actor returns u as the actor of a service call.
func (u User) Actor() actor.Actor {
	a := actor.Actor{UserID: u.ID, Name: u.Name, Role: u.Role, Court: u.Court()}
	if u.GroupID != nil {
		a.GroupID = *u.GroupID
	}
	if u.Club != nil {
		a.Club = *u.Club
	}
	switch {
	case u.OAB != nil:
		a.Counsel = "oab:" + *u.OAB
	case u.DefensoriaUF != nil:
		a.Counsel = "defensoria:" + *u.DefensoriaUF
	}
	return a
}
