package web_test

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// The filing form takes as many defendants as the API (50): "+ Adicionar"
// up to the 50th fieldset, then a note instead of the button; a form with
// 25 defendants files 25.
func TestFilingFormAllowsTheAPIsDefendants(t *testing.T) {
	f := newFixture(t)
	pros := f.browser(t, "prosecutor")
	pros.do("GET", "/processos/novo", nil)
	rec := pros.do("POST", "/processos", url.Values{"n": {"49"}, "acao": {"mais"}})
	if body := rec.Body.String(); rec.Code != 200 || !strings.Contains(body, `id="reu-49"`) || strings.Contains(body, `value="mais"`) || !strings.Contains(body, "No máximo 50 representados") {
		t.Fatalf("50th defendant: %d (fieldset 50: %v, add button: %v)", rec.Code, strings.Contains(body, `id="reu-49"`), strings.Contains(body, `value="mais"`))
	}
	rec = pros.do("POST", "/processos", url.Values{"n": {"50"}, "acao": {"mais"}})
	if body := rec.Body.String(); strings.Contains(body, `id="reu-50"`) {
		t.Error("a 51st defendant fieldset")
	}
	form := url.Values{"n": {"25"}, "acao": {"autuar"}, "filed_by.kind": {"prosecutor"}, "filed_by.name": {"Promotoria"},
		"event.competition": {"Série A"}, "event.home": {"Corinthians"}, "event.away": {"Palmeiras"}, "event.venue": {"Arena Corinthians"},
		"facts.occurred_at": {"30/03/2025"}, "facts.occurred_at_hora": {"15:20"}, "facts.conduct": {"violence"}}
	for i := 0; i < 25; i++ {
		p := fmt.Sprintf("defendants[%d].", i)
		form.Set(p+"kind", "person")
		form.Set(p+"full_name", "Torcedor Número "+strconv.Itoa(i+1)+" da Silva")
		form.Set(p+"birth_date", "22/07/1991")
		form.Set(p+"mother_name", "Mãe da Silva")
	}
	rec = pros.do("POST", "/processos", form)
	if rec.Code != 303 {
		t.Fatalf("filing 25 defendants: %d %.2000s", rec.Code, rec.Body)
	}
	var n int64
	f.g.Raw("SELECT count(*) FROM defendants").Scan(&n)
	if n != 25 {
		t.Errorf("%d defendants filed, want 25", n)
	}
}
