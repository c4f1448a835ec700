package web_test

import (
	"encoding/csv"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// scopeSchedule is the court's imported schedule of the scope tests: four
// home matches of Corinthians at the Arena Corinthians, one away at the
// Allianz Parque, a Palmeiras home match there, and a São Paulo home match
// played at the Arena Corinthians (a shared stadium).
const scopeSchedule = `competition,round,home,away,venue,date,kickoff_local
Campeonato Paulista,1,Corinthians,Santos,Arena Corinthians,2025-06-15,16:00
Campeonato Paulista,2,Palmeiras,Corinthians,Allianz Parque,2025-06-18,21:30
Campeonato Paulista,3,São Paulo,Santos,Arena Corinthians,2025-06-20,19:00
Campeonato Paulista,4,Corinthians,Ponte Preta,Arena Corinthians,2025-06-22,16:00
Campeonato Paulista,5,Palmeiras,Santos,Allianz Parque,2025-06-25,21:30
Campeonato Paulista,6,Corinthians,Guarani,Arena Corinthians,2025-06-29,16:00
Campeonato Paulista,7,Corinthians,Mirassol,Arena Corinthians,2025-07-06,16:00
`

func (w *wf) importSchedule(csvText string) map[string]any {
	w.t.Helper()
	rec, rep := w.do("POST", "/api/v1/matches/import", "clerk", []byte(csvText), "Content-Type", "text/csv")
	w.want(rec, 201, "schedule import")
	return rep
}

// check asks the court's check for cpf at venue ("" for none) as the club.
func (w *wf) check(cpf, venue string) map[string]any {
	w.t.Helper()
	path := "/api/v1/blocklist/check/" + cpf
	if venue != "" {
		path += "?venue=" + url.QueryEscape(venue)
	}
	rec, v := w.do("GET", path, "club", nil)
	w.want(rec, 200, "check at "+venue)
	return v
}

// blocklistItem returns the snapshot item of ban id (nil when absent).
func (w *wf) blocklistItem(id int64) map[string]any {
	w.t.Helper()
	rec, snap := w.do("GET", "/api/v1/blocklist", "club", nil)
	w.want(rec, 200, "blocklist")
	for _, it := range snap["items"].([]any) {
		if m := it.(map[string]any); int64(m["ban_id"].(float64)) == id {
			return m
		}
	}
	return nil
}

func (w *wf) precautionary(caseID, defID int64, extra map[string]any) (int64, map[string]any) {
	w.t.Helper()
	body := map[string]any{"defendant_id": defID, "precautionary": true, "review_on": "2025-09-01", "text": reasoned}
	for k, v := range extra {
		body[k] = v
	}
	rec, s := w.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", caseID), "judge", body)
	w.want(rec, 201, "precautionary ban")
	b := s["precautionary_ban"].(map[string]any)
	return int64(b["id"].(float64)), b
}

const r1CPF = "66392332154" // R1's defendant

// A precautionary ban for named venues (CPP art. 319, II: "proibição de
// acesso ou frequência a determinados lugares"): stored with the venues as
// the venue table names them; its blocklist item, CSV row and feed entry
// carry the scope; the check blocks at a covered venue and not at another;
// the public list says where it applies in words.
func TestScope_CPP319II_VenueLimitedPrecautionaryBan(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	caseID, defID, _ := w.file("R1")
	rec, before := w.do("GET", "/api/v1/blocklist/changes?since=0", "club", nil)
	w.want(rec, 200, "feed before")
	since := int64(before["to"].(float64))
	id, b := w.precautionary(caseID, defID, map[string]any{"publish": true, "scope": map[string]any{"venues": []string{"arena corinthians", "Maracana"}}})
	sc, _ := b["scope"].(map[string]any)
	if sc == nil || fmt.Sprint(sc["venues"]) != "[Arena Corinthians Estádio Jornalista Mário Filho (Maracanã)]" {
		t.Fatalf("scope %v", b["scope"])
	}
	if !strings.Contains(fmt.Sprint(b["scope_pt"]), "Arena Corinthians e Estádio Jornalista Mário Filho (Maracanã)") {
		t.Fatalf("scope_pt %v", b["scope_pt"])
	}

	it := w.blocklistItem(id)
	if it == nil || it["scope"] == nil || fmt.Sprint(it["scope"].(map[string]any)["venues"]) != fmt.Sprint(sc["venues"]) {
		t.Fatalf("blocklist item %v", it)
	}
	if got := w.check(r1CPF, "Arena Corinthians"); got["blocked"] != true || len(got["bans"].([]any)) != 1 {
		t.Fatalf("at a covered venue: %v", got)
	}
	if got := w.check(r1CPF, "Maracanã"); got["blocked"] != true {
		t.Fatalf("at the other covered venue: %v", got)
	}
	if got := w.check(r1CPF, "Arena do Grêmio"); got["blocked"] != false || len(got["bans"].([]any)) != 0 {
		t.Fatalf("at another venue: %v", got)
	}
	rec, _ = w.do("GET", "/api/v1/blocklist/check/"+r1CPF+"?venue=Estadio+Inexistente", "club", nil)
	w.want(rec, 422, "unknown venue")
	if !strings.Contains(rec.Body.String(), `"field":"venue"`) {
		t.Fatalf("422 names the field: %s", rec.Body)
	}

	rec, _ = w.do("GET", "/api/v1/blocklist?format=csv", "club", nil)
	w.want(rec, 200, "csv")
	rows, err := csv.NewReader(strings.NewReader(rec.Body.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if h := rows[0]; h[len(h)-2] != "scope" || h[len(h)-1] != "match_days" {
		t.Fatalf("csv header %v", h)
	}
	found := false
	for _, r := range rows[1:] {
		if r[5] == fmt.Sprint(id) {
			found = strings.Contains(r[9], `"venues":["Arena Corinthians"`) && r[10] == ""
		}
	}
	if !found {
		t.Fatalf("csv rows %v", rows)
	}

	rec, feed := w.do("GET", fmt.Sprintf("/api/v1/blocklist/changes?since=%d", since), "club", nil)
	w.want(rec, 200, "feed")
	ch := feed["changes"].([]any)
	last := ch[len(ch)-1].(map[string]any)
	if last["op"] != "add" || int64(last["ban_id"].(float64)) != id || last["scope"] == nil {
		t.Fatalf("feed %v", feed)
	}

	rec, pub := w.do("GET", "/api/v1/public/banned", "", nil)
	w.want(rec, 200, "public")
	items := pub["items"].([]any)
	if len(items) != 1 || !strings.Contains(items[0].(map[string]any)["scope_pt"].(string), "Arena Corinthians e Estádio Jornalista Mário Filho (Maracanã)") {
		t.Fatalf("public %v", pub)
	}
	rec, _ = w.do("GET", "/impedidos", "", nil)
	w.want(rec, 200, "public page")
	if !strings.Contains(rec.Body.String(), "Onde vale") || !strings.Contains(rec.Body.String(), "Arena Corinthians e Estádio Jornalista Mário Filho (Maracanã)") {
		t.Fatalf("page without the scope in words")
	}
}

// A statutory ban is for "qualquer local em que se realize evento
// esportivo" (Lei 14.597/2023, art. 201, § 2º and § 5º): a sentence or a
// plea agreement with a scope, or with a term in matches, is 422 naming the
// field; the same ban without scope reaches every venue. A scope naming an
// unknown venue or a club the schedule lacks is 422 on that element.
func TestScope_LGE201_StatutoryBanRefusesScope(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	w.importSchedule(scopeSchedule)
	caseID, defID, _ := w.file("R1")
	w.receive(caseID)
	path := fmt.Sprintf("/api/v1/cases/%d/sentence", caseID)
	for _, c := range []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"defendant_id": defID, "ban": map[string]any{"months": 6}, "scope": map[string]any{"venues": []string{"Arena Corinthians"}}}, "scope"},
		{map[string]any{"defendant_id": defID, "ban": map[string]any{"matches": 3, "club": "Corinthians"}}, "ban.matches"},
		{map[string]any{"defendant_id": defID, "precautionary": true, "review_on": "2025-09-01", "scope": map[string]any{"venues": []string{"Estádio da Lua"}}}, "scope.venues[0]"},
		{map[string]any{"defendant_id": defID, "precautionary": true, "review_on": "2025-09-01", "scope": map[string]any{"clubs": []string{"Flamengo"}}}, "scope.clubs[0]"},
		{map[string]any{"defendant_id": defID, "precautionary": true, "review_on": "2025-09-01", "scope": map[string]any{}}, "scope"},
		{map[string]any{"defendant_id": defID, "precautionary": true, "review_on": "2025-09-01", "ban": map[string]any{"matches": 9, "club": "Corinthians", "home_only": true}}, "ban.matches"},
	} {
		rec, _ := w.do("POST", path, "judge", c.body)
		w.want(rec, 422, fmt.Sprint(c.body))
		if !strings.Contains(rec.Body.String(), `"field":"`+c.field+`"`) {
			t.Fatalf("%v: want field %s: %s", c.body, c.field, rec.Body)
		}
	}
	rec, s := w.do("POST", path, "judge", map[string]any{"defendant_id": defID, "ban": map[string]any{"months": 6}, "text": reasoned, "reporting_duty": reporting})
	w.want(rec, 201, "the statutory ban")
	if b := s["ban"].(map[string]any); b["scope"] != nil || b["scope_pt"] != "qualquer local em que se realize evento esportivo" {
		t.Fatalf("statutory ban scope %v %v", b["scope"], b["scope_pt"])
	}
}

