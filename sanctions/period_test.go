package sanctions_test

import (
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/sanctions"
)

// calendar2025 is the court calendar of cases/period_test.go: the clerk
// typed national holidays too (now built in) and Corpus Christi and
// Carnival (the court's own).
var calendar2025 = sanctions.Holidays{
	day("2025-04-18"): "Paixão de Cristo",
	day("2025-04-21"): "Tiradentes",
	day("2025-05-01"): "Dia do Trabalho",
	day("2025-06-19"): "Corpus Christi",
	day("2025-11-20"): "Consciência Negra",
	day("2025-12-25"): "Natal",
	day("2026-01-01"): "Confraternização Universal",
	day("2026-02-16"): "Carnaval",
	day("2026-02-17"): "Carnaval",
}

// Rules of the two kinds, as the law reads (copied from the contract, not
// from the code).
const (
	criminalRule = "Lei 9.099/1995, art. 82, § 1º (10 dias corridos); CPP, art. 798, §§ 1º e 3º; Súmula 310 do STF"
	civilRule    = "CPC, arts. 1.003, § 5º, e 219 (15 dias úteis), 220 (suspensão de 20/12 a 20/01) e 224; Lei 7.347/1985, art. 19"
	recessRule   = "; prazo suspenso de 20/12 a 20/01 (CPP, art. 798-A, aplicado ao JECRIM pela Lei 9.099/1995, art. 92)"
	recessWhy    = "recesso: prazos penais suspensos de 20 de dezembro a 20 de janeiro (CPP, art. 798-A, aplicado ao JECRIM pela Lei 9.099/1995, art. 92)"
)

func count(t *testing.T, in sanctions.PeriodInput) sanctions.Period {
	t.Helper()
	p, err := sanctions.CountPeriod(in)
	if err != nil {
		t.Fatalf("CountPeriod(%+v): %v", in, err)
	}
	return p
}

// span lists the days from a to b, both included, as "2025-12-20,...".
func span(a, b string) string {
	var out []string
	for d := day(a); !d.After(day(b)); d = d.AddDays(1) {
		out = append(out, d.String())
	}
	return strings.Join(out, ",")
}

// join joins lists of days written as span does.
func join(parts ...string) string { return strings.Join(parts, ",") }

func skippedList(p sanctions.Period) string {
	var out []string
	for _, s := range p.Skipped {
		out = append(out, s.Date.String())
	}
	return strings.Join(out, ",")
}

// window is an expected count: the notice as counted, the first and the
// last day, and the days skipped in order.
type window struct{ counted, first, last, skipped string }

func (w window) check(t *testing.T, p sanctions.Period) {
	t.Helper()
	if p.CountedFrom.String() != w.counted || p.FirstDay.String() != w.first || p.LastDay.String() != w.last {
		t.Errorf("notice %s: counted %s first %s last %s, want %s %s %s", p.NotifiedOn, p.CountedFrom, p.FirstDay, p.LastDay, w.counted, w.first, w.last)
	}
	if got := skippedList(p); got != w.skipped {
		t.Errorf("notice %s: skipped\n %s\nwant\n %s", p.NotifiedOn, got, w.skipped)
	}
	for _, s := range p.Skipped {
		if s.Why == "" {
			t.Errorf("skipped %s without a reason", s.Date)
		}
	}
}

