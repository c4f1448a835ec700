package sanctions_test

import (
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/sanctions"
)

// bornOn returns a birth date for PrescriptionInput.BirthDate.
func bornOn(s string) *civil.Date { b := day(s); return &b }

// receipt and conviction are the interruptions of CP art. 117, I and IV.
func receipt(s string) sanctions.Interruption {
	return sanctions.Interruption{Kind: sanctions.InterruptReceipt, On: day(s)}
}

func conviction(s string) sanctions.Interruption {
	return sanctions.Interruption{Kind: sanctions.InterruptConviction, On: day(s)}
}

// prescribe counts in, failing the test on an error.
func prescribe(t *testing.T, in sanctions.PrescriptionInput) sanctions.Prescription {
	t.Helper()
	p, err := sanctions.PrescriptionOf(in)
	if err != nil {
		t.Fatalf("PrescriptionOf: %v", err)
	}
	return p
}

// wantText fails unless s holds every part.
func wantText(t *testing.T, what, s string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(s, p) {
			t.Errorf("%s lacks %q: %q", what, p, s)
		}
	}
}

// CP art. 109 (as worded by Lei 12.234/2010): the period by the maximum
// penalty; art. 115: halved. The table of cases/prescription_test.go.
func TestPrescription_CP109_CP115_Table(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		max    int
		halved bool
		months int
	}{
		{11, false, 36}, {24, false, 48}, {36, false, 96}, {48, false, 96}, {72, false, 144}, {60, false, 144}, {24, true, 24}, {48, true, 48},
		{96, false, 144}, {97, false, 192}, {144, false, 192}, {145, false, 240},
	} {
		if got := sanctions.PrescriptionMonths(tc.max, tc.halved); got != tc.months {
			t.Errorf("PrescriptionMonths(%d, %v) = %d, want %d", tc.max, tc.halved, got, tc.months)
		}
	}
}

// CP art. 109, VI: 3 years since Lei 12.234/2010 (in force on 06/05/2010);
// facts of the day before keep the former 2 years (CF, art. 5º, XL).
func TestPrescription_CP109VI_Lei12234NotRetroactive(t *testing.T) {
	t.Parallel()
	before := prescribe(t, sanctions.PrescriptionInput{MaxMonths: 6, FactsOn: day("2010-05-05"), Today: day("2010-06-01")})
	after := prescribe(t, sanctions.PrescriptionInput{MaxMonths: 6, FactsOn: day("2010-05-06"), Today: day("2010-06-01")})
	if before.Months != 24 || after.Months != 36 {
		t.Errorf("months before/after Lei 12.234 = %d/%d, want 24/36", before.Months, after.Months)
	}
	// 05/05/2010 + 2 years: the same day-number is 05/05/2012, so the last
	// day is 04/05/2012 (CP art. 10).
	if got := before.NextLastDay; got != day("2012-05-04") {
		t.Errorf("last day = %s, want 2012-05-04", got)
	}
	wantText(t, "text", before.Text, "VI, na redação anterior à Lei 12.234/2010")
}

// The expectations of cases/prescription_test.go (PrescriptionWarning),
// through PrescriptionOf: the sentence argument there is today here.
func TestPrescription_CP109_CP115_CP117_FormerWarnings(t *testing.T) {
	t.Parallel()
	facts := day("2021-03-30")
	adult, young, old := bornOn("1990-01-01"), bornOn("2001-01-01"), bornOn("1953-01-01")
	warn := func(max int, rec string, today string, birth *civil.Date) string {
		in := sanctions.PrescriptionInput{MaxMonths: max, FactsOn: facts, BirthDate: birth, Today: day(today)}
		if rec != "" {
			in.Interruptions = []sanctions.Interruption{receipt(rec)}
		}
		return prescribe(t, in).Warning
	}
	// 24 months (art. 201 caput): 4 years from 30/03/2021; the same
	// day-number is 30/03/2025, so the last day is 29/03/2025.
	wantText(t, "adult at 4 years", warn(24, "", "2025-03-30", adult), "4 anos", "terminou em 29/03/2025")
	if w := warn(24, "", "2023-06-01", adult); w != "" {
		t.Errorf("adult at 2 years: %q", w)
	}
	wantText(t, "under 21", warn(24, "", "2023-06-01", young), "2 anos", "art. 115", "menor de 21")
	wantText(t, "over 70", warn(24, "", "2023-06-01", old), "maior de 70")
	if w := warn(72, "", "2025-03-30", adult); w != "" {
		t.Errorf("72 months at 4 years: %q", w)
	}
	// Received on 10/01/2022: the span to it ran 9 months; from it, 4 years
	// end on 09/01/2026, warned from 6 months before (09/07/2025).
	if w := warn(24, "2022-01-10", "2025-03-30", adult); w != "" {
		t.Errorf("counted from the receipt: %q", w)
	}
	wantText(t, "from the receipt, near its end", warn(24, "2022-01-10", "2025-12-01", adult), "recebimento da denúncia", "termina em 09/01/2026")
}

