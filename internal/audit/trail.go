package audit

import (
	"context"

	"github.com/juizado/juizado/internal/errs"
	"gorm.io/gorm"
)

// Trail reads the audit trail (audit_log) over one database: the service
// the HTTP packages call (built once by app.New). Every read through it is
// scoped to one court (issue 32, item 5; DOMAIN.md §7: each court's staff
// reads its own court's trail): the rows of that court's domain and of the
// member registers of its fan groups (domain "group:ID"), never another
// court's, nor the rows of no domain.
type Trail struct {
	DB *gorm.DB
}

// ErrNoCourt is the answer of Trail.List and Trail.Count to a caller
// without a court (a club's or a fan group's account, or any account a
// wrongly added policy rule lets reach the trail): errs.Forbidden (HTTP
// 403), and no row is read.
var ErrNoCourt = errs.New(errs.Forbidden, "A auditoria é lida somente por usuários de um juizado, e somente a do próprio juizado.")

// scoped returns f limited to court (court code, TR.OOOO, and its fan
// groups' registers), or ErrNoCourt when court is empty: the caller's own
// Domain and CourtGroups in f are ignored.
func scoped(court string, f Filter) (Filter, error) {
	if court == "" {
		return Filter{}, ErrNoCourt
	}
	f.Domain, f.CourtGroups = court, true
	return f, nil
}

// List returns the rows of court's trail that match f, newest first (List);
// ErrNoCourt when court is empty.
func (t *Trail) List(ctx context.Context, court string, f Filter) ([]Entry, error) {
	f, err := scoped(court, f)
	if err != nil {
		return nil, err
	}
	return List(ctx, t.DB, f)
}

// Count returns how many rows of court's trail match f (Count); ErrNoCourt
// when court is empty.
func (t *Trail) Count(ctx context.Context, court string, f Filter) (int64, error) {
	f, err := scoped(court, f)
	if err != nil {
		return 0, err
	}
	return Count(ctx, t.DB, f)
}
