package casefile

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/audit"
	"github.com/juizado/juizado/registry"
)

// The defence reads a case only where it represents a defendant now (an
// active representation, cases.CounselRecord), and of that case the
// personal data of its own clients only (issue 29; LGPD, Lei 13.709/2018,
// art. 6º, III: no more data than the purpose needs): other defendants
// keep their id, kind and status, their names, CPFs and filiations are
// hidden, and their bans, sentences, agreements and windows are left out.
// Each read of a client's data is recorded in the audit trail, as the
// staff's reads of a member register are (internal/audit.Read).

// isDefence reports whether a acts as the defence (role defence).
func isDefence(a actor.Actor) bool { return a.Role == accounts.RoleDefence }

// scopeCond is the condition on cases of what actor a may read: its
// court's cases (staff), or the cases of the defendants it represents (the
// defence).
func scopeCond(a actor.Actor) cond {
	if isDefence(a) {
		return cond{"cases.id " + cases.RepresentedCases, []any{a.UserID}}
	}
	return cond{"cases.court_code = ?", []any{a.Court}}
}

// clientsCond is the condition on defendants (alias d) of the defence a's
// clients now.
const clientsCond = "d.id " + cases.RepresentedDefendants

// hiddenName replaces another defendant's name in what the defence reads.
const hiddenName = "[outro réu]"

// forDefence trims v, read by the defence a, to its clients' data (the
// summary of a list when full is false) and records the read of each
// client's data in the audit trail.
func (s *Service) forDefence(ctx context.Context, a actor.Actor, v *View, full bool) error {
	ids, err := s.Cases.RepresentedIn(ctx, v.ID, a.UserID)
	if err != nil {
		return err
	}
	mine := func(id int64) bool { return slices.Contains(ids, id) }
	mineP := func(id *int64) bool { return id == nil || mine(*id) }
	var secrets []string // other defendants' names and CPFs, as written in texts
	for i, d := range v.Defendants {
		if mine(d.ID) || d.Kind != "person" {
			continue
		}
		for _, x := range []string{d.FullName, d.MotherName, d.FatherName} {
			if strings.TrimSpace(x) != "" {
				secrets = append(secrets, x)
			}
		}
		if d.CPF != nil {
			secrets = append(secrets, *d.CPF)
			if c, err := registry.ParseCPF(*d.CPF); err == nil {
				secrets = append(secrets, c.String(), c.Formatted())
			}
		}
		v.Defendants[i] = cases.DefendantView{ID: d.ID, Kind: d.Kind, Status: d.Status, FinalOn: d.FinalOn, SeparatedOn: d.SeparatedOn, Restricted: true}
	}
	// Longest first, so that a full name is hidden before a part of it.
	slices.SortFunc(secrets, func(x, y string) int { return len(y) - len(x) })
	hide := func(t string) string {
		for _, x := range secrets {
			t = strings.ReplaceAll(t, x, hiddenName)
		}
		return t
	}
	v.Bans = slices.DeleteFunc(v.Bans, func(b cases.BanView) bool { return !mine(b.DefendantID) })
	v.Next = nil
	for i := range v.Warnings {
		v.Warnings[i] = hide(v.Warnings[i])
	}
	if full {
		for i := range v.Movements {
			v.Movements[i].Description = hide(v.Movements[i].Description)
		}
		for i := range v.FinalityMissing {
			v.FinalityMissing[i] = hide(v.FinalityMissing[i])
		}
		v.Deadlines = slices.DeleteFunc(v.Deadlines, func(d calendar.DeadlineView) bool { return !mineP(d.DefendantID) })
		v.Pleas = slices.DeleteFunc(v.Pleas, func(p decisions.Plea) bool { return !mine(p.DefendantID) })
		v.Suspensions = slices.DeleteFunc(v.Suspensions, func(p decisions.Suspension) bool { return !mine(p.DefendantID) })
		v.Sentences = slices.DeleteFunc(v.Sentences, func(p decisions.SentenceRecord) bool { return !mine(p.DefendantID) })
		v.AppealResults = slices.DeleteFunc(v.AppealResults, func(p decisions.AppealResult) bool { return !mineP(p.DefendantID) })
		v.Embargos = slices.DeleteFunc(v.Embargos, func(p calendar.Embargos) bool { return !mineP(p.DefendantID) })
		for i := range v.Defendants {
			v.Defendants[i].Next = nil
		}
	}
	for _, id := range ids {
		if err := audit.ReadIn(ctx, s.DB, a, v.Court, "defendants", strconv.FormatInt(id, 10),
			map[string]any{"case_id": v.ID, "court": v.Court, "via": "defence"}); err != nil {
			return err
		}
	}
	return nil
}

// defenceOnly closes a subquery on defendants (alias d): for the defence,
// limited to its clients (clientsCond, argument defenceArgs); ")" for the
// staff.
func defenceOnly(a actor.Actor) string {
	if isDefence(a) {
		return " AND " + clientsCond + ")"
	}
	return ")"
}

// defenceArgs are the arguments defenceOnly adds.
func defenceArgs(a actor.Actor) []any {
	if isDefence(a) {
		return []any{a.UserID}
	}
	return nil
}

// forDefenceAll is forDefence on the summaries of a list read by a (none
// for the staff).
func (s *Service) forDefenceAll(ctx context.Context, a actor.Actor, vs []View) error {
	if !isDefence(a) {
		return nil
	}
	for i := range vs {
		if err := s.forDefence(ctx, a, &vs[i], false); err != nil {
			return err
		}
	}
	return nil
}
