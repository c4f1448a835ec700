package cases

import (
	"context"
	"errors"
	"fmt"

	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// BanTerm returns the term b ran: first day to last day; a lifted,
// replaced or converted ban ends the day before the decision (LiftedOn).
// ok is false for a ban that never started (awaiting the final judgment,
// reformed, annulled).
func BanTerm(b sanctions.Ban) (sanctions.Term, bool) {
	if b.FirstDay == nil {
		return sanctions.Term{}, false
	}
	t := sanctions.Term{First: *b.FirstDay, Last: b.LastDay}
	if b.LiftedOn != nil {
		end := b.LiftedOn.AddDays(-1)
		if t.Last == nil || end.Before(*t.Last) {
			t.Last = &end
		}
	}
	return t, true
}

func banNotFound(id int64) error {
	return errs.New(errs.NotFound, fmt.Sprintf("Impedimento %d não encontrado.", id))
}

// LoadBan returns ban id of the actor's court with its case, locked for
// update when lock is set; errs.NotFound otherwise.
func (s *Core) LoadBan(ctx context.Context, actor actor.Actor, id int64, lock bool) (*sanctions.Ban, *Case, error) {
	tx := db.Conn(ctx, s.DB)
	if lock {
		tx = tx.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	var b sanctions.Ban
	err := tx.Where("id = ?", id).Take(&b).Error
	if errors.Is(err, gorm.ErrRecordNotFound) || (err == nil && b.CourtCode != actor.Court) {
		return nil, nil, banNotFound(id)
	}
	if err != nil {
		return nil, nil, err
	}
	var c Case
	if err := db.Conn(ctx, s.DB).Where("id = ?", b.CaseID).Take(&c).Error; err != nil {
		return nil, nil, err
	}
	return &b, &c, nil
}

// BanView is a ban as the API shows it.
type BanView struct {
	sanctions.Ban
	// State is where the ban stands today in the court's zone: in_force,
	// not_started, ended or lifted (status stays "active" for a ban that
	// merely ran its term).
	State         string         `json:"state,omitempty"`
	CaseNumber    string         `json:"case_number"`
	ReportingDuty *ReportingDuty `json:"reporting_duty"`
	// LiftedOn and LiftReason: the decision lifting a precautionary ban
	// (CPP art. 282, § 5º); set with status "lifted".
	LiftedOn   *civil.Date `json:"lifted_on,omitempty"`
	LiftReason string      `json:"lift_reason,omitempty"`
	// StatePT names State in Portuguese (sanctions.StatePT).
	StatePT string `json:"state_pt,omitempty"`
	// APIStatus is the ban's status as the API names it (../shared/API.md):
	// the State (awaiting_final, not_started, in_force, ended, lifted,
	// replaced, ...), not the stored status ("active" covers not_started,
	// in_force and ended).
	APIStatus string `json:"status"`
	// PrecautionaryDays: for a final ban, the days the defendant spent
	// under precautionary bans in the case, for the judge's decision on
	// credit (CP art. 42; POST /api/v1/bans/{id}/credit).
	PrecautionaryDays *int `json:"precautionary_days,omitempty"`
	// ScopePT says where the ban applies, in Portuguese (sanctions.ScopePT),
	// and MatchTermPT its term counted in matches ("" for none).
	ScopePT     string `json:"scope_pt"`
	MatchTermPT string `json:"match_term_pt,omitempty"`
}

// BanView is NewBanView with the state of today in the court's zone.
func (s *Core) BanView(b sanctions.Ban) BanView {
	v := NewBanView(b)
	v.SetState(civil.Today(s.Now(), s.Loc))
	return v
}

// SetState sets the ban's state on day (the court's date): State, StatePT
// and the API status.
func (v *BanView) SetState(day civil.Date) {
	v.State = v.Ban.State(day)
	v.StatePT, v.APIStatus = sanctions.StatePT[v.State], v.State
}

// NewBanView formats a stored ban for the API.
func NewBanView(b sanctions.Ban) BanView {
	v := BanView{Ban: b, CaseNumber: FormatNumber(b.CaseNumber), APIStatus: b.Status,
		ScopePT: sanctions.ScopePT(b.Scope), MatchTermPT: sanctions.MatchTermPT(b.MatchTerm, b.MatchDays)}
	if b.ReportingPlace != "" {
		v.ReportingDuty = &ReportingDuty{Place: b.ReportingPlace, Club: b.ReportingClub, Competition: b.ReportingCompetition}
	}
	return v
}

// FormatNumber formats a 20-digit CNJ number as NNNNNNN-DD.AAAA.J.TR.OOOO.
func FormatNumber(digits string) string {
	n, err := ParseCNJ(digits)
	if err != nil {
		return digits
	}
	return n.String()
}

// ReportingDuty is the duty to stay at a place the judge names from 2 hours
// before to 2 hours after the matches of a club or competition (Lei
// 14.597/2023, art. 201, § 4º; Lei 10.671/2003, art. 41-B, § 4º).
type ReportingDuty struct {
	Place       string `json:"place"`
	Club        string `json:"club,omitempty"`
	Competition string `json:"competition,omitempty"`
}

// BanIDs lists the ids of a ban and its member bans.
func BanIDs(b sanctions.Ban, members []sanctions.Ban) []int64 {
	ids := []int64{b.ID}
	for _, m := range members {
		ids = append(ids, m.ID)
	}
	return ids
}
