# The README's example under "## Using it" is examples/quickstart.c, which the quickstart test
# builds and runs: this checks that the two texts are the same, so the README cannot drift, and,
# given a compiler, that the example compiles as a user compiles it (the public header, no -D of
# the project's) without a single line on the compiler's output: no warning, and no note either
# (such as the OpenCL headers' CL_TARGET_OPENCL_VERSION message, which -Werror lets through).
#   cmake -DREADME=<README.md> -DEXAMPLE=<examples/quickstart.c> [-DCC=<cc> -DINCLUDES=<dir|dir...>]
#         -P readme_example.cmake
file(READ "${README}" readme)
file(READ "${EXAMPLE}" example)
string(FIND "${readme}" "\n## Using it\n" section)
if(section EQUAL -1)
  message(FATAL_ERROR "README.md has no \"## Using it\" section")
endif()
string(SUBSTRING "${readme}" ${section} -1 readme)
string(FIND "${readme}" "```c\n" open)
string(FIND "${readme}" "\n```\n" close)
if(open EQUAL -1 OR close LESS open)
  message(FATAL_ERROR "no ```c block in README.md's \"Using it\"")
endif()
math(EXPR first "${open} + 5")
math(EXPR length "${close} + 1 - ${first}")
string(SUBSTRING "${readme}" ${first} ${length} block)
if(NOT block STREQUAL example)
  message(FATAL_ERROR "README.md's example differs from examples/quickstart.c:\n${block}")
endif()
message(STATUS "README.md's example is examples/quickstart.c")

if(CC)
  set(include_flags "")
  string(REPLACE "|" ";" INCLUDES "${INCLUDES}") # folders separated by '|'
  foreach(dir IN LISTS INCLUDES)
    list(APPEND include_flags "-I${dir}")
  endforeach()
  execute_process(COMMAND "${CC}" -std=c11 -Wall -Wextra -Werror -fsyntax-only ${include_flags}
                          "${EXAMPLE}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT "${out}${err}" STREQUAL "")
    message(FATAL_ERROR "examples/quickstart.c does not compile silently (${rc}):\n${out}${err}")
  endif()
  message(STATUS "examples/quickstart.c compiles with no warning or note")
endif()
