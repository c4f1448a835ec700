package cases

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/textcheck"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/sanctions"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Representation is the body of POST /api/v1/cases: one element of
// representations.json (../shared/API.md "Cases and sentences").
type Representation struct {
	Ref        string           `json:"ref"`
	FiledBy    FiledByInput     `json:"filed_by"`
	Defendants []DefendantInput `json:"defendants"`
	Event      *EventInput      `json:"event"`
	Facts      FactsInput       `json:"facts"`
}

// FiledByInput is who filed the representation, recorded as written.
type FiledByInput struct {
	Kind string `json:"kind"` // FilerKinds
	Name string `json:"name"`
}

// FilerKinds are the kinds of filer (DOMAIN.md §4 "Standing"): the MP
// prosecutes, the police file the termo circunstanciado, the others report.
var FilerKinds = []string{"prosecutor", "police", "other_authority", "home_club", "fan"}

// DefendantInput is a person or a fan group accused in a representation.
type DefendantInput struct {
	Kind          string  `json:"kind"` // "person" or "fan_group"
	FullName      string  `json:"full_name"`
	CPF           *string `json:"cpf"`
	BirthDate     string  `json:"birth_date"`
	MotherName    string  `json:"mother_name"`
	FatherName    string  `json:"father_name"`
	Address       string  `json:"address"`
	Name          string  `json:"name"` // fan_group
	CNPJ          *string `json:"cnpj"`
	SupportedClub string  `json:"supported_club"`
	GroupID       *int64  `json:"group_id"`
}

// EventInput is the sporting event; null only for off-venue conduct.
type EventInput struct {
	Competition string `json:"competition"`
	Home        string `json:"home"`
	Away        string `json:"away"`
	Venue       string `json:"venue"`
	Kickoff     string `json:"kickoff"` // RFC 3339
}

// FactsInput is what happened, when and where.
type FactsInput struct {
	OccurredAt    string   `json:"occurred_at"` // RFC 3339
	Latitude      *float64 `json:"latitude"`
	Longitude     *float64 `json:"longitude"`
	Conduct       []string `json:"conduct"`
	PoliceReports []string `json:"police_reports"`
	Description   string   `json:"description"`
	// OnRoute: the facts happened on the way to or from the venue (Lei
	// 14.597/2023, art. 201, § 1º, I, "no trajeto"); optional, default
	// false; needs an event.
	OnRoute *bool `json:"on_route"`
}

// offVenueWords may stand without an event (LGE art. 184; Lei 10.671/2003,
// art. 39-C).
var offVenueWords = map[string]bool{"training_ground_invasion": true, "fan_fight": true, "attack_on_sport_people": true}

type validated struct {
	occurredAt time.Time
	factsDate  civil.Date
	kickoff    *time.Time
	venue      *Venue
	defendants []Defendant
	distance   *int
	relation   *string
	onRoute    bool
}

// File records a representation as a new case of the actor's court: it
// validates the input (errs.Invalid naming each field and rule), gives the
// case the next CNJ number of the court and year (Res. CNJ 65/2008), and
// distributes it to a judge of the court (TPU 26). Lei 9.099/1995; LGE
// art. 180.
func (s *Service) File(ctx context.Context, actor actor.Actor, in Representation) (*Case, error) {
	c, _, err := s.FileOnce(ctx, actor, in, "")
	return c, err
}

