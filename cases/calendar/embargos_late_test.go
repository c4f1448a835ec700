package calendar_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/testenv"
)

// docketHas says whether a movement of case c contains text.
func docketHas(t *testing.T, e *env, c *cases.Case, text string) bool {
	t.Helper()
	return e.Count(t, "movements", "case_id = ? AND description LIKE ?", c.ID, "%"+text+"%") > 0
}

// Lei 9.099/1995, art. 83, § 1º: embargos within 5 running days of the
// party's notice of the decision (counted as the appeal: a last day on a
// Sunday moves to Monday, CPP art. 798, § 3º). Filed after it they are
// recorded (never refused: issue #29) flagged late, the docket says
// "intempestivos", and they interrupt nothing: the notices keep counting
// and the final judgment follows the windows as if they were not there.
// Filed in time by another party, they interrupt (§ 2º).
func TestEmbargos_LateRecordedNoInterruption_Lei9099Art83Par1(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, k := sentencedR1(t, e, "") // sentences of 10/06/2025
	c2, d2, k2 := sentencedR1(t, e, "")
	notifyAll(t, e, c, d, "2025-06-10") // embargos: 11/06 to Sunday 15/06, moved to Monday 16/06
	notifyAll(t, e, c2, d2, "2025-06-10")
	e.Clk.Set(time.Date(2025, 6, 17, 12, 0, 0, 0, testenv.SaoPaulo))
	late, err := e.Svc.Calendar.FileEmbargos(ctx, k, c.ID, calendar.EmbargosInput{DefendantID: d.ID, Party: calendar.PartyDefendant, FiledOn: "2025-06-17", Text: "Omissão quanto à detração."})
	if err != nil {
		t.Fatal(err)
	}
	if !late.Late || late.WindowLastDay == nil || late.WindowLastDay.String() != "2025-06-16" || !strings.Contains(late.Rule, "Lei 9.099/1995, art. 83, § 1º") {
		t.Errorf("embargos on 17/06 after the notice of 10/06: %+v", late)
	}
	if n := e.Count(t, "notifications", "case_id = ? AND NOT superseded", c.ID); n != 3 {
		t.Errorf("late embargos interrupted the windows: %d notices still counting", n)
	}
	if !docketHas(t, e, c, "intempestivos") || docketHas(t, e, c, "interrompido o prazo") {
		t.Error("the docket does not record the embargos as intempestivos, without interruption")
	}
	// The last day of the window is in time (the prosecution, on Monday 16/06).
	timely, err := e.Svc.Calendar.FileEmbargos(ctx, k2, c2.ID, calendar.EmbargosInput{DefendantID: d2.ID, Party: calendar.PartyProsecution, FiledOn: "2025-06-16", Text: "Contradição na dosimetria."})
	if err != nil {
		t.Fatal(err)
	}
	if timely.Late || e.Count(t, "notifications", "case_id = ? AND NOT superseded", c2.ID) != 0 {
		t.Errorf("embargos on the last day did not interrupt: %+v", timely)
	}
	// The late embargos, pending, hold nothing: the appeal windows of
	// 10/06 end on 20/06 and the judgment is final on 21/06.
	finalOnIs(t, e, c, d, time.Date(2025, 6, 23, 0, 0, 0, 0, testenv.SaoPaulo), "2025-06-21")
}

// Lei 9.099/1995, art. 83, § 2º: a notice of the ruling on the embargos
// cannot predate the ruling, nor a notice of the sentence the sentence
// (422 on notified_on); embargos cannot predate the decision they attack
// (422 on filed_on).
func TestEmbargos_NoticeAndFilingNotBeforeDecision_Lei9099Art83Par2(t *testing.T) {
	t.Parallel()
	e := newEnv(t, time.Date(2025, 6, 2, 12, 0, 0, 0, testenv.SaoPaulo), 1)
	ctx := context.Background()
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)
	k := e.Clerk(t)
	e.Clk.Set(testenv.T0)
	if _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.SentenceIn(d.ID, "", 12)); err != nil { // 10/06/2025
		t.Fatal(err)
	}
	_, err := e.Svc.Calendar.Notify(ctx, k, c.ID, calendar.NotificationInput{Party: calendar.PartyDefendant, DefendantID: d.ID, NotifiedOn: "2025-06-06"})
	casetest.InvalidField(t, err, "notified_on", false)
	_, err = e.Svc.Calendar.FileEmbargos(ctx, k, c.ID, calendar.EmbargosInput{DefendantID: d.ID, Party: calendar.PartyDefence, FiledOn: "2025-06-06", Text: "Omissão."})
	casetest.InvalidField(t, err, "filed_on", false)
	emb, err := e.Svc.Calendar.FileEmbargos(ctx, k, c.ID, calendar.EmbargosInput{DefendantID: d.ID, Party: calendar.PartyDefence, FiledOn: "2025-06-10", Text: "Omissão."})
	if err != nil {
		t.Fatal(err)
	}
	e.Clk.Set(time.Date(2025, 6, 13, 12, 0, 0, 0, testenv.SaoPaulo))
	if _, err := e.Svc.Calendar.RuleEmbargos(ctx, j, emb.ID, calendar.RulingInput{DecidedOn: "2025-06-12", Granted: casetest.Ptr(false), Text: "Não há omissão."}); err != nil {
		t.Fatal(err)
	}
	_, err = e.Svc.Calendar.Notify(ctx, k, c.ID, calendar.NotificationInput{Party: calendar.PartyDefence, DefendantID: d.ID, NotifiedOn: "2025-06-11"})
	casetest.InvalidField(t, err, "notified_on", false)
	if _, err := e.Svc.Calendar.Notify(ctx, k, c.ID, calendar.NotificationInput{Party: calendar.PartyDefence, DefendantID: d.ID, NotifiedOn: "2025-06-12"}); err != nil {
		t.Fatalf("notice on the day of the ruling: %v", err)
	}
	if !docketHas(t, e, c, "Ciência da decisão dos embargos de declaração pela defesa") {
		t.Error("the docket does not say the notice is of the ruling")
	}
}

