package web_test

import (
	"net/url"
	"strconv"
	"testing"
)

// Page writes outside a service's transaction still name their actor in
// the audit trail: the admin's new court and settings, the club's token.
func TestPageWritesNameTheirActor(t *testing.T) {
	f := newFixture(t)
	admin := f.browser(t, "admin")
	admin.do("GET", "/admin/juizados", nil)
	if rec := admin.do("POST", "/admin/juizados", url.Values{"code": {"26.0200"}, "name": {"Juizado do Torcedor 2"}}); rec.Code != 303 {
		t.Fatalf("new court: %d %s", rec.Code, rec.Body)
	}
	if rec := admin.do("POST", "/admin/juizados/configuracao", url.Values{"code": {"26.0200"}, "sec7_doubles_ban": {"false"}}); rec.Code != 303 {
		t.Fatalf("court settings: %d %s", rec.Code, rec.Body)
	}
	club := f.browser(t, "club")
	club.do("GET", "/clube", nil)
	if rec := club.do("POST", "/clube/tokens", url.Values{"usuario": {strconv.FormatInt(f.users["club"].ID, 10)}, "validade": {"90d"}}); rec.Code != 303 {
		t.Fatalf("club token: %d %s", rec.Code, rec.Body)
	}
	for _, c := range []struct{ table, action, actor string }{
		{"courts", "insert", "u-admin"}, {"courts", "update", "u-admin"}, {"api_tokens", "insert", "u-club"},
	} {
		var n int64
		if err := f.g.Raw("SELECT count(*) FROM audit_log WHERE table_name = ? AND action = ? AND actor_name = ?", c.table, c.action, c.actor).Scan(&n).Error; err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Errorf("no audit row for %s %s by %s", c.action, c.table, c.actor)
		}
	}
}