// A term counted in matches ("os próximos 3 jogos do Corinthians como
// mandante", a precautionary measure under CPP art. 319, II) covers those
// matches' days and ends on the last; the check blocks on those days only.
// A re-import that postpones one of them recomputes the last day, with a
// docket movement and a blocklist version whose feed removes and re-adds
// the entry with the new days; a cancelled match gives way to the next.
func TestScope_CPP319II_MatchCountedTermFollowsPostponement(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	w.importSchedule(scopeSchedule)
	caseID, defID, _ := w.file("R1")
	id, b := w.precautionary(caseID, defID, map[string]any{"ban": map[string]any{"matches": 3, "club": "corinthians", "home_only": true}})
	if b["last_day"] != "2025-06-29" || fmt.Sprint(b["match_days"]) != "[2025-06-15 2025-06-22 2025-06-29]" {
		t.Fatalf("match term: last %v days %v", b["last_day"], b["match_days"])
	}
	if !strings.Contains(fmt.Sprint(b["match_term_pt"]), "os próximos 3 jogos de Corinthians como mandante (15/06/2025, 22/06/2025 e 29/06/2025)") {
		t.Fatalf("match_term_pt %v", b["match_term_pt"])
	}
	it := w.blocklistItem(id)
	if it == nil || fmt.Sprint(it["match_days"]) != "[2025-06-15 2025-06-22 2025-06-29]" || it["last_day"] != "2025-06-29" {
		t.Fatalf("blocklist item %v", it)
	}
	if got := w.check(r1CPF, "Arena Corinthians"); got["blocked"] != false {
		t.Fatalf("a day without a covered match: %v", got)
	}
	w.clk.Set(time.Date(2025, 6, 15, 12, 0, 0, 0, w.loc))
	if got := w.check(r1CPF, "Arena Corinthians"); got["blocked"] != true {
		t.Fatalf("on a covered match day: %v", got)
	}
	rec, before := w.do("GET", "/api/v1/blocklist/changes?since=0", "club", nil)
	w.want(rec, 200, "feed before")
	since := int64(before["to"].(float64))

	// Round 6 postponed a week, to 2025-07-13 (after round 7).
	rep := w.importSchedule("competition,round,home,away,venue,date,kickoff_local\nCampeonato Paulista,6,Corinthians,Guarani,Arena Corinthians,2025-07-13,16:00\n")
	if fmt.Sprint(rep["recomputed_bans"]) != fmt.Sprintf("[%d]", id) {
		t.Fatalf("import report %v", rep)
	}
	it = w.blocklistItem(id)
	if it == nil || fmt.Sprint(it["match_days"]) != "[2025-06-15 2025-06-22 2025-07-06]" || it["last_day"] != "2025-07-06" {
		t.Fatalf("after the postponement %v", it)
	}
	rec, feed := w.do("GET", fmt.Sprintf("/api/v1/blocklist/changes?since=%d", since), "club", nil)
	w.want(rec, 200, "feed")
	ch := feed["changes"].([]any)
	if len(ch) != 2 || ch[0].(map[string]any)["op"] != "remove" || ch[1].(map[string]any)["op"] != "add" ||
		ch[0].(map[string]any)["last_day"] != "2025-06-29" || ch[1].(map[string]any)["last_day"] != "2025-07-06" {
		t.Fatalf("feed of the recomputation %v", feed)
	}
	v, _ := w.get(caseID)
	moved := false
	for _, m := range v["movements"].([]any) {
		if strings.Contains(fmt.Sprint(m.(map[string]any)["description"]), "Tabela de partidas alterada: o impedimento") {
			moved = true
		}
	}
	if !moved {
		t.Fatalf("no docket movement: %v", v["movements"])
	}

	// Round 7 cancelled: the postponed round 6 is now the third match.
	w.importSchedule("competition,round,home,away,venue,date,kickoff_local,status\nCampeonato Paulista,7,Corinthians,Mirassol,Arena Corinthians,2025-07-06,16:00,cancelada\n")
	if it = w.blocklistItem(id); it["last_day"] != "2025-07-13" {
		t.Fatalf("after the cancellation %v", it)
	}
}

