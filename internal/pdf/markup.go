package pdf

import (
	"fmt"
	"strconv"
	"strings"
)

// The wording of each document (templates/pdf/*.tmpl) is a Go text/template
// whose output is a small line-oriented markup:
//
//	# Title                centred, bold, larger
//	## Heading             bold section heading
//	::center text          a centred paragraph
//	::right text           a right-aligned paragraph
//	::size 16              base type size in points for what follows
//	::space 6              vertical space in millimetres
//	::cols 20,30,50        relative column widths of the next table (a column
//	                       narrower than its widest word is widened: colWidths)
//	| a | b | c |          a table row; the first row of a table is its header,
//	                       repeated on every page the table runs over
//	- item                 a bullet paragraph
//	text                   a justified paragraph; consecutive lines join, a
//	                       blank line ends it
//
// Inline, **bold** and *italic*; a backslash makes the next character
// literal. Data placed in the wording goes through Esc first.

type blockKind int

const (
	bPara blockKind = iota
	bTitle
	bHeading
	bCenter
	bRight
	bBullet
	bTable
	bSpace
	bSize
)

type block struct {
	kind blockKind
	text string
	rows [][]string
	cols []float64
	n    float64
}

// parseMarkup turns template output into blocks.
func parseMarkup(src string) ([]block, error) {
	var out []block
	var para []string
	var table *block
	var cols []float64
	flushPara := func() {
		if len(para) > 0 {
			out = append(out, block{kind: bPara, text: strings.Join(para, " ")})
			para = nil
		}
	}
	flushTable := func() {
		if table != nil {
			out = append(out, *table)
			table = nil
		}
	}
	for no, raw := range strings.Split(src, "\n") {
		line := strings.TrimSpace(raw)
		if !strings.HasPrefix(line, "|") {
			flushTable()
		}
		switch {
		case line == "":
			flushPara()
		case strings.HasPrefix(line, "|"):
			flushPara()
			if table == nil {
				table = &block{kind: bTable, cols: cols}
				cols = nil
			}
			table.rows = append(table.rows, splitRow(line))
		case strings.HasPrefix(line, "## "):
			flushPara()
			out = append(out, block{kind: bHeading, text: strings.TrimSpace(line[3:])})
		case strings.HasPrefix(line, "# "):
			flushPara()
			out = append(out, block{kind: bTitle, text: strings.TrimSpace(line[2:])})
		case strings.HasPrefix(line, "- "):
			flushPara()
			out = append(out, block{kind: bBullet, text: strings.TrimSpace(line[2:])})
		case strings.HasPrefix(line, "::"):
			flushPara()
			name, arg, _ := strings.Cut(line[2:], " ")
			arg = strings.TrimSpace(arg)
			switch name {
			case "center":
				out = append(out, block{kind: bCenter, text: arg})
			case "right":
				out = append(out, block{kind: bRight, text: arg})
			case "size", "space":
				n, err := strconv.ParseFloat(arg, 64)
				if err != nil || n < 0 || n > 200 {
					return nil, fmt.Errorf("pdf: line %d: ::%s needs a number, got %q", no+1, name, arg)
				}
				k := bSize
				if name == "space" {
					k = bSpace
				}
				out = append(out, block{kind: k, n: n})
			case "cols":
				cols = nil
				for _, p := range strings.Split(arg, ",") {
					n, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
					if err != nil || n <= 0 {
						return nil, fmt.Errorf("pdf: line %d: ::cols needs positive numbers, got %q", no+1, arg)
					}
					cols = append(cols, n)
				}
			default:
				return nil, fmt.Errorf("pdf: line %d: unknown directive ::%s", no+1, name)
			}
		default:
			para = append(para, line)
		}
	}
	flushPara()
	flushTable()
	for _, b := range out {
		if b.kind == bTable && len(b.cols) > 0 && len(b.cols) != len(b.rows[0]) {
			return nil, fmt.Errorf("pdf: a table has %d columns but ::cols gives %d widths", len(b.rows[0]), len(b.cols))
		}
	}
	return out, nil
}

// splitRow splits "| a | b |" on unescaped bars; cells keep their escapes.
func splitRow(line string) []string {
	var cells []string
	var cur strings.Builder
	esc := false
	for _, r := range line[1:] {
		switch {
		case esc:
			cur.WriteRune('\\')
			cur.WriteRune(r)
			esc = false
		case r == '\\':
			esc = true
		case r == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteRune(r)
		}
	}
	if rest := strings.TrimSpace(cur.String()); rest != "" {
		cells = append(cells, rest)
	}
	return cells
}

// span is a run of text in one style ("", "B", "I", "BI").
type span struct {
	text  string
	style string
}

// parseInline reads **bold**, *italic* and backslash escapes.
func parseInline(s string, base string) []span {
	var out []span
	var cur strings.Builder
	bold, italic := strings.Contains(base, "B"), strings.Contains(base, "I")
	style := func() string {
		st := ""
		if bold {
			st += "B"
		}
		if italic {
			st += "I"
		}
		return st
	}
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, span{cur.String(), style()})
			cur.Reset()
		}
	}
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '\\' && i+1 < len(rs):
			i++
			cur.WriteRune(rs[i])
		case r == '*' && i+1 < len(rs) && rs[i+1] == '*':
			flush()
			bold = !bold
			i++
		case r == '*':
			flush()
			italic = !italic
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return out
}

// Plain is the text of markup without its inline marks.
func Plain(s string) string {
	var b strings.Builder
	for _, sp := range parseInline(s, "") {
		b.WriteString(sp.text)
	}
	return b.String()
}
