/*
   Host reference implementation of the gpuamg cycle kernels (gpupc/amgkernels.h): plain loops, the semantics the CUDA
   kernels must match.
*/
#include <gpupc/amgkernels.h>

static PetscErrorCode AMGJacobi_Host(PetscInt n, PetscBool zero, const PetscScalar *w, const PetscScalar *b, const PetscScalar *q, PetscScalar *x)
{
  if (zero)
    for (PetscInt i = 0; i < n; i++) x[i] = w[i] * b[i];
  else
    for (PetscInt i = 0; i < n; i++) x[i] += w[i] * (b[i] - q[i]);
  return 0;
}

static PetscErrorCode AMGChebyshev_Host(PetscInt n, PetscBool zero, PetscScalar alpha, PetscScalar beta, const PetscScalar *w, const PetscScalar *b, const PetscScalar *q, PetscScalar *d, PetscScalar *x)
{
  if (zero) {
    for (PetscInt i = 0; i < n; i++) {
      d[i] = beta * w[i] * b[i];
      x[i] = d[i];
    }
  } else {
    for (PetscInt i = 0; i < n; i++) {
      d[i] = (alpha == 0.0 ? 0.0 : alpha * d[i]) + beta * w[i] * (b[i] - q[i]);
      x[i] += d[i];
    }
  }
  return 0;
}

static PetscErrorCode AMGResidual_Host(PetscInt n, const PetscScalar *b, PetscScalar *r)
{
  for (PetscInt i = 0; i < n; i++) r[i] = b[i] - r[i];
  return 0;
}

static PetscErrorCode AMGDenseMult_Host(PetscInt m, PetscBool transpose, const PetscScalar *M, const PetscScalar *x, PetscScalar *y)
{
  if (!transpose) {
    for (PetscInt i = 0; i < m; i++) {
      PetscScalar s = 0.0;
      for (PetscInt j = 0; j < m; j++) s += M[(size_t)i * m + j] * x[j];
      y[i] = s;
    }
  } else {
    for (PetscInt j = 0; j < m; j++) y[j] = 0.0;
    for (PetscInt i = 0; i < m; i++)
      for (PetscInt j = 0; j < m; j++) y[j] += M[(size_t)i * m + j] * x[i];
  }
  return 0;
}

/* x_i += dinv_i (b_i - sum_e aa[e] x[aj[e]]), the terms in row order */
static inline void GSRow(PetscInt i, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const PetscScalar *dinv, const PetscScalar *b, PetscScalar *x)
{
  PetscScalar s = b[i];

  for (PetscInt e = ai[i]; e < ai[i + 1]; e++) s -= aa[e] * x[aj[e]];
  x[i] += dinv[i] * s;
}

/* lanes only shapes the CUDA launch; it is checked here too, so a bad value fails on both tables */
static PetscErrorCode AMGGSColour_Host(PetscInt nr, PetscInt lanes, const PetscInt *rows, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const PetscScalar *dinv, const PetscScalar *b, PetscScalar *x)
{
  PetscFunctionBegin;
  PetscCheck(GPUPCAMGLanesValid(lanes), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "gpuamg gs_colour: %" PetscInt_FMT " lanes per row; 1, 2, 4, 8, 16 or 32", lanes);
  for (PetscInt k = 0; k < nr; k++) GSRow(rows[k], ai, aj, aa, dinv, b, x);
  PetscFunctionReturn(0);
}

static PetscErrorCode AMGGSBlock_Host(PetscInt c0, PetscInt c1, PetscInt dir, PetscInt lanes, const PetscInt *cptr, const PetscInt *rows, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const PetscScalar *dinv, const PetscScalar *b, PetscScalar *x)
{
  const PetscInt nc = c1 - c0, steps = dir == 2 ? 2 * nc : nc;

  PetscFunctionBegin;
  PetscCheck(GPUPCAMGLanesValid(lanes), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "gpuamg gs_block: %" PetscInt_FMT " lanes per row; 1, 2, 4, 8, 16 or 32", lanes);
  PetscCheck(dir >= 0 && dir <= 2 && c0 >= 0 && c1 >= c0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "gpuamg gs_block: colours %" PetscInt_FMT " .. %" PetscInt_FMT ", direction %" PetscInt_FMT " (0, 1 or 2)", c0, c1, dir);
  for (PetscInt t = 0; t < steps; t++) {
    const PetscInt c = GPUPCAMGBlockColour(c0, c1, dir, t);

    for (PetscInt k = cptr[c]; k < cptr[c + 1]; k++) GSRow(rows[k], ai, aj, aa, dinv, b, x);
  }
  PetscFunctionReturn(0);
}

/* the rounds one after the other; in a round the rows in turn (a row of the round reads nothing the round writes) */
static PetscErrorCode AMGColour_Host(PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscInt *ti, const PetscInt *tj, PetscInt *colour, PetscInt *ncolours, PetscInt *rounds)
{
  PetscInt *rnd, done = 0, r = 0, nc = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(PetscMax(n, 1), &rnd));
  for (PetscInt i = 0; i < n; i++) rnd[i] = colour[i] = -1;
  for (; done < n; r++) {
    for (PetscInt i = 0; i < n; i++) {
      PetscInt c;

      if (rnd[i] >= 0) continue;
      c = GPUPCAMGColourRow(i, r, ai, aj, ti, tj, colour, rnd);
      if (c < 0) continue;
      colour[i] = c;
      rnd[i]    = r;
      nc        = PetscMax(nc, c + 1);
      done++;
    }
  }
  PetscCall(PetscFree(rnd));
  *ncolours = nc;
  *rounds   = r;
  PetscFunctionReturn(0);
}

static PetscErrorCode AMGScaling_Host(PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, PetscScalar *dinv, PetscScalar *dl1, PetscReal *gersh, PetscInt *bad)
{
  *gersh = 0.0;
  bad[0] = bad[1] = -1;
  for (PetscInt i = 0; i < n; i++) {
    PetscScalar dii = 0, l1 = 0;
    int         z, f;

    for (PetscInt k = ai[i]; k < ai[i + 1]; k++) {
      if (aj[k] == i) dii += aa[k];
      else l1 += PetscAbsScalar(aa[k]);
    }
    dinv[i] = GPUPCAMGRowScaling(dii, l1, gersh, &dl1[i], &z, &f);
    if (z && bad[0] < 0) bad[0] = i;
    if (f && bad[1] < 0) bad[1] = i;
  }
  return 0;
}

static PetscErrorCode AMGRandom_Host(PetscInt n, PetscInt seed, PetscInt first, PetscScalar *x)
{
  for (PetscInt i = 0; i < n; i++) x[i] = GPUPCAMGRandomSigned(seed, first + i);
  return 0;
}

GPUPC_KERNEL_TABLE_DEFINE(GPUPCAMGKernels, GPUPCAMGKernelsHost, GPUPC_AMG_KERNEL_LIST, "host", _Host);
