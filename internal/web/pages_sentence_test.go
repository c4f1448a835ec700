package web_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// The sentence form refuses a yes/no field holding anything but its values
// (eligible=maybe was stored as eligible=true; the JSON API answers 422):
// 422, the error next to the field, the typed value kept and nothing
// signed. A defendant id too large for an int64 is reported as typed, not
// as 9223372036854775807.
func TestPageSentenceRefusesUnknownChoicesAndHugeIDs(t *testing.T) {
	f := newFixture(t)
	code, body, c := f.send(t, "POST", "/api/v1/cases", "prosecutor", "application/json", representation(t, "R1"))
	if code != 201 {
		t.Fatalf("filing: %d %s", code, body)
	}
	caseURL := fmt.Sprintf("/processos/%d", int(c["id"].(float64)))
	def := fmt.Sprint(int(c["defendants"].([]any)[0].(map[string]any)["id"].(float64)))
	judge := f.browser(t, "judge")
	judge.do("GET", caseURL+"/sentenca", nil)
	base := url.Values{"defendant_id": {def}, "ban.months": {"12"}, "eligible": {"true"},
		"sec7_doubles_ban": {"true"}, "reporting_duty.place": {"2º DP"}, "reporting_duty.club": {"Corinthians"}}
	for _, tc := range []struct{ field, value, id string }{
		{"eligible", "maybe", "f-eligible"},
		{"organiser", "talvez", "f-organiser"},
		{"sec7", "1", "f-sec7"},
		{"weapons", "x", "f-weapons"},
		{"fan_fight", "sempre", "f-fan-fight"},
		{"sec7_doubles_ban", "yes", "f-sec7-doubles-ban"},
		{"publish", "maybe", ""},
		{"precautionary_until_final", "talvez", ""},
	} {
		form := cloneForm(base)
		form.Set(tc.field, tc.value)
		rec := judge.do("POST", caseURL+"/sentenca", form)
		body := rec.Body.String()
		if rec.Code != 422 || !strings.Contains(body, fmt.Sprintf("Valor &#34;%s&#34; inválido", tc.value)) {
			t.Errorf("%s=%s: %d, want 422 naming the value", tc.field, tc.value, rec.Code)
			continue
		}
		if tc.id != "" {
			sel := body[strings.Index(body, `id="`+tc.id+`"`):]
			sel = sel[:strings.Index(sel, "</div>")]
			if !strings.Contains(sel, fmt.Sprintf(`<option value="%s" selected>`, tc.value)) || !strings.Contains(sel, `class="campo-erro"`) {
				t.Errorf("%s=%s: the select does not keep the value with its error: %s", tc.field, tc.value, sel)
			}
		}
	}
	form := cloneForm(base)
	form.Set("defendant_id", "99999999999999999999")
	rec := judge.do("POST", caseURL+"/sentenca", form)
	if rec.Code != 422 || !strings.Contains(rec.Body.String(), "99999999999999999999") || strings.Contains(rec.Body.String(), "9223372036854775807") {
		t.Errorf("huge defendant id: %d, want 422 quoting the typed number", rec.Code)
	}
	var n int64
	if err := f.g.Raw("SELECT count(*) FROM bans").Scan(&n).Error; err != nil || n != 0 {
		t.Fatalf("refused forms signed %d sentences (%v)", n, err)
	}
	// The allowed words still work ("não" on publish is a valid choice).
	form = cloneForm(base)
	form.Set("eligible", "sim")
	if rec := judge.do("POST", caseURL+"/sentenca", form); rec.Code != 303 {
		t.Fatalf("valid sentence: %d %s", rec.Code, rec.Body)
	}
	if err := f.g.Raw("SELECT count(*) FROM bans WHERE eligible").Scan(&n).Error; err != nil || n != 1 {
		t.Errorf("%d eligible bans after the valid form (%v), want 1", n, err)
	}
}

// The sentence page shows the warnings the judge needs before signing: a
// CPF already punished under art. 201 (§ 2º's condition), the same CPF with
// another birth date elsewhere; and "Recalcular" refuses, as signing does,
// a first day in the past (the ban starts at the final judgment or later:
// Súmula 643 STJ), showing the last day it would have.
func TestPageSentenceWarnings_LGE_art_201_sec2_Sumula_643(t *testing.T) {
	f := newFixture(t)
	f.fileAndSentence(t, `"eligible": true, "ban": {"months": 6}`)
	rep := strings.Replace(representation(t, "R1"), `"1991-07-22"`, `"1991-07-23"`, 1)
	code, body, c := f.send(t, "POST", "/api/v1/cases", "prosecutor", "application/json", rep)
	if code != 201 || !strings.Contains(body, "22/07/1991") {
		t.Fatalf("filing the same CPF with another birth date: %d %s", code, body)
	}
	caseURL := fmt.Sprintf("/processos/%d", int(c["id"].(float64)))
	judge := f.browser(t, "judge")
	rec := judge.do("GET", caseURL+"/sentenca", nil)
	expect(t, "sentence form", rec.Code, 200, rec.Body.String(), "não tiver sido punido anteriormente", "art. 201, § 2º", "22/07/1991")
	rec = judge.do("POST", caseURL+"/sentenca", url.Values{"acao": {"recalcular"}, "ban.first_day": {"01/04/2025"}, "ban.months": {"3"}})
	expect(t, "recalculated past first day", rec.Code, 422, rec.Body.String(), "30/06/2025", `id="f-ban-first-day-erro"`, "Súmula 643", `value="01/04/2025"`)
}
