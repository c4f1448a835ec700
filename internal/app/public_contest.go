package app

import (
	"context"
	"errors"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/registry"
)

// PublicContestInput is the body of POST /api/v1/public/contests (and the
// public page /impugnacao): the proof of who the member is (the case's
// CNJ number, his CPF and his birth date, AAAA-MM-DD), the ground and the
// text of his contest of the inclusion in the group ban.
type PublicContestInput struct {
	Number    string `json:"number"`
	CPF       string `json:"cpf"`
	BirthDate string `json:"birth_date"`
	Ground    string `json:"ground"`
	Text      string `json:"text"`
}

// ErrContestProof is the one answer to a public contest whose proof fails
// (number, CPF or birth date): the same whether the CPF is banned in that
// case, elsewhere or nowhere (issue 29, item 5).
var ErrContestProof = errs.New(errs.NotFound, "Não foi possível confirmar os dados informados: confira o número do processo, o CPF e a data de nascimento. Se o impedimento não decorre do impedimento de uma torcida, procure o juizado ou a Defensoria Pública.")

// PublicContest files, without a lawyer, a member's contest of his
// inclusion in a group ban (issue 29, item 5; Lei 14.597/2023, art. 183,
// § 2º; CF art. 5º, XLV), once he proves who he is: a member's ban not
// ended, extending a group ban in the case of in.Number, names in.CPF with
// in.BirthDate (decisions.Service.ProvenMemberBan). The attempt runs
// under the sign-in's lockout (accounts.Lockout.Guard, keyed by the CPF,
// and by ip): a failed proof is ErrContestProof, always the same, and
// counts; too many are *accounts.LockedError. Malformed fields are
// errs.Invalid naming them. The petition lands in the judge's queue like
// the defence's (cases.Service.RecordPetition, filed by nobody's account).
func (a *App) PublicContest(ctx context.Context, in PublicContestInput, ip string) (*cases.PetitionView, error) {
	var f errs.Fields
	n, err := cases.ParseCNJ(in.Number)
	if err != nil {
		f.Add("number", "cnj", err.Error())
	}
	cpf, err := registry.ParseCPF(in.CPF)
	if err != nil {
		f.Add("cpf", "cpf", err.Error())
	}
	birth, err := civil.ParseISO(strings.TrimSpace(in.BirthDate))
	if err != nil {
		f.Add("birth_date", "date", "informe a data de nascimento (AAAA-MM-DD).")
	}
	pin := cases.PetitionInput{Kind: cases.PetitionGroupContest, Text: in.Text, Ground: in.Ground, DefendantID: -1, MemberID: -1}
	if cerr := cases.CheckPetition(pin); cerr != nil {
		var e *errs.Error
		if !errors.As(cerr, &e) {
			return nil, cerr
		}
		f = append(f, e.Fields...)
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	var out *cases.PetitionView
	_, err = a.Accounts.Lockout.Guard(ctx, a.db, "contest:"+cpf.String(), ip, a.Clock.Now(), func(ctx context.Context) (bool, error) {
		b, err := a.Cases.Decisions.ProvenMemberBan(ctx, n.Digits(), cpf.String(), birth)
		if err != nil || b == nil {
			return false, err
		}
		system := actor.Actor{} // no account: the member himself
		c, err := a.Cases.Case.LockCase(ctx, actor.Actor{Court: b.CourtCode}, b.CaseID)
		if err != nil {
			return false, err
		}
		d, err := a.Cases.Case.PersonOf(ctx, c, b.DefendantID, "defendant_id")
		if err != nil {
			return false, err
		}
		pin.DefendantID, pin.MemberID = d.ID, *b.MemberID
		out, err = a.Cases.Case.RecordPetition(ctx, system, c, d, pin, cases.PetitionEffect{BanID: &b.ID, Filer: b.Name})
		return err == nil, err
	})
	if err != nil {
		return nil, err
	}
	if out == nil {
		return nil, ErrContestProof
	}
	return out, nil
}
