package main

import (
	"context"
	"fmt"

	"github.com/juizado/juizado/cases/bnmp"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/app"
	"github.com/juizado/juizado/internal/civil"
)

// seedMandates fills the demo's BNMP queue (Res. CNJ 417/2021): the
// mandates of the demo bans are derived (bnmp.Service.List), and the
// clerk ka records the BNMP number of the oldest one today, so that the
// page /mandados shows mandates to register and one registered.
func seedMandates(ctx context.Context, svc *app.Cases, ka actor.Actor, today civil.Date) error {
	items, err := svc.BNMP.List(ctx, ka, bnmp.StatusPending)
	if err != nil {
		return fmt.Errorf("seed mandates: %w", err)
	}
	if len(items) == 0 {
		return nil
	}
	first := items[len(items)-1]
	number := fmt.Sprintf("%07d-00.%d.8.26.0100.01.0001-01", first.ID, today.Year)
	if _, err := svc.BNMP.Register(ctx, ka, first.ID, bnmp.RegisterInput{BNMPNumber: number, RegisteredOn: today.String()}); err != nil {
		return fmt.Errorf("seed mandate registration: %w", err)
	}
	fmt.Printf("Demo BNMP mandates: %d in the queue (Mandados BNMP); the mandate of %s registered under nº %s\n", len(items)-1, first.Name, number)
	return nil
}
