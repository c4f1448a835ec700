package cases

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/juizado/juizado/cases/tpu"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
)

// ClassByFiling is the TPU class a case gets at filing, by flow and, in
// the criminal flow, by who filed (Res. CNJ 46/2007; codes in
// cases/tpu/data/classes.csv, where they are marked unverified): the police's
// termo circunstanciado (Lei 9.099/1995, art. 69: class 278); any other
// filer's representation, the JECRIM's sumaríssimo procedure (arts. 77 to
// 83: class 10944); a group case, the ação civil pública (Lei 7.347/1985;
// LGE art. 180: class 65). The recurso inominado at the Turma Recursal is
// not this court's.
var ClassByFiling = map[string]int{FlowCriminal + "/police": 278, FlowCriminal: 10944, FlowCivil: 65}

// SubjectByConduct is the TPU subject of each conduct word of a criminal
// case (sanctions.ConductWords): the crimes of the sports law (subject
// 11895, "Crimes previstos no Estatuto do Torcedor", unverified; the TPU
// has no verified subject of its own for the Lei 14.597/2023's crimes).
// A group (civil) case gets no subject by derivation: the TPU has no
// verified subject for it, and the clerk sets it.
var SubjectByConduct = func() map[string]int {
	m := map[string]int{}
	for _, w := range sanctions.ConductWords {
		m[w] = 11895
	}
	return m
}()

// Classify returns the class and subjects of a case at filing by its flow,
// who filed (filed_by.kind) and its conduct words (ClassByFiling,
// SubjectByConduct); subjects without repetition, in conduct order.
func Classify(flow, filedBy string, conduct []string) (int, []int) {
	class, ok := ClassByFiling[flow+"/"+filedBy]
	if !ok {
		class = ClassByFiling[flow]
	}
	subjects := IntList{}
	if flow == FlowCriminal {
		for _, w := range conduct {
			if code, ok := SubjectByConduct[w]; ok && !containsInt(subjects, code) {
				subjects = append(subjects, code)
			}
		}
	}
	return class, subjects
}

func containsInt(l []int, v int) bool {
	for _, x := range l {
		if x == v {
			return true
		}
	}
	return false
}

// IntList is a JSON array of integers stored in a jsonb column.
type IntList []int

// Value writes the list as a JSON array.
func (l IntList) Value() (driver.Value, error) {
	if l == nil {
		l = IntList{}
	}
	b, err := json.Marshal([]int(l))
	return string(b), err
}

// Scan reads a JSON array.
func (l *IntList) Scan(src any) error {
	switch v := src.(type) {
	case []byte:
		return json.Unmarshal(v, (*[]int)(l))
	case string:
		return json.Unmarshal([]byte(v), (*[]int)(l))
	case nil:
		*l = nil
		return nil
	}
	return fmt.Errorf("cases: cannot scan %T into IntList", src)
}

// TPURef is an entry of a TPU table as a case shows it: its code and its
// name in the table the database holds ("" when the table lacks it).
type TPURef struct {
	Code int    `json:"code"`
	Name string `json:"name"`
}

// Classification is a case's TPU class (nil: none, a case filed before
// the classes) and subjects, as the case JSON and page show them.
type Classification struct {
	Class    *TPURef  `json:"class"`
	Subjects []TPURef `json:"subjects"`
}

// ClassificationOf names the class and subjects of case c from the TPU
// tables the database holds.
func (s *Core) ClassificationOf(ctx context.Context, c Case) (Classification, error) {
	conn := db.Conn(ctx, s.DB).Statement.ConnPool
	out := Classification{Subjects: []TPURef{}}
	if c.ClassCode != nil {
		names, err := tpu.Names(ctx, conn, tpu.Classes, []int{*c.ClassCode})
		if err != nil {
			return out, err
		}
		out.Class = &TPURef{Code: *c.ClassCode, Name: names[*c.ClassCode]}
	}
	names, err := tpu.Names(ctx, conn, tpu.Subjects, c.SubjectCodes)
	if err != nil {
		return out, err
	}
	for _, code := range c.SubjectCodes {
		out.Subjects = append(out.Subjects, TPURef{Code: code, Name: names[code]})
	}
	return out, nil
}

