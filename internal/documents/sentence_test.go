package documents_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/documents"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/pdf"
	"github.com/juizado/juizado/internal/testenv"
)

// flatText is the body of a document's pages (without the header and the
// footer each page repeats), its whitespace collapsed: a phrase reads the
// same across a page break.
func flatText(t *testing.T, b []byte) string {
	t.Helper()
	return flatBody(text(t, b))
}

// flatBody is flatText of the text pdftotext made.
func flatBody(got string) string {
	var body []string
	for _, page := range strings.Split(got, "\f") {
		lines := strings.Split(strings.TrimSpace(page), "\n")
		start := 0
		for i, l := range lines {
			if strings.HasPrefix(l, "Juizado Especial Criminal do Torcedor") || l == pdf.DraftMark {
				start = i + 1
			}
			if i > 6 {
				break
			}
		}
		end := len(lines)
		for i := len(lines) - 1; i >= start; i-- {
			if strings.HasPrefix(lines[i], "Código de verificação:") || lines[i] == pdf.DraftMark {
				end = i
				break
			}
		}
		body = append(body, lines[start:end]...)
	}
	return strings.Join(strings.Fields(strings.Join(body, " ")), " ")
}

// has reports the phrases of want that flat lacks.
func has(t *testing.T, what, flat string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(flat, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, flat)
		}
	}
}

// hasNot reports the phrases of bad that flat has.
func hasNot(t *testing.T, what, flat string, bad ...string) {
	t.Helper()
	for _, w := range bad {
		if strings.Contains(flat, w) {
			t.Errorf("%s says %q:\n%s", what, w, flat)
		}
	}
}

// CPP art. 386: the sentence of an acquitted defendant says so, with the
// item of art. 386 and its words, and imposes no ban; the notice of a
// decision with no ban is the notice of the sentence, with the appeal
// window (Lei 9.099/1995, art. 82, § 1º).
func TestSentencePDF_Acquittal_CPP386(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	caseID, defID := e.fileR1(t)
	e.sentence(t, caseID, decisions.SentenceInput{DefendantID: defID, Outcome: decisions.OutcomeAcquittal, AcquittalGround: "VII"})
	d, err := e.svc.DefendantDocument(ctx, e.staff, pdf.KindSentence, caseID, defID)
	if err != nil {
		t.Fatal(err)
	}
	dump(t, "sentence-acquittal", d.Content)
	got := text(t, d.Content)
	golden(t, "sentence-acquittal", got)
	flat := flatBody(got)
	has(t, "acquittal", flat, "JULGO IMPROCEDENTE a pretensão punitiva e ABSOLVO Łukasz Muñoz Sørensen, com fundamento no art. 386, VII, do Código de Processo Penal (não existir prova suficiente para a condenação)",
		"Resultado absolvição (Código de Processo Penal, art. 386, VII)", "A autoria e a materialidade")
	hasNot(t, "acquittal", flat, "CONDENAR", "Ordem de impedimento", "reclusão")
	n, err := e.svc.DefendantDocument(ctx, e.staff, pdf.KindNotice, caseID, defID)
	if err != nil {
		t.Fatal(err)
	}
	flat = flatText(t, n.Content)
	has(t, "notice of an acquittal", flat, "INTIMADO(A) da sentença", "Resultado absolvição (Código de Processo Penal, art. 386, VII)",
		"Fundamento não existir prova suficiente para a condenação", "10 (dez) dias", "Lei 9.099/1995, art. 82, § 1º")
	hasNot(t, "notice of an acquittal", flat, "impedimento de comparecimento")
	if _, err := e.svc.DefendantDocument(ctx, e.staff, pdf.KindLetter, caseID, defID); errs.KindOf(err) != errs.NotFound {
		t.Errorf("letter for an acquittal: %v, want not found (no ban to communicate)", err)
	}
}

