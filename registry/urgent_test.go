package registry_test

import (
	"context"
	"testing"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/execution"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/sanctions"
)

// An urgent order against a group (tutela de urgência, CPC art. 300;
// DOMAIN.md §2: "reaches the members it names like a judgment") bans the
// members named in member_ids, each by a precautionary ban of his own linked
// to the group's, in force at once and on the blocklist; members not named
// are not banned. excluded_member_ids has no place in it, and member_ids on
// a person's measure (CPP art. 319, II) or on a group's dismissal (CPC art.
// 487, I) is 422 naming the field, never ignored.
func TestUrgentOrder_CPC300_BansTheMembersNamed(t *testing.T) {
	t.Parallel()
	e, byCPF, prosA, judge := newUrgentEnv(t)
	ctx := context.Background()
	c, err := e.casesS.Case.File(ctx, prosA, representation(t, "R5"))
	if err != nil {
		t.Fatal(err)
	}
	v, _ := e.casesS.Casefile.Get(ctx, prosA, c.ID)
	def := v.Defendants[0].ID
	named := []int64{byCPF["06420642370"], byCPF["01720368872"]}
	urgent := decisions.SentenceInput{DefendantID: def, Precautionary: true, ReviewOn: "2025-09-10", MemberIDs: named,
		Text: &decisions.SentenceText{Reasoning: "Perigo de dano: novos confrontos anunciados para o clássico (CPC, art. 300)."}}

	bad := urgent
	bad.ExcludedMemberIDs, bad.ExclusionReason = []int64{byCPF["97037600903"]}, "não estava no estádio"
	_, err = e.casesS.Decisions.Sentence(ctx, judge, c.ID, bad)
	invalidOn(t, err, "excluded_member_ids")

	res, err := e.casesS.Decisions.Sentence(ctx, judge, c.ID, urgent)
	if err != nil {
		t.Fatal(err)
	}
	gb := res.PrecautionaryBan
	if gb == nil || gb.Subject != sanctions.Group || gb.Article != "art. 300" || !gb.Precautionary || gb.Status != sanctions.StatusActive {
		t.Fatalf("group's urgent ban %+v", gb)
	}
	if len(res.MemberBans) != len(named) {
		t.Fatalf("member bans: %d, want the %d named", len(res.MemberBans), len(named))
	}
	for _, mb := range res.MemberBans {
		if mb.GroupBanID == nil || *mb.GroupBanID != gb.ID || mb.Subject != sanctions.Person || !mb.Precautionary || mb.CPF == nil ||
			mb.Status != sanctions.StatusActive || mb.FirstDay == nil || *mb.FirstDay != *gb.FirstDay || mb.Article != "art. 300" {
			t.Errorf("member's urgent ban %+v", mb)
		}
	}
	for _, cpf := range []string{"06420642370", "01720368872"} {
		if r, err := e.lists.Check(ctx, registry.CPF(cpf)); err != nil || !r.Blocked {
			t.Errorf("named member %s not blocked: %+v %v", cpf, r, err)
		}
	}
	for _, cpf := range []string{"06909990382", "68078490950", "97037600903"} {
		if r, _ := e.lists.Check(ctx, registry.CPF(cpf)); r.Blocked {
			t.Errorf("member %s not named is blocked", cpf)
		}
	}
	var moves int64
	e.g.Raw("SELECT count(*) FROM movements WHERE case_id = ? AND description LIKE 'Impedimento estendido a 2 associado(s)%'", c.ID).Scan(&moves)
	if moves != 1 {
		t.Errorf("%d docket movements naming the members reached, want 1", moves)
	}

	// A group's dismissal imposes nothing on members.
	c2, err := e.casesS.Case.File(ctx, prosA, representation(t, "R5"))
	if err != nil {
		t.Fatal(err)
	}
	v2, _ := e.casesS.Casefile.Get(ctx, prosA, c2.ID)
	_, err = e.casesS.Decisions.Sentence(ctx, judge, c2.ID, decisions.SentenceInput{DefendantID: v2.Defendants[0].ID, Outcome: decisions.OutcomeAcquittal, MemberIDs: named,
		Text: &decisions.SentenceText{Reasoning: "Improcedente."}})
	invalidOn(t, err, "member_ids")

	// A person's precautionary measure reaches no member.
	c3, err := e.casesS.Case.File(ctx, prosA, representation(t, "R1"))
	if err != nil {
		t.Fatal(err)
	}
	v3, _ := e.casesS.Casefile.Get(ctx, prosA, c3.ID)
	_, err = e.casesS.Decisions.Sentence(ctx, judge, c3.ID, decisions.SentenceInput{DefendantID: v3.Defendants[0].ID, Precautionary: true, ReviewOn: "2025-09-10", MemberIDs: named,
		Text: &decisions.SentenceText{Reasoning: "Risco de reiteração."}})
	invalidOn(t, err, "member_ids")
	// A TAC without the stadium bar bans no member (Lei 7.347/1985, art.
	// 5º, § 6º): excluded_member_ids there is 422 too.
	if _, err := e.casesS.Casefile.Transition(ctx, e.clerk, c2.ID, casefile.TransitionInput{To: cases.StatusHearing}); err != nil {
		t.Fatal(err)
	}
	_, err = e.casesS.Decisions.Settle(ctx, judge, c2.ID, decisions.SettlementInput{DefendantID: v2.Defendants[0].ID, Terms: "Campanha contra a violência.",
		ExcludedMemberIDs: named, ExclusionReason: "não participaram"})
	invalidOn(t, err, "stadium_ban")
	var n int64
	e.g.Raw("SELECT count(*) FROM bans WHERE case_id IN (?, ?)", c2.ID, c3.ID).Scan(&n)
	if n != 0 {
		t.Errorf("%d bans written by refused decisions", n)
	}
}