// The expectations of cases/period_test.go, reproduced: CPP art. 798,
// § 1º, with Súmula 310 do STF (a Friday notice starts the period on
// Monday), Lei 9.099/1995, art. 82, § 1º (10 running days), § 3º (a last
// day without business moves to the next working day). The Christmas eve
// row runs without the recess (CPP art. 798-A, I: a defendant in custody),
// as the old count did; its suspended count is in
// TestCountPeriod_CPP798A_RecessSuspendsCriminalWindow.
func TestCountPeriod_Lei9099_art82_sec1_CPP798_sec1_sec3_Sumula310(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, notified string
		exc            sanctions.RecessException
		want           window
	}{
		// Tue 03/06: Wed 04/06 + 9 = Fri 13/06.
		{"Tuesday: Wednesday to the next Friday", "2025-06-03", "", window{"2025-06-03", "2025-06-04", "2025-06-13", ""}},
		// Fri 06/06: Sat, Sun skipped, Mon 09/06 + 9 = Wed 18/06.
		{"Friday (Súmula 310): starts on Monday", "2025-06-06", "", window{"2025-06-06", "2025-06-09", "2025-06-18", "2025-06-07,2025-06-08"}},
		// Thu 17/04: Good Friday 18, Sat, Sun, Tiradentes 21; Tue 22/04 + 9 =
		// Thu 01/05, Dia do Trabalho: Fri 02/05.
		{"Thursday before Good Friday: starts on the Tuesday after Tiradentes", "2025-04-17", "",
			window{"2025-04-17", "2025-04-22", "2025-05-02", "2025-04-18,2025-04-19,2025-04-20,2025-04-21,2025-05-01"}},
		// Sat 07/06 counts as Mon 09/06: Tue 10/06 + 9 = Thu 19/06, Corpus
		// Christi (court): Fri 20/06.
		{"Saturday notice counts as made on Monday: starts Tuesday", "2025-06-07", "",
			window{"2025-06-09", "2025-06-10", "2025-06-20", "2025-06-07,2025-06-08,2025-06-19"}},
		// Wed 04/06: Thu 05/06 + 9 = Sat 14/06: Mon 16/06.
		{"ends on Saturday: Monday (§ 3º)", "2025-06-04", "", window{"2025-06-04", "2025-06-05", "2025-06-16", "2025-06-14,2025-06-15"}},
		// Mon 09/06: Tue 10/06 + 9 = Thu 19/06 Corpus Christi: Fri 20/06.
		{"ends on a holiday: next day (§ 3º)", "2025-06-09", "", window{"2025-06-09", "2025-06-10", "2025-06-20", "2025-06-19"}},
		// Wed 24/12: Natal 25; Fri 26/12 + 9 = Sun 04/01: Mon 05/01 (01/01
		// is run through).
		{"Christmas eve notice, defendant in custody", "2025-12-24", sanctions.RecessCustody,
			window{"2025-12-24", "2025-12-26", "2026-01-05", "2025-12-25,2026-01-04"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := count(t, sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: day(tc.notified), Court: calendar2025, Exception: tc.exc})
			tc.want.check(t, p)
			if p.Days != 10 || p.WorkingDays || !strings.HasPrefix(p.Rule, criminalRule) || p.Kind != sanctions.KindCriminalAppeal {
				t.Errorf("days %d working %v rule %q", p.Days, p.WorkingDays, p.Rule)
			}
		})
	}
	// The holiday's name is the reason given.
	p := count(t, sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: day("2025-06-09"), Court: calendar2025})
	if len(p.Skipped) != 1 || p.Skipped[0].Why != "feriado do juizado: Corpus Christi" || p.Rule != criminalRule {
		t.Errorf("skipped %+v rule %q", p.Skipped, p.Rule)
	}
}

// Lei 662/1949 as worded by Lei 10.607/2002, and Good Friday: built in, a
// court with no calendar of its own skips them; the reason names the
// holiday and its law.
func TestCountPeriod_Lei662_Lei10607_NationalHolidaysBuiltIn(t *testing.T) {
	t.Parallel()
	// Thu 17/04/2025, as above, with no court calendar.
	p := count(t, sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: day("2025-04-17")})
	window{"2025-04-17", "2025-04-22", "2025-05-02", "2025-04-18,2025-04-19,2025-04-20,2025-04-21,2025-05-01"}.check(t, p)
	want := []string{
		"feriado nacional: Sexta-feira da Paixão (Lei 9.093/1995, art. 2º; observada por todos os tribunais)",
		"sábado", "domingo",
		"feriado nacional: Tiradentes (Lei 662/1949, art. 1º, na redação da Lei 10.607/2002)",
		"feriado nacional: Dia do Trabalho (Lei 662/1949, art. 1º, na redação da Lei 10.607/2002)",
	}
	for i, s := range p.Skipped {
		if i < len(want) && s.Why != want[i] {
			t.Errorf("skipped %s why %q, want %q", s.Date, s.Why, want[i])
		}
	}
	// Good Friday 2026 is 03/04: Thu 02/04 starts on Mon 06/04 + 9 = Wed
	// 15/04.
	p = count(t, sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: day("2026-04-02")})
	window{"2026-04-02", "2026-04-06", "2026-04-15", "2026-04-03,2026-04-04,2026-04-05"}.check(t, p)
}

