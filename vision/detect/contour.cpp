#include <opencv2/core.hpp>
#include <cstring>
#include <vector>

#include "contour.h"

int cwPointVectorCopy(void* pv, int* xy, int n) {
    std::vector<cv::Point>* v = static_cast<std::vector<cv::Point>*>(pv);
    int m = static_cast<int>(v->size());
    if (m > n) {
        m = n;
    }
    if (m > 0) {
        std::memcpy(xy, v->data(), sizeof(int) * 2 * m);
    }
    return m;
}