// Lei 14.597/2023, art. 201, § 6º: the organiser is convicted to reclusão
// and fine with no conversion; the sentence gives the months, the
// dias-multa (CP art. 49), the reason there is no conversion and the
// dosimetry in its three phases (CP arts. 59 and 68).
func TestSentencePDF_PrisonNoConversion_Art201Par6(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	caseID, defID := e.fileRep(t, "R4", "")
	e.sentence(t, caseID, decisions.SentenceInput{DefendantID: defID, Outcome: decisions.OutcomePrison, PrisonMonths: ptr(20), FineDays: ptr(30),
		Dosimetry: &decisions.Dosimetry{BaseMonths: 14, BaseReasons: "culpabilidade acentuada: liderança do grupo", IntermediateMonths: 14,
			IntermediateReasons: "sem agravantes nem atenuantes", FinalMonths: 20, FinalReasons: "§ 6º: aumento de 3/7 pela organização do tumulto"}})
	d, err := e.svc.DefendantDocument(ctx, e.staff, pdf.KindSentence, caseID, defID)
	if err != nil {
		t.Fatal(err)
	}
	dump(t, "sentence-prison", d.Content)
	got := text(t, d.Content)
	golden(t, "sentence-prison", got)
	flat := flatBody(got)
	has(t, "prison conviction (§ 6º)", flat,
		"CONDENAR Fábio Henrique Sampaio, como incurso(a) no art. 201, § 6º, da Lei 14.597/2023, à pena de 20 (vinte) meses de reclusão e 30 (trinta) dias-multa (Código Penal, art. 49), sem conversão em pena impeditiva de comparecimento",
		"não se aplicam os §§ 2º a 5º",
		"Dosimetria", "1ª — pena-base (Código Penal, art. 59) 14 (quatorze) meses culpabilidade acentuada: liderança do grupo",
		"2ª — agravantes e atenuantes (Código Penal, arts. 61 a 66) 14 (quatorze) meses sem agravantes nem atenuantes",
		"3ª — causas de aumento e de diminuição (Código Penal, art. 68) 20 (vinte) meses § 6º: aumento de 3/7 pela organização do tumulto",
		"Reclusão 20 (vinte) meses", "Multa 30 (trinta) dias-multa")
	hasNot(t, "prison conviction (§ 6º)", flat, "Ordem de impedimento", "convertida")
}

// Lei 14.597/2023, art. 201, § 2º: a defendant who does not meet the
// conditions of the conversion (eligible false) is convicted to reclusão
// and fine, and the sentence says why there is no conversion.
func TestSentencePDF_PrisonNoConversion_Art201Par2NotMet(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	caseID, defID := e.fileR1(t)
	e.sentence(t, caseID, decisions.SentenceInput{DefendantID: defID, Outcome: decisions.OutcomePrison, Eligible: ptr(false), PrisonMonths: ptr(12), FineDays: ptr(10),
		NoConversionReason: "o réu é reincidente"})
	d, err := e.svc.DefendantDocument(ctx, e.staff, pdf.KindSentence, caseID, defID)
	if err != nil {
		t.Fatal(err)
	}
	flat := flatText(t, d.Content)
	has(t, "prison conviction (§ 2º)", flat, "à pena de 12 (doze) meses de reclusão e 10 (dez) dias-multa",
		"Não há conversão da reclusão em pena impeditiva de comparecimento: o réu é reincidente (", "primário, com bons antecedentes")
	hasNot(t, "prison conviction (§ 2º)", flat, "Dosimetria", "Ordem de impedimento")
}

// Lei 7.716/1989, art. 20, § 2º-A (Lei 14.532/2023): racism in a sporting
// context alone is reclusão with the fixed 3-year ban, cumulative (not a
// conversion), which waits for the final judgment like any sentence's
// ban (Súmula 643 STJ).
func TestSentencePDF_RacismAlone_Lei7716Art20Par2A(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	caseID, defID := e.fileRep(t, "R3", "")
	res := e.sentence(t, caseID, decisions.SentenceInput{DefendantID: defID, PrisonMonths: ptr(24)})
	d, err := e.svc.CaseDocument(ctx, e.staff, pdf.KindSentence, caseID, res.Ban.ID)
	if err != nil {
		t.Fatal(err)
	}
	dump(t, "sentence-racism", d.Content)
	flat := flatText(t, d.Content)
	has(t, "racism alone", flat,
		"CONDENAR Renan Cássio Bittencourt, como incurso(a) no art. 20, § 2º-A, da Lei 7.716/1989 (Lei 14.532/2023), às penas de 24 (vinte e quatro) meses de reclusão e de proibição de frequência a locais destinados a práticas esportivas, cumulativas, esta pelo prazo de 36 (trinta e seis) meses, a cumprir a partir do trânsito em julgado desta decisão",
		"penas cumulativas (não se trata de conversão)", "Intervalo legal 3 (três) anos, fixados na lei", "aguardando trânsito em julgado")
	hasNot(t, "racism alone", flat, "convertida", "art. 201, § 7º")
}

