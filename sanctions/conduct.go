package sanctions

import "slices"

// Subject is who a ban is imposed on: a fan (Person) or an organised fan group
// with its members (Group). DOMAIN.md §2; Lei 14.597/2023, arts. 183, § 2º, 184
// and 201.
type Subject string

const (
	// Person is an individual fan: Lei 10.671/2003, art. 39 (2003–2010) and
	// art. 41-B (2010–2023); Lei 14.597/2023, art. 201 (from 15/06/2023).
	Person Subject = "person"
	// Group is a torcida organizada and its members: Lei 10.671/2003, arts.
	// 39-A and 39-C (from 28/07/2010 and 26/11/2019); Lei 14.597/2023, arts.
	// 183, § 2º, and 184 (from 15/06/2023).
	Group Subject = "group"
)

// Conduct words: the identifiers of the `conduct` list of a representation
// (DOMAIN.md §2, table "Conduct words").
const (
	// WordViolence: practised or incited violence (201 caput / 41-B / 39 / 39-A / 183 § 2º).
	WordViolence = "violence"
	// WordRiot: promoted a tumult (201 caput / 41-B / 39 / 39-A / 183 § 2º).
	WordRiot = "riot"
	// WordInvasion: invaded an area restricted to competitors (from
	// 15/06/2023 also referees) (201 caput / 41-B / 39 / 39-A / 183 § 2º).
	WordInvasion = "invasion"
	// WordWeapons: carried instruments of violence (201 § 1º, II / 41-B § 1º,
	// II, from 28/07/2010); persons only.
	WordWeapons = "weapons"
	// WordFanFight: took part in a fight between fans (201 § 1º, III for
	// persons from 15/06/2023; 184, II / 39-C, II for groups from 26/11/2019).
	WordFanFight = "fan_fight"
	// WordRacism: racism in sport (201 § 7º for persons; 183 § 2º for
	// groups); from 15/06/2023.
	WordRacism = "racism"
	// WordAgainstWomen: offence against women (201 § 7º, from 15/06/2023); persons only.
	WordAgainstWomen = "against_women"
	// WordOrganiser: organised, prepared or incited (201 § 6º from 15/06/2023;
	// inciting is in the caput of 39 / 41-B / 201 at every date); persons only.
	WordOrganiser = "organiser"
	// WordDiscrimination: discriminatory, xenophobic, homophobic or
	// transphobic conduct (183 § 2º, groups, from 15/06/2023).
	WordDiscrimination = "discrimination"
	// WordTrainingGroundInvasion: invaded a training ground (184, I / 39-C, I;
	// groups, off-venue, from 26/11/2019).
	WordTrainingGroundInvasion = "training_ground_invasion"
	// WordAttackOnSportPeople: offence against athletes, referees,
	// organisers or sports journalists (184, III / 39-C, III; groups,
	// off-venue, from 26/11/2019).
	WordAttackOnSportPeople = "attack_on_sport_people"
)

// ConductWords lists every conduct word of DOMAIN.md §2, in the table's order.
// Callers must not modify it. Sources: Lei 10.671/2003, arts. 39, 39-A, 39-C,
// 41-B; Lei 14.597/2023, arts. 183, § 2º, 184 and 201.
var ConductWords = []string{
	WordViolence, WordRiot, WordInvasion, WordWeapons, WordFanFight, WordRacism,
	WordAgainstWomen, WordOrganiser, WordDiscrimination, WordTrainingGroundInvasion,
	WordAttackOnSportPeople,
}

// IsConductWord reports whether w is one of ConductWords (exact, lower-case
// match). DOMAIN.md §2.
func IsConductWord(w string) bool { return slices.Contains(ConductWords, w) }

// wordInfo says, in Portuguese, what a conduct word means and where it lives,
// for the notes of a word that does not qualify.
type wordInfo struct {
	desc   string // meaning, in Portuguese
	person string // where the word lives for persons; "" = groups only
	group  string // where the word lives for groups; "" = persons only
}

