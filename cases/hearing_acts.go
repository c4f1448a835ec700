package cases

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// RedesignateInput is the body of POST /api/v1/hearings/{id}/redesignate:
// the new start (RFC 3339), the new end (default: the hearing's length
// from the new start) and the reason (required).
type RedesignateInput struct {
	StartsAt string `json:"starts_at"`
	EndsAt   string `json:"ends_at"`
	Reason   string `json:"reason"`
}

// CancelInput is the body of POST /api/v1/hearings/{id}/cancel: the
// reason (required).
type CancelInput struct {
	Reason string `json:"reason"`
}

// ResultInput is the body of POST /api/v1/hearings/{id}/result: whether
// the hearing was held (required), the parties absent ("prosecution",
// "defendant:ID", "defence:ID" for a defendant of the case) and the record
// (termo, required).
type ResultInput struct {
	Held   *bool    `json:"held"`
	Absent []string `json:"absent"`
	Text   string   `json:"text"`
}

// Situations of a hearing as the TPU's complement "situação da audiência"
// names them (movement 970).
const (
	situationRedesignated = "redesignada"
	situationCancelled    = "cancelada"
	situationHeld         = "realizada"
	situationNotHeld      = "não realizada"
)

// lockHearing loads hearing id of the actor's court and its case, both
// locked for update, and checks that it is still scheduled (errs.Conflict
// naming its status otherwise); another court's or none is errs.NotFound.
func (s *Service) lockHearing(ctx context.Context, a actor.Actor, id int64) (*Hearing, *Case, error) {
	var h Hearing
	err := db.Conn(ctx, s.DB).Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ? AND court_code = ?", id, a.Court).Take(&h).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil, errs.New(errs.NotFound, "Audiência não encontrada.")
	}
	if err != nil {
		return nil, nil, err
	}
	c, err := s.LockCase(ctx, a, h.CaseID)
	if err != nil {
		return nil, nil, err
	}
	if h.Status != "scheduled" {
		return nil, nil, errs.New(errs.Conflict, fmt.Sprintf("A %s de %s não está mais designada (%s).", HearingKindPT[h.Kind],
			civil.Today(h.StartsAt, s.Loc).BR(), HearingStatusPT[h.Status]))
	}
	return &h, c, nil
}

// HearingStatusPT names each hearing status in Portuguese (pages, docket).
var HearingStatusPT = map[string]string{"scheduled": "designada", "redesignated": "redesignada", "cancelled": "cancelada",
	"held": "realizada", "not_held": "não realizada"}

// close marks h as leaving the status scheduled for status, by a at now.
func (s *Service) close(ctx context.Context, a actor.Actor, h *Hearing, status string, set map[string]any) error {
	now := s.Now()
	uid := a.UserID
	set["status"], set["closed_at"], set["closed_by"] = status, now, uid
	if err := db.Conn(ctx, s.DB).Model(&Hearing{}).Where("id = ?", h.ID).Updates(set).Error; err != nil {
		return err
	}
	h.Status, h.ClosedAt, h.ClosedBy = status, &now, &uid
	return nil
}

// when is a hearing's day and time in the court's zone, for the docket.
func (s *Service) when(h *Hearing) string {
	return fmt.Sprintf("%s, das %s às %s", civil.Today(h.StartsAt, s.Loc).BR(), h.StartsAt.In(s.Loc).Format("15:04"), h.EndsAt.In(s.Loc).Format("15:04"))
}

// hearingMove writes the docket movement of kind on hearing h (TPU 970
// with its kind and situation) and touches the case.
func (s *Service) hearingMove(ctx context.Context, a actor.Actor, c *Case, h *Hearing, kind MovementKind, situation, text string) error {
	if err := s.Move(ctx, c, &a, s.Now(), kind, text,
		Complement{Name: "tipo de audiência", Value: HearingKindPT[h.Kind]}, Complement{Name: "situação da audiência", Value: situation}); err != nil {
		return err
	}
	return s.Touch(ctx, c, "")
}

