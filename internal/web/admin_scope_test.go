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

// An admin belongs to a court and every admin page and route is limited
// to it (DOMAIN.md §7): the admin of 19.0001 neither
// lists, creates, disables nor enables users of 26.0100, nor is offered or
// changes its settings, nor reads its audit trail; a record of 26.0100 is
// answered as an unknown one. Each admin route is named here.
func TestAdminIsLimitedToItsCourtPerRoute(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if err := cases.EnsureCourt(ctx, f.g, "19.0001", "Juizado do Torcedor do Rio"); err != nil {
		t.Fatal(err)
	}
	rj, _, err := accounts.EnsureUser(ctx, f.g, accounts.UserSpec{Name: "admin-rj", Role: "admin", Court: "19.0001"})
	if err != nil {
		t.Fatal(err)
	}
	if err := accounts.SetPassword(ctx, f.g, rj.ID, "senha-do-admin-rj"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := accounts.EnsureUser(ctx, f.g, accounts.UserSpec{Name: "escrivao-rj", Role: "clerk", Court: "19.0001"}); err != nil {
		t.Fatal(err)
	}
	adm := newBrowser(t, f.srv, "192.0.2.44")
	if rec := adm.login("admin-rj", "senha-do-admin-rj"); rec.Code != 303 {
		t.Fatalf("login: %d", rec.Code)
	}
	count := func(q string, args ...any) int64 {
		t.Helper()
		var n int64
		if err := f.g.Raw(q, args...).Scan(&n).Error; err != nil {
			t.Fatal(err)
		}
		return n
	}
	tested := map[string]bool{}
	route := func(rt string) { tested[rt] = true }

	route("GET /admin/usuarios")
	body := adm.do("GET", "/admin/usuarios", nil).Body.String()
	if !strings.Contains(body, "escrivao-rj") || strings.Contains(body, "u-clerk") || strings.Contains(body, "u-judge") {
		t.Errorf("users page: want the users of 19.0001 only")
	}
	if strings.Contains(body, `value="26.0100"`) {
		t.Errorf("users page offers court 26.0100")
	}

	route("POST /admin/usuarios")
	judges := count("SELECT count(*) FROM users WHERE role = 'judge' AND court_code = '26.0100'")
	form := url.Values{"name": {"juiza-intrusa"}, "role": {"judge"}, "court": {"26.0100"}, "senha": {"senha-muito-boa"}, "senha2": {"senha-muito-boa"}}
	if rec := adm.do("POST", "/admin/usuarios", form); rec.Code != 422 || !strings.Contains(rec.Body.String(), "Escolha o juizado 19.0001") {
		t.Errorf("judge in 26.0100: %d, want 422 on court: %s", rec.Code, between(rec.Body.String(), "<main", "</form>"))
	}
	if n := count("SELECT count(*) FROM users WHERE role = 'judge' AND court_code = '26.0100'"); n != judges {
		t.Errorf("a judge was created in 26.0100")
	}
	var msgs []string
	for _, gid := range []string{"1", "987654"} { // group 1 is of 26.0100
		form = url.Values{"name": {"gestor-intruso"}, "role": {"fan_group"}, "group": {gid}, "senha": {"senha-muito-boa"}, "senha2": {"senha-muito-boa"}}
		rec := adm.do("POST", "/admin/usuarios", form)
		if rec.Code != 422 || !strings.Contains(rec.Body.String(), "não encontrada entre as torcidas") {
			t.Errorf("manager of group %s: %d, want 422 on group", gid, rec.Code)
		}
		msgs = append(msgs, strings.ReplaceAll(between(rec.Body.String(), `class="campo-erro">`, "</p>"), gid, "N"))
	}
	if msgs[0] != msgs[1] {
		t.Errorf("a group of another court is told apart from an unknown one: %q vs %q", msgs[0], msgs[1])
	}
	form = url.Values{"name": {"escrivao-dois"}, "role": {"clerk"}, "court": {"19.0001"}, "senha": {"senha-muito-boa"}, "senha2": {"senha-muito-boa"}}
	if rec := adm.do("POST", "/admin/usuarios", form); rec.Code != 303 {
		t.Errorf("clerk of its own court: %d %s", rec.Code, rec.Body)
	}
	form = url.Values{"name": {"portaria-x"}, "role": {"club"}, "club": {"Flamengo"}, "senha": {"senha-muito-boa"}, "senha2": {"senha-muito-boa"}}
	if rec := adm.do("POST", "/admin/usuarios", form); rec.Code != 422 {
		t.Errorf("club account from a court's admin: %d, want 422", rec.Code)
	}

	for _, action := range []string{"desativar", "ativar"} {
		rt := "POST /admin/usuarios/:id/" + action
		route(rt)
		adm.do("GET", "/admin/usuarios", nil)
		if rec := adm.do("POST", fmt.Sprintf("/admin/usuarios/%d/%s", f.users["clerk"].ID, action), url.Values{}); rec.Code != 404 {
			t.Errorf("%s a user of 26.0100: %d, want 404", rt, rec.Code)
		}
	}
	route("POST /admin/usuarios/:id/senha")
	adm.do("GET", "/admin/usuarios", nil)
	pw := url.Values{"senha": {"senha-intrusa-1"}, "senha2": {"senha-intrusa-1"}}
	if rec := adm.do("POST", fmt.Sprintf("/admin/usuarios/%d/senha", f.users["clerk"].ID), pw); rec.Code != 404 {
		t.Errorf("new password for a user of 26.0100: %d, want 404", rec.Code)
	}
	if n := count("SELECT count(*) FROM users WHERE id = ? AND disabled_at IS NOT NULL", f.users["clerk"].ID); n != 0 {
		t.Errorf("the clerk of 26.0100 was disabled")
	}

	route("GET /admin/juizados")
	body = adm.do("GET", "/admin/juizados", nil).Body.String()
	if strings.Contains(body, `value="26.0100"`) || !strings.Contains(body, `value="19.0001"`) {
		t.Errorf("courts page: want the settings of 19.0001 only")
	}
	route("POST /admin/juizados/configuracao")
	before := count("SELECT count(*) FROM courts WHERE code = '26.0100' AND publish_default")
	if rec := adm.do("POST", "/admin/juizados/configuracao", url.Values{"code": {"26.0100"}, "publish_default": {"true"}, "sec7_doubles_ban": {"false"}}); rec.Code != 404 {
		t.Errorf("settings of 26.0100: %d, want 404", rec.Code)
	}
	if count("SELECT count(*) FROM courts WHERE code = '26.0100' AND publish_default") != before || count("SELECT count(*) FROM courts WHERE code = '26.0100' AND NOT sec7_doubles_ban") != 0 {
		t.Errorf("the settings of 26.0100 changed")
	}
	adm.do("GET", "/admin/juizados", nil)
	if rec := adm.do("POST", "/admin/juizados/configuracao", url.Values{"code": {"19.0001"}, "publish_default": {"true"}}); rec.Code != 303 {
		t.Errorf("settings of its own court: %d", rec.Code)
	}

	route("GET /admin/auditoria")
	// The 26.0100 users were created without an actor; a 26.0100 write:
	if err := f.g.Exec(`SELECT set_config('juizado.actor_name', 'u-clerk', false), set_config('juizado.actor_domain', '26.0100', false)`).Error; err != nil {
		t.Fatal(err)
	}
	body = adm.do("GET", "/admin/auditoria", nil).Body.String()
	if strings.Contains(body, "u-clerk") || strings.Contains(body, "26.0100") {
		t.Errorf("audit page shows 26.0100's trail")
	}
	route("GET /admin/papeis")
	if rec := adm.do("GET", "/admin/papeis", nil); rec.Code != 200 || strings.Contains(rec.Body.String(), "u-clerk") {
		t.Errorf("roles page: %d", rec.Code)
	}

	// The DataJud export writes the admin's court only: 19.0001 has no
	// case, 26.0100's is not in it.
	if _, err := cases.SetCourtDataJud(ctx, f.g, "19.0001", cases.DataJudUnit{UnitCode: 1, UnitName: "Juizado do Rio", IBGEMunicipality: 3304557}); err != nil {
		t.Fatal(err)
	}
	num := f.fileCase(t, "R1")["number"].(string)
	month := f.clk.Now().In(time.FixedZone("BRT", -3*3600)).Format("2006-01")
	route("GET /admin/datajud")
	if body := adm.do("GET", "/admin/datajud?mes="+month, nil).Body.String(); !strings.Contains(body, "0 processo(s) a exportar, 0 de fora") || strings.Contains(body, "26.0100") {
		t.Errorf("DataJud page: want 19.0001's empty month\n%s", body)
	}
	route("GET /admin/datajud/exportacao")
	if body := adm.do("GET", "/admin/datajud/exportacao?mes="+month+"&formato=json", nil).Body.String(); strings.TrimSpace(body) != "[\n]" || strings.Contains(body, strings.NewReplacer("-", "", ".", "").Replace(num)) {
		t.Errorf("DataJud export of 19.0001: %q", body)
	}

	for _, rt := range routesOf(f.srv) {
		if _, path, _ := strings.Cut(rt, " "); strings.HasPrefix(path, "/admin") && !tested[rt] {
			t.Errorf("admin route %s is not tested for the court boundary", rt)
		}
	}
}

// between returns the text of s after the first from up to the next to.
func between(s, from, to string) string {
	_, rest, ok := strings.Cut(s, from)
	if !ok {
		return ""
	}
	out, _, _ := strings.Cut(rest, to)
	return out
}
