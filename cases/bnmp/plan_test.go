package bnmp

import (
	"testing"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/sanctions"
)

// Res. CNJ 417/2021, art. 19 (at most 12 months a mandate) with CP art. 10
// and the day that does not exist (sanctions.LastDay): a 24-month ban
// from 29/02/2024 runs its first mandate to 28/02/2025 and its second from
// 01/03/2025 (10 days ahead, art. 25) to 28/02/2026, each within 12 months
// of its first day (the table's check, migration 00230).
func TestPlan_LeapDayPeriods(t *testing.T) {
	first, last, months, cpf := civil.MustParse("2024-02-29"), civil.MustParse("2026-02-28"), 24, "66392332154"
	b := sanctions.Ban{ID: 1, CaseID: 1, Subject: sanctions.Person, CourtCode: "26.0100", CaseNumber: "00000010520258260100",
		CPF: &cpf, Name: "Marcelo", FactsDate: first, FirstDay: &first, LastDay: &last, Months: &months, Status: sanctions.StatusActive}
	ms, err := plan(b, nil, civil.MustParse("2025-02-18"))
	if err != nil || len(ms) != 1 {
		t.Fatalf("11 days before the second period: %+v %v", ms, err)
	}
	ms, err = plan(b, nil, civil.MustParse("2025-02-19"))
	if err != nil || len(ms) != 2 {
		t.Fatalf("10 days before the second period: %+v %v", ms, err)
	}
	want := [][2]string{{"2024-02-29", "2025-02-28"}, {"2025-03-01", "2026-02-28"}}
	for i, m := range ms {
		if m.ValidFrom.String() != want[i][0] || m.ValidUntil.String() != want[i][1] || m.ReviewOn.String() != want[i][1] {
			t.Errorf("period %d: %s to %s, want %v", i, m.ValidFrom, m.ValidUntil, want[i])
		}
		limit, _ := sanctions.LastDay(m.ValidFrom, MaxMonths)
		if m.ValidUntil.After(limit.AddDays(1)) {
			t.Errorf("period %d runs past 12 months", i)
		}
	}
	if ms[0].Kind != KindExecution || ms[1].Kind != KindRenewal {
		t.Errorf("kinds %s, %s", ms[0].Kind, ms[1].Kind)
	}
	// The same content planned again adds nothing.
	ms[0].Fingerprint, ms[1].Fingerprint = contentKey(ms[0])+":0", contentKey(ms[1])+":0"
	if again, err := plan(b, ms, civil.MustParse("2025-02-19")); err != nil || len(again) != 0 {
		t.Errorf("planned twice: %+v %v", again, err)
	}
}
