# Run by the target mjhand_shared_test_objects (tests/CMakeLists.txt, MJHAND_TEST_OBJECTS_FROM) after it has built
# the other build's test objects: fails when that build's list of them (FROM/tests/TARGET.objects) differs from the
# list this build was configured with (COPIES/TARGET.objects), i.e. a test file was added or removed since; linking
# the old list would leave a test out or link a deleted one. The next build reconfigures and reads the new list.
foreach(target IN LISTS TARGETS)
  file(READ "${FROM}/tests/${target}.objects" now)
  file(READ "${COPIES}/${target}.objects" configured)
  if(NOT now STREQUAL configured)
    message(FATAL_ERROR "the test files of ${target} in ${FROM} changed since this build was configured: build again "
            "(it reconfigures and links the new list)")
  endif()
endforeach()
