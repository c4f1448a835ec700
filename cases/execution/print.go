package execution

import (
	"context"

	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/sanctions"
)

// BanStatus is what the certificate of ban status of a CPF prints: the
// name last given to that CPF in a case of the court, the bans in force or
// yet to start on the day (by first day, then id), and apart the bans
// decided that wait for the final judgment, which are not in force
// (Súmula 643 STJ; CF art. 5º, LVII), by id.
type BanStatus struct {
	Name     string
	Bans     []sanctions.Ban
	Awaiting []sanctions.Ban
}

// BanStatusOf returns the ban status of cpf (11 digits) in the actor's
// court on day (the court's date): the bans in force on day or that will
// be without a new decision (sanctions.InForceOrToStartCond), those
// awaiting the final judgment, and the name.
func (s *Service) BanStatusOf(ctx context.Context, actor actor.Actor, cpf string, day civil.Date) (*BanStatus, error) {
	var out BanStatus
	g := db.Conn(ctx, s.DB)
	inForce := sanctions.InForceOrToStartCond("", day)
	if err := g.Where("cpf = ? AND court_code = ?", cpf, actor.Court).Where(inForce.SQL, inForce.Args...).
		Order("first_day, id").Find(&out.Bans).Error; err != nil {
		return nil, err
	}
	if err := g.Where("cpf = ? AND court_code = ? AND status = ?", cpf, actor.Court, sanctions.StatusAwaitingFinal).
		Order("id").Find(&out.Awaiting).Error; err != nil {
		return nil, err
	}
	if err := g.Raw(`SELECT d.full_name FROM defendants d JOIN cases c ON c.id = d.case_id
		WHERE d.cpf = ? AND c.court_code = ? ORDER BY d.id DESC LIMIT 1`, cpf, actor.Court).Scan(&out.Name).Error; err != nil {
		return nil, err
	}
	return &out, nil
}
