# -*- mode: makefile -*-
# GPUPC build configuration: PETSc and CUDA detection, compiler flags and the
# configure-time checks. Included by the top-level makefile.

PETSC_DIR ?= /usr/lib/petsc
# On a fresh Debian machine the README's two commands (make demo, make check) install what
# is missing first (as root; otherwise tools/install-deps.sh prints the apt-get line).
ifneq ($(filter demo check,$(MAKECMDGOALS)),)
  ifeq ($(wildcard $(PETSC_DIR)/lib/petsc/conf/variables),)
    $(info GPUPC: PETSc is not installed; running tools/install-deps.sh)
    GPUPC_DEPS_STATUS := $(shell tools/install-deps.sh 1>&2; echo $$?)
  endif
endif
ifeq ($(wildcard $(PETSC_DIR)/lib/petsc/conf/variables),)
  $(error PETSc not found: $(PETSC_DIR)/lib/petsc/conf/variables does not exist. Set PETSC_DIR to a PETSc >= 3.18 installation (Debian: apt-get install petsc-dev))
endif
include $(PETSC_DIR)/lib/petsc/conf/variables

# --- configure-time checks -------------------------------------------------
PETSC_VERSION_H := $(firstword $(wildcard $(PETSC_DIR)/include/petscversion.h))
PETSC_MAJOR := $(shell sed -n 's/^\#define PETSC_VERSION_MAJOR *\([0-9]*\).*/\1/p' $(PETSC_VERSION_H))
PETSC_MINOR := $(shell sed -n 's/^\#define PETSC_VERSION_MINOR *\([0-9]*\).*/\1/p' $(PETSC_VERSION_H))
ifeq ($(shell [ "$(PETSC_MAJOR)" -gt 3 ] || { [ "$(PETSC_MAJOR)" -eq 3 ] && [ "$(PETSC_MINOR)" -ge 18 ]; } && echo ok),)
  $(error GPUPC needs PETSc >= 3.18; $(PETSC_DIR) is $(PETSC_MAJOR).$(PETSC_MINOR))
endif
ifneq ($(PETSC_SCALAR),real)
  $(error GPUPC needs a PETSc built with real scalars; $(PETSC_DIR) has PETSC_SCALAR=$(PETSC_SCALAR). Reconfigure PETSc with --with-scalar-type=real or point PETSC_DIR to a real build)
endif
ifneq ($(PETSC_PRECISION),double)
  $(error GPUPC needs a PETSc built in double precision; $(PETSC_DIR) has PETSC_PRECISION=$(PETSC_PRECISION). Reconfigure PETSc with --with-precision=double)
endif

# --- CUDA -------------------------------------------------------------------
CUDA_DIR ?= /usr/local/cuda
NVCC     ?= $(CUDA_DIR)/bin/nvcc
# CUDA=1 builds the CUDA backend, CUDA=0 a host-only library; default: CUDA if nvcc exists.
CUDA ?= $(if $(wildcard $(NVCC)),1,0)
ifeq ($(CUDA),1)
  ifeq ($(wildcard $(NVCC)),)
    $(error CUDA=1 but $(NVCC) does not exist. Set CUDA_DIR to the CUDA toolkit or build host-only with make CUDA=0)
  endif
endif
# Code for A100 (sm_80) and H100/H200 (sm_90), plus PTX for later chips.
CUDA_ARCH_FLAGS ?= -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90

# --- flags ------------------------------------------------------------------
OPTFLAGS   ?= -O2 -g
# OpenMP threads in the host setup of PC cmg (-pc_cmg_setup_threads); OPENMP=0 builds without (one thread)
OPENMP     ?= 1
OPENMP_FLAGS = $(if $(filter 1,$(OPENMP)),-fopenmp,-Wno-unknown-pragmas)
GPUPC_CPPFLAGS = -Iinclude $(PETSC_CC_INCLUDES) $(if $(filter 1,$(CUDA)),-DGPUPC_HAVE_CUDA -I$(CUDA_DIR)/include)
GPUPC_CFLAGS   = $(OPTFLAGS) -fPIC -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -std=gnu11 $(OPENMP_FLAGS)
MPI_CFLAGS    := $(shell $(PCC) --showme:compile 2>/dev/null)
NVCC_FLAGS     = -O3 -g -lineinfo -std=c++17 $(CUDA_ARCH_FLAGS) -Xcompiler -fPIC,-Wall -ccbin g++ $(MPI_CFLAGS)
comma := ,
CUDA_LIBS      = $(if $(filter 1,$(CUDA)),-L$(CUDA_DIR)/lib64 -Wl$(comma)-rpath$(comma)$(CUDA_DIR)/lib64 -lcusolver -lcusparse -lcublas -lcudart)