// CP arts. 109 and 117, I: the span from the facts ran out before the
// receipt of the accusation; the later receipt cannot revive the claim.
func TestPrescription_CP117I_SpanRunOutBeforeReceiptStaysRunOut(t *testing.T) {
	t.Parallel()
	// Facts 10/03/2019, 4 years (max 24 months): the same day-number is
	// 10/03/2023, the last day 09/03/2023; received on 02/05/2023.
	p := prescribe(t, sanctions.PrescriptionInput{MaxMonths: 24, FactsOn: day("2019-03-10"), BirthDate: bornOn("1980-01-01"),
		Interruptions: []sanctions.Interruption{receipt("2023-05-02")}, Today: day("2024-01-15")})
	if !p.Prescribed || p.PrescribedOn != day("2023-03-09") || p.PrescribedSpan != 0 {
		t.Fatalf("prescribed %v on %s in span %d, want true on 2023-03-09 in span 0", p.Prescribed, p.PrescribedOn, p.PrescribedSpan)
	}
	if len(p.Spans) != 2 || !p.Spans[0].RanOut || p.Spans[0].UntilMark != sanctions.MarkReceipt {
		t.Fatalf("spans %+v", p.Spans)
	}
	// From the receipt, 02/05/2023 + 4 years: last day 01/05/2027, not run
	// out — the claim is extinct all the same.
	if s := p.Spans[1]; s.LastDay != day("2027-05-01") || s.RanOut {
		t.Errorf("span from the receipt %+v", s)
	}
	if !p.NextLastDay.IsZero() {
		t.Errorf("next last day %s of a prescribed claim", p.NextLastDay)
	}
	wantText(t, "warning", p.Warning, "terminou em 09/03/2023", "antes da interrupção", "não a restaura")
	if strings.Contains(p.Warning, "01/05/2027") {
		t.Errorf("the warning counts on after the claim prescribed: %q", p.Warning)
	}
}

// CP art. 117, I: a receipt on the period's last day comes in time (the
// last day is still inside the period, CP art. 10).
func TestPrescription_CP117I_ReceiptOnLastDayInTime(t *testing.T) {
	t.Parallel()
	p := prescribe(t, sanctions.PrescriptionInput{MaxMonths: 24, FactsOn: day("2019-03-10"),
		Interruptions: []sanctions.Interruption{receipt("2023-03-09")}, Today: day("2024-01-15")})
	// From 09/03/2023, 4 years: last day 08/03/2027.
	if p.Prescribed || p.Spans[0].RanOut || p.NextLastDay != day("2027-03-08") {
		t.Errorf("prescribed %v, span 0 %+v, next %s; want in time, next 2027-03-08", p.Prescribed, p.Spans[0], p.NextLastDay)
	}
	wantText(t, "text", p.Text, "terminaria em 09/03/2023: interrompido a tempo")
	if p.Warning != "" {
		t.Errorf("warning 3 years before the end: %q", p.Warning)
	}
}

