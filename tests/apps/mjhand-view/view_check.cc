// view_check: small checks for tests/apps/mjhand-view/viewer_test.sh.
//   view_check png FILE.png        prints "WIDTH HEIGHT FRACTION" (share of pixels unlike the top-left one)
//   view_check diff A.png B.png    prints the share of pixels that differ between two same-size images
//   view_check loads MODEL.xml     exit 0 when MuJoCo compiles the file on its own (no plugins), 1 otherwise
#include <mujoco/mujoco.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "render/image.h"
#include <mjhand/native/native_plugins.h>

int main(int argc, char** argv) {
  mjhand::register_native_plugins();  // "mjhand.*" plugins known to MuJoCo before any model loads
  using namespace mjhand::render;
  const std::string cmd = argc > 1 ? argv[1] : "";
  try {
    if (cmd == "png" && argc == 3) {
      const RgbImage img = read_png(argv[2]);
      std::printf("%d %d %.6f\n", img.width, img.height, fraction_unlike_corner(img));
      return 0;
    }
    if (cmd == "diff" && argc == 4) {
      const RgbImage a = read_png(argv[2]), b = read_png(argv[3]);
      if (a.width != b.width || a.height != b.height) {
        std::fprintf(stderr, "view_check: sizes differ\n");
        return 1;
      }
      size_t n = 0;
      for (size_t i = 0; i < a.rgb.size(); i += 3) {
        for (int k = 0; k < 3; ++k) {
          if (std::abs(int(a.rgb[i + k]) - int(b.rgb[i + k])) > 8) {
            ++n;
            break;
          }
        }
      }
      std::printf("%.6f\n", static_cast<double>(n) / (a.rgb.size() / 3));
      return 0;
    }
    if (cmd == "loads" && argc == 3) {
      char err[1000] = "";
      mjModel* m = mj_loadXML(argv[2], nullptr, err, sizeof err);
      if (!m) {
        std::fprintf(stderr, "%s\n", err);
        return 1;
      }
      mj_deleteModel(m);
      return 0;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "view_check: %s\n", e.what());
    return 1;
  }
  std::fprintf(stderr, "usage: view_check png FILE | diff A B | loads MODEL.xml\n");
  return 2;
}
