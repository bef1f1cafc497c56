// One image -> five marker centres -> three joint angles, or the list of markers that could not be found.
#pragma once

#include <array>
#include <string>

#include "render/image.h"
#include "vision/blobs.h"
#include "vision/colour_rules.h"
#include "vision/marker_angles.h"

namespace mjhand::vision {

struct MarkerOptions {
  std::array<ColourRule, 5> rules = berul_marker_rules();  // chain order
  long min_area = 30;  // [px] a patch smaller than this is noise or a marker mostly hidden: the marker is missing
};

struct MarkerMeasurement {
  std::array<bool, 5> found{};
  std::array<Blob, 5> blob{};       // the largest patch of each colour (area 0 when missing)
  std::array<long, 5> largest_area{};  // largest patch of each colour, also below min_area
  std::array<int, 5> patches{};     // patches >= min_area of each colour (more than 1: the largest is used)
  std::array<double, 3> theta{};    // eq (1) angles [rad]; valid only when ok
  bool ok = false;                  // all five markers found
  std::string problem;              // "" when ok, else e.g. "missing red (largest patch 0 px < 30 px)"
};

// Segments the five colours, takes each one's largest patch as its marker and, when all five are present, the
// three joint angles. Reuses finder's buffers.
MarkerMeasurement measure_markers(const render::RgbImage& img, const MarkerOptions& opt, BlobFinder& finder);

}  // namespace mjhand::vision
