package cases

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/registry"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// CounselRecord kinds: a lawyer constituted by procuração (CPP art. 266)
// or the Defensoria Pública (LC 80/1994, art. 4º, V).
const (
	CounselLawyer     = "lawyer"
	CounselDefensoria = "defensoria"
)

// CounselRecord statuses (migration 00171): requested by the defence and
// awaiting the clerk, active (linked), ended (unlinked), refused.
const (
	RepRequested = "requested"
	RepActive    = "active"
	RepEnded     = "ended"
	RepRefused   = "refused"
)

// CounselRecord is a representation record (table representations): the
// defence user CounselID represents defendant DefendantID of case CaseID
// as a lawyer or the Defensoria (Kind) from Since until Until (nil: still
// does); a request (RequestedAt) carries the procuração (EvidenceID).
type CounselRecord struct {
	ID          int64
	CaseID      int64
	DefendantID int64
	CounselID   int64
	Kind        string
	Status      string
	RequestedAt *time.Time
	Since       *time.Time
	Until       *time.Time
	EvidenceID  *int64
	Reason      string
	LinkedBy    *int64
	EndedBy     *int64
}

// TableName maps CounselRecord to representations.
func (CounselRecord) TableName() string { return "representations" }

// CounselView is a representation record as the API shows it: the
// counsel's name and standing (OAB/UF number or Defensoria Pública/UF),
// the defendant, status, instants (RFC 3339) and the procuração's evidence
// id.
type CounselView struct {
	ID          int64      `json:"id"`
	CaseID      int64      `json:"case_id"`
	CaseNumber  string     `json:"case_number"`
	DefendantID int64      `json:"defendant_id"`
	Defendant   string     `json:"defendant,omitempty"`
	User        string     `json:"user"`
	Credential  string     `json:"credential"`
	Kind        string     `json:"kind"`
	Status      string     `json:"status"`
	RequestedAt *time.Time `json:"requested_at,omitempty"`
	Since       *time.Time `json:"since,omitempty"`
	Until       *time.Time `json:"until,omitempty"`
	EvidenceID  *int64     `json:"procuracao_evidence_id,omitempty"`
	Reason      string     `json:"reason,omitempty"`
}

// counselUser returns the enabled defence user called name: errs.Invalid
// on "user" when there is none (DOMAIN.md §7: only a defence account is
// linked as counsel).
func (s *Core) counselUser(ctx context.Context, name string) (accounts.User, error) {
	if strings.TrimSpace(name) == "" {
		return accounts.User{}, errs.InvalidField("user", "required", "informe o usuário da defesa (user).")
	}
	u, err := accounts.FindUser(ctx, s.DB, name)
	if errors.Is(err, accounts.ErrNoUser) || (err == nil && (u.Role != accounts.RoleDefence || u.DisabledAt != nil)) {
		return accounts.User{}, errs.InvalidField("user", "defence_user", fmt.Sprintf("%q não é um usuário ativo da defesa (advogado com OAB ou Defensoria Pública).", name))
	}
	return u, err
}

// counselKind is the kind of representation by user u: the Defensoria
// Pública for a public defender, a lawyer otherwise.
func counselKind(u accounts.User) string {
	if u.Defensoria() {
		return CounselDefensoria
	}
	return CounselLawyer
}

// counselPhrase names counsel u and the defendant d in a docket movement:
// "Fulano (OAB/SP 123456) na defesa de Beltrano".
func counselPhrase(u accounts.User, d Defendant) string {
	return fmt.Sprintf("%s (%s) na defesa de %s", u.Name, u.Credential(), NameOf(d))
}

// repStatusPT names a representation's status for people.
var repStatusPT = map[string]string{RepRequested: "aguardando o cartório", RepActive: "deferido", RepEnded: "encerrado", RepRefused: "indeferido"}

// counselDecision is the docket movement of the clerk's decision on
// linking counsel u to defendant d (CPP arts. 261 and 266; LC 80/1994,
// art. 4º, V): a link made by the clerk on its own (requested false), or a
// request approved, or refused for reason.
func counselDecision(u accounts.User, d Defendant, requested, approve bool, reason string) (MovementKind, string) {
	switch {
	case !approve:
		return MoveCounselRefused, "Indeferido o pedido de habilitação de " + counselPhrase(u, d) + ": " + reason
	case requested:
		return MoveCounselLinked, "Deferido o pedido de habilitação de " + counselPhrase(u, d) + "."
	default:
		return MoveCounselLinked, "Habilitação de " + counselPhrase(u, d) + "."
	}
}

