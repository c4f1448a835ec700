package registry

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"gorm.io/gorm"
)

// BanMember is a member that a group ban reaches: the data a ban of its own
// needs (the CPF reaches the blocklist).
type BanMember struct {
	ID        int64
	FullName  string
	CPF       string
	BirthDate civil.Date
}

// GroupMembers returns the members ids of group groupID's register, by id
// (ids of other groups are left out): the names and CPFs a group ban's
// sentence prints of the members the judge excluded.
func GroupMembers(ctx context.Context, g *gorm.DB, groupID int64, ids []int64) ([]BanMember, error) {
	out := []BanMember{}
	if len(ids) == 0 {
		return out, nil
	}
	err := db.Conn(ctx, g).Raw("SELECT id, full_name, cpf, birth_date FROM members WHERE group_id = ? AND id IN ? ORDER BY id", groupID, ids).Scan(&out).Error
	return out, err
}

// BanSelection is the members a group ban reaches and what the judge should
// know about the choice.
type BanSelection struct {
	Members  []BanMember
	Warnings []string
}

// Member rules of a group ban (sanctions.MembersAll / MembersInvolved).
const (
	ReachAll      = "all"
	ReachInvolved = "involved"
)

// SelectBanMembers says which members of group groupID a group ban reaches
// (DOMAIN.md §2; LGE art. 183 § 2º, art. 184; Lei 10.671/2003 arts. 39-A,
// 39-C; CF art. 5º XLV). Under ReachAll: every member whose membership
// covers the date of the facts (joined on or before it, not left before
// it), minus excluded, plus named, and never a member under 18 at the date
// of the facts unless named. Under ReachInvolved: only named. Every named or
// excluded id must be a member of the group: errs.Invalid naming
// member_ids[i] or excluded_member_ids[i] for a member of another group of
// the court; errs.NotFound naming the first such field for an id that is no
// member of the court's groups, worded alike whether it belongs to another
// court or to nobody (memberNotFound). g is the connection (or transaction)
// to read from.
func SelectBanMembers(ctx context.Context, g *gorm.DB, groupID int64, facts civil.Date, reach string, named, excluded []int64) (*BanSelection, error) {
	return selectBanMembers(ctx, g, groupID, facts, reach, named, excluded, func() ([]Member, []string, error) {
		m, err := liveCovered(ctx, g, groupID, facts)
		return m, nil, err
	})
}

// SelectCaseBanMembers is SelectBanMembers for fan-group defendant
// defendantID of a case (issue 32, item 6: the register as evidence): the
// members covered on the facts date are those of the register kept with
// the case when it was filed or the group linked (TakeCaseRegister), with
// their data as the register has it now (a CPF corrected since reaches the
// ban); each change the group recorded after the facts touching their
// date is a warning for the judge, who decides on it (named, excluded). With
// no register kept (a case older than the rule) the register today decides.
// Dates of the warnings are in loc.
func SelectCaseBanMembers(ctx context.Context, g *gorm.DB, defendantID, groupID int64, facts civil.Date, loc *time.Location, reach string, named, excluded []int64) (*BanSelection, error) {
	return selectBanMembers(ctx, g, groupID, facts, reach, named, excluded, func() ([]Member, []string, error) {
		return caseCovered(ctx, g, defendantID, groupID, facts, loc)
	})
}

