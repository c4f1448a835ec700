package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/pgtest"
)

// freezingProxy is a TCP proxy in front of the PostgreSQL of dsn; its
// freeze makes the database hang as a partitioned network does: the
// connections stay open and no byte passes either way from then on. It
// returns the DSN through the proxy.
func freezingProxy(t *testing.T, dsn string) (proxied string, freeze func()) {
	t.Helper()
	cfg, err := pgconn.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	network, target := "tcp", net.JoinHostPort(cfg.Host, fmt.Sprint(cfg.Port))
	if strings.HasPrefix(cfg.Host, "/") {
		network, target = "unix", fmt.Sprintf("%s/.s.PGSQL.%d", cfg.Host, cfg.Port)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	frozen := make(chan struct{})
	var once sync.Once
	t.Cleanup(func() { ln.Close() })
	pipe := func(dst, src net.Conn) {
		defer dst.Close()
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			select {
			case <-frozen:
				// Hold the connection open and silent until the test
				// ends.
				<-t.Context().Done()
				return
			default:
			}
			if n > 0 {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					return
				}
			}
			if err != nil {
				return
			}
		}
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial(network, target)
			if err != nil {
				c.Close()
				continue
			}
			go pipe(s, c)
			go pipe(c, s)
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	proxied = fmt.Sprintf("host=127.0.0.1 port=%s user=%s dbname=%s sslmode=disable", port, cfg.User, cfg.Database)
	if cfg.Password != "" {
		proxied += " password=" + cfg.Password
	}
	return proxied, func() { once.Do(func() { close(frozen) }) }
}

// A court whose database hangs (a network partition: no answer, no error)
// still stops on SIGTERM with exit 0 within 5 s (issue 32, item 3): a
// gate's long-poll, waiting on the database, is cut at the shutdown's
// bound (the gate asks again elsewhere or later), and the gates' check
// records it still holds, whose write hangs, go to the spool on disk
// (JUIZADO_SPOOL_DIR), written to the database at the next start, instead
// of holding the stop for the write's 30 s.
func TestStopOnSIGTERM_CourtExits0WithItsDatabaseHung(t *testing.T) {
	bin := buildBinary(t)
	dsn := pgtest.NewDSN(t)
	club, _, err := createToken(context.Background(), pgtest.Open(t, dsn), accounts.UserSpec{Name: "portaria", Role: "club", Club: "Santos"})
	if err != nil {
		t.Fatal(err)
	}
	proxied, freeze := freezingProxy(t, dsn)
	spool := t.TempDir()
	cmd, host, logs := serveProcess(t, bin, "DATABASE_URL="+proxied, "JUIZADO_KEY_DIR="+t.TempDir(), "JUIZADO_SPOOL_DIR="+spool)
	c := client{t, "http://" + host}
	const cpf = "46881973659"
	expect(t, c.do("GET", "/api/v1/blocklist/check/"+cpf, club, nil), 200, "") // the list in memory
	freeze()
	// Answered from memory while the database hangs; its record waits.
	expect(t, c.do("GET", "/api/v1/blocklist/check/"+cpf, club, nil), 200, "")
	// A gate's long-poll, which reads the database every 100 ms, hangs
	// with it.
	polled := make(chan feedAnswer, 1)
	go longPoll(c.base, club, 1, "congelado", polled)
	time.Sleep(500 * time.Millisecond) // the check log's write is under way, and hangs
	stopped := sigterm(t, cmd)
	stoppedWithin(t, cmd, stopped, "juizado serve with its database hung", logs)
	select {
	case a := <-polled:
		t.Logf("the long-poll at the stop with the database hung: %d %v after %s", a.status, a.err, time.Since(stopped))
	case <-time.After(time.Second):
		t.Errorf("the long-poll still open after the stop")
	}
	var spooled strings.Builder
	_ = filepath.WalkDir(spool, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			spooled.Write(b)
		}
		return nil
	})
	if !strings.Contains(spooled.String(), cpf) {
		t.Errorf("the check record held at the stop is not in the spool %s: %q", spool, spooled.String())
	}
}