// A precautionary ban for the home matches of a named club: at that club's
// home venue it blocks (on a day with its match there, or with no match
// known there); on the day another club plays at home at the same stadium
// it does not; at another club's stadium it does not.
func TestScope_CPP319II_HomeMatchesOfANamedClub(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	w.importSchedule(scopeSchedule)
	caseID, defID, _ := w.file("R1")
	w.precautionary(caseID, defID, map[string]any{"scope": map[string]any{"clubs": []string{"CORINTHIANS"}}})
	if got := w.check(r1CPF, "Arena Corinthians"); got["blocked"] != true {
		t.Fatalf("home venue, no match today: %v", got)
	}
	if got := w.check(r1CPF, "Allianz Parque"); got["blocked"] != false {
		t.Fatalf("another club's stadium: %v", got)
	}
	w.clk.Set(time.Date(2025, 6, 20, 12, 0, 0, 0, w.loc))
	if got := w.check(r1CPF, "Arena Corinthians"); got["blocked"] != false {
		t.Fatalf("São Paulo's home match at the same stadium: %v", got)
	}
	w.clk.Set(time.Date(2025, 6, 22, 12, 0, 0, 0, w.loc))
	if got := w.check(r1CPF, "Arena Corinthians"); got["blocked"] != true {
		t.Fatalf("Corinthians' home match: %v", got)
	}
}