// Lei 14.759/2023: 20/11 is a holiday from 2024. Thu 09/11/2023: Fri 10/11
// + 9 = Sun 19/11, moved to Mon 20/11/2023, an ordinary day. Fri
// 08/11/2024: starts Mon 11/11 + 9 = Wed 20/11/2024, the holiday: Thu
// 21/11 (15/11 inside the window is run through).
func TestCountPeriod_Lei14759_ZumbiMovesTheLastDayFrom2024(t *testing.T) {
	t.Parallel()
	p := count(t, sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: day("2023-11-09")})
	window{"2023-11-09", "2023-11-10", "2023-11-20", "2023-11-19"}.check(t, p)
	p = count(t, sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: day("2024-11-08")})
	window{"2024-11-08", "2024-11-11", "2024-11-21", "2024-11-09,2024-11-10,2024-11-20"}.check(t, p)
	if last := p.Skipped[2].Why; !strings.Contains(last, "Dia Nacional de Zumbi e da Consciência Negra (Lei 14.759/2023") {
		t.Errorf("20/11/2024 skipped as %q", last)
	}
}

// CPP art. 798-A (Lei 14.365/2022), applied to the JECRIM by Lei
// 9.099/1995, art. 92: the criminal window is suspended from 20 December
// to 20 January inclusive. A window running on 20/12 pauses and resumes
// with the days left on the first working day from 21/01; a notice made
// in the recess counts on its own day (the courts sit), and the window it
// opens starts on the first working day after 20/01 ("suspende-se o curso
// do prazo"), as for a notice on the eve of the recess; a last day moved
// by § 3º into the recess moves past it.
func TestCountPeriod_CPP798A_RecessSuspendsCriminalWindow(t *testing.T) {
	t.Parallel()
	recess2025 := span("2025-12-20", "2026-01-20") // 32 days
	for _, tc := range []struct {
		name, notified string
		want           window
	}{
		// Mon 15/12/2025: Tue 16, 17, 18, 19 = 4 days; paused 20/12–20/01;
		// Wed 21/01 = 5th … Mon 26/01/2026 = 10th.
		{"notice 15/12: pauses on 20/12, resumes 21/01 with 6 days left", "2025-12-15", window{"2025-12-15", "2025-12-16", "2026-01-26", recess2025}},
		// Fri 19/12/2025: the next day is in the recess: starts Wed 21/01,
		// + 9 = Fri 30/01/2026.
		{"notice on the eve of the recess: starts 21/01", "2025-12-19", window{"2025-12-19", "2026-01-21", "2026-01-30", recess2025}},
		// Mon 05/01/2026 counts that day; the course is suspended until
		// 20/01: starts Wed 21/01, + 9 = Fri 30/01/2026.
		{"notice inside the recess: counts that day, starts 21/01", "2026-01-05",
			window{"2026-01-05", "2026-01-21", "2026-01-30", span("2026-01-06", "2026-01-20")}},
		// Wed 24/12/2025 counts that day: starts 21/01, same as above.
		{"Christmas eve notice", "2025-12-24",
			window{"2025-12-24", "2026-01-21", "2026-01-30", span("2025-12-25", "2026-01-20")}},
		// Mon 18/12/2023: Tue 19/12 = 1st; paused 20/12–20/01/2024; Sun
		// 21/01 has no business: resumes Mon 22/01 = 2nd … Tue 30/01/2024 =
		// 10th.
		{"resumption on a Sunday waits for Monday", "2023-12-18",
			window{"2023-12-18", "2023-12-19", "2024-01-30", join(span("2023-12-20", "2024-01-20"), "2024-01-21")}},
		// Wed 09/12/2026: Thu 10/12 + 9 = Sat 19/12: § 3º moves it to the
		// next working day, past Sunday 20/12 and the recess: Thu
		// 21/01/2027.
		{"last day on the Saturday before the recess moves past it", "2026-12-09",
			window{"2026-12-09", "2026-12-10", "2027-01-21", join("2026-12-19", span("2026-12-20", "2027-01-20"))}},
		// The first recess of the law: Thu 15/12/2022: Fri 16, Sat 17, Sun
		// 18, Mon 19 = 4 days; paused 20/12–20/01/2023; Sat 21 and Sun 22
		// have no business: Mon 23/01 = 5th … Sat 28/01 = 10th: Mon 30/01.
		{"first recess under Lei 14.365/2022", "2022-12-15",
			window{"2022-12-15", "2022-12-16", "2023-01-30", join(span("2022-12-20", "2023-01-20"), "2023-01-21,2023-01-22,2023-01-28,2023-01-29")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := count(t, sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: day(tc.notified), Party: sanctions.PartyDefendant})
			tc.want.check(t, p)
			if p.Days != 10 || p.Rule != criminalRule+recessRule {
				t.Errorf("days %d rule %q", p.Days, p.Rule)
			}
			for _, s := range p.Skipped {
				inRecess := (s.Date.Month == 12 && s.Date.Day >= 20) || (s.Date.Month == 1 && s.Date.Day <= 20)
				if inRecess != (s.Why == recessWhy) {
					t.Errorf("skipped %s as %q", s.Date, s.Why)
				}
			}
		})
	}
	// Christmas and New Year inside the recess are skipped as the recess.
	p := count(t, sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: day("2025-12-15"), Court: calendar2025})
	window{"2025-12-15", "2025-12-16", "2026-01-26", recess2025}.check(t, p)
	// The docket's text says why the window starts on 21/01.
	p = count(t, sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: day("2026-01-05")})
	if want := "prazo de recurso de 10 dias corridos, de 21/01/2026 a 30/01/2026 (" + criminalRule + recessRule +
		"); ciência em 05/01/2026, durante a suspensão dos prazos de 20/12 a 20/01: o prazo corre a partir de 21/01/2026"; p.Text() != want {
		t.Errorf("text\n %s\nwant\n %s", p.Text(), want)
	}
}

