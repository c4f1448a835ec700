package sanctions

import "testing"

// Prison ranges, rite and JECRIM measures by defendant (Lei 14.597/2023, art.
// 201, caput, §§ 6º, 7º; Lei 9.099/1995, arts. 61, 76, 89; Lei 7.716/1989,
// art. 20, § 2º-A).
func TestBanRange_PrisonRangeAndRite_LGE_art_201_sec6_sec7_Lei_9099_art_61(t *testing.T) {
	cases := []struct {
		name              string
		q                 Query
		lo, hi            int
		rite              string
		plea, suspension  bool
		convertible, cumu bool
		offence           string
	}{
		{"caput_12_24_jecrim", Query{Subject: Person, FactsDate: d("2024-05-12"), Conduct: []string{"riot"}}, 12, 24, RiteJECRIM, true, true, true, false, "art. 201"},
		{"sec6_16_36_ordinary", Query{Subject: Person, FactsDate: d("2024-05-12"), Organiser: ptr(true)}, 16, 36, RiteOrdinary, false, false, false, false, "art. 201, § 6º"},
		{"sec7_24_48_ordinary", Query{Subject: Person, FactsDate: d("2024-05-12"), Sec7: ptr(true)}, 24, 48, RiteOrdinary, false, false, true, false, "art. 201 c/c § 7º"},
		{"sec6_sec7_32_72", Query{Subject: Person, FactsDate: d("2024-05-12"), Organiser: ptr(true), Sec7: ptr(true)}, 32, 72, RiteOrdinary, false, false, false, false, "art. 201, § 6º c/c § 7º"},
		{"sec7_not_doubling_ban_still_doubles_prison", Query{Subject: Person, FactsDate: d("2024-05-12"), Sec7: ptr(true), Sec7DoublesBan: ptr(false)}, 24, 48, RiteOrdinary, false, false, true, false, "art. 201 c/c § 7º"},
		{"art_41-B_12_24", Query{Subject: Person, FactsDate: d("2015-05-12")}, 12, 24, RiteJECRIM, true, true, true, false, "art. 41-B"},
		{"art_41-B_not_eligible_prison", Query{Subject: Person, FactsDate: d("2015-05-12"), Eligible: ptr(false)}, 12, 24, RiteJECRIM, true, true, false, false, "art. 41-B"},
		{"art_39_no_prison", Query{Subject: Person, FactsDate: d("2005-05-12")}, 0, 0, RiteJECRIM, true, false, true, false, "art. 39"},
		{"Lei_7716_racism_alone_24_60", Query{Subject: Person, FactsDate: d("2024-05-12"), Conduct: []string{"racism"}}, 24, 60, RiteOrdinary, false, false, false, true, Art7716},
		{"group_civil", Query{Subject: Group, FactsDate: d("2024-05-12")}, 0, 0, RiteCivil, false, false, true, false, "art. 183, § 2º"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := BanRange(c.q)
			if err != nil {
				t.Fatal(err)
			}
			if r.PrisonMinMonths != c.lo || r.PrisonMaxMonths != c.hi || r.Rite != c.rite || r.PleaAllowed != c.plea || r.SuspensionAllowed != c.suspension ||
				r.Convertible != c.convertible || r.Cumulative != c.cumu || r.Offence != c.offence {
				t.Errorf("got prison %d-%d rite %s plea %v susp %v conv %v cumulative %v offence %q; want %d-%d %s %v %v %v %v %q",
					r.PrisonMinMonths, r.PrisonMaxMonths, r.Rite, r.PleaAllowed, r.SuspensionAllowed, r.Convertible, r.Cumulative, r.Offence,
					c.lo, c.hi, c.rite, c.plea, c.suspension, c.convertible, c.cumu, c.offence)
			}
		})
	}
}

// Lei 7.716/1989, art. 20, § 2º-A: exactly 3 years, cumulative.
func TestBanRange_Lei_7716_art_20_sec2A_FixedCumulativeBan(t *testing.T) {
	r, err := BanRange(Query{Subject: Person, FactsDate: d("2024-05-12"), Conduct: []string{"racism", "against_women"}})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Cumulative || r.MinMonths != 36 || r.MaxMonths != 36 || r.Convertible {
		t.Fatalf("range = %+v", r)
	}
	if msg := CheckPrison(r, 23); msg == "" {
		t.Error("23 months accepted under art. 20, § 2º-A (2 to 5 years)")
	}
	if msg := CheckPrison(r, 60); msg != "" {
		t.Error(msg)
	}
}

func TestCheckFineDays_CP_art_49(t *testing.T) {
	for days, ok := range map[int]bool{9: false, 10: true, 360: true, 361: false} {
		if got := CheckFineDays(days) == ""; got != ok {
			t.Errorf("CheckFineDays(%d) ok = %v, want %v", days, got, ok)
		}
	}
}
