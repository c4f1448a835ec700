package decisions_test

import (
	"testing"
	"time"

	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// env is casetest.Env, with this package's own test steps.
type env struct{ *casetest.Env }

// newEnv is casetest.NewEnv: court testenv.Court, a prosecutor and nJudges
// judges, the services on a fixed clock at now.
func newEnv(t *testing.T, now time.Time, nJudges int) *env {
	t.Helper()
	return &env{casetest.NewEnv(t, now, nJudges)}
}
