package web_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// HEAD is answered on every GET route as the GET would be, without a body
// (over a real socket, so that net/http's own HEAD handling is in play):
// public routes, routes behind the Casbin policy (which sees a GET), and the
// blocklist's ETag and 304.
func TestHeadOnGetRoutes(t *testing.T) {
	f := newFixture(t)
	ts := httptest.NewServer(f.srv.Echo)
	defer ts.Close()
	head := func(path, token string, hdr ...string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodHead, ts.URL+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if len(b) != 0 {
			t.Errorf("HEAD %s: a body of %d bytes", path, len(b))
		}
		return res
	}
	for _, tc := range []struct {
		path, token string
		status      int
	}{
		{"/healthz", "", 200},
		{"/impedidos", "", 200},
		{"/api/v1/public/banned", "", 200},
		{"/api/v1/openapi.json", "", 200},
		{"/api/v1/blocklist", f.tokens["club"], 200},
		{"/api/v1/blocklist/check/468.819.736-59", f.tokens["club"], 200},
		{"/api/v1/blocklist", "", 401},
		{"/api/v1/blocklist", f.tokens["prosecutor"], 403},
		{"/api/v1/cases?q=x", f.tokens["clerk"], 200},
		{"/api/v1/nothing", "", 404},
	} {
		if res := head(tc.path, tc.token); res.StatusCode != tc.status {
			t.Errorf("HEAD %s: %d, want %d", tc.path, res.StatusCode, tc.status)
		}
	}
	// Same headers as the GET; ETag and 304 with HEAD.
	res := head("/api/v1/blocklist", f.tokens["club"])
	etag := res.Header.Get("ETag")
	if etag == "" || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("HEAD blocklist: ETag %q, type %q", etag, res.Header.Get("Content-Type"))
	}
	if res := head("/api/v1/blocklist", f.tokens["club"], "If-None-Match", etag); res.StatusCode != 304 {
		t.Errorf("HEAD with If-None-Match: %d, want 304", res.StatusCode)
	}
	// A route without GET stays 405.
	if res := head("/api/v1/cases/1/sentence", f.tokens["judge"]); res.StatusCode != 405 {
		t.Errorf("HEAD on a POST-only route: %d, want 405", res.StatusCode)
	}
}

// If-Match is a list of entity tags compared strongly (RFC 9110 §13.1.1):
// any member matching lets the write go; a weak tag never matches (412); a
// header that is not a list of entity tags is 400 naming If-Match.
func TestIfMatchListsAndStrongComparison(t *testing.T) {
	w := newWF(t)
	w.addJudge()
	id, _, _ := w.file("R1")
	_, etag := w.get(id)
	if etag != `"v1"` {
		t.Fatalf("ETag %q", etag)
	}
	mv := func(ifMatch string) (*httptest.ResponseRecorder, map[string]any) {
		return w.do("POST", fmt.Sprintf("/api/v1/cases/%d/movements", id), "clerk", map[string]any{"description": "Conclusos ao juiz.", "tpu_code": 51}, "If-Match", ifMatch)
	}
	rec, _ := mv(`"v0", "v1"`)
	w.want(rec, 201, `If-Match: "v0", "v1" at v1`)
	rec, _ = mv(`"v1","v2" , "v9"`)
	w.want(rec, 201, `If-Match: "v1","v2" , "v9" at v2`)
	rec, m := mv(`W/"v3"`)
	w.want(rec, 412, `weak If-Match W/"v3" at v3`)
	if d, _ := m["detail"].(string); !strings.Contains(d, "fraca") {
		t.Errorf("412 for a weak tag: %q", d)
	}
	rec, _ = mv(`W/"v3", "v3"`)
	w.want(rec, 201, `If-Match: W/"v3", "v3" at v3`)
	rec, m = mv(`"v1", "v2"`)
	w.want(rec, 412, "stale list")
	if d, _ := m["detail"].(string); !strings.Contains(d, "enviada 1, 2") {
		t.Errorf("412 for a stale list: %q", d)
	}
	for _, bad := range []string{`garbage`, `"v4`, `v4`, `"v4" x`, `W/v4`, `"v 4"`} {
		rec, m = mv(bad)
		w.want(rec, 400, "If-Match: "+bad)
		if b := rec.Body.String(); !strings.Contains(b, `"field":"If-Match"`) || rec.Header().Get("Content-Type") != "application/problem+json" {
			t.Errorf("If-Match %s: %s", bad, b)
		}
	}
	rec, _ = mv(`*`)
	w.want(rec, 201, "If-Match: *")
	// The sentence and evidence take the same list.
	rec, _ = w.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", id), "judge", map[string]any{}, "If-Match", `W/"v5"`)
	w.want(rec, 412, "weak If-Match on the sentence")
}