// FileOnce is File with an idempotency key (the Idempotency-Key header):
// a filing repeated by the same filer with the same key returns the case
// of the first one (replayed true) instead of a second case; the same key
// with a different body is errs.Invalid on "Idempotency-Key". An empty key
// files as File does.
func (s *Service) FileOnce(ctx context.Context, actor actor.Actor, in Representation, key string) (*Case, bool, error) {
	if key != "" && (len(key) > 255 || strings.IndexFunc(key, func(r rune) bool { return r < 0x21 || r > 0x7e }) >= 0) {
		return nil, false, errs.InvalidField("Idempotency-Key", "format", "a chave de idempotência tem de 1 a 255 caracteres ASCII visíveis.")
	}
	v, err := s.validate(ctx, actor.Court, in)
	if err != nil {
		return nil, false, err
	}
	var out *Case
	replayed := false
	err = db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		var court Court
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("code = ?", actor.Court).Take(&court).Error; err != nil {
			if errors.Is(err, gorm.ErrRecordNotFound) {
				return errs.New(errs.Forbidden, "O usuário não pertence a um juizado cadastrado.")
			}
			return err
		}
		now := s.Now()
		var keyID int64
		if key != "" {
			first, id, err := s.claimKey(ctx, actor, in, key, now)
			if err != nil {
				return err
			}
			if first != nil {
				out, replayed = first, true
				return nil
			}
			keyID = id
		}
		persons, groups := splitDefendants(v.defendants)
		if len(persons) > 0 && len(groups) > 0 {
			// A mixed representation: a criminal case for the persons and a
			// civil one for the groups, linked both ways (DOMAIN.md §4).
			crim, err := s.fileCase(ctx, actor, court, in, v, persons, now)
			if err != nil {
				return err
			}
			civ, err := s.fileCase(ctx, actor, court, in, v, groups, now)
			if err != nil {
				return err
			}
			if err := s.linkCases(ctx, actor, crim, civ, now); err != nil {
				return err
			}
			if keyID != 0 {
				if err := tx.Exec("UPDATE filing_keys SET case_id = ? WHERE id = ?", crim.ID, keyID).Error; err != nil {
					return err
				}
			}
			out = crim
			return nil
		}
		c, err := s.fileCase(ctx, actor, court, in, v, v.defendants, now)
		if err != nil {
			return err
		}
		if keyID != 0 {
			if err := tx.Exec("UPDATE filing_keys SET case_id = ? WHERE id = ?", c.ID, keyID).Error; err != nil {
				return err
			}
		}
		out = c
		return nil
	})
	return out, replayed, err
}

// splitDefendants separates person and fan-group defendants, each keeping
// the order of the representation.
func splitDefendants(ds []Defendant) (persons, groups []Defendant) {
	for _, d := range ds {
		if d.Kind == "fan_group" {
			groups = append(groups, d)
		} else {
			persons = append(persons, d)
		}
	}
	return persons, groups
}

// linkCases links the criminal case crim and the civil case civ of one
// mixed representation to each other, with a docket movement on each
// naming the other's number.
func (s *Service) linkCases(ctx context.Context, actor actor.Actor, crim, civ *Case, now time.Time) error {
	tx := db.Conn(ctx, s.DB)
	crim.LinkedCaseID, civ.LinkedCaseID = &civ.ID, &crim.ID
	if err := tx.Exec("UPDATE cases SET linked_case_id = ? WHERE id = ?", civ.ID, crim.ID).Error; err != nil {
		return err
	}
	if err := tx.Exec("UPDATE cases SET linked_case_id = ? WHERE id = ?", crim.ID, civ.ID).Error; err != nil {
		return err
	}
	if err := s.Move(ctx, crim, &actor, now, MoveLinkedCases, fmt.Sprintf("Representação contra pessoas e torcidas: as torcidas respondem no processo civil %s, vinculado (DOMAIN.md §4; LGE art. 180).", FormatNumber(civ.Number))); err != nil {
		return err
	}
	return s.Move(ctx, civ, &actor, now, MoveLinkedCases, fmt.Sprintf("Representação contra pessoas e torcidas: as pessoas respondem no processo criminal %s, vinculado (Lei 9.099/1995; DOMAIN.md §4).", FormatNumber(crim.Number)))
}

