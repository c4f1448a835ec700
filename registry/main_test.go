package registry_test

import (
	"testing"
	_ "time/tzdata"

	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/internal/testenv"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

var saoPaulo = testenv.SaoPaulo
