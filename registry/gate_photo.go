package registry

import (
	"context"
	"strconv"

	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/audit"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
)

// ErrNoGatePhoto is the errs.NotFound of a gate photo that cannot be
// shown: no member's ban in force, or a member with no photo, worded
// alike.
var ErrNoGatePhoto = errs.New(errs.NotFound, "Não há foto do cadastro da torcida para este impedimento.")

// GatePhoto returns the register photo of member memberID, whose ban in
// force the caller (app.App.GatePhoto) has checked, for a club's gate staff
// to compare with the ID of the person before it (issue 30, item 3; the
// register keeps the photo for that, Lei 14.597/2023, art. 178, § 4º). The
// read is recorded in the member reads and in the audit trail of the
// group's court. ErrNoGatePhoto when the member has no photo.
func (s *Groups) GatePhoto(ctx context.Context, a actor.Actor, memberID int64, banID int64) (ctype string, data []byte, err error) {
	err = db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		var m Member
		if err := tx.Where("id = ?", memberID).Take(&m).Error; err != nil {
			return ErrNoGatePhoto
		}
		if m.PhotoID == nil {
			return ErrNoGatePhoto
		}
		var p Photo
		if err := tx.Where("id = ?", *m.PhotoID).Take(&p).Error; err != nil {
			return err
		}
		g, err := s.group(ctx, m.GroupID, false)
		if err != nil {
			return err
		}
		ctype, data = p.ContentType, p.Data
		if err := tx.Create(&MemberRead{At: s.now(), UserID: a.UserID, Role: a.Role, GroupID: m.GroupID, MemberID: &m.ID, What: "photo"}).Error; err != nil {
			return err
		}
		court := ""
		if g.CourtCode != nil {
			court = *g.CourtCode
		}
		return audit.ReadIn(ctx, s.DB, a, court, "members", strconv.FormatInt(m.ID, 10),
			map[string]any{"what": "photo", "via": "gate", "ban_id": banID, "group_id": m.GroupID})
	})
	return ctype, data, err
}
