package decisions

import (
	"context"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/sanctions"
)

// MemberBan is a member's ban of a group ban still to be served (awaiting
// the final judgment or active, not ended): the CPF it carries and the
// member of the register it names (issue 32, item 6).
type MemberBan struct {
	BanID      int64
	CaseID     int64
	CaseNumber string // 20 digits
	MemberID   int64
	Name       string
	BirthDate  *civil.Date
	CPF        string // 11 digits
}

// MemberBanScope narrows MemberBansOf: to case CaseID, to ban BanID (zero:
// not narrowed).
type MemberBanScope struct {
	CaseID, BanID int64
}

// MemberBansOf returns the member bans of court's cases still to be
// served (status awaiting_final or active and not past their last day on
// today), within scope, by ban id.
func (s *Service) MemberBansOf(ctx context.Context, court string, scope MemberBanScope) ([]MemberBan, error) {
	var out []MemberBan
	today := civil.Today(s.Now(), s.Loc)
	err := db.Conn(ctx, s.DB).Raw(`SELECT b.id AS ban_id, b.case_id, c.number AS case_number, b.member_id, b.name, b.birth_date, b.cpf
		FROM bans b JOIN cases c ON c.id = b.case_id
		WHERE c.court_code = ? AND b.member_id IS NOT NULL AND b.cpf IS NOT NULL
		  AND (b.status = ? OR (b.status = ? AND (b.last_day IS NULL OR b.last_day >= ?)))
		  AND (? = 0 OR b.case_id = ?) AND (? = 0 OR b.id = ?)
		ORDER BY b.id`, court, sanctions.StatusAwaitingFinal, sanctions.StatusActive, today,
		scope.CaseID, scope.CaseID, scope.BanID, scope.BanID).Scan(&out).Error
	return out, err
}

// CarryMemberCPF writes cpf (11 digits), corrected in the register after
// the decision, on member ban banID, which carried oldCPF; it reports
// whether the ban still carried oldCPF (a second carry changes nothing).
// The caller docks the movement and refreshes the blocklist.
func (s *Service) CarryMemberCPF(ctx context.Context, banID int64, oldCPF, cpf string) (bool, error) {
	res := db.Conn(ctx, s.DB).Exec("UPDATE bans SET cpf = ? WHERE id = ? AND member_id IS NOT NULL AND cpf = ?", cpf, banID, oldCPF)
	return res.RowsAffected == 1, res.Error
}
