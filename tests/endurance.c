static const char help[] = "Endurance (issue 34 item 7): set up and solve -cycles times with new values on the same pattern; the host memory\n"
                           "(PetscMallocGetCurrentUsage, needs -malloc_debug) and GPUPC's device memory (PetscGPUPCDeviceMemoryInUse, the IPC\n"
                           "halo buffers included) must never exceed their values after the first cycle, must be the same after every cycle\n"
                           "from the second on (a first reuse may free what only a first setup holds), and must return to their start values\n"
                           "(after a warm-up solve) when the solver is destroyed.\n"
                           "  -n <n>              2D Laplacian on an n x n grid (default 40); -mat_type and -pc_type choose the types\n"
                           "  -cycles <c>         setups and solves (default 5)\n"
                           "  -fresh_ksp          a new KSP every cycle (default: one KSP, new values each cycle)\n"
                           "  -once_tolerance <bytes>  tolerate this much between cycle 1 and cycle 2 and between the start and the end\n"
                           "                     (one-time allocations; several ranks: see bench/NOTES.md); cycles 3.. must still equal cycle 2\n"
                           "  -inject_leak <host,device>  leak 1 kB in cycle 3: the check must catch it (self-check of the test)\n"
                           "  -dump_cycles <prefix>  the host allocations after cycles 1 and 2 (PetscMallocDump) into <prefix>1.txt and\n"
                           "                     <prefix>2.txt: what a growth report is made of\n";

#include <petscksp.h>
#include <petscgpupc.h>
#include <gpupc/device.h>

/* the values of cycle k: the Dirichlet Laplacian scaled by 1 + k/10 (the pattern stays). Every row keeps its kind in
   every cycle (interior rows sum to zero, boundary rows are strictly dominant), so what PC cmg reduces keeps its
   structure and every cycle after the first is a value-only reuse. (A diagonal raised by k/100, as this test had,
   turned the interior rows strictly dominant from cycle 2 on: cmg then rebuilt a larger hierarchy in cycle 2, which
   the check took for growth. Weights varying from edge to edge made PETSc's per-object cache of norms,
   PetscObjectComposedDataIncreaseReal, grow by 160 bytes in cycles 2 and 3 with cmg and gpuamg alike.) */
