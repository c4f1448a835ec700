package web_test

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/pgtest"
)

// otherCourt holds the records of court 19.0001 that the walk aims at
// from court 26.0100 (the fixture's court).
type otherCourt struct {
	caseID, defID, banID             int64
	groupCaseID, groupDefID          int64
	groupID, memberID                int64
	userID, clubTokenID              int64
	holidayID, petitionID, mandateID int64
	prosecutor, judge, clerk         string // tokens
}

// seedOtherCourt files and sentences a person case and files a group case
// in court 19.0001, registers a group there with one member, gives a club
// of its own a token, and has a lawyer of the person case's defendant file
// a petition there.
func seedOtherCourt(t *testing.T, f *fixture) otherCourt {
	t.Helper()
	ctx := context.Background()
	if err := cases.EnsureCourt(ctx, f.g, "19.0001", ""); err != nil {
		t.Fatal(err)
	}
	var o otherCourt
	// The fixture's group 1 was inserted with its id: the sequence moves past it.
	if err := pgtest.Admin(t, f.g).Exec("SELECT setval('fan_groups_id_seq', 100)").Error; err != nil {
		t.Fatal(err)
	}
	tok := func(spec accounts.UserSpec) (string, int64) {
		u, _, err := accounts.EnsureUser(ctx, f.g, spec)
		if err != nil {
			t.Fatal(err)
		}
		tk, err := accounts.NewToken(ctx, f.g, u.ID, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		return tk, u.ID
	}
	o.prosecutor, _ = tok(accounts.UserSpec{Name: "rj-prosecutor", Role: "prosecutor", Court: "19.0001"})
	o.judge, _ = tok(accounts.UserSpec{Name: "rj-judge", Role: "judge", Court: "19.0001"})
	o.clerk, o.userID = tok(accounts.UserSpec{Name: "rj-clerk", Role: "clerk", Court: "19.0001"})
	send := func(method, path, token, ctype, body string) map[string]any {
		t.Helper()
		rec := f.do(method, path, token, ctype, []byte(body), "")
		if rec.Code/100 != 2 {
			t.Fatalf("%s %s in 19.0001: %d %s", method, path, rec.Code, rec.Body)
		}
		return decode(t, rec)
	}
	c := send("POST", "/api/v1/cases", o.prosecutor, "application/json", representation(t, "R1"))
	o.caseID = int64(c["id"].(float64))
	h := send("POST", "/api/v1/holidays", o.clerk, "application/json", `{"date": "2026-01-20", "name": "São Sebastião"}`)
	o.holidayID = int64(h["id"].(float64))
	o.defID = int64(c["defendants"].([]any)[0].(map[string]any)["id"].(float64))
	for _, st := range []struct{ tok, to string }{{o.clerk, "preliminary_hearing"}, {o.prosecutor, "accusation"}, {o.clerk, "instruction_hearing"}} {
		send("POST", fmt.Sprintf("/api/v1/cases/%d/transitions", o.caseID), st.tok, "application/json", fmt.Sprintf(`{"to": %q}`, st.to)) // Lei 9.099/1995, arts. 77, 81
	}
	s := send("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", o.caseID), o.judge, "application/json",
		fmt.Sprintf(`{"defendant_id": %d, "ban": {"months": 12}, `+reasoningJSON+`, `+reportingJSON+`}`, o.defID))
	o.banID = int64(s["ban"].(map[string]any)["id"].(float64))
	lawyer, _ := tok(accounts.UserSpec{Name: "rj-advogada", Role: accounts.RoleDefence, OAB: "RJ111111"})
	send("PUT", fmt.Sprintf("/api/v1/cases/%d/defendants/%d/counsel", o.caseID, o.defID), o.clerk, "application/json", `{"user": "rj-advogada"}`)
	pet := send("POST", fmt.Sprintf("/api/v1/cases/%d/petitions", o.caseID), lawyer, "application/json", fmt.Sprintf(`{"defendant_id": %d, "kind": "other", "text": "Vista dos autos."}`, o.defID))
	o.petitionID = int64(pet["id"].(float64))
	// A BNMP mandate of that ban (as cases/bnmp derives it once the ban runs).
	if err := f.g.Raw(`INSERT INTO bnmp_mandates (court_code, ban_id, case_id, kind, period, valid_from, valid_until, review_on, cpf, name, content, fingerprint, created_at)
		SELECT court_code, id, case_id, 'execucao', 0, '2026-01-10', '2027-01-09', '2027-01-09', cpf, name, '{}', 'walk:0', now() FROM bans WHERE id = ? RETURNING id`, o.banID).
		Scan(&o.mandateID).Error; err != nil || o.mandateID == 0 {
		t.Fatalf("mandate of 19.0001: %v", err)
	}
	g := send("POST", "/api/v1/groups", o.clerk, "application/json", `{"name": "Torcida Fronteira Carioca", "supported_club": "Flamengo"}`)
	o.groupID = int64(g["id"].(float64))
	mgr, _ := tok(accounts.UserSpec{Name: "rj-manager", Role: "fan_group", Group: o.groupID})
	send("POST", fmt.Sprintf("/api/v1/groups/%d/members/import", o.groupID), mgr, "text/csv",
		string(fixtureBytes(t, "fixtures", "members-valid-excel-ptbr.csv")))
	if err := f.g.Raw("SELECT min(id) FROM members WHERE group_id = ?", o.groupID).Scan(&o.memberID).Error; err != nil || o.memberID == 0 {
		t.Fatalf("member of 19.0001: %v", err)
	}
	rep := strings.Replace(representation(t, "R5"), `"kind": "fan_group",`, fmt.Sprintf(`"kind": "fan_group", "group_id": %d,`, o.groupID), 1)
	gc := send("POST", "/api/v1/cases", o.prosecutor, "application/json", rep)
	o.groupCaseID = int64(gc["id"].(float64))
	o.groupDefID = int64(gc["defendants"].([]any)[0].(map[string]any)["id"].(float64))
	_, clubUser := tok(accounts.UserSpec{Name: "outro-clube", Role: "club", Club: "Flamengo"})
	if err := f.g.Raw("SELECT max(id) FROM api_tokens WHERE user_id = ?", clubUser).Scan(&o.clubTokenID).Error; err != nil || o.clubTokenID == 0 {
		t.Fatalf("club token: %v", err)
	}
	return o
}

