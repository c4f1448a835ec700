package authz

// Actor is who acts in a service call: the authenticated user's id, name
// and role, and their domain (the court of staff, TR.OOOO; the group of a
// fan_group manager). The zero UserID is the system or an anonymous
// caller. This is the one "who acts" type of the domain: cases.Actor and
// registry.Actor are aliases of it; the audit trail's db.Actor is built
// from it where a write is recorded.
type Actor struct {
	UserID  int64
	Name    string
	Role    string
	Court   string
	GroupID int64 // fan_group role only
}

// Actor returns u as the actor of a service call.
func (u User) Actor() Actor {
	a := Actor{UserID: u.ID, Name: u.Name, Role: u.Role, Court: u.Court()}
	if u.GroupID != nil {
		a.GroupID = *u.GroupID
	}
	return a
}
