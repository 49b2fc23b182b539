package detect_test

import "runtime/pprof"

// matCount is the number of live gocv Mats, counted by gocv's Mat profile, which exists only
// when the tests are built with -tags matprofile.
func matCount() (int, bool) {
	p := pprof.Lookup("gocv.io/x/gocv.Mat")
	if p == nil {
		return 0, false
	}
	return p.Count(), true
}