// CPP art. 319, II: a precautionary ban ordered in the sentence until it is
// final runs at once, with its review date (Res. CNJ 417/2021, art. 19),
// while the sentence's ban waits; a precautionary ban alone is a decision
// (not a sentence) with its review date.
func TestSentencePDF_Precautionary_CPP319II_ReviewDate(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	caseID, defID := e.fileR1(t)
	res := e.sentence(t, caseID, decisions.SentenceInput{DefendantID: defID, Ban: decisions.BanInput{Months: ptr(12)},
		PrecautionaryUntilFinal: &decisions.PrecautionaryInput{ReviewOn: "2025-10-15"}})
	d, err := e.svc.DefendantDocument(ctx, e.staff, pdf.KindSentence, caseID, defID)
	if err != nil {
		t.Fatal(err)
	}
	dump(t, "sentence-precautionary", d.Content)
	flat := flatText(t, d.Content)
	has(t, "sentence with a precautionary ban until final", flat,
		"DETERMINO, até o trânsito em julgado desta sentença, a proibição de acesso às proximidades do estádio e a qualquer local em que se realize evento esportivo, a partir de 15 de julho de 2025, com revisão em 15 de outubro de 2025",
		"Medida cautelar proibição de acesso a eventos esportivos desde 15 de julho de 2025, até o trânsito em julgado; revisão em 15 de outubro de 2025",
		"pelo prazo de 12 (doze) meses, a cumprir a partir do trânsito em julgado desta decisão")
	byPrec, err := e.svc.CaseDocument(ctx, e.staff, pdf.KindSentence, caseID, res.PrecautionaryBan.ID)
	if err != nil || byPrec.Code != d.Code {
		t.Errorf("the sentence by its precautionary ban: %v (%v), want the same document %s", byPrec, err, d.Code)
	}
	n, err := e.svc.CaseDocument(ctx, e.staff, pdf.KindNotice, caseID, res.PrecautionaryBan.ID)
	if err != nil {
		t.Fatal(err)
	}
	flat = flatText(t, n.Content)
	has(t, "notice of the precautionary ban", flat, "imposta a medida cautelar de proibição de acesso", "Início 15 de julho de 2025, a partir de 0h",
		"Término até revogação por este juízo", "Revisão 15 de outubro de 2025", "será revista por este juízo em 15 de outubro de 2025")
	hasNot(t, "notice of the precautionary ban", flat, "aguarda o trânsito em julgado")

	alone, aloneDef := e.fileRep(t, "R2", "")
	pr := e.sentence(t, alone, decisions.SentenceInput{DefendantID: aloneDef, Precautionary: true, ReviewOn: "2025-09-01"})
	d, err = e.svc.CaseDocument(ctx, e.staff, pdf.KindSentence, alone, pr.PrecautionaryBan.ID)
	if err != nil {
		t.Fatal(err)
	}
	dump(t, "decision-precautionary", d.Content)
	flat = flatText(t, d.Content)
	has(t, "precautionary order alone", flat, "DECISÃO", "DETERMINO a Thiago Gonçalves Lacerda a medida cautelar de proibição de acesso",
		"a partir de 15 de julho de 2025, com revisão em 1º de setembro de 2025, até ulterior deliberação deste juízo", "Revisão 1º de setembro de 2025")
	hasNot(t, "precautionary order alone", flat, "SENTENÇA", "CONDENAR", "trânsito em julgado desta decisão")
	again, err := e.svc.CaseDocument(ctx, e.staff, pdf.KindSentence, alone, pr.PrecautionaryBan.ID)
	if err != nil || again.Code != d.Code {
		t.Errorf("the decision downloaded again: %v (%v), want the same document %s", again, err, d.Code)
	}
}

