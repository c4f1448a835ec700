package sanctions

import (
	"time"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
)

// CriminalRecessSince is the day CPP art. 798-A came into force: Lei
// 14.365/2022 (art. 4º added it; art. 5º: in force on publication, DOU of
// 03/06/2022). Criminal procedure applies from then on (CPP art. 2º), so
// the first criminal recess is 20/12/2022 to 20/01/2023; before it the
// criminal windows ran through December and January (CPP art. 798: "não se
// interrompendo por férias").
var CriminalRecessSince = civil.Date{Year: 2022, Month: time.June, Day: 3}

// inRecessWindow reports whether d falls from 20 December to 20 January,
// both included (CPP art. 798-A; CPC art. 220).
func inRecessWindow(d civil.Date) bool {
	return (d.Month == time.December && d.Day >= 20) || (d.Month == time.January && d.Day <= 20)
}

// RecessException is the case of CPP art. 798-A, I to III, whose criminal
// windows run and hearings are held from 20 December to 20 January. The
// zero value (NoRecessException) is the rule: suspended. The exceptions
// concern criminal cases only: CPC art. 220 has none.
type RecessException string

// The exceptions of CPP art. 798-A.
const (
	// NoRecessException: the recess suspends the windows and bars the
	// hearings (CPP art. 798-A, caput and parágrafo único).
	NoRecessException RecessException = ""
	// RecessCustody: a defendant in custody, in the proceedings tied to
	// that custody (CPP art. 798-A, I).
	RecessCustody RecessException = "custody"
	// RecessMariaDaPenha: proceedings under Lei 11.340/2006, Lei Maria da
	// Penha (CPP art. 798-A, II).
	RecessMariaDaPenha RecessException = "maria_da_penha"
	// RecessUrgent: measures the judge deemed urgent by a reasoned order
	// (CPP art. 798-A, III).
	RecessUrgent RecessException = "urgent"
)

// RecessExceptions lists the exceptions CountPeriod and MayHoldHearing
// accept, in the order of CPP art. 798-A.
var RecessExceptions = []RecessException{RecessCustody, RecessMariaDaPenha, RecessUrgent}

// Text names the exception in Portuguese with its article: "réu preso, no
// processo vinculado à prisão (CPP, art. 798-A, I)"; "" for
// NoRecessException or an unknown value.
func (e RecessException) Text() string {
	switch e {
	case RecessCustody:
		return "réu preso, no processo vinculado à prisão (CPP, art. 798-A, I)"
	case RecessMariaDaPenha:
		return "procedimento da Lei 11.340/2006, Lei Maria da Penha (CPP, art. 798-A, II)"
	case RecessUrgent:
		return "medida urgente reconhecida por despacho fundamentado (CPP, art. 798-A, III)"
	}
	return ""
}

// check validates e for a case that is civil or not: an unknown value, or
// any exception in a civil case (CPC art. 220 has none), is errs.Invalid
// naming recess_exception.
func (e RecessException) check(civilCase bool) error {
	if e == NoRecessException {
		return nil
	}
	if e.Text() == "" {
		return errs.InvalidField("recess_exception", "oneof", "recess_exception "+string(e)+" desconhecida: use custody (réu preso), maria_da_penha (Lei 11.340/2006) ou urgent (medida urgente), as exceções do CPP, art. 798-A.")
	}
	if civilCase {
		return errs.InvalidField("recess_exception", "criminal", "as exceções ao recesso do CPP, art. 798-A, valem só nos casos criminais: nos casos de torcidas (cíveis) a suspensão de 20 de dezembro a 20 de janeiro não tem exceção (CPC, art. 220).")
	}
	return nil
}

// Reasons given for a day of the recess in Period.Skipped and by
// MayHoldHearing.
const (
	// CriminalRecessWhy is why a criminal window skipped a day of the
	// recess (CPP art. 798-A, applied to the JECRIM by Lei 9.099/1995,
	// art. 92).
	CriminalRecessWhy = "recesso: prazos penais suspensos de 20 de dezembro a 20 de janeiro (CPP, art. 798-A, aplicado ao JECRIM pela Lei 9.099/1995, art. 92)"
	// CivilSuspensionWhy is why a civil window skipped a day from 20
	// December to 20 January (CPC art. 220).
	CivilSuspensionWhy = "suspensão dos prazos de 20 de dezembro a 20 de janeiro (CPC, art. 220)"
)

// CriminalRecess reports whether a criminal window is suspended on d: d
// falls from 20 December to 20 January, both included, on or after
// CriminalRecessSince, and no exception of CPP art. 798-A applies (exc is
// NoRecessException). Unlike the civil suspension (CivilSuspension, CPC
// art. 220), which counts working days and treats those days as not
// counted, this suspends a count of running days: CountPeriod pauses it
// and resumes it with the days left.
func CriminalRecess(d civil.Date, exc RecessException) bool {
	return exc == NoRecessException && inRecessWindow(d) && !d.Before(CriminalRecessSince)
}

// CivilSuspension reports whether civil windows are suspended on d: from
// 20 December to 20 January, both included (CPC art. 220), every year.
func CivilSuspension(d civil.Date) bool { return inRecessWindow(d) }

// HearingQuery asks whether a hearing may be held on Day: the court's own
// calendar Court (nil: none), whether the case is a group (civil) case,
// and for a criminal case the exception of CPP art. 798-A that applies.
type HearingQuery struct {
	Day       civil.Date
	Court     Holidays
	Civil     bool
	Exception RecessException
}

// MayHoldHearing says whether a hearing may be held on q.Day, with the
// reason in Portuguese:
//
//   - never on a day without court business (NoCourtBusiness: Saturday,
//     Sunday, national holiday, the court's holiday): "dia sem expediente
//     forense: sábado";
//   - in a criminal case, never from 20 December to 20 January (CPP art.
//     798-A, parágrafo único, applied by Lei 9.099/1995, art. 92) unless
//     an exception of its items I to III applies; then it may, and the
//     reason names the exception;
//   - in a civil case, never from 20 December to 20 January (CPC art. 220,
//     § 2º).
//
// The reason is "" when the hearing may be held on an ordinary day. Whether
// the defendant's judgment is already final is not a question of the day:
// the caller asks it. An unknown q.Exception, or one in a civil case, is
// errs.Invalid naming recess_exception.
func MayHoldHearing(q HearingQuery) (bool, string, error) {
	if err := q.Exception.check(q.Civil); err != nil {
		return false, "", err
	}
	if why, no := NoCourtBusiness(q.Day, q.Court); no {
		return false, "dia sem expediente forense: " + why, nil
	}
	switch {
	case q.Civil && CivilSuspension(q.Day):
		return false, "nenhuma audiência durante a suspensão dos prazos de 20 de dezembro a 20 de janeiro (CPC, art. 220, § 2º)", nil
	case q.Civil:
	case CriminalRecess(q.Day, NoRecessException) && q.Exception != NoRecessException:
		return true, "audiência no recesso admitida (CPP, art. 798-A, parágrafo único): " + q.Exception.Text(), nil
	case CriminalRecess(q.Day, NoRecessException):
		return false, "nenhuma audiência no recesso de 20 de dezembro a 20 de janeiro, salvo réu preso, Lei 11.340/2006 ou medida urgente (CPP, art. 798-A, parágrafo único, aplicado ao JECRIM pela Lei 9.099/1995, art. 92)", nil
	}
	return true, "", nil
}
