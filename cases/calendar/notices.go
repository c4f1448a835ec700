package calendar

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/audit"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
)

// noticeWhatPT names what a notice of kind gives notice of, in Portuguese.
var noticeWhatPT = map[string]string{NoticeAppeal: "da sentença", NoticeExtraordinary: "da decisão dos embargos de declaração contra o acórdão"}

// electronicInput checks a notice to be made available electronically
// (NotificationInput.Electronic; Lei 11.419/2006, art. 5º): only to the
// defence (errs.Invalid on electronic), without notified_on nor
// waived_appeal (errs.Invalid naming each), to a defendant d with a
// defence user linked in the system (errs.Conflict otherwise: art. 5º
// notifies those registered). It returns the counsel as the docket names
// them and the day the notice counts on if nobody opens it (§ 3º).
func (s *Service) electronicInput(ctx context.Context, c *cases.Case, d *cases.Defendant, party string, in NotificationInput, today civil.Date) (string, civil.Date, error) {
	var f errs.Fields
	if party != PartyDefence {
		f.Add("electronic", "defence_only", "a intimação eletrônica é feita só à defesa (party defence), no sistema (Lei 11.419/2006, art. 5º).")
	}
	if in.NotifiedOn != "" {
		f.Add("notified_on", "electronic", "não informe o dia da ciência na intimação eletrônica: ela conta do dia em que a defesa a abrir, ou do décimo dia (Lei 11.419/2006, art. 5º).")
	}
	if in.WaivedAppeal {
		f.Add("waived_appeal", "electronic", "a renúncia ao recurso não cabe na intimação eletrônica; registre-a com a ciência pela data.")
	}
	if err := f.Err(); err != nil || d == nil {
		return "", civil.Date{}, err
	}
	reps, err := s.Counsel(ctx, c.ID)
	if err != nil {
		return "", civil.Date{}, err
	}
	var names []string
	for _, r := range reps[d.ID] {
		names = append(names, r.User+", "+r.Credential)
	}
	if len(names) == 0 {
		return "", civil.Date{}, errs.New(errs.Conflict, fmt.Sprintf("%s não tem advogado nem defensor público vinculado no sistema: a intimação eletrônica é feita a quem nele está cadastrado (Lei 11.419/2006, art. 5º); registre a ciência da defesa pela data.", cases.NameOf(*d)))
	}
	cal, err := s.loadCalendar(ctx, c.CourtCode)
	if err != nil {
		return "", civil.Date{}, err
	}
	return strings.Join(names, "; "), sanctions.CountElectronicNotice(today, nil, today, cal.all()).CountsOn, nil
}

// NoticeView is an electronic notice as the defence sees it (GET
// /api/v1/defence/notices): the case and its client, what it gives notice
// of (kind appeal or extraordinary; What in Portuguese), the day it was
// made available, first opened (nil: not yet) and counts on (Lei
// 11.419/2006, art. 5º), Pending while nobody opened it and it has not
// counted, NoticeRule the paragraph applied, Openings the times it was
// opened; and the window that follows (DeadlineKind, Days, FirstDay,
// LastDay, Rule, Open), with DaysLeft the running days from today to the
// last day, both included (0 once it ended; while pending, of the window
// that follows if nobody opens it).
type NoticeView struct {
	ID             int64       `json:"id"`
	CaseID         int64       `json:"case_id"`
	CaseNumber     string      `json:"case_number"`
	DefendantID    int64       `json:"defendant_id"`
	Defendant      string      `json:"defendant"`
	Kind           string      `json:"kind"`
	What           string      `json:"what"`
	AvailableOn    civil.Date  `json:"available_on"`
	OpenedOn       *civil.Date `json:"opened_on"`
	CountsOn       civil.Date  `json:"counts_on"`
	Pending        bool        `json:"pending"`
	NoticeRule     string      `json:"notice_rule"`
	Openings       int         `json:"openings"`
	DeadlineKind   string      `json:"deadline_kind"`
	Days           int         `json:"days"`
	FirstDay       civil.Date  `json:"first_day"`
	LastDay        civil.Date  `json:"last_day"`
	DaysLeft       int         `json:"days_left"`
	Open           bool        `json:"open"`
	Rule           string      `json:"rule"`
	PublicDefender bool        `json:"public_defender"`
}

