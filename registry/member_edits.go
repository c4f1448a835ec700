package registry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// AddMember adds a member to group groupID's register (its managers only:
// errs.NotFound for anyone else). errs.Invalid for a bad field; errs.Conflict
// when the CPF is already in this register (a former member rejoins through
// Rejoin, keeping one history).
func (s *Groups) AddMember(ctx context.Context, a actor.Actor, groupID int64, in MemberInput) (*MemberView, error) {
	var id int64
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		if _, err := s.writable(ctx, a, groupID); err != nil {
			return err
		}
		today := s.today()
		raw := rawMember{}
		in.each(func(k string, v *string) {
			if v != nil {
				raw[k] = *v
			}
		})
		d, probs, _ := validateMember(raw, today, false)
		var joined civil.Date
		if in.JoinedOn != nil {
			j, msg := periodDate(*in.JoinedOn, today)
			if msg != "" {
				probs = append(probs, fieldProblem{"joined_on", "date", msg})
			}
			joined = j
		} else {
			joined = today
		}
		if len(probs) == 0 && joined.Before(d.BirthDate) {
			probs = append(probs, fieldProblem{"joined_on", "after_birth", "a data de entrada é anterior ao nascimento."})
		}
		if err := fieldsErr(probs); err != nil {
			return err
		}
		var existing Member
		if err := db.Conn(ctx, s.DB).Where("group_id = ? AND cpf = ?", groupID, string(d.CPF)).Limit(1).Find(&existing).Error; err != nil {
			return err
		}
		if existing.ID != 0 {
			return errs.New(errs.Conflict, fmt.Sprintf("O CPF %s já consta do cadastro desta torcida (associado %d); para um ex-associado que volta, use POST /api/v1/members/%d/rejoin.", d.CPF.Formatted(), existing.ID, existing.ID))
		}
		m, err := s.createMember(ctx, a, groupID, d, joined, nil, "")
		if err != nil {
			return err
		}
		id = m.ID
		return s.touch(ctx, groupID)
	})
	if db.IsUniqueViolation(err, "") {
		return nil, errs.New(errs.Conflict, "O CPF já consta do cadastro desta torcida.")
	}
	if err != nil {
		return nil, err
	}
	return s.memberView(ctx, id)
}

func (in *MemberInput) each(fn func(key string, v *string)) {
	fn("full_name", in.FullName)
	fn("mother_name", in.MotherName)
	fn("father_name", in.FatherName)
	fn("rg", in.RG)
	fn("rg_issuer", in.RGIssuer)
	fn("cpf", in.CPF)
	fn("birth_date", in.BirthDate)
	fn("civil_status", in.CivilStatus)
	fn("profession", in.Profession)
	fn("address", in.Address)
	fn("schooling", in.Schooling)
}

func (s *Groups) createMember(ctx context.Context, a actor.Actor, groupID int64, d MemberData, joined civil.Date, left *civil.Date, photoName string) (*Member, error) {
	tx := db.Conn(ctx, s.DB)
	now := s.now()
	m := Member{GroupID: groupID, CreatedAt: now, UpdatedAt: now, PhotoName: photoName}
	m.set(d)
	if err := tx.Create(&m).Error; err != nil {
		return nil, err
	}
	if err := tx.Create(&Period{MemberID: m.ID, GroupID: groupID, CPF: m.CPF, JoinedOn: joined, LeftOn: left}).Error; err != nil {
		return nil, err
	}
	if err := s.history(ctx, a, m.ID, "create", nil); err != nil {
		return nil, err
	}
	return &m, nil
}

func (s *Groups) history(ctx context.Context, a actor.Actor, memberID int64, action string, before any) error {
	h := historyRow{MemberID: memberID, At: s.now(), Action: action}
	if a.UserID != 0 {
		h.UserID = &a.UserID
	}
	if before != nil {
		b, err := json.Marshal(before)
		if err != nil {
			return err
		}
		str := string(b)
		h.Before = &str
	}
	return db.Conn(ctx, s.DB).Create(&h).Error
}

