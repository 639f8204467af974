# GPUPC: GPU matrix types and preconditioners for PETSc.
#   make              library, tests, benchmarks and examples
#   make check        format-check, then run the test suite (host backend unless GPUPC_TEST_OPTIONS says otherwise)
#   make format       reformat the tree (.clang-format); make format-check lists files that differ
#   make demo         solve the default problem
#   make install PREFIX=/opt/gpupc
#   make gpu-bundle   self-contained tarball for a GPU host without PETSc/MPI
#   make CUDA=0       host-only library (no CUDA toolkit needed)

include conf/gpupc.mk

LIBDIR   := lib
OBJDIR   := build/obj
LIBNAME  := $(LIBDIR)/libpetscgpupc.so
PREFIX   ?= /usr/local

LIB_C    := $(sort $(shell find src -name '*.c'))
LIB_CU   := $(if $(filter 1,$(CUDA)),$(sort $(shell find src -name '*.cu')))
LIB_OBJS := $(LIB_C:%.c=$(OBJDIR)/%.o) $(LIB_CU:%.cu=$(OBJDIR)/%.cu.o)

# Programs: every tests/*.c, bench/*.c and examples/*.c is one program.
TEST_PROGS    := $(patsubst tests/%.c,build/tests/%,$(wildcard tests/*.c))
BENCH_PROGS   := $(patsubst bench/%.c,build/bench/%,$(wildcard bench/*.c))
EXAMPLE_PROGS := $(patsubst examples/%.c,build/bin/%,$(wildcard examples/*.c))
# Unchanged PETSc tutorials (Debian's libpetsc3.18-dev-examples), built against PETSc only:
# they load GPUPC at run time with -dll_append, as a user's program would (tests/tutorial.sh).
PETSC_TUTORIALS ?= $(firstword $(wildcard $(PETSC_DIR)/share/petsc/examples/src/ksp/ksp/tutorials))
PETSC_SNES_TUTORIALS ?= $(firstword $(wildcard $(PETSC_DIR)/share/petsc/examples/src/snes/tutorials))
TUTORIAL_PROGS  := $(if $(PETSC_TUTORIALS),$(patsubst %,build/tutorials/ksp_%,$(notdir $(basename $(wildcard $(addprefix $(PETSC_TUTORIALS)/,ex2.c ex45.c ex56.c))))))
TUTORIAL_PROGS  += $(if $(PETSC_SNES_TUTORIALS),$(patsubst %,build/tutorials/snes_%,$(notdir $(basename $(wildcard $(addprefix $(PETSC_SNES_TUTORIALS)/,ex19.c))))))
# ksp ex34: pure Neumann 3D Laplacian (cell-centred, null space attached); the launch step of tools/gpu-session.sh
TUTORIAL_PROGS  += $(if $(PETSC_TUTORIALS),$(patsubst %,build/tutorials/ksp_%,$(notdir $(basename $(wildcard $(PETSC_TUTORIALS)/ex34.c)))))
PROG_LDFLAGS   = -L$(LIBDIR) -Wl,-rpath,'$$ORIGIN/../../$(LIBDIR)' -Wl,-rpath,$(abspath $(LIBDIR)) -lpetscgpupc $(PETSC_LIB) $(CUDA_LIBS)

.PHONY: all lib programs check demo install gpu-bundle clean format format-check
all: lib programs
lib: $(LIBNAME)
programs: $(TEST_PROGS) $(BENCH_PROGS) $(EXAMPLE_PROGS) $(TUTORIAL_PROGS)

$(OBJDIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(PCC) $(GPUPC_CFLAGS) $(GPUPC_CPPFLAGS) -MMD -MP -c $< -o $@

$(OBJDIR)/%.cu.o: %.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCC_FLAGS) $(GPUPC_CPPFLAGS) -MMD -MP -c $< -o $@

$(LIBNAME): $(LIB_OBJS)
	@mkdir -p $(LIBDIR)
	$(PCC) -shared -o $@ $(LIB_OBJS) $(OPENMP_FLAGS) $(PETSC_LIB) $(CUDA_LIBS)

build/tests/% build/bench/% build/bin/%: $(OBJDIR)/progs/%.o $(LIBNAME)
	@mkdir -p $(dir $@)
	$(PCC) -o $@ $< $(PROG_LDFLAGS)

$(OBJDIR)/progs/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(PCC) $(GPUPC_CFLAGS) $(GPUPC_CPPFLAGS) -Itests -MMD -MP -c $< -o $@
$(OBJDIR)/progs/%.o: bench/%.c
	@mkdir -p $(dir $@)
	$(PCC) $(GPUPC_CFLAGS) $(GPUPC_CPPFLAGS) -Ibench -MMD -MP -c $< -o $@
$(OBJDIR)/progs/%.o: examples/%.c
	@mkdir -p $(dir $@)
	$(PCC) $(GPUPC_CFLAGS) $(GPUPC_CPPFLAGS) -MMD -MP -c $< -o $@

build/tutorials/ksp_%: $(PETSC_TUTORIALS)/%.c
	@mkdir -p $(dir $@)
	$(PCC) $(OPTFLAGS) $(PETSC_CC_INCLUDES) -o $@ $< $(PETSC_LIB)
build/tutorials/snes_%: $(PETSC_SNES_TUTORIALS)/%.c
	@mkdir -p $(dir $@)
	$(PCC) $(OPTFLAGS) $(PETSC_CC_INCLUDES) -o $@ $< $(PETSC_LIB)

.SECONDARY:

check: all format-check
	@MPIEXEC="$(MPIEXEC)" tests/run.sh

# the tree follows .clang-format (close to PETSc's style); format rewrites, format-check lists what differs
CLANG_FORMAT ?= clang-format
FORMAT_FILES = $(shell git ls-files '*.c' '*.h' '*.cu' 2>/dev/null || find src include tests bench examples -name '*.[ch]' -o -name '*.cu')
format:
	@$(CLANG_FORMAT) -i $(FORMAT_FILES)
format-check:
	@command -v $(CLANG_FORMAT) >/dev/null || { echo "format-check needs $(CLANG_FORMAT) (Debian package clang-format; tools/install-deps.sh installs it)"; exit 1; }
	@bad=$$(for f in $(FORMAT_FILES); do $(CLANG_FORMAT) "$$f" | cmp -s - "$$f" || echo "$$f"; done); \
	if [ -n "$$bad" ]; then echo "not formatted as .clang-format says (make format fixes them):"; echo "$$bad"; exit 1; fi; \
	echo "format-check: $(words $(FORMAT_FILES)) files follow .clang-format"

demo: all
	@tools/demo.sh

install: lib
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include
	install -m 644 $(LIBNAME) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/petscgpupc.h $(DESTDIR)$(PREFIX)/include/
	@if [ -n "$(wildcard build/bin/*)" ]; then install -d $(DESTDIR)$(PREFIX)/bin && install -m 755 $(wildcard build/bin/*) $(DESTDIR)$(PREFIX)/bin/; fi
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@PETSC_DIR@|$(PETSC_DIR)|' conf/petscgpupc.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/petscgpupc.pc

gpu-bundle: all
	@tools/make-gpu-bundle.sh

clean:
	rm -rf build $(LIBDIR)

-include $(shell find build/obj -name '*.d' 2>/dev/null)
