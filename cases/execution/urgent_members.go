package execution

import (
	"context"
	"fmt"

	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/sanctions"
)

// urgentMemberBans are the members' precautionary bans in force that the
// group's precautionary ban groupBanID made (the urgent order against a
// group reaches the members it names, each by a ban of his own linked to
// the group's: CPC art. 300; DOMAIN.md §2), by id.
func (s *Service) urgentMemberBans(ctx context.Context, groupBanID int64) ([]sanctions.Ban, error) {
	var rows []sanctions.Ban
	err := db.Conn(ctx, s.DB).Where("group_ban_id = ? AND precautionary AND status = ?", groupBanID, sanctions.StatusActive).
		Order("id").Find(&rows).Error
	return rows, err
}

// liftMembers ends, on day on and for reason, the members' bans of the
// urgent order groupBanID with it (CPC art. 300 and art. 296: the order is
// revoked as a whole; a member's ban does not outlive the order that made
// it) and returns their ids for the blocklist, which the caller refreshes in
// the same transaction.
func (s *Service) liftMembers(ctx context.Context, groupBanID int64, on civil.Date, reason string) ([]int64, error) {
	rows, err := s.urgentMemberBans(ctx, groupBanID)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	ids := make([]int64, len(rows))
	for i, m := range rows {
		ids[i] = m.ID
	}
	err = db.Conn(ctx, s.DB).Model(&sanctions.Ban{}).Where("id IN ?", ids).
		Updates(map[string]any{"status": sanctions.StatusLifted, "lifted_on": on, "lift_reason": reason}).Error
	return ids, err
}

// renewMembers moves the review date of the members' bans of the urgent
// order rn.BanID to rn.NewReview with it (CPC art. 296: the order is kept as
// a whole; Res. CNJ 417/2021, art. 19), each with its own recorded renewal.
// A member's ban whose review is already on or after the new date keeps it.
// It returns the ids of the members' bans renewed.
func (s *Service) renewMembers(ctx context.Context, rn Renewal) ([]int64, error) {
	rows, err := s.urgentMemberBans(ctx, rn.BanID)
	if err != nil {
		return nil, err
	}
	tx := db.Conn(ctx, s.DB)
	var ids []int64
	for _, m := range rows {
		if m.ReviewOn != nil && !m.ReviewOn.Before(rn.NewReview) {
			continue
		}
		mr := rn
		mr.ID, mr.BanID, mr.PreviousReview = 0, m.ID, m.ReviewOn
		if err := tx.Create(&mr).Error; err != nil {
			return nil, err
		}
		if err := tx.Model(&sanctions.Ban{}).Where("id = ?", m.ID).Update("review_on", rn.NewReview).Error; err != nil {
			return nil, err
		}
		ids = append(ids, m.ID)
	}
	return ids, nil
}

// membersText is the docket's words for the members' bans ids that follow
// the group's: empty when there are none.
func membersText(ids []int64) string {
	if len(ids) == 0 {
		return ""
	}
	return fmt.Sprintf(" Com ela, os impedimentos dos %d associado(s) alcançados pela ordem (%s).", len(ids), decisions.JoinIDs(ids))
}

// urgent reports whether precautionary ban b is an urgent order against a
// group or a member's ban made by one (CPC art. 300), not a person's
// measure (CPP art. 319, II).
func urgent(b sanctions.Ban) bool {
	return b.Subject == sanctions.Group || b.GroupBanID != nil
}

// liftArticle is the article that lets the judge revoke precautionary ban
// b: CPP art. 282, § 5º for a person's measure; CPC art. 296 (the tutela
// provisória may be revoked at any time) for an urgent order.
func liftArticle(b sanctions.Ban) string {
	if urgent(b) {
		return "CPC, art. 296"
	}
	return "CPP, art. 282, § 5º"
}

// renewArticle is the article of precautionary ban b the renewal keeps: CPP
// art. 319, II for a person's measure; CPC art. 300 for an urgent order.
func renewArticle(b sanctions.Ban) string {
	if urgent(b) {
		return "CPC, art. 300"
	}
	return "CPP, art. 319, II"
}
