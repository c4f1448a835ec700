package ui

import (
	"regexp"
	"strconv"

	"github.com/juizado/juizado/cases"
)

// People, not ids (issue 30, item 4): the docket and the messages written
// by the domain name a ban or a defendant by its record number ("início do
// cumprimento do impedimento 9", "réu 3"), which the API keeps. A case page
// shows them in people's words: the ban by the person's name and period,
// the defendant by name.

var (
	banRef       = regexp.MustCompile(`\b([Ii]mpedimento)(?: definitivo)?(?: nº)? (\d+)\b`)
	defendantRef = regexp.MustCompile(`\b([Rr]éu)(?: nº)? (\d+)\b`)
)

// BanLabel names a ban as people know it: "de NAME (dd/mm/aaaa a
// dd/mm/aaaa)", "de NAME (desde dd/mm/aaaa)" or "de NAME (a partir do
// trânsito em julgado)".
func BanLabel(b cases.BanView) string {
	switch {
	case b.FirstDay == nil:
		return "de " + b.Name + " (a partir do trânsito em julgado)"
	case b.LastDay == nil:
		return "de " + b.Name + " (desde " + b.FirstDay.BR() + ")"
	}
	return "de " + b.Name + " (" + b.FirstDay.BR() + " a " + b.LastDay.BR() + ")"
}

// Words rewrites text from the domain for people: each "impedimento N" of
// a ban of the case becomes "impedimento de NAME (period)", each "réu N"
// of a defendant of the case "réu NAME"; a number the case does not know
// stays as written.
func (d caseData) Words(text string) string {
	if d.Case == nil {
		return text
	}
	bans := map[string]string{}
	for _, b := range d.Case.Bans {
		bans[strconv.FormatInt(b.ID, 10)] = BanLabel(b)
	}
	text = banRef.ReplaceAllStringFunc(text, func(m string) string {
		sub := banRef.FindStringSubmatch(m)
		if l, ok := bans[sub[2]]; ok {
			return sub[1] + " " + l
		}
		return m
	})
	return defendantRef.ReplaceAllStringFunc(text, func(m string) string {
		sub := defendantRef.FindStringSubmatch(m)
		id, _ := strconv.ParseInt(sub[2], 10, 64)
		if n, ok := d.Names[id]; ok && n != "" {
			return sub[1] + " " + n
		}
		return m
	})
}

// BanLabel is BanLabel for the case page's template.
func (d caseData) BanLabel(b cases.BanView) string { return BanLabel(b) }
