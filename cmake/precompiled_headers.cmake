# Precompiled headers for every Qt target of the build (issue 34: a cold build on 2 cores spent
# most of each compile unit parsing Qt's headers: 2.2 of ~3.2 s for core/model/cluster_snapshot.cpp
# at -O3, 2.0 s for <QTest> alone). Two headers are compiled once per build directory (once per
# optimisation level in the checking build, see strata_compile_above_core_unoptimised) and
# reused by every target (REUSE_FROM), never once per target:
#   pch_qt_core.h     Qt Core and the standard library: core/, the CLI, the tests, the lab
#   pch_qt_widgets.h  the above with Qt Gui and Widgets: ui/, the window, the ui tests
# They hold only Qt and standard headers: none of Strata's, so editing a Strata header rebuilds
# what includes it and no more, and core/ still cannot see a widget (core_rooms checks its
# #includes, which the PCH does not change). Macros the two headers read are defined the same
# way for every target of one build directory; GCC says why with -Winvalid-pch (CMake adds it)
# should a target ever differ, and then compiles it without the PCH, correctly, only slower.
#
# ccache: a compile unit using a PCH is cached only with sloppiness pch_defines,time_macros
# (CMakeLists.txt sets it for the launcher); a warm build then hits for the PCH and every unit.
#
# STRATA_PRECOMPILED_HEADERS=OFF builds without them (to check that each file includes what it
# uses, as the PCH would hide a missing Qt include).
option(STRATA_PRECOMPILED_HEADERS "Precompile Qt's headers once per build directory" ON)

# Whether TARGET links ITEM (a target name) directly or through the link interfaces of the
# targets it links; OUT is set to TRUE or FALSE.
function(strata_links_transitively target item out)
    set(pending ${target})
    set(seen "")
    while(pending)
        list(POP_FRONT pending current)
        if(current IN_LIST seen)
            continue()
        endif()
        list(APPEND seen ${current})
        if(NOT TARGET ${current})
            continue()
        endif()
        get_target_property(aliased ${current} ALIASED_TARGET)
        if(aliased)
            set(current ${aliased})
        endif()
        if(current STREQUAL item)
            set(${out} TRUE PARENT_SCOPE)
            return()
        endif()
        get_target_property(imported ${current} IMPORTED)
        set(links "")
        if(NOT imported)
            get_target_property(type ${current} TYPE)
            if(NOT type STREQUAL "INTERFACE_LIBRARY")
                get_target_property(direct ${current} LINK_LIBRARIES)
                if(direct)
                    list(APPEND links ${direct})
                endif()
            endif()
        endif()
        get_target_property(interface ${current} INTERFACE_LINK_LIBRARIES)
        if(interface)
            list(APPEND links ${interface})
        endif()
        foreach(link ${links})
            # $<LINK_LIBRARY:WHOLE_ARCHIVE,name> and other wrappers: the names inside.
            string(REGEX REPLACE "\\$<[A-Z_]+:([A-Z_]+,)?" "" link "${link}")
            string(REPLACE ">" "" link "${link}")
            string(REPLACE "::@" ";" link "${link}")
            foreach(name ${link})
                if(TARGET ${name})
                    list(APPEND pending ${name})
                endif()
            endforeach()
        endforeach()
    endwhile()
    set(${out} FALSE PARENT_SCOPE)
endfunction()

# Every buildsystem target defined in DIRECTORY and below, into OUT.
function(strata_targets_below directory out)
    get_property(targets DIRECTORY ${directory} PROPERTY BUILDSYSTEM_TARGETS)
    get_property(children DIRECTORY ${directory} PROPERTY SUBDIRECTORIES)
    foreach(child ${children})
        strata_targets_below(${child} below)
        list(APPEND targets ${below})
    endforeach()
    set(${out} ${targets} PARENT_SCOPE)
endfunction()

# The PCH producer for KIND (qt_core or qt_widgets) and the target's optimisation (a target
# with STRATA_UNOPTIMISED compiles at -O0, see below; its PCH must be -O0 too), made the first
# time it is asked for; its name in OUT.
function(strata_pch_producer kind unoptimised out)
    set(name strata_pch_${kind})
    if(unoptimised)
        set(name ${name}_o0)
    endif()
    if(NOT TARGET ${name})
        add_library(${name} STATIC ${CMAKE_SOURCE_DIR}/cmake/pch_anchor.cpp)
        if(kind STREQUAL "qt_widgets")
            target_link_libraries(${name} PRIVATE Qt6::Widgets)
        else()
            target_link_libraries(${name} PRIVATE Qt6::Core)
        endif()
        target_precompile_headers(${name} PRIVATE ${CMAKE_SOURCE_DIR}/cmake/pch_${kind}.h)
        # Nothing in them to scan for Q_OBJECT; their one object is empty.
        set_target_properties(${name} PROPERTIES AUTOMOC OFF AUTOUIC OFF AUTORCC OFF)
        if(unoptimised)
            target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-O0>)
        endif()
    endif()
    set(${out} ${name} PARENT_SCOPE)
