# Third-party libraries, all from Debian packages installed by scripts/setup.sh. Static archives are preferred
# (CMAKE_FIND_LIBRARY_SUFFIXES lists .a first) so that binaries run on machines without these packages.
find_package(Threads REQUIRED)

function(kestrel_find_static var name)
  find_library(${var} NAMES lib${name}.a ${name} REQUIRED)
endfunction()

kestrel_find_static(KESTREL_ZSTD_LIB zstd)
kestrel_find_static(KESTREL_SNAPPY_LIB snappy)
kestrel_find_static(KESTREL_LZ4_LIB lz4)
kestrel_find_static(KESTREL_Z_LIB z)
kestrel_find_static(KESTREL_BROTLIDEC_LIB brotlidec)
kestrel_find_static(KESTREL_BROTLIENC_LIB brotlienc)
kestrel_find_static(KESTREL_BROTLICOMMON_LIB brotlicommon)
kestrel_find_static(KESTREL_EDIT_LIB edit)
kestrel_find_static(KESTREL_TINFO_LIB tinfo)
kestrel_find_static(KESTREL_BSD_LIB bsd)
kestrel_find_static(KESTREL_MD_LIB md)

# TLS and the SCRAM-SHA-256 primitives of `kestrel serve`: Debian's OpenSSL 3 (libssl-dev), static like the rest.
kestrel_find_static(KESTREL_SSL_LIB ssl)
kestrel_find_static(KESTREL_CRYPTO_LIB crypto)

# Regular expressions of the CPU evaluator (regexp_like, ...): Debian's RE2 (libre2-dev), static like the rest.
kestrel_find_static(KESTREL_RE2_LIB re2)

# Unicode normalization of the CPU evaluator (normalize): Debian's utf8proc (libutf8proc-dev), static like the rest.
kestrel_find_static(KESTREL_UTF8PROC_LIB utf8proc)

add_library(kestrel_compression INTERFACE)
target_link_libraries(kestrel_compression INTERFACE ${KESTREL_ZSTD_LIB} ${KESTREL_SNAPPY_LIB} ${KESTREL_LZ4_LIB}
  ${KESTREL_Z_LIB} ${KESTREL_BROTLIDEC_LIB} ${KESTREL_BROTLIENC_LIB} ${KESTREL_BROTLICOMMON_LIB})

add_library(kestrel_line_editing INTERFACE)
target_link_libraries(kestrel_line_editing INTERFACE ${KESTREL_EDIT_LIB} ${KESTREL_TINFO_LIB} ${KESTREL_BSD_LIB}
  ${KESTREL_MD_LIB})

add_library(kestrel_regex INTERFACE)
if(KESTREL_BUILD_PYTHON)
  # Debian's libre2.a uses the local-exec TLS model (R_X86_64_TPOFF32 relocations), which a shared object cannot
  # hold: a target marked KESTREL_SHARED_OBJECT (the Python module) links the shared libre2 instead.
  find_library(KESTREL_RE2_SHARED_LIB NAMES libre2.so REQUIRED)
  target_link_libraries(kestrel_regex INTERFACE
    "$<IF:$<BOOL:$<TARGET_PROPERTY:KESTREL_SHARED_OBJECT>>,${KESTREL_RE2_SHARED_LIB},${KESTREL_RE2_LIB}>"
    Threads::Threads)
else()
  target_link_libraries(kestrel_regex INTERFACE ${KESTREL_RE2_LIB} Threads::Threads)
endif()

add_library(kestrel_unicode INTERFACE)
target_compile_definitions(kestrel_unicode INTERFACE UTF8PROC_STATIC)
if(KESTREL_BUILD_PYTHON)
  # As for RE2: a shared object (the Python module) links the shared libutf8proc, whose code is position independent.
  find_library(KESTREL_UTF8PROC_SHARED_LIB NAMES libutf8proc.so REQUIRED)
  target_link_libraries(kestrel_unicode INTERFACE
    "$<IF:$<BOOL:$<TARGET_PROPERTY:KESTREL_SHARED_OBJECT>>,${KESTREL_UTF8PROC_SHARED_LIB},${KESTREL_UTF8PROC_LIB}>")
else()
  target_link_libraries(kestrel_unicode INTERFACE ${KESTREL_UTF8PROC_LIB})
endif()

add_library(kestrel_tls INTERFACE)
target_link_libraries(kestrel_tls INTERFACE ${KESTREL_SSL_LIB} ${KESTREL_CRYPTO_LIB} ${CMAKE_DL_LIBS} Threads::Threads)

# The digests of the CPU evaluator (md5, sha1, sha256, sha512): OpenSSL's libcrypto alone.
add_library(kestrel_crypto INTERFACE)
target_link_libraries(kestrel_crypto INTERFACE ${KESTREL_CRYPTO_LIB} ${CMAKE_DL_LIBS} Threads::Threads)

find_package(CLI11 CONFIG QUIET)
if(NOT CLI11_FOUND)
  add_library(CLI11::CLI11 INTERFACE IMPORTED)
endif()
find_package(nlohmann_json 3 CONFIG REQUIRED)
find_package(GTest REQUIRED)

# nvCOMP for device decompression: PyPI's nvidia-libnvcomp-cu13 (requirements.txt, installed into .venv by
# scripts/setup.sh). Only its headers are used at build time; src/gpu/nvcomp.cpp loads the library at run time, so a
# binary runs (decompressing on the host) where the library is missing.
file(GLOB KESTREL_NVCOMP_ROOTS ${PROJECT_SOURCE_DIR}/.venv/lib/python3*/site-packages/nvidia/libnvcomp)
set(KESTREL_NVCOMP_ROOT "")
foreach(root ${KESTREL_NVCOMP_ROOTS})
  if(EXISTS ${root}/include/nvcomp/snappy.h)
    set(KESTREL_NVCOMP_ROOT ${root})
  endif()
endforeach()
if(KESTREL_NVCOMP_ROOT)
  message(STATUS "nvCOMP headers: ${KESTREL_NVCOMP_ROOT}/include")
else()
  message(STATUS "nvCOMP headers not found (run scripts/setup.sh): device decompression disabled")
endif()
