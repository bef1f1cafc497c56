// mujoco.MjModel / mujoco.MjData -> mjModel* / mjData*: the bindings expose `_address`, the pointer they wrap, so mjhand
// reads MuJoCo's own memory (zero copy) and shares the one libmujoco the process loaded.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "bind.h"

namespace mjhand::py {
namespace {
// Strong references kept for the life of the process and never released: a static nb::object would be released by
// a C++ static destructor after the interpreter has finalized (a crash at exit).
PyObject* g_model_type = nullptr;
PyObject* g_data_type = nullptr;

std::string python_type_name(nb::handle h) { return nb::cast<std::string>(nb::str(h.type().attr("__qualname__"))); }
}  // namespace

void set_mujoco_types(nb::handle model_type, nb::handle data_type) {
  g_model_type = model_type.inc_ref().ptr();
  g_data_type = data_type.inc_ref().ptr();
}

const mjModel* model_of(nb::handle model, const char* what) {
  if (!g_model_type || !PyObject_TypeCheck(model.ptr(), reinterpret_cast<PyTypeObject*>(g_model_type))) {
    throw nb::type_error((std::string(what) + " must be a mujoco.MjModel, got " + python_type_name(model)).c_str());
  }
  return reinterpret_cast<const mjModel*>(nb::cast<std::uintptr_t>(model.attr("_address")));
}

mjData* data_of(nb::handle data, const mjModel* m, const char* what) {
  if (!g_data_type || !PyObject_TypeCheck(data.ptr(), reinterpret_cast<PyTypeObject*>(g_data_type))) {
    throw nb::type_error((std::string(what) + " must be a mujoco.MjData, got " + python_type_name(data)).c_str());
  }
  const auto owner = nb::cast<std::uintptr_t>(data.attr("model").attr("_address"));
  if (owner != reinterpret_cast<std::uintptr_t>(m)) {
    throw nb::value_error((std::string(what) + " was made for another mujoco.MjModel than the one given").c_str());
  }
  return reinterpret_cast<mjData*>(nb::cast<std::uintptr_t>(data.attr("_address")));
}

Eigen::Matrix4d to_matrix(const Eigen::Isometry3d& T) { return T.matrix(); }

Eigen::Isometry3d to_isometry(const Eigen::Matrix4d& T, const char* what) {
  if (!T.allFinite()) throw nb::value_error((std::string(what) + ": not finite").c_str());
  const Eigen::RowVector4d bottom = T.row(3);
  const Eigen::Matrix3d R = T.topLeftCorner<3, 3>();
  if ((bottom - Eigen::RowVector4d(0, 0, 0, 1)).cwiseAbs().maxCoeff() > 1e-12 ||
      (R.transpose() * R - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() > 1e-9 || R.determinant() < 0) {
    throw nb::value_error((std::string(what) + ": not a rigid transform (4 x 4 with a rotation block and bottom row "
                                               "0 0 0 1)").c_str());
  }
  Eigen::Isometry3d out = Eigen::Isometry3d::Identity();
  out.linear() = R;
  out.translation() = T.topRightCorner<3, 1>();
  return out;
}

namespace {

using CpuDoubles = nb::ndarray<const double, nb::device::cpu>;

// A float64 array of <= 2 dimensions, any strides, copied into a matrix (a 1-D one as a row or a column).
Eigen::MatrixXd to_eigen(const CpuDoubles& a, const char* what, bool row_if_1d) {
  using Strided = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>>;
  const size_t ndim = a.ndim();
  if (ndim > 2) {
    throw nb::value_error((std::string(what) + " must have 1 or 2 dimensions, got " + std::to_string(ndim)).c_str());
  }
  if (ndim == 0) return Eigen::MatrixXd::Constant(1, 1, a.data()[0]);
  if (ndim == 1) {
    const Eigen::Index n = static_cast<Eigen::Index>(a.shape(0));
    const Strided v(a.data(), row_if_1d ? 1 : n, row_if_1d ? n : 1,
                    Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(row_if_1d ? a.stride(0) : n, row_if_1d ? 1 : a.stride(0)));
    return v;
  }
  // element (i, j) at data[i * stride(0) + j * stride(1)]: Eigen's inner (row) stride and outer (column) stride
  return Strided(a.data(), static_cast<Eigen::Index>(a.shape(0)), static_cast<Eigen::Index>(a.shape(1)),
                 Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(a.stride(1), a.stride(0)));
}

}  // namespace

Eigen::MatrixXd as_matrix(nb::handle obj, const char* what, bool row_if_1d) {
  CpuDoubles a;
  if (nb::try_cast(obj, a, false)) return to_eigen(a, what, row_if_1d);  // a float64 array: no Python call
  nb::object arr;
  try {
    arr = nb::module_::import_("numpy").attr("asarray")(obj, nb::arg("dtype") = "float64");
  } catch (const nb::python_error&) {
    throw nb::type_error((std::string(what) + " must be an array of numbers").c_str());
  }
  if (!nb::try_cast(arr, a, false)) throw nb::type_error((std::string(what) + " must be an array of numbers").c_str());
  return to_eigen(a, what, row_if_1d);
}

Eigen::VectorXd as_vector(nb::handle obj, const char* what) {
  const Eigen::MatrixXd a = as_matrix(obj, what);
  if (a.rows() != 1 && a.cols() != 1) {  // flattening would silently reorder (Eigen is column-major, NumPy row-major)
    throw nb::value_error((std::string(what) + " must be a vector (1-D, or one row or column), got shape (" +
                           std::to_string(a.rows()) + ", " + std::to_string(a.cols()) + ")").c_str());
  }
  return Eigen::Map<const Eigen::VectorXd>(a.data(), a.size());
}

int body_arg(const mjModel* m, nb::handle body, const char* what) {
  if (PyIndex_Check(body.ptr()) && !nb::isinstance<nb::bool_>(body)) {
    const long long id = nb::cast<long long>(nb::int_(body));
    if (id < 0 || id >= m->nbody) {
      throw nb::value_error((std::string(what) + ": body id " + std::to_string(id) + " is not in 0.." +
                             std::to_string(m->nbody - 1)).c_str());
    }
    return static_cast<int>(id);
  }
  if (!nb::isinstance<nb::str>(body)) {
    throw nb::type_error((std::string(what) + " must be a body name or id, got " + python_type_name(body)).c_str());
  }
  const std::string name = nb::cast<std::string>(body);
  const int id = mj_name2id(m, mjOBJ_BODY, name.c_str());
  if (id < 0) {
    std::string names;
    for (int k = 1; k < std::min<long long>(m->nbody, 12); ++k) {
      const char* n = mj_id2name(m, mjOBJ_BODY, k);
      names += std::string(k > 1 ? ", " : "") + (n ? n : "");
    }
    throw nb::value_error((std::string(what) + ": no body named '" + name + "' in the model (bodies: " + names +
                           (m->nbody > 12 ? ", ...)" : ")")).c_str());
  }
  return id;
}

Eigen::Vector3d to_vec3(const Eigen::VectorXd& v, const char* what) {
  if (v.size() != 3) {
    throw nb::value_error((std::string(what) + " must have 3 entries, got " + std::to_string(v.size())).c_str());
  }
  if (!v.allFinite()) throw nb::value_error((std::string(what) + " is not finite").c_str());
  return v;
}

}  // namespace mjhand::py
