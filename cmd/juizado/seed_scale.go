package main

// juizado seed --scale N: realistic data at scale for benchmarks and demos,
// written with COPY (pgx CopyFrom through the database/sql connection)
// instead of the service layer: N cases of the configured court with
// person defendants (Brazilian names with accents, valid CPFs), gapless CNJ
// numbers per year continuing the court's sequence, venues from the table,
// docket movements, bans (a share of them in force: a sentenced case's
// judgment made final, as when every party waives the appeal, 0 to 15 days
// after the sentence, and its bans started that day, Súmula 643 STJ), fan
// groups with member
// registers; then the blocklist is refreshed so that its materialised
// entries and change feed match the bans in force.
//
// Every value is derived from (seed, index) by a hash, so a run is
// reproducible and the generator needs no memory per case.
//
// Audit trail: when the database user is a superuser the seeding
// transaction runs with session_replication_role = replica, which skips the
// audit triggers (migration 00006) and the foreign-key triggers; seeded
// rows are then NOT in the audit trail (they are synthetic data, not acts
// of the court). Without superuser rights the triggers fire for every row
// (much slower, but the trail covers everything).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/config"
	"github.com/juizado/juizado/sanctions"
	"github.com/spf13/cobra"
	"gorm.io/gorm"
)

// scaleOptions are the flags of `juizado seed --scale N`.
type scaleOptions struct {
	N         int     // cases to create (0: the demo seed instead)
	Seed      uint64  // generator seed: the same seed gives the same data
	Sentenced float64 // share of cases sentenced (a ban per defendant)
	Judges    int     // judges the cases are distributed to (scale-juiz-1..)
	Out       io.Writer
}

// scaleFlags adds the --scale flags to the seed command.
func scaleFlags(cmd *cobra.Command) *scaleOptions {
	o := &scaleOptions{Out: os.Stdout}
	cmd.Flags().IntVar(&o.N, "scale", 0, "create N synthetic cases with defendants, bans, fan groups and members (COPY; for benchmarks and demos)")
	cmd.Flags().Uint64Var(&o.Seed, "scale-seed", 1, "with --scale: generator seed (same seed, same data)")
	cmd.Flags().Float64Var(&o.Sentenced, "scale-sentenced", 0.6, "with --scale: share of cases sentenced with a ban")
	cmd.Flags().IntVar(&o.Judges, "scale-judges", 4, "with --scale: judges scale-juiz-1..K the cases are distributed to")
	return o
}

// scaleStats tells what seedScale wrote.
type scaleStats struct {
	Cases, Defendants, Movements, Bans int
	BansInForce                        int // bans in force today with a CPF: the blocklist entries they make
	Groups, Members                    int
	Years                              map[int][2]int // year -> first and last sequence written
	AuditSkipped                       bool           // session_replication_role = replica was used
	BlocklistVersion                   int64
	BlocklistEntries                   int64
}

