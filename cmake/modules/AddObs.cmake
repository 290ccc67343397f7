# add_obs_library(name ...): an obs library, built like an MLIR library
# (add_mlir_library's arguments) and installed into the ObsTargets export
# set that lib/cmake/obs/ObsConfig.cmake imports.
function(add_obs_library name)
  add_mlir_library(${name} ${ARGN} DISABLE_INSTALL)
  # Installed headers live under <prefix>/include.
  target_include_directories(${name} INTERFACE $<INSTALL_INTERFACE:include>)
  # libMLIR and libLLVM are built without RTTI; code that derives from
  # their classes must be too.
  if(NOT LLVM_ENABLE_RTTI)
    target_compile_options(${name} INTERFACE $<INSTALL_INTERFACE:-fno-rtti>)
  endif()
  set_property(GLOBAL APPEND PROPERTY OBS_EXPORTS ${name})
  install(TARGETS ${name}
    EXPORT ObsTargets
    ARCHIVE DESTINATION lib${LLVM_LIBDIR_SUFFIX}
    LIBRARY DESTINATION lib${LLVM_LIBDIR_SUFFIX}
    COMPONENT obs)
endfunction()
