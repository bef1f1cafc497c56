// libmjhand_plugins.so: loading it (mujoco.mj_loadPluginLibrary, ctypes.CDLL, dlopen, or MuJoCo's plugin folder)
// registers every mjhand plugin type with the libmujoco it was linked against as "mjhand.<type>".
#include <mujoco/mujoco.h>

#include <mjhand/native/native_plugins.h>

mjPLUGIN_LIB_INIT(mjhand_plugins) { mjhand::register_native_plugins(); }
