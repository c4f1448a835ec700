package app

import (
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/bnmp"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/desk"
	"github.com/juizado/juizado/cases/execution"
	"github.com/juizado/juizado/cases/schedule"
	"github.com/juizado/juizado/internal/clock"
	"gorm.io/gorm"
)

// Cases are the case services, each built once over one cases.Core: the
// case itself (filing, docket, workflow, hearings, evidence), its calendar
// (holidays, deadlines, prescription), the match schedule, the decisions
// (sentence, plea, suspension, settlement), the execution of the bans, and
// the case file (the whole case's views and the writes that answer with
// it), and the bans' BNMP mandates. Dependencies point one way: Case ← Calendar, Schedule ← Decisions ←
// Execution ← Casefile.
type Cases struct {
	Case      *cases.Service
	Calendar  *calendar.Service
	Schedule  *schedule.Service
	Decisions *decisions.Service
	Execution *execution.Service
	Casefile  *casefile.Service
	// Queues reads the court's work queues (Cases.Desk assembles a role's).
	Queues *desk.Service
	// BNMP are the bans' mandates in the national bank (Res. CNJ
	// 417/2021), derived from the bans.
	BNMP *bnmp.Service
}

// NewCases builds the case services on g with clock clk (nil: the
// system's), the court's zone loc and the blocklist publisher bl (each
// write that changes bans refreshes the blocklist through it, in its
// transaction). A nil g, loc or bl is an error (cases.NewCore).
func NewCases(g *gorm.DB, clk clock.Clock, loc *time.Location, bl cases.Blocklist) (*Cases, error) {
	core, err := cases.NewCore(g, clk, loc, bl)
	if err != nil {
		return nil, err
	}
	cs := cases.New(core)
	cal := calendar.New(core)
	cs.Days = cal // hearings are checked against the court's calendar (CPP arts. 792 and 798-A)
	dec := decisions.New(core, cs, cal)
	cal.Decided = dec // the decision embargos attack and a notice gives notice of (Lei 9.099/1995, art. 83)
	ex := execution.New(core, cs, cal, dec)
	return &Cases{
		Case:      cs,
		Calendar:  cal,
		Schedule:  schedule.New(core),
		Decisions: dec,
		Execution: ex,
		Casefile:  casefile.New(core, cs, cal, dec, ex),
		Queues:    desk.New(core, cal),
		BNMP:      bnmp.New(core, dec),
	}, nil
}