// ids returns the path of route template rt with the ids of o (foreign) or
// with ids nobody has (unknown).
func (o otherCourt) path(rt string, unknown bool) string {
	id := func(n int64) string {
		if unknown {
			return "987654"
		}
		return fmt.Sprint(n)
	}
	caseID, defID := o.caseID, o.defID
	if strings.Contains(rt, "/group") || strings.Contains(rt, "/torcida") {
		caseID, defID = o.groupCaseID, o.groupDefID
	}
	var first string
	switch {
	case strings.HasPrefix(rt, "/api/v1/cases/"), strings.HasPrefix(rt, "/processos/"):
		first = id(caseID)
	case strings.HasPrefix(rt, "/api/v1/bans/"):
		first = id(o.banID)
	case strings.HasPrefix(rt, "/api/v1/groups/"):
		first = id(o.groupID)
	case strings.HasPrefix(rt, "/api/v1/members/"), strings.HasPrefix(rt, "/associados/"):
		first = id(o.memberID)
	case strings.HasPrefix(rt, "/admin/usuarios/"):
		first = id(o.userID)
	case strings.HasPrefix(rt, "/clube/tokens/"):
		first = id(o.clubTokenID)
	case strings.HasPrefix(rt, "/api/v1/holidays/"), strings.HasPrefix(rt, "/feriados/"):
		first = id(o.holidayID)
	case strings.HasPrefix(rt, "/api/v1/petitions/"), strings.HasPrefix(rt, "/peticoes/"):
		first = id(o.petitionID)
	case strings.HasPrefix(rt, "/api/v1/bnmp/mandates/"), strings.HasPrefix(rt, "/mandados/"):
		first = id(o.mandateID)
	default:
		first = "?"
	}
	return strings.NewReplacer(":id", first, ":defendant_id", id(defID)).Replace(rt)
}

var digits = regexp.MustCompile(`[0-9]+`)