// lockDefendant locks case caseID of a's court (LockCase) and returns it
// with its defendant defendantID (PersonOf, errs.Invalid on defendant_id).
func (s *Service) lockDefendant(ctx context.Context, a actor.Actor, caseID, defendantID int64) (*Case, *Defendant, error) {
	c, err := s.LockCase(ctx, a, caseID)
	if err != nil {
		return nil, nil, err
	}
	d, err := s.PersonOf(ctx, c, defendantID, "defendant_id")
	return c, d, err
}

// LinkCounsel links the defence user called user to defendant defendantID
// of case caseID of the clerk's court (PUT
// /api/v1/cases/{id}/defendants/{defendant_id}/counsel): an active
// representation from now, with a docket movement (CPP arts. 261 and 266;
// LC 80/1994, art. 4º, V). The user's pending request for that defendant
// is approved; a link already active is returned as it is (created
// false). errs.NotFound for a case of another court; errs.Invalid on
// defendant_id or user.
func (s *Service) LinkCounsel(ctx context.Context, a actor.Actor, caseID, defendantID int64, user string) (v *CounselView, created bool, err error) {
	err = db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		c, d, err := s.lockDefendant(ctx, a, caseID, defendantID)
		if err != nil {
			return err
		}
		u, err := s.counselUser(ctx, user)
		if err != nil {
			return err
		}
		var r CounselRecord
		tx := db.Conn(ctx, s.DB)
		if err := tx.Where("defendant_id = ? AND counsel_id = ? AND status IN ?", d.ID, u.ID, []string{RepRequested, RepActive}).Limit(1).Find(&r).Error; err != nil {
			return err
		}
		if r.Status == RepActive {
			v = s.repView(r, c, d, u)
			return nil
		}
		now, uid := s.Now(), a.UserID
		if r.ID == 0 {
			r = CounselRecord{CaseID: c.ID, DefendantID: d.ID, CounselID: u.ID, Kind: counselKind(u)}
		}
		r.Status, r.Since, r.LinkedBy = RepActive, &now, &uid
		if err := tx.Save(&r).Error; err != nil {
			return err
		}
		kind, text := counselDecision(u, *d, r.RequestedAt != nil, true, "")
		if err := s.Move(ctx, c, &a, now, kind, text); err != nil {
			return err
		}
		created = true
		v = s.repView(r, c, d, u)
		return s.Touch(ctx, c, "")
	})
	return v, created, err
}

// UnlinkCounsel ends the active representations of defendant defendantID
// of case caseID of the clerk's court (DELETE
// /api/v1/cases/{id}/defendants/{defendant_id}/counsel): every one, or
// only the user's when user is given, until now, each with a docket
// movement. errs.Conflict when there is none to end; errs.NotFound for a
// case of another court; errs.Invalid on defendant_id or user.
func (s *Service) UnlinkCounsel(ctx context.Context, a actor.Actor, caseID, defendantID int64, user string) ([]CounselView, error) {
	var out []CounselView
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		c, d, err := s.lockDefendant(ctx, a, caseID, defendantID)
		if err != nil {
			return err
		}
		tx := db.Conn(ctx, s.DB)
		q := tx.Where("defendant_id = ? AND status = ?", d.ID, RepActive)
		if strings.TrimSpace(user) != "" {
			u, err := s.counselUser(ctx, user)
			if err != nil {
				return err
			}
			q = q.Where("counsel_id = ?", u.ID)
		}
		var rs []CounselRecord
		if err := q.Order("id").Find(&rs).Error; err != nil {
			return err
		}
		if len(rs) == 0 {
			return errs.New(errs.Conflict, fmt.Sprintf("%s não tem defensor vinculado a desvincular.", NameOf(*d)))
		}
		now, uid := s.Now(), a.UserID
		for _, r := range rs {
			r.Status, r.Until, r.EndedBy = RepEnded, &now, &uid
			if err := tx.Save(&r).Error; err != nil {
				return err
			}
			u, err := accounts.ActiveOrDisabledUser(ctx, s.DB, r.CounselID)
			if err != nil {
				return err
			}
			if err := s.Move(ctx, c, &a, now, MoveCounselUnlinked, "Desvinculação de "+counselPhrase(u, *d)+"."); err != nil {
				return err
			}
			out = append(out, *s.repView(r, c, d, u))
		}
		return s.Touch(ctx, c, "")
	})
	return out, err
}