// actOn runs act on scheduled hearing id (lockHearing) in one transaction
// and returns the view of the hearing act returns.
func (s *Service) actOn(ctx context.Context, a actor.Actor, id int64, act func(ctx context.Context, h *Hearing, c *Case) (*Hearing, error)) (*HearingView, error) {
	var out *HearingView
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		h, c, err := s.lockHearing(ctx, a, id)
		if err != nil {
			return err
		}
		if h, err = act(ctx, h, c); err != nil {
			return err
		}
		out, err = s.viewOf(ctx, *h)
		return err
	})
	return out, err
}

// viewOf is the view of hearing h (HearingViews).
func (s *Service) viewOf(ctx context.Context, h Hearing) (*HearingView, error) {
	vs, err := s.HearingViews(ctx, []Hearing{h})
	if err != nil {
		return nil, err
	}
	return &vs[0], nil
}

// withNote appends to a docket text the note of the recess exception
// that admits the hearing ("" none), as a sentence.
func withNote(text, note string) string {
	if note == "" {
		return text
	}
	return text + " " + strings.ToUpper(note[:1]) + note[1:] + "."
}

// reasonOf checks a required reason of at most MaxText characters.
func reasonOf(f *errs.Fields, field, v string) string {
	if strings.TrimSpace(v) == "" {
		f.Add(field, "required", "informe o motivo.")
	}
	CheckText(f, field, v, MaxLong, true)
	return strings.TrimSpace(v)
}

// RedesignateHearing moves scheduled hearing id to a new day (redesignação):
// the hearing becomes "redesignated" with the reason and a new hearing,
// naming it, is scheduled under the same checks as ScheduleHearing (a day
// with court business, CPP art. 792; not in the recess, CPP art. 798-A,
// unless the hearing's exception; not after the final judgment, CF art. 5º,
// XXXVI; the judge and the room free). The docket records it (TPU 970,
// situação "redesignada") and the parties are to be notified of the new
// day (CPP art. 370; Lei 9.099/1995, art. 67). It returns the new hearing.
func (s *Service) RedesignateHearing(ctx context.Context, a actor.Actor, id int64, in RedesignateInput) (*HearingView, error) {
	return s.actOn(ctx, a, id, func(ctx context.Context, old *Hearing, c *Case) (*Hearing, error) {
		var f errs.Fields
		start, end := s.hearingTimes(&f, in.StartsAt, in.EndsAt, old.EndsAt.Sub(old.StartsAt))
		reason := reasonOf(&f, "reason", in.Reason)
		if err := f.Err(); err != nil {
			return nil, err
		}
		if start.Equal(old.StartsAt) && end.Equal(old.EndsAt) {
			return nil, errs.InvalidField("starts_at", "changed", "a nova data é a mesma da audiência designada.")
		}
		note, err := s.checkHearingDay(ctx, c, start, old.RecessException)
		if err != nil {
			return nil, err
		}
		if err := s.close(ctx, a, old, "redesignated", map[string]any{"reason": reason}); err != nil {
			return nil, err
		}
		uid := a.UserID
		h := Hearing{CaseID: c.ID, CourtCode: c.CourtCode, JudgeID: old.JudgeID, Kind: old.Kind, Room: old.Room, StartsAt: start, EndsAt: end,
			Status: "scheduled", CreatedAt: s.Now(), CreatedBy: &uid, RecessException: old.RecessException, RedesignatedFrom: &old.ID}
		if err := s.book(ctx, &h); err != nil {
			return nil, err
		}
		text := withNote(fmt.Sprintf("Redesignada a %s de %s para %s, na sala %s. Motivo: %s. Intimem-se as partes da nova data.",
			HearingKindPT[h.Kind], s.when(old), s.when(&h), h.Room, strings.TrimSuffix(reason, ".")), note)
		return &h, s.hearingMove(ctx, a, c, &h, MoveHearingRedesignated, situationRedesignated, text)
	})
}

