package documents_test

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/audit"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/pdf"
	"github.com/juizado/juizado/internal/sharedfix"
	"github.com/juizado/juizado/registry"
)

// regGroup registers a group in 26.0100 and returns the register service,
// the group and a manager.
func (e *env) regGroup(t *testing.T, name string, cnpj *string) (*registry.Groups, *registry.GroupView, actor.Actor) {
	t.Helper()
	ctx := context.Background()
	svc := e.svc.Groups
	g, err := svc.CreateGroup(ctx, regActor(e.staff), registry.GroupInput{Name: name, CNPJ: cnpj, SupportedClub: "Corinthians"})
	if err != nil {
		t.Fatal(err)
	}
	u, _, err := accounts.EnsureUser(ctx, e.g, accounts.UserSpec{Name: "gestor " + name, Role: "fan_group", Group: g.ID})
	if err != nil {
		t.Fatal(err)
	}
	return svc, g, actor.Actor{UserID: u.ID, Name: u.Name, Role: "fan_group", GroupID: g.ID}
}

func regActor(a actor.Actor) actor.Actor {
	return actor.Actor{UserID: a.UserID, Name: a.Name, Role: a.Role, Court: a.Court}
}

func fixture(t *testing.T, elem ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(sharedfix.Path(t, elem...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// validCPF makes a CPF with correct check digits from 9 digits.
func validCPF(base int) string {
	d := []int{}
	for _, r := range fmt.Sprintf("%09d", base) {
		d = append(d, int(r-'0'))
	}
	for _, n := range []int{9, 10} {
		sum := 0
		for i := 0; i < n; i++ {
			sum += d[i] * (n + 1 - i)
		}
		r := sum % 11
		if r < 2 {
			d = append(d, 0)
		} else {
			d = append(d, 11-r)
		}
	}
	var b strings.Builder
	for _, x := range d {
		b.WriteByte(byte('0' + x))
	}
	return b.String()
}

func str(s string) *string { return &s }

func layoutText(t *testing.T, b []byte) string { t.Helper(); return pdftotext(t, b, "-layout") }

// The extract of a register: the group's
// header, one row per member with name, CPF formatted, birth date, the
// latest membership, status and the incomplete flag, earlier memberships
// listed; accents and names from anywhere as written; never the photo nor
// the other personal fields; stored under a verification code that tells
// what it is without personal data; the staff's read is recorded in
// member_reads and audit_log; other courts and groups get 404.
func TestRegisterExtract(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	groups, g, mgr := e.regGroup(t, "Torcida Organizada Garra do Tatuapé", nil)
	rep, err := groups.Import(ctx, mgr, g.ID, registry.ImportInput{Body: fixture(t, "fixtures", "members-valid-excel-ptbr.csv"), ContentType: "text/csv"})
	if err != nil || !rep.Applied {
		t.Fatalf("import: %+v %v", rep, err)
	}
	in := registry.MemberInput{FullName: str("Łukasz Muñoz Sørensen"), MotherName: str("Agnieszka Sørensen"), RG: str("12.345.678-9"), RGIssuer: str("SSP/SP"),
		CPF: str("663.923.321-54"), BirthDate: str("22/07/1991"), CivilStatus: str("solteiro"), Profession: str("garçom"),
		Address: str("Rua Tuiuti, 10, Tatuapé, São Paulo/SP"), Schooling: str("ensino médio completo"), JoinedOn: str("2020-02-01")}
	lk, err := groups.AddMember(ctx, mgr, g.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := groups.Leave(ctx, mgr, lk.ID, registry.DateInput{LeftOn: "2022-03-15"}); err != nil {
		t.Fatal(err)
	}
	if _, err := groups.Rejoin(ctx, mgr, lk.ID, registry.DateInput{JoinedOn: "2024-05-01"}); err != nil {
		t.Fatal(err)
	}
	ms, err := groups.ListMembers(ctx, mgr, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	byCPF := map[string]int64{}
	for _, m := range ms {
		byCPF[m.CPF] = m.ID
	}
	if _, err := groups.SetPhoto(ctx, mgr, byCPF["01720368872"], fixture(t, "fixtures", "member-photos", "ana-lucia.png")); err != nil {
		t.Fatal(err)
	}
	if _, err := groups.Leave(ctx, mgr, byCPF["68078490950"], registry.DateInput{}); err != nil {
		t.Fatal(err)
	}

	clerk := actor.Actor{UserID: e.staff.UserID, Name: e.staff.Name, Role: "clerk", Court: "26.0100"}
	d, err := e.svc.Register(ctx, clerk, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	dump(t, "register", d.Content)
	got := text(t, d.Content)
	if n := strings.Count(got, "\f"); n != d.Pages || d.Pages != 1 {
		t.Errorf("pages: pdftotext %d, stored %d, want 1", n, d.Pages)
	}
	golden(t, "register", got)
	flat := strings.Join(strings.Fields(got), " ")
	for _, want := range []string{"EXTRATO DO CADASTRO DE ASSOCIADOS", "Torcida Organizada Garra do Tatuapé", "torcida de fato, sem CNPJ",
		"Corinthians", "Juizado Especial Criminal do Torcedor da Capital (26.0100)", "5 ativo(s) e 1 desligado(s)",
		"Łukasz Muñoz Sørensen: 01/02/2020 a 15/03/2022.", "Última atualização do cadastro 15 de julho de 2025"} {
		if !strings.Contains(flat, want) {
			t.Errorf("extract lacks %q:\n%s", want, got)
		}
	}
	// One row per member: with -layout each row is one line with the
	// name, the CPF and the birth date.
	lay := layoutText(t, d.Content)
	rows := map[string]string{"064.206.423-70": "João Pedro da Silva Araújo", "017.203.688-72": "Ana Lúcia Gonçalves Simões",
		"069.099.903-82": "José Antônio Brandão Júnior", "970.376.009-03": "Luís Fernando Assunção",
		"680.784.909-50": "Rafaela Conceição Nóbrega", "663.923.321-54": "Łukasz Muñoz Sørensen"}
	for cpf, name := range rows {
		var lines []string
		for _, ln := range strings.Split(lay, "\n") {
			if strings.Contains(ln, cpf) {
				lines = append(lines, ln)
			}
		}
		if len(lines) != 1 || !strings.Contains(lines[0], name) {
			t.Errorf("%s: rows %q, want one with %s", cpf, lines, name)
		}
	}
	rowOf := func(cpf string) string {
		for _, ln := range strings.Split(lay, "\n") {
			if strings.Contains(ln, cpf) {
				return strings.Join(strings.Fields(ln), " ")
			}
		}
		return ""
	}
	for cpf, want := range map[string]*regexp.Regexp{
		"017.203.688-72": regexp.MustCompile(`Ana Lúcia Gonçalves Simões 017\.203\.688-72 02/11/1988 15/07/2025 — ativo completo$`),
		"680.784.909-50": regexp.MustCompile(`680\.784\.909-50 07/01/2003 15/07/2025 15/07/2025 desligado incompleto: sem foto$`),
		"663.923.321-54": regexp.MustCompile(`663\.923\.321-54 22/07/1991 01/05/2024 — ativo incompleto: sem foto$`),
	} {
		if !want.MatchString(rowOf(cpf)) {
			t.Errorf("row of %s: %q, want %s", cpf, rowOf(cpf), want)
		}
	}
	// Never the photo, nor the fields that stay in the register.
	if regexp.MustCompile(`/Subtype\s*/Image`).Match(d.Content) {
		t.Error("the extract carries an image")
	}
	for _, private := range []string{"Maria José da Silva", "Rua Itapeti", "23.456.789-1", "motoboy", "ana-lucia.png", "Agnieszka"} {
		if strings.Contains(flat, private) {
			t.Errorf("the extract shows %q", private)
		}
	}
	// The code tells what the document is, with no personal data.
	v, _, err := e.svc.Verify(ctx, d.Code)
	if err != nil || v.Kind != pdf.KindRegister || v.Title != "Extrato do cadastro de associados de torcida organizada" || v.Court != "26.0100" || v.CaseNumber != "" {
		t.Errorf("verification: %+v %v", v, err)
	}
	var gid int64
	e.g.Raw("SELECT group_id FROM documents WHERE code = ?", d.Code).Scan(&gid)
	if gid != g.ID {
		t.Errorf("document's group: %d, want %d", gid, g.ID)
	}
	// The clerk's read is recorded (member_reads and audit_log); the
	// manager's is not.
	if _, err := e.svc.Register(ctx, mgr, g.ID); err != nil {
		t.Fatal(err)
	}
	reads, err := groups.Reads(ctx, g.ID)
	if err != nil || len(reads) != 1 || reads[0].What != "export" || reads[0].UserID != clerk.UserID {
		t.Errorf("member_reads: %+v %v", reads, err)
	}
	rowsA, err := audit.List(ctx, e.g, audit.Filter{Table: "fan_groups", RecordID: fmt.Sprint(g.ID)})
	if err != nil {
		t.Fatal(err)
	}
	var readRows int
	for _, r := range rowsA {
		if r.Action == "read" {
			readRows++
			if r.ActorID == nil || *r.ActorID != clerk.UserID || !strings.Contains(string(r.After), `"export"`) {
				t.Errorf("audit read row: %+v %s", r, r.After)
			}
		}
	}
	if readRows != 1 {
		t.Errorf("audit read rows: %d, want 1", readRows)
	}
	// Another court's staff, another group's manager, a club: 404.
	_, _, other := e.regGroup(t, "Outra Torcida", nil)
	for who, a := range map[string]actor.Actor{
		"clerk of another court": {UserID: e.staff.UserID, Role: "clerk", Court: "19.0001"},
		"manager of another":     other,
		"club":                   {UserID: e.staff.UserID, Role: "club"},
	} {
		if _, err := e.svc.Register(ctx, a, g.ID); errs.KindOf(err) != errs.NotFound {
			t.Errorf("%s: %v, want not found", who, err)
		}
	}
}

// A long register breaks between rows over several pages with the table's
// header repeated on each; a group with a CNPJ says so; the stale flag.
func TestRegisterExtractPages(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	groups, g, mgr := e.regGroup(t, "Gaviões da Fiel Torcida", str("11.222.333/0001-81"))
	const n = 70
	want := map[string]string{}
	for i := 0; i < n; i++ {
		cpf := validCPF(123456000 + i*7)
		name := fmt.Sprintf("Associado Nº %02d Conceição", i+1)
		want[pdf.FormatCPF(cpf)] = name
		in := registry.MemberInput{FullName: str(name), MotherName: str("Mãe"), RG: str("1"), RGIssuer: str("SSP/SP"), CPF: str(cpf),
			BirthDate: str("1990-01-01"), CivilStatus: str("solteiro"), Profession: str("x"), Address: str("Rua"), Schooling: str("médio"),
			JoinedOn: str("2023-01-01")}
		if _, err := groups.AddMember(ctx, mgr, g.ID, in); err != nil {
			t.Fatalf("member %d: %v", i, err)
		}
	}
	// A year and a half later, nobody updated the register.
	e.svc.Clock.(interface{ Set(time.Time) }).Set(issueTime.AddDate(1, 6, 0))
	d, err := e.svc.Register(ctx, mgr, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	dump(t, "register-long", d.Content)
	got := text(t, d.Content)
	if d.Pages < 3 || strings.Count(got, "\f") != d.Pages || !strings.Contains(got, fmt.Sprintf("Página %d de %d", d.Pages, d.Pages)) {
		t.Errorf("pages: stored %d, pdftotext %d", d.Pages, strings.Count(got, "\f"))
	}
	flat := strings.Join(strings.Fields(got), " ")
	for _, s := range []string{"pessoa jurídica, CNPJ 11.222.333/0001-81", "cadastro não atualizado há mais de 12 (doze) meses", "70 ativo(s) e 0 desligado(s)"} {
		if !strings.Contains(flat, s) {
			t.Errorf("extract lacks %q", s)
		}
	}
	lay := layoutText(t, d.Content)
	pages := strings.Split(lay, "\f")
	for i, p := range pages[:d.Pages] {
		if !regexp.MustCompile(`(?m)^\s*Nome\s+CPF\s+Nascimento\s+Entrada\s+Saída\s+Situação\s+Cadastro\s*$`).MatchString(p) {
			t.Errorf("page %d without the table's header:\n%s", i+1, p)
		}
	}
	seen := 0
	for _, ln := range strings.Split(lay, "\n") {
		for cpf, name := range want {
			if strings.Contains(ln, cpf) {
				seen++
				if !strings.Contains(ln, name) || !strings.Contains(ln, "01/01/1990") {
					t.Errorf("row %q lacks %s", ln, name)
				}
			}
		}
	}
	if seen != n {
		t.Errorf("%d rows, want %d", seen, n)
	}
}