// A group's civil judgment made effective at once by an urgent order (CPC
// art. 300; DOMAIN.md §3: precautionary_until_final) reaches the members
// the judgment reaches, each at once on the blocklist, while the
// judgment's own bans wait for the final judgment (Súmula 643 STJ).
func TestUrgentOrder_CPC300_UntilFinalReachesTheJudgmentsMembers(t *testing.T) {
	t.Parallel()
	e, _, prosA, judge := newUrgentEnv(t)
	ctx := context.Background()
	c, err := e.casesS.Case.File(ctx, prosA, representation(t, "R5"))
	if err != nil {
		t.Fatal(err)
	}
	v, _ := e.casesS.Casefile.Get(ctx, prosA, c.ID)
	res, err := e.casesS.Decisions.Sentence(ctx, judge, c.ID, decisions.SentenceInput{DefendantID: v.Defendants[0].ID, Ban: decisions.BanInput{Months: ptr(24)},
		PrecautionaryUntilFinal: &decisions.PrecautionaryInput{ReviewOn: "2025-09-10"}, Text: &decisions.SentenceText{Reasoning: "Procedente; tutela de urgência."}})
	if err != nil {
		t.Fatal(err)
	}
	var waiting, now []sanctions.Ban
	for _, mb := range res.MemberBans {
		switch {
		case mb.Precautionary && mb.GroupBanID != nil && *mb.GroupBanID == res.PrecautionaryBan.ID && mb.Status == sanctions.StatusActive:
			now = append(now, mb)
		case !mb.Precautionary && mb.GroupBanID != nil && *mb.GroupBanID == res.Ban.ID && mb.Status == sanctions.StatusAwaitingFinal:
			waiting = append(waiting, mb)
		default:
			t.Errorf("member ban %+v", mb)
		}
	}
	if len(waiting) == 0 || len(now) != len(waiting) {
		t.Fatalf("%d members' urgent bans for %d members of the judgment", len(now), len(waiting))
	}
	for _, mb := range now {
		if r, err := e.lists.Check(ctx, registry.CPF(*mb.CPF)); err != nil || !r.Blocked {
			t.Errorf("member %s not blocked by the urgent order: %+v %v", *mb.CPF, r, err)
		}
	}
}

// newUrgentEnv is a regEnv with the group registered (registeredGroup:
// its members' ids by CPF), a prosecutor and a judge of its court.
func newUrgentEnv(t *testing.T) (e *regEnv, byCPF map[string]int64, prosecutor, judge actor.Actor) {
	t.Helper()
	e = newRegEnv(t)
	_, _, byCPF = e.registeredGroup(t)
	return e, byCPF, e.user(t, "promotora", "prosecutor", "26.0100", 0), e.user(t, "juiz", "judge", "26.0100", 0)
}

// urgentOrder files R5 against the registered group and orders the urgent
// order (CPC art. 300, review on 10/09/2025) naming the members of cpfs; it
// returns the group's ban and the members' bans by CPF.
func (e *regEnv) urgentOrder(t *testing.T, prosecutor, judge actor.Actor, byCPF map[string]int64, cpfs ...string) (int64, sanctions.Ban, map[string]sanctions.Ban) {
	t.Helper()
	ctx := context.Background()
	c, err := e.casesS.Case.File(ctx, prosecutor, representation(t, "R5"))
	if err != nil {
		t.Fatal(err)
	}
	v, _ := e.casesS.Casefile.Get(ctx, prosecutor, c.ID)
	var named []int64
	for _, cpf := range cpfs {
		named = append(named, byCPF[cpf])
	}
	res, err := e.casesS.Decisions.Sentence(ctx, judge, c.ID, decisions.SentenceInput{DefendantID: v.Defendants[0].ID, Precautionary: true,
		ReviewOn: "2025-09-10", MemberIDs: named, Text: &decisions.SentenceText{Reasoning: "Perigo de dano: novos confrontos anunciados (CPC, art. 300)."}})
	if err != nil {
		t.Fatal(err)
	}
	members := map[string]sanctions.Ban{}
	for _, mb := range res.MemberBans {
		members[*mb.CPF] = mb
	}
	if len(members) != len(cpfs) {
		t.Fatalf("%d members' bans, want %d", len(members), len(cpfs))
	}
	return c.ID, *res.PrecautionaryBan, members
}

