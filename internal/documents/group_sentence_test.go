package documents_test

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/pdf"
	"github.com/juizado/juizado/registry"
)

// criminalWords are what a civil decision about a group never says.
var criminalWords = regexp.MustCompile(`(?i)(^|[^\p{L}])(pena|penas|réu|ré|condeno|reclusão)([^\p{L}]|$)`)

// R5 (Garra do Tatuapé, 06/04/2025, LGE art. 183, § 2º) with the group's
// imported register: the sentence of the group ban is a civil decision
// (the group is the requerida; no pena, no réu) naming the members the ban
// was extended to, by name and CPF, and the member the judge excluded with
// the reason; a member's ban gives the same decision for that member,
// pointing to the group ban.
func TestGroupSentenceNamesMembers(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	clk := e.svc.Clock.(*clock.Fixed)
	clk.Set(time.Date(2025, 1, 15, 12, 0, 0, 0, saoPaulo)) // the members join before the facts
	groups, g, mgr := e.regGroup(t, "Torcida Organizada Garra do Tatuapé", nil)
	rep, err := groups.Import(ctx, mgr, g.ID, registry.ImportInput{Body: fixture(t, "fixtures", "members-valid-excel-ptbr.csv"), ContentType: "text/csv"})
	if err != nil || !rep.Applied {
		t.Fatalf("import: %+v %v", rep, err)
	}
	clk.Set(issueTime)
	ms, err := groups.ListMembers(ctx, mgr, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	byCPF := map[string]int64{}
	for _, m := range ms {
		byCPF[m.CPF] = m.ID
	}
	luis := byCPF["97037600903"]
	c, err := e.cases.Case.File(ctx, e.pros, representation(t, "R5"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.cases.Casefile.Get(ctx, e.judge, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	months := 24
	res, err := e.cases.Decisions.Sentence(ctx, e.judge, c.ID, decisions.SentenceInput{DefendantID: v.Defendants[0].ID, Text: &decisions.SentenceText{Reasoning: "A torcida promoveu o tumulto, provado pelas imagens."},
		Ban:               decisions.BanInput{FirstDay: "2025-08-01", Months: &months},
		ExcludedMemberIDs: []int64{luis}, ExclusionReason: "comprovou estar internado no Hospital São Luiz na data dos fatos"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.MemberBans) != 4 {
		t.Fatalf("member bans: %d", len(res.MemberBans))
	}

	d, err := e.svc.CaseDocument(ctx, e.staff, pdf.KindSentence, c.ID, res.Ban.ID)
	if err != nil {
		t.Fatal(err)
	}
	dump(t, "sentence-group", d.Content)
	got := text(t, d.Content)
	if strings.Count(got, "\f") != d.Pages {
		t.Errorf("pages: %d stored, pdftotext %d", d.Pages, strings.Count(got, "\f"))
	}
	golden(t, "sentence-group", got)
	flat := strings.Join(strings.Fields(got), " ")
	for _, want := range []string{
		"Requerida: Torcida Organizada Garra do Tatuapé, torcida de fato (sem CNPJ), clube apoiado: Corinthians",
		"JULGO PROCEDENTE o pedido para DETERMINAR que a Torcida Organizada Garra do Tatuapé e os associados relacionados abaixo fiquem impedidos",
		"em face da Torcida Organizada Garra do Tatuapé, com base em fatos ocorridos em 6 de abril de 2025",
		"Associados alcançados",
		"1 Ana Lúcia Gonçalves Simões 017.203.688-72",
		"2 João Pedro da Silva Araújo 064.206.423-70",
		"3 José Antônio Brandão Júnior 069.099.903-82",
		"4 Rafaela Conceição Nóbrega 680.784.909-50",
		"Associados excluídos",
		"pelo seguinte motivo: comprovou estar internado no Hospital São Luiz na data dos fatos:",
		"1 Luís Fernando Assunção 970.376.009-03",
		"Associados alcançados 4, relacionados acima",
		"art. 183, § 2º, da Lei 14.597/2023",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("group sentence lacks %q:\n%s", want, got)
		}
	}
	if m := criminalWords.FindString(flat); m != "" {
		t.Errorf("group sentence in criminal wording (%q):\n%s", m, got)
	}

	// A member's ban: the same decision for that member, civil, pointing
	// to the group ban.
	var rafaela int64
	for _, mb := range res.MemberBans {
		if *mb.MemberID == byCPF["68078490950"] {
			rafaela = mb.ID
		}
	}
	d, err = e.svc.CaseDocument(ctx, e.staff, pdf.KindSentence, c.ID, rafaela)
	if err != nil {
		t.Fatal(err)
	}
	dump(t, "sentence-member", d.Content)
	got = text(t, d.Content)
	golden(t, "sentence-member", got)
	flat = strings.Join(strings.Fields(got), " ")
	for _, want := range []string{
		"Impedimento de associado(a), vinculado ao impedimento nº " + itoa(res.Ban.ID) + " da torcida organizada",
		"Requerida: Torcida Organizada Garra do Tatuapé",
		"Associado(a) alcançado(a): Rafaela Conceição Nóbrega, CPF 680.784.909-50, nascido(a) em 7 de janeiro de 2003",
		"JULGO PROCEDENTE o pedido em face da Torcida Organizada Garra do Tatuapé (impedimento nº " + itoa(res.Ban.ID) + ")",
		"DETERMINO que Rafaela Conceição Nóbrega, CPF 680.784.909-50, associado(a) da",
		"Vínculo associado(a) da Torcida Organizada Garra do Tatuapé; impedimento nº " + itoa(res.Ban.ID),
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("member sentence lacks %q:\n%s", want, got)
		}
	}
	if m := criminalWords.FindString(flat); m != "" {
		t.Errorf("member sentence in criminal wording (%q):\n%s", m, got)
	}
	for _, other := range []string{"Luís Fernando", "João Pedro"} {
		if strings.Contains(flat, other) {
			t.Errorf("member sentence names %s", other)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
