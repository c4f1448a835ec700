package decisions

import (
	"context"
	"fmt"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/schedule"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/textcheck"
	"github.com/juizado/juizado/sanctions"
)

// ScopeInput is where a measure the judge writes applies (the "scope" of a
// precautionary ban, a suspension condition or a TAC; ../shared/API.md
// "Scope and match terms"): venues by name (as in the venue table, case
// and accents ignored, or the popular name in parentheses) and clubs whose
// home matches it covers (as the court's imported schedule names them).
// Absent: anywhere.
type ScopeInput struct {
	Venues []string `json:"venues"`
	Clubs  []string `json:"clubs"`
}

// MaxMatchTerm bounds a term counted in matches.
const MaxMatchTerm = 100

// resolveScope validates in against the venue table and the clubs of the
// court's imported schedule and returns the stored scope (nil for nil in).
// Field errors go to f under prefix ("scope", "precautionary_until_final.scope").
func (s *Service) resolveScope(ctx context.Context, f *errs.Fields, court string, in *ScopeInput, prefix string) (*sanctions.Scope, error) {
	if in == nil {
		return nil, nil
	}
	if len(in.Venues) == 0 && len(in.Clubs) == 0 {
		f.Add(prefix, "required", "informe ao menos um local (venues) ou um clube (clubs); sem scope, o impedimento vale para qualquer local em que se realize evento esportivo.")
		return nil, nil
	}
	if len(in.Venues) > cases.MaxListItems || len(in.Clubs) > cases.MaxListItems {
		f.Add(prefix, "max_items", fmt.Sprintf("no máximo %d locais e %d clubes.", cases.MaxListItems, cases.MaxListItems))
		return nil, nil
	}
	sc := &sanctions.Scope{Venues: []string{}, VenueIDs: []int64{}, Clubs: []string{}}
	seen := map[int64]bool{}
	for i, name := range in.Venues {
		field := fmt.Sprintf("%s.venues[%d]", prefix, i)
		name = strings.TrimSpace(name)
		if name == "" {
			f.Add(field, "required", "nome do local vazio.")
			continue
		}
		if len(name) > cases.MaxShort {
			f.Add(field, "max", "nome do local longo demais.")
			continue
		}
		v, err := cases.FindVenue(ctx, s.DB, name)
		if err != nil {
			return nil, err
		}
		if v == nil {
			f.Add(field, "known_venue", fmt.Sprintf("local desconhecido %q: não consta da tabela de locais do juizado.", name))
			continue
		}
		if !seen[v.ID] {
			seen[v.ID] = true
			sc.Venues, sc.VenueIDs = append(sc.Venues, v.Name), append(sc.VenueIDs, v.ID)
		}
	}
	clubs := map[string]bool{}
	for i, name := range in.Clubs {
		field := fmt.Sprintf("%s.clubs[%d]", prefix, i)
		club, err := s.scheduleClub(ctx, f, court, name, true, field)
		if err != nil {
			return nil, err
		}
		if club != "" && !clubs[textcheck.Fold(club)] {
			clubs[textcheck.Fold(club)] = true
			sc.Clubs = append(sc.Clubs, club)
		}
	}
	return sc, nil
}

// scheduleClub returns the club named name as the court's imported
// schedule spells it (case and accents ignored): as home team when home,
// else as home or away team. It adds an error on field when the schedule
// does not have it.
func (s *Service) scheduleClub(ctx context.Context, f *errs.Fields, court, name string, home bool, field string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		f.Add(field, "required", "nome do clube vazio.")
		return "", nil
	}
	if len(name) > cases.MaxName {
		f.Add(field, "max", "nome do clube longo demais.")
		return "", nil
	}
	var found []string
	q := `SELECT home FROM matches WHERE court_code = ? AND f_unaccent(home) = f_unaccent(?) LIMIT 1`
	args := []any{court, name}
	if !home {
		q = `SELECT t FROM (SELECT home AS t FROM matches WHERE court_code = ? AND f_unaccent(home) = f_unaccent(?)
			UNION ALL SELECT away FROM matches WHERE court_code = ? AND f_unaccent(away) = f_unaccent(?)) x LIMIT 1`
		args = []any{court, name, court, name}
	}
	if err := db.Conn(ctx, s.DB).Raw(q, args...).Scan(&found).Error; err != nil {
		return "", err
	}
	if len(found) == 0 {
		what := "como mandante "
		if !home {
			what = ""
		}
		f.Add(field, "known_club", fmt.Sprintf("clube desconhecido %q: não consta %sda tabela de partidas importada pelo juizado (POST /api/v1/matches/import).", name, what))
		return "", nil
	}
	return found[0], nil
}

