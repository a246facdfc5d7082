# Runs COMMAND (a ;-list) and fails unless it exits with EXPECTED.
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE rc)
if(NOT rc STREQUAL "${EXPECTED}")
  message(FATAL_ERROR "exit status ${rc}, expected ${EXPECTED}: ${COMMAND}")
endif()
