package datajud

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/xml"
	"fmt"
	"io"
	"time"

	"gorm.io/gorm"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/tpu"
	"github.com/juizado/juizado/internal/errs"
)

// Formats of the export: the public API's JSON documents, or the MTD's XML.
const (
	FormatJSON = "json"
	FormatXML  = "xml"
)

// DefaultBatch is how many cases the export reads at a time.
const DefaultBatch = 500

// Options say what to export: the court (TR.OOOO), the month
// ("YYYY-MM", in Loc, the court's zone America/Sao_Paulo), the format
// (FormatJSON, the default, or FormatXML) and how many cases to read at a
// time (Batch; 0: DefaultBatch).
type Options struct {
	Court  string
	Month  string
	Format string
	Loc    *time.Location
	Batch  int
}

// Summary is what an export wrote: Exported cases, Rejected cases (each
// reported to the caller's reject function, not written).
type Summary struct {
	Exported, Rejected int
}

// MonthRange returns the instants [start, end) of month "YYYY-MM" in loc;
// errs.Invalid on "month" when it is not one.
func MonthRange(month string, loc *time.Location) (time.Time, time.Time, error) {
	t, err := time.ParseInLocation("2006-01", month, loc)
	if err != nil || len(month) != 7 {
		return time.Time{}, time.Time{}, errs.InvalidField("month", "format", "informe o mês no formato AAAA-MM (ex.: 2025-03).")
	}
	return t, t.AddDate(0, 1, 0), nil
}

// Export writes to w every case of o.Court with a movement in o.Month, as
// DataJud receives them (Res. CNJ 331/2020), each with its whole docket up
// to the end of the month: a JSON array of public API documents, or the
// MTD's XML (processos, one processo a case). It reads the cases in
// batches inside one read-only snapshot and writes each as it comes, so
// its memory does not grow with the month. A case DataJud would reject
// (build) is passed to reject and not written. Errors: errs.Invalid on
// "month" or "format"; errs.NotFound for an unknown court; errs.Invalid
// when the court's DataJud unit is not set (cases.SetCourtDataJud).
func Export(ctx context.Context, g *gorm.DB, w io.Writer, o Options, reject func(Rejection)) (Summary, error) {
	var sum Summary
	if o.Format == "" {
		o.Format = FormatJSON
	}
	if o.Format != FormatJSON && o.Format != FormatXML {
		return sum, errs.InvalidField("format", "enum", "formato deve ser json ou xml.")
	}
	start, end, err := MonthRange(o.Month, o.Loc)
	if err != nil {
		return sum, err
	}
	if o.Batch <= 0 {
		o.Batch = DefaultBatch
	}
	err = g.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		court, err := cases.GetCourt(ctx, tx, o.Court)
		if err != nil {
			return err
		}
		unit, ok := court.Unit()
		if !ok {
			return errs.New(errs.Invalid, fmt.Sprintf("O juizado %s não tem o código do órgão julgador, o nome e o município (código IBGE) que o DataJud exige: a administração deve informá-los nas configurações do juizado.", o.Court))
		}
		t, err := readTables(ctx, tx.Statement.ConnPool)
		if err != nil {
			return err
		}
		out := newWriter(w, o.Format, o.Loc)
		if err := out.begin(); err != nil {
			return err
		}
		var after int64
		for {
			batch, err := cases.DataJudBatch(ctx, tx, o.Court, start, end, after, o.Batch)
			if err != nil {
				return err
			}
			for _, c := range batch {
				r, rej := build(c.Case, c.Defendants, c.Movements, o.Court, unit, t, o.Loc)
				if rej != nil {
					sum.Rejected++
					if reject != nil {
						reject(*rej)
					}
					continue
				}
				if err := out.write(r); err != nil {
					return err
				}
				sum.Exported++
			}
			if len(batch) < o.Batch {
				break
			}
			after = batch[len(batch)-1].Case.ID
		}
		return out.end()
	}, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	return sum, err
}

// readTables reads the names of the three TPU tables the database holds.
func readTables(ctx context.Context, c tpu.Conn) (*tables, error) {
	t := &tables{version: map[string]string{}}
	for _, name := range tpu.Tables {
		tb, err := tpu.Read(ctx, c, name)
		if err != nil {
			return nil, err
		}
		m := make(map[int]string, len(tb.Items))
		for _, it := range tb.Items {
			m[it.Code] = it.Name
		}
		t.version[name] = tb.Version
		switch name {
		case tpu.Classes:
			t.classes = m
		case tpu.Subjects:
			t.subjects = m
		case tpu.Movements:
			t.movements = m
		}
	}
	return t, nil
}

// writer writes records one at a time in a format, buffered.
type writer struct {
	bw     *bufio.Writer
	format string
	loc    *time.Location
	enc    *xml.Encoder
	n      int
}

func newWriter(w io.Writer, format string, loc *time.Location) *writer {
	out := &writer{bw: bufio.NewWriterSize(w, 64<<10), format: format, loc: loc}
	if format == FormatXML {
		out.enc = xml.NewEncoder(out.bw)
		out.enc.Indent("", " ")
	}
	return out
}

// root is the MTD file's root element: the processos it carries.
var root = xml.StartElement{Name: xml.Name{Local: "processos"}}

func (w *writer) begin() error {
	if w.format == FormatXML {
		if _, err := w.bw.WriteString(xml.Header); err != nil {
			return err
		}
		return w.enc.EncodeToken(root)
	}
	_, err := w.bw.WriteString("[")
	return err
}

func (w *writer) write(r *Record) error {
	w.n++
	if w.format == FormatXML {
		return w.enc.Encode(r.Process(w.loc))
	}
	b, err := r.JSON()
	if err != nil {
		return err
	}
	sep := ",\n"
	if w.n == 1 {
		sep = "\n"
	}
	if _, err := w.bw.WriteString(sep); err != nil {
		return err
	}
	_, err = w.bw.Write(b)
	return err
}

func (w *writer) end() error {
	if w.format == FormatXML {
		if err := w.enc.EncodeToken(root.End()); err != nil {
			return err
		}
		if err := w.enc.Flush(); err != nil {
			return err
		}
		if _, err := w.bw.WriteString("\n"); err != nil {
			return err
		}
	} else if _, err := w.bw.WriteString("\n]\n"); err != nil {
		return err
	}
	return w.bw.Flush()
}
