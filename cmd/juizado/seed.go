package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/app"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/config"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/pdf"
	"github.com/juizado/juizado/registry"
	"github.com/spf13/cobra"
	"gorm.io/gorm"
)

func seedCmd() *cobra.Command {
	var scale *scaleOptions
	cmd := &cobra.Command{
		Use:   "seed",
		Short: "Seed demo users (printing a fresh token for each) and, on an empty database, seven demo cases (a ban in force after the final judgment, a ban awaiting it with a precautionary ban, a case awaiting sentence, a prison conviction, a precautionary ban for two venues, one for the next 3 home matches, two co-defendants on their own tracks: a plea agreement in force and a ban awaiting his final judgment); with --scale N, N synthetic cases for benchmarks",
		RunE: func(*cobra.Command, []string) error {
			if scale.N > 0 { // COPY, setval, VACUUM, no audit trigger: the owner or a superuser
				return withOwnerDB(func(ctx context.Context, g *gorm.DB, cfg config.Config) error {
					return runSeedScale(ctx, g, cfg, *scale)
				})
			}
			return withOpenDB(seedDemo)
		},
	}
	scale = scaleFlags(cmd)
	return cmd
}

func devCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "dev",
		Short: "What `make run` does: private PostgreSQL when DATABASE_URL is unset, migrate up, seed demo data, serve",
		RunE: func(*cobra.Command, []string) error {
			ctx := context.Background()
			cfg := config.FromEnv()
			owner, err := openOwnerDB(ctx, cfg)
			if err != nil {
				return err
			}
			ownerSQL, _ := owner.DB()
			applied, err := db.MigrateUp(ctx, ownerSQL)
			ownerSQL.Close()
			if err != nil {
				return err
			}
			if len(applied) > 0 {
				fmt.Printf("migrations applied: %v\n", applied)
			}
			g, err := openDB(ctx, cfg)
			if err != nil {
				return err
			}
			sqlDB, _ := g.DB()
			if err := seedDemo(ctx, g, cfg); err != nil {
				return err
			}
			sqlDB.Close()
			return serve(cfg) // main stops the private cluster (releasePrivate)
		},
	}
}

// demoPassword is the password of every demo account (development only).
const demoPassword = "juizado-demo"

type demoUser struct {
	spec accounts.UserSpec
	what string
}