static PetscErrorCode Fill(Mat A, PetscInt n, PetscInt k)
{
  PetscInt  rs, re;
  PetscReal s = 1.0 + 0.1 * (PetscReal)k;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  for (PetscInt r = rs; r < re; r++) {
    PetscInt    i = r % n, j = r / n, cols[5], nc = 1, nb[4], inside[4];
    PetscScalar v[5], d = 0.0;

    nb[0]     = r - 1;
    inside[0] = i > 0;
    nb[1]     = r + 1;
    inside[1] = i < n - 1;
    nb[2]     = r - n;
    inside[2] = j > 0;
    nb[3]     = r + n;
    inside[3] = j < n - 1;
    for (PetscInt q = 0; q < 4; q++) {
      if (!inside[q]) {
        d += s;
        continue;
      }
      cols[nc] = nb[q];
      v[nc]    = -s;
      d -= v[nc++];
    }
    cols[0] = r;
    v[0]    = d;
    PetscCall(MatSetValues(A, 1, &r, nc, cols, v, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

static PetscErrorCode NewKSP(Mat A, KSP *ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, ksp));
  PetscCall(KSPSetType(*ksp, KSPGMRES));
  PetscCall(KSPSetOperators(*ksp, A, A));
  PetscCall(KSPSetTolerances(*ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 500));
  PetscCall(KSPSetFromOptions(*ksp));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt       n = 40, cycles = 5, nleaks = 0;
  PetscReal      once     = 0.0;
  PetscBool      fresh    = PETSC_FALSE, inject, dumps;
  char           leak[16] = "", dump[PETSC_MAX_PATH_LEN] = "";
  Mat            A;
  Vec            x, b;
  KSP            ksp = NULL;
  PetscLogDouble h0, h1 = 0, h2 = 0, h;
  size_t         d0, d1 = 0, d2 = 0, d;
  void          *hleak = NULL, *dleak = NULL;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-cycles", &cycles, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-fresh_ksp", &fresh, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-once_tolerance", &once, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-inject_leak", leak, sizeof(leak), &inject));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-dump_cycles", dump, sizeof(dump), &dumps));
  PetscCheck(n >= 2 && cycles >= 2, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-n and -cycles must be at least 2");
  PetscCheck(!inject || cycles >= 3, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-inject_leak needs -cycles 3 or more (the leak is made in cycle 3)");
  PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
  PetscCall(MatSetSizes(A, PETSC_DECIDE, PETSC_DECIDE, n * n, n * n));
  PetscCall(MatSetFromOptions(A));
  PetscCall(MatXAIJSetPreallocation(A, 1, NULL, NULL, NULL, NULL));
  PetscCall(MatSeqAIJSetPreallocation(A, 5, NULL));
  PetscCall(MatMPIAIJSetPreallocation(A, 5, NULL, 2, NULL));
  PetscCall(Fill(A, n, 0));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));
  { /* warm-up: one setup and solve with a KSP destroyed again, so what PETSc and GPUPC register once (classes, log
       events, option tables, the operator's device copy) is in the start values; then a second
       assembly, as every cycle makes one */
    PetscCall(NewKSP(A, &ksp));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(KSPDestroy(&ksp));
    PetscCall(Fill(A, n, 0)); /* a second assembly: what the MPI matrix keeps from its first reassembly is in the start */
  }
  PetscCall(PetscMallocGetCurrentUsage(&h0));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&d0));
  PetscCheck(h0 > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONGSTATE, "host usage 0: run with -malloc_debug (PetscMallocGetCurrentUsage counts only then)");
  for (PetscInt k = 1; k <= cycles; k++) {
    KSPConvergedReason reason;
    PetscInt           its;
    if (k > 1) PetscCall(Fill(A, n, k));
    if (!ksp) PetscCall(NewKSP(A, &ksp));
    PetscCall(VecZeroEntries(x));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(KSPGetConvergedReason(ksp, &reason));
    PetscCall(KSPGetIterationNumber(ksp, &its));
    PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "cycle %" PetscInt_FMT ": %s", k, KSPConvergedReasons[reason]);
    if (fresh) PetscCall(KSPDestroy(&ksp));
    if (k == 3 && inject) {
      if (!strcmp(leak, "device")) PetscCall(GPUPCMalloc(1024, &dleak));
      else PetscCall(PetscMalloc(1024, &hleak));
    }
    PetscCall(PetscMallocGetCurrentUsage(&h));
    PetscCall(PetscGPUPCDeviceMemoryInUse(&d));
    if (dumps && k <= 2) {
      char        name[PETSC_MAX_PATH_LEN + 32];
      FILE       *fp;
      PetscMPIInt rank;
      PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
      PetscCall(PetscSNPrintf(name, sizeof(name), "%s%" PetscInt_FMT "_rank%d.txt", dump, k, (int)rank));
      PetscCall(PetscFOpen(PETSC_COMM_SELF, name, "w", &fp));
      PetscCall(PetscMallocDump(fp));
      PetscCall(PetscFClose(PETSC_COMM_SELF, fp));
    }
    if (k == 1) {
      h1 = h;
      d1 = d;
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "cycle 1: %" PetscInt_FMT " iterations; host %.0f bytes, device %zu bytes (start: %.0f, %zu)\n", its, h, d, h0, d0));
    } else if (k == 2) { /* the first reuse may free what only a first setup holds (cmg: build scratch), never add */
      if (h > h1 + once || (PetscLogDouble)d > (PetscLogDouble)d1 + once) nleaks++;
      if (h != h1 || d != d1) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "cycle 2: host %.0f bytes, device %zu bytes: the steady level from here on\n", h, d));
      h2 = h;
      d2 = d;
    } else if (h != h2 || d != d2) {
      nleaks++;
      PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "[cycle %" PetscInt_FMT "] host %.0f bytes (cycle 2: %.0f), device %zu bytes (cycle 2: %zu)\n", k, h, h2, d, d2));
      PetscCall(PetscSynchronizedFlush(PETSC_COMM_WORLD, PETSC_STDOUT));
    }
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(PetscFree(hleak));
  PetscCall(GPUPCFree(dleak));
  PetscCall(PetscMallocGetCurrentUsage(&h));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&d));
  if (PetscAbsReal((PetscReal)(h - h0)) > once || PetscAbsReal((PetscReal)d - (PetscReal)d0) > once) nleaks++;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "end: host %.0f bytes (start %.0f), device %zu bytes (start %zu)\n", h, h0, d, d0));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &nleaks, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  if (inject) {
    PetscCheck(nleaks > 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the injected %s leak was not detected", leak);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "the injected %s leak was detected\n", leak));
  } else {
    PetscCheck(nleaks == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "memory grew over the cycles (%" PetscInt_FMT " reports above)", nleaks);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " cycles: host and device memory never above the first cycle's level, the same every cycle from the second on, back to the start at the end%s\n", cycles, once > 0.0 ? " (cycle 2 and the end within -once_tolerance)" : ""));
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