// CPP art. 798-A, I to III: with an exception the window runs through the
// recess and the rule says which exception kept it running; CPP art. 2º:
// before Lei 14.365/2022 (in force 03/06/2022) there was no criminal
// recess.
func TestCountPeriod_CPP798A_I_II_III_ExceptionsRunThroughRecess(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		exc  sanctions.RecessException
		item string
	}{
		{sanctions.RecessCustody, "réu preso, no processo vinculado à prisão (CPP, art. 798-A, I)"},
		{sanctions.RecessMariaDaPenha, "Lei Maria da Penha (CPP, art. 798-A, II)"},
		{sanctions.RecessUrgent, "medida urgente reconhecida por despacho fundamentado (CPP, art. 798-A, III)"},
	} {
		// Mon 15/12/2025: Tue 16/12 + 9 = Thu 25/12, Natal: Fri 26/12.
		p := count(t, sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: day("2025-12-15"), Exception: tc.exc})
		window{"2025-12-15", "2025-12-16", "2025-12-26", "2025-12-25"}.check(t, p)
		if !strings.HasPrefix(p.Rule, criminalRule+"; sem suspensão no recesso de 20/12 a 20/01: ") || !strings.Contains(p.Rule, tc.item) {
			t.Errorf("%s: rule %q", tc.exc, p.Rule)
		}
	}
	// Outside the recess the exception changes nothing and is not cited.
	p := count(t, sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: day("2025-06-03"), Exception: sanctions.RecessCustody})
	if p.LastDay.String() != "2025-06-13" || p.Rule != criminalRule {
		t.Errorf("June with an exception: %s %q", p.LastDay, p.Rule)
	}
	// Wed 15/12/2021: Thu 16/12 + 9 = Sat 25/12: Mon 27/12/2021, no recess.
	p = count(t, sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: day("2021-12-15")})
	window{"2021-12-15", "2021-12-16", "2021-12-27", "2021-12-25,2021-12-26"}.check(t, p)
	if p.Rule != criminalRule || p.Skipped[0].Why != "sábado" {
		t.Errorf("2021: rule %q skipped %+v", p.Rule, p.Skipped)
	}
}