// Names (IBGE's most frequent, with their accents), streets and the rest.
var (
	scaleMale = []string{"João", "José", "Antônio", "Francisco", "Carlos", "Paulo", "Pedro", "Lucas", "Luiz", "Marcos",
		"Luís", "Gabriel", "Rafael", "Daniel", "Marcelo", "Bruno", "Eduardo", "Felipe", "Raimundo", "Rodrigo",
		"Sebastião", "Fábio", "André", "Márcio", "Tiago", "Vinícius", "Caio", "Otávio", "Júlio", "Sérgio",
		"Flávio", "César", "Mário", "Rogério", "Cláudio", "Estêvão", "Joaquim", "Benedito", "Geraldo", "Heitor",
		"Davi", "Arthur", "Enzo", "Matheus", "Guilherme", "Gustavo", "Leandro", "Renan", "Wellington", "Wesley"}
	scaleFemale = []string{"Maria", "Ana", "Francisca", "Antônia", "Adriana", "Juliana", "Márcia", "Fernanda", "Patrícia", "Aline",
		"Sandra", "Camila", "Amanda", "Bruna", "Jéssica", "Letícia", "Júlia", "Luciana", "Vanessa", "Mariana",
		"Gabriela", "Vitória", "Beatriz", "Larissa", "Cláudia", "Débora", "Lúcia", "Conceição", "Rosângela", "Sônia",
		"Tânia", "Fátima", "Luíza", "Helena", "Alícia", "Valéria", "Mônica", "Cecília", "Inês", "Raquel"}
	scaleSurnames = []string{"Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira", "Lima", "Gomes",
		"Costa", "Ribeiro", "Martins", "Carvalho", "Almeida", "Lopes", "Soares", "Fernandes", "Vieira", "Barbosa",
		"Rocha", "Dias", "Nascimento", "Andrade", "Moreira", "Nunes", "Marques", "Machado", "Mendes", "Freitas",
		"Cardoso", "Ramos", "Gonçalves", "Santana", "Teixeira", "Araújo", "Conceição", "Simões", "Magalhães", "Brandão",
		"Galvão", "Assunção", "Romão", "Falcão", "Guimarães", "Muniz", "Sampaio", "Queiroz", "Peçanha", "Leão",
		"Bezerra", "Cavalcanti", "Albuquerque", "Siqueira", "Brito", "Tavares", "Pimentel", "Aragão", "Estêvão", "Jesus"}
	scaleStreets = []string{"Rua das Flores", "Avenida Brasil", "Rua São Jorge", "Travessa Tiradentes", "Rua Dom Pedro II",
		"Avenida Getúlio Vargas", "Rua Sete de Setembro", "Rua da Conceição", "Rua Marechal Floriano", "Avenida João Pessoa",
		"Rua Visconde de Mauá", "Rua Quinze de Novembro", "Rua Barão do Rio Branco", "Avenida Paulista", "Rua Goiás"}
	scaleDistricts = []string{"Centro", "Vila Mariana", "Itaquera", "Madureira", "Boa Viagem", "Savassi", "Meireles",
		"Pituba", "Partenon", "Penha", "Cidade Alta", "Jardim América", "São Cristóvão", "Tijuca", "Liberdade"}
	scaleProfessions = []string{"Pedreiro(a)", "Motorista", "Vendedor(a)", "Estudante", "Auxiliar administrativo(a)", "Eletricista",
		"Comerciante", "Professor(a)", "Técnico(a) de enfermagem", "Mecânico(a)", "Autônomo(a)", "Garçom/Garçonete", "Porteiro(a)"}
	scaleCivil     = []string{"solteiro(a)", "casado(a)", "divorciado(a)", "união estável", "viúvo(a)"}
	scaleSchooling = []string{"Ensino fundamental incompleto", "Ensino fundamental completo", "Ensino médio incompleto",
		"Ensino médio completo", "Ensino superior incompleto", "Ensino superior completo"}
	scaleGroupPrefixes = []string{"Torcida Jovem", "Mancha", "Força Jovem", "Raça", "Garra", "Fúria", "Império",
		"Independente", "Guerreiros", "Leões da Fiel", "Esquadrão", "Dragões"}
	scaleClubs = []string{"Flamengo", "Fluminense", "Botafogo", "Vasco da Gama", "Corinthians", "Palmeiras", "São Paulo",
		"Santos", "Cruzeiro", "Atlético Mineiro", "Grêmio", "Internacional", "Athletico Paranaense", "Bahia", "Vitória",
		"Fortaleza", "Ceará", "Sport", "Náutico", "Santa Cruz", "Coritiba", "Goiás", "Avaí", "Figueirense", "Brasília"}
	// Home clubs by a word of the venue's name.
	scaleHome = []struct{ key, clubs string }{
		{"Maracanã", "Flamengo|Fluminense"}, {"Nilton Santos", "Botafogo"}, {"São Januário", "Vasco da Gama"},
		{"Arena Corinthians", "Corinthians"}, {"Allianz", "Palmeiras"}, {"Morumbi", "São Paulo"}, {"Vila Belmiro", "Santos"},
		{"Mineirão", "Cruzeiro|Atlético Mineiro"}, {"Grêmio", "Grêmio"}, {"Beira-Rio", "Internacional"},
		{"Baixada", "Athletico Paranaense"}, {"Fonte Nova", "Bahia"}, {"Castelão", "Fortaleza|Ceará"},
		{"Pernambuco", "Sport|Náutico|Santa Cruz"}, {"Mané Garrincha", "Brasília"},
	}
	scaleStateCup = map[string]string{"RJ": "Campeonato Carioca", "SP": "Campeonato Paulista", "MG": "Campeonato Mineiro",
		"RS": "Campeonato Gaúcho", "PR": "Campeonato Paranaense", "BA": "Campeonato Baiano", "CE": "Campeonato Cearense",
		"PE": "Campeonato Pernambucano", "DF": "Campeonato Brasiliense"}
	scaleCompetitions = []string{"Campeonato Brasileiro Série A", "Campeonato Brasileiro Série A", "Campeonato Brasileiro Série B",
		"Copa do Brasil", "Copa Libertadores da América"}
	// Conduct words with their weights; the organiser word is left out (no
	// conversion into a ban: LGE art. 201 § 6º).
	scaleConduct = []struct {
		w string
		n int
	}{{sanctions.WordViolence, 40}, {sanctions.WordRiot, 20}, {sanctions.WordInvasion, 15}, {sanctions.WordWeapons, 10},
		{sanctions.WordRacism, 5}, {sanctions.WordAgainstWomen, 4}, {sanctions.WordDiscrimination, 3}, {sanctions.WordFanFight, 3}}
	scaleFacts = map[string]string{
		sanctions.WordViolence:       "agrediu torcedor adversário com socos e chutes no setor %s",
		sanctions.WordRiot:           "promoveu tumulto e arremessou objetos no setor %s",
		sanctions.WordInvasion:       "invadiu o campo de jogo a partir do setor %s",
		sanctions.WordWeapons:        "portava rojões e barra de ferro na entrada do setor %s",
		sanctions.WordRacism:         "proferiu injúrias raciais contra jogador adversário, do setor %s",
		sanctions.WordAgainstWomen:   "ofendeu e ameaçou torcedora no setor %s",
		sanctions.WordDiscrimination: "entoou cânticos discriminatórios no setor %s",
		sanctions.WordFanFight:       "participou de briga generalizada entre torcidas nas imediações do setor %s",
	}
	scaleSectors  = []string{"Norte", "Sul", "Leste", "Oeste", "Visitante", "Inferior Norte", "Superior Sul"}
	scaleKickoffs = [][2]int{{16, 0}, {18, 30}, {19, 0}, {20, 0}, {21, 30}}
)