// repView is the view of r, of case c and defendant d, by counsel u.
func (s *Core) repView(r CounselRecord, c *Case, d *Defendant, u accounts.User) *CounselView {
	return &CounselView{ID: r.ID, CaseID: r.CaseID, CaseNumber: FormatNumber(c.Number), DefendantID: r.DefendantID, Defendant: NameOf(*d),
		User: u.Name, Credential: u.Credential(), Kind: r.Kind, Status: r.Status, RequestedAt: r.RequestedAt, Since: r.Since,
		Until: r.Until, EvidenceID: r.EvidenceID, Reason: r.Reason}
}

// RepresentedIn returns the ids of the defendants of case caseID the
// defence user counselID represents now (an active representation): whose
// personal data it reads (issue 29).
func (s *Core) RepresentedIn(ctx context.Context, caseID, counselID int64) ([]int64, error) {
	var ids []int64
	err := db.Conn(ctx, s.DB).Model(&CounselRecord{}).Where("case_id = ? AND counsel_id = ? AND status = ?", caseID, counselID, RepActive).
		Order("defendant_id").Pluck("defendant_id", &ids).Error
	return ids, err
}

// RepresentedCases is the SQL condition, on a column of case ids, of the
// cases where the defence user (its one argument) represents a defendant
// now: what the defence may read.
const RepresentedCases = "IN (SELECT case_id FROM representations WHERE counsel_id = ? AND status = 'active')"

// RepresentedDefendants is the SQL condition, on a column of defendant
// ids, of the defendants the defence user (its one argument) represents
// now: whose personal data it reads.
const RepresentedDefendants = "IN (SELECT defendant_id FROM representations WHERE counsel_id = ? AND status = 'active')"

// DefensoriaRepresents reports whether defendant defendantID was
// represented by the Defensoria Pública at instant at (an active or ended
// representation of kind defensoria covering it): his defence's windows
// are doubled (LC 80/1994, art. 128, I; CPC art. 186).
func (s *Core) DefensoriaRepresents(ctx context.Context, defendantID int64, at time.Time) (bool, error) {
	var n int64
	err := db.Conn(ctx, s.DB).Model(&CounselRecord{}).
		Where("defendant_id = ? AND kind = ? AND since <= ? AND (until IS NULL OR until > ?)", defendantID, CounselDefensoria, at, at).
		Count(&n).Error
	return n > 0, err
}

// Counsel returns the active representations of case caseID by
// defendant, with the counsel's names: what the case page shows.
func (s *Core) Counsel(ctx context.Context, caseID int64) (map[int64][]CounselView, error) {
	var rs []CounselRecord
	if err := db.Conn(ctx, s.DB).Where("case_id = ? AND status = ?", caseID, RepActive).Order("defendant_id, id").Find(&rs).Error; err != nil {
		return nil, err
	}
	return s.repViews(ctx, rs)
}

// repViews are the views of rs by defendant, with the counsel's and the
// defendants' names and the cases' numbers (three queries).
func (s *Core) repViews(ctx context.Context, rs []CounselRecord) (map[int64][]CounselView, error) {
	out := map[int64][]CounselView{}
	if len(rs) == 0 {
		return out, nil
	}
	var uids, dids, cids []int64
	for _, r := range rs {
		uids, dids, cids = append(uids, r.CounselID), append(dids, r.DefendantID), append(cids, r.CaseID)
	}
	users, err := accounts.UsersByID(ctx, s.DB, uids)
	if err != nil {
		return nil, err
	}
	tx := db.Conn(ctx, s.DB)
	var ds []Defendant
	if err := tx.Where("id IN ?", dids).Find(&ds).Error; err != nil {
		return nil, err
	}
	defs := map[int64]*Defendant{}
	for i := range ds {
		defs[ds[i].ID] = &ds[i]
	}
	var cs []Case
	if err := tx.Select("id", "number").Where("id IN ?", cids).Find(&cs).Error; err != nil {
		return nil, err
	}
	byID := map[int64]*Case{}
	for i := range cs {
		byID[cs[i].ID] = &cs[i]
	}
	for _, r := range rs {
		out[r.DefendantID] = append(out[r.DefendantID], *s.repView(r, byID[r.CaseID], defs[r.DefendantID], users[r.CounselID]))
	}
	return out, nil
}

