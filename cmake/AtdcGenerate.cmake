# atdc_generate(): run atdc on ATD schemas as part of a CMake build.
#
#   atdc_generate(TARGET <target> SCHEMAS a.atd [b.atd ...]
#                 [PREFIX <p>] [OUTPUT_DIR <dir>] [INCLUDE_DIRS <dir> ...]
#                 [OPTIONS <atdc option> ...])
#
# For each schema x.atd, generates <dir>/x.h and <dir>/x.c (dir defaults to
# ${CMAKE_CURRENT_BINARY_DIR}/atdc_<target>), adds x.c to <target>, <dir> to
# its include path (PUBLIC) and links it with atdc::atdrt (PUBLIC).
# PREFIX is passed as --prefix (so it suits a call with one schema),
# INCLUDE_DIRS as -I (where imported schemas are searched after the
# importing file's folder), OPTIONS verbatim (e.g. --ignore-adapters).
#
# Rebuilds: each schema's generation depends on the schema, on atdc itself,
# and on every schema it imports, read from the depfile that atdc writes
# (--depfile) through add_custom_command(DEPFILE), which every generator
# supports from CMake 3.20 on. With an older CMake and a Makefile generator
# the imports are listed once at configure time with `atdc -M` when atdc
# already exists (an installed atdc), else every schema of the call is a
# dependency of every generation: imports outside the call then need a
# re-configure to be noticed.
#
# Works both with an installed atdc (find_package(atdc) includes this file)
# and inside the atdc source tree (the root CMakeLists.txt includes it and
# defines the atdc::atdc and atdc::atdrt aliases).
include_guard(GLOBAL)

function(atdc_generate)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "TARGET;PREFIX;OUTPUT_DIR" "SCHEMAS;INCLUDE_DIRS;OPTIONS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "atdc_generate: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_TARGET OR NOT TARGET "${ARG_TARGET}")
    message(FATAL_ERROR "atdc_generate: TARGET must name an existing target (got '${ARG_TARGET}')")
  endif()
  if(NOT ARG_SCHEMAS)
    message(FATAL_ERROR "atdc_generate: no SCHEMAS given")
  endif()
  if(NOT TARGET atdc::atdc OR NOT TARGET atdc::atdrt)
    message(FATAL_ERROR "atdc_generate: atdc::atdc and atdc::atdrt are not defined; use find_package(atdc)")
  endif()

  set(out "${ARG_OUTPUT_DIR}")
  if(NOT out)
    set(out "${CMAKE_CURRENT_BINARY_DIR}/atdc_${ARG_TARGET}")
  endif()
  get_filename_component(out "${out}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  file(MAKE_DIRECTORY "${out}")

  # The compiler as a dependency: the real target in-tree (a file-level and a
  # target-level dependency), the installed file otherwise.
  get_target_property(real_atdc atdc::atdc ALIASED_TARGET)
  if(real_atdc)
    set(atdc_dep "${real_atdc}")
  else()
    set(atdc_dep "$<TARGET_FILE:atdc::atdc>")
  endif()

  set(flags "")
  if(ARG_PREFIX)
    list(APPEND flags --prefix "${ARG_PREFIX}")
  endif()
  foreach(dir IN LISTS ARG_INCLUDE_DIRS)
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND flags -I "${dir}")
  endforeach()
  list(APPEND flags ${ARG_OPTIONS})

  set(all_schemas "")
  foreach(schema IN LISTS ARG_SCHEMAS)
    get_filename_component(schema "${schema}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND all_schemas "${schema}")
  endforeach()

  set(use_depfile OFF)
  if(NOT CMAKE_VERSION VERSION_LESS 3.20 OR CMAKE_GENERATOR MATCHES "Ninja")
    set(use_depfile ON)
  endif()

  set(sources "")
  foreach(schema IN LISTS all_schemas)
    # The base name as atdc derives it: no extension, non-identifier bytes -> _.
    get_filename_component(base "${schema}" NAME_WLE)
    string(REGEX REPLACE "[^A-Za-z0-9]" "_" base "${base}")
    set(h "${out}/${base}.h")
    set(c "${out}/${base}.c")
    set(extra_deps "")
    set(depfile_args "")
    if(use_depfile)
      set(depfile_args DEPFILE "${out}/${base}.d")
    else()
      set(extra_deps ${all_schemas})
      get_target_property(atdc_imported atdc::atdc IMPORTED)
      if(atdc_imported)
        get_target_property(atdc_path atdc::atdc IMPORTED_LOCATION)
        if(NOT atdc_path)
          get_target_property(atdc_path atdc::atdc IMPORTED_LOCATION_RELEASE)
        endif()
        if(atdc_path)
          execute_process(COMMAND "${atdc_path}" -M ${flags} "${schema}"
                          OUTPUT_VARIABLE rule RESULT_VARIABLE rc ERROR_QUIET)
          if(rc EQUAL 0)
            string(REGEX REPLACE "^[^:]*:" "" rule "${rule}")
            string(REGEX REPLACE "\n\n.*" "" rule "${rule}")
            string(REGEX REPLACE "[ \\\\\n]+" ";" rule "${rule}")
            list(APPEND extra_deps ${rule})
          endif()
        endif()
      endif()
      list(REMOVE_ITEM extra_deps "")
      list(REMOVE_DUPLICATES extra_deps)
    endif()
    cmake_policy(PUSH)
    if(POLICY CMP0116)
      cmake_policy(SET CMP0116 NEW) # CMake rewrites the depfile's paths for Ninja
    endif()
    add_custom_command(
      OUTPUT "${h}" "${c}"
      COMMAND atdc::atdc -o "${out}" --depfile "${out}/${base}.d" ${flags} "${schema}"
      DEPENDS "${schema}" ${atdc_dep} ${extra_deps}
      ${depfile_args}
      COMMENT "Generating ${base}.h and ${base}.c from ${schema}"
      VERBATIM)
    cmake_policy(POP)
    list(APPEND sources "${c}" "${h}")
  endforeach()

  target_sources(${ARG_TARGET} PRIVATE ${sources})
  target_include_directories(${ARG_TARGET} PUBLIC "$<BUILD_INTERFACE:${out}>")
  target_link_libraries(${ARG_TARGET} PUBLIC atdc::atdrt)
endfunction()
