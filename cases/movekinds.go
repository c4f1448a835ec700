package cases

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"

	"gorm.io/gorm"

	"github.com/juizado/juizado/cases/tpu"
	"github.com/juizado/juizado/internal/db"
)

// MovementKind is what a docket movement records, as the system writes it
// (movements.kind); its national code is MovementTPU's, in one place (Res.
// CNJ 46/2007: every movement carries the TPU code when the TPU has one).
type MovementKind string

// The kinds of movements the system writes (every one is in MovementTPU; a
// test walks the code for each kind written).
const (
	MoveManual                MovementKind = "manual"                 // typed by the clerk, with its code (POST .../movements)
	MoveFiling                MovementKind = "filing"                 // the filing (autuação)
	MoveLinkedCases           MovementKind = "linked_cases"           // a mixed representation split in two linked cases
	MoveDistribution          MovementKind = "distribution"           // distribution by lot (Lei 9.099/1995; LGE art. 180)
	MoveStatusChange          MovementKind = "status_change"          // a step of the flow with no code of its own
	MoveReceipt               MovementKind = "receipt"                // the accusation received (Lei 9.099/1995, art. 81)
	MoveFinalJudgment         MovementKind = "final_judgment"         // the trânsito em julgado certified
	MoveArchive               MovementKind = "archive"                // the definitive archive
	MoveSeparation            MovementKind = "separation"             // a defendant's proceedings separated (CPP art. 80)
	MoveGroupLinked           MovementKind = "group_linked"           // a defendant group linked to a registered fan group
	MoveEvidence              MovementKind = "evidence"               // evidence joined to the case
	MoveHearingScheduled      MovementKind = "hearing_scheduled"      // a hearing scheduled (complements: kind, situation)
	MoveHearingRedesignated   MovementKind = "hearing_redesignated"   // a hearing moved to a new day (situation "redesignada")
	MoveHearingCancelled      MovementKind = "hearing_cancelled"      // a hearing cancelled (situation "cancelada")
	MoveHearingResult         MovementKind = "hearing_result"         // a hearing held or not held (situation "realizada", "não realizada")
	MoveConviction            MovementKind = "conviction"             // sentence: conviction (CPP art. 387)
	MoveAcquittal             MovementKind = "acquittal"              // sentence: acquittal (CPP art. 386; CPC art. 487, I)
	MovePartialJudgment       MovementKind = "partial_judgment"       // some defendants convicted, some acquitted
	MoveSkippedSteps          MovementKind = "skipped_steps"          // steps not recorded before a civil sentence
	MovePrecautionary         MovementKind = "precautionary"          // a precautionary ban ordered (CPP art. 319, II)
	MovePrecautionaryEnded    MovementKind = "precautionary_ended"    // a precautionary ban ended or revoked (CPP art. 282, § 5º)
	MovePrecautionaryRenewed  MovementKind = "precautionary_renewed"  // a precautionary ban renewed
	MoveGroupMembers          MovementKind = "group_members"          // a group ban extended to the members
	MovePleaOffered           MovementKind = "plea_offered"           // plea agreement offered (Lei 9.099/1995, art. 76)
	MovePleaHomologated       MovementKind = "plea_homologated"       // plea agreement homologated (art. 76, § 4º)
	MoveSettlementHomologated MovementKind = "settlement_homologated" // TAC homologated (Lei 7.347/1985, art. 5º, § 6º)
	MoveSuspension            MovementKind = "suspension"             // conditional suspension (Lei 9.099/1995, art. 89)
	MoveAppealFiled           MovementKind = "appeal_filed"           // an appeal filed (Lei 9.099/1995, art. 82)
	MoveAppealGranted         MovementKind = "appeal_granted"         // the Turma granted the appeal (reformed, annulled)
	MoveAppealDenied          MovementKind = "appeal_denied"          // the Turma denied the appeal
	MoveNotice                MovementKind = "notice"                 // a party's notice of the sentence (ciência)
	MoveDeadlineMoved         MovementKind = "deadline_moved"         // an appeal deadline moved by a holiday
	MoveEmbargosFiled         MovementKind = "embargos_filed"         // embargos de declaração filed (art. 83)
	MoveEmbargosRuled         MovementKind = "embargos_ruled"         // embargos de declaração ruled
	MoveBanStart              MovementKind = "ban_start"              // a ban's execution starts at the final judgment
	MoveBreach                MovementKind = "breach"                 // a breach of a ban reported
	MoveBreachDecided         MovementKind = "breach_decided"         // the judge's decision on a breach
	MoveBanCorrected          MovementKind = "ban_corrected"          // a ban's material error corrected
	MoveBanCredit             MovementKind = "ban_credit"             // detração (CP art. 42)
	MoveIdentified            MovementKind = "identified"             // a banned person identified by CPF
	MoveScheduleChanged       MovementKind = "schedule_changed"       // the match schedule changed a ban counted in matches
	MoveReclassified          MovementKind = "reclassified"           // the clerk corrected the case's class and subjects
	MoveCounselLinked         MovementKind = "counsel_linked"         // counsel linked to a defendant (CPP arts. 261, 266)
	MoveCounselUnlinked       MovementKind = "counsel_unlinked"       // counsel's representation ended
	MoveCounselRequested      MovementKind = "counsel_requested"      // a defence user asked to be linked (procuração joined)
	MoveCounselRefused        MovementKind = "counsel_refused"        // the clerk refused a request to be linked
	MoveNoticeAvailable       MovementKind = "notice_available"       // an electronic notice made available to the defence (Lei 11.419/2006, art. 5º)
	MoveNoticeOpened          MovementKind = "notice_opened"          // the defence opened an electronic notice (Lei 11.419/2006, art. 5º, § 1º)
	MovePetitionFiled         MovementKind = "petition_filed"         // a petition of the defence joined (Lei 11.419/2006, art. 10)
	MovePetitionAnswered      MovementKind = "petition_answered"      // the judge's or the clerk's answer to a petition
	MoveBnmpRegistered        MovementKind = "bnmp_registered"        // a ban's mandate registered in BNMP (Res. CNJ 417/2021, art. 18)
)