// seedDemo creates the demo accounts of the README and prints a new token
// for each; on a database without cases it files seven demo
// representations: case 1 sentenced to a 12-month ban that every party
// waived the appeal of, made final today (in force from today: Súmula 643
// STJ), case 2 sentenced to a 12-month ban awaiting the final judgment with
// a precautionary ban until then (CPP art. 319, II; review in 90 days),
// case 3 awaiting sentence (the README's sentence example, defendant 3),
// case 4 an organiser convicted to reclusão and dias-multa with no
// conversion (Lei 14.597/2023, art. 201, § 6º), case 5 a precautionary
// ban for two named venues and case 6 one for the next 3 home matches of
// Corinthians in the demo schedule it imports first; case 7 has two
// co-defendants on their own tracks (seedCoDefendants).
func seedDemo(ctx context.Context, g *gorm.DB, cfg config.Config) error {
	users := []demoUser{
		{accounts.UserSpec{Name: "demo-promotoria", Role: "prosecutor", Court: cfg.Court, FullName: "Carlos Eduardo Mendes Demonstração", Title: "Promotor de Justiça"}, "promotor(a): registra representações"},
		{accounts.UserSpec{Name: "demo-policia", Role: "police", Court: cfg.Court}, "polícia: registra termos circunstanciados"},
		{accounts.UserSpec{Name: "demo-juiza", Role: "judge", Court: cfg.Court, FullName: "Ana Paula Ribeiro Demonstração", Title: "Juíza de Direito"}, "juíza: sentencia os processos distribuídos a ela"},
		{accounts.UserSpec{Name: "demo-cartorio", Role: "clerk", Court: cfg.Court, FullName: "Marta Souza Demonstração", Title: "Escrevente Técnica Judiciária"}, "cartório: consulta processos"},
		{accounts.UserSpec{Name: "demo-admin", Role: "admin", Court: cfg.Court}, "administração"},
		{accounts.UserSpec{Name: "demo-portaria", Role: "club", Club: "Corinthians"}, "clube: baixa a lista de bloqueio"},
		{accounts.UserSpec{Name: "demo-advogada", Role: accounts.RoleDefence, OAB: "SP123456"}, "advogada (OAB/SP 123456): defende os réus dos processos 2 e 3"},
		{accounts.UserSpec{Name: "demo-defensoria", Role: accounts.RoleDefence, Defensoria: "SP"}, "Defensoria Pública/SP: defende o réu do processo 4"},
	}
	// A demo fan group of the court, kept by the demo manager.
	if err := cases.EnsureCourt(ctx, g, cfg.Court, ""); err != nil {
		return err
	}
	if err := seedCourtName(ctx, g, cfg.Court); err != nil {
		return fmt.Errorf("seed court name: %w", err)
	}
	if err := seedDataJudUnit(ctx, g, cfg.Court); err != nil {
		return fmt.Errorf("seed DataJud unit: %w", err)
	}
	groupID, err := registry.EnsureGroup(ctx, g, "Torcida Demonstração", "Corinthians", cfg.Court)
	if err != nil {
		return fmt.Errorf("seed group: %w", err)
	}
	users = append(users, demoUser{accounts.UserSpec{Name: "demo-torcida", Role: "fan_group", Group: groupID}, "torcida organizada: mantém o cadastro de associados"})
	tokens := map[string]string{}
	ids := map[string]accounts.User{}
	fmt.Printf("Demo accounts: sign in at /entrar with the name and the password %q, or send the token as Authorization: Bearer <token> (a fresh token each time):\n", demoPassword)
	for _, u := range users {
		tok, user, err := createToken(ctx, g, u.spec)
		if err != nil {
			return fmt.Errorf("seed %s: %w", u.spec.Name, err)
		}
		if err := accounts.SetPassword(ctx, g, user.ID, demoPassword); err != nil {
			return fmt.Errorf("seed %s: %w", u.spec.Name, err)
		}
		tokens[u.spec.Role], ids[u.spec.Role] = tok, user
		fmt.Printf("  %-11s %-16s %s\n      %s\n", u.spec.Role, u.spec.Name, u.what, tok)
	}
	n, err := cases.CountCases(ctx, g)
	if err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	a, err := openApp(g, cfg)
	if err != nil {
		return err
	}
	svc, loc := a.Cases, a.Loc
	pros := ids["prosecutor"]
	judge := ids["judge"]
	clerk := ids["clerk"]
	ja := actor.Actor{UserID: judge.ID, Role: "judge", Court: judge.Court()}
	ka := actor.Actor{UserID: clerk.ID, Role: "clerk", Court: clerk.Court()}
	pa := actor.Actor{UserID: pros.ID, Role: pros.Role, Court: pros.Court()}
	today := civil.Today(time.Now(), loc)
	// The court's schedule (for the reporting duties and the ban counted
	// in matches of case 6): Corinthians at home in the Arena Corinthians
	// every week from 7 days on, Palmeiras at home in the Allianz Parque.
	if _, err := svc.Schedule.ImportMatches(ctx, ka, []byte(demoSchedule(today)), false); err != nil {
		return fmt.Errorf("seed schedule: %w", err)
	}
	for i, r := range demoRepresentations() {
		k, err := svc.Case.File(ctx, pa, r)
		if err != nil {
			return fmt.Errorf("seed case: %w", err)
		}
		v, err := svc.Casefile.Get(ctx, actor.Actor{Court: pros.Court()}, k.ID)
		if err != nil {
			return err
		}
		d := v.Defendants[0]
		months, prison, fine, quantum := 12, 20, 30, 12 // quantum: the reclusão fixed before the conversion (CP arts. 59, 68)
		text := &decisions.SentenceText{Report: "Demonstração: relatório da sentença.", Reasoning: "Demonstração: autoria e materialidade provadas pelo boletim de ocorrência e pelas imagens."}
		if i <= 3 { // to be sentenced: the accusation received first (Lei 9.099/1995, arts. 77, 81)
			if err := demoReceive(ctx, svc, ka, pa, k.ID); err != nil {
				return err
			}
		}
		// The demo defence (issue 29): the lawyer of case 3's defendant,
		// the Defensoria Pública of case 4's.
		if who, ok := map[int]string{demoAwaitingSentence: "demo-advogada", demoAwaitingSentence + 1: "demo-defensoria"}[i]; ok {
			if _, _, err := svc.Case.LinkCounsel(ctx, ka, k.ID, d.ID, who); err != nil {
				return fmt.Errorf("seed counsel: %w", err)
			}
			if i == demoAwaitingSentence {
				if err := seedPetition(ctx, a, g, k.ID, d.ID, who); err != nil {
					return err
				}
			}
		}
		switch i {
		case demoAwaitingSentence:
			fmt.Printf("Demo case %s (id %d): %s awaits sentence (defendant_id %d)\n", v.Number, v.ID, d.FullName, d.ID)
			continue
		case 0: // a ban in force after every party waived the appeal
			if _, err := svc.Decisions.Sentence(ctx, ja, k.ID, decisions.SentenceInput{DefendantID: d.ID, Ban: decisions.BanInput{Months: &months}, Text: text, PrisonMonths: &quantum,
				ReportingDuty: &cases.ReportingDuty{Place: "24º Distrito Policial", Club: "Corinthians"}}); err != nil {
				return fmt.Errorf("seed sentence: %w", err)
			}
			for _, n := range []calendar.NotificationInput{{Party: calendar.PartyProsecution}, {Party: calendar.PartyDefendant, DefendantID: d.ID}, {Party: calendar.PartyDefence, DefendantID: d.ID}} {
				n.NotifiedOn, n.WaivedAppeal = today.String(), true
				if _, err := svc.Calendar.Notify(ctx, ka, k.ID, n); err != nil {
					return fmt.Errorf("seed notification: %w", err)
				}
			}
			if _, err := svc.Casefile.Transition(ctx, ka, k.ID, casefile.TransitionInput{To: cases.StatusFinal}); err != nil {
				return fmt.Errorf("seed final judgment: %w", err)
			}
			fmt.Printf("Demo case %s: %s banned for %d months, in force from %s (final judgment after every party waived the appeal)\n", v.Number, d.FullName, months, today.BR())
		case 1: // a ban awaiting the final judgment, with a precautionary ban until then
			review := today.AddDays(90)
			if _, err := svc.Decisions.Sentence(ctx, ja, k.ID, decisions.SentenceInput{DefendantID: d.ID, Ban: decisions.BanInput{Months: &months}, Text: text, PrisonMonths: &quantum,
				ReportingDuty:           &cases.ReportingDuty{Place: "23º Distrito Policial", Club: "Palmeiras"},
				PrecautionaryUntilFinal: &decisions.PrecautionaryInput{ReviewOn: review.String()}}); err != nil {
				return fmt.Errorf("seed sentence: %w", err)
			}
			fmt.Printf("Demo case %s: %s sentenced to a %d-month ban awaiting the final judgment; precautionary ban in force, review on %s\n", v.Number, d.FullName, months, review.BR())
			// The lawyer defends her too, and has the sentence's electronic
			// notice pending (Lei 11.419/2006, art. 5º).
			if err := demoElectronicNotice(ctx, svc, ka, k.ID, d.ID, "demo-advogada"); err != nil {
				return err
			}
			fmt.Printf("Demo case %s: the sentence's electronic notice made available to demo-advogada, pending (Intimações)\n", v.Number)
		case 4: // a precautionary ban for two named venues (CPP art. 319, II)
			if _, err := svc.Decisions.Sentence(ctx, ja, k.ID, decisions.SentenceInput{DefendantID: d.ID, Precautionary: true, ReviewOn: today.AddDays(60).String(), Text: text,
				Scope: &decisions.ScopeInput{Venues: []string{"Arena Corinthians", "Allianz Parque"}}}); err != nil {
				return fmt.Errorf("seed precautionary ban: %w", err)
			}
			fmt.Printf("Demo case %s: %s under a precautionary ban at the Arena Corinthians and the Allianz Parque only, review on %s\n", v.Number, d.FullName, today.AddDays(60).BR())
		case 5: // a precautionary ban for the next 3 home matches of Corinthians
			three, home := 3, true
			if _, err := svc.Decisions.Sentence(ctx, ja, k.ID, decisions.SentenceInput{DefendantID: d.ID, Precautionary: true, ReviewOn: today.AddDays(60).String(), Text: text,
				Ban: decisions.BanInput{Matches: &three, Club: "Corinthians", HomeOnly: &home}}); err != nil {
				return fmt.Errorf("seed precautionary ban: %w", err)
			}
			fmt.Printf("Demo case %s: %s under a precautionary ban for the next 3 home matches of Corinthians (%s, %s, %s)\n", v.Number, d.FullName,
				today.AddDays(7).BR(), today.AddDays(14).BR(), today.AddDays(21).BR())
		case 3: // a prison conviction: the organiser (Lei 14.597/2023, art. 201, § 6º)
			if _, err := svc.Decisions.Sentence(ctx, ja, k.ID, decisions.SentenceInput{DefendantID: d.ID, Outcome: decisions.OutcomePrison, PrisonMonths: &prison, FineDays: &fine, Text: text,
				Dosimetry: &decisions.Dosimetry{BaseMonths: 14, BaseReasons: "culpabilidade acentuada", IntermediateMonths: 14, FinalMonths: 20, FinalReasons: "§ 6º: aumento de 3/7 pela organização do tumulto"}}); err != nil {
				return fmt.Errorf("seed sentence: %w", err)
			}
			fmt.Printf("Demo case %s: %s convicted to %d months of reclusão and %d dias-multa, no conversion (art. 201, § 6º)\n", v.Number, d.FullName, prison, fine)
		}
	}
	if err := seedCoDefendants(ctx, svc, ja, ka, pa, today); err != nil {
		return err
	}
	return seedMandates(ctx, svc, ka, today)
}