// LC 80/1994, arts. 44, I, 89, I, and 128, I: the Defensoria Pública's
// window is doubled: 20 running days in the JECRIM; the defendant's own
// window and a private lawyer's are not.
func TestCountPeriod_LC80_art128_I_DefensoriaDoubledInJECRIM(t *testing.T) {
	t.Parallel()
	defensoria := sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: day("2025-06-03"), Court: calendar2025, Party: sanctions.PartyDefence, PublicDefender: true}
	// Tue 03/06/2025: Wed 04/06 + 19 = Mon 23/06 (Corpus Christi 19/06 run
	// through).
	p := count(t, defensoria)
	window{"2025-06-03", "2025-06-04", "2025-06-23", ""}.check(t, p)
	wantRule := criminalRule + "; prazo em dobro para a Defensoria Pública (LC 80/1994, arts. 44, I, 89, I, e 128, I): 20 dias corridos"
	if p.Days != 20 || p.WorkingDays || p.Rule != wantRule {
		t.Errorf("days %d rule %q", p.Days, p.Rule)
	}
	if want := "prazo de recurso de 20 dias corridos, de 04/06/2025 a 23/06/2025 (" + wantRule + ")"; p.Text() != want {
		t.Errorf("text %q", p.Text())
	}
	for _, party := range []sanctions.Party{sanctions.PartyDefence, sanctions.PartyDefendant, sanctions.PartyProsecution, sanctions.PartyUnstated} {
		p := count(t, sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: day("2025-06-03"), Party: party})
		if p.Days != 10 || p.LastDay.String() != "2025-06-13" || p.Rule != criminalRule {
			t.Errorf("%q: days %d last %s rule %q", party, p.Days, p.LastDay, p.Rule)
		}
	}
	// Across the recess: Mon 01/12/2025: Tue 02/12 = 1st … Fri 19/12 =
	// 18th; paused; Wed 21/01/2026 = 19th, Thu 22/01 = 20th.
	defensoria.NotifiedOn = day("2025-12-01")
	p = count(t, defensoria)
	window{"2025-12-01", "2025-12-02", "2026-01-22", span("2025-12-20", "2026-01-20")}.check(t, p)
	if !strings.HasSuffix(p.Rule, "20 dias corridos"+recessRule) {
		t.Errorf("rule %q", p.Rule)
	}
}

// LC 80/1994, art. 128, I, in the JECRIM, an open point: the court's
// setting turns the Defensoria's doubling off, and the rule says so; in a
// civil case it stays doubled (CPC art. 186).
func TestCountPeriod_LC80_art128_I_CourtSettingTurnsDoublingOffInJECRIM(t *testing.T) {
	t.Parallel()
	in := sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: day("2025-06-03"), Party: sanctions.PartyDefence, PublicDefender: true, NoJECRIMDefensoriaDoubling: true}
	// Tue 03/06/2025: Wed 04/06 + 9 = Fri 13/06.
	p := count(t, in)
	window{"2025-06-03", "2025-06-04", "2025-06-13", ""}.check(t, p)
	want := criminalRule + "; sem o prazo em dobro da Defensoria Pública (LC 80/1994, arts. 44, I, 89, I, e 128, I), afastado no JECRIM pela configuração do juizado: 10 dias corridos"
	if p.Days != 10 || p.Rule != want {
		t.Errorf("days %d rule %q", p.Days, p.Rule)
	}
	// The setting is the JECRIM's: a civil window of the Defensoria is 30
	// working days (the count is in TestCountPeriod_CPC180_CPC186_...).
	in.Kind = sanctions.KindCivilAppeal
	if p := count(t, in); p.Days != 30 || !strings.Contains(p.Rule, "CPC, art. 186") {
		t.Errorf("civil with the setting: days %d rule %q", p.Days, p.Rule)
	}
}

