package web_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
)

// fileUnlinkedGroup files R5 (a group not registered when filed) and
// registers, with explicit ids, a group in the court (50) and one in
// another court (51). It returns the case and the group defendant.
func (f *fixture) fileUnlinkedGroup(t *testing.T) (int, int) {
	t.Helper()
	c := f.fileCase(t, "R5")
	d := c["defendants"].([]any)[0].(map[string]any)
	if d["group_id"] != nil {
		t.Fatalf("R5 linked at filing: %v", d)
	}
	if err := cases.EnsureCourt(context.Background(), f.g, "19.0001", ""); err != nil {
		t.Fatal(err)
	}
	if err := f.g.Exec(`INSERT INTO fan_groups (id, name, supported_club, court_code) VALUES
		(50, 'Garra Alvinegra Registrada', 'Corinthians', '26.0100'), (51, 'Torcida do Rio', 'Flamengo', '19.0001')`).Error; err != nil {
		t.Fatal(err)
	}
	return int(c["id"].(float64)), int(d["id"].(float64))
}

// PUT /api/v1/cases/{id}/defendants/{defendant_id}/group: a group case filed
// before the group was registered is sentenced once the clerk links it
// (Lei 14.597/2023, art. 178, art. 183 § 2º); before, the sentence is 422
// on defendant_id. Roles other than the clerk and the judge are 403,
// another court's clerk 404, malformed or unknown ids 404, a person
// defendant or a group of another court 422.
func TestAPILinkGroupThenSentence_LGE_art_183(t *testing.T) {
	f := newFixture(t)
	caseID, def := f.fileUnlinkedGroup(t)
	sentence := fmt.Sprintf(`{"defendant_id": %d, "ban": {"months": 12}, `+reasoningJSON+`}`, def)
	path := fmt.Sprintf("/api/v1/cases/%d/defendants/%d/group", caseID, def)
	code, body, _ := f.send(t, "POST", fmt.Sprintf("/api/v1/cases/%d/sentence", caseID), "judge", "application/json", sentence)
	if code != 422 || !strings.Contains(body, `"field":"defendant_id"`) {
		t.Fatalf("sentence before the link: %d %s", code, body)
	}
	for _, role := range []string{"prosecutor", "police", "admin", "fan_group", "club"} {
		if code, body, _ := f.send(t, "PUT", path, role, "application/json", `{"group_id": 50}`); code != 403 {
			t.Errorf("%s: %d %s, want 403", role, code, body)
		}
	}
	// A clerk of another court does not see the case.
	u, _, err := accounts.EnsureUser(context.Background(), f.g, accounts.UserSpec{Name: "clerk-rj", Role: "clerk", Court: "19.0001"})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := accounts.NewToken(context.Background(), f.g, u.ID, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	f.tokens["clerk-rj"] = tok
	if code, body, _ := f.send(t, "PUT", path, "clerk-rj", "application/json", `{"group_id": 51}`); code != 404 {
		t.Errorf("another court's clerk: %d %s, want 404", code, body)
	}
	for _, tc := range []struct {
		path, body string
		code       int
		field      string
	}{
		{fmt.Sprintf("/api/v1/cases/%d/defendants/abc/group", caseID), `{"group_id": 50}`, 404, ""},
		{fmt.Sprintf("/api/v1/cases/%d/defendants/0/group", caseID), `{"group_id": 50}`, 404, ""},
		{fmt.Sprintf("/api/v1/cases/%d/defendants/99999/group", caseID), `{"group_id": 50}`, 404, ""},
		{fmt.Sprintf("/api/v1/cases/x/defendants/%d/group", def), `{"group_id": 50}`, 404, ""},
		{path, `{}`, 422, "group_id"},
		{path, `{"group_id": 0}`, 422, "group_id"},
		{path, `{"group_id": 51}`, 404, "group_id"},     // another court's group: as unknown
		{path, `{"group_id": 424242}`, 404, "group_id"}, // no such group
		{path, `{"group_id": "50"}`, 422, ""},
	} {
		code, body, _ := f.send(t, "PUT", tc.path, "clerk", "application/json", tc.body)
		if code != tc.code || (tc.field != "" && !strings.Contains(body, `"field":"`+tc.field+`"`)) {
			t.Errorf("PUT %s %s: %d %s, want %d on %q", tc.path, tc.body, code, body, tc.code, tc.field)
		}
	}
	// A person defendant.
	c := f.fileCase(t, "R1")
	person := int(c["defendants"].([]any)[0].(map[string]any)["id"].(float64))
	if code, body, _ := f.send(t, "PUT", fmt.Sprintf("/api/v1/cases/%d/defendants/%d/group", int(c["id"].(float64)), person), "clerk", "application/json", `{"group_id": 50}`); code != 422 || !strings.Contains(body, `"field":"defendant_id"`) {
		t.Errorf("person defendant: %d %s, want 422 on defendant_id", code, body)
	}

	code, body, v := f.send(t, "PUT", path, "clerk", "application/json", `{"group_id": 50}`)
	if code != 200 {
		t.Fatalf("link: %d %s", code, body)
	}
	if g := v["defendants"].([]any)[0].(map[string]any)["group_id"]; g != float64(50) {
		t.Errorf("group_id after the link = %v", g)
	}
	if !strings.Contains(body, "vinculada à torcida cadastrada nº 50") {
		t.Errorf("no docket movement: %s", body)
	}
	code, body, s := f.send(t, "POST", fmt.Sprintf("/api/v1/cases/%d/sentence", caseID), "judge", "application/json", sentence)
	if code != 201 {
		t.Fatalf("sentence after the link: %d %s", code, body)
	}
	if b := s["ban"].(map[string]any); b["group_id"] != float64(50) {
		t.Errorf("ban = %v", b)
	}
}

// The case page offers the clerk (and the judge of the case) a form to link
// an unlinked group defendant; errors go next to the field with 422; the
// link is written in the page's transaction and the case can be sentenced.
func TestPageLinkGroup(t *testing.T) {
	f := newFixture(t)
	caseID, def := f.fileUnlinkedGroup(t)
	clerk := f.browser(t, "clerk")
	u := fmt.Sprintf("/processos/%d", caseID)
	rec := clerk.do("GET", u, nil)
	expect(t, "clerk, unlinked group", rec.Code, 200, rec.Body.String(), u+"/torcida", `name="vinc.group_id"`, "Garra Alvinegra Registrada")
	if strings.Contains(rec.Body.String(), "Torcida do Rio") {
		t.Error("the form offers another court's group")
	}
	if rec := f.browser(t, "judge").do("GET", u, nil); !strings.Contains(rec.Body.String(), u+"/torcida") {
		t.Error("the judge of the case is not offered the link")
	}
	if rec := f.browser(t, "prosecutor").do("GET", u, nil); strings.Contains(rec.Body.String(), u+"/torcida") {
		t.Error("the prosecutor is offered the link")
	}
	if rec := f.browser(t, "prosecutor").do("POST", u+"/torcida", url.Values{"vinc.defendant_id": {fmt.Sprint(def)}, "vinc.group_id": {"50"}}); rec.Code != 403 {
		t.Errorf("prosecutor posts the link: %d", rec.Code)
	}
	rec = clerk.do("POST", u+"/torcida", url.Values{"vinc.defendant_id": {fmt.Sprint(def)}, "vinc.group_id": {"51"}})
	expect(t, "group of another court", rec.Code, 404, rec.Body.String(), "Não encontrado")
	rec = clerk.do("POST", u+"/torcida", url.Values{"vinc.defendant_id": {fmt.Sprint(def)}, "vinc.group_id": {"x1"}})
	expect(t, "malformed group", rec.Code, 422, rec.Body.String(), `id="f-vinc-group-id-erro"`, "x1")
	var n int64
	if err := f.g.Raw("SELECT count(*) FROM defendants WHERE id = ? AND group_id IS NOT NULL", def).Scan(&n).Error; err != nil || n != 0 {
		t.Fatalf("refused forms linked the group (%d, %v)", n, err)
	}
	rec = clerk.do("POST", u+"/torcida", url.Values{"vinc.defendant_id": {fmt.Sprint(def)}, "vinc.group_id": {"50"}})
	if rec.Code != 303 {
		t.Fatalf("link: %d %s", rec.Code, rec.Body)
	}
	if n := f.auditBy(t, "defendants", "update", "u-clerk"); n != 1 {
		t.Errorf("%d audited updates of defendants by the clerk, want 1", n)
	}
	rec = clerk.do("GET", u, nil)
	if strings.Contains(rec.Body.String(), u+"/torcida") {
		t.Error("the form is still offered after the link")
	}
	code, body, _ := f.send(t, "POST", fmt.Sprintf("/api/v1/cases/%d/sentence", caseID), "judge", "application/json",
		fmt.Sprintf(`{"defendant_id": %d, "ban": {"months": 12}, `+reasoningJSON+`}`, def))
	if code != 201 {
		t.Fatalf("sentence after the page link: %d %s", code, body)
	}
}
