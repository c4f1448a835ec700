package ui

import (
	"net/http"
	"slices"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/execution"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/sanctions"
	"github.com/labstack/echo/v4"
)

// The case page for the staff of a court (GET /processos/:id): its docket,
// parties, facts and documents, and the forms each role is offered
// (caseActionsFor); the forms post to case_party_forms.go,
// case_decisions.go, ban_decisions.go and sentence.go. It calls the same
// case services (app.Cases) as the JSON API.

// caseData is the data of the case page.
type caseData struct {
	Case     *casefile.View
	Evidence []cases.EvidenceView
	Next     []cases.Transition
	Persons  []cases.DefendantView
	Distance string
	Kinds    []string
	// Actions: the decision forms the user is offered (case_decisions.go).
	Actions caseActions
	// Names are the defendants' names by id (person or group).
	Names map[int64]string
	// CourtName is the name of the case's court ("Juizado Especial do
	// Torcedor da Comarca de São Paulo").
	CourtName string
	// InForce are the case's bans in force today: the ones a breach can be
	// recorded against (a ban awaiting the final judgment is not in force).
	InForce []cases.BanView
	// CPFCorrections are the case's member bans whose CPF the group's
	// register has since corrected, for the judge to carry (issue 32, item
	// 6; CPC art. 494, I); read only for a user who may carry them.
	CPFCorrections []execution.RegisterCPFCorrection
	// UrgentGroups are the group defendants linked to a registered group,
	// each with its register, for the members an urgent order names (CPC
	// art. 300); read only when the precautionary form is offered.
	UrgentGroups []urgentGroup
}

// urgentGroup is a group defendant and the members of its register the
// judge may name in the urgent order (names only on the page; the ids are
// the checkboxes' values).
type urgentGroup struct {
	DefendantID int64
	Name        string
	Members     []memberChoice
}

// memberChoice is a member of a group's register as the urgent order's
// form lists it: the name, and the day the member left, if so.
type memberChoice struct {
	ID     int64
	Name   string
	LeftOn *civil.Date
}

// urgentGroups reads the registers of the group defendants of v linked to
// a registered group (registry.Groups.ListMembers: the judge's read is
// recorded, as every staff read of a register is).
func (s *UI) urgentGroups(c echo.Context, v *casefile.View) ([]urgentGroup, error) {
	var out []urgentGroup
	for _, def := range v.Defendants {
		if def.Kind != "fan_group" || def.GroupID == nil {
			continue
		}
		ms, err := s.App.Groups.ListMembers(c.Request().Context(), server.Actor(c), *def.GroupID)
		if err != nil {
			return nil, err
		}
		g := urgentGroup{DefendantID: def.ID, Name: def.Name}
		for _, m := range ms {
			g.Members = append(g.Members, memberChoice{ID: m.ID, Name: m.FullName, LeftOn: m.LeftOn})
		}
		if len(g.Members) > 0 {
			out = append(out, g)
		}
	}
	return out, nil
}

// Name is the name of defendant id (an int64 or *int64; "" for none).
func (d caseData) Name(id any) string {
	switch x := id.(type) {
	case int64:
		return d.Names[x]
	case *int64:
		if x != nil {
			return d.Names[*x]
		}
	}
	return ""
}

func caseID(c echo.Context) (int64, error) { return server.PathID(c, "id") }

// casePage: GET /processos/:id.
func (s *UI) casePage(c echo.Context) error {
	return s.renderCase(c, http.StatusOK, server.Page{})
}