// The civil expectations of cases/period_test.go, reproduced: CPC arts.
// 1.003, § 5º, and 219: 15 working days; art. 220: no day from 20
// December to 20 January counts; art. 224: the count starts on the first
// working day after the notice.
func TestCountPeriod_CPC1003_sec5_CPC219_CPC220_CivilWorkingDays(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, notified, counted, first, last string }{
		// Mon 02/06/2025: 03–06 (4), 09–13 (9), 16–18 (12), 19 Corpus
		// Christi, 20 (13), 23 (14), 24 (15).
		{"Monday, Corpus Christi skipped", "2025-06-02", "2025-06-02", "2025-06-03", "2025-06-24"},
		{"across Corpus Christi", "2025-06-16", "2025-06-16", "2025-06-17", "2025-07-08"},
		{"across Good Friday, Tiradentes and 1 May", "2025-04-14", "2025-04-14", "2025-04-15", "2025-05-08"},
		{"Friday: starts Monday", "2025-06-06", "2025-06-06", "2025-06-09", "2025-06-30"},
		// 16–19/12 (4); 21–23/01 (7), 26–30/01 (12), 02–04/02 (15).
		{"before the recess: suspended 20/12–20/01 (art. 220)", "2025-12-15", "2025-12-15", "2025-12-16", "2026-02-04"},
		// 21–23/01 (3), 26–30/01 (8), 02–06/02 (13), 09–10/02 (15).
		{"notice during the recess counts that day, starts 21/01", "2026-01-05", "2026-01-05", "2026-01-21", "2026-02-10"},
		{"across Carnaval", "2026-02-09", "2026-02-09", "2026-02-10", "2026-03-04"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := count(t, sanctions.PeriodInput{Kind: sanctions.KindCivilAppeal, NotifiedOn: day(tc.notified), Court: calendar2025})
			if p.CountedFrom.String() != tc.counted || p.FirstDay.String() != tc.first || p.LastDay.String() != tc.last {
				t.Errorf("%s: counted %s first %s last %s, want %s %s %s", tc.notified, p.CountedFrom, p.FirstDay, p.LastDay, tc.counted, tc.first, tc.last)
			}
			if p.Days != 15 || !p.WorkingDays || p.Rule != civilRule {
				t.Errorf("days %d working %v rule %q", p.Days, p.WorkingDays, p.Rule)
			}
			if n := countedBetween(p); n != 15 {
				t.Errorf("%d working days counted between %s and %s, want 15", n, p.FirstDay, p.LastDay)
			}
		})
	}
	p := count(t, sanctions.PeriodInput{Kind: sanctions.KindCivilAppeal, NotifiedOn: day("2025-12-15")})
	found := false
	for _, s := range p.Skipped {
		if s.Date.String() == "2026-01-10" && s.Why == "suspensão dos prazos de 20 de dezembro a 20 de janeiro (CPC, art. 220)" {
			found = true
		}
	}
	if !found {
		t.Errorf("recess day not skipped with CPC art. 220: %+v", p.Skipped)
	}
}

// countedBetween is the number of days from the first to the last day that
// the count did not skip.
func countedBetween(p sanctions.Period) int {
	skipped := map[civil.Date]bool{}
	for _, s := range p.Skipped {
		skipped[s.Date] = true
	}
	n := 0
	for d := p.FirstDay; !d.After(p.LastDay); d = d.AddDays(1) {
		if !skipped[d] {
			n++
		}
	}
	return n
}

// CPC art. 180: the prosecution's civil window is doubled, 30 working
// days; CPC art. 186 and LC 80/1994: the Defensoria's too; the group's
// own window stays 15.
func TestCountPeriod_CPC180_CPC186_CivilProsecutionAndDefensoria30WorkingDays(t *testing.T) {
	t.Parallel()
	// Mon 02/06/2025 with Corpus Christi (court): the 15th is Tue 24/06;
	// then 25, 26, 27, 30/06, 01–04/07, 07–11/07, 14/07 (29), Tue 15/07 =
	// 30th. Without the court's calendar Corpus Christi counts: Mon 14/07.
	for _, tc := range []struct {
		name      string
		in        sanctions.PeriodInput
		last, law string
	}{
		{"prosecution", sanctions.PeriodInput{Party: sanctions.PartyProsecution, Court: calendar2025}, "2025-07-15",
			"; prazo em dobro para o Ministério Público (CPC, art. 180): 30 dias úteis"},
		{"prosecution, no court calendar", sanctions.PeriodInput{Party: sanctions.PartyProsecution}, "2025-07-14",
			"; prazo em dobro para o Ministério Público (CPC, art. 180): 30 dias úteis"},
		{"Defensoria", sanctions.PeriodInput{Party: sanctions.PartyDefence, PublicDefender: true, Court: calendar2025}, "2025-07-15",
			"; prazo em dobro para a Defensoria Pública (CPC, art. 186; LC 80/1994, arts. 44, I, 89, I, e 128, I): 30 dias úteis"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.in.Kind, tc.in.NotifiedOn = sanctions.KindCivilAppeal, day("2025-06-02")
			p := count(t, tc.in)
			if p.FirstDay.String() != "2025-06-03" || p.LastDay.String() != tc.last || p.Days != 30 || !p.WorkingDays || p.Rule != civilRule+tc.law {
				t.Errorf("first %s last %s days %d rule %q, want last %s", p.FirstDay, p.LastDay, p.Days, p.Rule, tc.last)
			}
			if n := countedBetween(p); n != 30 {
				t.Errorf("%d working days counted, want 30", n)
			}
		})
	}
	for _, party := range []sanctions.Party{sanctions.PartyDefendant, sanctions.PartyDefence} {
		p := count(t, sanctions.PeriodInput{Kind: sanctions.KindCivilAppeal, NotifiedOn: day("2025-06-02"), Court: calendar2025, Party: party})
		if p.Days != 15 || p.LastDay.String() != "2025-06-24" || p.Rule != civilRule {
			t.Errorf("%s: days %d last %s rule %q", party, p.Days, p.LastDay, p.Rule)
		}
	}
	// The prosecution across the recess: Mon 15/12/2025: 16–19/12 (4),
	// 21–23/01 (7), 26–30/01 (12), 02–06/02 (17), 09–13/02 (22), 16, 17/02
	// Carnaval (court), 18–20/02 (25), 23–27/02 (30): Fri 27/02/2026.
	p := count(t, sanctions.PeriodInput{Kind: sanctions.KindCivilAppeal, NotifiedOn: day("2025-12-15"), Court: calendar2025, Party: sanctions.PartyProsecution})
	if p.LastDay.String() != "2026-02-27" {
		t.Errorf("prosecution across the recess: last %s, want 2026-02-27", p.LastDay)
	}
}

