package cases_test

import (
	"context"
	"strings"
	"testing"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/cases/tpu"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/testenv"
)

// Each case gets its TPU class and subjects at filing, from the flow and
// who filed (Res. CNJ 46/2007): the police's termo circunstanciado (Lei
// 9.099/1995, art. 69) is class 278, the prosecutor's representation the
// JECRIM's sumaríssimo procedure (arts. 77 to 83) 10944, a group case the
// ação civil pública 65 (Lei 7.347/1985); a criminal case's conduct gives
// the sports-law subject 11895; both shown by name in the case view.
func TestClassify_FromFlowAndFiler_ResCNJ46_Lei9099Arts69e77(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	clerk := e.User(t, "Escrivão", "clerk")
	for _, c := range []struct {
		ref, name string
		class     int
		subjects  []int
	}{
		{"R1", "Ação Penal - Procedimento Sumaríssimo", 10944, []int{11895}},
		{"R3", "Termo Circunstanciado", 278, []int{11895}},
		{"R5", "Ação Civil Pública", 65, nil},
	} {
		k := e.File(t, casetest.Fixture(t, c.ref))
		v, err := e.Svc.Casefile.Get(ctx, clerk, k.ID)
		if err != nil {
			t.Fatal(err)
		}
		if v.Class == nil || v.Class.Code != c.class || v.Class.Name != c.name || len(v.Subjects) != len(c.subjects) {
			t.Errorf("%s: class %+v, subjects %+v; want %d %q, %v", c.ref, v.Class, v.Subjects, c.class, c.name, c.subjects)
			continue
		}
		for i, s := range v.Subjects {
			if s.Code != c.subjects[i] || s.Name != "Crimes Previstos no Estatuto do Torcedor" {
				t.Errorf("%s: subject %+v", c.ref, s)
			}
		}
	}
	// Every code the derivation gives is in the tables shipped.
	for _, ref := range []struct {
		table string
		codes []int
	}{{tpu.Classes, []int{278, 10944, 65}}, {tpu.Subjects, []int{11895}}} {
		tb, _ := tpu.Embedded(ref.table)
		for _, code := range ref.codes {
			found := false
			for _, it := range tb.Items {
				found = found || it.Code == code
			}
			if !found {
				t.Errorf("%s lacks %d", ref.table, code)
			}
		}
	}
}

// The clerk corrects the class and subjects (Res. CNJ 46/2007): a code the
// TPU table lacks is 422 naming the table's version, a repeated subject, no
// subject or no reason are 422, another role is 403; the correction is
// docketed with the old and new classification and moves the version.
func TestReclassify_ClerkCorrectsDocketed_ResCNJ46(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	clerk := e.User(t, "Escrivão", "clerk")
	k := e.File(t, casetest.Fixture(t, "R1"))
	in := cases.ClassificationInput{ClassCode: casetest.Ptr(9999), SubjectCodes: []int{11895, 77777, 11895}, Reason: ""}
	_, err := e.Svc.Case.Reclassify(ctx, clerk, k.ID, in)
	classes, _ := tpu.Embedded(tpu.Classes)
	if msg := casetest.InvalidField(t, err, "class_code", false); !strings.Contains(msg, classes.Version) {
		t.Errorf("class_code: %q", msg)
	}
	casetest.InvalidField(t, err, "subject_codes[1]", false)
	casetest.InvalidField(t, err, "subject_codes[2]", false)
	casetest.InvalidField(t, err, "reason", false)
	_, err = e.Svc.Case.Reclassify(ctx, clerk, k.ID, cases.ClassificationInput{ClassCode: casetest.Ptr(278), Reason: "x"})
	casetest.InvalidField(t, err, "subject_codes", false)
	good := cases.ClassificationInput{ClassCode: casetest.Ptr(278), SubjectCodes: []int{11895}, Reason: "Autuado a partir do termo circunstanciado da polícia."}
	if _, err := e.Svc.Case.Reclassify(ctx, e.Pros, k.ID, good); errs.KindOf(err) != errs.Forbidden {
		t.Fatalf("prosecutor: %v", err)
	}
	v0, _ := e.Svc.Casefile.Get(ctx, clerk, k.ID)
	cl, err := e.Svc.Case.Reclassify(ctx, clerk, k.ID, good)
	if err != nil || cl.Class.Code != 278 || cl.Class.Name != "Termo Circunstanciado" {
		t.Fatalf("reclassify: %+v %v", cl, err)
	}
	v, _ := e.Svc.Casefile.Get(ctx, clerk, k.ID)
	if v.Class.Code != 278 || v.Version != v0.Version+1 {
		t.Fatalf("after: class %+v, version %d (before %d)", v.Class, v.Version, v0.Version)
	}
	last := v.Movements[len(v.Movements)-1]
	if last.Kind != cases.MoveReclassified || !strings.Contains(last.Description, "Termo Circunstanciado (TPU 278)") ||
		!strings.Contains(last.Description, "Antes: classe Ação Penal - Procedimento Sumaríssimo (TPU 10944)") {
		t.Fatalf("docket: %+v", last)
	}
}
