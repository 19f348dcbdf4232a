package kernel

import (
	"strings"
	"testing"
)

func TestDumpName(t *testing.T) {
	tests := []struct{ id, prefix string }{
		{"TMS2 › invariant beginIdxBound › DoRead", "TMS2_invariant_beginIdxBound_DoRead-"},
		{"C→A › refinement › DoRead › case 2 › pre(DoRead)", "C_A_refinement_DoRead_case_2_pre_DoRead-"},
		{"../../etc/passwd", "etc_passwd-"},
		{"›››", "obligation-"},
	}
	seen := map[string]string{}
	for _, tt := range tests {
		got := DumpName(tt.id)
		if !strings.HasPrefix(got, tt.prefix) || !strings.HasSuffix(got, ".smt2") || len(got) != len(tt.prefix)+8+5 {
			t.Errorf("DumpName(%q) = %q; want %q + 8 hex digits + .smt2", tt.id, got, tt.prefix)
		}
		if strings.ContainsAny(got, "/\\ ") {
			t.Errorf("DumpName(%q) = %q contains a separator or space", tt.id, got)
		}
		if other, ok := seen[got]; ok {
			t.Errorf("DumpName(%q) = DumpName(%q) = %q", tt.id, other, got)
		}
		seen[got] = tt.id
	}
	if DumpName("a b") == DumpName("a_b") {
		t.Error("IDs that sanitize alike share a file name")
	}
	if got := DumpName(strings.Repeat("x", 500)); len(got) > 80+1+8+5 {
		t.Errorf("long ID gives a %d-byte name", len(got))
	}
}