// Inputs CountPeriod refuses, each errs.Invalid naming its field.
func TestCountPeriod_InvalidInput(t *testing.T) {
	t.Parallel()
	allDays := sanctions.Holidays{}
	for d := day("2025-06-01"); d.Before(day("2027-01-01")); d = d.AddDays(1) {
		allDays[d] = "greve"
	}
	on := day("2025-06-03")
	for _, tc := range []struct {
		in    sanctions.PeriodInput
		field string
	}{
		{sanctions.PeriodInput{Kind: "appeal", NotifiedOn: on}, "kind"},
		{sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: day("1999-12-31")}, "notified_on"},
		{sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal}, "notified_on"},
		{sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: on, Party: "judge"}, "party"},
		{sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: on, Party: sanctions.PartyProsecution, PublicDefender: true}, "public_defender"},
		{sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: on, PublicDefender: true}, "public_defender"},
		{sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: on, Exception: "preso"}, "recess_exception"},
		{sanctions.PeriodInput{Kind: sanctions.KindCivilAppeal, NotifiedOn: on, Exception: sanctions.RecessUrgent}, "recess_exception"},
		{sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: on, Court: allDays}, "notified_on"},
	} {
		_, err := sanctions.CountPeriod(tc.in)
		invalidOn(t, err, tc.field)
	}
}

// The table of cases/calendar's TestDeadline_Lei9099_art82_sec1_CPP_art798
// (Lei 9.099/1995, art. 82, § 1º; CPP art. 798, §§ 1º and 3º), moved here
// when cases/calendar began to count with CountPeriod: the court's
// calendar holds Corpus Christi alone, the national holidays (Good Friday,
// Tiradentes, 20 November, 1 January) are built in. The two year-end rows
// keep their old days with a defendant in custody (CPP art. 798-A, I);
// without the exception the recess suspends them (DOMAIN.md § 4 changed).
func TestCountPeriod_Lei9099_art82_sec1_CPP798_LastDayTable(t *testing.T) {
	t.Parallel()
	court := sanctions.Holidays{day("2025-06-19"): "Corpus Christi"}
	for _, tc := range []struct {
		name, notified string
		exc            sanctions.RecessException
		want           string
	}{
		{"weekday to weekday", "2025-06-02", "", "2025-06-12"},
		{"ends on Saturday: Monday", "2025-06-04", "", "2025-06-16"},
		{"ends on Sunday: Monday", "2025-06-05", "", "2025-06-16"},
		{"notified on Friday: the count starts on Monday (Súmula 310 STF)", "2025-06-06", "", "2025-06-18"},
		{"ends on a holiday: next day", "2025-06-09", "", "2025-06-20"},
		{"holiday, weekend and holiday again", "2025-04-08", "", "2025-04-22"},
		{"Consciência Negra", "2025-11-10", "", "2025-11-21"},
		{"year end: 1 January, in custody", "2025-12-22", sanctions.RecessCustody, "2026-01-02"},
		{"year end: Friday 26/12, in custody, starts Monday 29/12", "2025-12-26", sanctions.RecessCustody, "2026-01-07"},
		// In the recess: counts on Monday 22/12; the course resumes on
		// Wednesday 21/01 + 9 = Friday 30/01.
		{"year end: suspended (CPP art. 798-A)", "2025-12-22", "", "2026-01-30"},
		{"leap year", "2024-02-19", "", "2024-02-29"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := count(t, sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: day(tc.notified), Court: court, Exception: tc.exc})
			if p.LastDay.String() != tc.want {
				t.Errorf("last day of %s = %s, want %s", tc.notified, p.LastDay, tc.want)
			}
		})
	}
	// Without the court's calendar Corpus Christi is a working day.
	if p := count(t, sanctions.PeriodInput{Kind: sanctions.KindCriminalAppeal, NotifiedOn: day("2025-06-09")}); p.LastDay.String() != "2025-06-19" {
		t.Errorf("without the court's calendar: %s, want 2025-06-19", p.LastDay)
	}
}