// fileCase writes one case of the representation with the defendants ds:
// the next CNJ number of the court and year (Res. CNJ 65/2008), its flow
// by its defendants, the receipt movement and the distribution to a judge
// of the court (TPU 26). The court row is locked by the caller.
func (s *Service) fileCase(ctx context.Context, actor actor.Actor, court Court, in Representation, v *validated, ds []Defendant, now time.Time) (*Case, error) {
	tx := db.Conn(ctx, s.DB)
	year := now.In(s.Loc).Year()
	var seq int
	if err := tx.Raw(`INSERT INTO case_sequences (court_code, year, last) VALUES (?, ?, 1)
		ON CONFLICT (court_code, year) DO UPDATE SET last = case_sequences.last + 1 RETURNING last`, court.Code, year).Scan(&seq).Error; err != nil {
		return nil, err
	}
	num, err := NewCNJFor(court.Code, year, seq)
	if err != nil {
		return nil, err
	}
	c := &Case{
		Number: num.Digits(), CourtCode: court.Code, Year: year, Sequence: seq, Status: StatusFiled,
		FilerUserID: actor.UserID, FilerRole: actor.Role,
		FiledByKind: in.FiledBy.Kind, FiledByName: strings.TrimSpace(in.FiledBy.Name), Ref: strings.TrimSpace(in.Ref),
		Kickoff: v.kickoff, OccurredAt: v.occurredAt, FactsDate: v.factsDate,
		Latitude: in.Facts.Latitude, Longitude: in.Facts.Longitude,
		Conduct: dedupe(in.Facts.Conduct), PoliceReports: TrimAll(in.Facts.PoliceReports),
		Description: strings.TrimSpace(in.Facts.Description), FiledAt: now,
		DistanceToVenueM: v.distance, PlaceRelation: v.relation, OnRoute: v.onRoute,
		Version: 1, Flow: flowOf(ds),
	}
	class, subjects := Classify(c.Flow, c.FiledByKind, c.Conduct)
	c.ClassCode, c.SubjectCodes = &class, subjects
	if in.Event != nil {
		c.Competition, c.HomeTeam, c.AwayTeam = strings.TrimSpace(in.Event.Competition), strings.TrimSpace(in.Event.Home), strings.TrimSpace(in.Event.Away)
		c.VenueID = &v.venue.ID
	}
	if err := tx.Create(c).Error; err != nil {
		return nil, err
	}
	for i := range ds {
		ds[i].CaseID = c.ID
		ds[i].Position = i
	}
	if err := tx.Create(&ds).Error; err != nil {
		return nil, err
	}
	for _, d := range ds {
		if d.Kind == "fan_group" && d.GroupID != nil {
			// The register as evidence (issue 32, item 6).
			if err := registry.TakeCaseRegister(ctx, s.DB, c.ID, d.ID, *d.GroupID, now); err != nil {
				return nil, err
			}
		}
	}
	uid := actor.UserID
	if err := tx.Create(&Movement{CaseID: c.ID, At: now, Kind: MoveFiling, AuthorUserID: &uid, AuthorRole: actor.Role,
		Description: fmt.Sprintf("Representação recebida de %s (%s).", c.FiledByName, kindPT(c.FiledByKind))}).Error; err != nil {
		return nil, err
	}
	if err := s.Distribute(ctx, c, now, nil); err != nil {
		return nil, err
	}
	return c, nil
}

// flowOf is the flow of a case with these defendants: civil when every one
// is a fan group (DOMAIN.md §2), else the JECRIM's.
func flowOf(ds []Defendant) string {
	for _, d := range ds {
		if d.Kind != "fan_group" {
			return FlowCriminal
		}
	}
	if len(ds) == 0 {
		return FlowCriminal
	}
	return FlowCivil
}

// claimKey records the filer's idempotency key with the request's hash. A
// key already used returns the case it filed (same body) or errs.Invalid
// (another body). A concurrent filing with the same key waits on the
// unique index until the first one commits.
func (s *Service) claimKey(ctx context.Context, actor actor.Actor, in Representation, key string, now time.Time) (*Case, int64, error) {
	tx := db.Conn(ctx, s.DB)
	body, err := json.Marshal(in)
	if err != nil {
		return nil, 0, err
	}
	sum := sha256.Sum256(body)
	var id int64
	if err := tx.Raw(`INSERT INTO filing_keys (user_id, key, request_hash, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (user_id, key) DO NOTHING RETURNING id`, actor.UserID, key, sum[:], now).Scan(&id).Error; err != nil {
		return nil, 0, err
	}
	if id != 0 {
		return nil, id, nil
	}
	var prev struct {
		RequestHash []byte
		CaseID      *int64
	}
	if err := tx.Raw("SELECT request_hash, case_id FROM filing_keys WHERE user_id = ? AND key = ?", actor.UserID, key).Scan(&prev).Error; err != nil {
		return nil, 0, err
	}
	if !bytes.Equal(prev.RequestHash, sum[:]) || prev.CaseID == nil {
		return nil, 0, errs.InvalidField("Idempotency-Key", "reused", "esta chave de idempotência já foi usada por você com outra representação: use uma chave nova para um novo processo.")
	}
	var c Case
	if err := tx.Where("id = ?", *prev.CaseID).Take(&c).Error; err != nil {
		return nil, 0, err
	}
	return &c, 0, nil
}

