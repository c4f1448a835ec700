package cases_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/testenv"
)

// hearingMoves counts the docket movements of case id with TPU 970 and
// the situation complement sit.
func hearingMoves(t *testing.T, e *env, id int64, sit string) int64 {
	t.Helper()
	return e.Count(t, "movements", `case_id = ? AND tpu_code = 970 AND complements @> ?::jsonb`, id,
		fmt.Sprintf(`[{"name": "situação da audiência", "value": %q}]`, sit))
}

// Issue 30, item 2: a hearing is redesignated (reason; a new hearing
// naming the old; TPU 970 "redesignada"), held with an absent party (TPU
// 970 "realizada", the party named), or cancelled (TPU 970 "cancelada");
// one open hearing of a kind per case (Lei 9.099/1995, arts. 72 and 81): a
// second preliminary hearing is 422 on kind until the first is closed; the
// new day keeps the law's checks (CPP arts. 792 and 798-A).
func TestHearings_RedesignateHoldCancel(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1) // Tuesday 10/06/2025, 12:00
	ctx := context.Background()
	clerk := e.Clerk(t)
	c := e.File(t, casetest.Fixture(t, "R1"))
	d := e.Defendants(t, c.ID)[0]
	svc := e.Svc.Case
	h, err := svc.ScheduleHearing(ctx, clerk, c.ID, cases.HearingInput{Kind: "preliminary", StartsAt: "2025-06-12T14:00:00-03:00", Room: "Sala 1"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = svc.ScheduleHearing(ctx, clerk, c.ID, cases.HearingInput{Kind: "preliminary", StartsAt: "2025-06-13T14:00:00-03:00", Room: "Sala 2"})
	if m := casetest.InvalidField(t, err, "kind", false); !strings.Contains(m, "já tem audiência preliminar designada para 12/06/2025") {
		t.Errorf("second preliminary hearing: %q", m)
	}

	// Redesignation: the law's checks on the new day, a reason required.
	for at, rule := range map[string]string{"2025-06-21T10:00:00-03:00": "sábado", "2025-12-22T10:00:00-03:00": "798-A"} {
		_, err := svc.RedesignateHearing(ctx, clerk, h.ID, cases.RedesignateInput{StartsAt: at, Reason: "pedido da defesa"})
		if m := casetest.InvalidField(t, err, "starts_at", false); !strings.Contains(m, rule) {
			t.Errorf("redesignate to %s: %q, want %q", at, m, rule)
		}
	}
	_, err = svc.RedesignateHearing(ctx, clerk, h.ID, cases.RedesignateInput{StartsAt: "2025-06-16T10:00:00-03:00"})
	casetest.InvalidField(t, err, "reason", false)
	nh, err := svc.RedesignateHearing(ctx, clerk, h.ID, cases.RedesignateInput{StartsAt: "2025-06-16T10:00:00-03:00", Reason: "pedido da defesa"})
	if err != nil {
		t.Fatal(err)
	}
	if nh.ID == h.ID || nh.RedesignatedFrom == nil || *nh.RedesignatedFrom != h.ID || nh.Status != "scheduled" || nh.Room != "Sala 1" ||
		nh.EndsAt.Sub(nh.StartsAt) != time.Hour {
		t.Errorf("new hearing %+v", nh)
	}
	if n := e.Count(t, "hearings", "id = ? AND status = 'redesignated' AND reason = 'pedido da defesa'", h.ID); n != 1 {
		t.Errorf("the old hearing is not redesignated with its reason")
	}
	if n := hearingMoves(t, e, c.ID, "redesignada"); n != 1 {
		t.Errorf("%d movements redesignada", n)
	}
	if n := e.Count(t, "movements", "case_id = ? AND description LIKE ?", c.ID, "%de 12/06/2025, das 14:00 às 15:00 para 16/06/2025, das 10:00 às 11:00%Intimem-se as partes%"); n != 1 {
		t.Errorf("the docket does not name the old and new days")
	}
	_, err = svc.CancelHearing(ctx, clerk, h.ID, cases.CancelInput{Reason: "x"})
	casetest.KindIs(t, err, errs.Conflict)

	// The result: not before the hearing; absent parties of the case only.
	_, err = svc.RecordHearingResult(ctx, clerk, nh.ID, cases.ResultInput{Held: casetest.Ptr(true), Text: "Termo."})
	casetest.InvalidField(t, err, "held", false)
	e.Clk.Set(time.Date(2025, 6, 16, 11, 30, 0, 0, testenv.SaoPaulo))
	_, err = svc.RecordHearingResult(ctx, clerk, nh.ID, cases.ResultInput{Held: casetest.Ptr(true), Absent: []string{"prosecution", "defendant:999999"}, Text: "Termo."})
	casetest.InvalidField(t, err, "absent[1]", false)
	held, err := svc.RecordHearingResult(ctx, clerk, nh.ID, cases.ResultInput{Held: casetest.Ptr(true),
		Absent: []string{fmt.Sprintf("defendant:%d", d.ID)}, Text: "Proposta a transação penal; o réu pediu prazo."})
	if err != nil {
		t.Fatal(err)
	}
	if held.Status != "held" || len(held.Absent) != 1 {
		t.Errorf("held: %+v", held)
	}
	if n := e.Count(t, "movements", "case_id = ? AND tpu_code = 970 AND description LIKE ?", c.ID, "Realizada a audiência preliminar de 16/06/2025%Ausentes: "+d.FullName+".%"); n != 1 {
		t.Errorf("the docket does not record the hearing held with the absent defendant")
	}
	if n := hearingMoves(t, e, c.ID, "realizada"); n != 1 {
		t.Errorf("%d movements realizada", n)
	}
	_, err = svc.RecordHearingResult(ctx, clerk, nh.ID, cases.ResultInput{Held: casetest.Ptr(false), Text: "x"})
	casetest.KindIs(t, err, errs.Conflict)

	// Cancelled: a reason, TPU 970 "cancelada"; the kind is free again.
	ih, err := svc.ScheduleHearing(ctx, clerk, c.ID, cases.HearingInput{Kind: "instruction", StartsAt: "2025-06-25T14:00:00-03:00", Room: "Sala 1"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = svc.CancelHearing(ctx, clerk, ih.ID, cases.CancelInput{Reason: "  "})
	casetest.InvalidField(t, err, "reason", false)
	if v, err := svc.CancelHearing(ctx, clerk, ih.ID, cases.CancelInput{Reason: "réu não localizado"}); err != nil || v.Status != "cancelled" {
		t.Fatalf("cancel: %+v %v", v, err)
	}
	if n := hearingMoves(t, e, c.ID, "cancelada"); n != 1 {
		t.Errorf("%d movements cancelada", n)
	}
	if _, err := svc.ScheduleHearing(ctx, clerk, c.ID, cases.HearingInput{Kind: "instruction", StartsAt: "2025-06-26T14:00:00-03:00", Room: "Sala 1"}); err != nil {
		t.Errorf("instruction after the cancelled one: %v", err)
	}
	other := e.User(t, "Escrivão de outro juizado", "clerk")
	other.Court = "26.0999"
	_, err = svc.CancelHearing(ctx, other, ih.ID, cases.CancelInput{Reason: "x"})
	casetest.KindIs(t, err, errs.NotFound)
}

// CF art. 5º, XXXVI: a hearing scheduled before the final judgment cannot
// be redesignated after it (422 on starts_at, rule after_final).
func TestHearings_RedesignateRefusedAfterFinalJudgment(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, _, _, _ := e.Sentenced(t, "R1", 6)
	h, err := e.Svc.Case.ScheduleHearing(ctx, e.Clerk(t), c.ID, cases.HearingInput{Kind: "instruction", StartsAt: "2025-06-20T10:00:00-03:00", Room: "Sala 1"})
	if err != nil {
		t.Fatal(err)
	}
	e.MakeFinal(t, c.ID)
	_, err = e.Svc.Case.RedesignateHearing(ctx, e.Clerk(t), h.ID, cases.RedesignateInput{StartsAt: "2025-06-23T10:00:00-03:00", Reason: "pauta"})
	if m := casetest.InvalidField(t, err, "starts_at", false); !strings.Contains(m, "transitou em julgado") {
		t.Errorf("after the final judgment: %q", m)
	}
}