// CF art. 5º, XLV–XLVI: a penalty is personal. Two defendants of one case,
// one acquitted and one convicted with the conversion, each have their own
// sentence document with their own outcome.
func TestSentencePDF_OutcomePerDefendant_CF5XLVI(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	r := representation(t, "R1")
	cpf := "529.982.247-25"
	r.Defendants = append(r.Defendants, cases.DefendantInput{Kind: "person", FullName: "Caio Segundo Réu", CPF: &cpf, BirthDate: "1990-02-02", MotherName: "Maria Segunda"})
	c, err := e.cases.Case.File(ctx, e.pros, r)
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.cases.Casefile.Get(ctx, e.judge, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	first, second := v.Defendants[0].ID, v.Defendants[1].ID
	(&testenv.Domain{DB: e.g, Cases: e.cases}).Receive(t, c.ID) // both: arts. 77, 81 of Lei 9.099/1995
	e.sentence(t, c.ID, decisions.SentenceInput{DefendantID: first, Eligible: ptr(true), Ban: decisions.BanInput{Months: ptr(8)}, PrisonMonths: ptr(12),
		Dosimetry: &decisions.Dosimetry{BaseMonths: 12, BaseReasons: "circunstâncias normais", IntermediateMonths: 12, IntermediateReasons: "confissão não reduz abaixo do mínimo (Súmula 231 do STJ)", FinalMonths: 12, FinalReasons: "sem causas de aumento ou diminuição"}})
	e.sentence(t, c.ID, decisions.SentenceInput{DefendantID: second, Outcome: decisions.OutcomeAcquittal, AcquittalGround: "V"})
	d1, err := e.svc.DefendantDocument(ctx, e.staff, pdf.KindSentence, c.ID, first)
	if err != nil {
		t.Fatal(err)
	}
	d2, err := e.svc.DefendantDocument(ctx, e.staff, pdf.KindSentence, c.ID, second)
	if err != nil {
		t.Fatal(err)
	}
	if d1.Code == d2.Code {
		t.Fatal("one document for two decisions")
	}
	f1, f2 := flatText(t, d1.Content), flatText(t, d2.Content)
	has(t, "the convicted defendant's sentence", f1, "Réu: Marcelo Augusto Figueiredo",
		"à pena de 12 (doze) meses de reclusão, convertida a reclusão, com fundamento no art. 201, § 2º, da Lei 14.597/2023, na pena de impedimento de comparecimento",
		"pelo prazo de 8 (oito) meses, a cumprir a partir do trânsito em julgado", "3ª — causas de aumento e de diminuição (Código Penal, art. 68) 12 (doze) meses")
	hasNot(t, "the convicted defendant's sentence", f1, "Caio Segundo Réu", "ABSOLVO")
	has(t, "the acquitted defendant's sentence", f2, "Réu: Caio Segundo Réu", "ABSOLVO Caio Segundo Réu, com fundamento no art. 386, V, do Código de Processo Penal")
	hasNot(t, "the acquitted defendant's sentence", f2, "Marcelo Augusto Figueiredo", "CONDENAR", "impedimento de comparecimento")
	if _, err := e.svc.DefendantDocument(ctx, e.staff, pdf.KindSentence, c.ID, first+100); errs.KindOf(err) != errs.NotFound {
		t.Errorf("a defendant with no sentence: %v, want not found", err)
	}
}

// One verification code per decision: the sentence document is issued once
// when the judge signs (IssueSentence) and every later download, by the
// defendant or by the ban, before or after the final judgment, gives the
// same stored PDF; the verification tells a sentence.
func TestSentencePDF_IssuedOnceAtSigning_OneCodePerDecision(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	caseID, banID := e.sentenced(t)
	var defID int64
	if err := e.g.Raw("SELECT defendant_id FROM bans WHERE id = ?", banID).Scan(&defID).Error; err != nil {
		t.Fatal(err)
	}
	issued, err := e.svc.IssueSentence(ctx, e.judge, caseID, defID)
	if err != nil {
		t.Fatal(err)
	}
	var stored *int64
	if err := e.g.Raw("SELECT document_id FROM sentences WHERE defendant_id = ? AND status = 'signed'", defID).Scan(&stored).Error; err != nil {
		t.Fatal(err)
	}
	if stored == nil || *stored != issued.ID {
		t.Fatalf("sentences.document_id = %v, want the issued document %d", stored, issued.ID)
	}
	check := func(when string, d *documents.Document, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		if d.Code != issued.Code || !bytes.Equal(d.Content, issued.Content) {
			t.Errorf("%s: code %s, want the document issued at signing %s (same bytes)", when, d.Code, issued.Code)
		}
	}
	d, err := e.svc.SentenceDocument(ctx, e.staff, caseID, defID, 0)
	check("by the defendant", d, err)
	d, err = e.svc.CaseDocument(ctx, e.staff, pdf.KindSentence, caseID, banID)
	check("by the ban", d, err)
	e.final(t, caseID)
	d, err = e.svc.DefendantDocument(ctx, e.staff, pdf.KindSentence, caseID, defID)
	check("after the final judgment", d, err)
	var n int64
	if err := e.g.Raw("SELECT count(*) FROM documents WHERE kind = 'sentence'").Scan(&n).Error; err != nil || n != 1 {
		t.Errorf("%d sentence documents (%v), want 1", n, err)
	}
	v, _, err := e.svc.Verify(ctx, issued.Code)
	if err != nil || v.Kind != pdf.KindSentence || v.Title != "Sentença" {
		t.Errorf("verification: %+v %v", v, err)
	}
}

// The judge previews the saved minuta as the PDF it would be if signed
// (CF art. 93, IX: the judge's own text), marked "MINUTA — sem valor de
// documento", with no verification code; nothing is decided nor stored.
// Only the judge of the case previews it. Signed afterwards, the
// sentence document says the same.
func TestDraftPreview_MinutaSemValorDeDocumento(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	caseID, defID := e.fileR1(t)
	if _, _, err := e.svc.DraftPreview(ctx, e.judge, caseID, defID); errs.KindOf(err) != errs.NotFound {
		t.Errorf("preview with no minuta: %v, want not found", err)
	}
	res := e.sentence(t, caseID, decisions.SentenceInput{DefendantID: defID, Draft: true, Ban: decisions.BanInput{Months: ptr(9)}, PrisonMonths: ptr(14),
		Dosimetry: &decisions.Dosimetry{BaseMonths: 14, BaseReasons: "maus antecedentes não comprovados; culpabilidade elevada", IntermediateMonths: 14, FinalMonths: 14}})
	if res.Sentence.Status != "draft" {
		t.Fatalf("minuta saved as %q", res.Sentence.Status)
	}
	count := func(q string) int64 {
		t.Helper()
		var n int64
		if err := e.g.Raw(q).Scan(&n).Error; err != nil {
			t.Fatal(err)
		}
		return n
	}
	docs, bans, movements := count("SELECT count(*) FROM documents"), count("SELECT count(*) FROM bans"), count("SELECT count(*) FROM movements")
	b, pages, err := e.svc.DraftPreview(ctx, e.judge, caseID, defID)
	if err != nil {
		t.Fatal(err)
	}
	dump(t, "draft", b)
	got := text(t, b)
	if strings.Count(got, "\f") != pages {
		t.Errorf("preview: %d pages, pdftotext %d", pages, strings.Count(got, "\f"))
	}
	flat := strings.Join(strings.Fields(got), " ")
	has(t, "preview", flat, pdf.DraftMark, "Prévia da minuta de 15 de julho de 2025: não assinada, sem código de verificação")
	if n := strings.Count(flat, pdf.DraftMark); n < 2*pages {
		t.Errorf("preview of %d pages says %q %d times, want on every page's header and footer", pages, pdf.DraftMark, n)
	}
	hasNot(t, "preview", flat, "Código de verificação", "/verificar/", "Publique-se")
	body := flatBody(got)
	has(t, "preview", body, "à pena de 14 (quatorze) meses de reclusão, convertida a reclusão", "pelo prazo de 9 (nove) meses", "Minuta de 15 de julho de 2025, não assinada.",
		"1ª — pena-base (Código Penal, art. 59) 14 (quatorze) meses maus antecedentes não comprovados; culpabilidade elevada")
	if n := count("SELECT count(*) FROM documents"); n != docs {
		t.Errorf("the preview stored a document: %d → %d", docs, n)
	}
	if n := count("SELECT count(*) FROM bans"); n != bans {
		t.Errorf("the preview decided a ban: %d → %d", bans, n)
	}
	if n := count("SELECT count(*) FROM movements"); n != movements {
		t.Errorf("the preview wrote the docket: %d → %d", movements, n)
	}
	if n := count("SELECT count(*) FROM sentences WHERE status = 'signed'"); n != 0 {
		t.Errorf("the preview signed: %d signed sentences", n)
	}
	other, _, err := accounts.EnsureUser(ctx, e.g, accounts.UserSpec{Name: "Juiz Substituto", Role: "judge", Court: "26.0100"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.svc.DraftPreview(ctx, actor.Actor{UserID: other.ID, Name: other.Name, Role: "judge", Court: "26.0100"}, caseID, defID); errs.KindOf(err) != errs.Forbidden {
		t.Errorf("another judge's preview: %v, want forbidden", err)
	}
	if _, _, err := e.svc.DraftPreview(ctx, actor.Actor{UserID: e.judge.UserID, Role: "judge", Court: "19.0001"}, caseID, defID); errs.KindOf(err) != errs.NotFound {
		t.Errorf("preview from another court: %v, want not found", err)
	}

	if _, err := e.cases.Decisions.SignDraft(ctx, e.judge, caseID, defID); err != nil {
		t.Fatal(err)
	}
	d, err := e.svc.IssueSentence(ctx, e.judge, caseID, defID)
	if err != nil {
		t.Fatal(err)
	}
	signedText := text(t, d.Content)
	signed := flatBody(signedText)
	has(t, "signed sentence", signed, "à pena de 14 (quatorze) meses de reclusão, convertida a reclusão", "pelo prazo de 9 (nove) meses", "Publique-se")
	has(t, "signed sentence", signedText, "Código de verificação: "+pdf.GroupCode(d.Code))
	hasNot(t, "signed sentence", signed, pdf.DraftMark)
	if _, _, err := e.svc.DraftPreview(ctx, e.judge, caseID, defID); errs.KindOf(err) != errs.NotFound {
		t.Errorf("preview after signing: %v, want not found (the minuta is the sentence now)", err)
	}
}

// Lei 9.099/1995, art. 82, § 1º; CPP art. 798, §§ 1º and 3º; Súmula 310
// STF: the notice prints the rule of the appeal window and, once a party
// was notified, that party's window with its first and last day (a notice
// on Tuesday 15/07/2025: 16/07 to 25/07/2025) or its waiver.
func TestNoticePDF_DeadlineFirstAndLastDay_Lei_9099_art_82_Sumula_310_STF(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	caseID, defID := e.fileR1(t)
	e.sentence(t, caseID, decisions.SentenceInput{DefendantID: defID, Outcome: decisions.OutcomeAcquittal, AcquittalGround: "VII"})
	if _, err := e.cases.Calendar.Notify(ctx, e.staff, caseID, calendar.NotificationInput{DefendantID: defID, NotifiedOn: "2025-07-15"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cases.Calendar.Notify(ctx, e.staff, caseID, calendar.NotificationInput{Party: calendar.PartyProsecution, NotifiedOn: "2025-07-15", WaivedAppeal: true}); err != nil {
		t.Fatal(err)
	}
	n, err := e.svc.DefendantDocument(ctx, e.staff, pdf.KindNotice, caseID, defID)
	if err != nil {
		t.Fatal(err)
	}
	flat := flatText(t, n.Content)
	has(t, "notice with the windows", flat, "Súmula 310 do STF", "réu: ciência em 15/07/2025; prazo de 10 dias corridos, de 16/07/2025 a 25/07/2025",
		"Ministério Público: ciência em 15/07/2025, com renúncia expressa ao prazo de recurso")
}

// CPP art. 319, II ("proibição de acesso ou frequência a determinados
// lugares"): the decision and the notice of a precautionary ban that names
// venues say where it applies, and only there; one counted in matches
// says the matches and their days, and ends on the last.
func TestSentencePDF_PrecautionaryScopeAndMatches_CPP319II(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	schedule := "competition,round,home,away,venue,date,kickoff_local\n" +
		"Campeonato Paulista,1,Corinthians,Santos,Arena Corinthians,2025-07-20,16:00\n" +
		"Campeonato Paulista,2,Corinthians,Guarani,Arena Corinthians,2025-07-27,16:00\n"
	if _, err := e.cases.Schedule.ImportMatches(ctx, e.staff, []byte(schedule), false); err != nil {
		t.Fatal(err)
	}
	caseID, defID := e.fileRep(t, "R2", "")
	pr := e.sentence(t, caseID, decisions.SentenceInput{DefendantID: defID, Precautionary: true, ReviewOn: "2025-09-01",
		Scope: &decisions.ScopeInput{Venues: []string{"Arena Corinthians", "Allianz Parque"}}})
	d, err := e.svc.CaseDocument(ctx, e.staff, pdf.KindSentence, caseID, pr.PrecautionaryBan.ID)
	if err != nil {
		t.Fatal(err)
	}
	flat := flatText(t, d.Content)
	has(t, "decision with a scope", flat, "medida cautelar de proibição de acesso aos seguintes locais e jogos, e somente a eles: Arena Corinthians e Allianz Parque",
		"Onde vale Arena Corinthians e Allianz Parque")
	hasNot(t, "decision with a scope", flat, "bem como a qualquer local em que se realize evento esportivo")
	n, err := e.svc.CaseDocument(ctx, e.staff, pdf.KindNotice, caseID, pr.PrecautionaryBan.ID)
	if err != nil {
		t.Fatal(err)
	}
	flat = flatText(t, n.Content)
	has(t, "notice with a scope", flat, "aos seguintes locais e jogos, e somente a eles: Arena Corinthians e Allianz Parque", "Onde vale Arena Corinthians e Allianz Parque")

	other, otherDef := e.fileRep(t, "R1", "")
	two, home := 2, true
	pm := e.sentence(t, other, decisions.SentenceInput{DefendantID: otherDef, Precautionary: true, ReviewOn: "2025-09-01",
		Ban: decisions.BanInput{Matches: &two, Club: "Corinthians", HomeOnly: &home}})
	d, err = e.svc.CaseDocument(ctx, e.staff, pdf.KindSentence, other, pm.PrecautionaryBan.ID)
	if err != nil {
		t.Fatal(err)
	}
	flat = flatText(t, d.Content)
	has(t, "decision counted in matches", flat, "pelos próximos 2 jogos de Corinthians como mandante (20/07/2025 e 27/07/2025)",
		"Prazo os próximos 2 jogos de Corinthians como mandante", "Último dia 27 de julho de 2025 (último dos jogos)")
	n, err = e.svc.CaseDocument(ctx, e.staff, pdf.KindNotice, other, pm.PrecautionaryBan.ID)
	if err != nil {
		t.Fatal(err)
	}
	flat = flatText(t, n.Content)
	has(t, "notice counted in matches", flat, "Prazo os próximos 2 jogos de Corinthians como mandante (20/07/2025 e 27/07/2025)", "Término 27 de julho de 2025, às 24h")
}

// CP art. 14, II and art. 68: the sentence prints the third phase's cause
// of decrease with its article and fraction, and the term below the
// offence's minimum with its days (Súmula 231 STJ binds the second phase
// only).
func TestSentencePDF_DosimetryThirdPhase_AttemptBelowMinimum_CP14II(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	caseID, defID := e.fileR1(t)
	e.sentence(t, caseID, decisions.SentenceInput{DefendantID: defID, Outcome: decisions.OutcomePrison, Eligible: ptr(false), FineDays: ptr(10),
		Dosimetry: &decisions.Dosimetry{BaseMonths: 14, BaseReasons: "culpabilidade acentuada", IntermediateMonths: 14, FinalReasons: "tentativa",
			Causes: []decisions.CauseInput{{Kind: "decrease", Fraction: []byte(`"1/3"`), Article: "CP, art. 14, II"}}}})
	d, err := e.svc.DefendantDocument(ctx, e.staff, pdf.KindSentence, caseID, defID)
	if err != nil {
		t.Fatal(err)
	}
	flat := flatText(t, d.Content)
	has(t, "third phase", flat, "à pena de 9 (nove) meses e 10 (dez) dias de reclusão",
		"3ª — causas de aumento e de diminuição (Código Penal, art. 68) 9 (nove) meses e 10 (dez) dias tentativa",
		"CP, art. 14, II (tentativa; de 1/3 a 2/3): diminuída de 1/3, de 1 ano e 2 meses para 9 meses e 10 dias.",
		"abaixo do mínimo abstrato de 1 ano", "Súmula 231 do STJ limita só a segunda fase")
}