// MovementTPU is the one map from a kind to its TPU movement code and the
// complements the TPU asks of it (0: the TPU has no code this court could
// verify for the kind; the movement is local, shown and exported without a
// national code). Codes marked unverified in cases/tpu/data/movements.csv are
// used as such. MoveManual carries the clerk's code instead.
var MovementTPU = map[MovementKind]TPUMovement{
	MoveManual: {}, MoveFiling: {}, MoveLinkedCases: {}, MoveStatusChange: {},
	MoveDistribution:          {Code: 26, Complements: []string{"tipo de distribuição"}},
	MoveReceipt:               {Code: 132},
	MoveFinalJudgment:         {Code: 848},
	MoveArchive:               {Code: 246},
	MoveSeparation:            {},
	MoveGroupLinked:           {},
	MoveEvidence:              {Code: 581, Complements: []string{"tipo de documento"}},
	MoveHearingScheduled:      {Code: 970, Complements: []string{"tipo de audiência", "situação da audiência"}},
	MoveHearingRedesignated:   {Code: 970, Complements: []string{"tipo de audiência", "situação da audiência"}},
	MoveHearingCancelled:      {Code: 970, Complements: []string{"tipo de audiência", "situação da audiência"}},
	MoveHearingResult:         {Code: 970, Complements: []string{"tipo de audiência", "situação da audiência"}},
	MoveConviction:            {Code: 219},
	MoveAcquittal:             {Code: 220},
	MovePartialJudgment:       {Code: 221},
	MoveSkippedSteps:          {},
	MovePrecautionary:         {},
	MovePrecautionaryEnded:    {},
	MovePrecautionaryRenewed:  {},
	MoveGroupMembers:          {},
	MovePleaOffered:           {},
	MovePleaHomologated:       {Code: 466},
	MoveSettlementHomologated: {Code: 466},
	MoveSuspension:            {},
	MoveAppealFiled:           {},
	MoveAppealGranted:         {Code: 237},
	MoveAppealDenied:          {Code: 239},
	MoveNotice:                {},
	MoveDeadlineMoved:         {},
	MoveEmbargosFiled:         {},
	MoveEmbargosRuled:         {},
	MoveBanStart:              {},
	MoveBreach:                {},
	MoveBreachDecided:         {},
	MoveBanCorrected:          {},
	MoveBanCredit:             {},
	MoveIdentified:            {},
	MoveScheduleChanged:       {},
	MoveReclassified:          {},
	MoveCounselLinked:         {},
	MoveCounselUnlinked:       {},
	MoveCounselRequested:      {},
	MoveCounselRefused:        {},
	MoveNoticeAvailable:       {},
	MoveNoticeOpened:          {},
	// The TPU's "Juntada de Petição" could not be checked against a
	// published table here: left local (no code), never invented.
	MovePetitionFiled:    {},
	MovePetitionAnswered: {},
	MoveBnmpRegistered:   {},
}

