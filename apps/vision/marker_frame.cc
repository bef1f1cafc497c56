#include "vision/marker_frame.h"

namespace mjhand::vision {

MarkerMeasurement measure_markers(const render::RgbImage& img, const MarkerOptions& opt, BlobFinder& finder) {
  MarkerMeasurement out;
  std::array<Point2, 5> centre{};
  for (int k = 0; k < 5; ++k) {
    const std::vector<Blob>& blobs = finder.find(img, opt.rules[k], opt.min_area);
    out.largest_area[k] = finder.largest_area();
    out.patches[k] = static_cast<int>(blobs.size());
    if (blobs.empty()) {
      if (!out.problem.empty()) out.problem += ", ";
      out.problem += "missing " + opt.rules[k].name + " (largest patch " + std::to_string(finder.largest_area()) +
                     " px < " + std::to_string(opt.min_area) + " px)";
      continue;
    }
    out.found[k] = true;
    out.blob[k] = blobs.front();
    centre[k] = {blobs.front().cx, blobs.front().cy};
  }
  out.ok = out.problem.empty();
  if (out.ok) out.theta = chain_angles(centre);
  return out;
}

}  // namespace mjhand::vision
