package bnmp_test

import (
	"testing"

	"github.com/juizado/juizado/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }
