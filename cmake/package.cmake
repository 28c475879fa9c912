# Debian packages through CPack, one per install component (cmake/install.cmake):
#   liboclfuse0.2   lib   the shared library (the name carries the SONAME's version, as Debian's
#                         libraries do, so that 0.3 and 0.4 can be installed side by side)
#   liboclfuse-dev  dev   header, liboclfuse.so link, liboclfuse.a, CMake package, oclfuse.pc
#   oclfuse         tool  the oclfuse command and its man page
# scripts/package.sh builds them (configured with CMAKE_INSTALL_PREFIX=/usr, so that the
# libraries go to Debian's multiarch folder); `ctest -L package` checks them.
# Dependencies on other packages come from dpkg-shlibdeps (the libraries the binaries link:
# libc6, ocl-icd-libopencl1, libclblast1 for the tool when it was built with CLBlast) plus the
# ones written here. No package installs an OpenCL driver; they recommend PoCL or any other ICD.

set(OCLFUSE_PACKAGE_MAINTAINER "liboclfuse maintainers <liboclfuse@invalid>"
    CACHE STRING "The Maintainer field of the .deb packages (Name <address>)")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME oclfuse)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL lib dev tool)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${OCLFUSE_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(ocf_icd "pocl-opencl-icd | opencl-icd")

set(CPACK_DEBIAN_LIB_PACKAGE_NAME liboclfuse${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIB_PACKAGE_RECOMMENDS "${ocf_icd}")
# Each description: its first line is the summary, the rest the long description (reflowed).
set(CPACK_COMPONENT_LIB_DESCRIPTION
    "fused, tunable OpenCL kernels (add, softmax, SGEMM): shared library
liboclfuse runs elementwise add, row softmax and SGEMM as fused OpenCL kernels on any
OpenCL 1.2 device (GPUs of every vendor, CPUs through PoCL), tuned per device.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME liboclfuse-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEV_DEPENDS lib)
# The header includes <CL/cl.h>; the CMake package finds OpenCL, and oclfuse.pc requires OpenCL.pc.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "ocl-icd-opencl-dev | opencl-dev")
set(CPACK_COMPONENT_DEV_DESCRIPTION
    "fused, tunable OpenCL kernels (add, softmax, SGEMM): development files
The header oclfuse.h, the static library, the CMake package (find_package(oclfuse):
oclfuse::oclfuse, oclfuse::oclfuse_static) and the pkg-config file oclfuse.pc.")

set(CPACK_DEBIAN_TOOL_PACKAGE_NAME oclfuse)
set(CPACK_DEBIAN_TOOL_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_TOOL_PACKAGE_RECOMMENDS "${ocf_icd}")
set(CPACK_DEBIAN_TOOL_PACKAGE_SUGGESTS "gnuplot-nox")
set(CPACK_COMPONENT_TOOL_DESCRIPTION
    "fused, tunable OpenCL kernels (add, softmax, SGEMM): command-line tool
oclfuse lists OpenCL devices, checks every kernel against a CPU reference, benchmarks them
against their baselines and the device's measured ceiling, tunes them per device and warms
the on-disk program cache.")

include(CPack)
