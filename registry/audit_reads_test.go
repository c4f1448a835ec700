package registry_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/audit"
	"github.com/juizado/juizado/internal/db"
)

// Every read of a member's personal data by anyone but the group's managers
// reaches the hash-chained audit trail too (issue 7, item 4): action "read"
// on members (the member read) or fan_groups (a list or export naming the
// group), by the actor of the request with their domain; the chain stays
// intact; the managers' own reads are not recorded; a read is recorded in
// the transaction of the read.
func TestReads_InAuditLog(t *testing.T) {
	t.Parallel()
	e := newRegEnv(t)
	g, mgr := e.group(t, "Torcida Auditada")
	m, err := e.svc.AddMember(context.Background(), mgr, g.ID, memberIn("Carla Dias", "52998224725", "1995-05-05"))
	if err != nil {
		t.Fatal(err)
	}
	judge := e.user(t, "juíza-sp", "judge", "26.0100", 0)
	// As the web layer does: the request's actor in the context.
	ctx := db.WithActor(context.Background(), actor.Actor{UserID: judge.UserID, Name: judge.Name, Role: "judge", Court: "26.0100"})
	mctx := db.WithActor(context.Background(), actor.Actor{UserID: mgr.UserID, Name: mgr.Name, Role: "fan_group", GroupID: g.ID})
	if _, err := e.svc.GetMember(mctx, mgr, m.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.GetMember(ctx, judge, m.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.ListMembers(ctx, judge, g.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.svc.ExportCSV(ctx, judge, g.ID); err != nil {
		t.Fatal(err)
	}
	bg := context.Background()
	rows, err := audit.List(bg, e.g, audit.Filter{Table: "members", RecordID: fmt.Sprint(m.ID)})
	if err != nil {
		t.Fatal(err)
	}
	var reads []audit.Entry
	for _, r := range rows {
		if r.Action == "read" {
			reads = append(reads, r)
		}
	}
	if len(reads) != 1 {
		t.Fatalf("member reads in audit_log: %d, want 1 (the judge's; not the manager's)", len(reads))
	}
	r := reads[0]
	if r.ActorID == nil || *r.ActorID != judge.UserID || r.ActorName != judge.Name || r.Role != "judge" || r.Domain != "26.0100" || r.Before != nil {
		t.Errorf("read row: %+v", r)
	}
	var after map[string]any
	if err := json.Unmarshal(r.After, &after); err != nil || after["what"] != "member" || after["group_id"] != float64(g.ID) {
		t.Errorf("read row after: %s (%v)", r.After, err)
	}
	grows, err := audit.List(bg, e.g, audit.Filter{Table: "fan_groups", RecordID: fmt.Sprint(g.ID)})
	if err != nil {
		t.Fatal(err)
	}
	var what []string
	for _, r := range grows {
		if r.Action == "read" {
			var a struct{ What string }
			_ = json.Unmarshal(r.After, &a)
			what = append(what, a.What)
			if r.ActorID == nil || *r.ActorID != judge.UserID || r.Domain != "26.0100" {
				t.Errorf("group read row: %+v", r)
			}
		}
	}
	if fmt.Sprint(what) != "[export list]" {
		t.Errorf("group reads in audit_log (newest first): %v, want [export list]", what)
	}
	// member_reads keeps its own record of the same three reads.
	if mr, err := e.svc.Reads(bg, g.ID); err != nil || len(mr) != 3 {
		t.Errorf("member_reads: %d %v", len(mr), err)
	}
	if err := audit.Verify(bg, e.g, nil); err != nil {
		t.Fatalf("chain after reads: %v", err)
	}
	// Without an actor in the context (a direct call), the registry's actor
	// is recorded.
	if _, err := e.svc.GetMember(bg, e.clerk, m.ID); err != nil {
		t.Fatal(err)
	}
	rows, _ = audit.List(bg, e.g, audit.Filter{Table: "members", RecordID: fmt.Sprint(m.ID), Limit: 1})
	if len(rows) != 1 || rows[0].Action != "read" || rows[0].ActorID == nil || *rows[0].ActorID != e.clerk.UserID || rows[0].Role != "clerk" || rows[0].Domain != "26.0100" {
		t.Errorf("fallback actor: %+v", rows)
	}
	// A read that fails (another court's clerk) records nothing.
	_, _ = e.svc.GetMember(bg, e.other, m.ID)
	var n int64
	e.g.Raw("SELECT count(*) FROM audit_log WHERE action = 'read' AND actor_id = ?", e.other.UserID).Scan(&n)
	if n != 0 {
		t.Errorf("denied read recorded: %d", n)
	}
	if err := audit.Verify(bg, e.g, nil); err != nil {
		t.Fatalf("chain: %v", err)
	}
}
