static const char help[] = "gpupc-solve: solve a linear system from a file, a SPICE power-grid netlist or a built-in\n"
                           "problem with the KSP and PC of the options, and print one summary line.\n"
                           "  -f <A.mtx|A.bin>   Matrix Market or PETSc binary matrix\n"
                           "  -netlist <grid.sp> SPICE power-grid netlist (R, V, I elements)\n"
                           "  -problem <name> -n <rows> -seed <s>   built-in problem (default powergrid, n 1000000; -help lists them below)\n"
                           "  -rhs <file> -repeat <k> -view_solution <viewer> -write_netlist <file> -write_mtx <file>\n"
                           "Summary: gpupc-solve: problem= n= nnz= ranks= ksp= pc= its= reason= setup_s= solve_s= relres= backend=\n";

#include <gpupc/problems.h>

int main(int argc, char **argv)
{
  GPUPCSolveSummary s;
  char              line[2 * PETSC_MAX_PATH_LEN];

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(GPUPCSolveRun(PETSC_COMM_WORLD, &s));
  PetscCall(GPUPCSolveSummaryFormat(&s, line, sizeof(line)));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", line));
  PetscCall(PetscFinalize());
  return 0;
}
