/*
   Several test cases in one run of a test program. Starting a process costs about a second of CPU (PETSc, MPI and
   the CUDA libraries), more than many small cases take, so tests/run.sh joins a TESTS line whose MPI sizes are "+"
   to the line above it and passes each line as a group

       { <label> <options ...> }

   The program runs its test body once per group, each time in an options database of its own that holds the
   options outside the groups (the runner's, e.g. -gpupc_backend cuda) followed by the group's (which win), pushed
   for the case and destroyed after it: no case sees another case's options or the values a case sets. Without
   groups the body runs once on the command line's options, as before. A failing case is named; the run stops there.

   Usage:  static PetscErrorCode RunCase(void) { ... the test, options from the current database ... }
           int main(int argc, char **argv) { return TestCasesMain(argc, argv, help, RunCase); }
*/
#ifndef TESTCASES_H
#define TESTCASES_H

#include <petscsys.h>
#include <petscgpupc.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int    n;     /* groups on the command line (0: none) */
  char **label; /* [n] */
  char **opts;  /* [n] the group's options, joined with spaces */
  char **argv;  /* the command line without the groups (what PETSc gets) */
} TestCases;

/* moves the groups "{ label options }" out of the command line; plain malloc: PETSc is not initialized yet */
static inline PetscErrorCode TestCasesSplit(int *argc, char ***argv, TestCases *tc)
{
  int    in = *argc, out = 0;
  char **av = *argv;

  memset(tc, 0, sizeof(*tc));
  tc->argv  = (char **)calloc((size_t)in + 1, sizeof(char *));
  tc->label = (char **)calloc((size_t)in, sizeof(char *));
  tc->opts  = (char **)calloc((size_t)in, sizeof(char *));
  if (!tc->argv || !tc->label || !tc->opts) {
    fprintf(stderr, "TestCasesSplit: out of memory\n");
    return PETSC_ERR_MEM;
  }
  for (int i = 0; i < in; i++) {
    size_t len = 1;
    int    j;
    if (strcmp(av[i], "{")) {
      tc->argv[out++] = av[i];
      continue;
    }
    for (j = i + 1; j < in && strcmp(av[j], "}") && strcmp(av[j], "{"); j++) len += strlen(av[j]) + 1;
    if (j >= in || !strcmp(av[j], "{") || j == i + 1) {
      fprintf(stderr, "TestCasesSplit: argument %d opens a group \"{ <label> <options> }\" that %s\n", i, j == i + 1 ? "has no label" : "is not closed by \"}\"");
      return PETSC_ERR_ARG_WRONG;
    }
    tc->label[tc->n] = av[i + 1];
    tc->opts[tc->n]  = (char *)calloc(len, 1);
    if (!tc->opts[tc->n]) {
      fprintf(stderr, "TestCasesSplit: out of memory\n");
      return PETSC_ERR_MEM;
    }
    for (int k = i + 2; k < j; k++) {
      strcat(tc->opts[tc->n], av[k]);
      strcat(tc->opts[tc->n], " ");
    }
    tc->n++;
    i = j;
  }
  *argc = out;
  *argv = tc->argv;
  return 0;
}

/* runs body once per group (once if there are none), each group with its own pushed options database */
static inline PetscErrorCode TestCasesRun(const TestCases *tc, PetscErrorCode (*body)(void))
{
  PetscFunctionBegin;
  if (!tc->n) {
    PetscCall(body());
    PetscFunctionReturn(0);
  }
  for (int k = 0; k < tc->n; k++) {
    PetscOptions   o;
    char          *all;
    PetscErrorCode ierr;

    PetscCall(PetscOptionsGetAll(NULL, &all));
    PetscCall(PetscOptionsCreate(&o));
    PetscCall(PetscOptionsInsertString(o, all));
    PetscCall(PetscFree(all));
    PetscCall(PetscOptionsInsertString(o, tc->opts[k]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "=== case %s: %s\n", tc->label[k], tc->opts[k]));
    PetscCall(PetscOptionsPush(o));
    ierr = body();
    PetscCall(PetscOptionsPop());
    PetscCall(PetscOptionsDestroy(&o));
    if (ierr) { /* the trace above says what; the cases after it are not run */
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "=== case %s FAILED (%s)\n", tc->label[k], tc->opts[k]));
      PetscCall(ierr);
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "=== case %s: ok\n", tc->label[k]));
  }
  PetscFunctionReturn(0);
}

static inline void TestCasesFree(TestCases *tc)
{
  for (int k = 0; k < tc->n; k++) free(tc->opts[k]);
  free(tc->opts);
  free(tc->label);
  free(tc->argv);
  memset(tc, 0, sizeof(*tc));
}

/* a test program's main: the groups split off, PETSc and GPUPC initialized, body run per group, finalized */
static inline int TestCasesMain(int argc, char **argv, const char help[], PetscErrorCode (*body)(void))
{
  TestCases tc;

  PetscCall(TestCasesSplit(&argc, &argv, &tc));
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(TestCasesRun(&tc, body));
  PetscCall(PetscFinalize());
  TestCasesFree(&tc);
  return 0;
}

#endif