// selectBanMembers is SelectBanMembers with the members covered on the
// facts date, and warnings about them, given by coveredBy.
func selectBanMembers(ctx context.Context, g *gorm.DB, groupID int64, facts civil.Date, reach string, named, excluded []int64, coveredBy func() ([]Member, []string, error)) (*BanSelection, error) {
	tx := db.Conn(ctx, g)
	var f errs.Fields
	load := func(ids []int64) (map[int64]Member, error) {
		out := map[int64]Member{}
		if len(ids) == 0 {
			return out, nil
		}
		var ms []Member
		if err := tx.Where("group_id = ? AND id IN ?", groupID, ids).Find(&ms).Error; err != nil {
			return nil, err
		}
		for _, m := range ms {
			out[m.ID] = m
		}
		return out, nil
	}
	namedM, err := load(named)
	if err != nil {
		return nil, err
	}
	exclM, err := load(excluded)
	if err != nil {
		return nil, err
	}
	// An id that is no member of a group of the court is unknown to the
	// caller, whether it exists in another court or not at all: the same
	// 404 (../shared/API.md "Tokens and roles"), before any 422.
	var missing []int64
	for _, id := range append(append([]int64{}, named...), excluded...) {
		_, n := namedM[id]
		_, x := exclM[id]
		if !n && !x {
			missing = append(missing, id)
		}
	}
	inCourt := map[int64]bool{}
	if len(missing) > 0 {
		var ids []int64
		if err := tx.Raw(`SELECT m.id FROM members m JOIN fan_groups g ON g.id = m.group_id
			WHERE m.id IN ? AND g.court_code = (SELECT court_code FROM fan_groups WHERE id = ?)`, missing, groupID).Scan(&ids).Error; err != nil {
			return nil, err
		}
		for _, id := range ids {
			inCourt[id] = true
		}
	}
	var notFound *errs.Error
	unknown := func(field string, id int64) bool {
		if inCourt[id] {
			return false
		}
		if notFound == nil {
			notFound = memberNotFound(id).(*errs.Error)
			notFound.Fields = []errs.FieldError{{Field: field, Rule: "exists", Message: notFound.Message}}
		}
		return true
	}
	namedSet := map[int64]bool{}
	for i, id := range named {
		field := fmt.Sprintf("member_ids[%d]", i)
		if _, ok := namedM[id]; !ok && !unknown(field, id) {
			f.Add(field, "member_of_group", fmt.Sprintf("o associado %d não consta do cadastro da torcida ré.", id))
		}
		namedSet[id] = true
	}
	exclSet := map[int64]bool{}
	for i, id := range excluded {
		field := fmt.Sprintf("excluded_member_ids[%d]", i)
		if _, ok := exclM[id]; !ok {
			if !unknown(field, id) {
				f.Add(field, "member_of_group", fmt.Sprintf("o associado %d não consta do cadastro da torcida ré.", id))
			}
		} else if namedSet[id] {
			f.Add(field, "not_named", fmt.Sprintf("o associado %d foi ao mesmo tempo incluído (member_ids) e excluído.", id))
		}
		exclSet[id] = true
	}
	if notFound != nil {
		return nil, notFound
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	sel := &BanSelection{Members: []BanMember{}, Warnings: []string{}}
	covered := map[int64]bool{}
	coveredM, changes, err := coveredBy()
	if err != nil {
		return nil, err
	}
	sel.Warnings = append(sel.Warnings, changes...)
	for _, m := range coveredM {
		covered[m.ID] = true
	}
	chosen := map[int64]Member{}
	switch reach {
	case ReachAll:
		var minors []string
		for _, m := range coveredM {
			if exclSet[m.ID] || namedSet[m.ID] {
				continue
			}
			if civil.MinorOn(m.BirthDate, facts) {
				minors = append(minors, fmt.Sprintf("%s (associado %d)", m.FullName, m.ID))
				continue
			}
			chosen[m.ID] = m
		}
		if len(minors) > 0 {
			sel.Warnings = append(sel.Warnings, "Associados menores de 18 anos na data dos fatos não são incluídos automaticamente (inclua-os em member_ids, se for o caso): "+strings.Join(minors, "; ")+".")
		}
	case ReachInvolved:
		if len(excluded) > 0 {
			sel.Warnings = append(sel.Warnings, "Pelo art. 184 (art. 39-C) o impedimento alcança só os associados indicados: excluded_member_ids não tem efeito.")
		}
	default:
		return nil, fmt.Errorf("registry: unknown member reach %q", reach)
	}
	for _, id := range named {
		m := namedM[id]
		if _, dup := chosen[id]; dup {
			continue
		}
		chosen[id] = m
		if !covered[id] {
			sel.Warnings = append(sel.Warnings, fmt.Sprintf("%s (associado %d) não era associado(a) na data dos fatos (%s); incluído(a) por indicação do(a) juiz(a).", m.FullName, m.ID, facts.BR()))
		}
		if civil.MinorOn(m.BirthDate, facts) {
			sel.Warnings = append(sel.Warnings, fmt.Sprintf("%s (associado %d) tinha menos de 18 anos na data dos fatos; incluído(a) por indicação do(a) juiz(a).", m.FullName, m.ID))
		}
	}
	for _, m := range chosen {
		sel.Members = append(sel.Members, BanMember{ID: m.ID, FullName: m.FullName, CPF: m.CPF, BirthDate: m.BirthDate})
	}
	sort.Slice(sel.Members, func(i, j int) bool { return sel.Members[i].ID < sel.Members[j].ID })
	return sel, nil
}