// onBlocklist is the stored blocklist's entries (blocklist_entries, as the
// last refresh left them, not recomputed) among bans.
func (e *regEnv) onBlocklist(t *testing.T, bans map[string]sanctions.Ban) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for cpf, b := range bans {
		var n int64
		if err := e.g.Raw("SELECT count(*) FROM blocklist_entries WHERE ban_id = ?", b.ID).Scan(&n).Error; err != nil {
			t.Fatal(err)
		}
		out[cpf] = n > 0
	}
	return out
}

// Lifting the urgent order against a group (CPC art. 296: the tutela
// provisória may be revoked at any time; CPC art. 300) lifts the members'
// precautionary bans it made the same day, with its reason: they leave the
// stored blocklist in the same transaction, and the gates' check no longer
// blocks them. The members' bans of another order stay.
func TestUrgentOrder_CPC296_LiftEndsTheMembersBansTheSameDay(t *testing.T) {
	t.Parallel()
	e, byCPF, pros, judge := newUrgentEnv(t)
	ctx := context.Background()
	caseID, gb, members := e.urgentOrder(t, pros, judge, byCPF, "06420642370", "01720368872")
	_, _, others := e.urgentOrder(t, pros, judge, byCPF, "06909990382")
	for cpf, on := range e.onBlocklist(t, members) {
		if !on {
			t.Fatalf("member %s of the urgent order not on the blocklist before the lift", cpf)
		}
	}

	if _, err := e.casesS.Execution.Lift(ctx, judge, gb.ID, execution.LiftInput{LiftedOn: "2025-06-10", Reason: "Cessou o perigo de dano."}); err != nil {
		t.Fatal(err)
	}
	for cpf, on := range e.onBlocklist(t, members) {
		if on {
			t.Errorf("member %s still on the stored blocklist after the order was lifted", cpf)
		}
		if r, err := e.lists.Check(ctx, registry.CPF(cpf)); err != nil || r.Blocked {
			t.Errorf("member %s still blocked after the order was lifted: %+v %v", cpf, r, err)
		}
	}
	var rows []sanctions.Ban
	e.g.Where("group_ban_id = ?", gb.ID).Order("id").Find(&rows)
	if len(rows) != 2 {
		t.Fatalf("%d members' bans of the order, want 2", len(rows))
	}
	for _, b := range rows {
		if b.Status != sanctions.StatusLifted || b.LiftedOn == nil || b.LiftedOn.String() != "2025-06-10" || b.LiftReason != "Cessou o perigo de dano." {
			t.Errorf("member's ban %d after the lift: status %s, lifted on %v, reason %q", b.ID, b.Status, b.LiftedOn, b.LiftReason)
		}
	}
	for cpf, on := range e.onBlocklist(t, others) {
		if !on {
			t.Errorf("member %s of another order left the blocklist", cpf)
		}
	}
	var moves int64
	e.g.Raw("SELECT count(*) FROM movements WHERE case_id = ? AND description LIKE 'Revogada em 10/06/2025%CPC, art. 296%2 associado(s)%'", caseID).Scan(&moves)
	if moves != 1 {
		t.Errorf("%d docket movements of the lift naming the members, want 1", moves)
	}
}

// Renewing the urgent order against a group (CPC arts. 296 and 300; Res.
// CNJ 417/2021, art. 19) renews the members' precautionary bans it made:
// their review date follows the group's, each with a recorded renewal; a
// member's ban already renewed past the new date keeps its own. The
// members stay on the blocklist.
func TestUrgentOrder_CPC300_RenewMovesTheMembersReview(t *testing.T) {
	t.Parallel()
	e, byCPF, pros, judge := newUrgentEnv(t)
	ctx := context.Background()
	_, gb, members := e.urgentOrder(t, pros, judge, byCPF, "06420642370", "01720368872")
	late := members["01720368872"]
	if _, err := e.casesS.Execution.Renew(ctx, judge, late.ID, execution.RenewInput{ReviewOn: "2025-12-01", Reason: "Reiteração do associado."}); err != nil {
		t.Fatal(err)
	}

	if _, err := e.casesS.Execution.Renew(ctx, judge, gb.ID, execution.RenewInput{ReviewOn: "2025-11-10", Reason: "Persistem os confrontos anunciados."}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"06420642370": "2025-11-10", "01720368872": "2025-12-01"}
	for cpf, mb := range members {
		var b sanctions.Ban
		e.g.First(&b, mb.ID)
		if b.Status != sanctions.StatusActive || b.ReviewOn == nil || b.ReviewOn.String() != want[cpf] {
			t.Errorf("member %s's ban after the renewal: status %s, review %v, want active, %s", cpf, b.Status, b.ReviewOn, want[cpf])
		}
	}
	var renewals int64
	e.g.Raw("SELECT count(*) FROM ban_renewals WHERE ban_id = ? AND new_review = '2025-11-10' AND previous_review = '2025-09-10'", members["06420642370"].ID).Scan(&renewals)
	if renewals != 1 {
		t.Errorf("%d renewals recorded on the member's ban, want 1", renewals)
	}
	for cpf, on := range e.onBlocklist(t, members) {
		if !on {
			t.Errorf("member %s left the blocklist with the renewal", cpf)
		}
	}
}
