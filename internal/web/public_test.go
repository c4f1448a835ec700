package web_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// seedPublished adds n published bans in force (one case, one defendant
// each), as bench/seed.sql does.
func seedPublished(t *testing.T, f *fixture, n int) {
	t.Helper()
	for _, q := range []string{
		`INSERT INTO cases (number, court_code, year, sequence, status, filer_user_id, filer_role, filed_by_kind, filed_by_name,
		                    home_team, occurred_at, facts_date, filed_at)
		 VALUES ('00099999920258260100', '26.0100', 2025, 999999, 'sentenced', ?, 'prosecutor', 'mp', 'Teste', 'Corinthians',
		         '2025-05-01 16:00-03', '2025-05-01', now())`,
		`INSERT INTO defendants (case_id, position, kind, full_name, cpf, birth_date)
		 SELECT c.id, g, 'person', 'Torcedor ' || lpad(g::text, 4, '0'), lpad((10000000000 + g * 7919)::text, 11, '0'), date '1990-01-01'
		 FROM cases c, generate_series(1, ?) g WHERE c.number = '00099999920258260100'`,
		`INSERT INTO bans (case_id, defendant_id, subject, source, court_code, case_number, cpf, name, birth_date, facts_date,
		                   law, article, range_min_months, range_max_months, first_day, months, computed_last_day, last_day, publish, created_at)
		 SELECT d.case_id, d.id, 'person', 'sentence', '26.0100', '00099999920258260100', d.cpf, d.full_name, d.birth_date, '2025-05-01',
		        'Lei 14.597/2023', 'art. 201, § 2º', 6, 36, current_date - 10, 24, current_date + 700, current_date + 700, true, now()
		 FROM defendants d JOIN cases c ON c.id = d.case_id WHERE c.number = '00099999920258260100'`,
	} {
		arg := any(f.users["prosecutor"].ID)
		if strings.Contains(q, "generate_series") {
			arg = n
		}
		if strings.Contains(q, "INSERT INTO bans") {
			if err := f.g.Exec(q).Error; err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := f.g.Exec(q, arg).Error; err != nil {
			t.Fatal(err)
		}
	}
}

// /impedidos shows 200 names a page, in order, with the count and links to
// the other pages (filters kept); a page out of range is 422. The API gives
// every name in one answer (API.md: {items}).
func TestPublicListPages(t *testing.T) {
	f := newFixture(t)
	seedPublished(t, f, 205)
	rec := f.call("GET", "/api/v1/public/banned", "")
	var api struct {
		Items []struct{ Name string } `json:"items"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &api); err != nil || rec.Code != 200 || len(api.Items) != 205 {
		t.Fatalf("API: %d, %d items (%v)", rec.Code, len(api.Items), err)
	}
	if api.Items[0].Name != "Torcedor 0001" || api.Items[204].Name != "Torcedor 0205" {
		t.Errorf("API order: %q … %q", api.Items[0].Name, api.Items[204].Name)
	}
	rows := regexp.MustCompile(`<td data-rotulo="Nome">([^<]*)</td>`)
	page := func(q string) (int, []string, string) {
		rec := f.call("GET", "/impedidos"+q, "")
		var names []string
		for _, m := range rows.FindAllStringSubmatch(rec.Body.String(), -1) {
			names = append(names, m[1])
		}
		return rec.Code, names, rec.Body.String()
	}
	code, names, body := page("?club=Corinthians")
	if code != 200 || len(names) != 200 || names[0] != "Torcedor 0001" || !strings.Contains(body, "205 impedimentos em vigor · página 1 de 2") ||
		!strings.Contains(body, `href="/impedidos?club=Corinthians&amp;court=&amp;pagina=2"`) {
		t.Fatalf("page 1: %d, %d names", code, len(names))
	}
	if code, names, _ := page("?club=Corinthians&pagina=2"); code != 200 || len(names) != 5 || names[4] != "Torcedor 0205" {
		t.Errorf("page 2: %d %q", code, names)
	}
	for _, q := range []string{"?pagina=3", "?pagina=0", "?pagina=x"} {
		if code, _, body := page(q); code != 422 || !strings.Contains(body, "A página deve ser um número de 1 a 2.") {
			t.Errorf("%s: %d", q, code)
		}
	}
}

// A poster is for one stadium's gates: more than documents.MaxPosterNames names
// is 422 asking for a filter; a filtered list prints.
func TestPosterNeedsAFilterForALongList(t *testing.T) {
	f := newFixture(t)
	seedPublished(t, f, 5001)
	rec := f.call("GET", "/impedidos.pdf", "")
	if rec.Code != 422 || !strings.Contains(rec.Body.String(), "5001 nomes") || !strings.Contains(rec.Body.String(), `"field":"club"`) {
		t.Fatalf("unfiltered poster of 5001 names: %d %s", rec.Code, rec.Body)
	}
	if rec := f.call("GET", "/impedidos.pdf?club=Palmeiras", ""); rec.Code != 200 || !strings.HasPrefix(rec.Body.String(), "%PDF") {
		t.Errorf("filtered poster: %d", rec.Code)
	}
}
