package registry_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/app"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/sharedfix"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/registry/blocklist"
	"gorm.io/gorm"
)

// regEnv is a database with one court (26.0100) and another (19.0001), a
// clerk of each, and the register service on a fixed clock.
type regEnv struct {
	g      *gorm.DB
	clk    *clock.Fixed
	svc    *registry.Groups
	clerk  actor.Actor
	other  actor.Actor // clerk of another court
	lists  *blocklist.Lists
	casesS *app.Cases
}

// regT0: 15/01/2025 12:00 in São Paulo, before R5's facts (06/04/2025).
var regT0 = time.Date(2025, 1, 15, 12, 0, 0, 0, saoPaulo)

func newRegEnv(t *testing.T) *regEnv {
	t.Helper()
	d := testenv.NewDomain(t, regT0, "")
	if err := cases.EnsureCourt(context.Background(), d.DB, "19.0001", ""); err != nil {
		t.Fatal(err)
	}
	e := &regEnv{g: d.DB, clk: d.Clock, svc: &registry.Groups{DB: d.DB, Clock: d.Clock, Loc: d.Loc}, lists: d.Lists, casesS: d.Cases}
	e.clerk = e.user(t, "clerk-sp", "clerk", "26.0100", 0)
	e.other = e.user(t, "clerk-rj", "clerk", "19.0001", 0)
	return e
}

func (e *regEnv) user(t *testing.T, name, role, court string, group int64) actor.Actor {
	t.Helper()
	u, _, err := accounts.EnsureUser(context.Background(), e.g, accounts.UserSpec{Name: name, Role: role, Court: court, Group: group})
	if err != nil {
		t.Fatal(err)
	}
	a := u.Actor()
	a.Name = name
	return a
}

// group registers a group in 26.0100 and returns it with a manager.
func (e *regEnv) group(t *testing.T, name string) (*registry.GroupView, actor.Actor) {
	t.Helper()
	g, err := e.svc.CreateGroup(context.Background(), e.clerk, registry.GroupInput{Name: name, SupportedClub: "Corinthians"})
	if err != nil {
		t.Fatal(err)
	}
	return g, e.user(t, "manager-"+name, "fan_group", "", g.ID)
}

// registeredGroup registers a group in 26.0100 with the shared Excel
// register imported (fixtures/members-valid-excel-ptbr.csv), moves the
// clock to 10/06/2025 12:00 in São Paulo (after R5's facts) and returns
// the group, its manager and its members' ids by CPF (digits only).
func (e *regEnv) registeredGroup(t *testing.T) (*registry.GroupView, actor.Actor, map[string]int64) {
	t.Helper()
	ctx := context.Background()
	g, mgr := e.group(t, "Torcida Organizada Garra do Tatuapé")
	rep, err := e.svc.Import(ctx, mgr, g.ID, registry.ImportInput{Body: readFix(t, "fixtures", "members-valid-excel-ptbr.csv"), ContentType: "text/csv"})
	if err != nil || !rep.Applied {
		t.Fatalf("import: %+v %v", rep, err)
	}
	e.clk.Set(time.Date(2025, 6, 10, 12, 0, 0, 0, saoPaulo))
	return g, mgr, e.memberIDs(t, mgr, g.ID)
}

// memberIDs is the register of group groupID as read by mgr: each
// member's id by CPF (digits only).
func (e *regEnv) memberIDs(t *testing.T, mgr actor.Actor, groupID int64) map[string]int64 {
	t.Helper()
	members, err := e.svc.ListMembers(context.Background(), mgr, groupID)
	if err != nil {
		t.Fatal(err)
	}
	byCPF := map[string]int64{}
	for _, m := range members {
		byCPF[m.CPF] = m.ID
	}
	return byCPF
}

