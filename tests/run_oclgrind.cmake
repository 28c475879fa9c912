# Runs one test executable under Oclgrind with its checks on, small sizes only, and fails when
# the test fails or when Oclgrind reports a data race, an invalid or misaligned memory access,
# work-group divergence or invalid API use. Oclgrind's messages are read from its standard
# error, not from a --log file: Oclgrind 21.10 opens that file afresh for every context, so a
# suite that creates several kept only what its last context reported (the norm suite's data
# races went unseen until 2026-12-04). Reports of uninitialized values fail it too, except in
# the suites run with UNINITIALIZED_COUNTED on (test_softmax_options), where they are counted:
# Oclgrind 21.10 makes them where there are none, in buffers that reuse freed memory
# (src/runtime/workspace.c: softmax's unfused baseline with the causal band draws them after
# other tests, never alone) and in vectors of 16 lanes (the kernel of
# tools/lab/oclgrind/float16_uninit.c reproduces it; test_norm's SHIFTED suites leave their
# 16-lane tunings out under Oclgrind); the count is printed so that a new one shows. Both
# streams go to LOG.
# With NO_RACES on (the suites of kernels whose last workgroup to arrive joins the others'
# writes: cl/join.clh), Oclgrind runs without --data-races, its other checks kept.
#   cmake -DOCLGRIND=<oclgrind> -DPROGRAM=<test> -DLOG=<file> [-DUNINITIALIZED_COUNTED=ON]
#         [-DNO_RACES=ON] -P run_oclgrind.cmake
file(REMOVE "${LOG}")
set(races --data-races)
if(NO_RACES)
  set(races "")
endif()
set(ENV{OCLFUSE_TEST_SMALL} 1)
# Under Oclgrind the only platform is Oclgrind's own, so the default device is its simulator.
unset(ENV{OCLFUSE_DEVICE})
unset(ENV{OCLFUSE_TEST_DEVICE})
execute_process(
  COMMAND "${OCLGRIND}" ${races} --uninitialized --check-api "${PROGRAM}"
  RESULT_VARIABLE result
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
file(WRITE "${LOG}" "${out}\n${err}")
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} failed under Oclgrind (exit ${result})\n${out}\n${err}")
endif()
string(REGEX MATCHALL
       "data race at|Invalid read|Invalid write|[Uu]naligned|divergence|OpenCL runtime error detected"
       found "${err}")
if(found)
  list(LENGTH found count)
  string(SUBSTRING "${err}" 0 6000 head)
  message(FATAL_ERROR "Oclgrind reported ${count} problems in ${PROGRAM} (all in ${LOG}):\n${head}")
endif()
string(REGEX MATCHALL "[Uu]ninitialized value" uninitialized "${err}")
if(uninitialized)
  list(LENGTH uninitialized count)
  if(NOT UNINITIALIZED_COUNTED)
    string(SUBSTRING "${err}" 0 6000 head)
    message(FATAL_ERROR
            "Oclgrind reported ${count} uninitialized values in ${PROGRAM} (all in ${LOG}):\n${head}")
  endif()
  message(STATUS "Oclgrind: ${count} uninitialized-value reports in ${PROGRAM} (${LOG})")
endif()
