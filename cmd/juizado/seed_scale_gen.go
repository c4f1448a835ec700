package main

// The generator of juizado seed --scale: every value derived from (seed,
// index) by a hash (see seed_scale.go).

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/sanctions"
)

func scaleHash(parts ...uint64) uint64 {
	x := uint64(0x9e3779b97f4a7c15)
	for _, p := range parts {
		x ^= p + 0x9e3779b97f4a7c15 + (x << 6) + (x >> 2)
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		x = z ^ (z >> 31)
	}
	return x
}

// rnd draws values for one record: r.n(k) in [0, k), r.f() in [0, 1).
type scaleRnd struct {
	seed, id, field uint64
}

func (r *scaleRnd) next() uint64 { r.field++; return scaleHash(r.seed, r.id, r.field) }
func (r *scaleRnd) n(k int) int  { return int(r.next() % uint64(k)) }
func (r *scaleRnd) f() float64   { return float64(r.next()>>11) / (1 << 53) }
func pick[T any](r *scaleRnd, l []T) T {
	return l[r.n(len(l))]
}

// scalePerson is a synthetic person: the same index gives the same person.
type scalePerson struct {
	Name, Mother, Father, Address, CPF, RG, RGIssuer, Civil, Profession, Schooling string
	Birth                                                                          civil.Date
}

// cpfFor returns a valid CPF (11 digits) for person p: the 9 base digits are
// an affine bijection of p modulo 10⁹, so distinct persons get distinct
// CPFs.
func cpfFor(seed uint64, p int) string {
	for k := 0; ; k++ {
		base := (uint64(p)*387420489 + seed*1000003 + 123456789 + uint64(k)*999999937) % 1000000000
		b := fmt.Sprintf("%09d", base)
		cpf := b + registry.CPFCheckDigits(b)
		if _, err := registry.ParseCPF(cpf); err == nil {
			return cpf
		}
	}
}

func surnameWithParticle(r *scaleRnd) string {
	s := pick(r, scaleSurnames)
	if r.n(10) < 3 {
		switch s {
		case "Santos", "Anjos", "Reis":
			return "dos " + s
		case "Silva", "Conceição", "Costa", "Rocha", "Cruz", "Assunção":
			return "da " + s
		case "Souza", "Oliveira", "Almeida", "Andrade", "Araújo", "Jesus":
			return "de " + s
		}
	}
	return s
}

func scalePersonAt(seed uint64, p int, uf string) scalePerson {
	r := &scaleRnd{seed: seed, id: uint64(p)<<8 | 1}
	first := pick(r, scaleMale)
	if r.n(2) == 0 {
		first = pick(r, scaleFemale)
	}
	if r.n(10) < 3 {
		if strings.HasSuffix(first, "a") || r.n(2) == 0 {
			first += " " + pick(r, scaleFemale)
		} else {
			first += " " + pick(r, scaleMale)
		}
	}
	motherSurname, fatherSurname := surnameWithParticle(r), surnameWithParticle(r)
	name := first + " " + motherSurname + " " + fatherSurname
	if r.n(10) < 3 {
		name = first + " " + fatherSurname
	}
	mother := pick(r, scaleFemale) + " " + surnameWithParticle(r) + " " + motherSurname
	father := ""
	if r.n(10) < 8 {
		father = pick(r, scaleMale) + " " + surnameWithParticle(r) + " " + fatherSurname
	}
	birth := civil.New(1960, time.January, 1).AddDays(r.n(45 * 365)) // 1960 to 2004: adults at the facts
	rg := fmt.Sprintf("%02d.%03d.%03d-%d", 10+r.n(80), r.n(1000), r.n(1000), r.n(10))
	return scalePerson{
		Name: name, Mother: mother, Father: father, CPF: cpfFor(seed, p), Birth: birth,
		Address: fmt.Sprintf("%s, %d – %s", pick(r, scaleStreets), 1+r.n(3000), pick(r, scaleDistricts)),
		RG:      rg, RGIssuer: "SSP/" + uf,
		Civil: pick(r, scaleCivil), Profession: pick(r, scaleProfessions), Schooling: pick(r, scaleSchooling),
	}
}

