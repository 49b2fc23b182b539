package main

import (
	"fmt"
	"runtime/debug"

	"github.com/coupwatch/coupwatch/games"
)

// agentVersion is the module version the binary was built from ("devel" for a local build).
func agentVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

func runVersion(e *env, args []string) int {
	fmt.Fprintf(e.stdout, "coupwatch %s (rules %s, journal schema 1)\n", agentVersion(), games.RulesVersion)
	return exitOK
}
