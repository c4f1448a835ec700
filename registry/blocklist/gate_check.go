package blocklist

import (
	"context"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/sanctions"
	"gorm.io/gorm"
)

// GateBan is a ban in force of a checked CPF as the gate staff's page
// shows it (issue 30, item 3): the person to compare with the ID (name,
// birth date, and, for a member of a banned group, the register's photo
// through MemberID), the case, where and on which days the ban applies in
// words, and whether it blocks at the gate's venue today.
type GateBan struct {
	CheckBan
	// Name and BirthDate are the banned person's, as the ban names them.
	Name      string
	BirthDate *civil.Date
	// Precautionary is a precautionary ban (until lifted: LastDay nil).
	Precautionary bool
	// MemberID is set for a member's ban (a group ban's extension): the
	// member whose register photo the gate may show.
	MemberID *int64
	// Where (sanctions.ScopePT) and Days (sanctions.DaysOfBanPT) in words.
	Where, Days string
	// AppliesHere: the ban blocks at the gate's venues today
	// (Lists.Applicable; with no venue every ban in force does).
	AppliesHere bool
}

// GateCheck answers the gate staff's check of cpf at venueIDs (the venue
// the staff chose, else its club's home venues; none: every ban in force
// blocks, Lists.Applicable): the bans in force of cpf, in ban order, each
// with whether it blocks here today. Blocked is true when one does.
// DOMAIN.md §6; Lei 14.597/2023, art. 158 (a ban applies where and when
// the judge fixed it).
func (l *Lists) GateCheck(ctx context.Context, cpf registry.CPF, venueIDs []int64) (bans []GateBan, blocked bool, err error) {
	in, err := l.inForceOn(ctx, func(q *gorm.DB) *gorm.DB { return q.Where("cpf = ?", cpf.String()) })
	if err != nil {
		return nil, false, err
	}
	for _, b := range in {
		cb := CheckBan{BanID: b.ID, FirstDay: *b.FirstDay, LastDay: b.LastDay, CaseNumber: l.number(b.CaseNumber), Court: b.CourtCode,
			Scope: b.Scope, MatchDays: b.MatchDays}
		here, err := l.Applicable(ctx, []CheckBan{cb}, venueIDs)
		if err != nil {
			return nil, false, err
		}
		gb := GateBan{CheckBan: cb, Name: b.Name, BirthDate: b.BirthDate, Precautionary: b.Precautionary, MemberID: b.MemberID,
			Where: sanctions.ScopePT(b.Scope), Days: sanctions.DaysOfBanPT(b.MatchDays), AppliesHere: len(here) > 0}
		if b.MatchTerm != nil {
			gb.Days += " (" + sanctions.MatchTermPT(b.MatchTerm, nil) + ")"
		}
		blocked = blocked || gb.AppliesHere
		bans = append(bans, gb)
	}
	return bans, blocked, nil
}

// GateMember returns the member named by ban banID when it is a member's
// ban in force with a CPF (on the blocklist today), for the gate staff's
// photo (app.App.GatePhoto); ok false otherwise.
func (l *Lists) GateMember(ctx context.Context, banID int64) (memberID int64, ok bool, err error) {
	in, err := l.inForceOn(ctx, func(q *gorm.DB) *gorm.DB {
		return q.Where("id = ? AND cpf IS NOT NULL AND member_id IS NOT NULL", banID)
	})
	if err != nil || len(in) == 0 || in[0].MemberID == nil {
		return 0, false, err
	}
	return *in[0].MemberID, true, nil
}
