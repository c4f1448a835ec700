package app

import (
	"context"
	"time"

	"github.com/juizado/juizado/cases/tpu"
)

// TPU returns table name of the CNJ's unified tables as the database holds
// it, with its version (Res. CNJ 46/2007; GET /api/v1/tpu); an unknown
// name is errs.Invalid on "table".
func (a *App) TPU(ctx context.Context, name string) (*tpu.Table, error) {
	sqlDB, err := a.db.DB()
	if err != nil {
		return nil, err
	}
	return tpu.Read(ctx, sqlDB, name)
}

// LoadTPU replaces a table with a newer version read from an SGT export
// (tpu.Load: whole or nothing; an older or equal version is
// errs.Conflict), at the application's clock; source names the file.
func (a *App) LoadTPU(ctx context.Context, t *tpu.Table, source string) error {
	sqlDB, err := a.db.DB()
	if err != nil {
		return err
	}
	return tpu.Load(ctx, sqlDB, t, source, a.Clock.Now())
}

// SyncTPU loads the tables embedded in the binary that are newer than the
// database's (tpu.Sync), at startup; it returns the tables loaded.
func (a *App) SyncTPU(ctx context.Context) ([]string, error) {
	sqlDB, err := a.db.DB()
	if err != nil {
		return nil, err
	}
	return tpu.Sync(ctx, sqlDB, time.Now())
}
