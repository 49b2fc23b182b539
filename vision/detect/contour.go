package detect

/*
#cgo !windows pkg-config: opencv4
#cgo CXXFLAGS: --std=c++11
#include "contour.h"
*/
import "C"

import (
	"image"
	"unsafe"

	"gocv.io/x/gocv"
)

// contourPoints returns the points of a contour found by gocv.FindContours, reusing buf.
// gocv's PointVector.ToPoints makes three cgo calls per point, which cost the card finder
// more than all the rest of its work on a contour; this copies them in one.
//
// It relies on gocv v0.31.0's PointVector being a bare std::vector<cv::Point>* (see
// gocv's core.h); TestContourPoints checks it against ToPoints.
func contourPoints(pv gocv.PointVector, buf []image.Point, xy []C.int) ([]image.Point, []C.int) {
	n := pv.Size()
	if n == 0 {
		return buf[:0], xy
	}
	if cap(xy) < 2*n {
		xy = make([]C.int, 2*n)
	}
	xy = xy[:2*n]
	ptr := *(*unsafe.Pointer)(unsafe.Pointer(&pv))
	m := int(C.cwPointVectorCopy(ptr, &xy[0], C.int(n)))
	buf = buf[:0]
	for i := 0; i < m; i++ {
		buf = append(buf, image.Pt(int(xy[2*i]), int(xy[2*i+1])))
	}
	return buf, xy
}
