# A directory holding a valid query file and a broken link named *.csv:
# COMMAND (a ;-list, the directory appended) must exit 2 and name the link.
set(dir ${WORK}/broken-link)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir}/vertex-face)
file(COPY ${VALID} DESTINATION ${dir}/vertex-face)
file(CREATE_LINK ${dir}/vertex-face/nowhere ${dir}/vertex-face/missing.csv SYMBOLIC)
execute_process(COMMAND ${COMMAND} ${dir} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc STREQUAL "2" OR NOT err MATCHES "missing.csv")
  message(FATAL_ERROR "exit status ${rc}, expected 2 and the link named: ${err}")
endif()