func (s *UI) renderCase(c echo.Context, status int, p server.Page) error {
	id, err := caseID(c)
	if err != nil {
		return s.pageFail(c, err)
	}
	v, err := s.Cases.Casefile.Get(c.Request().Context(), server.Actor(c), id)
	if err != nil {
		return s.pageFail(c, err)
	}
	u := pageUser(c)
	var ev []cases.EvidenceView // the whole case's evidence: the staff's, not the defence's
	if u.Role != accounts.RoleDefence {
		if ev, err = s.Cases.Case.ListEvidence(c.Request().Context(), server.Actor(c), id); err != nil {
			return s.pageFail(c, err)
		}
	}
	d := caseData{Case: v, Evidence: ev, Kinds: cases.HearingKinds[v.Flow], Actions: caseActionsFor(v, u.Role, u.ID, civil.Today(s.Now(), s.Deps.Loc), func(route string) bool { return s.May(u, http.MethodPost, route) })}
	seen := map[string]bool{}
	for _, t := range caseSteps(v) {
		if t.Via == "" && slices.Contains(t.Roles, u.Role) && !seen[t.To] {
			seen[t.To] = true
			d.Next = append(d.Next, t)
		}
	}
	if len(d.Actions.Unlinked) > 0 {
		if d.Actions.Groups, err = s.Cases.Casefile.RegisteredGroups(c.Request().Context(), server.Actor(c)); err != nil {
			return err
		}
	}
	if d.Actions.Precautionary {
		if d.UrgentGroups, err = s.urgentGroups(c, v); err != nil {
			return err
		}
	}
	if len(v.Bans) > 0 && s.May(u, http.MethodPost, "/processos/:id/cpf-cadastro") {
		if d.CPFCorrections, err = s.Cases.Execution.CaseCPFCorrections(c.Request().Context(), server.Actor(c), v.ID); err != nil {
			return err
		}
	}
	for _, b := range v.Bans {
		if b.State == sanctions.StateInForce {
			d.InForce = append(d.InForce, b)
		}
	}
	d.Names = map[int64]string{}
	for _, def := range v.Defendants {
		if def.Kind == "person" {
			d.Persons = append(d.Persons, def)
			d.Names[def.ID] = def.FullName
		} else {
			d.Names[def.ID] = def.Name
		}
	}
	if v.Facts.DistanceToVenueM != nil {
		d.Distance = thousands(*v.Facts.DistanceToVenueM) + " m"
	}
	if d.CourtName, err = s.Cases.Case.CourtName(c.Request().Context(), v.Court); err != nil && errs.KindOf(err) != errs.NotFound {
		return err
	}
	p.Title = "Processo " + v.Number
	p.Data = d
	return s.Page(c, status, "processo", p)
}

// pleaChoice is an accepted plea agreement waiting for the homologation.
type pleaChoice struct {
	DefendantID int64
	Name        string
	Months      int
	FirstDay    *civil.Date
}

// caseActions says which decision forms the case page offers the user.
// The steps come from the case's flow (casefile.View.Next, built from
// cases.CriminalFlow) with the role each needs; the services check them
// again under a row lock.
type caseActions struct {
	// JudgeOfCase: the user is the judge the case is distributed to, the
	// only one who decides it (bans, homologation, suspension).
	JudgeOfCase bool
	// Offer: the prosecutor may offer a plea agreement (Lei 9.099/1995,
	// art. 76): the flow goes to plea_offered from here, or is there.
	Offer bool
	// Homologate: an accepted plea agreement waits for the judge (Lei
	// 9.099/1995, art. 76, § 4º); Accepted lists them.
	Homologate bool
	Accepted   []pleaChoice
	// Suspend: the flow allows the conditional suspension (Lei 9.099/1995,
	// art. 89) from here.
	Suspend bool
	// Notify: the clerk may record a party's notification of the decision
	// that opens its appeal window, or its express waiver of the appeal
	// (Lei 9.099/1995, art. 82, § 1º); Parties are the parties to choose
	// (the defence only in a criminal case).
	Notify  bool
	Parties []string
	// Precautionary: the judge of the case may order a precautionary ban
	// alone (CPP art. 319, II: at any stage before the final judgment).
	Precautionary bool
	// AppealResult: the clerk records the Turma Recursal's result of the
	// appeal (Lei 9.099/1995, art. 82).
	AppealResult bool
	// Embargos: the clerk records embargos de declaração (a defendant's
	// track sentenced or in appeal; Lei 9.099/1995, art. 83);
	// PendingEmbargos: the embargos the judge of the case rules on.
	Embargos        bool
	PendingEmbargos []calendar.Embargos
	// Unlinked: the group defendants not linked to a registered fan group,
	// which cannot be sentenced until linked (casefile.Service.LinkGroup); set
	// for the clerk and the judge of the case while the case is undecided.
	// Groups: the court's registered groups to choose from.
	Unlinked []cases.DefendantView
	Groups   []casefile.RegisteredGroup
	// Unidentified: the person defendants filed without a CPF, whom the
	// clerk or a judge of the court may identify (their bans stay out of
	// the blocklist until then).
	Unidentified []cases.DefendantView
	// Today is today's date as dd/mm/aaaa (the default of decision dates).
	Today string
}