// NewCNJFor returns the CNJ number of sequence seq of year in the court
// coded TR.OOOO, segment J = 8 (state courts). Res. CNJ 65/2008.
func NewCNJFor(court string, year, seq int) (CNJNumber, error) {
	var tr, unit int
	if _, err := fmt.Sscanf(court, "%02d.%04d", &tr, &unit); err != nil {
		return CNJNumber{}, fmt.Errorf("cases: court code %q is not TR.OOOO", court)
	}
	return NewCNJ(seq, year, 8, tr, unit)
}

// Distribute assigns c to the judge of its court with the fewest cases
// (ties to the earliest judge): equitable distribution in turn. Without a
// judge the case stays filed until DistributePending runs. The court row is
// locked by the caller.
func (s *Service) Distribute(ctx context.Context, c *Case, now time.Time, by *actor.Actor) error {
	tx := db.Conn(ctx, s.DB)
	judges, err := accounts.CourtJudges(ctx, s.DB, c.CourtCode)
	if err != nil || len(judges) == 0 {
		return err
	}
	ids := make([]int64, len(judges))
	for i, j := range judges {
		ids[i] = j.ID
	}
	load, err := JudgeLoads(ctx, s.DB, ids)
	if err != nil {
		return err
	}
	judge := judges[0] // by id: ties go to the earliest judge
	for _, j := range judges[1:] {
		if load[j.ID].Total < load[judge.ID].Total {
			judge = j
		}
	}
	c.JudgeID, c.Status = &judge.ID, StatusDistributed
	if err := tx.Model(c).Updates(map[string]any{"judge_id": judge.ID, "status": StatusDistributed}).Error; err != nil {
		return err
	}
	return s.Move(ctx, c, by, now, MoveDistribution, "Distribuído por sorteio equitativo ao(à) juiz(a) "+judge.Name+".",
		Complement{Name: "tipo de distribuição", Value: "sorteio"})
}

// DistributePending distributes the court's cases filed while it had no
// judge (called when a judge is created). It returns how many it assigned.
func (s *Service) DistributePending(ctx context.Context, court string) (int, error) {
	n := 0
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		if err := tx.Exec("SELECT 1 FROM courts WHERE code = ? FOR UPDATE", court).Error; err != nil {
			return err
		}
		var pending []Case
		if err := tx.Where("court_code = ? AND judge_id IS NULL AND status = ?", court, StatusFiled).Order("id").Find(&pending).Error; err != nil {
			return err
		}
		for i := range pending {
			if err := s.Distribute(ctx, &pending[i], s.Now(), nil); err != nil {
				return err
			}
			if pending[i].JudgeID != nil {
				n++
			}
		}
		return nil
	})
	return n, err
}

// BirthDate reads a defendant's birth date (AAAA-MM-DD) into field's
// errors: after today or before 1900 is "range"; under 18 on the date of
// the facts (when known) is "adult": the case belongs to the Justiça da
// Infância e Juventude (Lei 8.069/1990, ECA, art. 104; CF art. 228). ok
// is false when the date is unreadable or out of range; a minor's date is
// returned with ok true and the error added.
func BirthDate(f *errs.Fields, field, raw string, today, facts civil.Date) (civil.Date, bool) {
	bd, ok := ParseDate(f, field, raw)
	if !ok {
		return bd, false
	}
	if bd.After(today) || bd.Year < 1900 {
		f.Add(field, "range", "data de nascimento fora do intervalo possível.")
		return bd, false
	}
	if !facts.IsZero() && civil.MinorOn(bd, facts) {
		f.Add(field, "adult", "menor de 18 anos na data dos fatos: o caso é da Justiça da Infância e Juventude (ECA), não do juizado.")
	}
	return bd, true
}

