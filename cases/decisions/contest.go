package decisions

import (
	"context"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
)

// A member reached by a group ban may contest his inclusion (issue 29,
// item 5): he was not a member on the date of the facts, he was under 18
// then, or he is another person with the same name (Lei 14.597/2023, art.
// 183, § 2º; CF art. 5º, XLV: the penalty is personal). When the judge
// grants the contest his ban ends at once (status contested), and the
// blocklist publishes the removal with reason contested.

// ContestedBan returns the ban of member memberID that extends a group ban
// of defendant defendantID (the group) in case caseID and has not ended
// (status active or awaiting_final; the most recent when several):
// errs.Invalid on member_id when the member has none there (the contest
// names a member the group ban reaches).
func (s *Service) ContestedBan(ctx context.Context, caseID, defendantID, memberID int64) (*sanctions.Ban, error) {
	if memberID == 0 {
		return nil, errs.InvalidField("member_id", "required", "informe o associado cuja inclusão no impedimento da torcida é impugnada.")
	}
	var b sanctions.Ban
	if err := db.Conn(ctx, s.DB).Where("case_id = ? AND defendant_id = ? AND member_id = ? AND group_ban_id IS NOT NULL AND status IN ?",
		caseID, defendantID, memberID, []string{sanctions.StatusActive, sanctions.StatusAwaitingFinal}).Order("id DESC").Limit(1).Find(&b).Error; err != nil {
		return nil, err
	}
	if b.ID == 0 {
		return nil, errs.InvalidField("member_id", "member_ban", "o associado indicado não tem impedimento vigente decorrente do impedimento da torcida neste processo.")
	}
	return &b, nil
}

// EndContested ends member ban banID of case c at once, because the judge
// granted the contest of the member's inclusion (status contested, lifted
// today in the court's zone, with reason), and refreshes the blocklist in
// the caller's transaction: the member leaves it as a removal with reason
// contested. A ban already ended is left as it is (ended false).
func (s *Service) EndContested(ctx context.Context, c *cases.Case, banID int64, reason string) (ended bool, err error) {
	today := civil.Today(s.Now(), s.Loc)
	res := db.Conn(ctx, s.DB).Model(&sanctions.Ban{}).
		Where("id = ? AND case_id = ? AND group_ban_id IS NOT NULL AND status IN ?", banID, c.ID, []string{sanctions.StatusActive, sanctions.StatusAwaitingFinal}).
		Updates(map[string]any{"status": sanctions.StatusContested, "lifted_on": today, "lift_reason": strings.TrimSpace(reason)})
	if res.Error != nil || res.RowsAffected == 0 {
		return false, res.Error
	}
	return true, s.RefreshBlocklist(ctx, banID)
}

// ContestableBans lists the members' bans that extend a group ban of
// defendant defendantID (the group) in case caseID and have not ended
// (status active or awaiting_final), by member name: whom a contest of
// the inclusion may name (the defence's form offers them by name).
func (s *Service) ContestableBans(ctx context.Context, caseID, defendantID int64) ([]sanctions.Ban, error) {
	var out []sanctions.Ban
	err := db.Conn(ctx, s.DB).Where("case_id = ? AND defendant_id = ? AND member_id IS NOT NULL AND group_ban_id IS NOT NULL AND status IN ?",
		caseID, defendantID, []string{sanctions.StatusActive, sanctions.StatusAwaitingFinal}).Order("name, id").Find(&out).Error
	return out, err
}

// ProvenMemberBan returns the member's ban, not ended, that extends a
// group ban in the case of CNJ number digits (20 digits) and names cpf
// (11 digits) with birth date birth: the proof by which a member contests
// his inclusion without a lawyer on the public form (issue 29, item 5);
// nil when any of the three does not match (the caller answers the same
// whichever it was, so that nobody learns whether a CPF is banned).
func (s *Service) ProvenMemberBan(ctx context.Context, digits, cpf string, birth civil.Date) (*sanctions.Ban, error) {
	var bs []sanctions.Ban
	err := db.Conn(ctx, s.DB).Where("case_number = ? AND cpf = ? AND birth_date = ? AND member_id IS NOT NULL AND group_ban_id IS NOT NULL AND status IN ?",
		digits, cpf, birth, []string{sanctions.StatusActive, sanctions.StatusAwaitingFinal}).Order("id DESC").Limit(1).Find(&bs).Error
	if err != nil || len(bs) == 0 {
		return nil, err
	}
	return &bs[0], nil
}
