/*
   The summary line of gpupc-solve: formatting and parsing (the tests and the benchmark
   scripts read it back). Format, one line, fields in this order, separated by one blank:

     gpupc-solve: problem=S n=I nnz=I ranks=I ksp=S pc=S its=I reason=S setup_s=R solve_s=R relres=R backend=S
*/
#include <gpupc/problems.h>
#include <string.h>
#include <stdlib.h>

/*@C
   GPUPCSolveSummaryFormat - formats the one-line summary of a solve

   Not Collective

   Input Parameters:
+  s - the summary
-  len - size of the buffer

   Output Parameter:
.  line - the line, without a newline: "gpupc-solve: problem=... n=... nnz=... ranks=... ksp=...
          pc=... its=... reason=... setup_s=... solve_s=... relres=... backend=..."

   Notes:
   Blanks and '=' in the problem name and the backend are written as '_' so the line splits on blanks.
   Times have 4 significant digits, relres 3 decimals in exponent form.

   Level: beginner

.seealso: GPUPCSolveSummaryParse(), GPUPCSolveSummary
@*/
PetscErrorCode GPUPCSolveSummaryFormat(const GPUPCSolveSummary *s, char line[], size_t len)
{
  char        name[PETSC_MAX_PATH_LEN], backend[sizeof(s->backend)];
  const char *reason;
  size_t      used;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(name, s->problem[0] ? s->problem : "unnamed", sizeof(name)));
  for (char *c = name; *c; c++)
    if (*c == ' ' || *c == '\t' || *c == '=' || *c == '\n') *c = '_';
  PetscCall(PetscStrncpy(backend, s->backend[0] ? s->backend : "unknown", sizeof(backend)));
  for (char *c = backend; *c; c++)
    if (*c == ' ' || *c == '\t' || *c == '=' || *c == '\n') *c = '_';
  PetscCheck(s->reason >= KSP_DIVERGED_PC_FAILED && s->reason <= KSP_CONVERGED_ATOL_NORMAL, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown KSPConvergedReason %d", (int)s->reason);
  reason = KSPConvergedReasons[s->reason];
  PetscCall(PetscSNPrintfCount(line, len,
                               "gpupc-solve: problem=%s n=%" PetscInt_FMT " nnz=%" PetscInt64_FMT " ranks=%d ksp=%s pc=%s its=%" PetscInt_FMT " reason=%s setup_s=%.4g solve_s=%.4g relres=%.3e backend=%s",
                               &used, name, s->n, s->nnz, (int)s->ranks, s->ksp, s->pc, s->its, reason, (double)s->setup_s, (double)s->solve_s, (double)s->relres, backend));
  PetscCheck(used < len, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Summary line needs %zu characters, the buffer has %zu", used + 1, len);
  PetscFunctionReturn(0);
}

static PetscErrorCode ParseInt64(const char key[], const char v[], PetscInt64 *out)
{
  char *end;

  PetscFunctionBegin;
  *out = strtoll(v, &end, 10);
  PetscCheck(end != v && !*end, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Summary line: %s=%s is not an integer", key, v);
  PetscFunctionReturn(0);
}

static PetscErrorCode ParseReal(const char key[], const char v[], PetscReal *out)
{
  char *end;

  PetscFunctionBegin;
  *out = (PetscReal)strtod(v, &end);
  PetscCheck(end != v && !*end, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Summary line: %s=%s is not a number", key, v);
  PetscFunctionReturn(0);
}

/*@C
   GPUPCSolveSummaryParse - reads a summary line written by GPUPCSolveSummaryFormat()

   Not Collective

   Input Parameter:
.  line - the line (a trailing newline is allowed)

   Output Parameter:
.  s - the fields

   Notes:
   Every field of the format must be present, each once, in the documented order; unknown
   keys after them are an error too, so a format change is noticed by the tests.

   Level: intermediate

.seealso: GPUPCSolveSummaryFormat()
@*/
PetscErrorCode GPUPCSolveSummaryParse(const char line[], GPUPCSolveSummary *s)
{
  static const char *keys[] = {"problem", "n", "nnz", "ranks", "ksp", "pc", "its", "reason", "setup_s", "solve_s", "relres", "backend"};
  const int          nkeys  = (int)(sizeof(keys) / sizeof(keys[0]));
  char               buf[2 * PETSC_MAX_PATH_LEN], *tok, *save = NULL;
  int                k = 0;
  PetscInt64         iv;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(s, sizeof(*s)));
  PetscCall(PetscStrncpy(buf, line, sizeof(buf)));
  tok = strtok_r(buf, " \n", &save);
  PetscCheck(tok && !strcmp(tok, "gpupc-solve:"), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Summary line must start with \"gpupc-solve:\": %s", line);
  for (tok = strtok_r(NULL, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save), k++) {
    char *eq = strchr(tok, '='), *v;
    PetscCheck(eq, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Summary line: \"%s\" is not key=value", tok);
    *eq = 0;
    v   = eq + 1;
    PetscCheck(k < nkeys, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Summary line: unexpected field %s after backend", tok);
    PetscCheck(!strcmp(tok, keys[k]), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Summary line: field %d is %s, expected %s", k + 1, tok, keys[k]);
    PetscCheck(*v, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Summary line: %s has an empty value", tok);
    switch (k) {
    case 0: PetscCall(PetscStrncpy(s->problem, v, sizeof(s->problem))); break;
    case 1:
      PetscCall(ParseInt64(tok, v, &iv));
      s->n = (PetscInt)iv;
      break;
    case 2: PetscCall(ParseInt64(tok, v, &s->nnz)); break;
    case 3:
      PetscCall(ParseInt64(tok, v, &iv));
      s->ranks = (PetscMPIInt)iv;
      break;
    case 4: PetscCall(PetscStrncpy(s->ksp, v, sizeof(s->ksp))); break;
    case 5: PetscCall(PetscStrncpy(s->pc, v, sizeof(s->pc))); break;
    case 6:
      PetscCall(ParseInt64(tok, v, &iv));
      s->its = (PetscInt)iv;
      break;
    case 7: {
      PetscBool found = PETSC_FALSE;
      for (int r = KSP_DIVERGED_PC_FAILED; r <= KSP_CONVERGED_ATOL_NORMAL && !found; r++)
        if (KSPConvergedReasons[r] && !strcmp(KSPConvergedReasons[r], v)) {
          s->reason = (KSPConvergedReason)r;
          found     = PETSC_TRUE;
        }
      PetscCheck(found, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Summary line: reason=%s is not a KSPConvergedReason", v);
    } break;
    case 8: PetscCall(ParseReal(tok, v, &s->setup_s)); break;
    case 9: PetscCall(ParseReal(tok, v, &s->solve_s)); break;
    case 10: PetscCall(ParseReal(tok, v, &s->relres)); break;
    case 11: PetscCall(PetscStrncpy(s->backend, v, sizeof(s->backend))); break;
    }
  }
  PetscCheck(k == nkeys, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Summary line has %d fields, expected %d (missing %s)", k, nkeys, k < nkeys ? keys[k] : "");
  PetscFunctionReturn(0);
}
