package bnmp

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/sanctions"
)

// ended are the stored statuses of a ban that ended before its term: each
// revokes the ban's mandates (Res. CNJ 417/2021, art. 2º, VIII).
var ended = map[string]bool{
	sanctions.StatusLifted: true, sanctions.StatusReplaced: true, sanctions.StatusConverted: true,
	sanctions.StatusUndone: true, sanctions.StatusReformed: true, sanctions.StatusAnnulled: true,
}

// periodOf returns the first and last day of the 12-month period k (0, 1,
// ...) of a ban that starts on first (CP art. 10; sanctions.LastDay).
func periodOf(first civil.Date, k int) (civil.Date, civil.Date, error) {
	start := first
	if k > 0 {
		prev, err := sanctions.LastDay(first, MaxMonths*k)
		if err != nil {
			return civil.Date{}, civil.Date{}, err
		}
		start = prev.AddDays(1)
	}
	last, err := sanctions.LastDay(first, MaxMonths*(k+1))
	return start, last, err
}

// plan returns the mandates ban b needs on day today that existing (its
// mandates, by id) lack: none for a group (its members' bans carry theirs)
// nor for a ban that has not started to run (awaiting the final judgment);
// a revocation for a ban that ended before its term and has mandates; for
// a ban that runs, the mandate of each 12-month period that has not ended
// — the first when imposed (art. 18), a later one from AlertDays before it
// starts — and, when the period's content changed since its last mandate,
// a new mandate (art. 20: "prorrogacao" when only the validity grew,
// "alteracao" otherwise).
func plan(b sanctions.Ban, existing []Mandate, today civil.Date) ([]Mandate, error) {
	if b.Subject != sanctions.Person || b.FirstDay == nil {
		return nil, nil
	}
	for _, m := range existing {
		if m.Kind == KindRevocation {
			return nil, nil
		}
	}
	base := Mandate{CourtCode: b.CourtCode, BanID: b.ID, CaseID: b.CaseID, CPF: b.CPF, Name: b.Name}
	if ended[b.Status] {
		if len(existing) == 0 {
			return nil, nil
		}
		on := today
		if b.LiftedOn != nil {
			on = *b.LiftedOn
		}
		m := base
		m.Kind, m.Period, m.ValidFrom, m.Fingerprint = KindRevocation, existing[len(existing)-1].Period, on, string(KindRevocation)
		m.Content = contentOf(b)
		m.Content.Revocation = fmt.Sprintf("%s em %s", sanctions.StatePT[b.Status], on.BR())
		if b.LiftReason != "" {
			m.Content.Revocation += ": " + b.LiftReason
		}
		return []Mandate{m}, nil
	}
	if b.Status != sanctions.StatusActive {
		return nil, nil
	}
	end := b.LastDay
	if b.Precautionary && b.ReviewOn != nil && (end == nil || b.ReviewOn.Before(*end)) {
		end = b.ReviewOn // the measure lapses at its review date without renewal (art. 21)
	}
	var out []Mandate
	for k := 0; ; k++ {
		start, last, err := periodOf(*b.FirstDay, k)
		if err != nil {
			return nil, err
		}
		if (end != nil && start.After(*end)) || (k > 0 && start.After(today.AddDays(AlertDays))) {
			break
		}
		until := last
		if end != nil && end.Before(until) {
			until = *end
		}
		if until.Before(today) {
			continue
		}
		m := base
		m.Period, m.ValidFrom, m.ValidUntil, m.ReviewOn = k, start, &until, &until
		m.Content = contentOf(b)
		key := contentKey(m)
		prev := latest(existing, k)
		switch {
		case prev == nil && k == 0 && b.Precautionary:
			m.Kind = KindPrecautionary
		case prev == nil && k == 0:
			m.Kind = KindExecution
		case prev == nil:
			m.Kind = KindRenewal
		case keyOf(prev.Fingerprint) == key:
			continue
		case sameContent(prev.Content, m.Content) && prev.ValidUntil != nil && prev.ValidUntil.Before(until):
			m.Kind = KindRenewal
		default:
			m.Kind = KindChange
		}
		if prev != nil && today.After(m.ValidFrom) {
			m.ValidFrom = today // a change or renewal takes effect from its mandate
		}
		m.Fingerprint = fmt.Sprintf("%s:%d", key, countPeriod(existing, k))
		out = append(out, m)
	}
	return out, nil
}

// contentOf is the content of art. 19 of a mandate of ban b.
func contentOf(b sanctions.Ban) Content {
	c := Content{Name: b.Name, BirthDate: b.BirthDate, CaseNumber: cases.FormatNumber(b.CaseNumber), Court: b.CourtCode,
		Precautionary: b.Precautionary, FactsDate: b.FactsDate, Extent: sanctions.ScopePT(b.Scope), MatchDays: b.MatchDays,
		BanFirstDay: *b.FirstDay, BanLastDay: b.LastDay, BanMonths: b.Months,
		LegalBasis: strings.TrimSpace(b.Law + ", " + b.Article)}
	if b.Precautionary {
		c.Measure = "Medida cautelar de proibição de acesso a recintos esportivos e suas imediações, até revogação, com revisão periódica"
		c.BanLastDay, c.BanMonths = nil, nil
	} else {
		c.Measure = "Impedimento de comparecimento às proximidades dos estádios e a qualquer local em que se realize evento esportivo"
	}
	if b.ReportingPlace != "" {
		c.Reporting = "Comparecer a " + b.ReportingPlace
		if b.ReportingClub != "" {
			c.Reporting += " durante os jogos do " + b.ReportingClub
		}
		if b.ReportingCompetition != "" {
			c.Reporting += " na competição " + b.ReportingCompetition
		}
		c.Reporting += ", de 2 horas antes a 2 horas depois de cada jogo"
	}
	return c
}

// contentKey is the SHA-256 (hex) of what a mandate of one period says:
// its content, validity and review date.
func contentKey(m Mandate) string {
	c := m.Content
	c.BirthDate = nil // an identification completes the person, it changes no condition
	b, _ := json.Marshal(struct {
		C    Content
		U, R *civil.Date
		P    int
	}{c, m.ValidUntil, m.ReviewOn, m.Period})
	sum := sha256.Sum256(b)
	return fmt.Sprintf("%x", sum[:12])
}

// keyOf is the content key of a stored fingerprint (key:sequence).
func keyOf(fp string) string {
	k, _, _ := strings.Cut(fp, ":")
	return k
}

func sameContent(a, b Content) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// latest is the last mandate (by id) of period k that is not a revocation.
func latest(ms []Mandate, k int) *Mandate {
	var out *Mandate
	for i := range ms {
		if ms[i].Period == k && ms[i].Kind != KindRevocation {
			out = &ms[i]
		}
	}
	return out
}

func countPeriod(ms []Mandate, k int) int {
	n := 0
	for _, m := range ms {
		if m.Period == k {
			n++
		}
	}
	return n
}