// CP art. 117, IV: the conviction interrupts again; after it, the period
// follows the penalty imposed once final for the prosecution (art. 110,
// § 1º), which the text says.
func TestPrescription_CP117IV_ConvictionInterrupts(t *testing.T) {
	t.Parallel()
	in := sanctions.PrescriptionInput{MaxMonths: 24, FactsOn: day("2020-01-10"),
		Interruptions: []sanctions.Interruption{conviction("2024-12-20"), receipt("2021-02-01")}, Today: day("2026-06-01")}
	p := prescribe(t, in)
	// Facts 10/01/2020 → last day 09/01/2024, received 01/02/2021 in time;
	// from 01/02/2021 → 31/01/2025, convicted 20/12/2024 in time; from
	// 20/12/2024 → 19/12/2028.
	want := []string{"2024-01-09", "2025-01-31", "2028-12-19"}
	if len(p.Spans) != 3 {
		t.Fatalf("spans %+v", p.Spans)
	}
	for i, w := range want {
		if p.Spans[i].LastDay != day(w) || p.Spans[i].RanOut {
			t.Errorf("span %d: %+v, want last day %s, in time", i, p.Spans[i], w)
		}
	}
	if p.Prescribed || p.NextLastDay != day("2028-12-19") || p.Warning != "" {
		t.Errorf("prescribed %v next %s warning %q", p.Prescribed, p.NextLastDay, p.Warning)
	}
	wantText(t, "text", p.Text, "CP, art. 117, IV", "CP, art. 110, § 1º")
	// Without the conviction the span from the receipt ran out on
	// 31/01/2025, before today.
	in.Interruptions = in.Interruptions[1:]
	p = prescribe(t, in)
	if !p.Prescribed || p.PrescribedOn != day("2025-01-31") || p.PrescribedSpan != 1 {
		t.Errorf("without the conviction: prescribed %v on %s span %d", p.Prescribed, p.PrescribedOn, p.PrescribedSpan)
	}
}

// Lei 9.099/1995, art. 89, § 6º: the prescription does not run during the
// conditional suspension; the suspended days are added to the period.
func TestPrescription_Lei9099Art89Par6_SuspensionNotCounted(t *testing.T) {
	t.Parallel()
	in := sanctions.PrescriptionInput{MaxMonths: 24, FactsOn: day("2021-03-30"), BirthDate: bornOn("1990-01-01"),
		Interruptions: []sanctions.Interruption{receipt("2021-09-15")},
		Suspensions:   []sanctions.PrescriptionSuspension{{Ground: sanctions.SuspendConditional, From: day("2021-09-15"), To: day("2023-09-14")}},
		Today:         day("2025-10-01")}
	p := prescribe(t, in)
	// Received 15/09/2021: 4 years end on 14/09/2025. Suspended 15/09/2021
	// to 14/09/2023, both included: 365 + 365 = 730 days (no 29 February
	// between). 14/09/2025 + 730 days = 14/09/2027 (no 29 February between).
	s := p.Spans[1]
	if s.SuspendedDays != 730 || s.LastDay != day("2027-09-14") || p.Prescribed {
		t.Fatalf("span %+v prescribed %v; want 730 days, last day 2027-09-14", s, p.Prescribed)
	}
	// Warned from 42 months after the receipt, 14/03/2025, + 730 days =
	// 14/03/2027: on 01/10/2025 no warning, on 01/06/2027 one.
	if p.Warning != "" {
		t.Errorf("warning on 01/10/2025: %q", p.Warning)
	}
	in.Today = day("2027-06-01")
	wantText(t, "warning on 01/06/2027", prescribe(t, in).Warning, "acrescidos 730 dias", "Lei 9.099/1995, art. 89, § 6º", "termina em 14/09/2027")
	// Without the suspension, the same span ran out on 14/09/2025.
	in.Suspensions, in.Today = nil, day("2025-10-01")
	if p := prescribe(t, in); !p.Prescribed || p.PrescribedOn != day("2025-09-14") {
		t.Errorf("without the suspension: %v on %s", p.Prescribed, p.PrescribedOn)
	}
}

