package decisions_test

import (
	"testing"
	"time"

	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/internal/testenv"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const court = testenv.Court

var saoPaulo = testenv.SaoPaulo

// t0 is after every fixture's facts: 10/06/2025 12:00 in São Paulo.
var t0 = testenv.T0

// env is casetest.Env, with this package's own test steps.
type env struct{ *casetest.Env }

// newEnv is casetest.NewEnv: court 26.0100, a prosecutor and nJudges
// judges, the services on a fixed clock at now.
func newEnv(t *testing.T, now time.Time, nJudges int) *env {
	t.Helper()
	return &env{casetest.NewEnv(t, now, nJudges)}
}