// CPC arts. 1.022 to 1.026 in a group (civil) case: embargos within 5
// working days (art. 1.023; CPC art. 219), the prosecution's doubled (CPC
// art. 180); late ones are recorded flagged, in time they interrupt the
// windows (art. 1.026); the texts and rules cite the CPC, not Lei
// 9.099/1995.
func TestEmbargos_GroupCase_CPC1023WorkingDays_CPC180_CPC1026(t *testing.T) {
	t.Parallel()
	e := newEnv(t, time.Date(2025, 6, 2, 12, 0, 0, 0, testenv.SaoPaulo), 1)
	ctx := context.Background()
	k := e.Clerk(t)
	c, d, _ := e.FileOne(t, "R5")
	if c.Flow != cases.FlowCivil {
		t.Fatalf("R5 flow %s", c.Flow)
	}
	e.G.Exec("UPDATE cases SET status = 'judgment' WHERE id = ?", c.ID)
	e.Clk.Set(time.Date(2025, 6, 23, 12, 0, 0, 0, testenv.SaoPaulo))
	for _, p := range []string{calendar.PartyProsecution, calendar.PartyDefendant} {
		if _, err := e.Svc.Calendar.Notify(ctx, k, c.ID, calendar.NotificationInput{Party: p, DefendantID: d.ID, NotifiedOn: "2025-06-23"}); err != nil {
			t.Fatal(err)
		}
	}
	e.Clk.Set(time.Date(2025, 7, 2, 12, 0, 0, 0, testenv.SaoPaulo))
	_, err := e.Svc.Calendar.FileEmbargos(ctx, k, c.ID, calendar.EmbargosInput{DefendantID: d.ID, Party: calendar.PartyDefendant, FiledOn: "2025-07-01"})
	if msg := casetest.InvalidField(t, err, "text", false); !strings.Contains(msg, "CPC, art. 1.022") {
		t.Errorf("text required: %q", msg)
	}
	// The group: 5 working days from 24/06 end on Monday 30/06.
	late, err := e.Svc.Calendar.FileEmbargos(ctx, k, c.ID, calendar.EmbargosInput{DefendantID: d.ID, Party: calendar.PartyDefendant, FiledOn: "2025-07-01", Text: "Omissão quanto aos associados."})
	if err != nil {
		t.Fatal(err)
	}
	if !late.Late || late.WindowLastDay.String() != "2025-06-30" || !strings.Contains(late.Rule, "CPC, arts. 1.023") {
		t.Errorf("the group's embargos on 01/07: %+v", late)
	}
	// The prosecution: 10 working days (CPC art. 180), to Monday 07/07.
	timely, err := e.Svc.Calendar.FileEmbargos(ctx, k, c.ID, calendar.EmbargosInput{DefendantID: d.ID, Party: calendar.PartyProsecution, FiledOn: "2025-07-02", Text: "Contradição no alcance da proibição."})
	if err != nil {
		t.Fatal(err)
	}
	if timely.Late || timely.WindowLastDay.String() != "2025-07-07" || !strings.Contains(timely.Rule, "CPC, art. 180") {
		t.Errorf("the prosecution's embargos on 02/07: %+v", timely)
	}
	if n := e.Count(t, "notifications", "case_id = ? AND NOT superseded", c.ID); n != 0 {
		t.Errorf("embargos in time did not interrupt the windows (CPC art. 1.026): %d notices counting", n)
	}
	if !docketHas(t, e, c, "CPC, art. 1.026") || docketHas(t, e, c, "9.099") {
		t.Error("the docket of a group case does not cite the CPC alone")
	}
	_, err = e.Svc.Casefile.Transition(ctx, k, c.ID, casefile.TransitionInput{To: cases.StatusFinal})
	if casetest.KindIs(t, err, errs.Conflict); err == nil || !strings.Contains(err.Error(), "CPC, art. 1.026") {
		t.Errorf("final judgment while the embargos wait: %v", err)
	}
}
