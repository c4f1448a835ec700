package main

import "testing"

// The demo data (issue 29, item 4): the demo lawyer's petition waits in
// the clerk's queue, docketed on its client's case.
func TestDemoHasOnePendingPetition(t *testing.T) {
	_, g := demoDB(t)
	var rows []struct {
		Kind, Queue, Status string
		Moves               int
	}
	if err := g.Raw(`SELECT p.kind, p.queue, p.status,
		(SELECT count(*) FROM movements m WHERE m.case_id = p.case_id AND m.kind = 'petition_filed') AS moves
		FROM petitions p`).Scan(&rows).Error; err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Kind != "other" || rows[0].Queue != "clerk" || rows[0].Status != "pending" || rows[0].Moves != 1 {
		t.Errorf("demo petitions %+v, want one pending in the clerk's queue with its docket movement", rows)
	}
}
