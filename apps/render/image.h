// An 8-bit RGB image, top row first, and PNG input/output (libpng).
#pragma once

#include <string>
#include <vector>

namespace mjhand::render {

struct RgbImage {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;  // 3 * width * height bytes, row-major, top row first

  // Resizes the buffer (allocates only when it grows).
  void resize(int w, int h) {
    width = w;
    height = h;
    rgb.resize(static_cast<size_t>(3) * w * h);
  }
  // Pointer to pixel (x, y), y = 0 at the top.
  unsigned char* at(int x, int y) { return rgb.data() + 3 * (static_cast<size_t>(y) * width + x); }
  const unsigned char* at(int x, int y) const { return rgb.data() + 3 * (static_cast<size_t>(y) * width + x); }
};

// Writes img as an 8-bit RGB PNG; throws std::runtime_error naming the path and the reason.
void write_png(const std::string& path, const RgbImage& img);

// Reads a PNG (any bit depth / colour type libpng can convert) into 8-bit RGB; throws std::runtime_error naming the
// path and the reason.
RgbImage read_png(const std::string& path);

// Fraction of pixels that differ from the top-left pixel by more than `threshold` in some channel (0..1): a quick
// "is anything drawn" measure for tests.
double fraction_unlike_corner(const RgbImage& img, int threshold = 8);

}  // namespace mjhand::render