// The court boundary on every write (API.md "Tokens and roles"): every
// write route that names a record in its path, called by every role the
// policy lets in, with the records of another court (case, defendant, ban,
// group, member, user, another club's token) answers 404,
// and its answer is the answer for ids nobody has, digits aside; nothing
// of the other court changes.
func TestEveryWriteWithAnotherCourtsIDsIs404LikeUnknown(t *testing.T) {
	f := newFixture(t)
	o := seedOtherCourt(t, f)
	for _, role := range accounts.Roles {
		f.browser(t, role) // signed in before the count below
	}
	var before int64
	if err := f.g.Raw("SELECT count(*) FROM audit_log WHERE action <> 'read'").Scan(&before).Error; err != nil {
		t.Fatal(err)
	}
	allowed := map[string][]string{}
	for _, r := range f.rules {
		if r[1] == accounts.AnyDomain || r[1] == f.users[r[0]].Domain() {
			allowed[r[3]+" "+r[2]] = append(allowed[r[3]+" "+r[2]], r[0])
		}
	}
	for _, rt := range routesOf(f.srv) {
		for _, role := range []string{"admin"} {
			if strings.HasPrefix(rt, "POST /admin/") {
				allowed[rt] = append(allowed[rt], role)
			}
		}
	}
	routes := routesOf(f.srv)
	sort.Strings(routes)
	walked := 0
	for _, rt := range routes {
		method, path, _ := strings.Cut(rt, " ")
		if method == "GET" || method == "HEAD" || !strings.Contains(path, ":") || strings.HasPrefix(path, "/verificar/") {
			continue
		}
		roles := allowed[rt]
		if !strings.HasPrefix(path, "/api/") {
			roles = pageRoles(f, path, method)
		}
		if len(roles) == 0 {
			t.Errorf("%s: no role to walk it with", rt)
		}
		for _, role := range roles {
			walked++
			var answers [2]*httptest.ResponseRecorder
			for i, unknown := range []bool{false, true} {
				p := o.path(path, unknown)
				if strings.HasPrefix(path, "/api/") {
					ctype, body := "application/json", []byte(`{}`)
					switch {
					case strings.HasSuffix(path, "/import"):
						ctype, body = "text/csv", fixtureBytes(t, "fixtures", "members-valid-excel-ptbr.csv")
					case strings.HasSuffix(path, "/evidence"):
						var buf bytes.Buffer
						mw := multipart.NewWriter(&buf)
						fw, _ := mw.CreateFormFile("file", "prova.pdf")
						fw.Write([]byte("%PDF-1.4\n%%EOF\n"))
						mw.WriteField("description", "Prova")
						mw.Close()
						ctype, body = mw.FormDataContentType(), buf.Bytes()
					case strings.HasSuffix(path, "/photo"):
						ctype, body = "image/jpeg", []byte{0xff, 0xd8, 0xff, 0xd9}
					}
					answers[i] = f.do(method, p, f.tokens[role], ctype, body, "")
				} else {
					b := f.browser(t, role)
					b.do("GET", "/painel", nil) // a fresh CSRF token
					answers[i] = b.do(method, p, url.Values{})
				}
			}
			foreign, unknown := answers[0], answers[1]
			if !strings.HasPrefix(path, "/api/") && foreign.Code == 403 && unknown.Code == 403 {
				walked--
				continue // a page of another role of the court (the policy refuses it)
			}
			if foreign.Code != 404 || unknown.Code != 404 {
				t.Errorf("%s as %s: another court's ids %d, unknown ids %d; want 404 for both (%s)", rt, role, foreign.Code, unknown.Code, shortBody(foreign.Body.String()))
				continue
			}
			if strings.HasPrefix(path, "/api/") {
				if a, b := digits.ReplaceAllString(foreign.Body.String(), "N"), digits.ReplaceAllString(unknown.Body.String(), "N"); a != b {
					t.Errorf("%s as %s: another court's ids are told apart from unknown ones:\n%s\n%s", rt, role, a, b)
				}
			}
		}
	}
	if walked < 40 {
		t.Errorf("walked %d route × role pairs, want every write route", walked)
	}
	var n int64
	if err := f.g.Raw("SELECT count(*) FROM audit_log WHERE action <> 'read'").Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	if n != before {
		var rows []string
		f.g.Raw("SELECT table_name || ' ' || action || ' ' || record_id || ' by ' || actor_name FROM audit_log WHERE action <> 'read' ORDER BY id OFFSET ?", before).Scan(&rows)
		t.Errorf("the walk wrote %d audited rows: %v", n-before, rows)
	}
}

