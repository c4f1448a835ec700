package audit

import (
	"context"

	"gorm.io/gorm"
)

// Trail reads the audit trail (audit_log) over one database: the service
// the HTTP packages call (built once by app.New).
type Trail struct {
	DB *gorm.DB
}

// List returns the trail's rows that match f, newest first (List).
func (t *Trail) List(ctx context.Context, f Filter) ([]Entry, error) { return List(ctx, t.DB, f) }

// Count returns how many rows match f (Count).
func (t *Trail) Count(ctx context.Context, f Filter) (int64, error) { return Count(ctx, t.DB, f) }
