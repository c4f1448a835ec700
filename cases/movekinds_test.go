package cases_test

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/cases/tpu"
	"github.com/juizado/juizado/internal/testenv"
)

// Every movement the system writes names its kind, and every kind the code
// writes has its entry in cases.MovementTPU, whose national codes and
// complements are in the TPU's movements table shipped with the product
// (Res. CNJ 46/2007, art. 1º: every movement with its TPU code where the
// TPU has one). The test reads the source of cases, its parts and the
// scale seed: each call of Move names a kind, each Movement literal sets
// Kind, and each Move* constant used is in the map (none of the map is
// unused).
func TestMovementKinds_EveryKindWrittenHasItsTPUCode_ResCNJ46Art1(t *testing.T) {
	used := map[string]string{}
	fset := token.NewFileSet()
	for _, root := range []string{".", "../cmd/juizado"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || path == "movekinds.go" {
				return err // movekinds.go defines every kind: the writers are elsewhere
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.Ident:
					if moveConst.MatchString(x.Name) {
						used[x.Name] = fset.Position(x.Pos()).String()
					}
				case *ast.CallExpr:
					if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Move" && len(x.Args) >= 6 {
						if lit, ok := x.Args[4].(*ast.BasicLit); ok {
							t.Errorf("%s: Move with the literal %s for a kind", fset.Position(lit.Pos()), lit.Value)
						}
					}
				case *ast.CompositeLit:
					if isMovementType(x.Type) {
						hasKind := false
						for _, el := range x.Elts {
							if kv, ok := el.(*ast.KeyValueExpr); ok {
								if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Kind" {
									hasKind = true
								}
							}
						}
						if !hasKind {
							t.Errorf("%s: a Movement written without its Kind", fset.Position(x.Pos()))
						}
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	table, err := tpu.Embedded(tpu.Movements)
	if err != nil {
		t.Fatal(err)
	}
	items := map[int]tpu.Item{}
	for _, it := range table.Items {
		items[it.Code] = it
	}
	names := map[cases.MovementKind]string{}
	for name, pos := range used {
		k := cases.MovementKind(kindOf(name))
		if k == "" {
			t.Errorf("%s: %s is not a movement kind of cases.MovementTPU", pos, name)
			continue
		}
		names[k] = name
	}
	for k, m := range cases.MovementTPU {
		if _, ok := names[k]; !ok {
			t.Errorf("kind %q is in MovementTPU but the code never writes it", k)
		}
		if m.Code == 0 {
			continue
		}
		it, ok := items[m.Code]
		if !ok {
			t.Errorf("kind %q: code %d is not in the TPU movements table (version %s)", k, m.Code, table.Version)
			continue
		}
		for _, c := range m.Complements {
			if !slices.Contains(it.Complements, c) {
				t.Errorf("kind %q: complement %q is not one of code %d's, %v", k, c, m.Code, it.Complements)
			}
		}
	}
}

// kindOf returns the kind the constant named name (MoveX) holds, "" when
// no kind of the map is spelt so.
func kindOf(name string) string {
	for k := range cases.MovementTPU {
		if constName[k] == name {
			return string(k)
		}
	}
	return ""
}

// constName spells each kind's constant, as the code names it.
var constName = func() map[cases.MovementKind]string {
	out := map[cases.MovementKind]string{}
	for k := range cases.MovementTPU {
		parts := strings.Split(string(k), "_")
		for i, p := range parts {
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
		}
		out[k] = "Move" + strings.Join(parts, "")
	}
	return out
}()

// moveConst is the name of a kind's constant (MoveDistribution), not of
// Move itself nor of Movement*.
var moveConst = regexp.MustCompile(`^Move[A-Z]`)

func isMovementType(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name == "Movement"
	case *ast.SelectorExpr:
		return x.Sel.Name == "Movement"
	}
	return false
}

// A movement typed by the clerk with a code the TPU's movements table
// lacks is refused on tpu_code naming the table's version, and nothing is
// written; a code of the table is shown with its TPU name, and the
// movements the system writes carry their kind, code and complements (the
// distribution by lot, TPU 26) (Res. CNJ 46/2007).
func TestAddMovement_UnknownTPUCodeRefusedNamingVersion_ResCNJ46(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	clerk := e.User(t, "Escrivão", "clerk")
	c := e.File(t, casetest.Fixture(t, "R1"))
	table, _ := tpu.Embedded(tpu.Movements)
	_, err := e.Svc.Case.AddMovement(ctx, clerk, c.ID, cases.MovementInput{Description: "Movimento inventado.", TPUCode: casetest.Ptr(99999)})
	if msg := casetest.InvalidField(t, err, "tpu_code", false); !strings.Contains(msg, "99999") || !strings.Contains(msg, table.Version) {
		t.Errorf("message %q: want the code and the table's version %s", msg, table.Version)
	}
	if n := e.Count(t, "movements", "case_id = ? AND tpu_code = 99999", c.ID); n != 0 {
		t.Fatal("the refused movement was written")
	}
	mv, err := e.Svc.Case.AddMovement(ctx, clerk, c.ID, cases.MovementInput{Description: "Conclusos ao juiz.", TPUCode: casetest.Ptr(51)})
	if err != nil || mv.TPUName != "Conclusão" || mv.Kind != cases.MoveManual {
		t.Fatalf("51: %+v %v", mv, err)
	}
	v, err := e.Svc.Casefile.Get(ctx, clerk, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	var dist *cases.MovementView
	for i, m := range v.Movements {
		if m.Kind == cases.MoveDistribution {
			dist = &v.Movements[i]
		}
		if m.Kind == "" {
			t.Errorf("movement without a kind: %+v", m)
		}
	}
	if dist == nil || dist.TPUCode == nil || *dist.TPUCode != 26 || dist.TPUName != "Distribuição" ||
		len(dist.Complements) != 1 || dist.Complements[0] != (cases.Complement{Name: "tipo de distribuição", Value: "sorteio"}) {
		t.Fatalf("distribution: %+v", dist)
	}
}
