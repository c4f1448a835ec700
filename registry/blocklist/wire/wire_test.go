package wire_test

import (
	"encoding/json"
	"testing"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/registry/blocklist/wire"
)

// The court writes dates as civil.Date and the gate agent keeps them as
// strings: a change, a feed page and a check's ban encode to the same
// bytes either way (the gate verifies the court's signature over them),
// with the ban id first in a change, and a change the court wrote decodes
// at the gate to the same entry.
func TestCourtAndGateEncodeTheSameBytes(t *testing.T) {
	birth, last := civil.MustParse("1990-05-10"), civil.MustParse("2027-03-14")
	gb := int64(3)
	court := wire.Change[civil.Date]{Version: 12, Op: "add", Reason: wire.ReasonMember, Entry: wire.Entry[civil.Date]{
		CPF: "46881973659", Name: "Fulano", BirthDate: &birth, FirstDay: civil.MustParse("2026-03-15"), LastDay: &last,
		BanID: 7, GroupBanID: &gb, CaseNumber: "0000001-23.2026.8.26.0100", Court: "26.0100",
		Scope:     &wire.Scope{Venues: []string{"Arena"}, VenueIDs: []int64{4}, Clubs: []string{}},
		MatchDays: []civil.Date{civil.MustParse("2026-03-15")}}}
	bs, ls := "1990-05-10", "2027-03-14"
	gate := wire.Change[string]{Version: 12, Op: "add", Reason: wire.ReasonMember, Entry: wire.Entry[string]{
		CPF: "46881973659", Name: "Fulano", BirthDate: &bs, FirstDay: "2026-03-15", LastDay: &ls,
		BanID: 7, GroupBanID: &gb, CaseNumber: "0000001-23.2026.8.26.0100", Court: "26.0100",
		Scope:     &wire.Scope{Venues: []string{"Arena"}, VenueIDs: []int64{4}, Clubs: []string{}},
		MatchDays: []string{"2026-03-15"}}}
	cb, err := json.Marshal(wire.FeedPage[civil.Date]{From: 11, To: 12, Changes: []wire.Change[civil.Date]{court}})
	if err != nil {
		t.Fatal(err)
	}
	gbytes, err := json.Marshal(wire.FeedPage[string]{From: 11, To: 12, Changes: []wire.Change[string]{gate}})
	if err != nil {
		t.Fatal(err)
	}
	if string(cb) != string(gbytes) {
		t.Fatalf("court %s\ngate  %s", cb, gbytes)
	}
	const head = `{"from":11,"to":12,"changes":[{"version":12,"op":"add","reason":"member","ban_id":7,"cpf":"46881973659"`
	if len(cb) < len(head) || string(cb[:len(head)]) != head {
		t.Errorf("change not flat with the ban id first: %s", cb)
	}
	var back wire.FeedPage[string]
	if err := json.Unmarshal(cb, &back); err != nil {
		t.Fatal(err)
	}
	if got := back.Changes[0]; got.BanID != 7 || got.FirstDay != "2026-03-15" || *got.LastDay != "2027-03-14" || got.MatchDays[0] != "2026-03-15" || got.Scope.VenueIDs[0] != 4 {
		t.Errorf("decoded at the gate: %+v", got)
	}
	c1, _ := json.Marshal(wire.CheckBan[civil.Date]{BanID: 7, FirstDay: court.FirstDay, CaseNumber: "A", Court: "26.0100"})
	g1, _ := json.Marshal(wire.CheckBan[string]{BanID: 7, FirstDay: "2026-03-15", CaseNumber: "A", Court: "26.0100"})
	if string(c1) != string(g1) || string(c1) != `{"ban_id":7,"first_day":"2026-03-15","last_day":null,"case_number":"A","court":"26.0100"}` {
		t.Errorf("check ban: court %s, gate %s", c1, g1)
	}
}

// The CPF check both sides make (Receita Federal's mod 11): valid, all
// digits equal, wrong check digits; the check digits of nine digits.
func TestCPFProblem_ReceitaFederalMod11(t *testing.T) {
	for cpf, want := range map[string]string{
		"46881973659": "",
		"11111111111": "CPF com todos os dígitos iguais é inválido",
		"46881973658": "dígitos verificadores do CPF não conferem",
		"4688197365":  "CPF deve ter 11 dígitos",
	} {
		if got := wire.CPFProblem(cpf); got != want {
			t.Errorf("%s: %q, want %q", cpf, got, want)
		}
	}
	if got := wire.CPFCheckDigits("468819736"); got != "59" {
		t.Errorf("check digits of 468819736: %q, want 59", got)
	}
}