// ClassificationInput is the body of PUT /api/v1/cases/{id}/classification:
// the clerk's correction of the case's class and subjects, with its reason.
type ClassificationInput struct {
	ClassCode    *int   `json:"class_code"`
	SubjectCodes []int  `json:"subject_codes"`
	Reason       string `json:"reason"`
}

// Reclassify corrects the class and subjects of case caseID (the clerk;
// Res. CNJ 46/2007): the class must be in the TPU's classes table and each
// subject in its subjects table (an unknown code is errs.Invalid naming the
// table's version), at least one subject, no repetition, and a reason; the
// correction is docketed (MoveReclassified) and moves the case's version.
func (s *Service) Reclassify(ctx context.Context, actor actor.Actor, caseID int64, in ClassificationInput) (*Classification, error) {
	if actor.Role != "clerk" {
		return nil, errs.New(errs.Forbidden, "Somente o cartório corrige a classe e os assuntos do processo.")
	}
	var out *Classification
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		c, err := s.LockCase(ctx, actor, caseID)
		if err != nil {
			return err
		}
		conn := db.Conn(ctx, s.DB).Statement.ConnPool
		var f errs.Fields
		check := func(table, field string, code int) string {
			name, err := tpu.Check(ctx, conn, table, field, code)
			var e *errs.Error
			if errors.As(err, &e) {
				f = append(f, e.Fields...)
			} else if err != nil {
				f.Add(field, "tpu", err.Error())
			}
			return name
		}
		var classText string
		if in.ClassCode == nil {
			f.Add("class_code", "required", "informe a classe processual (código da tabela de classes da TPU).")
		} else {
			classText = fmt.Sprintf("%s (TPU %d)", check(tpu.Classes, "class_code", *in.ClassCode), *in.ClassCode)
		}
		if len(in.SubjectCodes) == 0 {
			f.Add("subject_codes", "required", "informe ao menos um assunto (código da tabela de assuntos da TPU).")
		}
		var subjects []string
		for i, code := range in.SubjectCodes {
			field := fmt.Sprintf("subject_codes[%d]", i)
			if containsInt(in.SubjectCodes[:i], code) {
				f.Add(field, "duplicate", fmt.Sprintf("o assunto %d está repetido.", code))
				continue
			}
			subjects = append(subjects, fmt.Sprintf("%s (TPU %d)", check(tpu.Subjects, field, code), code))
		}
		if strings.TrimSpace(in.Reason) == "" {
			f.Add("reason", "required", "informe o motivo da correção.")
		}
		CheckText(&f, "reason", in.Reason, MaxLong, true)
		if err := f.Err(); err != nil {
			return err
		}
		before, err := s.ClassificationOf(ctx, *c)
		if err != nil {
			return err
		}
		if err := db.Conn(ctx, s.DB).Model(&Case{}).Where("id = ?", c.ID).
			Updates(map[string]any{"class_code": *in.ClassCode, "subject_codes": IntList(in.SubjectCodes)}).Error; err != nil {
			return err
		}
		c.ClassCode, c.SubjectCodes = in.ClassCode, in.SubjectCodes
		text := fmt.Sprintf("Corrigidas a classe e os assuntos do processo (TPU, Res. CNJ 46/2007): classe %s; assuntos: %s. Antes: %s. Motivo: %s",
			classText, strings.Join(subjects, ", "), before.Text(), strings.TrimSpace(in.Reason))
		if err := s.Move(ctx, c, &actor, s.Now(), MoveReclassified, text); err != nil {
			return err
		}
		if err := s.Touch(ctx, c, ""); err != nil {
			return err
		}
		cl, err := s.ClassificationOf(ctx, *c)
		out = &cl
		return err
	})
	return out, err
}

// Text writes the classification in Portuguese, for the docket.
func (cl Classification) Text() string {
	class := "sem classe"
	if cl.Class != nil {
		class = fmt.Sprintf("classe %s (TPU %d)", cl.Class.Name, cl.Class.Code)
	}
	var subj []string
	for _, s := range cl.Subjects {
		subj = append(subj, fmt.Sprintf("%s (TPU %d)", s.Name, s.Code))
	}
	if len(subj) == 0 {
		return class + ", sem assuntos"
	}
	return class + "; assuntos: " + strings.Join(subj, ", ")
}