// errNoCounselCase is the one answer to a request whose case number and
// CPF name no defendant: the same whether the case or the CPF is wrong.
var errNoCounselCase = errs.New(errs.NotFound, "Processo ou réu não encontrado: confira o número do processo e o CPF do cliente.")

// CounselRequestInput is a defence user's request to be linked to a
// client (POST /api/v1/counsel-requests, multipart): the case's CNJ number,
// the client's CPF, and the procuração as a PDF (file).
type CounselRequestInput struct {
	Number   string
	CPF      string
	Filename string
	Data     []byte
}

// RequestCounsel records the defence user's request to represent the
// defendant of CPF in case Number, with the procuração (a PDF, stored as
// evidence by the evidence rules: type by content, at most
// MaxEvidenceBytes) and a docket movement; it waits for the clerk
// (DecideCounselRequest). A public defender needs no procuração (LC
// 80/1994, art. 128, XI) but may attach one. errs.NotFound, one message,
// when the number and the CPF name no defendant; errs.Conflict when the
// user already represents him or asked already; errs.Invalid on number,
// cpf or file.
func (s *Service) RequestCounsel(ctx context.Context, a actor.Actor, in CounselRequestInput) (*CounselView, error) {
	var f errs.Fields
	n, err := ParseCNJ(in.Number)
	if err != nil {
		f.Add("number", "cnj", err.Error())
	}
	cpf, err := registry.ParseCPF(in.CPF)
	if err != nil {
		f.Add("cpf", "cpf", err.Error())
	}
	u, err := accounts.ActiveOrDisabledUser(ctx, s.DB, a.UserID)
	if err != nil {
		return nil, err
	}
	var name, ctype string
	switch {
	case len(in.Data) == 0 && u.Defensoria():
	case len(in.Data) == 0:
		f.Add("file", "required", "anexe a procuração (PDF) no campo file (CPP art. 266).")
	default:
		var ferr error
		if name, ctype, ferr = checkEvidence(in.Filename, "Procuração", in.Data); ferr != nil {
			return nil, ferr
		}
		if ctype != "application/pdf" {
			f.Add("file", "content_type", "a procuração deve ser um PDF.")
		}
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	var out *CounselView
	err = db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		var d Defendant
		if err := tx.Joins("JOIN cases ON cases.id = defendants.case_id").Where("cases.number = ? AND defendants.cpf = ?", n.Digits(), cpf.String()).
			Limit(1).Find(&d).Error; err != nil {
			return err
		}
		if d.ID == 0 {
			return errNoCounselCase
		}
		var c Case
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", d.CaseID).Take(&c).Error; err != nil {
			return err
		}
		var r CounselRecord
		if err := tx.Where("defendant_id = ? AND counsel_id = ? AND status IN ?", d.ID, u.ID, []string{RepRequested, RepActive}).Limit(1).Find(&r).Error; err != nil {
			return err
		}
		switch r.Status {
		case RepActive:
			return errs.New(errs.Conflict, "Você já está habilitado(a) na defesa deste réu.")
		case RepRequested:
			return errs.New(errs.Conflict, "Seu pedido de habilitação na defesa deste réu já aguarda o cartório.")
		}
		now := s.Now()
		r = CounselRecord{CaseID: c.ID, DefendantID: d.ID, CounselID: u.ID, Kind: counselKind(u), Status: RepRequested, RequestedAt: &now}
		if name != "" {
			ev, err := s.storeEvidence(ctx, &c, a, DocPowerOfAttorney, name, ctype, "Procuração de "+NameOf(d), in.Data)
			if err != nil {
				return err
			}
			r.EvidenceID = &ev.ID
		}
		if err := tx.Create(&r).Error; err != nil {
			return err
		}
		if err := s.Move(ctx, &c, &a, now, MoveCounselRequested, "Pedido de habilitação de "+counselPhrase(u, d)+", aguardando o cartório."); err != nil {
			return err
		}
		out = s.repView(r, &c, &d, u)
		return s.Touch(ctx, &c, "")
	})
	return out, err
}

