package sanctions

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/sharedfix"
)

func ptr(b bool) *bool { return &b }

// legalTokens extracts the numbers that identify a law or an article ("10.671/2003",
// "41-B", "2"), so that law and article strings compare by meaning, not spelling.
var tokenRE = regexp.MustCompile(`\d+(?:\.\d+)*(?:/\d{4})?(?:-[A-Za-z])?`)

func legalTokens(s string) []string {
	ts := tokenRE.FindAllString(s, -1)
	for i := range ts {
		ts[i] = strings.ToUpper(ts[i])
	}
	return ts
}

func sameMeaning(got, want string) bool { return slices.Equal(legalTokens(got), legalTokens(want)) }

func TestBanRange_SharedCases(t *testing.T) {
	b, err := os.ReadFile(sharedfix.Path(t, "cases", "ban-ranges.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []struct {
			Subject   string   `json:"subject"`
			FactsDate string   `json:"facts_date"`
			Eligible  *bool    `json:"eligible"`
			Organiser *bool    `json:"organiser"`
			Sec7      *bool    `json:"sec7"`
			OffVenue  *bool    `json:"off_venue"`
			Conduct   []string `json:"conduct"`
			Expected  struct {
				Convertible *bool  `json:"convertible"`
				Reason      string `json:"reason"`
				Law         string `json:"law"`
				Article     string `json:"article"`
				MinMonths   *int   `json:"min_months"`
				MaxMonths   *int   `json:"max_months"`
				Members     string `json:"members"`
				Error       any    `json:"error"`
			} `json:"expected"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Cases) == 0 {
		t.Fatal("no cases in ban-ranges.json")
	}
	for i, c := range f.Cases {
		e := c.Expected
		name := fmt.Sprintf("%02d_%s_%s_%s", i, c.Subject, c.FactsDate, strings.ReplaceAll(e.Article+e.Reason, " ", "_"))
		t.Run(name, func(t *testing.T) {
			q := Query{Subject: Subject(c.Subject), FactsDate: civil.MustParse(c.FactsDate),
				Eligible: c.Eligible, Organiser: c.Organiser, Sec7: c.Sec7, OffVenue: c.OffVenue, Conduct: c.Conduct}
			r, err := BanRange(q)
			if e.Error != nil && e.Error != false {
				var nc *NotCoveredError
				if !errors.As(err, &nc) {
					t.Fatalf("err = %v, want NotCoveredError", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			wantConv := e.Convertible == nil || *e.Convertible
			if r.Convertible != wantConv {
				t.Fatalf("Convertible = %v, want %v (%+v)", r.Convertible, wantConv, r)
			}
			if !wantConv {
				// The expected reason starts with the article ("art. 201 § 6: ...").
				want := legalTokens(strings.SplitN(e.Reason, ":", 2)[0])
				got := legalTokens(r.Article + " " + r.Reason)
				for _, tok := range want {
					if !slices.Contains(got, tok) {
						t.Errorf("reason %q / article %q lacks %q of %q", r.Reason, r.Article, tok, e.Reason)
					}
				}
				if !sameMeaning(r.Article, strings.SplitN(e.Reason, ":", 2)[0]) {
					t.Errorf("Article = %q, want the article of %q", r.Article, e.Reason)
				}
				if r.Reason == "" {
					t.Error("empty Reason")
				}
				if err := CheckMonths(r, 12); err == nil {
					t.Error("CheckMonths accepted a non-convertible range")
				}
				return
			}
			if e.Law != "" && !sameMeaning(r.Law, e.Law) {
				t.Errorf("Law = %q, want %q", r.Law, e.Law)
			}
			if e.Article != "" && !sameMeaning(r.Article, e.Article) {
				t.Errorf("Article = %q, want %q", r.Article, e.Article)
			}
			wantMin := 0
			if e.MinMonths != nil {
				wantMin = *e.MinMonths
			}
			if r.MinMonths != wantMin {
				t.Errorf("MinMonths = %d, want %d", r.MinMonths, wantMin)
			}
			if e.MaxMonths == nil || r.MaxMonths != *e.MaxMonths {
				t.Errorf("MaxMonths = %d, want %v", r.MaxMonths, e.MaxMonths)
			}
			if r.Members != e.Members {
				t.Errorf("Members = %q, want %q", r.Members, e.Members)
			}
		})
	}
}

type want struct {
	conv      bool
	law, art  string
	min, max  int
	members   string
	notCover  string // expected NotCoveredError.Field; "" = no error
	sec7      bool   // Sec7Applied
	notes     int    // minimum number of notes; -1 = exactly none
	noteHas   string // substring of some note
	reasonHas string
	whyHas    string
}

func d(s string) civil.Date { return civil.MustParse(s) }

func checkRange(t *testing.T, q Query, w want) {
	t.Helper()
	r, err := BanRange(q)
	if w.notCover != "" {
		var nc *NotCoveredError
		if !errors.As(err, &nc) {
			t.Fatalf("err = %v (%+v), want NotCoveredError{Field:%q}", err, r, w.notCover)
		}
		if nc.Field != w.notCover {
			t.Fatalf("Field = %q, want %q (%s)", nc.Field, w.notCover, nc.Reason)
		}
		if nc.Error() != nc.Reason || nc.Reason == "" {
			t.Fatalf("Error() = %q, Reason %q", nc.Error(), nc.Reason)
		}
		return
	}
	if err != nil {
		t.Fatalf("BanRange: %v", err)
	}
	if r.Convertible != w.conv {
		t.Fatalf("Convertible = %v, want %v (%+v)", r.Convertible, w.conv, r)
	}
	if r.Law != w.law || r.Article != w.art {
		t.Errorf("rule = %q %q, want %q %q", r.Law, r.Article, w.law, w.art)
	}
	if r.MinMonths != w.min || r.MaxMonths != w.max {
		t.Errorf("range = %d–%d, want %d–%d", r.MinMonths, r.MaxMonths, w.min, w.max)
	}
	if r.Members != w.members {
		t.Errorf("Members = %q, want %q", r.Members, w.members)
	}
	if r.Sec7Applied != w.sec7 {
		t.Errorf("Sec7Applied = %v, want %v", r.Sec7Applied, w.sec7)
	}
	if w.notes == -1 && len(r.Notes) != 0 {
		t.Errorf("Notes = %q, want none", r.Notes)
	}
	if w.notes > 0 && len(r.Notes) < w.notes {
		t.Errorf("Notes = %q, want at least %d", r.Notes, w.notes)
	}
	if w.noteHas != "" && !slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, w.noteHas) }) {
		t.Errorf("Notes = %q, want one containing %q", r.Notes, w.noteHas)
	}
	if w.reasonHas != "" && !strings.Contains(r.Reason, w.reasonHas) {
		t.Errorf("Reason = %q, want it to contain %q", r.Reason, w.reasonHas)
	}
	if !w.conv && r.Reason == "" {
		t.Error("non-convertible range without Reason")
	}
	if r.Why == "" || !strings.Contains(r.Why, q.FactsDate.BR()) {
		t.Errorf("Why = %q: must name the date of the facts", r.Why)
	}
	if w.whyHas != "" && !strings.Contains(r.Why, w.whyHas) {
		t.Errorf("Why = %q, want it to contain %q", r.Why, w.whyHas)
	}
}

func TestBanRange(t *testing.T) {
	P, G := Person, Group
	cases := []struct {
		name string
		q    Query
		w    want
	}{
		// Persons, by date (DOMAIN.md §2 table).
		{"person_before_estatuto_not_covered_15-05-2003", Query{Subject: P, FactsDate: d("2003-05-15")}, want{notCover: "facts_date"}},
		{"art_39_first_day_16-05-2003", Query{Subject: P, FactsDate: d("2003-05-16")}, want{conv: true, law: lawEstatuto, art: "art. 39", min: 3, max: 12, notes: -1}},
		{"art_39_last_day_27-07-2010", Query{Subject: P, FactsDate: d("2010-07-27")}, want{conv: true, law: lawEstatuto, art: "art. 39", min: 3, max: 12}},
		{"art_41-B_§2_first_day_28-07-2010", Query{Subject: P, FactsDate: d("2010-07-28")}, want{conv: true, law: law12299, art: "art. 41-B, § 2º", min: 3, max: 36, notes: -1}},
		{"art_41-B_§2_last_day_14-06-2023", Query{Subject: P, FactsDate: d("2023-06-14")}, want{conv: true, law: law12299, art: "art. 41-B, § 2º", min: 3, max: 36}},
		{"art_201_§2_first_day_15-06-2023", Query{Subject: P, FactsDate: d("2023-06-15")}, want{conv: true, law: lawLGE, art: "art. 201, § 2º", min: 3, max: 36, notes: -1}},
		{"art_41-B_§2_across_2019_25-11-2019", Query{Subject: P, FactsDate: d("2019-11-25")}, want{conv: true, law: law12299, art: "art. 41-B, § 2º", min: 3, max: 36}},
		{"art_41-B_§2_across_2019_26-11-2019", Query{Subject: P, FactsDate: d("2019-11-26")}, want{conv: true, law: law12299, art: "art. 41-B, § 2º", min: 3, max: 36}},

		// Eligibility (§ 2º).
		{"art_39_eligible_false_ignored", Query{Subject: P, FactsDate: d("2008-03-09"), Eligible: ptr(false)}, want{conv: true, law: lawEstatuto, art: "art. 39", min: 3, max: 12, noteHas: "eligible=false ignorado"}},
		{"art_41-B_§2_not_eligible", Query{Subject: P, FactsDate: d("2016-04-03"), Eligible: ptr(false)}, want{conv: false, law: law12299, art: "art. 41-B, § 2º", reasonHas: "art. 41-B, § 2º"}},
		{"art_201_§2_not_eligible", Query{Subject: P, FactsDate: d("2024-05-12"), Eligible: ptr(false)}, want{conv: false, law: lawLGE, art: "art. 201, § 2º", reasonHas: "primário"}},
		{"art_201_§2_eligible_true", Query{Subject: P, FactsDate: d("2024-05-12"), Eligible: ptr(true)}, want{conv: true, law: lawLGE, art: "art. 201, § 2º", min: 3, max: 36, notes: -1}},

		// § 6º organiser.
		{"art_201_§6_organiser_not_convertible", Query{Subject: P, FactsDate: d("2024-05-12"), Organiser: ptr(true)}, want{conv: false, law: lawLGE, art: "art. 201, § 6º", reasonHas: "§§ 2º a 5º"}},
		{"art_201_§6_organiser_from_conduct", Query{Subject: P, FactsDate: d("2024-05-12"), Conduct: []string{"organiser"}}, want{conv: false, law: lawLGE, art: "art. 201, § 6º"}},
		{"art_201_§6_explicit_false_beats_conduct", Query{Subject: P, FactsDate: d("2024-05-12"), Conduct: []string{"organiser"}, Organiser: ptr(false)}, want{conv: true, law: lawLGE, art: "art. 201, § 2º", min: 3, max: 36}},
		{"art_201_§6_wins_over_§7", Query{Subject: P, FactsDate: d("2024-05-12"), Organiser: ptr(true), Sec7: ptr(true)}, want{conv: false, law: lawLGE, art: "art. 201, § 6º"}},
		{"art_201_§6_and_not_eligible", Query{Subject: P, FactsDate: d("2024-05-12"), Organiser: ptr(true), Eligible: ptr(false)}, want{conv: false, law: lawLGE, art: "art. 201, § 6º", noteHas: "§ 2º"}},
		{"art_201_§6_first_day_15-06-2023", Query{Subject: P, FactsDate: d("2023-06-15"), Organiser: ptr(true)}, want{conv: false, law: lawLGE, art: "art. 201, § 6º"}},
		{"art_41-B_§6_not_retroactive_14-06-2023", Query{Subject: P, FactsDate: d("2023-06-14"), Organiser: ptr(true)}, want{conv: true, law: law12299, art: "art. 41-B, § 2º", min: 3, max: 36, noteHas: "organiser ignorado"}},
		{"art_41-B_organiser_word_qualifies_caput", Query{Subject: P, FactsDate: d("2015-01-10"), Conduct: []string{"organiser"}}, want{conv: true, law: law12299, art: "art. 41-B, § 2º", min: 3, max: 36, notes: -1}},
		{"art_39_organiser_word_qualifies_caput", Query{Subject: P, FactsDate: d("2005-01-10"), Conduct: []string{"organiser"}}, want{conv: true, law: lawEstatuto, art: "art. 39", min: 3, max: 12, notes: -1}},

		// § 7º.
		{"art_201_§7_doubles", Query{Subject: P, FactsDate: d("2024-05-12"), Sec7: ptr(true)}, want{conv: true, law: lawLGE, art: "art. 201, § 2º c/c § 7º", min: 6, max: 72, sec7: true}},
		{"art_201_§7_from_conduct_racism", Query{Subject: P, FactsDate: d("2024-05-12"), Conduct: []string{"violence", "racism"}}, want{conv: true, law: lawLGE, art: "art. 201, § 2º c/c § 7º", min: 6, max: 72, sec7: true, noteHas: "art. 20, § 2º-A, da Lei 7.716/1989"}},
		{"art_201_§7_from_conduct_against_women", Query{Subject: P, FactsDate: d("2024-05-12"), Conduct: []string{"riot", "against_women"}}, want{conv: true, law: lawLGE, art: "art. 201, § 2º c/c § 7º", min: 6, max: 72, sec7: true}},
		{"Lei_7716_art_20_§2-A_racism_alone_is_no_art_201", Query{Subject: P, FactsDate: d("2024-05-12"), Conduct: []string{"racism"}}, want{conv: false, law: law7716, art: "art. 20, § 2º-A", min: 36, max: 36}},
		{"art_201_§7_against_women_alone_not_covered", Query{Subject: P, FactsDate: d("2024-05-12"), Conduct: []string{"against_women"}}, want{notCover: "conduct"}},
		{"art_201_§7_reading_off", Query{Subject: P, FactsDate: d("2024-05-12"), Sec7: ptr(true), Sec7DoublesBan: ptr(false)}, want{conv: true, law: lawLGE, art: "art. 201, § 2º", min: 3, max: 36, noteHas: "leitura do juízo"}},
		{"art_201_§7_not_eligible", Query{Subject: P, FactsDate: d("2024-05-12"), Sec7: ptr(true), Eligible: ptr(false)}, want{conv: false, law: lawLGE, art: "art. 201, § 2º"}},
		{"art_41-B_§7_not_retroactive", Query{Subject: P, FactsDate: d("2022-05-12"), Sec7: ptr(true)}, want{conv: true, law: law12299, art: "art. 41-B, § 2º", min: 3, max: 36, noteHas: "sec7 ignorado"}},
		{"art_39_§7_not_retroactive", Query{Subject: P, FactsDate: d("2004-05-12"), Sec7: ptr(true), Organiser: ptr(true)}, want{conv: true, law: lawEstatuto, art: "art. 39", min: 3, max: 12, notes: 2}},

		// Conduct words, persons.
		{"art_39_weapons_not_yet_ignored", Query{Subject: P, FactsDate: d("2008-01-01"), Conduct: []string{"violence", "weapons"}}, want{conv: true, law: lawEstatuto, art: "art. 39", min: 3, max: 12, noteHas: `"weapons"`}},
		{"art_39_weapons_alone_not_covered", Query{Subject: P, FactsDate: d("2010-07-27"), Conduct: []string{"weapons"}}, want{notCover: "conduct"}},
		{"art_41-B_§1_II_weapons_28-07-2010", Query{Subject: P, FactsDate: d("2010-07-28"), Conduct: []string{"weapons"}}, want{conv: true, law: law12299, art: "art. 41-B, § 2º", min: 3, max: 36, notes: -1}},
		{"art_41-B_fan_fight_not_yet_not_covered", Query{Subject: P, FactsDate: d("2023-06-14"), Conduct: []string{"fan_fight"}}, want{notCover: "conduct"}},
		{"art_201_§1_III_fan_fight_15-06-2023", Query{Subject: P, FactsDate: d("2023-06-15"), Conduct: []string{"fan_fight"}}, want{conv: true, law: lawLGE, art: "art. 201, § 2º", min: 3, max: 36, notes: -1}},
		{"Lei_7716_art_20_§2-A_racism_alone_14-06-2023_under_41-B_period", Query{Subject: P, FactsDate: d("2023-06-14"), Conduct: []string{"racism"}}, want{conv: false, law: law7716, art: "art. 20, § 2º-A", min: 36, max: 36}},
		{"Lei_7716_art_20_§2-A_from_11-01-2023", Query{Subject: P, FactsDate: d("2023-01-11"), Conduct: []string{"racism"}}, want{conv: false, law: law7716, art: "art. 20, § 2º-A", min: 36, max: 36}},
		{"Lei_14532_racism_alone_10-01-2023_not_covered", Query{Subject: P, FactsDate: d("2023-01-10"), Conduct: []string{"racism"}}, want{notCover: "conduct"}},
		{"art_41-B_racism_ignored_with_violence", Query{Subject: P, FactsDate: d("2023-06-14"), Conduct: []string{"violence", "racism"}}, want{conv: true, law: law12299, art: "art. 41-B, § 2º", min: 3, max: 36, noteHas: `"racism"`}},
		{"art_201_group_only_word_ignored", Query{Subject: P, FactsDate: d("2024-01-01"), Conduct: []string{"invasion", "discrimination"}}, want{conv: true, law: lawLGE, art: "art. 201, § 2º", min: 3, max: 36, noteHas: "torcida organizada"}},
		{"art_201_group_only_words_not_covered", Query{Subject: P, FactsDate: d("2024-01-01"), Conduct: []string{"training_ground_invasion", "attack_on_sport_people"}}, want{notCover: "conduct"}},
		{"art_201_unknown_word", Query{Subject: P, FactsDate: d("2024-01-01"), Conduct: []string{"violence", "arson"}}, want{notCover: "conduct"}},
		{"art_201_duplicate_words", Query{Subject: P, FactsDate: d("2024-01-01"), Conduct: []string{"violence", "violence"}}, want{conv: true, law: lawLGE, art: "art. 201, § 2º", min: 3, max: 36, notes: -1}},
		{"art_201_off_venue_person_ignored", Query{Subject: P, FactsDate: d("2024-01-01"), OffVenue: ptr(true)}, want{conv: true, law: lawLGE, art: "art. 201, § 2º", min: 3, max: 36, noteHas: "off_venue ignorado"}},
		{"unknown_subject", Query{Subject: "club", FactsDate: d("2024-01-01")}, want{notCover: "subject"}},
		{"zero_date", Query{Subject: P}, want{notCover: "facts_date"}},

		// Groups, by date.
		{"group_before_39-A_not_covered_27-07-2010", Query{Subject: G, FactsDate: d("2010-07-27")}, want{notCover: "facts_date"}},
		{"group_before_estatuto_not_covered", Query{Subject: G, FactsDate: d("2001-01-01")}, want{notCover: "facts_date"}},
		{"art_39-A_12299_first_day_28-07-2010", Query{Subject: G, FactsDate: d("2010-07-28")}, want{conv: true, law: law12299, art: "art. 39-A", max: 36, members: "all", notes: -1}},
		{"art_39-A_12299_last_day_25-11-2019", Query{Subject: G, FactsDate: d("2019-11-25")}, want{conv: true, law: law12299, art: "art. 39-A", max: 36, members: "all"}},
		{"art_39-A_13912_first_day_26-11-2019", Query{Subject: G, FactsDate: d("2019-11-26")}, want{conv: true, law: law13912, art: "art. 39-A", max: 60, members: "all"}},
		{"art_39-A_13912_last_day_14-06-2023", Query{Subject: G, FactsDate: d("2023-06-14")}, want{conv: true, law: law13912, art: "art. 39-A", max: 60, members: "all"}},
		{"art_183_§2_first_day_15-06-2023", Query{Subject: G, FactsDate: d("2023-06-15")}, want{conv: true, law: lawLGE, art: "art. 183, § 2º", max: 60, members: "all"}},
		{"art_39-A_worked_example_2018", Query{Subject: G, FactsDate: d("2018-05-10"), Conduct: []string{"riot"}}, want{conv: true, law: law12299, art: "art. 39-A", max: 36, members: "all"}},

		// Groups off-venue.
		{"art_39-C_not_yet_off_venue_25-11-2019", Query{Subject: G, FactsDate: d("2019-11-25"), OffVenue: ptr(true)}, want{notCover: "off_venue"}},
		{"art_39-C_not_yet_derived_from_conduct", Query{Subject: G, FactsDate: d("2015-03-01"), Conduct: []string{"fan_fight"}}, want{notCover: "off_venue"}},
		{"art_39-C_first_day_26-11-2019", Query{Subject: G, FactsDate: d("2019-11-26"), OffVenue: ptr(true)}, want{conv: true, law: law13912, art: "art. 39-C", max: 60, members: "involved"}},
		{"art_39-C_last_day_14-06-2023_training_ground", Query{Subject: G, FactsDate: d("2023-06-14"), Conduct: []string{"training_ground_invasion"}}, want{conv: true, law: law13912, art: "art. 39-C", max: 60, members: "involved", notes: -1}},
		{"art_184_first_day_15-06-2023", Query{Subject: G, FactsDate: d("2023-06-15"), OffVenue: ptr(true)}, want{conv: true, law: lawLGE, art: "art. 184", max: 60, members: "involved"}},
		{"art_184_attack_on_sport_people", Query{Subject: G, FactsDate: d("2024-06-15"), Conduct: []string{"attack_on_sport_people"}}, want{conv: true, law: lawLGE, art: "art. 184", max: 60, members: "involved"}},
		{"art_184_violence_off_venue_not_covered", Query{Subject: G, FactsDate: d("2024-06-15"), OffVenue: ptr(true), Conduct: []string{"violence"}}, want{notCover: "conduct"}},
		{"art_183_§2_mixed_conduct_all_members", Query{Subject: G, FactsDate: d("2024-06-15"), Conduct: []string{"violence", "fan_fight"}}, want{conv: true, law: lawLGE, art: "art. 183, § 2º", max: 60, members: "all", noteHas: "off_venue=true"}},
		{"art_183_§2_off_venue_false_only_184_words", Query{Subject: G, FactsDate: d("2024-06-15"), OffVenue: ptr(false), Conduct: []string{"fan_fight"}}, want{notCover: "conduct"}},
		{"art_39-A_off_venue_false", Query{Subject: G, FactsDate: d("2015-06-15"), OffVenue: ptr(false)}, want{conv: true, law: law12299, art: "art. 39-A", max: 36, members: "all"}},

		// Groups: discriminatory conduct and ignored flags.
		{"art_183_§2_discrimination", Query{Subject: G, FactsDate: d("2023-06-15"), Conduct: []string{"discrimination"}}, want{conv: true, law: lawLGE, art: "art. 183, § 2º", max: 60, members: "all", notes: -1}},
		{"art_183_§2_racism", Query{Subject: G, FactsDate: d("2024-01-01"), Conduct: []string{"racism"}}, want{conv: true, law: lawLGE, art: "art. 183, § 2º", max: 60, members: "all", notes: -1}},
		{"art_39-A_discrimination_not_covered_14-06-2023", Query{Subject: G, FactsDate: d("2023-06-14"), Conduct: []string{"discrimination"}}, want{notCover: "conduct"}},
		{"art_39-A_racism_not_covered", Query{Subject: G, FactsDate: d("2012-01-01"), Conduct: []string{"racism", "discrimination"}}, want{notCover: "conduct"}},
		{"art_39-A_racism_ignored_with_violence", Query{Subject: G, FactsDate: d("2021-01-01"), Conduct: []string{"violence", "racism"}}, want{conv: true, law: law13912, art: "art. 39-A", max: 60, members: "all", noteHas: `"racism"`}},
		{"art_183_§2_person_words_ignored", Query{Subject: G, FactsDate: d("2024-01-01"), Conduct: []string{"riot", "weapons", "against_women", "organiser"}}, want{conv: true, law: lawLGE, art: "art. 183, § 2º", max: 60, members: "all", notes: 3}},
		{"art_183_§2_flags_ignored", Query{Subject: G, FactsDate: d("2024-01-01"), Eligible: ptr(false), Organiser: ptr(true), Sec7: ptr(true)}, want{conv: true, law: lawLGE, art: "art. 183, § 2º", max: 60, members: "all", notes: 3}},
		{"art_39-A_unknown_word", Query{Subject: G, FactsDate: d("2012-01-01"), Conduct: []string{"Violence"}}, want{notCover: "conduct"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkRange(t, c.q, c.w) })
	}
}

func TestBanRange_EffectiveFlags(t *testing.T) {
	r, err := BanRange(Query{Subject: Person, FactsDate: d("2024-05-12"), Conduct: []string{"violence", "racism"}})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Sec7 || r.Organiser || r.OffVenue || !r.Eligible || !r.Sec7DoublesBan || !r.Sec7Applied {
		t.Errorf("flags = %+v", r)
	}
	r, err = BanRange(Query{Subject: Person, FactsDate: d("2022-05-12"), Conduct: []string{"violence", "racism", "organiser"}, Eligible: ptr(true)})
	if err != nil {
		t.Fatal(err)
	}
	if r.Sec7 || r.Organiser || !r.Eligible || r.Sec7Applied {
		t.Errorf("2022 flags must be ignored: %+v", r)
	}
	r, err = BanRange(Query{Subject: Person, FactsDate: d("2008-05-12"), Eligible: ptr(false)})
	if err != nil || !r.Eligible {
		t.Errorf("art. 39: eligible ignored must read true: %+v %v", r, err)
	}
	r, err = BanRange(Query{Subject: Person, FactsDate: d("2024-05-12"), Sec7: ptr(true), Sec7DoublesBan: ptr(false)})
	if err != nil || !r.Sec7 || r.Sec7Applied || r.Sec7DoublesBan {
		t.Errorf("reading off: %+v %v", r, err)
	}
	r, err = BanRange(Query{Subject: Group, FactsDate: d("2024-05-12"), Conduct: []string{"fan_fight"}, Sec7: ptr(true), Eligible: ptr(false)})
	if err != nil || !r.OffVenue || r.Sec7 || r.Organiser || !r.Eligible {
		t.Errorf("group flags: %+v %v", r, err)
	}
	if !strings.Contains(r.Why, "art. 184") || !strings.Contains(r.Why, "12/05/2024") {
		t.Errorf("Why = %q", r.Why)
	}
}

// A group ban for facts under 39-A (Lei 12.299) keeps the 3-year cap: the
// later 5-year caps are harsher and do not reach back.
func TestBanRange_HarsherLaterLawDoesNotRetroact(t *testing.T) {
	r, err := BanRange(Query{Subject: Group, FactsDate: d("2018-05-10")})
	if err != nil {
		t.Fatal(err)
	}
	if r.MaxMonths != 36 || strings.Contains(r.Why, "mais benéfica") {
		t.Errorf("%+v", r)
	}
}

// The lex mitior mechanism, with synthetic catalogues (CF art. 5º XL; CP art.
// 2º parágrafo único): the current statutes never trigger it.
func TestBanRange_LexMitior_Synthetic(t *testing.T) {
	base := catalogue()
	milderLGE := slices.Clone(base)
	// A hypothetical law of 2030 lowering the individual ban to 2–24 months
	// and the group ban to 48 months, with no eligibility condition.
	milderLGE[2].Until = d("2029-12-31")
	milderLGE = append(milderLGE,
		rule{Law: "Lei 99.999/2029", Article: "art. 1º, § 2º", Subject: Person, Kind: kindPerson,
			From: d("2030-01-01"), Min: 2, Max: 24, Words: set(ConductWords...)},
	)
	milderLGE[6].Until = d("2029-12-31")
	milderLGE = append(milderLGE,
		rule{Law: "Lei 99.999/2029", Article: "art. 2º", Subject: Group, Kind: kindGroupVenue,
			From: d("2030-01-01"), Max: 48, Members: MembersAll, Words: set(onVenueGroupWords...)},
		// A harsher later off-venue rule: must not apply.
		rule{Law: "Lei 99.998/2031", Article: "art. 3º", Subject: Group, Kind: kindGroupOffVenue,
			From: d("2031-01-01"), Max: 120, Members: MembersInvolved, Words: set(offVenueWords...)},
	)

	t.Run("art_41-B_later_milder_law_applies", func(t *testing.T) {
		r, err := banRange(milderLGE, Query{Subject: Person, FactsDate: d("2015-01-01")})
		if err != nil {
			t.Fatal(err)
		}
		if r.Law != "Lei 99.999/2029" || r.MinMonths != 2 || r.MaxMonths != 24 {
			t.Fatalf("%+v", r)
		}
		for _, s := range []string{"art. 41-B, § 2º", "Lei 99.999/2029", "mais benéfica", "CF, art. 5º, XL", "01/01/2015"} {
			if !strings.Contains(r.Why, s) {
				t.Errorf("Why = %q lacks %q", r.Why, s)
			}
		}
	})
	t.Run("art_201_later_milder_converts_when_not_eligible", func(t *testing.T) {
		// 41-B § 2º refuses the ban to a non-eligible defendant; the
		// hypothetical later law has no such condition, so it is milder.
		r, err := banRange(milderLGE, Query{Subject: Person, FactsDate: d("2024-01-01"), Eligible: ptr(false)})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Convertible || r.Law != "Lei 99.999/2029" {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("art_201_§7_doubling_not_milder", func(t *testing.T) {
		// Under the later law (no § 7º), 2–24 is still narrower than 6–72.
		r, err := banRange(milderLGE, Query{Subject: Person, FactsDate: d("2024-01-01"), Sec7: ptr(true)})
		if err != nil {
			t.Fatal(err)
		}
		if r.MaxMonths != 24 || r.Sec7Applied {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("art_39-A_12299_not_replaced_by_wider_milder", func(t *testing.T) {
		// 36 months (39-A, 2010) stays: 48 is not narrower.
		r, err := banRange(milderLGE, Query{Subject: Group, FactsDate: d("2012-01-01")})
		if err != nil {
			t.Fatal(err)
		}
		if r.Article != "art. 39-A" || r.MaxMonths != 36 || strings.Contains(r.Why, "mais benéfica") {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("art_39-A_13912_replaced_by_milder_48", func(t *testing.T) {
		r, err := banRange(milderLGE, Query{Subject: Group, FactsDate: d("2021-01-01")})
		if err != nil {
			t.Fatal(err)
		}
		if r.Law != "Lei 99.999/2029" || r.MaxMonths != 48 || r.Members != MembersAll {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("art_184_harsher_later_not_applied", func(t *testing.T) {
		r, err := banRange(milderLGE, Query{Subject: Group, FactsDate: d("2024-01-01"), OffVenue: ptr(true)})
		if err != nil {
			t.Fatal(err)
		}
		if r.Article != "art. 184" || r.MaxMonths != 60 {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("later_law_not_reaching_conduct_skipped", func(t *testing.T) {
		narrow := slices.Clone(milderLGE)
		narrow[len(narrow)-3].Words = set(WordRiot) // the milder person rule only reaches riot
		r, err := banRange(narrow, Query{Subject: Person, FactsDate: d("2015-01-01"), Conduct: []string{"weapons"}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Article != "art. 41-B, § 2º" {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("no_rule_at_date_later_rule_does_not_create_liability", func(t *testing.T) {
		_, err := banRange(milderLGE, Query{Subject: Group, FactsDate: d("2009-01-01")})
		var nc *NotCoveredError
		if !errors.As(err, &nc) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("real_catalogue_never_changes", func(t *testing.T) {
		cat := catalogue()
		for _, ru := range cat {
			for _, dt := range []civil.Date{ru.From, ru.From.AddDays(400)} {
				q := Query{Subject: ru.Subject, FactsDate: dt, OffVenue: ptr(ru.Kind == kindGroupOffVenue)}
				r, err := banRange(cat, q)
				if err != nil {
					t.Fatal(err)
				}
				if r.Law != ru.Law || r.Article != ru.Article || strings.Contains(r.Why, "mais benéfica") {
					t.Errorf("%s: %+v", dt, r)
				}
			}
		}
	})
}

func TestCheckMonths(t *testing.T) {
	person := func(date string, sec7 bool) Range {
		r, err := BanRange(Query{Subject: Person, FactsDate: d(date), Sec7: ptr(sec7)})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	group, err := BanRange(Query{Subject: Group, FactsDate: d("2024-01-01")})
	if err != nil {
		t.Fatal(err)
	}
	group2015, err := BanRange(Query{Subject: Group, FactsDate: d("2015-01-01")})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		r      Range
		months int
		ok     bool
	}{
		{"art_201_§2_2_below", person("2024-01-01", false), 2, false},
		{"art_201_§2_3_min", person("2024-01-01", false), 3, true},
		{"art_201_§2_36_max", person("2024-01-01", false), 36, true},
		{"art_201_§2_37_above", person("2024-01-01", false), 37, false},
		{"art_201_§7_5_below", person("2024-01-01", true), 5, false},
		{"art_201_§7_6_min", person("2024-01-01", true), 6, true},
		{"art_201_§7_72_max", person("2024-01-01", true), 72, true},
		{"art_201_§7_73_above", person("2024-01-01", true), 73, false},
		{"art_41-B_§2_2", person("2015-01-01", false), 2, false},
		{"art_41-B_§2_3", person("2015-01-01", false), 3, true},
		{"art_41-B_§2_36", person("2015-01-01", false), 36, true},
		{"art_41-B_§2_37", person("2015-01-01", false), 37, false},
		{"art_39_12", person("2005-01-01", false), 12, true},
		{"art_39_13", person("2005-01-01", false), 13, false},
		{"art_183_§2_0", group, 0, false},
		{"art_183_§2_1", group, 1, true},
		{"art_183_§2_60", group, 60, true},
		{"art_183_§2_61", group, 61, false},
		{"art_39-A_36", group2015, 36, true},
		{"art_39-A_37", group2015, 37, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckMonths(c.r, c.months)
			if c.ok {
				if err != nil {
					t.Fatalf("CheckMonths(%d) = %v", c.months, err)
				}
				return
			}
			var oe *OutOfRangeError
			if !errors.As(err, &oe) {
				t.Fatalf("CheckMonths(%d) = %v, want OutOfRangeError", c.months, err)
			}
			if oe.Months != c.months || oe.Min != max(1, c.r.MinMonths) || oe.Max != c.r.MaxMonths || oe.Law != c.r.Law || oe.Article != c.r.Article {
				t.Errorf("%+v", oe)
			}
			msg := err.Error()
			// A group ban has no statutory minimum: the message says so
			// rather than citing a minimum the statute does not set.
			want := []string{c.r.Law, c.r.Article, fmt.Sprint(c.r.MaxMonths), "fora do intervalo"}
			if c.r.MinMonths < 1 {
				want = []string{c.r.Law, c.r.Article, fmt.Sprint(c.r.MaxMonths), "fora do permitido", "a lei não fixa mínimo"}
			}
			if oe.NoStatutoryMin != (c.r.MinMonths < 1) {
				t.Errorf("NoStatutoryMin %v for MinMonths %d", oe.NoStatutoryMin, c.r.MinMonths)
			}
			for _, s := range want {
				if !strings.Contains(msg, s) {
					t.Errorf("message %q lacks %q", msg, s)
				}
			}
		})
	}
	t.Run("art_201_§6_not_convertible", func(t *testing.T) {
		r, err := BanRange(Query{Subject: Person, FactsDate: d("2024-01-01"), Organiser: ptr(true)})
		if err != nil {
			t.Fatal(err)
		}
		err = CheckMonths(r, 12)
		var ne *NotConvertibleError
		if !errors.As(err, &ne) {
			t.Fatalf("err = %v", err)
		}
		if ne.Reason != r.Reason || ne.Law != lawLGE || ne.Article != "art. 201, § 6º" || !strings.Contains(err.Error(), "§ 6º") {
			t.Errorf("%+v / %q", ne, err)
		}
	})
}

func TestIsConductWord(t *testing.T) {
	for _, w := range ConductWords {
		if !IsConductWord(w) || words[w].desc == "" {
			t.Errorf("%q", w)
		}
	}
	for _, w := range []string{"", "Violence", "arson", "violence "} {
		if IsConductWord(w) {
			t.Errorf("%q accepted", w)
		}
	}
	if len(ConductWords) != 11 {
		t.Errorf("len = %d", len(ConductWords))
	}
}
