package registry

import (
	"context"
	"strconv"

	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/audit"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
)

// GatePhoto returns the register photo of the member named by ban banID
// for a club's gate staff to compare with the ID of the person before it
// (issue 30, item 3; the register keeps the photo for that, Lei
// 14.597/2023, art. 178, § 4º): only while the ban is a member's ban in
// force with a CPF (on the blocklist). The read is recorded in the member
// reads and in the audit trail of the group's court. errs.NotFound, worded
// alike, for any other ban or a member with no photo.
func (s *Groups) GatePhoto(ctx context.Context, a actor.Actor, banID int64) (ctype string, data []byte, err error) {
	notFound := errs.New(errs.NotFound, "Não há foto do cadastro da torcida para este impedimento.")
	err = db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		c := sanctions.InForceCond("b", civil.Today(s.now(), s.Loc))
		var row struct {
			MemberID int64
			GroupID  int64
			PhotoID  *int64
			Court    *string
		}
		q := tx.Raw(`SELECT m.id AS member_id, m.group_id, m.photo_id, g.court_code AS court
			FROM bans b JOIN members m ON m.id = b.member_id JOIN fan_groups g ON g.id = m.group_id
			WHERE b.id = ? AND b.cpf IS NOT NULL AND `+c.SQL, append([]any{banID}, c.Args...)...)
		if err := q.Scan(&row).Error; err != nil {
			return err
		}
		if row.MemberID == 0 || row.PhotoID == nil {
			return notFound
		}
		var p Photo
		if err := tx.Where("id = ?", *row.PhotoID).Take(&p).Error; err != nil {
			return err
		}
		ctype, data = p.ContentType, p.Data
		if err := tx.Create(&MemberRead{At: s.now(), UserID: a.UserID, Role: a.Role, GroupID: row.GroupID, MemberID: &row.MemberID, What: "photo"}).Error; err != nil {
			return err
		}
		court := ""
		if row.Court != nil {
			court = *row.Court
		}
		return audit.ReadIn(ctx, s.DB, a, court, "members", strconv.FormatInt(row.MemberID, 10),
			map[string]any{"what": "photo", "via": "gate", "ban_id": banID, "group_id": row.GroupID})
	})
	return ctype, data, err
}
