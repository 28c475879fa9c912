# Runs one test executable under Oclgrind with its checks on, small sizes only, and fails when
# the test fails or when Oclgrind reports anything (out-of-bounds access, uninitialized read,
# data race, invalid API use): its messages go to LOG, which must stay empty.
#   cmake -DOCLGRIND=<oclgrind> -DPROGRAM=<test> -DLOG=<file> -P run_oclgrind.cmake
file(REMOVE "${LOG}")
set(ENV{OCLFUSE_TEST_SMALL} 1)
# Under Oclgrind the only platform is Oclgrind's own, so the default device is its simulator.
unset(ENV{OCLFUSE_DEVICE})
unset(ENV{OCLFUSE_TEST_DEVICE})
execute_process(
  COMMAND "${OCLGRIND}" --data-races --uninitialized --check-api --log "${LOG}" "${PROGRAM}"
  RESULT_VARIABLE result)
set(report "")
if(EXISTS "${LOG}")
  file(READ "${LOG}" report)
endif()
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} failed under Oclgrind (exit ${result})\n${report}")
endif()
if(NOT report STREQUAL "")
  message(FATAL_ERROR "Oclgrind reported problems in ${PROGRAM}:\n${report}")
endif()
