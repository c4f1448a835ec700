package registry_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/registry/blocklist"
	"github.com/juizado/juizado/sanctions"
)

func representation(t *testing.T, ref string) cases.Representation {
	t.Helper()
	var f struct {
		Representations []cases.Representation `json:"representations"`
	}
	if err := json.Unmarshal(readFix(t, "fixtures", "representations.json"), &f); err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Representations {
		if r.Ref == ref {
			return r
		}
	}
	t.Fatalf("no representation %s", ref)
	return cases.Representation{}
}

// R5 (Garra do Tatuapé, 06/04/2025, on-venue riot and invasion: LGE art.
// 183 § 2º): the group's imported members whose membership covers the date
// of the facts are banned each by a ban of their own, linked to the group
// ban, and reach the blocklist; the member the judge excludes, a minor and
// a member who joined later are not; the member bans are not published
// unless the judge orders it; a member id of another group of the court is
// 422 naming it, an unknown one or one of another court 404 alike. The
// civil judgment's bans, the group's and its members', wait for the final
// judgment (Súmula 643 STJ; DOMAIN.md §3): on no blocklist until then.
func TestGroupSentence_R5MembersReachTheBlocklistAfterFinal_Sumula643STJ(t *testing.T) {
	t.Parallel()
	e := newRegEnv(t)
	ctx := context.Background()
	g, mgr := e.group(t, "Torcida Organizada Garra do Tatuapé")
	rep, err := e.svc.Import(ctx, mgr, g.ID, registry.ImportInput{Body: readFix(t, "fixtures", "members-valid-excel-ptbr.csv"), ContentType: "text/csv"})
	if err != nil || !rep.Applied {
		t.Fatalf("import: %+v %v", rep, err)
	}
	minorIn := memberIn("Kauã Menor", "529.982.247-25", "2010-02-02")
	minorIn.JoinedOn = str("2024-05-01")
	minor, err := e.svc.AddMember(ctx, mgr, g.ID, minorIn)
	if err != nil {
		t.Fatal(err)
	}
	e.clk.Set(time.Date(2025, 6, 10, 12, 0, 0, 0, saoPaulo))
	laterIn := memberIn("Chegou Depois", "390.533.447-05", "1990-02-02")
	laterIn.JoinedOn = str("2025-05-01")
	if _, err := e.svc.AddMember(ctx, mgr, g.ID, laterIn); err != nil {
		t.Fatal(err)
	}
	byCPF := e.memberIDs(t, mgr, g.ID)
	luis := byCPF["97037600903"]
	// Rafaela leaves after the facts: still banned (leaving ends nothing).
	if _, err := e.svc.Leave(ctx, mgr, byCPF["68078490950"], registry.DateInput{LeftOn: "2025-05-20"}); err != nil {
		t.Fatal(err)
	}

	pros := e.user(t, "promotora", "prosecutor", "26.0100", 0)
	judgeU := e.user(t, "juiz", "judge", "26.0100", 0)
	c, err := e.casesS.Case.File(ctx, actor.Actor{UserID: pros.UserID, Name: pros.Name, Role: "prosecutor", Court: "26.0100"}, representation(t, "R5"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.casesS.Casefile.Get(ctx, actor.Actor{UserID: pros.UserID, Role: "prosecutor", Court: "26.0100"}, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	d := v.Defendants[0]
	if d.GroupID == nil || *d.GroupID != g.ID {
		t.Fatalf("R5 defendant not linked to the registered group: %+v", d)
	}
	judge := actor.Actor{UserID: judgeU.UserID, Name: judgeU.Name, Role: "judge", Court: "26.0100"}
	months := 24
	in := decisions.SentenceInput{Text: &decisions.SentenceText{Reasoning: "Autoria e materialidade provadas."}, DefendantID: d.ID, Ban: decisions.BanInput{Months: &months},
		ExcludedMemberIDs: []int64{luis}, ExclusionReason: "comprovou estar internado na data dos fatos"}

	// A member of a group of another court is not found, exactly as an
	// unknown id (API.md "Tokens and roles"), in member_ids and in
	// excluded_member_ids; a member of another group of the court is 422.
	rj, err := e.svc.CreateGroup(ctx, e.other, registry.GroupInput{Name: "Torcida Fronteira Carioca", SupportedClub: "Flamengo"})
	if err != nil {
		t.Fatal(err)
	}
	foreign, err := e.svc.AddMember(ctx, e.user(t, "manager-rj", "fan_group", "", rj.ID), rj.ID, memberIn("Associado Carioca", "314.159.265-90", "1990-03-03"))
	if err != nil {
		t.Fatal(err)
	}
	sp, mgrSP := e.group(t, "Outra Torcida Paulista")
	neighbour, err := e.svc.AddMember(ctx, mgrSP, sp.ID, memberIn("Associado Vizinho", "271.828.182-05", "1990-04-04"))
	if err != nil {
		t.Fatal(err)
	}
	var ae *errs.Error
	for _, field := range []string{"member_ids[0]", "excluded_member_ids[1]"} {
		answers := map[int64]string{}
		for _, id := range []int64{999999, foreign.ID} {
			bad := in
			if field == "member_ids[0]" {
				bad.MemberIDs = []int64{id}
			} else {
				bad.ExcludedMemberIDs = []int64{luis, id}
			}
			_, err = e.casesS.Decisions.Sentence(ctx, judge, c.ID, bad)
			if !errors.As(err, &ae) || ae.Kind != errs.NotFound || len(ae.Fields) != 1 || ae.Fields[0].Field != field {
				t.Fatalf("%s %d (unknown or of another court): %v, want not found naming %s", field, id, err, field)
			}
			answers[id] = strings.ReplaceAll(fmt.Sprintf("%s %+v", ae.Message, ae.Fields), fmt.Sprint(id), "N")
		}
		if answers[999999] != answers[foreign.ID] {
			t.Errorf("%s: another court's member is told apart from an unknown id: %q vs %q", field, answers[foreign.ID], answers[999999])
		}
	}
	bad := in
	bad.MemberIDs = []int64{neighbour.ID}
	_, err = e.casesS.Decisions.Sentence(ctx, judge, c.ID, bad)
	if !errors.As(err, &ae) || ae.Kind != errs.Invalid || ae.Fields[0].Field != "member_ids[0]" || ae.Fields[0].Rule != "member_of_group" {
		t.Fatalf("member of another group of the court: %v, want 422 member_of_group", err)
	}

	noReason := in
	noReason.ExclusionReason = " "
	_, err = e.casesS.Decisions.Sentence(ctx, judge, c.ID, noReason)
	if !errors.As(err, &ae) || ae.Kind != errs.Invalid || ae.Fields[0].Field != "exclusion_reason" {
		t.Fatalf("exclusion without a reason (DOMAIN.md §2): %v", err)
	}

	res, err := e.casesS.Decisions.Sentence(ctx, judge, c.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Ban.Name != g.Name {
		t.Errorf("group ban name %q, want the registered %q", res.Ban.Name, g.Name)
	}
	if res.Ban.Subject != sanctions.Group || res.Ban.Article != "art. 183, § 2º" {
		t.Errorf("group ban: %+v", res.Ban)
	}
	if len(res.MemberBans) != 4 {
		t.Fatalf("member bans: %d, want 4 (5 imported − 1 excluded; not the minor, not the later member): %+v", len(res.MemberBans), res.MemberBans)
	}
	banned := []string{"06420642370", "01720368872", "06909990382", "68078490950"}
	for _, mb := range res.MemberBans {
		if mb.ID == 0 || mb.GroupBanID == nil || *mb.GroupBanID != res.Ban.ID || mb.Subject != sanctions.Person || mb.CPF == nil ||
			mb.BirthDate == nil || mb.Source != sanctions.FromCivilJudgment || mb.Publish || mb.Status != sanctions.StatusAwaitingFinal ||
			mb.FirstDay != nil || mb.LastDay != nil || mb.MemberID == nil {
			t.Errorf("member ban before the final judgment: %+v", mb)
		}
	}
	for _, cpf := range banned {
		if r, err := e.lists.Check(ctx, registry.CPF(cpf)); err != nil || r.Blocked {
			t.Errorf("CPF %s blocked before the final judgment (Súmula 643 STJ): %+v %v", cpf, r, err)
		}
	}
	clerk := actor.Actor{UserID: e.clerk.UserID, Name: e.clerk.Name, Role: "clerk", Court: "26.0100"}
	for _, n := range []calendar.NotificationInput{{Party: calendar.PartyProsecution}, {Party: calendar.PartyDefendant, DefendantID: d.ID}} {
		n.NotifiedOn, n.WaivedAppeal = "2025-06-10", true
		if _, err := e.casesS.Calendar.Notify(ctx, clerk, c.ID, n); err != nil {
			t.Fatalf("notify %+v: %v", n, err)
		}
	}
	if _, err := e.casesS.Casefile.Transition(ctx, clerk, c.ID, casefile.TransitionInput{To: cases.StatusFinal}); err != nil {
		t.Fatalf("final judgment: %v", err)
	}
	var group sanctions.Ban
	if err := e.g.Take(&group, res.Ban.ID).Error; err != nil {
		t.Fatal(err)
	}
	if group.Status != sanctions.StatusActive || group.FirstDay == nil || group.FirstDay.String() != "2025-06-10" || group.LastDay == nil || group.LastDay.String() != "2027-06-09" {
		t.Fatalf("group ban after the final judgment on 10/06/2025: %s %v–%v, want active 2025-06-10–2027-06-09 (CP art. 10)", group.Status, group.FirstDay, group.LastDay)
	}
	for i, mb := range res.MemberBans {
		if err := e.g.Take(&res.MemberBans[i], mb.ID).Error; err != nil {
			t.Fatal(err)
		}
		mb = res.MemberBans[i]
		if mb.Status != sanctions.StatusActive || mb.FirstDay == nil || *mb.FirstDay != *group.FirstDay || mb.LastDay == nil || *mb.LastDay != *group.LastDay {
			t.Errorf("member ban after the final judgment: %s %v–%v, want the group's %v–%v", mb.Status, mb.FirstDay, mb.LastDay, group.FirstDay, group.LastDay)
		}
	}
	for _, cpf := range banned {
		r, err := e.lists.Check(ctx, registry.CPF(cpf))
		if err != nil || !r.Blocked {
			t.Errorf("CPF %s not blocked: %+v %v", cpf, r, err)
		}
	}
	for _, cpf := range []string{"97037600903", "52998224725", "39053344705"} {
		if r, _ := e.lists.Check(ctx, registry.CPF(cpf)); r.Blocked {
			t.Errorf("CPF %s (excluded, minor or joined later) blocked", cpf)
		}
	}
	snap, err := e.lists.Current(ctx)
	if err != nil {
		t.Fatal(err)
	}
	inSnap := 0
	for _, it := range snap.Items {
		for _, mb := range res.MemberBans {
			if it.BanID == mb.ID && it.CPF == *mb.CPF {
				inSnap++
			}
		}
	}
	if inSnap != 4 {
		t.Errorf("blocklist snapshot has %d of the 4 member bans", inSnap)
	}
	pub, _ := e.lists.Public(ctx, blocklist.PublicFilter{})
	if len(pub) != 0 {
		t.Errorf("unpublished member bans on the public list: %+v", pub)
	}
	for _, mb := range res.MemberBans {
		if *mb.MemberID == minor.ID || *mb.MemberID == luis {
			t.Errorf("member %d banned", *mb.MemberID)
		}
	}
}