// FilerKindPT names in Portuguese who filed or reported (a representation's
// filed_by.kind, and reported_by.role): the words of the docket and of the
// documents.
var FilerKindPT = map[string]string{"prosecutor": "Ministério Público", "police": "autoridade policial", "other_authority": "outra autoridade",
	"home_club": "clube mandante", "fan": "torcedor presente à partida"}

func kindPT(k string) string {
	if w, ok := FilerKindPT[k]; ok {
		return w
	}
	return k
}

func (s *Service) validate(ctx context.Context, court string, in Representation) (*validated, error) {
	var f errs.Fields
	v := &validated{}
	now := s.Now()
	if !Contains(FilerKinds, in.FiledBy.Kind) {
		f.Add("filed_by.kind", "oneof", "deve ser um de: "+strings.Join(FilerKinds, ", ")+".")
	}
	if CheckText(&f, "filed_by.name", in.FiledBy.Name, MaxShort, false) && strings.TrimSpace(in.FiledBy.Name) == "" {
		f.Add("filed_by.name", "required", "informe o nome de quem representa.")
	}
	CheckText(&f, "ref", in.Ref, MaxListItemLen, false)
	CheckText(&f, "facts.description", in.Facts.Description, MaxLong, true)
	if len(in.Facts.PoliceReports) > MaxListItems {
		f.Add("facts.police_reports", "max_items", fmt.Sprintf("no máximo %d boletins por representação.", MaxListItems))
	}
	if len(in.Facts.Conduct) > len(sanctions.ConductWords) {
		f.Add("facts.conduct", "max_items", fmt.Sprintf("no máximo %d condutas (as palavras de conduta, sem repetição).", len(sanctions.ConductWords)))
	}
	if len(in.Defendants) > MaxListItems {
		f.Add("defendants", "max_items", fmt.Sprintf("no máximo %d representados por representação.", MaxListItems))
	}
	conductOK, offVenue := checkFacts(&f, v, in, now, s.Loc)
	// Event.
	if in.Event == nil {
		if !offVenue {
			f.Add("event", "required", "informe o evento esportivo; só conduta fora do local do evento (art. 184 da Lei 14.597/2023) dispensa o evento.")
		}
	} else {
		CheckText(&f, "event.competition", in.Event.Competition, MaxName, false)
		CheckText(&f, "event.home", in.Event.Home, MaxName, false)
		CheckText(&f, "event.away", in.Event.Away, MaxName, false)
		CheckText(&f, "event.venue", in.Event.Venue, MaxShort, false)
		if strings.TrimSpace(in.Event.Venue) == "" {
			f.Add("event.venue", "required", "informe o local do evento.")
		} else if venue, err := FindVenue(ctx, s.DB, in.Event.Venue); err != nil {
			return nil, err
		} else if venue == nil {
			f.Add("event.venue", "known_venue", fmt.Sprintf("local desconhecido %q: não consta da tabela de locais do juizado.", in.Event.Venue))
		} else {
			v.venue = venue
		}
		if in.Event.Kickoff != "" {
			t, err := time.Parse(time.RFC3339, in.Event.Kickoff)
			if err != nil {
				f.Add("event.kickoff", "rfc3339", "horário de início inválido: use o formato 2025-03-30T16:00:00-03:00.")
			} else if !v.occurredAt.IsZero() && (t.Sub(v.occurredAt) > 48*time.Hour || v.occurredAt.Sub(t) > 48*time.Hour) {
				f.Add("event.kickoff", "near_facts", "o início da partida deve estar a até 48 horas do instante dos fatos.")
			} else {
				v.kickoff = &t
			}
		}
	}
	placeOf(&f, v, in)
	// Defendants.
	if len(in.Defendants) == 0 {
		f.Add("defendants", "required", "informe ao menos um representado.")
	}
	notFound, err := s.checkDefendants(ctx, &f, v, court, in, now)
	if err != nil {
		return nil, err
	}
	if err := checkCovered(&f, v, in, conductOK); err != nil {
		return nil, err
	}
	if notFound != nil {
		return nil, notFound
	}
	return v, f.Err()
}