// Lei 9.099/1995, art. 89, § 6º: a suspension still running with no end
// known stops the count: no last day, no warning.
func TestPrescription_Lei9099Art89Par6_OngoingSuspensionStops(t *testing.T) {
	t.Parallel()
	p := prescribe(t, sanctions.PrescriptionInput{MaxMonths: 24, FactsOn: day("2021-03-30"),
		Interruptions: []sanctions.Interruption{receipt("2021-09-15")},
		Suspensions:   []sanctions.PrescriptionSuspension{{Ground: sanctions.SuspendConditional, From: day("2021-09-15")}},
		Today:         day("2026-10-01")})
	s := p.Spans[1]
	if !s.Suspended || !s.LastDay.IsZero() || p.Prescribed || !p.NextLastDay.IsZero() || p.Warning != "" {
		t.Errorf("span %+v prescribed %v next %s warning %q", s, p.Prescribed, p.NextLastDay, p.Warning)
	}
	wantText(t, "text", p.Text, "suspensa", "art. 89, § 6º")
}

// CPP art. 366 with Súmula 415 do STJ: the suspension for a defendant
// summoned by edict lasts at most the period of CP art. 109.
func TestPrescription_CPP366_Sumula415STJ_SuspensionCapped(t *testing.T) {
	t.Parallel()
	p := prescribe(t, sanctions.PrescriptionInput{MaxMonths: 24, FactsOn: day("2021-01-05"),
		Interruptions: []sanctions.Interruption{receipt("2021-12-01")},
		Suspensions:   []sanctions.PrescriptionSuspension{{Ground: sanctions.SuspendEdict, From: day("2022-01-10")}},
		Today:         day("2026-03-01")})
	// Suspended from 10/01/2022 for 4 years: to 09/01/2026, 4 × 365 + 1
	// (29/02/2024) = 1461 days. From the receipt, 01/12/2021 + 4 years:
	// 30/11/2025, + 1461 days (29/02/2028 between) = 30/11/2029.
	s := p.Spans[1]
	if s.Suspended || s.SuspendedDays != 1461 || s.LastDay != day("2029-11-30") {
		t.Errorf("span %+v; want 1461 days, last day 2029-11-30", s)
	}
	wantText(t, "text", p.Text, "Súmula 415 do STJ")
}

// CF art. 5º, XLII: the crimes of Lei 7.716/1989 (racism; art. 20, § 2º-A
// and art. 2º-A, Lei 14.532/2023) are imprescriptible.
func TestPrescription_CF5XLII_Lei7716Imprescriptible(t *testing.T) {
	t.Parallel()
	rg, err := sanctions.BanRange(sanctions.Query{Subject: sanctions.Person, FactsDate: day("2024-05-12"), Conduct: []string{"racism"}})
	if err != nil {
		t.Fatal(err)
	}
	if !sanctions.IsImprescriptible(rg.Law) {
		t.Fatalf("IsImprescriptible(%q) = false", rg.Law)
	}
	caput, _ := sanctions.BanRange(sanctions.Query{Subject: sanctions.Person, FactsDate: day("2024-05-12"), Conduct: []string{"violence"}})
	if sanctions.IsImprescriptible(caput.Law) {
		t.Errorf("IsImprescriptible(%q) = true", caput.Law)
	}
	p := prescribe(t, sanctions.PrescriptionInput{MaxMonths: 60, Imprescriptible: true, Offence: "Racismo (art. 20, § 2º-A, da Lei 7.716/1989)",
		FactsOn: day("2023-02-01"), Interruptions: []sanctions.Interruption{receipt("2023-05-02")}, Today: day("2060-01-01")})
	if !p.Imprescriptible || p.Prescribed || len(p.Spans) != 0 || !p.NextLastDay.IsZero() {
		t.Errorf("imprescriptible %+v", p)
	}
	wantText(t, "warning", p.Warning, "Racismo (art. 20, § 2º-A, da Lei 7.716/1989)", "imprescritível", "CF, art. 5º, XLII")
}

