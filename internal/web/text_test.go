package web_test

import (
	"strings"
	"testing"
)

// invisibleClasses are the character classes a name must not carry, as JSON
// escapes (so that the lone surrogate goes through the JSON decoder, which
// turns it into U+FFFD), with the rule the problem names.
var invisibleClasses = []struct{ name, escape, rule string }{
	{"right-to-left override", `\u202e`, "no_invisible"},
	{"left-to-right embedding", `\u202a`, "no_invisible"},
	{"first strong isolate", `\u2068`, "no_invisible"},
	{"right-to-left mark", `\u200f`, "no_invisible"},
	{"arabic letter mark", `\u061c`, "no_invisible"},
	{"zero-width space", `\u200b`, "no_invisible"},
	{"zero-width joiner", `\u200d`, "no_invisible"},
	{"byte order mark", `\ufeff`, "no_invisible"},
	{"soft hyphen", `\u00ad`, "no_invisible"},
	{"lone surrogate", `\ud800`, "no_replacement"},
	{"replacement character", `\ufffd`, "no_replacement"},
	{"C0 control", `\u0007`, "no_control"},
	{"C1 control", `\u0085`, "no_control"},
	{"line separator", `\u2028`, "no_control"},
}

// whiteControls are controls that Unicode counts as white space: the
// register and group names collapse them into one space, like tabs.
var whiteControls = map[string]bool{`\u0085`: true, `\u2028`: true}

// A name with a bidi control, a zero-width or other format character, a
// control or U+FFFD (an invalid escape) is 422 on that name, in the filing
// (defendant's full name, filer's name, a group defendant's name).
func TestFilingRefusesInvisibleCharacters(t *testing.T) {
	f := newFixture(t)
	r1 := representation(t, "R1")
	for _, c := range invisibleClasses {
		for _, tc := range []struct{ old, new, field string }{
			{`"full_name": "Marcelo Augusto Figueiredo"`, `"full_name": "` + c.escape + `Marcelo Augusto Figueiredo"`, "defendants[0].full_name"},
			{`"full_name": "Marcelo Augusto Figueiredo"`, `"full_name": "Marcelo Augusto` + c.escape + ` Figueiredo"`, "defendants[0].full_name"},
			{`"name": "Promotoria de Justiça do Torcedor – MPSP"`, `"name": "` + c.escape + `"`, "filed_by.name"},
			{`"mother_name": "Sandra Figueiredo"`, `"mother_name": "Sandra Figueiredo` + c.escape + `"`, "defendants[0].mother_name"},
		} {
			body := strings.Replace(r1, tc.old, tc.new, 1)
			if body == r1 {
				t.Fatalf("R1 has no %s", tc.old)
			}
			code, out, _ := f.send(t, "POST", "/api/v1/cases", "prosecutor", "application/json", body)
			if code != 422 || !strings.Contains(out, `"field":"`+tc.field+`"`) || !strings.Contains(out, `"rule":"`+c.rule+`"`) {
				t.Errorf("%s in %s: %d %s, want 422 on %s with rule %s", c.name, tc.field, code, out, tc.field, c.rule)
			}
			if strings.Contains(out, `"rule":"required"`) {
				t.Errorf("%s in %s: also reported as required: %s", c.name, tc.field, out)
			}
		}
	}
	// A group defendant's name.
	group := `{"filed_by": {"kind": "prosecutor", "name": "MP"}, "defendants": [{"kind": "fan_group", "name": "Garra do Tatuapé\u200b"}], "event": null, "facts": {"occurred_at": "2025-03-30T15:20:00-03:00", "conduct": ["violence"]}}`
	if code, out, _ := f.send(t, "POST", "/api/v1/cases", "prosecutor", "application/json", group); code != 422 || !strings.Contains(out, `"field":"defendants[0].name"`) {
		t.Errorf("group name with a zero-width space: %d %s", code, out)
	}
	// Combining accents are stored composed (NFC).
	body := strings.Replace(r1, `"full_name": "Marcelo Augusto Figueiredo"`, `"full_name": "Marcelo Augusto Figueire\u0301do"`, 1)
	code, out, m := f.send(t, "POST", "/api/v1/cases", "prosecutor", "application/json", body)
	if code != 201 {
		t.Fatalf("combining accent: %d %s", code, out)
	}
	if got := m["defendants"].([]any)[0].(map[string]any)["full_name"]; got != "Marcelo Augusto Figueir\u00e9do" {
		t.Errorf("stored name %+q, want the composed é", got)
	}
}

// Group names: the same classes are 422 on name (a visually identical second
// group no longer slips past the duplicate check), and a name typed with
// combining accents is the same name as the composed one (409).
func TestGroupNamesRefuseInvisibleCharacters(t *testing.T) {
	f := newGroupsFixture(t)
	if rec := f.do("POST", "/api/v1/groups", "clerk", "application/json", []byte(`{"name": "Torcida Organizada Garra do Tatuapé", "supported_club": "Corinthians"}`)); rec.Code != 201 {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	for _, c := range invisibleClasses {
		if whiteControls[c.escape] {
			continue
		}
		for _, field := range []string{"name", "supported_club"} {
			body := `{"name": "Torcida Organizada Garra do Tatuapé` + c.escape + `", "supported_club": "Corinthians"}`
			if field == "supported_club" {
				body = `{"name": "Outra Torcida", "supported_club": "` + c.escape + `Corinthians"}`
			}
			rec := f.do("POST", "/api/v1/groups", "clerk", "application/json", []byte(body))
			if out := rec.Body.String(); rec.Code != 422 || !strings.Contains(out, `"field":"`+field+`"`) || !strings.Contains(out, `"rule":"`+c.rule+`"`) {
				t.Errorf("%s in %s: %d %s, want 422 with rule %s", c.name, field, rec.Code, out, c.rule)
			}
		}
	}
	if rec := f.do("POST", "/api/v1/groups", "clerk", "application/json", []byte(`{"name": "Torcida Organizada Garra do Tatuape\u0301", "supported_club": "Corinthians"}`)); rec.Code != 409 {
		t.Errorf("combining accent: %d %s, want 409", rec.Code, rec.Body)
	}
}
