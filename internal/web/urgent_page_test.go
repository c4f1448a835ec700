package web_test

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/accounts"
)

// browser signs in the fixture's user name (made by token) in a browser.
func (w *wf) browser(name string) *browser {
	w.t.Helper()
	var u accounts.User
	if err := w.g.Where("name = ?", name).Take(&u).Error; err != nil {
		w.t.Fatal(err)
	}
	if err := accounts.SetPassword(context.Background(), w.g, u.ID, "senha-de-teste-"+name); err != nil {
		w.t.Fatal(err)
	}
	b := newBrowser(w.t, w.srv, "192.0.2.60")
	if rec := b.login(name, "senha-de-teste-"+name); rec.Code != 303 {
		w.t.Fatalf("login as %s: %d %s", name, rec.Code, rec.Body)
	}
	return b
}

// The urgent order against a group on the case page (CPC art. 300;
// DOMAIN.md §2: it reaches the members it names): the judge's form lists
// the members of the group's register by name, as checkboxes posting
// caut.member_ids (the ids are the values, never shown); the members
// checked are banned at once and blocked at the gates, the others not. An
// id that is no member of the group is 422 next to the checkboxes, worded
// without ids, the checked boxes kept; a person's measure has no list.
func TestUrgentOrderPage_CPC300_MembersCheckedByName(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	gid := w.importGarra()
	id, def, _ := w.file("R5")
	var members []struct {
		ID       int64
		FullName string
		CPF      string
	}
	w.g.Raw("SELECT id, full_name, cpf FROM members WHERE group_id = ? ORDER BY id", gid).Scan(&members)
	if len(members) < 3 {
		t.Fatalf("%d members imported", len(members))
	}
	judge := w.browser("wf-judge")
	caseURL := fmt.Sprintf("/processos/%d", id)
	page := judge.do("GET", caseURL, nil).Body.String()
	for _, m := range members {
		if !strings.Contains(page, fmt.Sprintf(`name="caut.member_ids" value="%d"> %s`, m.ID, m.FullName)) {
			t.Errorf("the urgent order's form does not offer %s by name", m.FullName)
		}
	}
	var reads int64
	w.g.Raw("SELECT count(*) FROM member_reads WHERE group_id = ? AND role = 'judge'", gid).Scan(&reads)
	if reads == 0 {
		t.Error("the judge's read of the register for the form is not recorded")
	}

	named := members[:2]
	post := func(ids ...int64) url.Values {
		v := url.Values{"caut.defendant_id": {strconv.FormatInt(def, 10)}, "caut.review_on": {"10/09/2025"},
			"caut.text.reasoning": {"Perigo de dano: confrontos anunciados para o clássico (CPC, art. 300)."}}
		for _, x := range ids {
			v.Add("caut.member_ids", strconv.FormatInt(x, 10))
		}
		return v
	}
	rec := judge.do("POST", caseURL+"/cautelar", post(named[0].ID, 987654))
	body := rec.Body.String()
	expect(t, "a member id of no group", rec.Code, 422, body, `id="f-caut-member-ids-erro"`, "cadastro da torcida ré", fmt.Sprintf(`value="%d" checked`, named[0].ID))
	if strings.Contains(body, "987654") {
		t.Error("the page shows the id of the member refused")
	}
	var n int64
	w.g.Raw("SELECT count(*) FROM bans WHERE case_id = ?", id).Scan(&n)
	if n != 0 {
		t.Fatalf("%d bans written by a refused order", n)
	}

	judge.do("GET", caseURL, nil)
	if rec := judge.do("POST", caseURL+"/cautelar", post(named[0].ID, named[1].ID)); rec.Code != 303 {
		t.Fatalf("urgent order: %d %s", rec.Code, rec.Body)
	}
	var memberBans []int64
	w.g.Raw(`SELECT m.member_id FROM bans m JOIN bans g ON g.id = m.group_ban_id
		WHERE g.case_id = ? AND g.subject = 'group' AND g.precautionary AND m.precautionary ORDER BY m.member_id`, id).Scan(&memberBans)
	if len(memberBans) != 2 || memberBans[0] != named[0].ID || memberBans[1] != named[1].ID {
		t.Errorf("members' bans of the order %v, want members %d and %d", memberBans, named[0].ID, named[1].ID)
	}
	// Lifting and renewing a group's urgent order are the CPC's (arts. 296
	// and 300), not the CPP's precautionary measures.
	page = judge.do("GET", caseURL, nil).Body.String()
	if !strings.Contains(page, "Revogar a tutela de urgência (CPC, art. 296)") || !strings.Contains(page, "Renovar a tutela de urgência (CPC, arts. 296 e 300)") || strings.Contains(page, "CPP, art. 282, § 5º") {
		t.Error("the group's urgent order is lifted or renewed under the CPP's headings")
	}
	for _, m := range members[:3] {
		rec, chk := w.do("GET", "/api/v1/blocklist/check/"+m.CPF, "club", nil)
		w.want(rec, 200, "check "+m.CPF)
		if want := m.ID == named[0].ID || m.ID == named[1].ID; chk["blocked"] != want {
			t.Errorf("check of %s: blocked %v, want %v", m.FullName, chk["blocked"], want)
		}
	}

	pid, _, _ := w.file("R1")
	if page := judge.do("GET", fmt.Sprintf("/processos/%d", pid), nil).Body.String(); !strings.Contains(page, `action="/processos/`+strconv.FormatInt(pid, 10)+`/cautelar"`) || strings.Contains(page, "caut.member_ids") {
		t.Error("a person's case: no precautionary form, or a list of members")
	}
}
