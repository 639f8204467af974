static const char help[] = "SPICE power-grid netlists: the synthetic writer's file read back equals the powergrid\n"
                           "generator (matrix and right-hand side), a hand-written netlist with SPICE suffixes gives the\n"
                           "known node voltages, and malformed netlists give errors naming the line or node.\n"
                           "  -n <nodes> size of the written grid\n";

#include <gpupc/problems.h>
#include "gpupctest.h"

static PetscErrorCode ExpectFailure(const char text[], const char expect[])
{
  Mat            A = NULL;
  Vec            b = NULL;
  PetscErrorCode ierr;
  char          *msg = NULL;

  PetscFunctionBegin;
  PetscCall(TestWriteText(PETSC_COMM_WORLD, "netlist_bad.sp", text));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = GPUPCMatLoadNetlist(PETSC_COMM_WORLD, "netlist_bad.sp", &A, &b); /* expected to fail */
  PetscCall(PetscPopErrorHandler());
  PetscCheck(ierr, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "malformed netlist was accepted:\n%s", text);
  PetscCall(PetscErrorMessage(ierr, NULL, &msg));
  PetscCheck(msg && strstr(msg, expect), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "error message \"%s\" does not contain \"%s\"", msg ? msg : "(none)", expect);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "refused as expected: %s\n", msg));
  PetscCall(MatDestroy(&A));
  PetscCall(VecDestroy(&b));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Mat       A, B;
  Vec       b, c, x;
  PetscInt  n = 2000, M, N;
  PetscReal nA, nd, nb;
  KSP       ksp;
  PetscBool sym, set;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));

  /* round trip: generator vs its netlist */
  PetscCall(GPUPCNetlistWritePowerGrid(PETSC_COMM_WORLD, "netlist_pg.sp", n, 11));
  PetscCall(GPUPCMatLoadNetlist(PETSC_COMM_WORLD, "netlist_pg.sp", &B, &c));
  PetscCall(GPUPCProblemCreate(PETSC_COMM_WORLD, "powergrid", n, 11, &A, &b));
  PetscCall(MatGetSize(A, &M, NULL));
  PetscCall(MatGetSize(B, &N, NULL));
  PetscCheck(M == N, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "netlist has %" PetscInt_FMT " unknowns, the generator %" PetscInt_FMT, N, M);
  PetscCall(MatIsSymmetricKnown(B, &set, &sym));
  PetscCheck(set && sym, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the netlist matrix is not flagged symmetric");
  PetscCall(MatNorm(A, NORM_FROBENIUS, &nA));
  PetscCall(MatAXPY(B, -1.0, A, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(B, NORM_FROBENIUS, &nd));
  PetscCheck(nd <= 1e-13 * nA, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "netlist matrix differs from the generator's: ||B - A|| / ||A|| = %g", (double)(nd / nA));
  TestCheckVec(c, b, 1e-13, "netlist right-hand side vs generator");
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "powergrid %" PetscInt_FMT " nodes: netlist read back equals the generator (rel. difference %g)\n", N, (double)(nd / nA)));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&B));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&c));

  /* a small circuit with a known answer: Vdd=1 V at a through 1k to b, 1k from b to ground,
     0.25 mA sink at b, 2k from b to c, c floats otherwise: v(b) = v(c) = 0.375 V */
  PetscCall(TestWriteText(PETSC_COMM_WORLD, "netlist_small.sp",
                          "* hand-written\n"
                          "V1 a 0 DC 1\n"
                          "r1 a b 1k\n"
                          "R2 b GND 1000ohm\n"
                          "Isink b 0 0.25m\n"
                          "R3 b c 2K\n"
                          "C1 c 0 1p\n"
                          ".op\n"
                          ".end\n"
                          "R4 c 0 1\n"));
  PetscCall(GPUPCMatLoadNetlist(PETSC_COMM_WORLD, "netlist_small.sp", &A, &b));
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCheck(N == 2, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "small netlist: %" PetscInt_FMT " unknowns, expected 2 (b and c)", N);
  PetscCall(MatCreateVecs(A, &x, &c));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPSetTolerances(ksp, 1e-14, 1e-20, PETSC_DEFAULT, 100));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(VecSet(c, 0.375));
  TestCheckVec(x, c, 1e-10, "node voltages of the small netlist");
  PetscCall(VecNorm(b, NORM_1, &nb));
  TestCheckScalar(nb, 1e-3 - 0.25e-3, 1e-14, "|b| of the small netlist");
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&c));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));

  PetscCall(ExpectFailure("V1 a 0 1\nR1 a b 1\nQ1 b 0 1\n", "netlist_bad.sp:3: element Q1"));
  PetscCall(ExpectFailure("V1 a 0 1\nR1 a b -5\n", "netlist_bad.sp:2: resistor R1 has resistance -5"));
  PetscCall(ExpectFailure("V1 a 0 1\nR1 a b 1x2\n", "netlist_bad.sp:2: element R1: \"1x2\" is not a number"));
  PetscCall(ExpectFailure("V1 a 0 1\nR1 a b\n", "netlist_bad.sp:2: element R1 needs exactly"));
  PetscCall(ExpectFailure("V1 a 0 1\nL1 a b 1n\n", "netlist_bad.sp:2: inductor L1"));
  PetscCall(ExpectFailure("V1 a b 1\nR1 a b 1\nR2 b 0 1\n", "netlist_bad.sp:1: voltage source between nodes a and b"));
  PetscCall(ExpectFailure("V1 a 0 1\nR1 a b 1\nV2 a 0 2\nR2 b 0 1\n", "netlist_bad.sp:3: node a is held at"));
  PetscCall(ExpectFailure("V1 a 0 1\nR1 a b 1\nR2 c d 1\n", "node c (and the nodes connected to it) has no resistive path"));
  PetscCall(ExpectFailure("V1 a 0 1\n+ more\n", "netlist_bad.sp:2: continuation lines"));
  PetscCall(ExpectFailure("* only sources\nV1 a 0 1\n", "no unknown node voltages"));
  PetscCall(PetscFinalize());
  return 0;
}
