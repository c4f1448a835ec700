package sanctions

import (
	"strings"

	"github.com/juizado/juizado/internal/civil"
)

// kind separates rules that compete for the same facts: an individual ban, a
// group ban for conduct at the event (39-A / 183 § 2º: the group and all its
// members) and a group ban under 39-C / 184 (other place or date: the members
// involved). Lex mitior compares only rules of the same subject and kind.
type kind int

const (
	kindPerson kind = iota
	kindGroupVenue
	kindGroupOffVenue
)

// rule is one entry of the catalogue: a ban rule of a statute wording, with
// the period of facts it governs and what it allows.
type rule struct {
	Law     string // e.g. "Lei 10.671/2003 (Lei 12.299/2010)"
	Article string // e.g. "art. 41-B, § 2º"
	Subject Subject
	Kind    kind
	// From and Until bound the dates of the facts the rule governs, both
	// included; a zero Until means still in force.
	From, Until civil.Date
	Min, Max    int    // months; Min 0 = no statutory minimum
	Members     string // groups: "all" or "involved"
	// Eligibility: conversion only for a primário with bons antecedentes,
	// never punished under the article (41-B § 2º / 201 § 2º).
	Eligibility bool
	Sec6        bool            // organiser: none of §§ 2–5 (201 § 6º)
	Sec7        bool            // racism / against women: penalties doubled (201 § 7º)
	Words       map[string]bool // conduct words the rule reaches
}

// cite names the rule in a Portuguese sentence: "art. 41-B, § 2º, da Lei
// 10.671/2003 (Lei 12.299/2010)", "art. 39-A da Lei 10.671/2003 (Lei
// 12.299/2010)".
func (r rule) cite() string { return cite(r.Article, r.Law) }

// Cite names an article of a law in a Portuguese sentence: "art. 201, §
// 2º, da Lei 14.597/2023", "art. 39 da Lei 10.671/2003".
func Cite(article, law string) string { return cite(article, law) }

// cite names an article of a law in a Portuguese sentence.
func cite(article, law string) string {
	of := "da " // a Lei
	if strings.HasPrefix(law, "Decreto-Lei") {
		of = "do "
	}
	if strings.Contains(article, ",") {
		return article + ", " + of + law
	}
	return article + " " + of + law
}

func (r rule) inForce(d civil.Date) bool {
	return !d.Before(r.From) && (r.Until.IsZero() || !d.After(r.Until))
}

// Dates at which the statutes took effect (all in force on publication in the
// DOU): Lei 10.671/2003 art. 45 (DOU 16/05/2003); Lei 12.299/2010 (DOU
// 28/07/2010); Lei 13.912/2019 (DOU 26/11/2019); Lei 14.597/2023 (DOU
// 15/06/2023), whose art. 217 revoked Lei 10.671/2003.
var (
	estatutoFrom = civil.MustParse("2003-05-16")
	lei12299From = civil.MustParse("2010-07-28")
	lei13912From = civil.MustParse("2019-11-26")
	lgeFrom      = civil.MustParse("2023-06-15")
)

const (
	lawEstatuto = "Lei 10.671/2003"
	law12299    = "Lei 10.671/2003 (Lei 12.299/2010)"
	law13912    = "Lei 10.671/2003 (Lei 13.912/2019)"
	lawLGE      = "Lei 14.597/2023"
)

// Members values of Range.Members.
const (
	// MembersAll: the group and all its members whose membership covers the
	// date of the facts (Lei 14.597/2023, art. 183, § 2º; Lei 10.671/2003,
	// art. 39-A).
	MembersAll = "all"
	// MembersInvolved: the group and only the members involved, named by the
	// judge (Lei 14.597/2023, art. 184; Lei 10.671/2003, art. 39-C).
	MembersInvolved = "involved"
)

// catalogue is the statute catalogue of DOMAIN.md §2, as data.
//
// Statute notes (checked against /work/shared/law):
//   - Art. 39 (2003 original) has no eligibility condition and no weapons or
//     fan-fight hypothesis; its caput includes inciting violence.
//   - Art. 183, § 2º reaches "condutas discriminatórias, racistas, xenófobas,
//     homofóbicas ou transfóbicas"; 39-A never did.
//   - Art. 184 (as 39-C) applies 183 § 2º to the group and the members
//     involved "mesmo que em local ou data distintos", only in its cases I–III.
//   - Art. 201, § 7º is a cause of increase ("as penalidades previstas neste
//     artigo serão aplicadas em dobro"): it presupposes conduct of the caput
//     or § 1º. Racism alone is Lei 7.716/1989, art. 20, § 2º-A (aloneRange);
//     against_women alone is no offence of art. 201.
func catalogue() []rule {
	base := []string{WordViolence, WordRiot, WordInvasion, WordOrganiser}
	return []rule{
		{
			Law: lawEstatuto, Article: "art. 39", Subject: Person, Kind: kindPerson,
			From: estatutoFrom, Until: lei12299From.AddDays(-1), Min: 3, Max: 12,
			Words: set(base...),
		},
		{
			Law: law12299, Article: "art. 41-B, § 2º", Subject: Person, Kind: kindPerson,
			From: lei12299From, Until: lgeFrom.AddDays(-1), Min: 3, Max: 36,
			Eligibility: true,
			Words:       set(append(base, WordWeapons)...),
		},
		{
			Law: lawLGE, Article: "art. 201, § 2º", Subject: Person, Kind: kindPerson,
			From: lgeFrom, Min: 3, Max: 36,
			Eligibility: true, Sec6: true, Sec7: true,
			Words: set(append(base, WordWeapons, WordFanFight, WordRacism, WordAgainstWomen)...),
		},
		{
			Law: law12299, Article: "art. 39-A", Subject: Group, Kind: kindGroupVenue,
			From: lei12299From, Until: lei13912From.AddDays(-1), Max: 36, Members: MembersAll,
			Words: set(WordViolence, WordRiot, WordInvasion),
		},
		{
			Law: law13912, Article: "art. 39-A", Subject: Group, Kind: kindGroupVenue,
			From: lei13912From, Until: lgeFrom.AddDays(-1), Max: 60, Members: MembersAll,
			Words: set(WordViolence, WordRiot, WordInvasion),
		},
		{
			Law: law13912, Article: "art. 39-C", Subject: Group, Kind: kindGroupOffVenue,
			From: lei13912From, Until: lgeFrom.AddDays(-1), Max: 60, Members: MembersInvolved,
			Words: set(offVenueWords...),
		},
		{
			Law: lawLGE, Article: "art. 183, § 2º", Subject: Group, Kind: kindGroupVenue,
			From: lgeFrom, Max: 60, Members: MembersAll,
			Words: set(onVenueGroupWords...),
		},
		{
			Law: lawLGE, Article: "art. 184", Subject: Group, Kind: kindGroupOffVenue,
			From: lgeFrom, Max: 60, Members: MembersInvolved,
			Words: set(offVenueWords...),
		},
	}
}
