package web_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/accounts"
)

// An admin reads the audit trail of its court without defendants' personal
// data (CPF, birth date, mother's name, address); the judge reads it whole.
// Issue 16, item 5; DOMAIN.md §7.
func TestAdminAuditHasNoDefendantsPersonalData(t *testing.T) {
	f := newFixture(t)
	f.fileCase(t, "R1")
	_, admin, _ := f.send(t, "GET", "/api/v1/audit?table=defendants", "admin", "", "")
	_, judge, _ := f.send(t, "GET", "/api/v1/audit?table=defendants", "judge", "", "")
	for _, v := range []string{"66392332154", "1991-07-22", "Sandra Figueiredo"} {
		if strings.Contains(admin, v) {
			t.Errorf("the admin reads %q in the audit trail", v)
		}
		if !strings.Contains(judge, v) {
			t.Errorf("the judge does not read %q in the audit trail", v)
		}
	}
	if !strings.Contains(admin, `"table":"defendants"`) {
		t.Errorf("the admin lost the rows themselves: %s", shortBody(admin))
	}
}

// A token is refused from the instant it expires, even when the server
// verified it a moment before and keeps it in memory.
func TestCachedTokenExpiresOnTime(t *testing.T) {
	f := newFixture(t)
	tok, err := accounts.NewToken(context.Background(), f.g, f.users["clerk"].ID, time.Now().Add(700*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if rec := f.call("GET", "/api/v1/cases", tok); rec.Code != 200 {
		t.Fatalf("fresh token: %d", rec.Code)
	}
	time.Sleep(800 * time.Millisecond)
	if rec := f.call("GET", "/api/v1/cases", tok); rec.Code != 401 {
		t.Errorf("expired token kept in memory: %d, want 401 at once", rec.Code)
	}
}

// Strict JSON: a body without Content-Type is 415; a key
// named twice, or a key the endpoint does not know, is 422 naming it (with
// its path); an unknown sort is 422 on sort.
func TestStrictJSON(t *testing.T) {
	f := newFixture(t)
	post := func(ctype, body string) (int, string) {
		req := httptest.NewRequest("POST", "/api/v1/cases", strings.NewReader(body))
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		req.Header.Set("Authorization", "Bearer "+f.tokens["prosecutor"])
		rec := httptest.NewRecorder()
		f.srv.Echo.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	rep := representation(t, "R1")
	if code, body := post("", rep); code != 415 || !strings.Contains(body, "Content-Type") {
		t.Errorf("no Content-Type: %d %s", code, body)
	}
	dup := strings.Replace(rep, `"ref": "R1",`, `"ref": "R1", "ref": "R9",`, 1)
	if code, body := post("application/json", dup); code != 422 || !strings.Contains(body, `"field":"ref"`) {
		t.Errorf("duplicate key: %d %s", code, body)
	}
	dup = strings.Replace(rep, `"kind": "person",`, `"kind": "person", "kind": "fan_group",`, 1)
	if code, body := post("application/json", dup); code != 422 || !strings.Contains(body, `"field":"defendants[0].kind"`) {
		t.Errorf("duplicate nested key: %d %s", code, body)
	}
	unknown := strings.Replace(rep, `"kind": "person",`, `"kind": "person", "nickname": "Marcelão",`, 1)
	if code, body := post("application/json", unknown); code != 422 || !strings.Contains(body, `"field":"defendants[0].nickname"`) {
		t.Errorf("unknown field: %d %s", code, body)
	}
	// Names are exact: "REF" beside "ref" is not a second spelling of one
	// key that encoding/json would let win silently.
	cased := strings.Replace(rep, `"ref": "R1",`, `"ref": "R1", "REF": "R9",`, 1)
	if code, body := post("application/json", cased); code != 422 || !strings.Contains(body, `"field":"REF"`) || !strings.Contains(body, "known_field") {
		t.Errorf("a key in other case: %d %s", code, body)
	}
	cased = strings.Replace(rep, `"kind": "person",`, `"Kind": "person",`, 1)
	if code, body := post("application/json", cased); code != 422 || !strings.Contains(body, `"field":"defendants[0].Kind"`) {
		t.Errorf("a nested key in other case: %d %s", code, body)
	}
	if code, body := post("application/json; charset=latin1", rep); code != 415 {
		t.Errorf("a body declared latin1: %d %s, want 415 (JSON is UTF-8, RFC 8259 § 8.1)", code, body)
	}
	if code, body := post("application/json; charset=utf-8", rep); code != 201 {
		t.Errorf("a good body: %d %s", code, body)
	}
	if code, body, _ := f.send(t, "GET", "/api/v1/cases?sort=idade", "clerk", "", ""); code != 422 || !strings.Contains(body, `"field":"sort"`) {
		t.Errorf("unknown sort: %d %s", code, body)
	}
	_ = fmt.Sprint
}
