static const char help[] = "gpupc-solve's core and summary line: format/parse round trip, malformed lines refused,\n"
                           "and GPUPCSolveRun on a built-in problem, on a Matrix Market file and on a netlist\n"
                           "(each loaded in parallel), checking every field of the line it produces.\n";

#include <gpupc/problems.h>
#include "gpupctest.h"

static PetscErrorCode ExpectParseFailure(const char line[])
{
  GPUPCSolveSummary s;
  PetscErrorCode    ierr;

  PetscFunctionBegin;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = GPUPCSolveSummaryParse(line, &s); /* expected to fail */
  PetscCall(PetscPopErrorHandler());
  PetscCheck(ierr, PETSC_COMM_SELF, PETSC_ERR_PLIB, "malformed summary line was accepted: %s", line);
  PetscFunctionReturn(0);
}

/* runs the driver core with the given options (added to, then removed from, the database) */
static PetscErrorCode Run(const char opts[], GPUPCSolveSummary *s)
{
  char              line[2 * PETSC_MAX_PATH_LEN];
  GPUPCSolveSummary p;
  PetscMPIInt       size;
  PetscOptions      o;

  PetscFunctionBegin;
  PetscCall(PetscOptionsCreate(&o));
  PetscCall(PetscOptionsInsertString(o, opts));
  PetscCall(PetscOptionsPush(o));
  PetscCall(GPUPCSolveRun(PETSC_COMM_WORLD, s));
  PetscCall(PetscOptionsPop());
  PetscCall(PetscOptionsDestroy(&o));
  PetscCall(GPUPCSolveSummaryFormat(s, line, sizeof(line)));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", line));
  PetscCall(GPUPCSolveSummaryParse(line, &p));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(p.ranks == size && p.n == s->n && p.nnz == s->nnz && p.its == s->its && p.reason == s->reason && !strcmp(p.ksp, s->ksp) && !strcmp(p.pc, s->pc), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "summary line does not carry the run's values: %s", line);
  PetscCheck(s->reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "run %s did not converge: %s", opts, KSPConvergedReasons[s->reason]);
  PetscCheck(s->relres < 1e-6 && s->relres > 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "run %s: true relative residual %g", opts, (double)s->relres);
  PetscCheck(s->setup_s >= 0 && s->solve_s > 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "run %s: times not measured", opts);
  {
    PetscGPUPCBackend backend;
    PetscCall(PetscGPUPCGetBackend(&backend));
    PetscCheck(backend == PETSC_GPUPC_BACKEND_CUDA ? !strncmp(p.backend, "cuda:", 5) && p.backend[5] : !strcmp(p.backend, "host"), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "run %s: backend=%s, but the %s backend ran", opts, p.backend, PetscGPUPCBackends[backend]);
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  GPUPCSolveSummary s, p, q;
  char              line[2 * PETSC_MAX_PATH_LEN];
  Mat               A;
  Vec               b;
  PetscInt          its_gen;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());

  /* format / parse */
  PetscCall(PetscMemzero(&s, sizeof(s)));
  PetscCall(PetscStrncpy(s.problem, "my matrix=1.mtx", sizeof(s.problem)));
  s.n       = 1234567;
  s.nnz     = 98765432101LL;
  s.ranks   = 4;
  s.its     = 42;
  s.reason  = KSP_CONVERGED_RTOL;
  s.setup_s = 0.125;
  s.solve_s = 2.5;
  s.relres  = 3.25e-9;
  PetscCall(PetscStrncpy(s.backend, "cuda:NVIDIA H100 80GB HBM3", sizeof(s.backend)));
  PetscCall(PetscStrncpy(s.ksp, "cg", sizeof(s.ksp)));
  PetscCall(PetscStrncpy(s.pc, "jacobi", sizeof(s.pc)));
  PetscCall(GPUPCSolveSummaryFormat(&s, line, sizeof(line)));
  PetscCheck(!strcmp(line, "gpupc-solve: problem=my_matrix_1.mtx n=1234567 nnz=98765432101 ranks=4 ksp=cg pc=jacobi its=42 reason=CONVERGED_RTOL setup_s=0.125 solve_s=2.5 relres=3.250e-09 backend=cuda:NVIDIA_H100_80GB_HBM3"), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "summary line format changed: %s", line);
  PetscCall(GPUPCSolveSummaryParse(line, &p));
  PetscCheck(!strcmp(p.problem, "my_matrix_1.mtx") && p.n == s.n && p.nnz == s.nnz && p.ranks == 4 && p.its == 42 && p.reason == s.reason && p.setup_s == s.setup_s && p.solve_s == s.solve_s && p.relres == s.relres && !strcmp(p.backend, "cuda:NVIDIA_H100_80GB_HBM3"), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "parse(format(s)) != s");
  s.reason = KSP_DIVERGED_ITS;
  PetscCall(GPUPCSolveSummaryFormat(&s, line, sizeof(line)));
  PetscCall(GPUPCSolveSummaryParse(line, &p));
  PetscCheck(p.reason == KSP_DIVERGED_ITS, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "diverged reason lost: %s", line);
  PetscCall(ExpectParseFailure("solve: problem=a n=1"));
  PetscCall(ExpectParseFailure("gpupc-solve: problem=a n=1 nnz=2 ranks=1 ksp=cg pc=none its=3 reason=CONVERGED_RTOL setup_s=1 solve_s=1 relres=1"));
  PetscCall(ExpectParseFailure("gpupc-solve: problem=a n=1 nnz=2 ranks=1 ksp=cg pc=none its=3 reason=CONVERGED_RTOL setup_s=1 solve_s=1"));
  PetscCall(ExpectParseFailure("gpupc-solve: problem=a n=x nnz=2 ranks=1 ksp=cg pc=none its=3 reason=CONVERGED_RTOL setup_s=1 solve_s=1 relres=1"));
  PetscCall(ExpectParseFailure("gpupc-solve: problem=a n=1 nnz=2 ranks=1 ksp=cg pc=none its=3 reason=CONVERGED_SOON setup_s=1 solve_s=1 relres=1"));
  PetscCall(ExpectParseFailure("gpupc-solve: n=1 problem=a nnz=2 ranks=1 ksp=cg pc=none its=3 reason=CONVERGED_RTOL setup_s=1 solve_s=1 relres=1"));

  /* the driver core on a built-in problem, with -repeat */
  PetscCall(Run("-problem poisson2d -n 400 -seed 3 -ksp_type cg -pc_type jacobi -repeat 3", &s));
  PetscCheck(s.n == 400 && s.nnz == 5 * 400 - 4 * 20 && !strcmp(s.ksp, "cg") && !strcmp(s.pc, "jacobi") && !strcmp(s.problem, "poisson2d"), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "poisson2d run: wrong problem, size, nnz or types");
  /* default KSP for a nonsymmetric problem is gmres */
  PetscCall(Run("-problem convdiff2d -n 400 -pc_type jacobi", &s));
  PetscCheck(!strcmp(s.ksp, "gmres"), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "default KSP for convdiff2d is %s, expected gmres", s.ksp);

  /* the same powergrid through the generator, a Matrix Market file (+ rhs file) and a netlist */
  PetscCall(Run("-problem powergrid -n 3000 -seed 5 -pc_type jacobi -write_netlist solve_pg.sp -write_mtx solve_pg.mtx", &s));
  its_gen = s.its;
  PetscCall(GPUPCProblemCreate(PETSC_COMM_WORLD, "powergrid", 3000, 5, &A, &b));
  PetscCall(GPUPCVecWriteMatrixMarket(b, "solve_pg_b.mtx"));
  PetscCall(MatDestroy(&A));
  PetscCall(VecDestroy(&b));
  PetscCall(Run("-f solve_pg.mtx -rhs solve_pg_b.mtx -pc_type jacobi -view_solution binary:solve_x.bin", &p));
  PetscCall(Run("-netlist solve_pg.sp -pc_type jacobi", &q));
  PetscCheck(p.n == s.n && q.n == s.n && p.nnz == s.nnz && q.nnz == s.nnz, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "powergrid sizes differ between generator, Matrix Market file and netlist");
  PetscCheck(!strcmp(p.ksp, "cg") && !strcmp(q.ksp, "cg") && !strcmp(p.problem, "solve_pg.mtx") && !strcmp(q.problem, "solve_pg.sp"), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "file runs: wrong name or default KSP");
  PetscCheck(p.its == its_gen && PetscAbsInt(q.its - its_gen) <= 2, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "iterations: generator %" PetscInt_FMT ", Matrix Market %" PetscInt_FMT ", netlist %" PetscInt_FMT, its_gen, p.its, q.its);
  /* -view_solution wrote the solution: it solves the system */
  {
    Vec       x, r;
    PetscReal rn, bn;
    PetscCall(GPUPCMatLoadFile(PETSC_COMM_WORLD, "solve_pg.mtx", &A, NULL, NULL));
    PetscCall(GPUPCVecLoadFile(PETSC_COMM_WORLD, "solve_pg_b.mtx", p.n, &b));
    PetscCall(GPUPCVecLoadFile(PETSC_COMM_WORLD, "solve_x.bin", p.n, &x));
    PetscCall(VecDuplicate(b, &r));
    PetscCall(MatMult(A, x, r));
    PetscCall(VecAXPY(r, -1.0, b));
    PetscCall(VecNorm(r, NORM_2, &rn));
    PetscCall(VecNorm(b, NORM_2, &bn));
    PetscCheck(rn <= 1e-6 * bn, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the solution written by -view_solution has relative residual %g", (double)(rn / bn));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&r));
    PetscCall(VecDestroy(&b));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(PetscFinalize());
  return 0;
}