var words = map[string]wordInfo{
	WordViolence: {"praticar ou incitar a violência",
		"art. 39 / art. 41-B / art. 201, caput",
		"art. 39-A / art. 183, § 2º"},
	WordRiot: {"promover tumulto",
		"art. 39 / art. 41-B / art. 201, caput",
		"art. 39-A / art. 183, § 2º"},
	WordInvasion: {"invadir local restrito aos competidores (ou, desde 15/06/2023, aos árbitros)",
		"art. 39 / art. 41-B / art. 201, caput",
		"art. 39-A / art. 183, § 2º"},
	WordWeapons: {"portar instrumentos que possam servir para a prática de violência",
		"art. 41-B, § 1º, II (desde 28/07/2010) / art. 201, § 1º, II", ""},
	WordFanFight: {"participar de brigas de torcidas",
		"art. 201, § 1º, III (fatos a partir de 15/06/2023)",
		"art. 39-C, II (desde 26/11/2019) / art. 184, II, somente associados envolvidos"},
	WordRacism: {"racismo no esporte",
		"art. 201, § 7º (fatos a partir de 15/06/2023)",
		"art. 183, § 2º (fatos a partir de 15/06/2023)"},
	WordAgainstWomen: {"infração cometida contra mulheres",
		"art. 201, § 7º (fatos a partir de 15/06/2023)", ""},
	WordOrganiser: {"organizar, preparar ou incitar o tumulto",
		"art. 39 / art. 41-B / art. 201, caput (incitar); § 6º do art. 201 só para fatos a partir de 15/06/2023", ""},
	WordDiscrimination: {"condutas discriminatórias, xenófobas, homofóbicas ou transfóbicas",
		"", "art. 183, § 2º (fatos a partir de 15/06/2023)"},
	WordTrainingGroundInvasion: {"invasão de local de treinamento",
		"", "art. 39-C, I (desde 26/11/2019) / art. 184, I, somente associados envolvidos"},
	WordAttackOnSportPeople: {"ilícitos contra esportistas, árbitros, organizadores ou jornalistas esportivos",
		"", "art. 39-C, III (desde 26/11/2019) / art. 184, III, somente associados envolvidos"},
}

// offVenueWords are the cases of art. 39-C / art. 184 (I–III) for groups.
var offVenueWords = []string{WordTrainingGroundInvasion, WordFanFight, WordAttackOnSportPeople}

// onVenueGroupWords are the group conducts of art. 39-A / art. 183, § 2º
// (discrimination and racism only in 183 § 2º).
var onVenueGroupWords = []string{WordViolence, WordRiot, WordInvasion, WordDiscrimination, WordRacism}

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

func containsAny(list []string, ws ...string) bool {
	for _, w := range ws {
		if slices.Contains(list, w) {
			return true
		}
	}
	return false
}

// ConductLabelPT names each conduct word in the short Portuguese of the
// case pages ("tumulto"); ConductStatutePT in the words of the statute
// the documents print (Lei 14.597/2023, art. 201: "promover tumulto").
var ConductLabelPT = map[string]string{
	"violence": "violência (praticou ou incitou)", "riot": "tumulto", "invasion": "invasão de área restrita",
	"weapons": "porte de instrumento de violência", "fan_fight": "briga entre torcidas", "racism": "racismo no esporte",
	"against_women": "crime contra a mulher", "organiser": "organizou, preparou ou incitou",
	"discrimination":           "conduta discriminatória, xenófoba, homofóbica ou transfóbica",
	"training_ground_invasion": "invasão de centro de treinamento", "attack_on_sport_people": "agressão a atleta, árbitro, organizador ou jornalista esportivo",
}

// ConductStatutePT: see ConductLabelPT.
var ConductStatutePT = map[string]string{
	WordViolence:               "praticar ou incitar a violência",
	WordRiot:                   "promover tumulto",
	WordInvasion:               "invadir local restrito aos competidores ou árbitros",
	WordWeapons:                "portar instrumentos que possam servir à prática de violência",
	WordFanFight:               "participar de briga de torcidas",
	WordRacism:                 "racismo no esporte",
	WordAgainstWomen:           "infração cometida contra mulheres",
	WordOrganiser:              "organizar, preparar ou incitar o tumulto",
	WordDiscrimination:         "condutas discriminatórias, xenófobas, homofóbicas ou transfóbicas",
	WordTrainingGroundInvasion: "invasão de local de treinamento",
	WordAttackOnSportPeople:    "ilícitos contra esportistas, árbitros, organizadores ou jornalistas esportivos",
}
