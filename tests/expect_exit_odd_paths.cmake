# Paths a walk or a read can trip on: COMMAND (a ;-list: the tool and
# "check") must exit 2 and name the path, for CASE
#   loop:       a link to itself named *.csv, given and inside a directory;
#   fifo:       a named pipe given as a file to check and to step (reading
#               it would block);
#   truth_link: a simulation query file whose truth file is a broken link;
#   normalized: dir/edge-edge/../x.csv, a file of no typed folder (the type
#               was once read from the edge-edge before the '..').
# VALID: a vertex-face query file with a truth column; WORK: scratch.
set(dir ${WORK}/odd-paths-${CASE})
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
function(expect_2 name)
  execute_process(COMMAND ${COMMAND} ${ARGN} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc STREQUAL "2" OR NOT err MATCHES "${name}")
    message(FATAL_ERROR "${ARGN}: exit status ${rc}, expected 2 naming ${name}: ${err}")
  endif()
endfunction()
if(CASE STREQUAL "loop")
  file(CREATE_LINK self.csv ${dir}/self.csv SYMBOLIC)
  expect_2(self.csv --type vf ${dir}/self.csv)
  expect_2(self.csv --type vf ${dir})
elseif(CASE STREQUAL "fifo")
  execute_process(COMMAND mkfifo ${dir}/pipe.csv RESULT_VARIABLE made)
  if(NOT made STREQUAL "0")
    message(FATAL_ERROR "mkfifo failed")
  endif()
  expect_2("pipe.csv: not a regular file" --type vf ${dir}/pipe.csv)
  list(GET COMMAND 0 tool)
  execute_process(COMMAND ${tool} step ${dir}/pipe.csv ${dir}/pipe.csv RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc STREQUAL "2" OR NOT err MATCHES "pipe.csv: not a regular file")
    message(FATAL_ERROR "step on a pipe: exit status ${rc}, expected 2: ${err}")
  endif()
elseif(CASE STREQUAL "truth_link")
  file(MAKE_DIRECTORY ${dir}/queries ${dir}/mma_bool)
  # The valid file less its truth column: its truth must come from mma_bool.
  file(STRINGS ${VALID} rows)
  set(text "")
  foreach(row IN LISTS rows)
    string(REGEX REPLACE ",[01]$" "" row "${row}")
    string(APPEND text "${row}\n")
  endforeach()
  file(WRITE ${dir}/queries/5vf.csv "${text}")
  file(CREATE_LINK ${dir}/mma_bool/nowhere ${dir}/mma_bool/5vf_mma_bool.json SYMBOLIC)
  expect_2(5vf_mma_bool.json ${dir}/queries/5vf.csv)
elseif(CASE STREQUAL "normalized")
  file(MAKE_DIRECTORY ${dir}/edge-edge)
  file(COPY_FILE ${VALID} ${dir}/x.csv)
  expect_2("cannot tell vertex-face from edge-edge" ${dir}/edge-edge/../x.csv)
else()
  message(FATAL_ERROR "unknown CASE ${CASE}")
endif()