// memberForWrite loads and locks member id for a change by a manager of its
// group; errs.NotFound otherwise.
func (s *Groups) memberForWrite(ctx context.Context, a actor.Actor, id int64) (*Member, error) {
	var m Member
	err := db.Conn(ctx, s.DB).Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", id).Take(&m).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, memberNotFound(id)
	}
	if err != nil {
		return nil, err
	}
	if _, err := s.writable(ctx, a, m.GroupID); err != nil {
		return nil, memberNotFound(id)
	}
	return &m, nil
}

// UpdateMember changes the fields given (its group's managers only:
// errs.NotFound for anyone else); the record before the change is kept in
// the history. errs.Invalid for a bad field; errs.Conflict for a CPF that
// another member of the register has.
func (s *Groups) UpdateMember(ctx context.Context, a actor.Actor, id int64, in MemberInput) (*MemberView, error) {
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		m, err := s.memberForWrite(ctx, a, id)
		if err != nil {
			return err
		}
		if in.JoinedOn != nil {
			return errs.InvalidField("joined_on", "not_here", "a data de entrada muda por POST /leave e /rejoin, que guardam o histórico.")
		}
		old := m.data()
		raw := rawMember{}
		for _, k := range memberFields {
			raw[k] = fieldText(old, k)
		}
		in.each(func(k string, v *string) {
			if v != nil {
				raw[k] = *v
			}
		})
		d, probs, _ := validateMember(raw, s.today(), false)
		if err := fieldsErr(probs); err != nil {
			return err
		}
		if d.equal(old) {
			return nil
		}
		tx := db.Conn(ctx, s.DB)
		if d.CPF != old.CPF {
			var n int64
			if err := tx.Model(&Member{}).Where("group_id = ? AND cpf = ? AND id <> ?", m.GroupID, string(d.CPF), m.ID).Count(&n).Error; err != nil {
				return err
			}
			if n > 0 {
				return errs.New(errs.Conflict, fmt.Sprintf("O CPF %s já consta do cadastro desta torcida.", d.CPF.Formatted()))
			}
			if err := tx.Model(&Period{}).Where("member_id = ?", m.ID).Update("cpf", string(d.CPF)).Error; err != nil {
				return err
			}
		}
		if err := s.history(ctx, a, m.ID, "update", snapshot(old)); err != nil {
			return err
		}
		m.set(d)
		m.UpdatedAt = s.now()
		if err := tx.Save(m).Error; err != nil {
			return err
		}
		return s.touch(ctx, m.GroupID)
	})
	if db.IsUniqueViolation(err, "") {
		return nil, errs.New(errs.Conflict, "O CPF já consta do cadastro desta torcida.")
	}
	if err != nil {
		return nil, err
	}
	return s.memberView(ctx, id)
}

func fieldText(d MemberData, key string) string {
	switch key {
	case "full_name":
		return d.FullName
	case "mother_name":
		return d.MotherName
	case "father_name":
		if d.FatherName == nil {
			return ""
		}
		return *d.FatherName
	case "rg":
		return d.RG
	case "rg_issuer":
		return d.RGIssuer
	case "cpf":
		return string(d.CPF)
	case "birth_date":
		return d.BirthDate.String()
	case "civil_status":
		return d.CivilStatus
	case "profession":
		return d.Profession
	case "address":
		return d.Address
	case "schooling":
		return d.Schooling
	}
	return ""
}

func snapshot(d MemberData) map[string]any {
	out := map[string]any{}
	for _, k := range memberFields {
		out[k] = fieldText(d, k)
	}
	return out
}