// CP art. 115: over 70 on the day of the sentence, not on a later day; with
// no sentence yet, today stands for it.
func TestPrescription_CP115_Over70AtTheSentence(t *testing.T) {
	t.Parallel()
	in := sanctions.PrescriptionInput{MaxMonths: 24, FactsOn: day("2022-01-10"), BirthDate: bornOn("1955-06-01"),
		Interruptions: []sanctions.Interruption{receipt("2022-06-01"), conviction("2025-05-20")}, Today: day("2026-01-01")}
	// 70 on 01/06/2025: 69 at the sentence of 20/05/2025.
	if p := prescribe(t, in); p.Halved || p.Months != 48 {
		t.Errorf("69 at the sentence: halved %v months %d", p.Halved, p.Months)
	}
	in.Interruptions, in.Today = in.Interruptions[:1], day("2025-07-01")
	p := prescribe(t, in)
	if !p.Halved || p.Months != 24 {
		t.Fatalf("70 today, no sentence: halved %v months %d", p.Halved, p.Months)
	}
	// Halved: 2 years from the receipt of 01/06/2022, last day 31/05/2024:
	// prescribed before today.
	if !p.Prescribed || p.PrescribedOn != day("2024-05-31") {
		t.Errorf("prescribed %v on %s", p.Prescribed, p.PrescribedOn)
	}
	wantText(t, "warning", p.Warning, "maior de 70 anos na data de hoje")
}

// CP art. 115: a defendant 21 on the day of the facts is not under 21.
func TestPrescription_CP115_Twenty1OnTheFactsNotHalved(t *testing.T) {
	t.Parallel()
	if p := prescribe(t, sanctions.PrescriptionInput{MaxMonths: 24, FactsOn: day("2022-03-10"), BirthDate: bornOn("2001-03-10"), Today: day("2022-04-01")}); p.Halved {
		t.Errorf("21 on the day: halved (%s)", p.HalvedWhy)
	}
	if p := prescribe(t, sanctions.PrescriptionInput{MaxMonths: 24, FactsOn: day("2022-03-09"), BirthDate: bornOn("2001-03-10"), Today: day("2022-04-01")}); !p.Halved {
		t.Errorf("20 on the day: not halved")
	}
}

// ChargedMaxMonths: the maximum the former cases.chargedMaxMonths gave,
// by the article and the causes of increase at their highest (Lei
// 14.597/2023, art. 201, §§ 6º and 7º; art. 41-B; art. 39 of 2003; Lei
// 7.716/1989, art. 20, § 2º-A).
func TestPrescription_CP109_ChargedMaxMonths(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	for _, tc := range []struct {
		name  string
		q     sanctions.Query
		want  int
		wantB bool
	}{
		{"art. 201 caput", sanctions.Query{Subject: sanctions.Person, FactsDate: day("2024-05-12"), Conduct: []string{"violence"}}, 24, true},
		{"art. 201 § 6º", sanctions.Query{Subject: sanctions.Person, FactsDate: day("2024-05-12"), Conduct: []string{"violence"}, Organiser: &yes}, 36, true},
		{"art. 201 § 7º", sanctions.Query{Subject: sanctions.Person, FactsDate: day("2024-05-12"), Conduct: []string{"violence"}, Sec7: &yes, Organiser: &no}, 48, true},
		{"art. 201 §§ 6º e 7º", sanctions.Query{Subject: sanctions.Person, FactsDate: day("2024-05-12"), Conduct: []string{"violence"}, Sec7: &yes, Organiser: &yes}, 72, true},
		{"art. 41-B", sanctions.Query{Subject: sanctions.Person, FactsDate: day("2015-05-12")}, 24, true},
		{"art. 39 of 2003", sanctions.Query{Subject: sanctions.Person, FactsDate: day("2008-05-12")}, 12, true},
		{"Lei 7.716 art. 20 § 2º-A", sanctions.Query{Subject: sanctions.Person, FactsDate: day("2024-05-12"), Conduct: []string{"racism"}}, 60, true},
		{"group", sanctions.Query{Subject: sanctions.Group, FactsDate: day("2024-05-12")}, 0, false},
	} {
		rg, err := sanctions.BanRange(tc.q)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got, ok := sanctions.ChargedMaxMonths(rg); got != tc.want || ok != tc.wantB {
			t.Errorf("%s: ChargedMaxMonths = %d, %v; want %d, %v", tc.name, got, ok, tc.want, tc.wantB)
		}
	}
}

