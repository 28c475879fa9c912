# Runs a generator script and checks that its output is the committed file:
#   cmake -DPYTHON=<python3> -DGENERATOR=<script.py> -DCOMMITTED=<file> -DOUT=<scratch file>
#         -P check_generated.cmake
execute_process(COMMAND ${PYTHON} ${GENERATOR} ${OUT} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${GENERATOR} failed (${status})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT} ${COMMITTED} RESULT_VARIABLE differ)
if(NOT differ EQUAL 0)
  message(FATAL_ERROR "${COMMITTED} is not what ${GENERATOR} writes: run it again and commit")
endif()