// scaleHash is splitmix64 over the seed and the parts: the generator's only
// source of variety.
func seedScale(ctx context.Context, g *gorm.DB, cfg config.Config, o scaleOptions) (*scaleStats, error) {
	if o.N <= 0 {
		return nil, errors.New("seed --scale: N must be positive")
	}
	if o.Judges < 1 {
		o.Judges = 1
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
	say := func(format string, a ...any) { fmt.Fprintf(o.Out, format+"\n", a...) }
	start := time.Now()
	a, err := openApp(g, cfg)
	if err != nil {
		return nil, err
	}
	loc := a.Loc
	if err := cases.EnsureCourt(ctx, g, cfg.Court, ""); err != nil {
		return nil, err
	}
	gen := &scaleGen{o: o, court: cfg.Court, loc: loc, now: time.Now(), seqStart: map[int]int{}, ranges: map[string]sanctions.Range{},
		judgeNames: map[int64]string{}}
	gen.today = civil.Today(gen.now, loc)
	gen.t0 = gen.now.Add(-730 * 24 * time.Hour)
	gen.step = (730*24*time.Hour - 60*time.Hour) / time.Duration(o.N) // the last filing 2.5 days ago at most
	gen.filer, _, err = accounts.EnsureUser(ctx, g, accounts.UserSpec{Name: "scale-promotoria", Role: "prosecutor", Court: cfg.Court})
	if err != nil {
		return nil, err
	}
	for j := 1; j <= o.Judges; j++ {
		u, _, err := accounts.EnsureUser(ctx, g, accounts.UserSpec{Name: fmt.Sprintf("scale-juiz-%d", j), Role: "judge", Court: cfg.Court})
		if err != nil {
			return nil, err
		}
		gen.judges = append(gen.judges, u)
		gen.judgeNames[u.ID] = u.Name
	}
	if err := g.WithContext(ctx).Raw("SELECT id, name, city, uf, latitude AS lat, longitude AS lon, time_zone FROM venues ORDER BY id").Scan(&gen.venues).Error; err != nil {
		return nil, err
	}
	if len(gen.venues) == 0 {
		return nil, errors.New("seed --scale: the venue table is empty")
	}
	// Defendants per case, as offsets (4 bytes a case).
	gen.defOffset = make([]int32, o.N+1)
	for i := 0; i < o.N; i++ {
		gen.defOffset[i+1] = gen.defOffset[i] + int32(gen.defendantsOf(i))
	}
	nDef := int(gen.defOffset[o.N])
	yearCount := map[int]int{}
	var years []int
	for i := 0; i < o.N; i++ {
		y := gen.filedAt(i).In(loc).Year()
		if yearCount[y] == 0 {
			years = append(years, y)
		}
		yearCount[y]++
	}
	nGroups := max(3, o.N/2000)
	nMembers := max(10, o.N/5)

	st := &scaleStats{Cases: o.N, Defendants: nDef, Groups: nGroups, Members: nMembers, Years: map[int][2]int{}}
	sqlDB, err := g.DB()
	if err != nil {
		return nil, err
	}
	conn, err := sqlDB.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("seed --scale: driver connection %T is not pgx", dc)
		}
		return seedScaleTx(ctx, sc.Conn(), gen, st, years, yearCount, say)
	})
	if err != nil {
		return nil, err
	}
	// The blocklist: materialised entries and one version with their feed.
	t := time.Now()
	if err := a.Lists.Refresh(ctx); err != nil {
		return nil, fmt.Errorf("seed --scale: blocklist refresh: %w", err)
	}
	if err := g.WithContext(ctx).Raw("SELECT version FROM blocklist_versions ORDER BY version DESC LIMIT 1").Scan(&st.BlocklistVersion).Error; err != nil {
		return nil, err
	}
	if err := g.WithContext(ctx).Raw("SELECT count(*) FROM blocklist_entries").Scan(&st.BlocklistEntries).Error; err != nil {
		return nil, err
	}
	say("  blocklist refreshed: version %d, %d entries (%s)", st.BlocklistVersion, st.BlocklistEntries, time.Since(t).Round(time.Millisecond))
	t = time.Now()
	// VACUUM, not only ANALYZE: COPY leaves the rows of the trigram (GIN)
	// indexes in their pending lists, which every search would scan until
	// autovacuum merges them.
	if err := g.WithContext(ctx).Exec("VACUUM ANALYZE cases, defendants, name_heads, movements, bans, fan_groups, members, member_periods, blocklist_entries, blocklist_changes").Error; err != nil {
		return nil, err
	}
	say("  vacuum analyze (%s)", time.Since(t).Round(time.Millisecond))
	say("seed --scale %d: %d cases, %d defendants, %d movements, %d bans (%d in force with CPF), %d fan groups, %d members in %s",
		o.N, st.Cases, st.Defendants, st.Movements, st.Bans, st.BansInForce, st.Groups, st.Members, time.Since(start).Round(time.Millisecond))
	if st.AuditSkipped {
		say("note: seeded rows are not in the audit trail (session_replication_role = replica during the seeding transaction)")
	}
	return st, nil
}