// TPUMovement is a kind's national code (0: none) and the names of the
// complements its movement carries, as the TPU's movements table names
// them.
type TPUMovement struct {
	Code        int
	Complements []string
}

// TPUOf returns kind's national code (0: none); it panics on a kind
// missing from MovementTPU, a defect the tests catch.
func TPUOf(kind MovementKind) int {
	m, ok := MovementTPU[kind]
	if !ok {
		panic(fmt.Sprintf("cases: movement kind %q has no entry in MovementTPU", kind))
	}
	return m.Code
}

// Complement is one TPU complement of a movement: its name, as the TPU
// names it ("tipo de audiência"), and its value ("preliminar").
type Complement struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Complements are a movement's complements, stored as a jsonb array.
type Complements []Complement

// Value writes the complements as a JSON array.
func (c Complements) Value() (driver.Value, error) {
	if c == nil {
		c = Complements{}
	}
	b, err := json.Marshal([]Complement(c))
	return string(b), err
}

// Scan reads a JSON array.
func (c *Complements) Scan(src any) error {
	switch v := src.(type) {
	case []byte:
		return json.Unmarshal(v, (*[]Complement)(c))
	case string:
		return json.Unmarshal([]byte(v), (*[]Complement)(c))
	case nil:
		*c = nil
		return nil
	}
	return fmt.Errorf("cases: cannot scan %T into Complements", src)
}

// MovementViews are the docket entries of movements ms, each code named
// from the TPU's movements table the database holds (empty when the table
// lacks it), with its author's name (authors, by user id).
func (s *Core) MovementViews(ctx context.Context, ms []Movement, authors map[int64]string) ([]MovementView, error) {
	var codes []int
	for _, m := range ms {
		if m.TPUCode != nil {
			codes = append(codes, *m.TPUCode)
		}
	}
	names, err := tpu.Names(ctx, db.Conn(ctx, s.DB).Statement.ConnPool, tpu.Movements, codes)
	if err != nil {
		return nil, err
	}
	out := []MovementView{}
	for _, m := range ms {
		mv := MovementView{At: m.At, Kind: m.Kind, TPUCode: m.TPUCode, Complements: m.Complements, Description: m.Description}
		if m.TPUCode != nil {
			mv.TPUName = names[*m.TPUCode]
		}
		if m.AuthorUserID != nil {
			mv.Author = &AuthorView{ID: *m.AuthorUserID, Name: authors[*m.AuthorUserID], Role: m.AuthorRole}
		}
		out = append(out, mv)
	}
	return out, nil
}

// BeforeCreate gives a movement its national code from its kind (Res. CNJ
// 46/2007; MovementTPU); a movement without a kind, or a complement its
// kind does not carry, is a defect of the caller (an error, never written).
func (m *Movement) BeforeCreate(*gorm.DB) error {
	if m.Kind == "" {
		return fmt.Errorf("cases: movement of case %d written without a kind", m.CaseID)
	}
	tm, ok := MovementTPU[m.Kind]
	if !ok {
		return fmt.Errorf("cases: movement kind %q has no entry in MovementTPU", m.Kind)
	}
	for _, c := range m.Complements {
		found := false
		for _, n := range tm.Complements {
			found = found || n == c.Name
		}
		if !found {
			return fmt.Errorf("cases: movement kind %q carries no complement %q", m.Kind, c.Name)
		}
	}
	if m.Kind != MoveManual && tm.Code != 0 {
		code := tm.Code
		m.TPUCode = &code
	}
	return nil
}
