package decisions_test

import (
	"testing"

	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// env is casetest.Env: court testenv.Court, a prosecutor, the judges and the
// services on a fixed clock.
type env = casetest.Env

// newEnv is casetest.NewEnv.
var newEnv = casetest.NewEnv
