package sanctions

import (
	"strings"
	"time"
	"unicode/utf8"
)

// Calendar is an iCalendar object (RFC 5545) of events, written by ICS.
type Calendar struct {
	ProdID string // PRODID, e.g. "-//Juizado//Obrigação de permanência//PT-BR"
	Name   string // X-WR-CALNAME shown by calendar programs
	Events []Event
}

// Event is one VEVENT: UID unique and stable across feeds (RFC 5545 §
// 3.8.4.7), Start and End instants written in UTC, Stamp the instant the
// feed was made (DTSTAMP, required), and free text.
type Event struct {
	UID                            string
	Start, End, Stamp              time.Time
	Summary, Location, Description string
}

// ICS writes cal as an iCalendar stream (RFC 5545, text/calendar): CRLF
// line ends, lines folded at 75 octets without splitting a UTF-8 sequence,
// TEXT values escaped (backslash, semicolon, comma, line break), DTSTART,
// DTEND and DTSTAMP as UTC date-times ("20250330T170000Z").
func ICS(cal Calendar) []byte {
	var b strings.Builder
	line := func(name, value string) { writeFolded(&b, name+":"+value) }
	line("BEGIN", "VCALENDAR")
	line("VERSION", "2.0")
	line("PRODID", escapeText(cal.ProdID))
	line("CALSCALE", "GREGORIAN")
	line("METHOD", "PUBLISH")
	if cal.Name != "" {
		line("X-WR-CALNAME", escapeText(cal.Name))
	}
	for _, e := range cal.Events {
		line("BEGIN", "VEVENT")
		line("UID", escapeText(e.UID))
		line("DTSTAMP", icsTime(e.Stamp))
		line("DTSTART", icsTime(e.Start))
		line("DTEND", icsTime(e.End))
		line("SUMMARY", escapeText(e.Summary))
		if e.Location != "" {
			line("LOCATION", escapeText(e.Location))
		}
		if e.Description != "" {
			line("DESCRIPTION", escapeText(e.Description))
		}
		line("TRANSP", "OPAQUE")
		line("END", "VEVENT")
	}
	line("END", "VCALENDAR")
	return []byte(b.String())
}

func icsTime(t time.Time) string { return t.UTC().Format("20060102T150405Z") }

var textEscaper = strings.NewReplacer(`\`, `\\`, `;`, `\;`, `,`, `\,`, "\r\n", `\n`, "\n", `\n`, "\r", `\n`)

func escapeText(s string) string { return textEscaper.Replace(s) }

// writeFolded writes one content line, folded so that no line exceeds 75
// octets (RFC 5545 § 3.1): continuation lines start with a space.
func writeFolded(b *strings.Builder, s string) {
	limit := 75
	for len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		b.WriteString(s[:cut])
		b.WriteString("\r\n ")
		s = s[cut:]
		limit = 74 // the leading space counts
	}
	b.WriteString(s)
	b.WriteString("\r\n")
}