// demoElectronicNotice links the defence user who to defendant defID of
// case caseID and makes the sentence's notice available to it in the
// system (calendar.NotificationInput.Electronic; Lei 11.419/2006, art.
// 5º): it stays pending until she opens it or ten days pass.
func demoElectronicNotice(ctx context.Context, svc *app.Cases, clerk actor.Actor, caseID, defID int64, who string) error {
	if _, _, err := svc.Case.LinkCounsel(ctx, clerk, caseID, defID, who); err != nil {
		return fmt.Errorf("seed counsel: %w", err)
	}
	in := calendar.NotificationInput{Party: calendar.PartyDefence, DefendantID: defID, Electronic: true}
	if _, err := svc.Calendar.Notify(ctx, clerk, caseID, in); err != nil {
		return fmt.Errorf("seed electronic notice: %w", err)
	}
	return nil
}

// demoAwaitingSentence is the index in demoRepresentations of the case
// seedDemo files and does not sentence (case 3 on a fresh database).
const demoAwaitingSentence = 2

// demoFan is one demo representation: a fan, the match and what happened.
type demoFan struct {
	name, cpf, birth, mother   string
	competition, home, away    string
	venue, kickoff, occurredAt string
	conduct                    []string
	report, description        string
}

// demoFans are the demo representations of cases 1 to 6, by case number
// (seedCoDefendants files case 7, two co-defendants).
var demoFans = []demoFan{
	{"Joaquim Demonstração da Silva", "526.018.159-06", "1990-05-17", "Ana Demonstração",
		"Campeonato Paulista", "Corinthians", "Santos", "Arena Corinthians", "2025-02-09T16:00:00-03:00", "2025-02-09T15:10:00-03:00",
		[]string{"violence"}, "BO 0001/2025 – 24º DP", "Demonstração: agressão a torcedor adversário no setor Sul."},
	{"Márcia Exemplo Nogueira", "390.996.030-88", "1985-11-02", "Lúcia Exemplo",
		"Campeonato Brasileiro Série A", "Palmeiras", "Corinthians", "Allianz Parque", "2025-06-01T18:30:00-03:00", "2025-06-01T20:40:00-03:00",
		[]string{"invasion"}, "BO 0002/2025 – 23º DP", "Demonstração: invasão do gramado ao fim da partida."},
	{"Renato Amostra Pereira", "418.273.605-26", "1993-08-24", "Teresa Amostra",
		"Campeonato Paulista", "Corinthians", "São Paulo", "Arena Corinthians", "2025-03-16T16:00:00-03:00", "2025-03-16T17:45:00-03:00",
		[]string{"violence"}, "BO 0003/2025 – 24º DP", "Demonstração: arremesso de objetos contra a torcida visitante."},
	{"Otávio Modelo Barros", "711.385.762-04", "1988-01-30", "Clara Modelo",
		"Campeonato Paulista", "Corinthians", "Palmeiras", "Arena Corinthians", "2025-04-06T16:00:00-03:00", "2025-04-06T15:20:00-03:00",
		[]string{"riot", "organiser"}, "BO 0004/2025 – 24º DP", "Demonstração: convocou pelas redes sociais e organizou o confronto no portão Leste."},
	{"Sílvia Ensaio Ramos", "274.839.105-50", "1991-03-12", "Rosa Ensaio",
		"Campeonato Brasileiro Série A", "Palmeiras", "Corinthians", "Allianz Parque", "2025-05-11T16:00:00-03:00", "2025-05-11T17:30:00-03:00",
		[]string{"violence"}, "BO 0005/2025 – 23º DP", "Demonstração: agressão na saída do setor visitante."},
	{"Caio Teste Moreira", "615.204.873-71", "1996-09-05", "Helena Teste",
		"Campeonato Paulista", "Corinthians", "Santos", "Arena Corinthians", "2025-05-18T16:00:00-03:00", "2025-05-18T16:50:00-03:00",
		[]string{"violence"}, "BO 0006/2025 – 24º DP", "Demonstração: arremesso de rojão contra a torcida visitante."},
}

