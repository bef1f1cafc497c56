# The library's layers (docs/architecture.md). Each layer is a folder whose `mjhand/` subfolder holds its modules
# (`<mjhand/MODULE/FILE.h>`); the folder itself is the layer's include directory, and a layer sees only its own and
# lower layers' folders, so including a higher layer's header fails to compile. mjhand_layer_check links a layer with
# the layers below it as a shared library that may leave nothing undefined, so calling upwards fails to link.

# mjhand_layer(NAME DIR SOURCES files... BELOW layers...): OBJECT library mjhand_NAME, include directory DIR.
function(mjhand_layer name dir)
  cmake_parse_arguments(arg "" "" "SOURCES;BELOW" ${ARGN})
  add_library(mjhand_${name} OBJECT ${arg_SOURCES})
  target_include_directories(mjhand_${name} PUBLIC $<BUILD_INTERFACE:${dir}>)
  set(below)
  set(stack)
  foreach(layer ${arg_BELOW})
    list(APPEND below mjhand_${layer})
    get_property(layer_stack GLOBAL PROPERTY MJHAND_LAYER_STACK_${layer})
    list(APPEND stack ${layer_stack})
  endforeach()
  list(APPEND stack ${name})
  list(REMOVE_DUPLICATES stack)
  # The layers a file of this one may use, itself last: what its layer check and a probe link.
  set_property(GLOBAL PROPERTY MJHAND_LAYER_STACK_${name} ${stack})
  set_property(GLOBAL APPEND PROPERTY MJHAND_LAYERS ${name})
  target_link_libraries(mjhand_${name} PUBLIC ${MJHAND_PUBLIC_DEPS} ${below} PRIVATE mjhand_warnings)
  set_target_properties(mjhand_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  mjhand_precompile(mjhand_${name} <mjhand/util/dense_decompositions.h>)
endfunction()

# The objects of LAYER and every layer below it.
function(mjhand_layer_objects var layer)
  get_property(stack GLOBAL PROPERTY MJHAND_LAYER_STACK_${layer})
  set(objects)
  foreach(l ${stack})
    list(APPEND objects $<TARGET_OBJECTS:mjhand_${l}>)
  endforeach()
  set(${var} ${objects} PARENT_SCOPE)
endfunction()

# mjhand_link_check(TARGET objects...): a shared library of the objects that may leave nothing undefined.
function(mjhand_link_check target)
  add_library(${target} SHARED ${ARGN})
  target_link_libraries(${target} PRIVATE ${MJHAND_PUBLIC_DEPS} ${MJHAND_PRIVATE_DEPS} mjhand_warnings)
  target_link_options(${target} PRIVATE -Wl,--no-undefined)
  set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/layer_check)
  # Not in the sanitizer builds: clang links its sanitizer runtimes into executables only, so a --no-undefined
  # shared library fails on the runtime's symbols there. The checks run in the Release build.
  if(MJHAND_SANITIZE OR MJHAND_TSAN)
    set_target_properties(${target} PROPERTIES EXCLUDE_FROM_ALL ON)
  endif()
endfunction()

# One layer check per layer (mjhand_NAME_layer_check), and scripts/check-layering.sh's probe: MJHAND_LAYER_PROBE =
# "LAYER:PROBE" compiles tests/layering/PROBE.cc as if it were a file of LAYER (its include directories, nothing
# above) into LAYER's check, which must then fail when the probe reaches upwards.
function(mjhand_layer_checks)
  get_property(layers GLOBAL PROPERTY MJHAND_LAYERS)
  foreach(layer ${layers})
    mjhand_layer_objects(objects ${layer})
    mjhand_link_check(mjhand_${layer}_layer_check ${objects})
  endforeach()
  if(MJHAND_LAYER_PROBE)
    string(REPLACE ":" ";" probe "${MJHAND_LAYER_PROBE}")
    list(GET probe 0 probe_layer)
    list(GET probe 1 probe_name)
    if(NOT probe_layer IN_LIST layers)
      message(FATAL_ERROR "MJHAND_LAYER_PROBE=${MJHAND_LAYER_PROBE}: no layer '${probe_layer}' (layers: ${layers})")
    endif()
    add_library(mjhand_layer_probe OBJECT ${PROJECT_SOURCE_DIR}/tests/layering/${probe_name}.cc)
    target_link_libraries(mjhand_layer_probe PRIVATE mjhand_${probe_layer})
    set_target_properties(mjhand_layer_probe PROPERTIES POSITION_INDEPENDENT_CODE ON)
    mjhand_layer_objects(objects ${probe_layer})
    mjhand_link_check(mjhand_layer_probe_check ${objects} $<TARGET_OBJECTS:mjhand_layer_probe>)
    set_target_properties(mjhand_layer_probe_check PROPERTIES EXCLUDE_FROM_ALL ON)
  endif()
endfunction()
