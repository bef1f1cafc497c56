#include "vision/blobs.h"

#include <algorithm>

namespace mjhand::vision {

const std::vector<Blob>& BlobFinder::find(const render::RgbImage& img, const ColourRule& rule, long min_area) {
  const int w = img.width, h = img.height;
  const size_t n = static_cast<size_t>(w) * static_cast<size_t>(h);
  mask_.resize(n);  // 1 = colour, not yet visited; 0 = other or visited
  for (size_t i = 0; i < n; ++i) {
    const unsigned char* p = img.rgb.data() + 3 * i;
    mask_[i] = rule.matches(p[0], p[1], p[2]) ? 1 : 0;
  }
  blobs_.clear();
  largest_area_ = 0;
  for (size_t seed = 0; seed < n; ++seed) {
    if (!mask_[seed]) continue;
    // Flood fill with an explicit stack: moments m00, m10, m01 accumulated as integers (exact).
    long m00 = 0, m10 = 0, m01 = 0;
    stack_.clear();
    stack_.push_back(static_cast<int>(seed));
    mask_[seed] = 0;
    while (!stack_.empty()) {
      const int i = stack_.back();
      stack_.pop_back();
      const int x = i % w, y = i / w;
      ++m00;
      m10 += x;
      m01 += y;
      for (int dy = -1; dy <= 1; ++dy) {
        const int yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        for (int dx = -1; dx <= 1; ++dx) {
          const int xx = x + dx;
          if (xx < 0 || xx >= w) continue;
          const int j = yy * w + xx;
          if (mask_[j]) {
            mask_[j] = 0;
            stack_.push_back(j);
          }
        }
      }
    }
    largest_area_ = std::max(largest_area_, m00);
    if (m00 >= min_area) {
      blobs_.push_back({m00, static_cast<double>(m10) / m00, static_cast<double>(m01) / m00});
    }
  }
  std::stable_sort(blobs_.begin(), blobs_.end(), [](const Blob& a, const Blob& b) { return a.area > b.area; });
  return blobs_;
}

}  // namespace mjhand::vision