// demoPlaces are the stadiums' coordinates (latitude, longitude).
var demoPlaces = map[string][2]float64{"Arena Corinthians": {-23.5452, -46.4741}, "Allianz Parque": {-23.5276, -46.6785}}

func demoRepresentations() []cases.Representation {
	reps := make([]cases.Representation, len(demoFans))
	for i, f := range demoFans {
		cpf, place := f.cpf, demoPlaces[f.venue]
		lat, lon := place[0], place[1]
		reps[i] = cases.Representation{
			Ref:        fmt.Sprintf("DEMO-%d", i+1),
			FiledBy:    cases.FiledByInput{Kind: "prosecutor", Name: "Promotoria de Justiça do Torcedor (demonstração)"},
			Defendants: []cases.DefendantInput{{Kind: "person", FullName: f.name, CPF: &cpf, BirthDate: f.birth, MotherName: f.mother}},
			Event:      &cases.EventInput{Competition: f.competition, Home: f.home, Away: f.away, Venue: f.venue, Kickoff: f.kickoff},
			Facts: cases.FactsInput{OccurredAt: f.occurredAt, Latitude: &lat, Longitude: &lon, Conduct: f.conduct,
				PoliceReports: []string{f.report}, Description: f.description},
		}
	}
	return reps
}

// demoSchedule is the demo court's match schedule (matches-2025.csv
// format), from today: Corinthians at home in the Arena Corinthians on
// days 7, 14, 21 and 28, away at the Allianz Parque on day 10, and
// Palmeiras at home there on day 17.
func demoSchedule(today civil.Date) string {
	var b strings.Builder
	b.WriteString("competition,round,home,away,venue,date,kickoff_local\n")
	for i, m := range []struct {
		days       int
		home, away string
		venue      string
	}{{7, "Corinthians", "Santos", "Arena Corinthians"}, {10, "Palmeiras", "Corinthians", "Allianz Parque"}, {14, "Corinthians", "Ponte Preta", "Arena Corinthians"},
		{17, "Palmeiras", "Santos", "Allianz Parque"}, {21, "Corinthians", "Guarani", "Arena Corinthians"}, {28, "Corinthians", "Mirassol", "Arena Corinthians"}} {
		fmt.Fprintf(&b, "Campeonato Paulista (demonstração),%d,%s,%s,%s,%s,16:00\n", i+1, m.home, m.away, m.venue, today.AddDays(m.days))
	}
	return b.String()
}