// checkFacts checks the facts of in (their instant, not in the future and
// its day in the court's zone loc, the place, the conduct words, the police
// reports) into v; conductOK says the conduct is given and known, offVenue
// that a conduct away from the event (Lei 14.597/2023, art. 184) makes the
// event optional.
func checkFacts(f *errs.Fields, v *validated, in Representation, now time.Time, loc *time.Location) (conductOK, offVenue bool) {
	// Facts.
	if in.Facts.OccurredAt == "" {
		f.Add("facts.occurred_at", "required", "informe o instante dos fatos (RFC 3339).")
	} else if t, err := time.Parse(time.RFC3339, in.Facts.OccurredAt); err != nil {
		f.Add("facts.occurred_at", "rfc3339", "instante inválido: use o formato 2025-03-30T15:20:00-03:00.")
	} else if t.After(now) {
		f.Add("facts.occurred_at", "not_future", "os fatos não podem estar no futuro.")
	} else {
		v.occurredAt, v.factsDate = t, civil.Today(t, loc)
	}
	if in.Facts.Latitude != nil && (math.IsNaN(*in.Facts.Latitude) || *in.Facts.Latitude < -90 || *in.Facts.Latitude > 90) {
		f.Add("facts.latitude", "range", "latitude deve estar entre -90 e 90.")
	}
	if in.Facts.Longitude != nil && (math.IsNaN(*in.Facts.Longitude) || *in.Facts.Longitude < -180 || *in.Facts.Longitude > 180) {
		f.Add("facts.longitude", "range", "longitude deve estar entre -180 e 180.")
	}
	if (in.Facts.Latitude == nil) != (in.Facts.Longitude == nil) {
		f.Add("facts.latitude", "together", "latitude e longitude vão juntas.")
	}
	conductOK = len(in.Facts.Conduct) > 0
	if !conductOK {
		f.Add("facts.conduct", "required", "informe ao menos uma conduta.")
	}
	for i, w := range in.Facts.Conduct {
		if !sanctions.IsConductWord(w) {
			conductOK = false
			f.Add(fmt.Sprintf("facts.conduct[%d]", i), "oneof", fmt.Sprintf("conduta desconhecida %q; use: %s.", w, strings.Join(sanctions.ConductWords, ", ")))
		}
		offVenue = offVenue || offVenueWords[w]
	}
	for i, r := range in.Facts.PoliceReports {
		if strings.TrimSpace(r) == "" {
			f.Add(fmt.Sprintf("facts.police_reports[%d]", i), "required", "número de boletim vazio.")
		}
		CheckText(f, fmt.Sprintf("facts.police_reports[%d]", i), r, MaxListItemLen, false)
	}
	return conductOK, offVenue
}