// caseActionsFor computes the forms of case v for user u on day today.
//
// may reports whether the policy lets the user POST to a page route of the
// case ("/processos/:id/acordo"): which forms show is the policy's
// decision; what this function adds is the case's own state (its phase,
// the judge it is distributed to).
func caseActionsFor(v *casefile.View, role string, userID int64, today civil.Date, may func(route string) bool) caseActions {
	a := caseActions{Today: today.BR()}
	if v == nil {
		return a
	}
	a.JudgeOfCase = role == "judge" && v.Judge != nil && v.Judge.ID == userID
	allowed := func(to string, via bool) bool {
		for _, t := range caseSteps(v) {
			if t.To == to && (t.Via != "") == via && slices.Contains(t.Roles, role) {
				return true
			}
		}
		return false
	}
	a.Offer = may("/processos/:id/acordo") && (allowed(cases.StatusPleaOffered, true) || v.Status == cases.StatusPleaOffered)
	if a.JudgeOfCase {
		a.Suspend = allowed(cases.StatusConditionalSuspension, true)
		if allowed(cases.StatusExecuting, true) { // plea_accepted → executing, via the homologation
			names := map[int64]string{}
			for _, d := range v.Defendants {
				names[d.ID] = d.FullName
			}
			for _, p := range v.Pleas {
				if p.Status == "accepted" {
					a.Accepted = append(a.Accepted, pleaChoice{DefendantID: p.DefendantID, Name: names[p.DefendantID], Months: p.Months, FirstDay: p.FirstDay})
				}
			}
			a.Homologate = len(a.Accepted) > 0
		}
	}
	if may("/processos/:id/torcida") && (role != "judge" || a.JudgeOfCase) && v.Sentenceable {
		for _, d := range v.Defendants {
			if d.Kind == "fan_group" && d.GroupID == nil {
				a.Unlinked = append(a.Unlinked, d)
			}
		}
	}
	// calendar.Service.Notify takes the notification of a decided case.
	a.Notify = may("/processos/:id/intimacoes") && anyTrack(v, cases.StatusSentenced, cases.StatusJudgment)
	if a.Notify {
		a.Parties = []string{calendar.PartyDefendant}
		if v.Flow == cases.FlowCriminal {
			a.Parties = append(a.Parties, calendar.PartyDefence)
		}
		a.Parties = append(a.Parties, calendar.PartyProsecution)
	}
	a.Precautionary = a.JudgeOfCase && len(v.Defendants) > 0 && !slices.Contains([]string{cases.StatusFinal, cases.StatusExecuting, cases.StatusArchived, cases.StatusSettlement}, v.Status)
	a.AppealResult = may("/processos/:id/recurso") && anyTrack(v, cases.StatusAppeal)
	a.Embargos = may("/processos/:id/embargos") && anyTrack(v, cases.StatusSentenced, cases.StatusJudgment, cases.StatusAppeal)
	if may("/processos/:id/embargos/decisao") && a.JudgeOfCase {
		for _, e := range v.Embargos {
			if e.Status == "pending" {
				a.PendingEmbargos = append(a.PendingEmbargos, e)
			}
		}
	}
	if may("/processos/:id/identificacao") {
		for _, d := range v.Defendants {
			if d.AwaitingIdentification {
				a.Unidentified = append(a.Unidentified, d)
			}
		}
	}
	return a
}

// caseSteps are the steps the case's page may offer: the case's (a group
// case, the distribution) and each defendant's own track's (DOMAIN.md §4).
func caseSteps(v *casefile.View) []cases.Transition {
	out := append([]cases.Transition{}, v.Next...)
	for _, d := range v.Defendants {
		out = append(out, d.Next...)
	}
	return out
}

// anyTrack reports whether some defendant's track (a group case: the
// case) is in one of statuses.
func anyTrack(v *casefile.View, statuses ...string) bool {
	if slices.Contains(statuses, v.Status) {
		return true
	}
	for _, d := range v.Defendants {
		if slices.Contains(statuses, d.Status) {
			return true
		}
	}
	return false
}