// seedCourtName names a demo court of São Paulo (TR 26) that still has
// the default name cases.DemoCourtName, the name pages and documents
// show; a court named by its admin, or of another state, keeps its name.
func seedCourtName(ctx context.Context, g *gorm.DB, code string) error {
	c, err := cases.GetCourt(ctx, g, code)
	if err != nil {
		return err
	}
	if c.Name != cases.DefaultCourtName(code) || pdf.TribunalUF(code) != "SP" {
		return nil
	}
	_, err = cases.SetCourtName(ctx, g, code, cases.DemoCourtName)
	return err
}

// seedDataJudUnit gives a demo court of São Paulo (TR 26) without one its
// DataJud unit (Res. CNJ 331/2020): a demo unit code and name, and the
// city of São Paulo's IBGE code (3550308); a court set by its admin, or
// of another state, is left as it is.
func seedDataJudUnit(ctx context.Context, g *gorm.DB, code string) error {
	c, err := cases.GetCourt(ctx, g, code)
	if err != nil {
		return err
	}
	if _, ok := c.Unit(); ok || pdf.TribunalUF(code) != "SP" {
		return nil
	}
	_, err = cases.SetCourtDataJud(ctx, g, code, cases.DataJudUnit{UnitCode: 100,
		UnitName: "Juizado Especial Criminal do Torcedor da Capital (demonstração)", IBGEMunicipality: 3550308})
	return err
}

// seedPetition files, as the demo lawyer who, a petition pending in the
// clerk's queue on case caseID for its client defendantID (issue 29, item
// 4): the demo's "Petições" page has one to answer.
func seedPetition(ctx context.Context, a *app.App, g *gorm.DB, caseID, defendantID int64, who string) error {
	u, err := accounts.FindUser(ctx, g, who)
	if err != nil {
		return fmt.Errorf("seed petition: %w", err)
	}
	if _, err := a.FilePetition(ctx, u.Actor(), caseID, cases.PetitionInput{DefendantID: defendantID, Kind: cases.PetitionOther,
		Text: "Requer a juntada da procuração atualizada e cópia integral do boletim de ocorrência."}); err != nil {
		return fmt.Errorf("seed petition: %w", err)
	}
	fmt.Printf("Demo petition of %s pending in the clerk's queue (case id %d)\n", who, caseID)
	return nil
}
