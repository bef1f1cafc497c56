// Shared pieces of the Python extension module `mjhand._core`: access to the mujoco module's MjModel/MjData (the
// mjModel*/mjData* behind them, never a copy) and the binding functions of each area.
#pragma once

#include <mujoco/mujoco.h>
#include <nanobind/eigen/dense.h>
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <Eigen/Geometry>

namespace nb = nanobind;

namespace mjhand::py {

// Remembers the mujoco module's MjModel and MjData types (mjhand/__init__.py passes them when it imports).
void set_mujoco_types(nb::handle model_type, nb::handle data_type);

// The mjModel behind a mujoco.MjModel; TypeError naming `what` and the type given otherwise.
const mjModel* model_of(nb::handle model, const char* what = "model");

// The mjData behind a mujoco.MjData made for `m`; TypeError for another type, ValueError when it belongs to another
// model (a data of a different model would be read out of bounds).
mjData* data_of(nb::handle data, const mjModel* m, const char* what = "data");

// A 4 x 4 homogeneous matrix <-> Isometry3d; ValueError when the bottom row is not (0 0 0 1) or the rotation is not
// orthonormal to 1e-9.
Eigen::Matrix4d to_matrix(const Eigen::Isometry3d& T);
Eigen::Isometry3d to_isometry(const Eigen::Matrix4d& T, const char* what);

// A float64 matrix from anything numpy.asarray accepts (arrays of any strides and dtype, nested lists): the one
// conversion of every array argument of the package (a float64 array is read directly, anything else goes through
// numpy.asarray). A 1-D input is one column, or one row when `row_if_1d`. TypeError naming `what` when it is not
// numeric, ValueError when it has more than 2 dimensions.
Eigen::MatrixXd as_matrix(nb::handle obj, const char* what, bool row_if_1d = false);

// A float64 vector from anything numpy.asarray accepts (every entry, in order); errors as as_matrix.
Eigen::VectorXd as_vector(nb::handle obj, const char* what);

// A 3-vector from any length-3 array; ValueError naming `what` otherwise.
Eigen::Vector3d to_vec3(const Eigen::VectorXd& v, const char* what);

// A body given by name or id (int or NumPy integer), as `mujoco` users name bodies: its id. ValueError naming `what`
// for an id out of range or an unknown name (a few bodies listed), TypeError for anything else.
int body_arg(const mjModel* m, nb::handle body, const char* what);

void bind_grasp(nb::module_& m);
void bind_kinematics(nb::module_& m);
void bind_builders(nb::module_& m);
void bind_batch(nb::module_& m);
void bind_synergies(nb::module_& m);
void bind_syngrasp(nb::module_& m);
void bind_structure(nb::module_& m);
void bind_planner(nb::module_& m);
void bind_controllers(nb::module_& m);

}  // namespace mjhand::py
