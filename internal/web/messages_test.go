package web_test

import (
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
)

// Problem messages say the rule: 415 names the accepted type, 413 the
// limit; an overlong name is max_length only; tpu_code out of range says
// the range; the public list's club names its rule; "Prova … não
// encontrada"; feed limit=x is an integer error.
func TestProblemMessagesNameTheRule(t *testing.T) {
	f := newFixture(t)
	code, out, m := f.send(t, "POST", "/api/v1/cases", "prosecutor", "text/plain", `{}`)
	if code != 415 || !strings.Contains(m["detail"].(string), "application/json") {
		t.Errorf("415: %d %s", code, out)
	}
	code, out, m = f.send(t, "POST", "/api/v1/cases", "prosecutor", "application/json", `{"ref": "`+strings.Repeat("x", 3<<20)+`"}`)
	if code != 413 || !strings.Contains(m["detail"].(string), "2 MB") {
		t.Errorf("413: %d %.300s", code, out)
	}
	// The same body in chunks (no Content-Length): the limit is reached
	// while reading, still 413, not 400.
	req := httptest.NewRequest("POST", "/api/v1/cases", io.MultiReader(strings.NewReader(`{"ref": "`+strings.Repeat("x", 3<<20)), strings.NewReader(`"}`)))
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+f.tokens["prosecutor"])
	rec := httptest.NewRecorder()
	f.srv.Echo.ServeHTTP(rec, req)
	if rec.Code != 413 || !strings.Contains(rec.Body.String(), "2 MB") {
		t.Errorf("413 in chunks: %d %.300s", rec.Code, rec.Body)
	}
	long := strings.Repeat("a", 100000)
	code, out, _ = f.send(t, "POST", "/api/v1/cases", "prosecutor", "application/json", `{"defendants": [{"kind": "person", "full_name": "`+long+`"}]}`)
	if code != 422 || !strings.Contains(out, `"field":"defendants[0].full_name","rule":"max_length"`) || strings.Count(out, `"field":"defendants[0].full_name"`) != 1 {
		t.Errorf("100,000-character name: %d %.600s", code, out)
	}
	c := f.fileCase(t, "R1")
	id := int(c["id"].(float64))
	code, out, _ = f.send(t, "POST", fmt.Sprintf("/api/v1/cases/%d/movements", id), "clerk", "application/json", `{"description": "x", "tpu_code": 99999999}`)
	if code != 422 || !strings.Contains(out, "1 a 999999") || strings.Contains(out, "positivo") {
		t.Errorf("tpu_code 99999999: %d %s", code, out)
	}
	code, out, _ = f.send(t, "GET", "/api/v1/public/banned?club=%00", "", "", "")
	if code != 422 || !strings.Contains(out, `"field":"club","rule":"no_control"`) || !strings.Contains(out, "U+0000") {
		t.Errorf("club=%%00: %d %s", code, out)
	}
	code, out, _ = f.send(t, "GET", "/api/v1/evidence/999999", "clerk", "", "")
	if code != 404 || !strings.Contains(out, "Prova 999999 não encontrada.") {
		t.Errorf("missing evidence: %d %s", code, out)
	}
	code, out, _ = f.send(t, "GET", "/api/v1/blocklist/changes?since=0&limit=x", "club", "", "")
	if code != 422 || !strings.Contains(out, `"field":"limit","rule":"integer"`) {
		t.Errorf("limit=x: %d %s", code, out)
	}
	code, out, _ = f.send(t, "GET", "/api/v1/blocklist/changes?since=0&limit=0", "club", "", "")
	if code != 422 || !strings.Contains(out, `"field":"limit","rule":"range"`) {
		t.Errorf("limit=0: %d %s", code, out)
	}
}

// The member register: PATCH errors carry the rule of each field (not
// "invalid"); an import with errors says that created/updated count what
// would be done; a spreadsheet with only its header is 422.
func TestMemberRegisterMessages(t *testing.T) {
	f := newGroupsFixture(t)
	gid := f.managedGroup(t, "Torcida Msg", "mgr-msg")
	base := fmt.Sprintf("/api/v1/groups/%d/members", gid)
	rec := f.do("POST", base+"/import", "mgr", "text/csv", fixtureBytes(t, "fixtures", "members-with-errors-excel-ptbr.csv"))
	if rec.Code != 422 {
		t.Fatalf("import with errors: %d %s", rec.Code, rec.Body)
	}
	rep := decode(t, rec)
	if d := rep["detail"].(string); !strings.Contains(d, "criaria") || rep["applied"] != false {
		t.Errorf("import with errors: %v", rep["detail"])
	}
	valid := fixtureBytes(t, "fixtures", "members-valid-excel-ptbr.csv")
	header := string(valid[:strings.IndexByte(string(valid), '\n')])
	for _, hdr := range []string{header + "\n", header + "\r\n\r\n", header} {
		rec = f.do("POST", base+"/import", "mgr", "text/csv", []byte(hdr))
		if rec.Code != 422 || !strings.Contains(rec.Body.String(), "planilha sem associados") {
			t.Errorf("header-only import %q: %d %s", hdr, rec.Code, rec.Body)
		}
	}
	rec = f.do("POST", base+"/import", "mgr", "text/csv", fixtureBytes(t, "fixtures", "members-valid-excel-ptbr.csv"))
	if rec.Code != 201 {
		t.Fatalf("import: %d %s", rec.Code, rec.Body)
	}
	rec = f.do("GET", base, "mgr", "", nil)
	items := decode(t, rec)["items"].([]any)
	mid := int64(items[0].(map[string]any)["id"].(float64))
	for body, want := range map[string]string{
		`{"cpf": "123"}`:                                  `"field":"cpf","rule":"cpf"`,
		`{"full_name": " "}`:                              `"field":"full_name","rule":"required"`,
		`{"full_name": "Jo\u200bão"}`:                     `"field":"full_name","rule":"no_invisible"`,
		`{"birth_date": "31/02/1990"}`:                    `"field":"birth_date","rule":"date"`,
		`{"birth_date": "01/01/1800"}`:                    `"field":"birth_date","rule":"range"`,
		`{"address": "` + strings.Repeat("r", 600) + `"}`: `"field":"address","rule":"max_length"`,
	} {
		rec := f.do("PATCH", fmt.Sprintf("/api/v1/members/%d", mid), "mgr", "application/json", []byte(body))
		if rec.Code != 422 || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("PATCH %.60s: %d %s, want %s", body, rec.Code, rec.Body, want)
		}
	}
}
