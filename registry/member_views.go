package registry

import (
	"context"
	"fmt"

	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/db"
)

// ListMembers returns group groupID's register (members past and present,
// by name) to its managers and to the prosecutors, police, clerks and
// judges of its court; a read by anyone but the managers is recorded as one
// read naming the group. errs.NotFound for anyone else.
func (s *Groups) ListMembers(ctx context.Context, a actor.Actor, groupID int64) ([]MemberView, error) {
	var out []MemberView
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		if _, err := s.readable(ctx, a, groupID, "list", nil); err != nil {
			return err
		}
		var err error
		out, err = s.memberViews(ctx, groupID, nil)
		return err
	})
	return out, err
}

// GetMember returns member id to its group's managers and to the staff who
// read the group's register (the read is recorded); errs.NotFound otherwise.
func (s *Groups) GetMember(ctx context.Context, a actor.Actor, id int64) (*MemberView, error) {
	var v *MemberView
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		if _, err := s.memberForRead(ctx, a, id, "member"); err != nil {
			return err
		}
		var err error
		v, err = s.memberView(ctx, id)
		return err
	})
	return v, err
}

func (s *Groups) memberView(ctx context.Context, id int64) (*MemberView, error) {
	var m Member
	if err := db.Conn(ctx, s.DB).Where("id = ?", id).Take(&m).Error; err != nil {
		return nil, err
	}
	vs, err := s.memberViews(ctx, m.GroupID, []int64{id})
	if err != nil {
		return nil, err
	}
	if len(vs) != 1 {
		return nil, memberNotFound(id)
	}
	return &vs[0], nil
}

type photoMeta struct {
	ID          int64
	MemberID    int64
	ContentType string
	SHA256      []byte `gorm:"column:sha256"`
	Width       int
	Height      int
}

// memberViews builds the views of a group's members (ids nil: all).
func (s *Groups) memberViews(ctx context.Context, groupID int64, ids []int64) ([]MemberView, error) {
	tx := db.Conn(ctx, s.DB)
	q := tx.Where("group_id = ?", groupID)
	if ids != nil {
		q = q.Where("id IN ?", ids)
	}
	var ms []Member
	if err := q.Order("f_unaccent(full_name), id").Find(&ms).Error; err != nil {
		return nil, err
	}
	out := make([]MemberView, 0, len(ms))
	if len(ms) == 0 {
		return out, nil
	}
	mids := make([]int64, len(ms))
	var pids []int64
	for i, m := range ms {
		mids[i] = m.ID
		if m.PhotoID != nil {
			pids = append(pids, *m.PhotoID)
		}
	}
	var periods []Period
	if err := tx.Where("member_id IN ?", mids).Order("joined_on, id").Find(&periods).Error; err != nil {
		return nil, err
	}
	byMember := map[int64][]Period{}
	for _, p := range periods {
		byMember[p.MemberID] = append(byMember[p.MemberID], p)
	}
	photos := map[int64]photoMeta{}
	if len(pids) > 0 {
		var pm []photoMeta
		if err := tx.Table("member_photos").Select("id, member_id, content_type, sha256, width, height").Where("id IN ?", pids).Scan(&pm).Error; err != nil {
			return nil, err
		}
		for _, p := range pm {
			photos[p.ID] = p
		}
	}
	for _, m := range ms {
		v := MemberView{ID: m.ID, GroupID: m.GroupID, FullName: m.FullName, CPF: m.CPF, MotherName: m.MotherName, FatherName: m.FatherName,
			FatherUnknown: m.FatherName == nil, RG: m.RG, RGIssuer: m.RGIssuer, BirthDate: m.BirthDate, CivilStatus: m.CivilStatus,
			Profession: m.Profession, Address: m.Address, Schooling: m.Schooling, Periods: byMember[m.ID], Missing: []string{},
			CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt}
		if v.Periods == nil {
			v.Periods = []Period{}
		}
		if n := len(v.Periods); n > 0 {
			last := v.Periods[n-1]
			v.JoinedOn, v.LeftOn, v.Active = last.JoinedOn, last.LeftOn, last.LeftOn == nil
		}
		if m.PhotoID != nil {
			if p, ok := photos[*m.PhotoID]; ok {
				v.Photo = &PhotoInfo{ContentType: p.ContentType, SHA256: fmt.Sprintf("%x", p.SHA256), Width: p.Width, Height: p.Height,
					Name: m.PhotoName, URL: fmt.Sprintf("/api/v1/members/%d/photo", m.ID)}
			}
		}
		if v.Photo == nil {
			v.Missing = append(v.Missing, "photo")
		}
		v.Incomplete = len(v.Missing) > 0
		out = append(out, v)
	}
	return out, nil
}
