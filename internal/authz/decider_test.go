package authz_test

import (
	"context"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/pgtest"
)

// The decision cache answers from memory for TTL, then follows a policy
// change: a removed rule stops allowing within TTL.
func TestDeciderFollowsPolicyWithinTTL(t *testing.T) {
	ctx := context.Background()
	g := pgtest.NewDB(t)
	e, err := authz.Open(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	court := "26.0100"
	u := accounts.User{Role: "club", Club: &court}
	d := &authz.Decider{E: e, TTL: 100 * time.Millisecond}
	if ok, err := d.Allowed(u, "/api/v1/blocklist", "GET"); err != nil || !ok {
		t.Fatalf("club on the blocklist: %v %v", ok, err)
	}
	if ok, _ := d.Allowed(u, "/api/v1/cases", "POST"); ok {
		t.Fatal("club may file a case")
	}
	if _, err := e.RemovePolicy("club", accounts.AnyDomain, "/api/v1/blocklist", "GET"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		ok, err := d.Allowed(u, "/api/v1/blocklist", "GET")
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the removed rule still allows after 2 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
