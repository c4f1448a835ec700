package schedule

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/sanctions"
)

// WindowView is one window of the reporting duty as the API shows it:
// instants in the court's zone (RFC 3339), the match, and UID, the stable
// identifier of the window in the iCalendar feed.
type WindowView struct {
	UID         string    `json:"uid"`
	MatchID     int64     `json:"match_id"`
	Competition string    `json:"competition"`
	Round       string    `json:"round"`
	Home        string    `json:"home"`
	Away        string    `json:"away"`
	Venue       string    `json:"venue"`
	Kickoff     time.Time `json:"kickoff"`
	MatchEnd    time.Time `json:"match_end"`
	Start       time.Time `json:"start"`
	End         time.Time `json:"end"`
	Clipped     bool      `json:"clipped"`
}

// WindowsView is the reporting duty of a ban and its windows.
type WindowsView struct {
	BanID         int64                `json:"ban_id"`
	CaseNumber    string               `json:"case_number"`
	Name          string               `json:"name"`
	ReportingDuty *cases.ReportingDuty `json:"reporting_duty"`
	FirstDay      *civil.Date          `json:"first_day"`
	LastDay       *civil.Date          `json:"last_day"`
	TimeZone      string               `json:"time_zone"`
	Windows       []WindowView         `json:"windows"`
	Notes         []string             `json:"notes"`
}

// ReportingWindows returns the windows of ban banID's reporting duty (Lei
// 14.597/2023, art. 201, § 4º; Lei 10.671/2003, art. 41-B, § 4º): from 2
// hours before kick-off to 2 hours after the end of every match of the
// court's imported schedule that involves the named club (home or away) or
// belongs to the named competition, with kick-off within the ban's term in
// the court's zone (sanctions.ReportingWindows). A ban without a reporting
// duty has no windows (a note says so). errs.NotFound when the ban is not
// of the actor's court.
func (s *Service) ReportingWindows(ctx context.Context, actor actor.Actor, banID int64) (*WindowsView, error) {
	b, _, err := s.LoadBan(ctx, actor, banID, false)
	if err != nil {
		return nil, err
	}
	term, started := cases.BanTerm(*b)
	v := &WindowsView{BanID: b.ID, CaseNumber: cases.FormatNumber(b.CaseNumber), Name: b.Name, FirstDay: b.FirstDay, LastDay: term.Last,
		TimeZone: s.Loc.String(), Windows: []WindowView{}, Notes: []string{}}
	if !started {
		v.Notes = append(v.Notes, "O impedimento ainda não começou (aguarda o trânsito em julgado): as janelas serão as das partidas do seu prazo.")
		return v, nil
	}
	if b.ReportingPlace == "" {
		v.Notes = append(v.Notes, "A sentença não fixou obrigação de permanência (art. 201, § 4º, da Lei 14.597/2023): não há janelas.")
		return v, nil
	}
	v.ReportingDuty = &cases.ReportingDuty{Place: b.ReportingPlace, Club: b.ReportingClub, Competition: b.ReportingCompetition}
	if term.Last != nil && term.Last.Before(term.First) {
		return v, nil
	}
	start, end := term.Bounds(s.Loc)
	q := db.Conn(ctx, s.DB).Table("matches m").Select("m.*, v.name AS venue_name").
		Joins("JOIN venues v ON v.id = m.venue_id").
		Where("m.court_code = ? AND m.kickoff >= ? AND NOT m.cancelled", b.CourtCode, start)
	if !end.IsZero() {
		q = q.Where("m.kickoff < ?", end)
	}
	var rows []struct {
		Match
		VenueName string
	}
	if err := q.Order("m.kickoff, m.id").Find(&rows).Error; err != nil {
		return nil, err
	}
	ms := make([]sanctions.Match, 0, len(rows))
	for _, r := range rows {
		ms = append(ms, sanctions.Match{ID: r.ID, Competition: r.Competition, Round: r.Round, Home: r.Home, Away: r.Away, Venue: r.VenueName,
			Kickoff: r.Kickoff, Duration: time.Duration(r.MatchMinutes) * time.Minute})
	}
	for _, w := range sanctions.ReportingWindows(ms, sanctions.Duty{Club: b.ReportingClub, Competition: b.ReportingCompetition}, term, s.Loc) {
		v.Windows = append(v.Windows, WindowView{
			UID:     fmt.Sprintf("ban-%d-match-%d@juizado-%s", b.ID, w.Match.ID, strings.ReplaceAll(b.CourtCode, ".", "-")),
			MatchID: w.Match.ID, Competition: w.Match.Competition, Round: w.Match.Round, Home: w.Match.Home, Away: w.Match.Away, Venue: w.Match.Venue,
			Kickoff: w.Match.Kickoff.In(s.Loc), MatchEnd: w.Match.End().In(s.Loc), Start: w.Start.In(s.Loc), End: w.End.In(s.Loc), Clipped: w.Clipped,
		})
	}
	if len(v.Windows) == 0 {
		v.Notes = append(v.Notes, "Nenhuma partida da tabela importada pelo juizado cai no prazo do impedimento.")
	}
	return v, nil
}

// ICS returns the windows as an iCalendar feed (RFC 5545): one VEVENT per
// window with UTC DTSTART/DTEND and the window's UID, for the person and
// the police station; stamp is the instant the feed is made.
func (v *WindowsView) ICS(stamp time.Time) []byte {
	cal := sanctions.Calendar{ProdID: "-//Juizado//Obrigação de permanência (art. 201, § 4º)//PT-BR",
		Name: fmt.Sprintf("Obrigação de permanência – processo %s", v.CaseNumber)}
	place := ""
	if v.ReportingDuty != nil {
		place = v.ReportingDuty.Place
	}
	for _, w := range v.Windows {
		desc := fmt.Sprintf("%s deve permanecer em %s das %s às %s (art. 201, § 4º, da Lei 14.597/2023): partida %s x %s (%s", v.Name, place,
			w.Start.Format("02/01/2006 15:04"), w.End.Format("02/01/2006 15:04"), w.Home, w.Away, w.Competition)
		if w.Round != "" {
			desc += ", " + w.Round
		}
		desc += fmt.Sprintf("), %s, início às %s. Processo %s, impedimento %d.", w.Venue, w.Kickoff.Format("02/01/2006 15:04"), v.CaseNumber, v.BanID)
		cal.Events = append(cal.Events, sanctions.Event{UID: w.UID, Start: w.Start, End: w.End, Stamp: stamp,
			Summary:  fmt.Sprintf("Obrigação de permanência: %s x %s", w.Home, w.Away),
			Location: place, Description: desc})
	}
	return sanctions.ICS(cal)
}