// CancelHearing cancels scheduled hearing id with the reason (required);
// the docket records it (TPU 970, situação "cancelada").
func (s *Service) CancelHearing(ctx context.Context, a actor.Actor, id int64, in CancelInput) (*HearingView, error) {
	return s.actOn(ctx, a, id, func(ctx context.Context, h *Hearing, c *Case) (*Hearing, error) {
		var f errs.Fields
		reason := reasonOf(&f, "reason", in.Reason)
		if err := f.Err(); err != nil {
			return nil, err
		}
		if err := s.close(ctx, a, h, "cancelled", map[string]any{"reason": reason}); err != nil {
			return nil, err
		}
		h.Reason = reason
		text := fmt.Sprintf("Cancelada a %s de %s, na sala %s. Motivo: %s.", HearingKindPT[h.Kind], s.when(h), h.Room, strings.TrimSuffix(reason, "."))
		return h, s.hearingMove(ctx, a, c, h, MoveHearingCancelled, situationCancelled, text)
	})
}

// RecordHearingResult records whether scheduled hearing id was held, the
// parties absent and its record (termo de audiência); a hearing that has
// not started yet is errs.Invalid on held. The docket records it (TPU 970,
// situação "realizada" or "não realizada") with the absent parties by name.
func (s *Service) RecordHearingResult(ctx context.Context, a actor.Actor, id int64, in ResultInput) (*HearingView, error) {
	return s.actOn(ctx, a, id, func(ctx context.Context, h *Hearing, c *Case) (*Hearing, error) {
		var f errs.Fields
		if in.Held == nil {
			f.Add("held", "required", "informe se a audiência foi realizada (true) ou não (false).")
		} else if s.Now().Before(h.StartsAt) {
			f.Add("held", "not_started", fmt.Sprintf("a audiência só começa em %s: registre o resultado depois dela.", s.when(h)))
		}
		if strings.TrimSpace(in.Text) == "" {
			f.Add("text", "required", "informe o termo da audiência (o que se passou, ou por que não se realizou).")
		}
		CheckText(&f, "text", in.Text, MaxLong, true)
		absent, names, err := s.absentParties(ctx, &f, c, in.Absent)
		if err != nil {
			return nil, err
		}
		if err := f.Err(); err != nil {
			return nil, err
		}
		status, situation, verb := "held", situationHeld, "Realizada"
		if !*in.Held {
			status, situation, verb = "not_held", situationNotHeld, "Não realizada"
		}
		text := strings.TrimSpace(in.Text)
		if err := s.close(ctx, a, h, status, map[string]any{"result_text": text, "absent": absent}); err != nil {
			return nil, err
		}
		h.ResultText, h.Absent = text, absent
		msg := fmt.Sprintf("%s a %s de %s, na sala %s.", verb, HearingKindPT[h.Kind], s.when(h), h.Room)
		if len(names) > 0 {
			msg += " Ausentes: " + strings.Join(names, "; ") + "."
		}
		msg += " " + text
		return h, s.hearingMove(ctx, a, c, h, MoveHearingResult, situation, msg)
	})
}

// absentParties checks each absent party of case c ("prosecution",
// "defendant:ID", "defence:ID" with ID a defendant of c; "defence:" only
// in a criminal case) into f (field absent[i]) and returns them without
// repeats, with their names in Portuguese.
func (s *Service) absentParties(ctx context.Context, f *errs.Fields, c *Case, in []string) (StringList, []string, error) {
	ds, err := s.Tracks(ctx, c)
	if err != nil {
		return nil, nil, err
	}
	out, names := StringList{}, []string{}
	seen := map[string]bool{}
	for i, p := range in {
		field := fmt.Sprintf("absent[%d]", i)
		p = strings.TrimSpace(p)
		if seen[p] {
			continue
		}
		party, idText, _ := strings.Cut(p, ":")
		var name string
		switch party {
		case "prosecution":
			if idText == "" {
				name = "Ministério Público"
			}
		case "defendant", "defence":
			id, err := strconv.ParseInt(idText, 10, 64)
			for _, d := range ds {
				if err == nil && d.ID == id {
					name = NameOf(d)
				}
			}
			if name != "" && party == "defence" {
				if c.Flow == FlowCivil {
					name = ""
				} else {
					name = "defesa de " + name
				}
			}
		}
		if name == "" {
			f.Add(field, "party", fmt.Sprintf("parte ausente %q desconhecida neste processo: use prosecution, defendant:N ou defence:N, com N um réu do processo.", p))
			continue
		}
		seen[p] = true
		out = append(out, p)
		names = append(names, name)
	}
	return out, names, nil
}