// Inputs PrescriptionOf refuses, each errs.Invalid naming its field.
func TestPrescription_InvalidInput(t *testing.T) {
	t.Parallel()
	base := func() sanctions.PrescriptionInput {
		return sanctions.PrescriptionInput{MaxMonths: 24, FactsOn: day("2019-06-01"), Today: day("2024-06-01")}
	}
	for _, tc := range []struct {
		name  string
		edit  func(*sanctions.PrescriptionInput)
		field string
	}{
		{"no maximum", func(in *sanctions.PrescriptionInput) { in.MaxMonths = 0 }, "max_months"},
		{"no facts", func(in *sanctions.PrescriptionInput) { in.FactsOn = civil.Date{} }, "facts_date"},
		{"today before the facts", func(in *sanctions.PrescriptionInput) { in.Today = day("2019-05-31") }, "today"},
		{"born after the facts", func(in *sanctions.PrescriptionInput) { in.BirthDate = bornOn("2019-07-01") }, "birth_date"},
		{"unknown interruption (CP 117 II is the jury's)", func(in *sanctions.PrescriptionInput) {
			in.Interruptions = []sanctions.Interruption{{Kind: "pronuncia", On: day("2020-01-01")}}
		}, "interruptions[0].kind"},
		{"interruption after today", func(in *sanctions.PrescriptionInput) {
			in.Interruptions = []sanctions.Interruption{receipt("2024-06-02")}
		}, "interruptions[0].on"},
		{"two receipts", func(in *sanctions.PrescriptionInput) {
			in.Interruptions = []sanctions.Interruption{receipt("2020-01-01"), receipt("2021-01-01")}
		}, "interruptions[1].on"},
		{"CP 117 IV conviction without a receipt (Lei 9.099 arts. 77, 81)", func(in *sanctions.PrescriptionInput) {
			in.Interruptions = []sanctions.Interruption{conviction("2021-01-01")}
		}, "interruptions[0].on"},
		{"conviction before the receipt", func(in *sanctions.PrescriptionInput) {
			in.Interruptions = []sanctions.Interruption{conviction("2020-01-01"), receipt("2021-01-01")}
		}, "interruptions[0].on"},
		{"unknown ground", func(in *sanctions.PrescriptionInput) {
			in.Suspensions = []sanctions.PrescriptionSuspension{{Ground: "plea", From: day("2020-01-01")}}
		}, "suspensions[0].ground"},
		{"Lei 9.099 art. 89 before the receipt", func(in *sanctions.PrescriptionInput) {
			in.Interruptions = []sanctions.Interruption{receipt("2021-01-01")}
			in.Suspensions = []sanctions.PrescriptionSuspension{{Ground: sanctions.SuspendConditional, From: day("2020-12-01")}}
		}, "suspensions[0].from"},
		{"CP 116 IV (Lei 13.964/2019) for facts of 2019", func(in *sanctions.PrescriptionInput) {
			in.Suspensions = []sanctions.PrescriptionSuspension{{Ground: sanctions.SuspendNonProsecution, From: day("2020-03-01"), To: day("2020-09-01")}}
		}, "suspensions[0].ground"},
		{"suspension ending before it starts", func(in *sanctions.PrescriptionInput) {
			in.Suspensions = []sanctions.PrescriptionSuspension{{Ground: sanctions.SuspendPrejudicial, From: day("2020-03-01"), To: day("2020-02-01")}}
		}, "suspensions[0].to"},
		{"open suspension before an interruption", func(in *sanctions.PrescriptionInput) {
			in.Interruptions = []sanctions.Interruption{receipt("2020-01-01"), conviction("2022-01-01")}
			in.Suspensions = []sanctions.PrescriptionSuspension{{Ground: sanctions.SuspendConditional, From: day("2020-01-01")}}
		}, "suspensions[0].to"},
	} {
		in := base()
		tc.edit(&in)
		_, err := sanctions.PrescriptionOf(in)
		t.Run(tc.name, func(t *testing.T) { invalidOn(t, err, tc.field) })
	}
}
