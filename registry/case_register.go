package registry

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"gorm.io/gorm"
)

// TakeCaseRegister keeps with the case, for its fan-group defendant
// defendantID linked to group groupID, the group's register as it stands
// at instant at: each member's CPF, name, birth date and membership
// periods (issue 32, item 6: the register as evidence; Lei 14.597/2023,
// art. 178, § 4º). A register kept earlier for the defendant (a group
// linked before) is replaced. g is the connection or transaction to write
// with (the filing's, the link's).
func TakeCaseRegister(ctx context.Context, g *gorm.DB, caseID, defendantID, groupID int64, at time.Time) error {
	tx := db.Conn(ctx, g)
	if err := tx.Exec("DELETE FROM case_registers WHERE defendant_id = ?", defendantID).Error; err != nil {
		return err
	}
	if err := tx.Exec("INSERT INTO case_registers (defendant_id, case_id, group_id, taken_at) VALUES (?, ?, ?, ?)", defendantID, caseID, groupID, at).Error; err != nil {
		return err
	}
	return tx.Exec(`INSERT INTO case_register_members (defendant_id, member_id, cpf, full_name, birth_date, periods)
		SELECT ?, m.id, m.cpf, m.full_name, m.birth_date,
		       coalesce((SELECT jsonb_agg(jsonb_build_object('joined_on', p.joined_on, 'left_on', p.left_on) ORDER BY p.joined_on, p.id)
		                 FROM member_periods p WHERE p.member_id = m.id), '[]'::jsonb)
		FROM members m WHERE m.group_id = ?`, defendantID, groupID).Error
}

// caseRegister is the register kept for a defendant (TakeCaseRegister):
// when it was taken and the members it covers on the facts date.
type caseRegister struct {
	TakenAt time.Time
	Covered map[int64]bool
}

// keptRegister returns the register kept for defendantID with group
// groupID and the members it covers on facts; nil when none was kept (a
// case filed before registers were kept, or another group).
func keptRegister(ctx context.Context, g *gorm.DB, defendantID, groupID int64, facts civil.Date) (*caseRegister, error) {
	tx := db.Conn(ctx, g)
	var taken []time.Time
	if err := tx.Raw("SELECT taken_at FROM case_registers WHERE defendant_id = ? AND group_id = ?", defendantID, groupID).Scan(&taken).Error; err != nil || len(taken) == 0 {
		return nil, err
	}
	var ids []int64
	if err := tx.Raw(`SELECT r.member_id FROM case_register_members r WHERE r.defendant_id = ? AND EXISTS (
		SELECT 1 FROM jsonb_array_elements(r.periods) e
		WHERE (e->>'joined_on')::date <= ? AND (e->>'left_on' IS NULL OR (e->>'left_on')::date >= ?))`, defendantID, facts, facts).Scan(&ids).Error; err != nil {
		return nil, err
	}
	r := &caseRegister{TakenAt: taken[0], Covered: map[int64]bool{}}
	for _, id := range ids {
		r.Covered[id] = true
	}
	return r, nil
}

// liveCovered returns the members of group groupID whose membership in the
// register today covers facts, by id.
func liveCovered(ctx context.Context, g *gorm.DB, groupID int64, facts civil.Date) ([]Member, error) {
	var out []Member
	err := db.Conn(ctx, g).Raw(`SELECT m.* FROM members m WHERE m.group_id = ? AND EXISTS (
		SELECT 1 FROM member_periods p WHERE p.member_id = m.id AND p.joined_on <= ? AND (p.left_on IS NULL OR p.left_on >= ?))
		ORDER BY m.id`, groupID, facts, facts).Scan(&out).Error
	return out, err
}

// registerChanges compares the register kept with the case (kept) with the
// register today (live, the members it covers on facts, and all, every
// member by id) and words, for the judge, each member whose membership on
// the facts date changed after the case was filed: one who now appears as
// a member then (a join recorded later, dated on or before the facts), and
// one who no longer does (a leave recorded later, dated before them). The
// judge decides on each (member_ids, excluded_member_ids).
func registerChanges(kept *caseRegister, live []Member, all map[int64]Member, facts civil.Date, loc *time.Location) []string {
	filed := civil.Today(kept.TakenAt, loc).BR()
	var out []string
	liveSet := map[int64]bool{}
	for _, m := range live {
		liveSet[m.ID] = true
		if !kept.Covered[m.ID] {
			out = append(out, fmt.Sprintf("%s (associado %d) passou a constar no cadastro como associado(a) na data dos fatos (%s) por alteração registrada pela torcida depois do ajuizamento (%s): não é alcançado(a) pelo cadastro da data do ajuizamento; inclua-o(a) entre os associados indicados (member_ids), se for o caso.",
				m.FullName, m.ID, facts.BR(), filed))
		}
	}
	var gone []int64
	for id := range kept.Covered {
		if !liveSet[id] {
			gone = append(gone, id)
		}
	}
	sort.Slice(gone, func(i, j int) bool { return gone[i] < gone[j] })
	for _, id := range gone {
		name := all[id].FullName
		out = append(out, fmt.Sprintf("%s (associado %d) deixou de constar no cadastro como associado(a) na data dos fatos (%s) por alteração registrada pela torcida depois do ajuizamento (%s): é alcançado(a) pelo cadastro da data do ajuizamento; exclua-o(a) (excluded_member_ids, com o motivo), se for o caso.",
			strings.TrimSpace(name), id, facts.BR(), filed))
	}
	return out
}