endfunction()

# Gives every C++ target that links Qt (that is, all but the burn-in agent's plain targets and
# the CUDA ones) the Qt Core or the Qt Widgets PCH. Call once, after every add_subdirectory.
function(strata_precompile_qt_headers)
    if(NOT STRATA_PRECOMPILED_HEADERS)
        return()
    endif()
    strata_targets_below(${CMAKE_SOURCE_DIR} targets)
    foreach(target ${targets})
        if(target MATCHES "^strata_pch_")
            continue()
        endif()
        get_target_property(type ${target} TYPE)
        if(NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
            continue()
        endif()
        get_target_property(sources ${target} SOURCES)
        if(NOT sources MATCHES "\\.cpp")
            continue()  # CUDA-only (the agent's kernels) or generated-only targets
        endif()
        strata_links_transitively(${target} Qt6::Core uses_qt)
        if(NOT uses_qt)
            continue()  # the burn-in agent: plain C++, no Qt anywhere
        endif()
        strata_links_transitively(${target} Qt6::Widgets uses_widgets)
        get_target_property(unoptimised ${target} STRATA_UNOPTIMISED)
        if(uses_widgets)
            strata_pch_producer(qt_widgets "${unoptimised}" producer)
        else()
            strata_pch_producer(qt_core "${unoptimised}" producer)
        endif()
        target_precompile_headers(${target} REUSE_FROM ${producer})
        strata_skip_pch_for_empty_mocs(${target})
    endforeach()
endfunction()

# The checking build (build-asan: clang, ASan + UBSan + libFuzzer coverage) compiles everything
# but core/ at -O0: under ASan + UBSan clang takes 37 % less time at -O0 than at -O1 (measured
# on ui/views/reports_window.cpp: 4.95 vs 7.90 s CPU, 2026-12-07), and only core/, the parsers
# the fuzz targets run and every test exercises, gains from -O1's speed (more fuzz inputs in
# the same seconds). The window, the CLI, the lab's stand-ins and the tests' own code run once
# per test; -O0 also keeps their every variable in ASan's reports.
function(strata_compile_above_core_unoptimised)
    strata_targets_below(${CMAKE_SOURCE_DIR} targets)
    foreach(target ${targets})
        get_target_property(type ${target} TYPE)
        if(NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
            continue()
        endif()
        get_target_property(dir ${target} SOURCE_DIR)
        file(RELATIVE_PATH where ${CMAKE_SOURCE_DIR} ${dir})
        if(where MATCHES "^(core|fuzz|resources)(/|$)")
            continue()
        endif()
        target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-O0>)
        set_property(TARGET ${target} PROPERTY STRATA_UNOPTIMISED TRUE)
    endforeach()
endfunction()

# AUTOMOC's mocs_compilation.cpp of a target none of whose headers declares a Q_OBJECT (most
# tests: each includes its own .moc) is empty: loading the PCH would be all its cost (0.9 s of
# CPU a test, measured), so it compiles without one. A header of the target's sources, listed or
# beside a .cpp of the same name (what AUTOMOC scans), that declares one keeps the PCH.
function(strata_skip_pch_for_empty_mocs target)
    get_target_property(automoc ${target} AUTOMOC)
    if(NOT automoc)
        return()
    endif()
    get_target_property(source_dir ${target} SOURCE_DIR)
    get_target_property(binary_dir ${target} BINARY_DIR)
    get_target_property(sources ${target} SOURCES)
    foreach(source ${sources})
        if(source MATCHES "^\\$<")
            return()  # a generator expression: cannot tell, keep the PCH
        endif()
        if(NOT IS_ABSOLUTE ${source})
            set(source ${source_dir}/${source})
        endif()
        set(candidates "")
        if(source MATCHES "\\.(h|hpp)$")
            list(APPEND candidates ${source})
        elseif(source MATCHES "\\.cpp$")
            string(REGEX REPLACE "\\.cpp$" ".h" header ${source})
            list(APPEND candidates ${header})
        endif()
        foreach(header ${candidates})
            if(EXISTS ${header})
                file(STRINGS ${header} declarations REGEX "Q_OBJECT|Q_GADGET|Q_NAMESPACE")
                if(declarations)
                    return()
                endif()
            endif()
        endforeach()
    endforeach()
    set_source_files_properties(${binary_dir}/${target}_autogen/mocs_compilation.cpp
        TARGET_DIRECTORY ${target} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
endfunction()