// noticeRow is an electronic notice with its case and defendant.
type noticeRow struct {
	Notification
	Flow      string
	CourtCode string
	Number    string
	Name      string
	Openings  int
}

// noticeRows reads the electronic notices, not superseded, of the
// defendants defence user uid represents now, with cond and args added.
func (s *Service) noticeRows(ctx context.Context, uid int64, cond string, args ...any) ([]noticeRow, error) {
	var rows []noticeRow
	err := db.Conn(ctx, s.DB).Raw(`SELECT n.*, k.flow, k.court_code, k.number, coalesce(nullif(d.full_name, ''), d.group_name) AS name,
		(SELECT count(*) FROM notice_openings o WHERE o.notification_id = n.id) AS openings
		FROM notifications n JOIN cases k ON k.id = n.case_id JOIN defendants d ON d.id = n.defendant_id
		WHERE n.electronic AND NOT n.superseded AND n.defendant_id `+cases.RepresentedDefendants+cond+`
		ORDER BY n.available_on DESC, n.id DESC`, append([]any{uid}, args...)...).Scan(&rows).Error
	return rows, err
}

// noticeView is the view of r as of today, its window counted with the
// court's calendar cal and setting k.
func noticeView(r noticeRow, cal courtCalendar, k *cases.Court, today civil.Date, loc *time.Location) (NoticeView, error) {
	n := r.Notification
	cal.resolve(&n, today)
	p, _, err := cal.periodOf(periodInput(r.Flow, n, k), n.CreatedAt, loc)
	if err != nil {
		return NoticeView{}, err
	}
	v := NoticeView{ID: n.ID, CaseID: n.CaseID, CaseNumber: cases.FormatNumber(r.Number), DefendantID: *n.DefendantID, Defendant: r.Name, Kind: n.Kind,
		What: noticeWhatPT[n.Kind], AvailableOn: *n.AvailableOn, OpenedOn: n.OpenedOn, CountsOn: n.NotifiedOn, Pending: n.Pending,
		NoticeRule: n.CountRule, Openings: r.Openings, DeadlineKind: p.Kind, Days: p.Days, FirstDay: p.FirstDay, LastDay: p.LastDay,
		Open: !today.After(p.LastDay), Rule: p.Rule, PublicDefender: n.PublicDefender}
	if v.Open {
		v.DaysLeft = int(p.LastDay.Start(time.UTC).Sub(today.Start(time.UTC)).Hours()/24+0.5) + 1
	}
	return v, nil
}

// views builds the views of rows as of now, reading each court's calendar
// once.
func (s *Service) views(ctx context.Context, rows []noticeRow) ([]NoticeView, error) {
	type court struct {
		cal courtCalendar
		k   *cases.Court
	}
	courts := map[string]court{}
	today := civil.Today(s.Now(), s.Loc)
	out := []NoticeView{}
	for _, r := range rows {
		ct, ok := courts[r.CourtCode]
		if !ok {
			cal, k, err := s.courtOf(ctx, r.CourtCode)
			if err != nil {
				return nil, err
			}
			ct = court{cal, k}
			courts[r.CourtCode] = ct
		}
		v, err := noticeView(r, ct.cal, ct.k, today, s.Loc)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// DefenceNotices lists the electronic notices to the defence user a of the
// defendants it represents now (its clients only; issue 29), the newest
// first, with the day each counts on and the window that follows (Lei
// 11.419/2006, art. 5º), computed as of the clock's today. Each client
// whose name it shows is a read of personal data in the audit trail
// (audit.Read, as the defence's reads of a case; LGPD, Lei 13.709/2018).
func (s *Service) DefenceNotices(ctx context.Context, a actor.Actor) ([]NoticeView, error) {
	rows, err := s.noticeRows(ctx, a.UserID, "")
	if err != nil {
		return nil, err
	}
	seen := map[int64]bool{}
	for _, r := range rows {
		if id := *r.DefendantID; !seen[id] {
			seen[id] = true
			if err := audit.Read(ctx, s.DB, a, "defendants", strconv.FormatInt(id, 10),
				map[string]any{"case_id": r.CaseID, "court": r.CourtCode, "via": "defence_notices"}); err != nil {
				return nil, err
			}
		}
	}
	return s.views(ctx, rows)
}

// OpenNotice records that the defence user a opened electronic notice id
// (POST /api/v1/defence/notices/{id}/open): every opening is kept
// (notice_openings); the first one fixes the day the notice counts on
// (Lei 11.419/2006, art. 5º, §§ 1º and 2º: the day opened, or the next
// working day; after the tenth day it had already counted, § 3º) and
// writes a docket movement (cases.MoveNoticeOpened); opening again changes
// nothing else. A notice not of a defendant a represents now, superseded,
// or none is errs.NotFound (the same answer: it does not say which).
func (s *Service) OpenNotice(ctx context.Context, a actor.Actor, id int64) (*NoticeView, error) {
	var out *NoticeView
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		var n Notification
		err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ? AND electronic AND NOT superseded AND defendant_id "+cases.RepresentedDefendants, id, a.UserID).Take(&n).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return errs.New(errs.NotFound, fmt.Sprintf("Intimação %d não encontrada entre as dos seus clientes.", id))
		}
		if err != nil {
			return err
		}
		now := s.Now()
		if err := tx.Exec("INSERT INTO notice_openings (notification_id, user_id, opened_at) VALUES (?, ?, ?)", n.ID, a.UserID, now).Error; err != nil {
			return err
		}
		if n.OpenedOn == nil {
			if err := s.firstOpening(ctx, a, &n, now); err != nil {
				return err
			}
		}
		rows, err := s.noticeRows(ctx, a.UserID, " AND n.id = ?", n.ID)
		if err != nil {
			return err
		}
		vs, err := s.views(ctx, rows)
		if err != nil {
			return err
		}
		if len(vs) == 0 { // read in the same transaction: cannot happen
			return errors.New("calendar: the notice opened is not among the defence's")
		}
		out = &vs[0]
		return nil
	})
	return out, err
}