// scaleVenue is a row of the venue table.
type scaleVenue struct {
	ID             int64
	Name, City, UF string
	Lat, Lon       float64
	TimeZone       string
}

// scaleCase is case i with its defendants and, when sentenced, its bans.
type scaleCase struct {
	ID, JudgeID        int64
	Number             string
	Year, Seq          int
	Status             string
	Venue              scaleVenue
	Home, Away, Comp   string
	Kickoff, Occurred  time.Time
	FactsDate          civil.Date
	Lat, Lon           float64
	Distance           int
	Relation           string
	Conduct            []string
	Reports            []string
	Description        string
	Ref                string
	Filed, SentencedAt time.Time
	Defendants         []scaleDefendant
	Range              sanctions.Range
	BanFirst           civil.Date
	BanMonths          int
	BanLast            civil.Date
}

type scaleDefendant struct {
	ID     int64
	Person scalePerson
	HasCPF bool
}

// scaleGen holds what the passes over the cases share.
type scaleGen struct {
	o          scaleOptions
	court      string
	loc        *time.Location
	now        time.Time
	today      civil.Date
	t0         time.Time
	step       time.Duration
	venues     []scaleVenue
	judges     []accounts.User
	judgeNames map[int64]string
	filer      accounts.User
	caseStart  int64 // first case id
	defStart   int64 // first defendant id
	defOffset  []int32
	personBase int // person index of the first defendant
	seqStart   map[int]int
	ranges     map[string]sanctions.Range
}

func (g *scaleGen) filedAt(i int) time.Time {
	r := &scaleRnd{seed: g.o.Seed, id: uint64(i)<<8 | 2}
	return g.t0.Add(time.Duration(i)*g.step + time.Duration(r.f()*float64(g.step)*0.9)).Truncate(time.Second)
}

// defendantsOf is how many defendants case i has: 1 (85 %), 2 or 3.
func (g *scaleGen) defendantsOf(i int) int {
	r := &scaleRnd{seed: g.o.Seed, id: uint64(i)<<8 | 3}
	switch x := r.n(100); {
	case x < 85:
		return 1
	case x < 97:
		return 2
	}
	return 3
}

func (g *scaleGen) rangeFor(conduct []string) (sanctions.Range, bool) {
	key := strings.Join(conduct, ",")
	if rg, ok := g.ranges[key]; ok {
		return rg, rg.Convertible
	}
	yes := true
	rg, err := sanctions.BanRange(sanctions.Query{Subject: sanctions.Person, FactsDate: g.today, Conduct: conduct, Sec7DoublesBan: &yes})
	if err != nil {
		rg = sanctions.Range{}
	}
	g.ranges[key] = rg
	return rg, rg.Convertible
}

