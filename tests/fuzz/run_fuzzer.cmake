# Runs one libFuzzer target and fails on whatever it finds, with one exception: LeakSanitizer's
# own tracer crashing at exit. Its check stops every thread of the process, and PoCL's worker
# threads, torn down by PoCL's destructors while the check runs, made the tracer fault about
# one exit in five on 2 cores (2026-12-02: "Tracer caught signal 11", then "LeakSanitizer has
# encountered a fatal error"): a fault of the sanitizer, not a finding. A leak found (its report
# says "detected memory leaks"), an ASan or UBSan report, a timeout or a crash still fails.
#   cmake -DLSAN_OPTIONS=<options> -P run_fuzzer.cmake -- <fuzzer> <arguments...>
set(command "")
set(seen_separator FALSE)
foreach(i RANGE ${CMAKE_ARGC})
  if(seen_separator AND DEFINED CMAKE_ARGV${i})
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif("${CMAKE_ARGV${i}}" STREQUAL "--")
    set(seen_separator TRUE)
  endif()
endforeach()
if(NOT command)
  message(FATAL_ERROR "run_fuzzer.cmake: no fuzzer after --")
endif()
set(ENV{LSAN_OPTIONS} "${LSAN_OPTIONS}")
execute_process(COMMAND ${command} RESULT_VARIABLE result OUTPUT_VARIABLE output
                ERROR_VARIABLE output ECHO_OUTPUT_VARIABLE ECHO_ERROR_VARIABLE)
if(result EQUAL 0)
  return()
endif()
string(FIND "${output}" "LeakSanitizer has encountered a fatal error" tracer_fault)
string(FIND "${output}" "Tracer caught signal" tracer_signal)
string(REGEX MATCH "detected memory leaks|ERROR: AddressSanitizer|runtime error:|ERROR: libFuzzer|ALARM|==ERROR" finding "${output}")
if(tracer_fault GREATER -1 AND tracer_signal GREATER -1 AND finding STREQUAL "")
  message(WARNING "LeakSanitizer's tracer crashed at exit (a sanitizer fault, see "
                  "run_fuzzer.cmake); the fuzzing run itself found nothing")
  return()
endif()
message(FATAL_ERROR "${command} failed (exit ${result})")