// checkDefendants checks the defendants of in into v: a person's names,
// birth date and CPF (unique in the representation), a group's name, CNPJ
// and its registered group in court (linkGroup). The first group_id
// unknown in the court is returned apart (a 404 before any 422).
func (s *Service) checkDefendants(ctx context.Context, f *errs.Fields, v *validated, court string, in Representation, now time.Time) (notFound error, err error) {
	seen := map[string]int{}
	for i, d := range in.Defendants {
		p := fmt.Sprintf("defendants[%d]", i)
		switch d.Kind {
		case "person":
			def := Defendant{Kind: "person", FullName: Clean(d.FullName), MotherName: Clean(d.MotherName), FatherName: Clean(d.FatherName), Address: strings.TrimSpace(d.Address)}
			if CheckText(f, p+".full_name", d.FullName, MaxName, false) {
				switch n := len(strings.Fields(def.FullName)); {
				case n == 0:
					f.Add(p+".full_name", "required", "informe o nome completo (nome e sobrenome).")
				case n < 2:
					f.Add(p+".full_name", "min_words", "informe o nome completo: nome e sobrenome, não só uma palavra.")
				}
			}
			CheckText(f, p+".mother_name", d.MotherName, MaxName, false)
			CheckText(f, p+".father_name", d.FatherName, MaxName, false)
			CheckText(f, p+".address", d.Address, MaxShort, false)
			if def.MotherName == "" {
				f.Add(p+".mother_name", "required", "informe o nome da mãe.")
			}
			if d.BirthDate == "" {
				f.Add(p+".birth_date", "required", "informe a data de nascimento (AAAA-MM-DD).")
			} else if bd, ok := BirthDate(f, p+".birth_date", d.BirthDate, civil.Today(now, s.Loc), v.factsDate); ok {
				def.BirthDate = &bd
			}
			if d.CPF != nil && strings.TrimSpace(*d.CPF) != "" {
				cpf, err := registry.ParseCPF(*d.CPF)
				if err != nil {
					f.Add(p+".cpf", "cpf", err.Error()+".")
				} else {
					s := cpf.String()
					def.CPF = &s
					if j, dup := seen[s]; dup {
						f.Add(p+".cpf", "unique", fmt.Sprintf("CPF repetido: já informado em defendants[%d].", j))
					} else {
						seen[s] = i
					}
				}
			}
			v.defendants = append(v.defendants, def)
		case "fan_group":
			def := Defendant{Kind: "fan_group", GroupName: Clean(d.Name), SupportedClub: Clean(d.SupportedClub)}
			if CheckText(f, p+".name", d.Name, MaxName, false) && def.GroupName == "" {
				f.Add(p+".name", "required", "informe o nome da torcida organizada.")
			}
			CheckText(f, p+".supported_club", d.SupportedClub, MaxName, false)
			if d.CNPJ != nil && strings.TrimSpace(*d.CNPJ) != "" {
				c, err := registry.ParseCNPJ(*d.CNPJ)
				if err != nil {
					f.Add(p+".cnpj", "cnpj", err.Error())
				} else {
					def.CNPJ = &c
				}
			}
			gid, err := s.linkGroup(ctx, court, d.GroupID, def.GroupName)
			if err != nil {
				var fe *errs.Error
				if !errors.As(err, &fe) || fe.Kind != errs.NotFound {
					return nil, err
				}
				if notFound == nil {
					fe.Fields = []errs.FieldError{{Field: p + ".group_id", Rule: "exists", Message: fe.Message}}
					notFound = fe
				}
			}
			def.GroupID = gid
			v.defendants = append(v.defendants, def)
		default:
			f.Add(p+".kind", "oneof", "deve ser person ou fan_group.")
		}
	}
	return notFound, nil
}

// checkCovered checks that a statute covers the conduct of each defendant
// at the date of the facts (sanctions.BanRange); the first defendant not
// covered goes to f.
func checkCovered(f *errs.Fields, v *validated, in Representation, conductOK bool) error {
	// The conduct must be covered by a statute at the date of the facts.
	if conductOK && !v.factsDate.IsZero() {
		for i, d := range in.Defendants {
			subj := sanctions.Person
			if d.Kind == "fan_group" {
				subj = sanctions.Group
			} else if d.Kind != "person" {
				continue
			}
			if _, err := sanctions.BanRange(sanctions.Query{Subject: subj, FactsDate: v.factsDate, Conduct: in.Facts.Conduct}); err != nil {
				var nc *sanctions.NotCoveredError
				if errors.As(err, &nc) {
					field := "facts.conduct"
					if nc.Field == "facts_date" {
						field = "facts.occurred_at"
					}
					f.Add(field, "covered", fmt.Sprintf("defendants[%d]: %s", i, nc.Reason))
					break
				}
				return err
			}
		}
	}
	return nil
}

// linkGroup returns the registered group of the court (TR.OOOO) for a
// fan_group defendant: the group_id given, which must be registered in that
// court (LGE art. 178: the court's own register of fan groups), else the
// one group of the court whose name matches (case and accents ignored),
// else nil. A group_id unknown or registered in another court is the same
// errs.NotFound (../shared/API.md: no message tells them apart); the
// trigger of migration 00030 checks it again in the filing's transaction.
func (s *Service) linkGroup(ctx context.Context, court string, id *int64, name string) (*int64, error) {
	if id != nil {
		g, err := registry.CourtGroup(ctx, s.DB, court, *id)
		if err != nil {
			return nil, err
		}
		if g == nil {
			return nil, GroupNotFound(*id)
		}
		return id, nil
	}
	if name == "" {
		return nil, nil
	}
	ids, err := registry.CourtGroupsNamed(ctx, s.DB, court, name, 2)
	if err != nil {
		return nil, err
	}
	if len(ids) == 1 {
		return &ids[0], nil
	}
	return nil, nil
}