// Leave records that member id left the group on in.LeftOn (default
// today); the member's history and any ban stay. errs.Conflict when the
// member is not active; errs.Invalid for a date before the join or in the
// future.
func (s *Groups) Leave(ctx context.Context, a actor.Actor, id int64, in DateInput) (*MemberView, error) {
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		m, p, err := s.memberForWriteWithPeriod(ctx, a, id)
		if err != nil {
			return err
		}
		if p.LeftOn != nil {
			return errs.New(errs.Conflict, fmt.Sprintf("O associado %d já saiu da torcida em %s.", m.ID, p.LeftOn.BR()))
		}
		left, msg := periodDate(in.LeftOn, s.today())
		if msg == "" && left.Before(p.JoinedOn) {
			msg = fmt.Sprintf("a saída não pode ser anterior à entrada (%s).", p.JoinedOn.BR())
		}
		if msg != "" {
			return errs.InvalidField("left_on", "date", msg)
		}
		if err := db.Conn(ctx, s.DB).Model(&Period{}).Where("id = ?", p.ID).Update("left_on", left).Error; err != nil {
			return err
		}
		if err := s.history(ctx, a, m.ID, "leave", map[string]any{"joined_on": p.JoinedOn, "left_on": nil}); err != nil {
			return err
		}
		return s.touch(ctx, m.GroupID)
	})
	if err != nil {
		return nil, err
	}
	return s.memberView(ctx, id)
}

// Rejoin opens a new membership period for a former member on in.JoinedOn
// (default today), keeping the member's history. errs.Conflict when the
// member is active.
func (s *Groups) Rejoin(ctx context.Context, a actor.Actor, id int64, in DateInput) (*MemberView, error) {
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		m, p, err := s.memberForWriteWithPeriod(ctx, a, id)
		if err != nil {
			return err
		}
		if p.LeftOn == nil {
			return errs.New(errs.Conflict, fmt.Sprintf("O associado %d já é associado ativo.", m.ID))
		}
		joined, msg := periodDate(in.JoinedOn, s.today())
		if msg == "" && joined.Before(*p.LeftOn) {
			msg = fmt.Sprintf("a nova entrada não pode ser anterior à última saída (%s).", p.LeftOn.BR())
		}
		if msg != "" {
			return errs.InvalidField("joined_on", "date", msg)
		}
		if err := db.Conn(ctx, s.DB).Create(&Period{MemberID: m.ID, GroupID: m.GroupID, CPF: m.CPF, JoinedOn: joined}).Error; err != nil {
			return err
		}
		if err := s.history(ctx, a, m.ID, "rejoin", nil); err != nil {
			return err
		}
		return s.touch(ctx, m.GroupID)
	})
	if err != nil {
		return nil, err
	}
	return s.memberView(ctx, id)
}

// memberForWriteWithPeriod is memberForWrite with the member's last
// membership period (lastPeriod), locked for the update.
func (s *Groups) memberForWriteWithPeriod(ctx context.Context, a actor.Actor, id int64) (*Member, *Period, error) {
	m, err := s.memberForWrite(ctx, a, id)
	if err != nil {
		return nil, nil, err
	}
	p, err := s.lastPeriod(ctx, m.ID)
	if err != nil {
		return nil, nil, err
	}
	return m, p, nil
}

// memberForRead returns member id when actor a may read its group's
// register for what ("member", "photo"; the read is recorded as readable
// does); errs.NotFound otherwise, exactly as for an unknown id.
func (s *Groups) memberForRead(ctx context.Context, a actor.Actor, id int64, what string) (*Member, error) {
	var m Member
	err := db.Conn(ctx, s.DB).Where("id = ?", id).Take(&m).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, memberNotFound(id)
	}
	if err != nil {
		return nil, err
	}
	if _, err := s.readable(ctx, a, m.GroupID, what, &m.ID); err != nil {
		return nil, memberNotFound(id)
	}
	return &m, nil
}

func (s *Groups) lastPeriod(ctx context.Context, memberID int64) (*Period, error) {
	var p Period
	err := db.Conn(ctx, s.DB).Where("member_id = ?", memberID).Order("joined_on DESC, id DESC").Take(&p).Error
	if err != nil {
		return nil, err
	}
	return &p, nil
}