func readFix(t *testing.T, elem ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(sharedfix.Path(t, elem...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func kindOf(t *testing.T, err error, want errs.Kind) {
	t.Helper()
	if errs.KindOf(err) != want {
		t.Fatalf("error %v: kind %d, want %d", err, errs.KindOf(err), want)
	}
}

func lineOf(rep *registry.ImportReport, n int) *registry.ImportLine {
	for i := range rep.Lines {
		if rep.Lines[i].Line == n {
			return &rep.Lines[i]
		}
	}
	return nil
}

// The Excel (Windows-1252, `;`) fixture: a dry run reports five creations
// on lines 2–6 and applies nothing; José Antônio's CPF, typed as a number,
// is restored with a warning; the import applies; the UTF-8 BOM fixture
// (`,`, quoted addresses) then finds every member unchanged.
func TestImport_FixturesExcelAndUTF8BOM(t *testing.T) {
	t.Parallel()
	e := newRegEnv(t)
	ctx := context.Background()
	g, mgr := e.group(t, "Torcida Organizada Garra do Tatuapé")
	body := readFix(t, "fixtures", "members-valid-excel-ptbr.csv")
	rep, err := e.svc.Import(ctx, mgr, g.ID, registry.ImportInput{Body: body, ContentType: "text/csv", DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Encoding != "Windows-1252" || rep.Separator != ";" || rep.Created != 5 || rep.Errors != 0 || rep.Applied || len(rep.Lines) != 5 {
		t.Fatalf("dry run report: %+v", rep)
	}
	for i, l := range rep.Lines {
		if l.Line != i+2 || l.Status != registry.LineCreate {
			t.Errorf("line %d: %+v", i+2, l)
		}
	}
	jose := lineOf(rep, 4)
	if jose.CPF != "06909990382" || len(jose.Warnings) == 0 || !strings.Contains(strings.Join(jose.Warnings, " "), "069.099.903-82") {
		t.Errorf("restored CPF: %+v", jose)
	}
	if !strings.Contains(strings.Join(lineOf(rep, 2).Warnings, " "), "não enviada") {
		t.Errorf("photo named but not sent: no warning: %+v", lineOf(rep, 2))
	}
	ms, err := e.svc.ListMembers(ctx, mgr, g.ID)
	if err != nil || len(ms) != 0 {
		t.Fatalf("dry run applied something: %d members, %v", len(ms), err)
	}
	rep, err = e.svc.Import(ctx, mgr, g.ID, registry.ImportInput{Body: body, ContentType: "text/csv"})
	if err != nil || !rep.Applied || rep.Created != 5 {
		t.Fatalf("import: %+v %v", rep, err)
	}
	ms, err = e.svc.ListMembers(ctx, mgr, g.ID)
	if err != nil || len(ms) != 5 {
		t.Fatalf("members: %d %v", len(ms), err)
	}
	var luis *registry.MemberView
	for i := range ms {
		if ms[i].CPF == "97037600903" {
			luis = &ms[i]
		}
		if !ms[i].Incomplete || ms[i].JoinedOn != civil.New(2025, 1, 15) || !ms[i].Active {
			t.Errorf("member %s: incomplete %v, joined %s, active %v", ms[i].FullName, ms[i].Incomplete, ms[i].JoinedOn, ms[i].Active)
		}
	}
	if luis == nil || luis.FullName != "Luís Fernando Assunção" || !luis.FatherUnknown || luis.MotherName != "Irene Assunção" || luis.BirthDate != civil.New(1979, 9, 19) {
		t.Errorf("Luís Fernando: %+v", luis)
	}
	gv, _ := e.svc.GetGroup(ctx, mgr, g.ID)
	if gv.RegisterUpdatedAt == nil || gv.RegisterStale || gv.ActiveMembers != 5 {
		t.Errorf("group after import: %+v", gv)
	}
	rep, err = e.svc.Import(ctx, mgr, g.ID, registry.ImportInput{Body: readFix(t, "fixtures", "members-valid-utf8-bom.csv"), ContentType: "text/csv"})
	if err != nil || rep.Encoding != "UTF-8 com BOM" || rep.Separator != "," || rep.Unchanged != 5 || rep.Created+rep.Updated+rep.Errors != 0 {
		t.Fatalf("re-import UTF-8 BOM: %+v %v", rep, err)
	}
	// 13 months later the register is flagged as stale.
	e.clk.Set(regT0.AddDate(1, 1, 0))
	if gv, _ := e.svc.GetGroup(ctx, mgr, g.ID); !gv.RegisterStale {
		t.Errorf("register not flagged after 13 months: %+v", gv)
	}
}

// members-with-errors-excel-ptbr.csv: every bad line is reported with its
// column and reason, and nothing is applied.
func TestImport_FixtureWithErrors(t *testing.T) {
	t.Parallel()
	e := newRegEnv(t)
	ctx := context.Background()
	g, mgr := e.group(t, "Garra")
	rep, err := e.svc.Import(ctx, mgr, g.ID, registry.ImportInput{Body: readFix(t, "fixtures", "members-with-errors-excel-ptbr.csv"), ContentType: "text/csv"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Applied || rep.Errors != 4 {
		t.Fatalf("report: %+v", rep)
	}
	want := map[int][][2]string{
		4: {{"CPF", "verificadores"}},        // 064.206.423-71
		5: {{"CPF", "iguais"}},               // 111.111.111-11
		6: {{"Data de nascimento", "31/02"}}, // nonexistent day
		7: {{"Profissão", "obrigatório"}, {"CPF", "linha 3"}},
	}
	for n, errsWant := range want {
		l := lineOf(rep, n)
		if l == nil || l.Status != registry.LineError {
			t.Errorf("line %d: %+v, want error", n, l)
			continue
		}
		for _, w := range errsWant {
			found := false
			for _, ce := range l.Errors {
				if ce.Column == w[0] && strings.Contains(ce.Message, w[1]) {
					found = true
				}
			}
			if !found {
				t.Errorf("line %d: no error on %s mentioning %q: %+v", n, w[0], w[1], l.Errors)
			}
		}
	}
	for _, n := range []int{2, 3} {
		if l := lineOf(rep, n); l == nil || l.Status != registry.LineCreate {
			t.Errorf("line %d: %+v", n, l)
		}
	}
	if ms, _ := e.svc.ListMembers(ctx, mgr, g.ID); len(ms) != 0 {
		t.Errorf("a failed import applied %d members", len(ms))
	}
}

// Columns found by header text in any order; a record spanning lines is
// numbered by its first line; a missing required column is an error on the
// header; a join-date column sets the date; without it the import date in
// São Paulo (here 31/12/2024 at 23:30, already 1 January in UTC).
func TestImport_HeadersLinesAndDates(t *testing.T) {
	t.Parallel()
	e := newRegEnv(t)
	ctx := context.Background()
	g, mgr := e.group(t, "Gaviões")
	e.clk.Set(time.Date(2024, 12, 31, 23, 30, 0, 0, saoPaulo))
	csv := "cpf,ESCOLARIDADE,Endereco,profissao,estado civil,data de nascimento,orgao emissor,rg,nome do pai,nome da mae,nome completo\r\n" +
		"52998224725,médio,\"Rua A, 1\r\nBloco B\",pedreiro,solteiro,01/02/1990,SSP/SP,1,,Maria,Pedro Alves\r\n" +
		"\r\n" +
		"39053344705,médio,Rua B,pintor,casado,2/3/1991,SSP/SP,2,João,Ana,Paulo Souza\r\n" +
		"11144477735,médio,Rua C,pintor,casado,1991-13-01,SSP/SP,3,João,Ana,Bruno Lima\r\n"
	rep, err := e.svc.Import(ctx, mgr, g.ID, registry.ImportInput{Body: []byte(csv), ContentType: "text/csv", DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if l := lineOf(rep, 2); l == nil || l.Status != registry.LineCreate {
		t.Errorf("line 2: %+v", l)
	}
	if l := lineOf(rep, 5); l == nil || l.Status != registry.LineCreate {
		t.Errorf("line 5 (after a multi-line record and a blank line): %+v (%+v)", l, rep.Lines)
	}
	if l := lineOf(rep, 6); l == nil || l.Status != registry.LineError || l.Errors[0].Column != "data de nascimento" {
		t.Errorf("line 6: %+v", l)
	}
	// Missing column.
	rep, err = e.svc.Import(ctx, mgr, g.ID, registry.ImportInput{Body: []byte("Nome completo;CPF\r\nA;52998224725\r\n"), ContentType: "text/csv"})
	if err != nil || rep.Applied || lineOf(rep, 1) == nil || lineOf(rep, 1).Status != registry.LineError {
		t.Fatalf("missing columns: %+v %v", rep, err)
	}
	// Join date column, and the import date otherwise.
	ok := "Nome completo;Nome da mãe;Nome do pai;RG;Órgão emissor;CPF;Data de nascimento;Estado civil;Profissão;Endereço completo;Escolaridade;Data de entrada\r\n" +
		"Pedro Alves;Maria;;1;SSP;529.982.247-25;01/02/1990;solteiro;pedreiro;Rua A;médio;10/03/2020\r\n" +
		"Paulo Souza;Ana;João;2;SSP;390.533.447-05;02/03/1991;casado;pintor;Rua B;médio;\r\n"
	rep, err = e.svc.Import(ctx, mgr, g.ID, registry.ImportInput{Body: []byte(ok), ContentType: "text/csv"})
	if err != nil || !rep.Applied {
		t.Fatalf("import: %+v %v", rep, err)
	}
	ms, _ := e.svc.ListMembers(ctx, mgr, g.ID)
	joined := map[string]civil.Date{}
	for _, m := range ms {
		joined[m.CPF] = m.JoinedOn
	}
	if joined["52998224725"] != civil.New(2020, 3, 10) || joined["39053344705"] != civil.New(2024, 12, 31) {
		t.Errorf("joined: %v", joined)
	}
}

// A ZIP with the CSV and its photos: photos are stored (re-encoded, with a
// SHA-256); a fake photo is an error on its line and nothing is applied.
func TestImport_ZipWithPhotos(t *testing.T) {
	t.Parallel()
	e := newRegEnv(t)
	ctx := context.Background()
	g, mgr := e.group(t, "Mancha")
	csvBody := readFix(t, "fixtures", "members-valid-excel-ptbr.csv")
	mk := func(files map[string][]byte) []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for name, b := range files {
			w, _ := zw.Create(name)
			w.Write(b)
		}
		zw.Close()
		return buf.Bytes()
	}
	files := map[string][]byte{"cadastro/members.csv": csvBody}
	for _, p := range []string{"joao-pedro.png", "ana-lucia.png", "jose-antonio.png", "luis-fernando.png"} {
		files["cadastro/"+p] = readFix(t, "fixtures", "member-photos", p)
	}
	files["cadastro/rafaela.png"] = readFix(t, "fixtures", "member-photos", "not-an-image.png")
	rep, err := e.svc.Import(ctx, mgr, g.ID, registry.ImportInput{Body: mk(files), ContentType: "application/zip"})
	if err != nil {
		t.Fatal(err)
	}
	if l := lineOf(rep, 6); rep.Applied || l.Status != registry.LineError || l.Errors[0].Column != "Foto" {
		t.Fatalf("fake photo: %+v", rep)
	}
	files["cadastro/rafaela.png"] = readFix(t, "fixtures", "member-photos", "rafaela.png")
	rep, err = e.svc.Import(ctx, mgr, g.ID, registry.ImportInput{Body: mk(files), ContentType: "application/zip"})
	if err != nil || !rep.Applied || rep.Created != 5 {
		t.Fatalf("zip import: %+v %v", rep, err)
	}
	ms, _ := e.svc.ListMembers(ctx, mgr, g.ID)
	for _, m := range ms {
		if m.Photo == nil || m.Incomplete || m.Photo.ContentType != "image/png" || len(m.Photo.SHA256) != 64 {
			t.Errorf("%s: photo %+v incomplete %v", m.FullName, m.Photo, m.Incomplete)
		}
	}
	ct, data, _, err := e.svc.GetPhoto(ctx, mgr, ms[0].ID)
	if err != nil || ct != "image/png" || !bytes.HasPrefix(data, []byte("\x89PNG")) {
		t.Errorf("photo: %s %v", ct, err)
	}
	// The same ZIP again: nothing changes.
	rep, _ = e.svc.Import(ctx, mgr, g.ID, registry.ImportInput{Body: mk(files), ContentType: "application/zip"})
	if rep.Unchanged != 5 {
		t.Errorf("same zip again: %+v", rep)
	}
}

// Photos: checked by content, EXIF stripped, at most 5 MB.
func TestCleanPhoto(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	img.Set(1, 1, color.RGBA{200, 10, 10, 255})
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	raw := buf.Bytes()
	exif := []byte("\xff\xe1\x00\x1eExif\x00\x00GPS -23.5505 -46.6333 secret")
	withExif := append(append(append([]byte{}, raw[:2]...), exif...), raw[2:]...)
	ct, clean, w, h, err := registry.CleanPhoto(withExif)
	if err != nil || ct != "image/jpeg" || w != 8 || h != 8 {
		t.Fatalf("clean: %s %dx%d %v", ct, w, h, err)
	}
	if bytes.Contains(clean, []byte("Exif")) || bytes.Contains(clean, []byte("GPS")) {
		t.Error("metadata survived")
	}
	if _, _, _, _, err := registry.CleanPhoto([]byte("<?php echo 1; ?>\n")); errs.KindOf(err) != errs.Invalid {
		t.Errorf("fake photo: %v", err)
	}
	if _, _, _, _, err := registry.CleanPhoto(append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 100)...)); errs.KindOf(err) != errs.Invalid {
		t.Errorf("truncated PNG: %v", err)
	}
	var tl *registry.TooLargeError
	if _, _, _, _, err := registry.CleanPhoto(make([]byte, registry.MaxPhotoBytes+1)); !errors.As(err, &tl) {
		t.Errorf("6 MB: %v", err)
	}
}

func str(s string) *string { return &s }

func memberIn(name, cpf, birth string) registry.MemberInput {
	return registry.MemberInput{FullName: str(name), MotherName: str("Mãe de " + name), RG: str("12.345.678-9"), RGIssuer: str("SSP/SP"),
		CPF: str(cpf), BirthDate: str(birth), CivilStatus: str("solteiro"), Profession: str("estudante"), Address: str("Rua X, 1, São Paulo/SP"),
		Schooling: str("médio")}
}

// A member who leaves and rejoins keeps one record with two periods; a CPF
// is once in a register (409); changes keep the record before them.
func TestMembers_LeaveRejoinAndConflicts(t *testing.T) {
	t.Parallel()
	e := newRegEnv(t)
	ctx := context.Background()
	g, mgr := e.group(t, "Independente")
	in := memberIn("Carla Dias", "529.982.247-25", "1995-05-05")
	in.JoinedOn = str("2020-01-10")
	m, err := e.svc.AddMember(ctx, mgr, g.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.svc.AddMember(ctx, mgr, g.ID, memberIn("Outra", "52998224725", "1990-01-01"))
	kindOf(t, err, errs.Conflict)
	bad := memberIn("", "123", "1990-02-30")
	_, err = e.svc.AddMember(ctx, mgr, g.ID, bad)
	kindOf(t, err, errs.Invalid)
	if _, err := e.svc.Leave(ctx, mgr, m.ID, registry.DateInput{LeftOn: "2019-01-01"}); errs.KindOf(err) != errs.Invalid {
		t.Errorf("leave before joining: %v", err)
	}
	if _, err := e.svc.Leave(ctx, mgr, m.ID, registry.DateInput{LeftOn: "2023-06-30"}); err != nil {
		t.Fatal(err)
	}
	_, err = e.svc.Leave(ctx, mgr, m.ID, registry.DateInput{})
	kindOf(t, err, errs.Conflict)
	v, err := e.svc.Rejoin(ctx, mgr, m.ID, registry.DateInput{JoinedOn: "2024-03-01"})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Periods) != 2 || !v.Active || v.JoinedOn != civil.New(2024, 3, 1) || v.Periods[0].LeftOn == nil {
		t.Errorf("history: %+v", v.Periods)
	}
	v, err = e.svc.UpdateMember(ctx, mgr, m.ID, registry.MemberInput{Profession: str("professora"), FatherName: str("José Dias")})
	if err != nil || v.Profession != "professora" || v.FatherUnknown {
		t.Fatalf("patch: %+v %v", v, err)
	}
	var n int64
	e.g.Raw("SELECT count(*) FROM member_history WHERE member_id = ?", m.ID).Scan(&n)
	if n != 4 { // create, leave, rejoin, update
		t.Errorf("history rows: %d", n)
	}
}

// A manager of group B reaches nothing of group A (404 on every operation);
// staff of another court reads nothing; staff of the court reads and each
// read is recorded; the managers' own reads are not.
func TestMembers_AccessByDomain(t *testing.T) {
	t.Parallel()
	e := newRegEnv(t)
	ctx := context.Background()
	ga, mgrA := e.group(t, "Torcida A")
	gb, mgrB := e.group(t, "Torcida B")
	m, err := e.svc.AddMember(ctx, mgrA, ga.ID, memberIn("Carla Dias", "52998224725", "1995-05-05"))
	if err != nil {
		t.Fatal(err)
	}
	png := readFix(t, "fixtures", "member-photos", "ana-lucia.png")
	if _, err := e.svc.SetPhoto(ctx, mgrA, m.ID, png); err != nil {
		t.Fatal(err)
	}
	judge := e.user(t, "judge-sp", "judge", "26.0100", 0)
	judgeRJ := e.user(t, "judge-rj", "judge", "19.0001", 0)
	admin := e.user(t, "admin-sp", "admin", "26.0100", 0)
	for who, a := range map[string]actor.Actor{"manager of B": mgrB, "judge of another court": judgeRJ, "admin": admin, "clerk of another court": e.other} {
		_, err := e.svc.ListMembers(ctx, a, ga.ID)
		kindOf(t, err, errs.NotFound)
		_, err = e.svc.GetMember(ctx, a, m.ID)
		kindOf(t, err, errs.NotFound)
		_, _, _, err = e.svc.GetPhoto(ctx, a, m.ID)
		kindOf(t, err, errs.NotFound)
		_, _, err = e.svc.ExportCSV(ctx, a, ga.ID)
		kindOf(t, err, errs.NotFound)
		_, err = e.svc.UpdateMember(ctx, a, m.ID, registry.MemberInput{Profession: str("x")})
		kindOf(t, err, errs.NotFound)
		_, err = e.svc.Leave(ctx, a, m.ID, registry.DateInput{})
		kindOf(t, err, errs.NotFound)
		_, err = e.svc.SetPhoto(ctx, a, m.ID, png)
		kindOf(t, err, errs.NotFound)
		_, err = e.svc.AddMember(ctx, a, ga.ID, memberIn("X", "39053344705", "1990-01-01"))
		kindOf(t, err, errs.NotFound)
		_, err = e.svc.Import(ctx, a, ga.ID, registry.ImportInput{Body: readFix(t, "fixtures", "members-valid-excel-ptbr.csv"), DryRun: true})
		kindOf(t, err, errs.NotFound)
		if who != "admin" {
			_, err = e.svc.GetGroup(ctx, a, ga.ID)
			if who == "manager of B" || who == "judge of another court" || who == "clerk of another court" {
				kindOf(t, err, errs.NotFound)
			}
		}
		t.Logf("%s: denied", who)
	}
	if ms, err := e.svc.ListMembers(ctx, mgrB, gb.ID); err != nil || len(ms) != 0 {
		t.Errorf("manager B's own register: %d %v", len(ms), err)
	}
	// Managers' reads are not recorded; the judge's are.
	if _, err := e.svc.ListMembers(ctx, mgrA, ga.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.ListMembers(ctx, judge, ga.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.GetMember(ctx, judge, m.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := e.svc.GetPhoto(ctx, judge, m.ID); err != nil {
		t.Fatal(err)
	}
	reads, err := e.svc.Reads(ctx, ga.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(reads) != 3 || reads[2].What != "list" || reads[2].MemberID != nil || reads[1].What != "member" || *reads[1].MemberID != m.ID ||
		reads[0].What != "photo" || reads[0].UserID != judge.UserID {
		b, _ := json.Marshal(reads)
		t.Errorf("reads: %s", b)
	}
	if err := e.g.Exec("DELETE FROM member_reads").Error; err == nil {
		t.Error("member_reads is not append-only")
	}
}

// Group names are unique with case and accents ignored.
func TestGroups_UniqueNameAndCNPJ(t *testing.T) {
	t.Parallel()
	e := newRegEnv(t)
	ctx := context.Background()
	e.group(t, "Torcida Jovem Gaviões")
	_, err := e.svc.CreateGroup(ctx, e.clerk, registry.GroupInput{Name: "TORCIDA JOVEM GAVIOES", SupportedClub: "Corinthians"})
	kindOf(t, err, errs.Conflict)
	_, err = e.svc.CreateGroup(ctx, e.clerk, registry.GroupInput{Name: "Outra", CNPJ: str("11.222.333/0001-00"), SupportedClub: "X"})
	kindOf(t, err, errs.Invalid)
	g, err := e.svc.CreateGroup(ctx, e.clerk, registry.GroupInput{Name: "Outra", CNPJ: str("11.222.333/0001-81"), SupportedClub: "X"})
	if err != nil || g.CNPJ == nil || *g.CNPJ != "11222333000181" || g.DeFacto || g.Court != "26.0100" {
		t.Fatalf("group: %+v %v", g, err)
	}
	if gs, _ := e.svc.ListGroups(ctx, e.other); len(gs) != 0 {
		t.Errorf("another court lists %d groups", len(gs))
	}
}

// Which members a group ban reaches (DOMAIN.md §2).
func TestSelectBanMembers(t *testing.T) {
	t.Parallel()
	e := newRegEnv(t)
	ctx := context.Background()
	g, mgr := e.group(t, "Seleção")
	other, mgrOther := e.group(t, "Outra")
	e.clk.Set(time.Date(2025, 6, 1, 12, 0, 0, 0, saoPaulo))
	add := func(a actor.Actor, gid int64, name, cpf, birth, joined string) int64 {
		in := memberIn(name, cpf, birth)
		in.JoinedOn = str(joined)
		m, err := e.svc.AddMember(ctx, a, gid, in)
		if err != nil {
			t.Fatal(err)
		}
		return m.ID
	}
	facts := civil.New(2025, 4, 6)
	before := add(mgr, g.ID, "Antes", "52998224725", "1990-01-01", "2024-01-01")
	sameDay := add(mgr, g.ID, "Mesmo dia", "39053344705", "1990-01-01", "2025-04-06")
	later := add(mgr, g.ID, "Depois", "11144477735", "1990-01-01", "2025-05-01")
	minor := add(mgr, g.ID, "Menor", "06420642370", "2008-01-01", "2024-01-01")
	leftBefore := add(mgr, g.ID, "Saiu antes", "01720368872", "1990-01-01", "2020-01-01")
	leftOnDay := add(mgr, g.ID, "Saiu no dia", "97037600903", "1990-01-01", "2020-01-01")
	excluded := add(mgr, g.ID, "Excluído", "68078490950", "1990-01-01", "2020-01-01")
	outsider := add(mgrOther, other.ID, "Fora", "06909990382", "1990-01-01", "2020-01-01")
	if _, err := e.svc.Leave(ctx, mgr, leftBefore, registry.DateInput{LeftOn: "2025-04-05"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Leave(ctx, mgr, leftOnDay, registry.DateInput{LeftOn: "2025-04-06"}); err != nil {
		t.Fatal(err)
	}
	ids := func(sel *registry.BanSelection) map[int64]bool {
		out := map[int64]bool{}
		for _, m := range sel.Members {
			out[m.ID] = true
		}
		return out
	}
	sel, err := registry.SelectBanMembers(ctx, e.g, g.ID, facts, registry.ReachAll, []int64{later}, []int64{excluded})
	if err != nil {
		t.Fatal(err)
	}
	got := ids(sel)
	want := map[int64]bool{before: true, sameDay: true, leftOnDay: true, later: true}
	if len(got) != len(want) {
		t.Errorf("reached %v, want %v", got, want)
	}
	for id := range want {
		if !got[id] {
			t.Errorf("member %d not reached", id)
		}
	}
	if got[minor] || got[leftBefore] || got[excluded] {
		t.Errorf("reached a minor, a former member or an excluded member: %v", got)
	}
	if w := strings.Join(sel.Warnings, " "); !strings.Contains(w, "Menor") || !strings.Contains(w, "Depois") {
		t.Errorf("warnings: %v", sel.Warnings)
	}
	// Named minor is included; under "involved" only the named.
	sel, err = registry.SelectBanMembers(ctx, e.g, g.ID, facts, registry.ReachInvolved, []int64{minor, sameDay}, nil)
	if err != nil || len(sel.Members) != 2 || !ids(sel)[minor] {
		t.Errorf("involved: %+v %v", sel, err)
	}
	// Members of another group of the court name the index (422).
	_, err = registry.SelectBanMembers(ctx, e.g, g.ID, facts, registry.ReachAll, []int64{before, outsider}, []int64{excluded, outsider})
	var ae *errs.Error
	if !errors.As(err, &ae) || ae.Kind != errs.Invalid || len(ae.Fields) != 2 || ae.Fields[0].Field != "member_ids[1]" || ae.Fields[1].Field != "excluded_member_ids[1]" {
		t.Errorf("members of another group: %v", err)
	}
	// An unknown id and a member of another court's group are the same 404.
	rj, err := e.svc.CreateGroup(ctx, e.other, registry.GroupInput{Name: "Outra Comarca", SupportedClub: "Flamengo"})
	if err != nil {
		t.Fatal(err)
	}
	foreign := add(e.user(t, "manager-rj", "fan_group", "", rj.ID), rj.ID, "De fora", "06586035740", "1990-01-01", "2020-01-01")
	var msgs []string
	for _, id := range []int64{888888, foreign} {
		_, err = registry.SelectBanMembers(ctx, e.g, g.ID, facts, registry.ReachAll, []int64{before, outsider}, []int64{id})
		if !errors.As(err, &ae) || ae.Kind != errs.NotFound || len(ae.Fields) != 1 || ae.Fields[0].Field != "excluded_member_ids[0]" {
			t.Errorf("id %d unknown to the court: %v, want not found naming excluded_member_ids[0] before any 422", id, err)
			continue
		}
		msgs = append(msgs, strings.ReplaceAll(ae.Message, fmt.Sprint(id), "N"))
	}
	if len(msgs) == 2 && msgs[0] != msgs[1] {
		t.Errorf("another court's member is told apart from an unknown id: %q vs %q", msgs[1], msgs[0])
	}
}

// The export guards formula cells with an apostrophe ('=cmd…, '+pedreiro,
// '@Rua A, '-médio); importing the export back strips exactly that
// apostrophe: a dry run finds every member unchanged, and a real import
// changes nothing. An apostrophe before other text is kept.
func TestExportImportRoundTrip_FormulaCells(t *testing.T) {
	t.Parallel()
	e := newRegEnv(t)
	ctx := context.Background()
	g, mgr := e.group(t, "Fórmulas")
	in := memberIn("=cmd|' /C calc'!A0", "52998224725", "1995-05-05")
	in.MotherName, in.FatherName = str("'Zé' da Silva"), str("-Pai Hífen")
	in.Profession, in.Address, in.Schooling = str("+pedreiro"), str("@Rua A, 1"), str("-médio")
	if _, err := e.svc.AddMember(ctx, mgr, g.ID, in); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.AddMember(ctx, mgr, g.ID, memberIn("Ana Sem Fórmula", "39053344705", "1990-01-01")); err != nil {
		t.Fatal(err)
	}
	csvBody, _, err := e.svc.ExportCSV(ctx, mgr, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, guarded := range []string{"'=cmd|", "'+pedreiro", "'@Rua A", "'-médio", "'-Pai Hífen"} {
		if !strings.Contains(string(csvBody), guarded) {
			t.Fatalf("the export lacks %q:\n%s", guarded, csvBody)
		}
	}
	for _, dry := range []bool{true, false} {
		rep, err := e.svc.Import(ctx, mgr, g.ID, registry.ImportInput{Body: csvBody, ContentType: "text/csv", DryRun: dry})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Unchanged != 2 || rep.Updated != 0 || rep.Created != 0 || rep.Errors != 0 {
			t.Fatalf("dry run %v: %+v", dry, rep)
		}
		for _, l := range rep.Lines {
			if strings.HasPrefix(l.FullName, "'") {
				t.Errorf("line %d reads full name %q", l.Line, l.FullName)
			}
		}
	}
	ms, err := e.svc.ListMembers(ctx, mgr, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.CPF != "52998224725" {
			continue
		}
		if m.FullName != "=cmd|' /C calc'!A0" || m.MotherName != "'Zé' da Silva" || m.Profession != "+pedreiro" || m.Address != "@Rua A, 1" || m.Schooling != "-médio" ||
			m.FatherName == nil || *m.FatherName != "-Pai Hífen" {
			t.Errorf("after the import: %+v", m)
		}
	}
}