// Lei 9.099/1995, art. 83, § 1º: embargos de declaração in the JECRIM within
// 5 running days of the notice, counted as the appeal is (a Friday notice
// starts it on Monday: CPP art. 798, § 1º; Súmula 310 do STF), the
// Defensoria's doubled; CPC art. 1.023: 5 working days in a civil case
// (CPC art. 219), doubled for the prosecution (CPC art. 180) and the
// Defensoria (CPC art. 186).
func TestCountPeriod_Embargos_Lei9099Art83Par1_CPC1023(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    sanctions.PeriodInput
		days  int
		last  string
		rules []string
	}{
		{"criminal, friday", sanctions.PeriodInput{Kind: sanctions.KindCriminalEmbargos, NotifiedOn: day("2025-06-06"), Party: sanctions.PartyDefence}, 5, "2025-06-13", []string{"Lei 9.099/1995, art. 83, § 1º"}},
		{"criminal, defensoria", sanctions.PeriodInput{Kind: sanctions.KindCriminalEmbargos, NotifiedOn: day("2025-06-06"), Party: sanctions.PartyDefence, PublicDefender: true}, 10, "2025-06-18", []string{"art. 83, § 1º", "Defensoria"}},
		{"criminal, prosecution not doubled", sanctions.PeriodInput{Kind: sanctions.KindCriminalEmbargos, NotifiedOn: day("2025-06-06"), Party: sanctions.PartyProsecution}, 5, "2025-06-13", nil},
		{"civil, defendant", sanctions.PeriodInput{Kind: sanctions.KindCivilEmbargos, NotifiedOn: day("2025-06-23"), Party: sanctions.PartyDefendant}, 5, "2025-06-30", []string{"CPC, arts. 1.023"}},
		{"civil, prosecution", sanctions.PeriodInput{Kind: sanctions.KindCivilEmbargos, NotifiedOn: day("2025-06-23"), Party: sanctions.PartyProsecution}, 10, "2025-07-07", []string{"CPC, art. 180): 10 dias úteis"}},
		{"civil, defensoria", sanctions.PeriodInput{Kind: sanctions.KindCivilEmbargos, NotifiedOn: day("2025-06-23"), Party: sanctions.PartyDefence, PublicDefender: true}, 10, "2025-07-07", []string{"CPC, art. 186"}},
		// CF art. 102, III; CPC art. 1.003, § 5º: against the Turma's judgment, 15 running days in the JECRIM.
		{"criminal, against the Turma's judgment", sanctions.PeriodInput{Kind: sanctions.KindCriminalExtraordinary, NotifiedOn: day("2025-06-06"), Party: sanctions.PartyDefendant}, 15, "2025-06-23", []string{"CF, art. 102, III", "CPC, art. 1.003, § 5º"}},
	} {
		p := count(t, tc.in)
		if p.Days != tc.days || p.LastDay.String() != tc.last {
			t.Errorf("%s: %d days to %s, want %d to %s", tc.name, p.Days, p.LastDay, tc.days, tc.last)
		}
		for _, r := range tc.rules {
			if !strings.Contains(p.Rule, r) {
				t.Errorf("%s: rule %q lacks %q", tc.name, p.Rule, r)
			}
		}
		if tc.in.Kind != sanctions.KindCriminalExtraordinary && !strings.Contains(p.Text(), "prazo de embargos de declaração de") {
			t.Errorf("%s: text %q", tc.name, p.Text())
		}
	}
}