// DecideCounselRequest approves (the representation becomes active from
// now) or refuses (with reason, required) the pending request id, of a
// case of the clerk's court, with a docket movement. errs.NotFound for a
// request of another court or none; errs.Conflict when it is not pending;
// errs.Invalid on reason.
func (s *Service) DecideCounselRequest(ctx context.Context, a actor.Actor, id int64, approve bool, reason string) (*CounselView, error) {
	reason = strings.TrimSpace(reason)
	if !approve {
		var f errs.Fields
		if reason == "" {
			f.Add("reason", "required", "informe o motivo da recusa.")
		}
		CheckText(&f, "reason", reason, MaxLong, true)
		if err := f.Err(); err != nil {
			return nil, err
		}
	}
	var out *CounselView
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		var r CounselRecord
		if err := tx.Where("id = ?", id).Limit(1).Find(&r).Error; err != nil {
			return err
		}
		notFound := errs.New(errs.NotFound, fmt.Sprintf("Pedido de habilitação %d não encontrado.", id))
		if r.ID == 0 || r.RequestedAt == nil {
			return notFound
		}
		c, err := s.LockCase(ctx, a, r.CaseID)
		if errs.KindOf(err) == errs.NotFound {
			return notFound
		}
		if err != nil {
			return err
		}
		if err := tx.Where("id = ?", id).Take(&r).Error; err != nil {
			return err
		}
		if r.Status != RepRequested {
			return errs.New(errs.Conflict, "Este pedido de habilitação já foi decidido ("+repStatusPT[r.Status]+").")
		}
		var d Defendant
		if err := tx.Where("id = ?", r.DefendantID).Take(&d).Error; err != nil {
			return err
		}
		u, err := accounts.ActiveOrDisabledUser(ctx, s.DB, r.CounselID)
		if err != nil {
			return err
		}
		now, uid := s.Now(), a.UserID
		kind, text := counselDecision(u, d, true, approve, reason)
		if approve {
			r.Status, r.Since, r.LinkedBy = RepActive, &now, &uid
		} else {
			r.Status, r.Until, r.EndedBy, r.Reason = RepRefused, &now, &uid, reason
		}
		if err := tx.Save(&r).Error; err != nil {
			return err
		}
		if err := s.Move(ctx, c, &a, now, kind, text); err != nil {
			return err
		}
		out = s.repView(r, c, &d, u)
		return s.Touch(ctx, c, "")
	})
	return out, err
}

// CounselRequests lists requests to be linked: for the clerk, those of
// its court's cases still pending; for the defence, its own of every
// status, newest first.
func (s *Core) CounselRequests(ctx context.Context, a actor.Actor) ([]CounselView, error) {
	q := db.Conn(ctx, s.DB).Where("requested_at IS NOT NULL")
	if a.Role == accounts.RoleDefence {
		q = q.Where("counsel_id = ?", a.UserID)
	} else {
		q = q.Where("status = ? AND case_id IN (SELECT id FROM cases WHERE court_code = ?)", RepRequested, a.Court)
	}
	return s.repList(ctx, q.Order("id DESC"))
}

// Clients lists the active representations of the defence user
// counselID, newest case first: its panel ("Meus processos").
func (s *Core) Clients(ctx context.Context, counselID int64) ([]CounselView, error) {
	return s.repList(ctx, db.Conn(ctx, s.DB).Where("counsel_id = ? AND status = ?", counselID, RepActive).Order("case_id DESC, defendant_id"))
}

// repList runs q on representations and returns the views in its order.
func (s *Core) repList(ctx context.Context, q *gorm.DB) ([]CounselView, error) {
	var rs []CounselRecord
	if err := q.Limit(500).Find(&rs).Error; err != nil {
		return nil, err
	}
	byDef, err := s.repViews(ctx, rs)
	if err != nil {
		return nil, err
	}
	out := make([]CounselView, 0, len(rs))
	seen := map[int64]int{}
	for _, r := range rs {
		out = append(out, byDef[r.DefendantID][seen[r.DefendantID]])
		seen[r.DefendantID]++
	}
	return out, nil
}
