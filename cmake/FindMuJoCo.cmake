# Finds MuJoCo's C headers and library inside the installed `mujoco-core` PyPI wheel (the only MuJoCo mjhand uses;
# docs/engine.md). The wheel has no CMake config and no unversioned libmujoco.so, so this module asks the wheel's
# Python for its paths and makes the imported target mujoco::mujoco with the library's full path; executables and
# shared libraries get the wheel's folder as rpath, so they load the SAME libmujoco the Python module loads.
#
# Input: MUJOCO_PYTHON (cache) - the Python interpreter that has the wheel. Default: <source>/.venv/bin/python
#        (made by scripts/install-deps.sh), else the first python3 on PATH.
# Output: MuJoCo_FOUND, MuJoCo_VERSION, MuJoCo_INCLUDE_DIR, MuJoCo_LIBRARY, MuJoCo_LIBRARY_DIR, MuJoCo_PLUGIN_DIR,
#         target mujoco::mujoco.
if(NOT MUJOCO_PYTHON)
  if(EXISTS "${PROJECT_SOURCE_DIR}/.venv/bin/python")
    set(_mjhand_python "${PROJECT_SOURCE_DIR}/.venv/bin/python")
  else()
    find_program(_mjhand_python NAMES python3 python)
  endif()
  set(MUJOCO_PYTHON "${_mjhand_python}" CACHE FILEPATH "Python interpreter whose site-packages hold the mujoco wheel")
endif()

execute_process(
  COMMAND "${MUJOCO_PYTHON}" -c
    "import mujoco, os; print(mujoco.__version__); print(mujoco.HEADERS_DIR); print(os.path.dirname(mujoco.__file__)); print(mujoco.PLUGINS_DIR)"
  RESULT_VARIABLE _mjhand_rc OUTPUT_VARIABLE _mjhand_out ERROR_VARIABLE _mjhand_err
  OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _mjhand_rc EQUAL 0)
  set(MuJoCo_FOUND FALSE)
  if(MuJoCo_FIND_REQUIRED)
    message(FATAL_ERROR "FindMuJoCo: '${MUJOCO_PYTHON}' cannot import the mujoco wheel (${_mjhand_err}). "
            "Run scripts/install-deps.sh (makes .venv with the pinned mujoco-core) or pass -DMUJOCO_PYTHON=<python>.")
  endif()
  return()
endif()
string(REPLACE "\n" ";" _mjhand_out "${_mjhand_out}")
list(GET _mjhand_out 0 MuJoCo_VERSION)
list(GET _mjhand_out 1 _mjhand_headers)      # .../mujoco/include/mujoco
list(GET _mjhand_out 2 MuJoCo_LIBRARY_DIR)   # .../site-packages/mujoco
list(GET _mjhand_out 3 MuJoCo_PLUGIN_DIR)
get_filename_component(MuJoCo_INCLUDE_DIR "${_mjhand_headers}" DIRECTORY)  # so that <mujoco/mujoco.h> resolves
file(GLOB MuJoCo_LIBRARY "${MuJoCo_LIBRARY_DIR}/libmujoco.so.*")
list(LENGTH MuJoCo_LIBRARY _mjhand_n)
if(NOT _mjhand_n EQUAL 1 OR NOT EXISTS "${MuJoCo_INCLUDE_DIR}/mujoco/mujoco.h")
  message(FATAL_ERROR "FindMuJoCo: the mujoco ${MuJoCo_VERSION} wheel at ${MuJoCo_LIBRARY_DIR} must hold exactly one "
          "libmujoco.so.* (found: '${MuJoCo_LIBRARY}') and include/mujoco/mujoco.h")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(MuJoCo REQUIRED_VARS MuJoCo_LIBRARY MuJoCo_INCLUDE_DIR VERSION_VAR MuJoCo_VERSION)

if(MuJoCo_FOUND AND NOT TARGET mujoco::mujoco)
  add_library(mujoco::mujoco SHARED IMPORTED)
  set_target_properties(mujoco::mujoco PROPERTIES
    IMPORTED_LOCATION "${MuJoCo_LIBRARY}"
    IMPORTED_SONAME "libmujoco.so.${MuJoCo_VERSION}"
    INTERFACE_INCLUDE_DIRECTORIES "${MuJoCo_INCLUDE_DIR}")
  # The wheel's folder is not on the loader's path: every binary of the build and of the install finds it by rpath.
  list(APPEND CMAKE_BUILD_RPATH "${MuJoCo_LIBRARY_DIR}")
  list(APPEND CMAKE_INSTALL_RPATH "${MuJoCo_LIBRARY_DIR}")
endif()