// pageRoles are the roles whose pages post to path (the policy's rules for the
// page routes): the walk signs in as each.
func pageRoles(f *fixture, path, method string) []string {
	switch {
	case strings.HasPrefix(path, "/admin/"):
		return []string{"admin"}
	case strings.HasPrefix(path, "/clube/"):
		return []string{"club"}
	case strings.HasPrefix(path, "/associados/"):
		return []string{"fan_group"}
	case strings.HasPrefix(path, "/processos/"):
		return []string{"clerk", "judge", "prosecutor", "police"}
	case strings.HasPrefix(path, "/feriados/"), strings.HasPrefix(path, "/mandados/"):
		return []string{"clerk"}
	case strings.HasPrefix(path, "/intimacoes/"):
		return []string{"defence"}
	case strings.HasPrefix(path, "/peticoes/"):
		return []string{"clerk", "judge"}
	}
	return nil
}

func shortBody(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// Ids of another court inside request bodies (API.md "Tokens and roles"):
// on the court's own cases, a defendant of another
// court's case, a group registered in another court and a member of that
// group's register, given where a body names a defendant, a group or
// members, answer exactly as ids nobody has, digits aside, and change
// nothing. A group or a member unknown to the court is 404 (as their own
// routes answer); a defendant that is no party of the case is the 422 of
// the case's own check, the same for both.
func TestBodyIDsOfAnotherCourtAnswerLikeUnknown(t *testing.T) {
	f := newFixture(t)
	o := seedOtherCourt(t, f)
	file := func(rep string) (int64, int64) {
		t.Helper()
		rec := f.do("POST", "/api/v1/cases", f.tokens["prosecutor"], "application/json", []byte(rep), "")
		if rec.Code != 201 {
			t.Fatalf("filing in 26.0100: %d %s", rec.Code, rec.Body)
		}
		c := decode(t, rec)
		return int64(c["id"].(float64)), int64(c["defendants"].([]any)[0].(map[string]any)["id"].(float64))
	}
	own, _ := file(representation(t, "R1"))
	grp, grpDef := file(strings.Replace(representation(t, "R5"), `"kind": "fan_group",`, `"kind": "fan_group", "group_id": 1,`, 1))
	unl, unlDef := file(representation(t, "R5"))
	loc, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		t.Fatal(err)
	}
	today := f.clk.Now().In(loc).Format("2006-01-02")
	roles := map[string][]string{}
	for _, r := range f.rules {
		if r[1] == accounts.AnyDomain || r[1] == f.users[r[0]].Domain() {
			roles[r[3]+" "+r[2]] = append(roles[r[3]+" "+r[2]], r[0])
		}
	}
	var before int64
	if err := f.g.Raw("SELECT count(*) FROM audit_log WHERE action <> 'read'").Scan(&before).Error; err != nil {
		t.Fatal(err)
	}
	calls := []struct {
		route, path, body string // body: %d is the id
		foreign           int64
		want404           bool
	}{
		{"POST /api/v1/cases/:id/sentence", fmt.Sprintf("/api/v1/cases/%d/sentence", own),
			`{"defendant_id": %d, "ban": {"months": 12}, ` + reasoningJSON + `, ` + reportingJSON + `}`, o.defID, false},
		{"POST /api/v1/cases/:id/sentence", fmt.Sprintf("/api/v1/cases/%d/sentence", own),
			`{"defendant_id": %d, "draft": true, "ban": {"months": 12}}`, o.defID, false},
		{"POST /api/v1/cases/:id/sentence/sign", fmt.Sprintf("/api/v1/cases/%d/sentence/sign", own), `{"defendant_id": %d}`, o.defID, true},
		{"POST /api/v1/cases/:id/notifications", fmt.Sprintf("/api/v1/cases/%d/notifications", own),
			`{"party": "defendant", "defendant_id": %d, "notified_on": "` + today + `"}`, o.defID, false},
		{"POST /api/v1/cases/:id/notifications", fmt.Sprintf("/api/v1/cases/%d/notifications", own),
			`{"party": "defence", "defendant_id": %d, "notified_on": "` + today + `", "waived_appeal": true}`, o.defID, false},
		{"POST /api/v1/cases/:id/plea", fmt.Sprintf("/api/v1/cases/%d/plea", own), `{"defendant_id": %d, "months": 3}`, o.defID, false},
		{"POST /api/v1/cases/:id/plea/homologate", fmt.Sprintf("/api/v1/cases/%d/plea/homologate", own), `{"defendant_id": %d}`, o.defID, false},
		{"POST /api/v1/cases/:id/suspension", fmt.Sprintf("/api/v1/cases/%d/suspension", own), `{"defendant_id": %d, "months": 24}`, o.defID, false},
		{"POST /api/v1/cases/:id/transitions", fmt.Sprintf("/api/v1/cases/%d/transitions", own), `{"to": "plea_accepted", "defendant_id": %d}`, o.defID, false},
		{"POST /api/v1/cases/:id/appeal-result", fmt.Sprintf("/api/v1/cases/%d/appeal-result", own),
			`{"result": "confirmed", "defendant_id": %d, "decided_on": "` + today + `", "text": "Recurso improvido."}`, o.defID, false},
		{"POST /api/v1/cases/:id/settlement", fmt.Sprintf("/api/v1/cases/%d/settlement", grp),
			`{"defendant_id": %d, "stadium_ban": true, "months": 12, "terms": "TAC"}`, o.groupDefID, false},
		{"POST /api/v1/cases/:id/sentence", fmt.Sprintf("/api/v1/cases/%d/sentence", grp),
			fmt.Sprintf(`{"defendant_id": %d, "ban": {"months": 24}, `+reasoningJSON+`, "member_ids": [%%d]}`, grpDef), o.memberID, true},
		{"POST /api/v1/cases/:id/sentence", fmt.Sprintf("/api/v1/cases/%d/sentence", grp),
			fmt.Sprintf(`{"defendant_id": %d, "ban": {"months": 24}, `+reasoningJSON+`, "excluded_member_ids": [%%d], "exclusion_reason": "internado na data dos fatos"}`, grpDef), o.memberID, true},
		{"POST /api/v1/cases/:id/settlement", fmt.Sprintf("/api/v1/cases/%d/settlement", grp),
			fmt.Sprintf(`{"defendant_id": %d, "stadium_ban": true, "months": 12, "member_ids": [%%d], "terms": "TAC"}`, grpDef), o.memberID, false}, // 409 outside the hearing: the same SelectBanMembers as the sentence
		{"POST /api/v1/cases", "/api/v1/cases",
			strings.Replace(strings.ReplaceAll(representation(t, "R5"), "%", "%%"), `"kind": "fan_group",`, `"kind": "fan_group", "group_id": %d,`, 1), o.groupID, true},
		{"PUT /api/v1/cases/:id/defendants/:defendant_id/group", fmt.Sprintf("/api/v1/cases/%d/defendants/%d/group", unl, unlDef), `{"group_id": %d}`, o.groupID, true},
	}
	for _, c := range calls {
		rs := roles[c.route]
		if len(rs) == 0 {
			t.Errorf("%s: no role of the court may call it", c.route)
			continue
		}
		for _, role := range rs {
			var answers [2]*httptest.ResponseRecorder
			for i, id := range []int64{c.foreign, 987654} {
				answers[i] = f.do(strings.SplitN(c.route, " ", 2)[0], c.path, f.tokens[role], "application/json", []byte(fmt.Sprintf(c.body, id)), "")
			}
			foreign, unknown := answers[0], answers[1]
			what := fmt.Sprintf("%s %s as %s", c.route, shortBody(fmt.Sprintf(c.body, c.foreign)), role)
			if foreign.Code/100 == 2 || foreign.Code == 500 || unknown.Code == 500 {
				t.Errorf("%s: another court's id %d: %s", what, foreign.Code, shortBody(foreign.Body.String()))
				continue
			}
			if c.want404 && (foreign.Code != 404 || unknown.Code != 404) {
				t.Errorf("%s: another court's id %d, unknown id %d; want 404 for both (%s)", what, foreign.Code, unknown.Code, shortBody(foreign.Body.String()))
			}
			if a, b := digits.ReplaceAllString(foreign.Body.String(), "N"), digits.ReplaceAllString(unknown.Body.String(), "N"); foreign.Code != unknown.Code || a != b {
				t.Errorf("%s: another court's id is told apart from an unknown one:\n%d %s\n%d %s", what, foreign.Code, a, unknown.Code, b)
			}
		}
	}
	var n int64
	if err := f.g.Raw("SELECT count(*) FROM audit_log WHERE action <> 'read'").Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	if n != before {
		var rows []string
		f.g.Raw("SELECT table_name || ' ' || action || ' ' || record_id || ' by ' || actor_name FROM audit_log WHERE action <> 'read' ORDER BY id OFFSET ?", before).Scan(&rows)
		t.Errorf("the requests wrote %d audited rows: %v", n-before, rows)
	}
}
