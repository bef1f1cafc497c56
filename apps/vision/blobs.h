// Connected patches of one colour and their centres of gravity from pixel moments (RoboRealm's Center of Gravity
// module). Coordinates are pixel indices: x right, y down, pixel (x, y) at its own centre.
#pragma once

#include <vector>

#include "render/image.h"
#include "vision/colour_rules.h"

namespace mjhand::vision {

struct Blob {
  long area = 0;           // pixels (m00)
  double cx = 0.0, cy = 0.0;  // centre of gravity m10/m00, m01/m00 [px]
};

// Finds the 8-connected patches of a colour. Keeps its label and stack buffers between calls, so a finder reused
// over a sweep allocates only while the image size grows.
class BlobFinder {
 public:
  // All patches of `rule`'s colour with at least min_area pixels, largest first.
  const std::vector<Blob>& find(const render::RgbImage& img, const ColourRule& rule, long min_area);
  // Area of the largest patch of the last find(), also when it was below min_area (0 when no pixel matched).
  long largest_area() const { return largest_area_; }

 private:
  std::vector<unsigned char> mask_;
  std::vector<int> stack_;
  std::vector<Blob> blobs_;
  long largest_area_ = 0;
};

}  // namespace mjhand::vision