// changesAfterFacts words, for the judge, the changes to group groupID's
// register recorded after the day of the facts (and before until, the
// filing; zero: any time) that touch the facts date: a leave recorded
// then and dated before the facts (the member no longer appears as one on
// that date), and a rejoin or a corrected joining date recorded then that
// makes the membership cover the facts date (the group's word, given after
// the facts, is all that makes him a member then). The register is the group's
// own declaration (CPC art. 408, par. único): the judge weighs each.
func changesAfterFacts(ctx context.Context, g *gorm.DB, groupID int64, facts civil.Date, loc *time.Location, until time.Time) ([]string, error) {
	after := facts.AddDays(1).Start(loc)
	if until.IsZero() {
		until = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	var rows []struct {
		FullName string
		ID       int64
		Action   string
		At       time.Time
		Date     civil.Date
	}
	err := db.Conn(ctx, g).Raw(`SELECT DISTINCT ON (m.id, h.action) m.full_name, m.id, h.action, h.at,
			CASE WHEN h.action = 'leave' THEN p.left_on ELSE p.joined_on END AS date
		FROM members m JOIN member_history h ON h.member_id = m.id JOIN member_periods p ON p.member_id = m.id
		WHERE m.group_id = ? AND h.at >= ? AND h.at < ?
		  AND ((h.action = 'leave' AND p.left_on < ? AND NOT EXISTS (SELECT 1 FROM member_periods q WHERE q.member_id = m.id AND q.joined_on <= ? AND (q.left_on IS NULL OR q.left_on >= ?)))
		    OR ((h.action = 'rejoin' OR (h.action = 'update' AND h.before->>'joined_on' IS NOT NULL)) AND p.joined_on <= ? AND (p.left_on IS NULL OR p.left_on >= ?)))
		ORDER BY m.id, h.action, h.at`, groupID, after, until, facts, facts, facts, facts, facts).Scan(&rows).Error
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range rows {
		at := civil.Today(r.At, loc).BR()
		if r.Action == "leave" {
			out = append(out, fmt.Sprintf("%s (associado %d): saída registrada pela torcida em %s, depois dos fatos (%s), com data de %s, anterior a eles: não é alcançado(a) automaticamente; confira e inclua-o(a) entre os associados indicados (member_ids), se for o caso.",
				r.FullName, r.ID, at, facts.BR(), r.Date.BR()))
			continue
		}
		out = append(out, fmt.Sprintf("%s (associado %d): associação reaberta ou data de ingresso alterada pela torcida em %s, depois dos fatos (%s), com ingresso em %s, anterior a eles: confira a associação na data dos fatos e exclua-o(a) (excluded_member_ids, com o motivo), se for o caso.",
			r.FullName, r.ID, at, facts.BR(), r.Date.BR()))
	}
	return out, nil
}

// RegisterChanges are the warnings, for fan-group defendant defendantID
// linked to group groupID and facts, dates in loc (the case page and the
// sentence form show them), of the changes to the register that touch the
// facts date: recorded after the facts and before the register was kept
// with the case (changesAfterFacts), and after it (registerChanges).
func RegisterChanges(ctx context.Context, g *gorm.DB, defendantID, groupID int64, facts civil.Date, loc *time.Location) ([]string, error) {
	_, warnings, err := caseCovered(ctx, g, defendantID, groupID, facts, loc)
	return warnings, err
}

// caseCovered returns the members of group groupID that fan-group
// defendant defendantID's ban reaches on facts, by id — those of the
// register kept with the case, with their data as the register has it now,
// or, with no register kept, those of the register today — and the
// warnings of the changes to the register that touch the facts date
// (changesAfterFacts, registerChanges), dates in loc.
func caseCovered(ctx context.Context, g *gorm.DB, defendantID, groupID int64, facts civil.Date, loc *time.Location) ([]Member, []string, error) {
	live, err := liveCovered(ctx, g, groupID, facts)
	if err != nil {
		return nil, nil, err
	}
	kept, err := keptRegister(ctx, g, defendantID, groupID, facts)
	if err != nil {
		return nil, nil, err
	}
	var until time.Time
	if kept != nil {
		until = kept.TakenAt
	}
	warnings, err := changesAfterFacts(ctx, g, groupID, facts, loc, until)
	if err != nil || kept == nil {
		return live, warnings, err
	}
	all, err := membersByID(ctx, g, groupID, kept.Covered)
	if err != nil {
		return nil, nil, err
	}
	covered := make([]Member, 0, len(all))
	for _, m := range all {
		covered = append(covered, m)
	}
	sort.Slice(covered, func(i, j int) bool { return covered[i].ID < covered[j].ID })
	return covered, append(warnings, registerChanges(kept, live, all, facts, loc)...), nil
}

// membersByID loads the members of group groupID among ids.
func membersByID(ctx context.Context, g *gorm.DB, groupID int64, ids map[int64]bool) (map[int64]Member, error) {
	out := map[int64]Member{}
	if len(ids) == 0 {
		return out, nil
	}
	list := make([]int64, 0, len(ids))
	for id := range ids {
		list = append(list, id)
	}
	var ms []Member
	if err := db.Conn(ctx, g).Where("group_id = ? AND id IN ?", groupID, list).Find(&ms).Error; err != nil {
		return nil, err
	}
	for _, m := range ms {
		out[m.ID] = m
	}
	return out, nil
}

// MemberIdentity is how the register identifies a member now: CPF (11
// digits), full name and birth date.
type MemberIdentity struct {
	ID        int64
	CPF       string
	FullName  string
	BirthDate civil.Date
}

// MemberIdentities returns the register's identification of each of
// members ids now, by id.
func MemberIdentities(ctx context.Context, g *gorm.DB, ids []int64) (map[int64]MemberIdentity, error) {
	out := map[int64]MemberIdentity{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []MemberIdentity
	if err := db.Conn(ctx, g).Raw("SELECT id, cpf, full_name, birth_date FROM members WHERE id IN ?", ids).Scan(&rows).Error; err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.ID] = r
	}
	return out, nil
}
