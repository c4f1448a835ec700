package registry

import (
	"context"

	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
)

// existingByCPF loads the group's members by CPF and their latest periods.
func (s *Groups) existingByCPF(ctx context.Context, groupID int64) (map[CPF]*Member, map[int64]*Period, error) {
	tx := db.Conn(ctx, s.DB)
	var ms []Member
	if err := tx.Where("group_id = ?", groupID).Find(&ms).Error; err != nil {
		return nil, nil, err
	}
	byCPF := map[CPF]*Member{}
	var pids []int64
	for i := range ms {
		byCPF[CPF(ms[i].CPF)] = &ms[i]
		if ms[i].PhotoID != nil {
			pids = append(pids, *ms[i].PhotoID)
		}
	}
	if len(pids) > 0 {
		var sums []struct {
			ID     int64
			SHA256 []byte `gorm:"column:sha256"`
		}
		if err := tx.Raw("SELECT id, sha256 FROM member_photos WHERE id IN ?", pids).Scan(&sums).Error; err != nil {
			return nil, nil, err
		}
		byID := map[int64][]byte{}
		for _, x := range sums {
			byID[x.ID] = x.SHA256
		}
		for i := range ms {
			if ms[i].PhotoID != nil {
				ms[i].photoSum = byID[*ms[i].PhotoID]
			}
		}
	}
	var ps []Period
	if err := tx.Where("group_id = ?", groupID).Order("member_id, joined_on, id").Find(&ps).Error; err != nil {
		return nil, nil, err
	}
	last := map[int64]*Period{}
	for i := range ps {
		last[ps[i].MemberID] = &ps[i]
	}
	return byCPF, last, nil
}

// apply writes the planned changes (the caller's transaction).
func (s *Groups) apply(ctx context.Context, a actor.Actor, groupID int64, plans []planned, rep *ImportReport) error {
	tx := db.Conn(ctx, s.DB)
	today := s.today()
	changed := false
	ids := map[int]int64{}
	for _, p := range plans {
		switch p.status {
		case LineUnchanged:
			continue
		case LineCreate:
			joined := today
			if p.joined != nil {
				joined = *p.joined
			}
			m, err := s.createMember(ctx, a, groupID, p.data, joined, p.left, "")
			if err != nil {
				return err
			}
			ids[p.line] = m.ID
			if p.photo != nil {
				if err := s.storePhoto(ctx, a, m, p.photo.ctype, p.photo.data, p.photo.w, p.photo.h, p.photoName); err != nil {
					return err
				}
			}
		case LineUpdate:
			m := p.existing
			if !m.data().equal(p.data) {
				if err := s.history(ctx, a, m.ID, "update", snapshot(m.data())); err != nil {
					return err
				}
				m.set(p.data)
				m.UpdatedAt = s.now()
				if err := tx.Save(m).Error; err != nil {
					return err
				}
			}
			if p.photo != nil && !(m.PhotoID != nil && m.PhotoName == p.photoName && s.samePhoto(&p)) {
				if err := s.storePhoto(ctx, a, m, p.photo.ctype, p.photo.data, p.photo.w, p.photo.h, p.photoName); err != nil {
					return err
				}
			}
			if err := s.applyPeriod(ctx, a, m, p, today); err != nil {
				return err
			}
		}
		changed = true
	}
	for i := range rep.Lines {
		if id, ok := ids[rep.Lines[i].Line]; ok {
			rep.Lines[i].MemberID = &id
		}
	}
	if changed {
		return s.touch(ctx, groupID)
	}
	return nil
}

// applyPeriod brings the member's periods in line with the file: leaving,
// correcting dates, or rejoining.
func (s *Groups) applyPeriod(ctx context.Context, a actor.Actor, m *Member, p planned, today civil.Date) error {
	per := p.period
	if per == nil {
		return nil
	}
	tx := db.Conn(ctx, s.DB)
	active := per.LeftOn == nil
	switch {
	case p.left == nil && !active: // rejoins
		joined := today
		if p.joined != nil {
			joined = *p.joined
		}
		if err := tx.Create(&Period{MemberID: m.ID, GroupID: m.GroupID, CPF: m.CPF, JoinedOn: joined}).Error; err != nil {
			return err
		}
		return s.history(ctx, a, m.ID, "rejoin", nil)
	case p.left != nil && (active || *per.LeftOn != *p.left):
		upd := map[string]any{"left_on": *p.left}
		if p.joined != nil && active {
			upd["joined_on"] = *p.joined
		}
		if err := tx.Model(&Period{}).Where("id = ?", per.ID).Updates(upd).Error; err != nil {
			return err
		}
		return s.history(ctx, a, m.ID, "leave", map[string]any{"joined_on": per.JoinedOn, "left_on": per.LeftOn})
	case p.joined != nil && active && per.JoinedOn != *p.joined:
		if err := tx.Model(&Period{}).Where("id = ?", per.ID).Update("joined_on", *p.joined).Error; err != nil {
			return err
		}
		return s.history(ctx, a, m.ID, "update", map[string]any{"joined_on": per.JoinedOn})
	}
	return nil
}