// A problem's field is the dotted JSON path with array indices, also for a
// well-formed number that the field's type cannot hold (422, not 400).
func TestFieldPathsForNumbersOutOfRange(t *testing.T) {
	f := newFixture(t)
	for body, want := range map[string]string{
		`{"defendants": [{"kind": "fan_group", "name": "X", "group_id": 18446744073709551616}]}`:           `"field":"defendants[0].group_id","rule":"range"`,
		`{"defendants": [{"kind": "person"}, {"kind": "fan_group", "group_id": 99999999999999999999999}]}`: `"field":"defendants[1].group_id","rule":"range"`,
		`{"facts": {"latitude": 1e400}}`:                           `"field":"facts.latitude","rule":"range"`,
		`{"facts": {"longitude": -1e999}}`:                         `"field":"facts.longitude","rule":"range"`,
		`{"defendants": [{"kind": "fan_group", "group_id": "7"}]}`: `"field":"defendants[0].group_id","rule":"type"`,
		// A fraction where an integer is due is not out of range.
		`{"defendants": [{"kind": "fan_group", "group_id": 7.5}]}`: `"field":"defendants[0].group_id","rule":"integer"`,
		`{"defendants": [{"kind": "fan_group", "group_id": 7e0}]}`: `"field":"defendants[0].group_id","rule":"integer"`,
		// One word is not a full name: its own rule, not "required".
		`{"defendants": [{"kind": "person", "full_name": "A"}]}`: `"field":"defendants[0].full_name","rule":"min_words"`,
		`{"defendants": [{"kind": "person", "full_name": " "}]}`: `"field":"defendants[0].full_name","rule":"required"`,
	} {
		code, out, _ := f.send(t, "POST", "/api/v1/cases", "prosecutor", "application/json", body)
		if code != 422 || !strings.Contains(out, want) {
			t.Errorf("%s: %d %s, want 422 with %s", body, code, out, want)
		}
	}
	for _, body := range []string{`{"facts": {"latitude": 1e400}} x`, `{"facts": {"latitude": 1e}}`} {
		if code, out, _ := f.send(t, "POST", "/api/v1/cases", "prosecutor", "application/json", body); code != 400 {
			t.Errorf("%s: %d %s, want 400", body, code, out)
		}
	}
}

// A body nested 100,000 levels deep is a 400 problem saying it is nested
// too deep and the limit, never a 500 nor a bare syntax error.
func TestTooDeepBodyIsA400SayingSo(t *testing.T) {
	f := newFixture(t)
	for _, body := range []string{
		strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000),
		strings.Repeat(`{"a":`, 100_000) + "1" + strings.Repeat("}", 100_000),
		`{"facts": {"conduct": ` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + `}}`,
	} {
		req := httptest.NewRequest("POST", "/api/v1/cases", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+f.tokens["prosecutor"])
		rec := httptest.NewRecorder()
		f.srv.Echo.ServeHTTP(rec, req)
		out, ct := rec.Body.String(), rec.Header().Get("Content-Type")
		if rec.Code != 400 || ct != "application/problem+json" || !strings.Contains(out, "JSON aninhado demais") || !strings.Contains(out, "10.000 níveis") {
			t.Errorf("%.20s… (%d bytes): %d %s %.300s, want a 400 problem saying the body is nested too deep", body, len(body), rec.Code, ct, out)
		}
	}
}

// An integer beyond what the field's Go type holds is out of range (422,
// rule "range", the message giving the type's limits), not "not an
// integer"; a fraction, or an integer in range written with an exponent,
// still is "integer" (group_id is an int64, latitude a float64).
func TestOutOfRangeIntegerNamesTheLimits(t *testing.T) {
	f := newFixture(t)
	const int64Limits = "inteiro de -9223372036854775808 a 9223372036854775807"
	for body, want := range map[string][]string{
		`{"defendants": [{"kind": "fan_group", "name": "X", "group_id": 1e30}]}`:                  {`"field":"defendants[0].group_id","rule":"range"`, int64Limits},
		`{"defendants": [{"kind": "fan_group", "name": "X", "group_id": -99999999999999999999}]}`: {`"field":"defendants[0].group_id","rule":"range"`, int64Limits},
		`{"defendants": [{"kind": "fan_group", "name": "X", "group_id": 9223372036854775808}]}`:   {`"field":"defendants[0].group_id","rule":"range"`, int64Limits},
		`{"defendants": [{"kind": "fan_group", "name": "X", "group_id": 9.2e18}]}`:                {`"field":"defendants[0].group_id","rule":"integer"`, "sem expoente"},
		`{"defendants": [{"kind": "fan_group", "name": "X", "group_id": 3000000000.5}]}`:          {`"field":"defendants[0].group_id","rule":"integer"`, "não é inteiro"},
		`{"facts": {"latitude": 1e400}}`: {`"field":"facts.latitude","rule":"range"`, "magnitude de até 1.7976931348623157e+308"},
	} {
		code, out, _ := f.send(t, "POST", "/api/v1/cases", "prosecutor", "application/json", body)
		if code != 422 {
			t.Errorf("%s: %d %s, want 422", body, code, out)
			continue
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: %s, want %s", body, out, w)
			}
		}
	}
}
