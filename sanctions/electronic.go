package sanctions

import (
	"fmt"

	"github.com/juizado/juizado/internal/civil"
)

// ElectronicConsultDays is the period, in running days counted from the day
// after the notice was made available, within which the party must open an
// electronic notice before it counts as made without the opening (Lei
// 11.419/2006, art. 5º, § 3º: "10 (dez) dias corridos").
const ElectronicConsultDays = 10

// ElectronicNotice is the day an electronic notice counts as made (Lei
// 11.419/2006, art. 5º) and how: CountsOn, the day the notice is taken as
// made, from which the window that follows runs; Tacit when it counts
// because nobody opened it within the ten running days (§ 3º); Pending
// while nobody opened it and the tenth day has not come (CountsOn is then
// the day it will count on if nobody does); Rule cites the law, in
// Portuguese.
type ElectronicNotice struct {
	CountsOn civil.Date
	Tacit    bool
	Pending  bool
	Rule     string
}

// nextWorkingDay is d, or the first day after it with court business
// (NoCourtBusiness with the court's own calendar court); it gives up after
// maxSkip days and returns the day reached.
func nextWorkingDay(d civil.Date, court Holidays) (civil.Date, bool) {
	moved := false
	for i := 0; i < maxSkip; i++ {
		if _, no := NoCourtBusiness(d, court); !no {
			return d, moved
		}
		d, moved = d.AddDays(1), true
	}
	return d, moved
}

// CountElectronicNotice says when a notice made available in the system on
// available (a day in the court's zone) counts as made, as of today, given
// the day it was first opened (nil: not yet) and the court's own calendar
// court (nil: none; the national holidays are built in):
//
//   - opened within the ten running days after available (the day of the
//     availability excluded, the tenth included: § 3º), it counts on the
//     day opened (§ 1º), or on the next working day when that day has no
//     court business — a weekend, a national or a court holiday (§ 2º);
//     the recess of 20 December to 20 January is not such a day (the
//     courts sit; it suspends the window that follows, CPP art. 798-A);
//   - not opened by then, it counts on the tenth day (§ 3º: "na data do
//     término desse prazo"), moved to the next working day when the tenth
//     has no court business: the statute's text does not move it; Res. CNJ
//     185/2013, art. 21, II ("o décimo dia… caso seja de expediente
//     judiciário, ou o primeiro dia útil seguinte") and the STJ (REsp
//     1.663.172/TO, 3ª Turma, 2017) do, in the defence's favour;
//   - an opening after the tenth day changes nothing: the notice had
//     already counted.
func CountElectronicNotice(available civil.Date, opened *civil.Date, today civil.Date, court Holidays) ElectronicNotice {
	tenth := available.AddDays(ElectronicConsultDays)
	if opened != nil && !opened.After(tenth) {
		d, moved := nextWorkingDay(*opened, court)
		rule := "Lei 11.419/2006, art. 5º, § 1º: intimação feita no dia da consulta"
		if moved {
			why, _ := NoCourtBusiness(*opened, court)
			rule = fmt.Sprintf("Lei 11.419/2006, art. 5º, § 2º: consulta em dia não útil (%s, %s), intimação no primeiro dia útil seguinte", opened.BR(), why)
		}
		return ElectronicNotice{CountsOn: d, Rule: rule}
	}
	d, moved := nextWorkingDay(tenth, court)
	rule := fmt.Sprintf("Lei 11.419/2006, art. 5º, § 3º: sem consulta em 10 dias corridos da disponibilização (%s), intimação no décimo dia", available.BR())
	if moved {
		why, _ := NoCourtBusiness(tenth, court)
		rule += fmt.Sprintf(", que é dia não útil (%s, %s): primeiro dia útil seguinte (Res. CNJ 185/2013, art. 21, II; STJ, REsp 1.663.172/TO)", tenth.BR(), why)
	}
	return ElectronicNotice{CountsOn: d, Tacit: true, Pending: opened == nil && today.Before(d), Rule: rule}
}