// firstOpening records the first opening of notice n by a at instant now:
// opened_on (today in the court's zone), opened_by, the day it counts on
// (notified_on), and the docket movement with the window that follows.
func (s *Service) firstOpening(ctx context.Context, a actor.Actor, n *Notification, now time.Time) error {
	tx := db.Conn(ctx, s.DB)
	var c cases.Case
	if err := tx.Where("id = ?", n.CaseID).Take(&c).Error; err != nil {
		return err
	}
	cal, k, err := s.courtOf(ctx, c.CourtCode)
	if err != nil {
		return err
	}
	today := civil.Today(now, s.Loc)
	uid := a.UserID
	n.OpenedOn, n.OpenedBy = &today, &uid
	cal.resolve(n, today)
	if err := tx.Model(&Notification{}).Where("id = ?", n.ID).Updates(map[string]any{"opened_on": today, "opened_by": uid, "notified_on": n.NotifiedOn}).Error; err != nil {
		return err
	}
	p, _, err := cal.periodOf(periodInput(c.Flow, *n, k), n.CreatedAt, s.Loc)
	if err != nil {
		return err
	}
	users, err := accounts.UsersByID(ctx, s.DB, []int64{uid})
	if err != nil {
		return err
	}
	var d cases.Defendant
	if err := tx.Where("id = ?", *n.DefendantID).Take(&d).Error; err != nil {
		return err
	}
	u := users[uid]
	who := fmt.Sprintf("%s (%s) na defesa de %s", u.Name, u.Credential(), cases.NameOf(d))
	what := noticeWhatPT[n.Kind]
	text := fmt.Sprintf("Intimação eletrônica %s aberta por %s em %s: considera-se feita em %s (%s); %s.", what, who, today.BR(), n.NotifiedOn.BR(), n.CountRule, p.Text())
	if !n.CountsByOpening() {
		text = fmt.Sprintf("Intimação eletrônica %s aberta por %s em %s, depois dos 10 dias corridos da disponibilização: já se considerava feita em %s (%s).", what, who, today.BR(), n.NotifiedOn.BR(), n.CountRule)
	}
	if err := s.Move(ctx, &c, &a, now, cases.MoveNoticeOpened, text); err != nil {
		return err
	}
	return tx.Exec("UPDATE cases SET version = version + 1 WHERE id = ?", c.ID).Error
}

// CountsByOpening reports whether electronic notice n counts by its
// opening (§§ 1º and 2º of Lei 11.419/2006, art. 5º): opened within the
// ten running days after it was made available (§ 3º).
func (n Notification) CountsByOpening() bool {
	return n.Electronic && n.OpenedOn != nil && n.AvailableOn != nil && !n.OpenedOn.After(n.AvailableOn.AddDays(sanctions.ElectronicConsultDays))
}
