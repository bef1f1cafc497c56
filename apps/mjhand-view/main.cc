// mjhand-view: the interactive viewer and its headless screenshot mode (docs/mjhand-view.md).
#include <cstdio>
#include <exception>

#include "app.h"
#include "render/gl_context.h"
#include <mjhand/native/native_plugins.h>

int main(int argc, char** argv) {
  mjhand::register_native_plugins();  // "mjhand.*" plugins known to MuJoCo before any model loads
  using namespace mjhand::view;
  Options opt;
  try {
    opt = parse_options(argc, argv);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "mjhand-view: %s\n", e.what());
    return 2;
  }
  if (opt.help) {
    std::fputs(usage(), stdout);
    return 0;
  }
  if (!mjhand::render::display_available()) {
    std::fprintf(stderr,
                 "mjhand-view: no display (DISPLAY is not set). Run headless under Xvfb, e.g.\n"
                 "  xvfb-run -a mjhand-view %s --screenshot out.png --time 1\n",
                 opt.model.c_str());
    return 3;
  }
  try {
    App app(opt);
    return opt.screenshot.empty() ? app.run_window() : app.run_headless();
  } catch (const UsageError& e) {
    std::fprintf(stderr, "mjhand-view: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mjhand-view: %s\n", e.what());
    return 1;
  }
}