// reserveIDs takes n values of table's id sequence and returns the first.
func reserveIDs(ctx context.Context, tx pgx.Tx, table string, n int) (int64, error) {
	var first int64
	err := tx.QueryRow(ctx, fmt.Sprintf(`SELECT nextval(pg_get_serial_sequence('%s', 'id'))`, table)).Scan(&first)
	if err != nil || n <= 1 {
		return first, err
	}
	_, err = tx.Exec(ctx, fmt.Sprintf(`SELECT setval(pg_get_serial_sequence('%s', 'id'), $1)`, table), first+int64(n)-1)
	return first, err
}

func dateTime(d civil.Date) time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC)
}

func seedScaleTx(ctx context.Context, pc *pgx.Conn, gen *scaleGen, st *scaleStats, years []int, yearCount map[int]int, say func(string, ...any)) error {
	o := gen.o
	tx, err := pc.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck // after Commit it is a no-op
	// A bulk load of millions of rows: the server's statement timeout
	// (db.Timeouts, for requests) does not apply to its statements.
	if _, err := tx.Exec(ctx, "SET LOCAL statement_timeout = 0"); err != nil {
		return err
	}
	var super bool
	if err := tx.QueryRow(ctx, "SELECT current_setting('is_superuser') = 'on'").Scan(&super); err != nil {
		return err
	}
	if super {
		if _, err := tx.Exec(ctx, "SET LOCAL session_replication_role = replica"); err != nil {
			return err
		}
		st.AuditSkipped = true
	} else {
		say("note: not a superuser: the audit triggers fire for every seeded row (slow)")
	}
	// Gapless CNJ numbers: each year's sequence continues from the court's.
	for _, y := range years {
		var last int
		if err := tx.QueryRow(ctx, `INSERT INTO case_sequences (court_code, year, last) VALUES ($1, $2, $3)
			ON CONFLICT (court_code, year) DO UPDATE SET last = case_sequences.last + EXCLUDED.last RETURNING last`,
			gen.court, y, yearCount[y]).Scan(&last); err != nil {
			return fmt.Errorf("case sequence %d: %w", y, err)
		}
		first := last - yearCount[y] + 1
		st.Years[y] = [2]int{first, last}
		// caseAt computes seq = seqStart[year] + i; the first case of the
		// year has index sum(counts of earlier years).
		before := 0
		for _, y2 := range years {
			if y2 == y {
				break
			}
			before += yearCount[y2]
		}
		gen.seqStart[y] = first - before
	}
	if gen.caseStart, err = reserveIDs(ctx, tx, "cases", o.N); err != nil {
		return err
	}
	if gen.defStart, err = reserveIDs(ctx, tx, "defendants", st.Defendants); err != nil {
		return err
	}
	// New people for each run: person indices continue after the defendants
	// and members already stored.
	var existing int64
	if err := tx.QueryRow(ctx, "SELECT (SELECT count(*) FROM defendants) + (SELECT count(*) FROM members)").Scan(&existing); err != nil {
		return err
	}
	gen.personBase = int(existing)
	copyRows := func(table string, cols []string, next func() ([]any, bool)) (int, error) {
		t := time.Now()
		n, err := tx.CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromFunc(func() ([]any, error) {
			row, ok := next()
			if !ok {
				return nil, nil
			}
			return row, nil
		}))
		if err != nil {
			return 0, fmt.Errorf("copy %s: %w", table, err)
		}
		say("  %-15s %9d rows (%s)", table, n, time.Since(t).Round(time.Millisecond))
		return int(n), nil
	}
	// Cases, each with the TPU class and subjects of a prosecutor's
	// representation of its conduct (cases.Classify).
	i := 0
	if _, err := copyRows("cases", []string{"id", "number", "court_code", "year", "sequence", "status", "judge_id", "filer_user_id",
		"filer_role", "filed_by_kind", "filed_by_name", "ref", "competition", "home_team", "away_team", "venue_id", "kickoff",
		"occurred_at", "facts_date", "latitude", "longitude", "conduct", "police_reports", "description", "filed_at",
		"distance_to_venue_m", "place_relation", "on_route", "class_code", "subject_codes"}, func() ([]any, bool) {
		if i == o.N {
			return nil, false
		}
		c := gen.caseAt(i)
		i++
		class, subjects := cases.Classify(cases.FlowCriminal, "prosecutor", c.Conduct)
		return []any{c.ID, c.Number, gen.court, c.Year, c.Seq, c.Status, c.JudgeID, gen.filer.ID,
			"prosecutor", "prosecutor", "Promotoria de Justiça do Torcedor", c.Ref, c.Comp, c.Home, c.Away, c.Venue.ID, c.Kickoff,
			c.Occurred, dateTime(c.FactsDate), c.Lat, c.Lon, c.Conduct, c.Reports, c.Description, c.Filed,
			c.Distance, c.Relation, false, class, []int(subjects)}, true
	}); err != nil {
		return err
	}
	// Defendants (one pass over the cases, a row per defendant).
	var pending [][]any
	i = 0
	nextFromCases := func(rows func(c scaleCase) [][]any) func() ([]any, bool) {
		pending = nil
		i = 0
		return func() ([]any, bool) {
			for len(pending) == 0 {
				if i == o.N {
					return nil, false
				}
				pending = rows(gen.caseAt(i))
				i++
			}
			row := pending[0]
			pending = pending[1:]
			return row, true
		}
	}
	if _, err := copyRows("defendants", []string{"id", "case_id", "position", "kind", "full_name", "cpf", "birth_date",
		"mother_name", "father_name", "address", "final_on"}, nextFromCases(func(c scaleCase) [][]any {
		var out [][]any
		var finalOn any // a final case's judgment became final on the ban's first day
		if c.Status == cases.StatusFinal {
			finalOn = dateTime(c.BanFirst)
		}
		for k, d := range c.Defendants {
			var cpf any
			if d.HasCPF {
				cpf = d.Person.CPF
			}
			out = append(out, []any{d.ID, c.ID, k, "person", d.Person.Name, cpf, dateTime(d.Person.Birth),
				d.Person.Mother, d.Person.Father, d.Person.Address + ", " + c.Venue.City + "/" + c.Venue.UF, finalOn})
		}
		return out
	})); err != nil {
		return err
	}
	// The name search's heads (migration 00016) are kept by a trigger,
	// which replica mode skips.
	if super {
		t := time.Now()
		if _, err := tx.Exec(ctx, "SELECT name_heads_add($1, $2)", gen.defStart, gen.defStart+int64(st.Defendants)-1); err != nil {
			return fmt.Errorf("name_heads: %w", err)
		}
		say("  %-15s %9s      (%s)", "name_heads", "", time.Since(t).Round(time.Millisecond))
	}
	// Docket movements: received, distributed and, when sentenced, the
	// skipped steps and one sentence per defendant.
	if st.Movements, err = copyRows("movements", []string{"case_id", "at", "kind", "tpu_code", "description", "author_user_id", "author_role"},
		nextFromCases(func(c scaleCase) [][]any {
			out := [][]any{
				{c.ID, c.Filed, cases.MoveFiling, nil, "Representação recebida de Promotoria de Justiça do Torcedor (Ministério Público).", gen.filer.ID, "prosecutor"},
				{c.ID, c.Filed, cases.MoveDistribution, cases.TPUOf(cases.MoveDistribution), "Distribuído por sorteio equitativo ao(à) juiz(a) " + gen.judgeNames[c.JudgeID] + ".", nil, ""},
			}
			if c.Status == cases.StatusFinal {
				out = append(out, []any{c.ID, c.SentencedAt, cases.MoveSkippedSteps, nil, "Etapas não registradas no sistema antes da sentença: audiência preliminar, audiência de instrução e julgamento.", nil, ""})
				for range c.Defendants {
					out = append(out, []any{c.ID, c.SentencedAt, cases.MoveConviction, cases.TPUOf(cases.MoveConviction), fmt.Sprintf(
						"Sentença: pena convertida em impedimento de comparecimento (%s, %s) de %d meses, a cumprir a partir do trânsito em julgado (Súmula 643 do STJ).",
						c.Range.Article, c.Range.Law, c.BanMonths), c.JudgeID, "judge"})
				}
				final := c.BanFirst.Start(gen.loc).Add(17 * time.Hour)
				if final.After(gen.now) {
					final = gen.now
				}
				if final.Before(c.SentencedAt) {
					final = c.SentencedAt.Add(time.Hour)
				}
				out = append(out, []any{c.ID, final, cases.MoveFinalJudgment, cases.TPUOf(cases.MoveFinalJudgment), fmt.Sprintf("Certificado o trânsito em julgado. Trânsito em julgado em %s.", c.BanFirst.BR()), nil, ""},
					[]any{c.ID, final, cases.MoveBanStart, nil, fmt.Sprintf("Início do cumprimento do impedimento (%s, %s): de %s a %s, contado do trânsito em julgado (Súmula 643 do STJ; CP, art. 10).",
						c.Range.Article, c.Range.Law, c.BanFirst.BR(), c.BanLast.BR()), nil, ""})
			}
			return out
		})); err != nil {
		return err
	}
	// Bans: every defendant of a sentenced case, whose judgment is final;
	// in force when today is in the term.
	if st.Bans, err = copyRows("bans", []string{"case_id", "defendant_id", "subject", "source", "court_code", "case_number", "cpf",
		"name", "birth_date", "facts_date", "law", "article", "range_min_months", "range_max_months", "sec7_applied",
		"sec7_doubles_ban", "eligible", "organiser", "first_day", "months", "computed_last_day", "last_day",
		"reporting_place", "reporting_club", "publish", "status", "created_at", "created_by"},
		nextFromCases(func(c scaleCase) [][]any {
			if c.Status != cases.StatusFinal {
				return nil
			}
			var out [][]any
			inForce := !c.BanFirst.After(gen.today) && !c.BanLast.Before(gen.today)
			for k, d := range c.Defendants {
				var cpf any
				if d.HasCPF {
					cpf = d.Person.CPF
					if inForce {
						st.BansInForce++
					}
				}
				rg := c.Range
				out = append(out, []any{c.ID, d.ID, "person", "sentence", gen.court, c.Number, cpf,
					d.Person.Name, dateTime(d.Person.Birth), dateTime(c.FactsDate), rg.Law, rg.Article, rg.MinMonths, rg.MaxMonths, rg.Sec7Applied,
					rg.Sec7DoublesBan, rg.Eligible, rg.Organiser, dateTime(c.BanFirst), c.BanMonths, dateTime(c.BanLast), dateTime(c.BanLast),
					fmt.Sprintf("%dº Distrito Policial", 1+int(scaleHash(o.Seed, uint64(c.ID), uint64(k))%99)), c.Home, true, "active",
					c.SentencedAt, c.JudgeID})
			}
			return out
		})); err != nil {
		return err
	}
	// Sentences: the signed sentence of each defendant of a final case
	// (the statistics' time to sentence).
	if _, err = copyRows("sentences", []string{"case_id", "defendant_id", "status", "outcome", "input", "law", "article",
		"created_at", "created_by", "signed_at"},
		nextFromCases(func(c scaleCase) [][]any {
			if c.Status != cases.StatusFinal {
				return nil
			}
			var out [][]any
			for _, d := range c.Defendants {
				out = append(out, []any{c.ID, d.ID, "signed", "ban", json.RawMessage("{}"), c.Range.Law, c.Range.Article, c.SentencedAt, c.JudgeID, c.SentencedAt})
			}
			return out
		})); err != nil {
		return err
	}
	// Fan groups and their member registers.
	var groupsBefore int
	if err := tx.QueryRow(ctx, "SELECT count(*) FROM fan_groups").Scan(&groupsBefore); err != nil {
		return err
	}
	groupStart, err := reserveIDs(ctx, tx, "fan_groups", st.Groups)
	if err != nil {
		return err
	}
	clubOf := func(gi int) string { return scaleClubs[(gi/len(scaleGroupPrefixes))%len(scaleClubs)] }
	gi := 0
	if _, err := copyRows("fan_groups", []string{"id", "name", "cnpj", "supported_club", "status", "court_code", "created_by", "register_updated_at"},
		func() ([]any, bool) {
			if gi == st.Groups {
				return nil, false
			}
			k := groupsBefore + gi
			name := scaleGroupPrefixes[k%len(scaleGroupPrefixes)] + " " + clubOf(k)
			if round := k / (len(scaleGroupPrefixes) * len(scaleClubs)); round > 0 {
				name += fmt.Sprintf(" – Núcleo %d", round+1)
			}
			row := []any{groupStart + int64(gi), name, cnpjFor(o.Seed, k), clubOf(k), "active", gen.court, gen.filer.ID, gen.now}
			gi++
			return row, true
		}); err != nil {
		return err
	}
	memberStart, err := reserveIDs(ctx, tx, "members", st.Members)
	if err != nil {
		return err
	}
	// Members are persons around the end of the defendants: about half of
	// them were also defendants. Group sizes are skewed (a few big ones).
	firstPerson := gen.personBase + max(0, st.Defendants-st.Members/2)
	groupOf := func(m int) int64 {
		r := &scaleRnd{seed: o.Seed, id: uint64(m)<<8 | 5}
		u := r.f()
		return groupStart + int64(float64(st.Groups)*u*u)
	}
	joined := func(m int, birth civil.Date) (civil.Date, *time.Time) {
		r := &scaleRnd{seed: o.Seed, id: uint64(m)<<8 | 6}
		from := civil.New(birth.Year+18, birth.Month, 1)
		if f := civil.New(2012, time.January, 1); from.Before(f) {
			from = f
		}
		span := int(dateTime(gen.today).Sub(dateTime(from)).Hours()/24) - 30
		j := from.AddDays(r.n(max(span, 1)))
		if r.n(10) == 0 {
			l := dateTime(j.AddDays(30 + r.n(365)))
			if l.Before(dateTime(gen.today)) {
				return j, &l
			}
		}
		return j, nil
	}
	mi := 0
	if _, err := copyRows("members", []string{"id", "group_id", "full_name", "mother_name", "father_name", "rg", "rg_issuer", "cpf",
		"birth_date", "civil_status", "profession", "address", "schooling", "created_at", "updated_at"}, func() ([]any, bool) {
		if mi == st.Members {
			return nil, false
		}
		p := scalePersonAt(o.Seed, firstPerson+mi, "SP")
		var father any
		if p.Father != "" {
			father = p.Father
		}
		j, _ := joined(mi, p.Birth)
		at := j.Start(gen.loc)
		row := []any{memberStart + int64(mi), groupOf(mi), p.Name, p.Mother, father, p.RG, p.RGIssuer, p.CPF,
			dateTime(p.Birth), p.Civil, p.Profession, p.Address, p.Schooling, at, at}
		mi++
		return row, true
	}); err != nil {
		return err
	}
	mi = 0
	if _, err := copyRows("member_periods", []string{"member_id", "group_id", "cpf", "joined_on", "left_on"}, func() ([]any, bool) {
		if mi == st.Members {
			return nil, false
		}
		p := scalePersonAt(o.Seed, firstPerson+mi, "SP")
		j, left := joined(mi, p.Birth)
		var l any
		if left != nil {
			l = *left
		}
		row := []any{memberStart + int64(mi), groupOf(mi), p.CPF, dateTime(j), l}
		mi++
		return row, true
	}); err != nil {
		return err
	}
	t := time.Now()
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	say("  commit (%s)", time.Since(t).Round(time.Millisecond))
	return nil
}

// cnpjFor returns a valid CNPJ (14 digits, head office 0001) for group k.
func cnpjFor(seed uint64, k int) string {
	base := fmt.Sprintf("%08d0001", (uint64(k)*7654321+seed*97+10000000)%100000000)
	digit := func(s string, weights []int) byte {
		sum := 0
		for i, w := range weights {
			sum += int(s[i]-'0') * w
		}
		if r := sum % 11; r >= 2 {
			return byte('0' + 11 - r)
		}
		return '0'
	}
	w1 := []int{5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}
	w2 := []int{6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}
	s := base + string(digit(base, w1))
	return s + string(digit(s, w2))
}

// runSeedScale is what `juizado seed --scale N` runs.
func runSeedScale(ctx context.Context, g *gorm.DB, cfg config.Config, o scaleOptions) error {
	_, err := seedScale(ctx, g, cfg, o)
	return err
}
