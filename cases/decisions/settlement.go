package decisions

import (
	"context"
	"fmt"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
)

// SettlementInput is the body of POST /api/v1/cases/{id}/settlement: the
// judge homologates the TAC (termo de ajustamento de conduta) of a group
// case. Terms is the agreement's text; with StadiumBan the TAC bars the
// group defendant_id from stadiums for Months from FirstDay (the day the
// TAC fixes), and the members resolved as for a civil judgment (LGE art.
// 183, § 2º: every member at the date of the facts; art. 184: the members
// named in member_ids), minus excluded_member_ids with exclusion_reason.
type SettlementInput struct {
	DefendantID       int64   `json:"defendant_id"`
	Terms             string  `json:"terms"`
	StadiumBan        bool    `json:"stadium_ban"`
	Months            *int    `json:"months"`
	FirstDay          string  `json:"first_day"`
	MemberIDs         []int64 `json:"member_ids"`
	ExcludedMemberIDs []int64 `json:"excluded_member_ids"`
	ExclusionReason   string  `json:"exclusion_reason"`
	// Scope: the venues and clubs the TAC names (absent: any sporting
	// event), for the group's ban and its members'.
	Scope *ScopeInput `json:"scope"`
}

// SettlementResult is the homologated TAC: the group's ban and its
// members' (source settlement), with notes.
type SettlementResult struct {
	Ban        *cases.BanView  `json:"ban"`
	MemberBans []cases.BanView `json:"member_bans"`
	Warnings   []string        `json:"warnings"`
	Version    int             `json:"-"`
}

// CaseVersion is the case's version after the homologation (the ETag).
func (r *SettlementResult) CaseVersion() int { return r.Version }

// Settle homologates the TAC of a group case in its conciliation hearing
// (the judge the case is distributed to; the case moves to settlement).
// When the TAC bars the group from stadiums it makes the bans, source
// settlement, for the agreed period, through the same checks as a civil
// judgment (planBan: the range of the rule at the date of the facts, LGE
// art. 183, § 2º, or 184; members by registry.SelectBanMembers), in force
// from the day the TAC fixes (DOMAIN.md §3), and refreshes the blocklist.
// Errors: errs.Conflict outside the civil flow's hearing; errs.Forbidden
// for another user; errs.Invalid naming the field.
func (s *Service) Settle(ctx context.Context, actor actor.Actor, caseID int64, in SettlementInput) (*SettlementResult, error) {
	var out *SettlementResult
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		c, err := s.LockCase(ctx, actor, caseID)
		if err != nil {
			return err
		}
		if c.Flow != cases.FlowCivil || c.Status != cases.StatusHearing {
			return errs.New(errs.Conflict, fmt.Sprintf("A homologação do TAC cabe a processo de torcida na audiência de conciliação; este está em “%s” (%s).", cases.OrStatus(c.Status), c.Status))
		}
		if err := cases.JudgeOfCase(actor, c, "homologar o TAC"); err != nil {
			return err
		}
		var f errs.Fields
		if strings.TrimSpace(in.Terms) == "" {
			f.Add("terms", "required", "informe os termos do ajustamento de conduta (TAC).")
		}
		cases.CheckText(&f, "terms", in.Terms, cases.MaxLong, true)
		if !in.StadiumBan && in.Scope != nil {
			f.Add("scope", "stadium_ban", "scope vale para o TAC que impede a torcida de comparecer a estádios (stadium_ban: true).")
		}
		if !in.StadiumBan && (in.Months != nil || in.FirstDay != "" || len(in.MemberIDs) > 0 || len(in.ExcludedMemberIDs) > 0) {
			f.Add("stadium_ban", "required", "prazo, início e associados valem para o TAC que impede a torcida de comparecer a estádios (stadium_ban: true).")
		}
		if err := f.Err(); err != nil {
			return err
		}
		now := s.Now()
		res := &SettlementResult{MemberBans: []cases.BanView{}, Warnings: []string{}}
		text := "Homologado o termo de ajustamento de conduta (TAC): " + strings.TrimSpace(in.Terms)
		if in.StadiumBan {
			d, err := s.PersonOf(ctx, c, in.DefendantID, "defendant_id")
			if err != nil {
				return err
			}
			var court cases.Court
			if err := tx.Where("code = ?", c.CourtCode).Take(&court).Error; err != nil {
				return err
			}
			sin := SentenceInput{DefendantID: d.ID, Ban: BanInput{FirstDay: in.FirstDay, Months: in.Months},
				MemberIDs: in.MemberIDs, ExcludedMemberIDs: in.ExcludedMemberIDs, ExclusionReason: in.ExclusionReason}
			p, err := s.planBan(ctx, *c, *d, court, sin, sanctions.FromSettlement, nil)
			if err != nil {
				return renameField(renameField(err, "ban.first_day", "first_day"), "ban.months", "months")
			}
			p.ban.CreatedBy = &actor.UserID
			var sf errs.Fields
			if p.ban.Scope, err = s.resolveScope(ctx, &sf, c.CourtCode, in.Scope, "scope"); err != nil {
				return err
			}
			if err := sf.Err(); err != nil {
				return err
			}
			members, err := s.writeBan(ctx, p, sin)
			if err != nil {
				return err
			}
			gv := s.BanView(p.ban)
			res.Ban = &gv
			for _, m := range members {
				res.MemberBans = append(res.MemberBans, s.BanView(m))
			}
			res.Warnings = append(res.Warnings, p.warnings...)
			text += fmt.Sprintf(" Impedimento de comparecimento da torcida %s (%s, %s) de %s, de %s a %s, estendido a %d associado(s).",
				p.ban.Name, p.rg.Article, p.rg.Law, termPT(p.ban), p.ban.FirstDay.BR(), p.ban.LastDay.BR(), len(members))
			if err := s.RefreshBlocklist(ctx, cases.BanIDs(p.ban, members)...); err != nil {
				return err
			}
		}
		if err := s.Move(ctx, c, &actor, now, cases.MoveSettlementHomologated, text); err != nil {
			return err
		}
		if err := s.Touch(ctx, c, cases.StatusSettlement); err != nil {
			return err
		}
		res.Version = c.Version
		out = res
		return nil
	})
	return out, err
}
