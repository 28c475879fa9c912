# Fails when the library imports an OpenCL function that tests/cl_faults.c does not wrap, so that
# the fault-injection suite keeps covering every entry point as the library grows.
#   cmake -DNM=<nm> -DLIBRARY=<liboclfuse.a> -DWRAPPERS=<cl_faults.c> -P check_wrapped.cmake
execute_process(COMMAND "${NM}" --undefined-only "${LIBRARY}" OUTPUT_VARIABLE symbols
                RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${LIBRARY}")
endif()
string(REGEX MATCHALL "U cl[A-Z][A-Za-z]+" imports "${symbols}")
list(TRANSFORM imports REPLACE "^U " "")
list(REMOVE_DUPLICATES imports)
file(READ "${WRAPPERS}" wrappers)
set(missing "")
foreach(function IN LISTS imports)
  if(NOT wrappers MATCHES "__wrap_${function}\\(")
    list(APPEND missing ${function})
  endif()
endforeach()
list(LENGTH imports count)
if(missing)
  message(FATAL_ERROR "the library imports OpenCL functions that tests/cl_faults.c does not wrap: "
                      "${missing}")
endif()
message(STATUS "tests/cl_faults.c wraps all ${count} OpenCL functions the library imports")
