package encode

import (
	"os"
	"testing"
)

func TestDumpTMS2(t *testing.T) {
	if os.Getenv("DUMP") == "" {
		t.Skip()
	}
	a := loadAutomaton(t, "../../specs/TMS2.yaml", "TMS2")
	p := invStep(t, a, a.Action(os.Getenv("DUMP")), a.Invariant(os.Getenv("INV")))
	text, _ := p.Text()
	os.WriteFile("/tmp/dump.smt2", []byte(text), 0o644)
}
