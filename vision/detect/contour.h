#ifndef COUPWATCH_DETECT_CONTOUR_H
#define COUPWATCH_DETECT_CONTOUR_H

#ifdef __cplusplus
extern "C" {
#endif

// cwPointVectorCopy copies up to n points of a gocv PointVector (a std::vector<cv::Point>*)
// into xy as x, y pairs and returns how many it copied.
int cwPointVectorCopy(void* pv, int* xy, int n);

#ifdef __cplusplus
}
#endif

#endif