// GroupNotFound is the errs.NotFound of a fan group id that is not
// registered in the caller's court, worded the same whether the group
// exists elsewhere or not at all.
func GroupNotFound(id int64) *errs.Error {
	return errs.New(errs.NotFound, fmt.Sprintf("Torcida %d não encontrada.", id))
}

// popularNameSQL is the SQL of a venue's popular name: the part in
// parentheses at the end of its name ("Maracanã" of "Estádio Jornalista
// Mário Filho (Maracanã)"), NULL when it has none. FindVenue matches a name
// by it; ListVenueAliases lists it as the venue's alias.
const popularNameSQL = `substring(name from '\(([^)]+)\)\s*$')`

// FindVenue returns the venue whose name matches name, case and accents
// ignored, either whole ("Estádio Jornalista Mário Filho (Maracanã)") or by
// the popular name in parentheses ("Maracanã"); nil when none or several do.
func FindVenue(ctx context.Context, g *gorm.DB, name string) (*Venue, error) {
	var vs []Venue
	err := db.Conn(ctx, g).Raw(`SELECT * FROM venues
		WHERE f_unaccent(name) = f_unaccent(?)
		   OR f_unaccent(`+popularNameSQL+`) = f_unaccent(?)
		ORDER BY (f_unaccent(name) = f_unaccent(?)) DESC LIMIT 2`, strings.TrimSpace(name), strings.TrimSpace(name), strings.TrimSpace(name)).Scan(&vs).Error
	if err != nil || len(vs) == 0 {
		return nil, err
	}
	if len(vs) > 1 && !strings.EqualFold(strings.TrimSpace(name), vs[0].Name) {
		return nil, nil
	}
	return &vs[0], nil
}

// Clean is a one-line text as stored: textcheck.Line (NFC, no controls,
// collapsed spaces).
func Clean(s string) string { return textcheck.Line(s) }

// TrimAll returns l with each item cleaned (Clean) and the empty ones
// dropped.
func TrimAll(l []string) StringList {
	out := StringList{}
	for _, s := range l {
		out = append(out, strings.TrimSpace(s))
	}
	return out
}

func dedupe(l []string) StringList {
	out := StringList{}
	for _, s := range l {
		if !Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// Contains reports whether s is in l.
func Contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// placeOf records where the facts happened relative to the venue, for the
// 5,000 m rule (Lei 14.597/2023, art. 201, § 1º, I; Lei 10.671/2003, art.
// 41-B, § 1º, I, and art. 39, § 1º): the great-circle distance in whole
// metres from the facts' coordinates to the venue's and its relation
// (sanctions.PlaceOf). Without coordinates only the filer's on_route
// statement is recorded; facts.on_route without an event is refused.
func placeOf(f *errs.Fields, v *validated, in Representation) {
	v.onRoute = in.Facts.OnRoute != nil && *in.Facts.OnRoute
	if v.onRoute && in.Event == nil {
		f.Add("facts.on_route", "needs_event", "o trajeto de ida ou volta (art. 201, § 1º, I, da Lei 14.597/2023) pressupõe um evento com local: informe o evento.")
		return
	}
	if v.venue == nil {
		return
	}
	lat, lon := in.Facts.Latitude, in.Facts.Longitude
	if lat == nil || lon == nil || math.IsNaN(*lat) || math.IsNaN(*lon) || math.Abs(*lat) > 90 || math.Abs(*lon) > 180 {
		if v.onRoute {
			r := string(sanctions.OnRoute)
			v.relation = &r
		}
		return
	}
	d := math.Round(sanctions.DistanceMeters(*lat, *lon, v.venue.Latitude, v.venue.Longitude))
	m, r := int(d), string(sanctions.PlaceOf(d, v.onRoute))
	v.distance, v.relation = &m, &r
}
