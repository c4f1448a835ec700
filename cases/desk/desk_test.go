package desk_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/desk"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/app"
	"github.com/juizado/juizado/internal/testenv"
)

// at is a day of June or July 2025 at hh:mm in São Paulo.
func at(month time.Month, day, hh, mm int) time.Time {
	return time.Date(2025, month, day, hh, mm, 0, 0, testenv.SaoPaulo)
}

// summary is a desk as "kind count [number due_on ...]" per queue, for
// the messages.
func summary(v *app.DeskView) string {
	s := ""
	for _, q := range v.Queues {
		s += fmt.Sprintf("%s %d [", q.Kind, q.Count)
		for _, it := range q.Items {
			due := ""
			if it.DueOn != nil {
				due = it.DueOn.String()
			}
			s += fmt.Sprintf(" %s %s %s", it.Number, due, it.Party)
		}
		s += " ] "
	}
	return s
}

// queue returns v's queue of kind, failing the test when v has none.
func queue(t *testing.T, v *app.DeskView, kind string) desk.Queue {
	t.Helper()
	for _, q := range v.Queues {
		if q.Kind == kind {
			return q
		}
	}
	t.Fatalf("no queue %s in %s", kind, summary(v))
	return desk.Queue{}
}

// Issue 30, item 1: the desk of a seeded court on Tuesday 24/06/2025 —
// the windows ending today and in the next 5 working days, earliest first
// (counted as the case page counts them: Lei 9.099/1995, art. 82, § 1º;
// CPP art. 798, § 3º moves the defence's Saturday to Monday 30/06); the
// sentence whose prosecution notice is missing; the judgment whose every
// window was waived (ready to certify); today's and the week's hearings
// with the parties; the case concluded to the judge (TPU 51 as its last
// movement; one whose conclusion was followed by another act is not); the
// ban ending in 10 days. Each role sees its queues in the order of
// urgency; a judge only his cases; the prosecutor only the prosecution's
// windows and notices.
func TestDesk_QueuesOfASeededCourt(t *testing.T) {
	t.Parallel()
	e := casetest.NewEnv(t, at(6, 16, 12, 0), 1)
	ctx := context.Background()
	clerk := e.Clerk(t)
	sentenced := func(name, nine string) (*cases.Case, cases.Defendant) {
		c := e.File(t, casetest.PersonIn(t, "R1", name, nine))
		d := e.Defendants(t, c.ID)[0]
		e.Receive(t, c)
		if _, err := e.Svc.Decisions.Sentence(ctx, e.JudgeOf(t, c), c.ID, casetest.SentenceIn(d.ID, "", 6)); err != nil {
			t.Fatal(err)
		}
		return c, d
	}
	notify := func(c *cases.Case, in calendar.NotificationInput) {
		t.Helper()
		if _, err := e.Svc.Calendar.Notify(ctx, clerk, c.ID, in); err != nil {
			t.Fatalf("notify %+v: %v", in, err)
		}
	}
	// A ban from 01/04/2025 for 3 months: its last day is 30/06.
	_, banID, _ := e.FinalBan(t, "R1", "2025-04-01", 3, nil)

	// A: sentenced on Monday 16/06; the defendant notified that day (last
	// day Thursday 26/06), the defence on 18/06 (Saturday 28/06 → Monday
	// 30/06); the prosecution not yet.
	a, ad := sentenced("Ana Prazo", "111444777")
	notify(a, calendar.NotificationInput{Party: calendar.PartyDefendant, DefendantID: ad.ID, NotifiedOn: "2025-06-16"})
	// B: every party waived the appeal on 16/06: ready to certify.
	b, bd := sentenced("Bruno Pronto", "222555888")
	for _, p := range []string{calendar.PartyDefendant, calendar.PartyDefence} {
		notify(b, calendar.NotificationInput{Party: p, DefendantID: bd.ID, NotifiedOn: "2025-06-16", WaivedAppeal: true})
	}
	notify(b, calendar.NotificationInput{Party: calendar.PartyProsecution, NotifiedOn: "2025-06-16", WaivedAppeal: true})
	e.Clk.Set(at(6, 18, 12, 0))
	notify(a, calendar.NotificationInput{Party: calendar.PartyDefence, DefendantID: ad.ID, NotifiedOn: "2025-06-18"})

	// Tuesday 24/06: C has a hearing today and is concluded to the judge;
	// D was concluded, then a hearing was scheduled (this week); E's
	// hearing is after the week.
	e.Clk.Set(at(6, 24, 12, 0))
	c := e.File(t, casetest.PersonIn(t, "R1", "Carla Hoje", "333666999"))
	d := e.File(t, casetest.PersonIn(t, "R1", "Davi Semana", "444777000"))
	x := e.File(t, casetest.PersonIn(t, "R1", "Edu Depois", "555888111"))
	hearing := func(k *cases.Case, when string) {
		t.Helper()
		if _, err := e.Svc.Case.ScheduleHearing(ctx, clerk, k.ID, cases.HearingInput{Kind: "preliminary", StartsAt: when, Room: "Sala 1"}); err != nil {
			t.Fatal(err)
		}
	}
	hearing(c, "2025-06-24T15:00:00-03:00")
	hearing(x, "2025-07-02T10:00:00-03:00")
	for _, k := range []*cases.Case{c, d} {
		if _, err := e.Svc.Case.AddMovement(ctx, clerk, k.ID, cases.MovementInput{Description: "Conclusos ao(à) juiz(a).", TPUCode: casetest.Ptr(51)}); err != nil {
			t.Fatal(err)
		}
	}
	hearing(d, "2025-06-26T10:00:00-03:00")
	judge := e.JudgeOf(t, c)
	other := e.AddJudge(t, "Juíza Sem Processos")

	desks := map[string]*app.DeskView{}
	for name, who := range map[string]actor.Actor{"clerk": clerk, "judge": judge, "other": other, "prosecutor": e.Pros} {
		v, err := e.Svc.Desk(ctx, who)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		desks[name] = v
	}
	kv := desks["clerk"]
	if kv.Today != "2025-06-24" {
		t.Errorf("today %s", kv.Today)
	}
	var kinds []string
	for _, q := range kv.Queues {
		kinds = append(kinds, q.Kind)
	}
	if fmt.Sprint(kinds) != fmt.Sprint(app.DeskQueues["clerk"]) {
		t.Errorf("clerk's queues %v", kinds)
	}
	num := func(k *cases.Case) string { return cases.FormatNumber(k.Number) }

	w := queue(t, kv, desk.KindWindows)
	if w.Count != 2 || len(w.Items) != 2 || w.Items[0].Number != num(a) || w.Items[0].DueOn.String() != "2025-06-26" || w.Items[0].Party != "defendant" ||
		w.Items[1].DueOn.String() != "2025-06-30" || w.Items[1].Party != "defence" || w.Items[0].Name != "Ana Prazo" {
		t.Errorf("windows: %s", summary(kv))
	}
	n := queue(t, kv, desk.KindToNotify)
	if n.Count != 1 || n.Items[0].Number != num(a) || fmt.Sprint(n.Items[0].Missing) != "[Ministério Público]" {
		t.Errorf("to notify: %+v", n)
	}
	r := queue(t, kv, desk.KindReadyFinal)
	if r.Count != 1 || r.Items[0].Number != num(b) || r.Items[0].DueOn == nil || r.Items[0].DueOn.String() != "2025-06-16" {
		t.Errorf("ready to certify: %+v", r)
	}
	ht := queue(t, kv, desk.KindHearingsToday)
	if ht.Count != 1 || ht.Items[0].Number != num(c) || fmt.Sprint(ht.Items[0].Parties) != "[Ministério Público Carla Hoje]" || ht.Items[0].HearingKind != "preliminary" {
		t.Errorf("hearings today: %+v", ht)
	}
	hw := queue(t, kv, desk.KindHearingsWeek)
	if hw.Count != 1 || hw.Items[0].Number != num(d) || hw.Items[0].DueOn.String() != "2025-06-26" {
		t.Errorf("hearings of the week: %+v", hw)
	}
	be := queue(t, kv, desk.KindBansEnding)
	if be.Count != 1 || be.Items[0].BanID == nil || *be.Items[0].BanID != banID || be.Items[0].DueOn.String() != "2025-06-30" {
		t.Errorf("bans ending: %+v", be)
	}

	jv := desks["judge"]
	if q := queue(t, jv, desk.KindConcluded); q.Count != 1 || q.Items[0].Number != num(c) || q.Items[0].DueOn.String() != "2025-06-24" {
		t.Errorf("concluded: %+v", q)
	}
	if q := queue(t, jv, desk.KindHearingsToday); q.Count != 1 {
		t.Errorf("judge's hearings today: %+v", q)
	}
	for _, q := range desks["other"].Queues {
		if q.Count != 0 || len(q.Items) != 0 {
			t.Errorf("a judge without cases sees %s: %+v", q.Kind, q)
		}
	}
	pv := desks["prosecutor"]
	if q := queue(t, pv, desk.KindWindows); q.Count != 0 {
		t.Errorf("prosecutor's windows: %+v", q)
	}
	if q := queue(t, pv, desk.KindToNotify); q.Count != 1 || fmt.Sprint(q.Items[0].Missing) != "[Ministério Público]" {
		t.Errorf("prosecutor's notices: %+v", q)
	}
	if _, err := e.Svc.Desk(ctx, e.User(t, "Agente", "police")); err == nil {
		t.Error("the police has no desk")
	}
}
