package documents_test

import (
	"context"
	"testing"

	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/pdf"
)

// CPP art. 319, II ("proibição de acesso ou frequência a determinados
// lugares"): the certificate (certidão) and the letter to the clubs (Lei
// 10.671/2003, art. 5º, § 3º) say where and when a ban applies as the
// decision does: a ban that names venues, only there (the decision's own
// words, pdf.ScopedPT, and an "Onde vale" column or row), never
// "qualquer local em que se realize evento esportivo"; a ban counted in
// matches, only on the days of those matches, not a continuous period from
// its first day to the last match; a ban counted in matches with no
// venues, anywhere but only on those days.
func TestCertificateAndLetter_ScopeAndMatchDays_CPP319II(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	schedule := "competition,round,home,away,venue,date,kickoff_local\n" +
		"Campeonato Paulista,1,Corinthians,Santos,Arena Corinthians,2025-07-20,16:00\n" +
		"Campeonato Paulista,2,Palmeiras,Corinthians,Allianz Parque,2025-07-23,21:30\n" +
		"Campeonato Paulista,3,Corinthians,Guarani,Arena Corinthians,2025-07-27,16:00\n" +
		"Campeonato Paulista,4,Corinthians,Ponte Preta,Arena Corinthians,2025-08-03,16:00\n"
	if _, err := e.cases.Schedule.ImportMatches(ctx, e.staff, []byte(schedule), false); err != nil {
		t.Fatal(err)
	}
	doc := func(kind pdf.Kind, caseID, banID int64) string {
		t.Helper()
		out, err := e.svc.CaseDocument(ctx, e.staff, kind, caseID, banID)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		return rawFlat(t, out.Content)
	}
	cert := func(cpf string) string {
		t.Helper()
		d, err := e.svc.Certificate(ctx, e.staff, cpf)
		if err != nil {
			t.Fatalf("certificate %s: %v", cpf, err)
		}
		return rawFlat(t, d.Content)
	}
	const anywhere = "qualquer local em que se realize evento esportivo"

	// Venues only: Arena Corinthians and Allianz Parque.
	venues, venuesDef := e.fileRep(t, "R2", "")
	vb := e.sentence(t, venues, decisions.SentenceInput{DefendantID: venuesDef, Precautionary: true, ReviewOn: "2025-09-01",
		Scope: &decisions.ScopeInput{Venues: []string{"Arena Corinthians", "Allianz Parque"}}}).PrecautionaryBan
	decision := doc(pdf.KindSentence, venues, vb.ID)
	has(t, "decision with venues", decision, "aos seguintes locais e jogos, e somente a eles: Arena Corinthians e Allianz Parque")
	got := cert("468.819.736-59")
	has(t, "certificate of a ban with venues", got, "CONSTA", "Onde vale", "Arena Corinthians e Allianz Parque")
	hasNot(t, "certificate of a ban with venues", got, anywhere, "às proximidades dos estádios")
	has(t, "certificate of a ban with venues", got, "desde 15/07/2025, até revogação (revisão em 01/09/2025)")
	got = doc(pdf.KindLetter, venues, vb.ID)
	has(t, "letter of a ban with venues", got, "Onde vale Arena Corinthians e Allianz Parque",
		"impedir o acesso da pessoa acima aos seguintes locais e jogos, e somente a eles: Arena Corinthians e Allianz Parque, durante o período indicado")
	hasNot(t, "letter of a ban with venues", got, anywhere, "às proximidades do estádio")

	// Counted in matches, at one venue: the next 2 home matches of
	// Corinthians (20/07 and 27/07/2025), at Arena Corinthians.
	two, home := 2, true
	matches, matchesDef := e.fileRep(t, "R3", "")
	mb := e.sentence(t, matches, decisions.SentenceInput{DefendantID: matchesDef, Precautionary: true, ReviewOn: "2025-09-01",
		Scope: &decisions.ScopeInput{Venues: []string{"Arena Corinthians"}},
		Ban:   decisions.BanInput{Matches: &two, Club: "Corinthians", HomeOnly: &home}}).PrecautionaryBan
	decision = doc(pdf.KindSentence, matches, mb.ID)
	has(t, "decision counted in matches", decision, "somente a eles: Arena Corinthians",
		"pelos próximos 2 jogos de Corinthians como mandante (20/07/2025 e 27/07/2025), somente nos dias de jogo")
	got = cert("993.563.272-54")
	has(t, "certificate of a ban counted in matches", got, "Onde vale",
		"Arena Corinthians somente em 20/07/2025 e 27/07/2025")
	hasNot(t, "certificate of a ban counted in matches", got, anywhere, "15/07/2025 a 27/07/2025")
	got = doc(pdf.KindLetter, matches, mb.ID)
	has(t, "letter of a ban counted in matches", got, "Onde vale Arena Corinthians",
		"Prazo os próximos 2 jogos de Corinthians como mandante (20/07/2025 e 27/07/2025)",
		"Período somente em 20/07/2025 e 27/07/2025",
		"aos seguintes locais e jogos, e somente a eles: Arena Corinthians, somente nos dias indicados")
	hasNot(t, "letter of a ban counted in matches", got, anywhere, "a 27 de julho de 2025, inclusive", "durante o período indicado")

	// Counted in matches, with no venues: anywhere, on those days only.
	one := 1
	anyV, anyDef := e.fileRep(t, "R4", "")
	ab := e.sentence(t, anyV, decisions.SentenceInput{DefendantID: anyDef, Precautionary: true, ReviewOn: "2025-09-01",
		Ban: decisions.BanInput{Matches: &one, Club: "Corinthians", HomeOnly: &home}}).PrecautionaryBan
	got = cert("951.817.560-85")
	has(t, "certificate of a ban counted in matches anywhere", got,
		"às proximidades dos estádios e a "+anywhere+" somente em 20/07/2025")
	got = doc(pdf.KindLetter, anyV, ab.ID)
	has(t, "letter of a ban counted in matches anywhere", got, "Período somente em 20/07/2025 (medida cautelar",
		"às proximidades do estádio e a qualquer local em que se realize evento esportivo somente nos dias indicados")
	hasNot(t, "letter of a ban counted in matches anywhere", got, "Onde vale", "durante o período indicado")
}

// rawFlat is flatBody of the text pdftotext reads in the order the document
// writes it (-raw): a table cell's lines one after the other, not mixed
// with the lines of the cells beside it.
func rawFlat(t *testing.T, b []byte) string { t.Helper(); return flatBody(pdftotext(t, b, "-raw")) }