// resolveMatchTerm reads a term counted in matches (ban.matches, ban.club,
// ban.home_only) and resolves it against the court's imported schedule
// from first on: nil when in names no matches. Field errors go to f under
// prefix ("ban.").
func (s *Service) resolveMatchTerm(ctx context.Context, f *errs.Fields, court string, in BanInput, first civil.Date, prefix string) (*sanctions.MatchTerm, sanctions.DayList, error) {
	if in.Matches == nil {
		if in.Club != "" || in.HomeOnly != nil {
			f.Add(prefix+"matches", "required", "club e home_only valem para o prazo contado em jogos: informe também matches (o número de jogos).")
		}
		return nil, nil, nil
	}
	n := *in.Matches
	if n < 1 || n > MaxMatchTerm {
		f.Add(prefix+"matches", "range", fmt.Sprintf("o número de jogos deve ser de 1 a %d.", MaxMatchTerm))
		return nil, nil, nil
	}
	if in.Months != nil {
		f.Add(prefix+"months", "one_of", "informe o prazo em meses (months) ou em jogos (matches), não os dois.")
	}
	if in.LastDayOverride != "" {
		f.Add(prefix+"last_day_override", "matches", "no prazo contado em jogos o último dia é o do último jogo da tabela importada.")
	}
	homeOnly := in.HomeOnly != nil && *in.HomeOnly
	if strings.TrimSpace(in.Club) == "" {
		f.Add(prefix+"club", "required", "informe o clube (club) cujos jogos contam o prazo.")
		return nil, nil, nil
	}
	club, err := s.scheduleClub(ctx, f, court, in.Club, homeOnly, prefix+"club")
	if err != nil || club == "" {
		return nil, nil, err
	}
	mt := &sanctions.MatchTerm{Matches: n, Club: club, HomeOnly: homeOnly}
	days, count, err := schedule.MatchDays(ctx, db.Conn(ctx, s.DB), court, *mt, first)
	if err != nil {
		return nil, nil, err
	}
	if count < n {
		f.Add(prefix+"matches", "schedule", fmt.Sprintf("a tabela de partidas importada tem %d jogo(s) de %s%s a partir de %s, menos que os %d do prazo: importe a tabela completa da competição (POST /api/v1/matches/import).",
			count, club, map[bool]string{true: " como mandante", false: ""}[homeOnly], first.BR(), n))
		return nil, nil, nil
	}
	return mt, days, nil
}

// statutoryScope refuses a scope or a match term on a statutory ban (LGE
// art. 201, § 2º; Lei 10.671/2003, arts. 39 and 41-B; the group bans of
// LGE arts. 183, § 2º, and 184; Lei 7.716/1989, art. 20, § 2º-A): the law
// forbids "qualquer local em que se realize evento esportivo".
func statutoryScope(f *errs.Fields, scope *ScopeInput, ban BanInput, what string) {
	if scope != nil {
		f.Add("scope", "statutory", fmt.Sprintf("%s vale para qualquer local em que se realize evento esportivo (Lei 14.597/2023, art. 201, § 2º; Lei 10.671/2003, arts. 39 e 41-B): a lei não admite restringi-lo a locais ou clubes. Local e jogos só se fixam na medida cautelar (CPP, art. 319, II), na condição da suspensão (Lei 9.099/1995, art. 89, § 1º, II) e no TAC.", what))
	}
	if ban.Matches != nil || ban.Club != "" || ban.HomeOnly != nil {
		f.Add("ban.matches", "statutory", fmt.Sprintf("%s tem prazo em meses fixado na lei: o prazo contado em jogos só cabe na medida cautelar, na condição da suspensão e no TAC.", what))
	}
}