func (g *scaleGen) caseAt(i int) scaleCase {
	r := &scaleRnd{seed: g.o.Seed, id: uint64(i)<<8 | 4}
	c := scaleCase{ID: g.caseStart + int64(i), Filed: g.filedAt(i)}
	c.Year = c.Filed.In(g.loc).Year()
	c.Seq = g.seqStart[c.Year] + i
	num, err := cases.NewCNJFor(g.court, c.Year, c.Seq)
	if err != nil {
		panic(err) // sequences are checked before the passes
	}
	c.Number = num.Digits()
	c.JudgeID = g.judges[i%len(g.judges)].ID
	// The match and the facts, 2 to 20 days before filing.
	c.Venue = pick(r, g.venues)
	vloc, err := time.LoadLocation(c.Venue.TimeZone)
	if err != nil {
		vloc = g.loc
	}
	day := civil.Of(c.Filed.In(vloc)).AddDays(-2 - r.n(19))
	ko := pick(r, scaleKickoffs)
	c.Kickoff = time.Date(day.Year, day.Month, day.Day, ko[0], ko[1], 0, 0, vloc)
	c.Occurred = c.Kickoff.Add(time.Duration(r.n(270)-120) * time.Minute)
	c.FactsDate = civil.Today(c.Occurred, g.loc)
	c.Home = pick(r, scaleClubs)
	for _, h := range scaleHome {
		if strings.Contains(c.Venue.Name, h.key) {
			c.Home = pick(r, strings.Split(h.clubs, "|"))
		}
	}
	for c.Away = pick(r, scaleClubs); c.Away == c.Home; c.Away = pick(r, scaleClubs) {
	}
	c.Comp = pick(r, scaleCompetitions)
	if sc, ok := scaleStateCup[c.Venue.UF]; ok && r.n(3) == 0 {
		c.Comp = sc
	}
	// Where: mostly at the venue, some in the surroundings, a few farther.
	spread := 0.004
	if x := r.n(100); x >= 97 {
		spread = 0.08
	} else if x >= 80 {
		spread = 0.035
	}
	c.Lat = math.Round((c.Venue.Lat+(r.f()*2-1)*spread)*1e6) / 1e6
	c.Lon = math.Round((c.Venue.Lon+(r.f()*2-1)*spread)*1e6) / 1e6
	d := math.Round(sanctions.DistanceMeters(c.Lat, c.Lon, c.Venue.Lat, c.Venue.Lon))
	c.Distance, c.Relation = int(d), string(sanctions.PlaceOf(d, false))
	// What: one conduct word, sometimes two.
	total := 0
	for _, w := range scaleConduct {
		total += w.n
	}
	draw := func() string {
		x := r.n(total)
		for _, w := range scaleConduct {
			if x < w.n {
				return w.w
			}
			x -= w.n
		}
		return sanctions.WordViolence
	}
	c.Conduct = []string{draw()}
	if r.n(100) < 15 {
		if w := draw(); w != c.Conduct[0] {
			c.Conduct = append(c.Conduct, w)
		}
	}
	rg, ok := g.rangeFor(c.Conduct)
	if !ok {
		c.Conduct = []string{sanctions.WordViolence}
		rg, _ = g.rangeFor(c.Conduct)
	}
	c.Range = rg
	sector := pick(r, scaleSectors)
	c.Description = fmt.Sprintf("Segundo o boletim de ocorrência, o representado %s durante a partida %s x %s (%s).",
		fmt.Sprintf(scaleFacts[c.Conduct[0]], sector), c.Home, c.Away, c.Comp)
	if len(c.Conduct) > 1 {
		c.Description += " Também " + fmt.Sprintf(scaleFacts[c.Conduct[1]], sector) + "."
	}
	c.Reports = []string{fmt.Sprintf("BO %04d/%d – %dº DP", 1+r.n(9999), c.FactsDate.Year, 1+r.n(99))}
	if r.n(3) == 0 {
		c.Ref = fmt.Sprintf("MP-%d-%06d", c.Year, c.Seq)
	}
	// Who: defendants are persons personBase+offset.., a few recidivists
	// named again in a later case; 2 % not yet identified (no CPF).
	n := int(g.defOffset[i+1] - g.defOffset[i])
	first := int(g.defOffset[i])
	for k := 0; k < n; k++ {
		idx := first + k
		p := g.personBase + idx
		if idx > 0 && r.n(100) < 4 {
			if q := r.n(idx); q < first {
				p = g.personBase + q
			}
		}
		c.Defendants = append(c.Defendants, scaleDefendant{
			ID: g.defStart + int64(idx), Person: scalePersonAt(g.o.Seed, p, c.Venue.UF), HasCPF: r.n(100) >= 2,
		})
	}
	// Sentenced: 20 to 120 days after filing, when that is already past;
	// the judgment final 0 to 15 days later (the parties' waivers), when
	// that day has come, and the bans start on it (Súmula 643 STJ).
	c.Status = cases.StatusDistributed
	c.SentencedAt = c.Filed.Add(time.Duration(20+r.n(100))*24*time.Hour + time.Duration(r.n(8*3600))*time.Second)
	if first := civil.Today(c.SentencedAt, g.loc).AddDays(r.n(16)); r.f() < g.o.Sentenced && c.SentencedAt.Before(g.now.Add(-time.Hour)) && !first.After(g.today) {
		c.Status = cases.StatusFinal
		c.BanFirst = first
		lo := max(rg.MinMonths, 1)
		c.BanMonths = lo + r.n(rg.MaxMonths-lo+1)
		last, err := sanctions.LastDay(c.BanFirst, c.BanMonths)
		if err != nil {
			panic(err)
		}
		c.BanLast = last
	}
	return c
}

// seedScale writes o.N cases and what goes with them; see the file comment.
