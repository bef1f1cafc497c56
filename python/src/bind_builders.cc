// Hand and scene builders (YAML description -> MJCF text, validated by compiling it with mjhand's plugins) and the
// coupling fits, for Python.
#include <cmath>
#include <string>
#include <vector>

#include <mjhand/coupling/fit.h>
#include <mjhand/generators/build_model.h>
#include <mjhand/hand/hand_spec.h>
#include <mjhand/hand/yaml_fields.h>
#include <mjhand/scene/scene_spec.h>
#include <mjhand/scene/scene_writer.h>

#include "bind.h"

namespace mjhand::py {

void bind_builders(nb::module_& m) {
  nb::exception<SpecError>(m, "SpecError", PyExc_ValueError)
      .doc() = "A hand or scene description (YAML) that cannot be built; the message names the file, line and key.";
  nb::exception<FitError>(m, "FitError", PyExc_ValueError)
      .doc() = "A fit (coupling polynomial, synergies) that its data cannot support; the message says why.";
  nb::exception<ModelRejectedError>(m, "ModelRejectedError", PyExc_ValueError)
      .doc() = "A generated model that MuJoCo or mjhand's own checks refuse (MuJoCo's message included).";

  m.def("build_hand_xml",
        [](const std::string& yaml_text, const std::string& source) {
          return build_hand_model(parse_hand_spec(yaml_text, source)).xml;
        },
        nb::arg("yaml_text"), nb::arg("source") = "<string>",
        "A hand description (YAML text, docs/hand-description.md) as MJCF text, compiled and validated with every "
        "plugin instance (what `mjhand make-hand` writes). Errors cite source:line and the field.");
  m.def("build_scene_xml",
        [](const std::string& yaml_text, const std::string& source, const std::string& base_dir,
           bool keep_placeholders) {
          SceneWriteOptions o;
          o.keep_placeholders = keep_placeholders;
          return build_scene(parse_scene_spec(yaml_text, source, base_dir), o).xml;
        },
        nb::arg("yaml_text"), nb::arg("source") = "<string>", nb::arg("base_dir") = ".",
        nb::arg("keep_placeholders") = false,
        "A scene description (hand + objects + contact, docs/scenes.md) as MJCF text (what `mjhand make-scene` "
        "writes); base_dir resolves the hand file and meshes it names.");

  nb::class_<CouplingFit>(m, "CouplingFit", "A polynomial coupling theta_y = sum c_k theta_x^k fitted by least squares.")
      .def_prop_ro("coefficients", [](const CouplingFit& f) {
        return std::vector<double>(f.law.c.begin(), f.law.c.begin() + f.order + 1);
      }, "c_0 .. c_order (radians)")
      .def_ro("order", &CouplingFit::order, "polynomial order (1..4)")
      .def_ro("points", &CouplingFit::points, "data points fitted")
      .def_ro("r2", &CouplingFit::r2)
      .def_ro("rms", &CouplingFit::rms, "[rad]")
      .def_ro("max_abs", &CouplingFit::max_abs, "[rad]")
      .def_ro("residual", &CouplingFit::residual, "y - law(x) [rad]")
      .def("__call__", [](const CouplingFit& f, double x) { return f.law.value(x); }, nb::arg("theta_x"));
  m.def("fit_polynomial",
        [](const std::vector<double>& x, const std::vector<double>& y, int order) {
          for (size_t i = 0; i < x.size() || i < y.size(); ++i) {
            if ((i < x.size() && !std::isfinite(x[i])) || (i < y.size() && !std::isfinite(y[i]))) {
              throw FitError("x and y must be finite: entry " + std::to_string(i) + " is not");
            }
          }
          if (x.size() != y.size()) {
            throw FitError("x and y must have the same length, got " + std::to_string(x.size()) + " and " +
                           std::to_string(y.size()));
          }
          return fit_polynomial(x, y, order);
        },
        nb::arg("x"), nb::arg("y"), nb::arg("order") = 1,
        "Least-squares coupling fit (BERUL section 3, generalised to order <= 4), angles in radians.");
  m.def("fit_coupling_csv",
        [](const std::string& path, const std::string& x, const std::string& y, int order, bool degrees,
           bool supplement) {
          const CsvTable t = read_csv_table(path);
          AngleInput in;
          in.degrees = degrees;
          in.supplement = supplement;
          return fit_coupling_table(t, csv_column(t, x), csv_column(t, y), order, in);
        },
        nb::arg("path"), nb::arg("x"), nb::arg("y"), nb::arg("order") = 1, nb::arg("degrees") = false,
        nb::arg("supplement") = false,
        "Fits column y against column x of a CSV file (what `mjhand fit-coupling` does); errors cite FILE:LINE.");
}

}  // namespace mjhand::py
