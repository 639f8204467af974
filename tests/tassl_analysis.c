static const char help[] = "TASSL analysis invariants and triangular solves on random factors of several shapes.\n"
                           "For each shape (chain, star, fan-in, block-diagonal, isolated rows, random lower, random upper) and\n"
                           "sub-graph size: the partition is a permutation into sub-graphs of at most nmax rows, every edge goes\n"
                           "forward (to a later sub-graph level, or later in its own sub-graph), no two edges into a row share a\n"
                           "time slot, internal edges come after every internal edge into their source, every edge is scheduled\n"
                           "once; the tassl, one-launch and level-set kernels of the active backend agree with a host forward or\n"
                           "back substitution, with random b and x permutations.\n";

#include <gpupc/tassl.h>

typedef struct {
  GPUPCTri     T;
  PetscScalar *val, *diag; /* values by entry, diagonal by row (val indexes through fidx = entry, didx = row + nnz) */
  PetscScalar *aa;         /* entries then diagonals, as one "factor" array */
} RandomTri;

/* parents of row i as a list; shape decides them; forward: parents have smaller indices */
static PetscErrorCode MakeTri(const char *shape, PetscInt n, PetscBool forward, PetscRandom rnd, RandomTri *R)
{
  PetscInt *cnt, *col, nnz = 0, cap;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(R, sizeof(*R)));
  cap = 8 * n + 2 * n;
  PetscCall(PetscMalloc2(n + 1, &cnt, cap, &col));
  cnt[0] = 0;
  for (PetscInt t = 0; t < n; t++) {
    /* build in topological index t, mapped to row i below */
    PetscInt  k = 0, tmp[8];
    PetscReal r;
    PetscBool isz, ish, isf, isb, isi, isr, is2, is3;
    PetscCall(PetscStrcmp(shape, "chain", &isz));
    PetscCall(PetscStrcmp(shape, "star", &ish));
    PetscCall(PetscStrcmp(shape, "fanin", &isf));
    PetscCall(PetscStrcmp(shape, "blocks", &isb));
    PetscCall(PetscStrcmp(shape, "isolated", &isi));
    PetscCall(PetscStrcmp(shape, "random", &isr));
    PetscCall(PetscStrcmp(shape, "grid2d", &is2));
    PetscCall(PetscStrcmp(shape, "grid3d", &is3));
    if (is2) { /* 5-point Laplacian's L in the natural ordering: side s, parents west and south */
      const PetscInt sd = (PetscInt)PetscCeilReal(PetscSqrtReal((PetscReal)n));
      if (t % sd) tmp[k++] = t - 1;
      if (t >= sd) tmp[k++] = t - sd;
    }
    if (is3) { /* 7-point Laplacian's L: parents west, south, below */
      PetscInt sd = 1;
      while (sd * sd * sd < n) sd++;
      if (t % sd) tmp[k++] = t - 1;
      if ((t / sd) % sd) tmp[k++] = t - sd;
      if (t >= sd * sd) tmp[k++] = t - sd * sd;
    }
    if (isz && t > 0) tmp[k++] = t - 1;
    if (ish && t > 0) tmp[k++] = 0;
    if (isf && t == n - 1)
      for (PetscInt j = 0; j < n - 1 && k < 8; j++) tmp[k++] = n - 2 - j; /* the last row needs up to 8 others */
    if (isb) {
      const PetscInt b0 = (t / 37) * 37;
      for (PetscInt j = 0; j < 3 && t > b0; j++) {
        PetscCall(PetscRandomGetValueReal(rnd, &r));
        tmp[k++] = b0 + (PetscInt)((0.5 * (r + 1.0)) * (t - b0)) % (t - b0);
      }
    }
    if (isi && t % 3 == 2) tmp[k++] = t - 1; /* pairs, and every third row without edges */
    if (isr)
      for (PetscInt j = 0; j < 4 && t > 0; j++) {
        PetscCall(PetscRandomGetValueReal(rnd, &r));
        if (r < 0.2) continue;
        PetscCall(PetscRandomGetValueReal(rnd, &r));
        PetscInt d = 1 + (PetscInt)(0.5 * (r + 1.0) * PetscMin(t, j == 0 ? 3 : 200));
        tmp[k++]   = t - PetscMin(d, t);
      }
    PetscCall(PetscSortRemoveDupsInt(&k, tmp));
    for (PetscInt j = 0; j < k; j++) col[nnz++] = tmp[j];
    cnt[t + 1] = nnz;
  }
  /* rows in index order: forward keeps t, backward maps t -> n-1-t */
  R->T.n       = n;
  R->T.forward = forward;
  R->T.kind    = forward ? GPUPC_TRI_L : GPUPC_TRI_U;
  PetscCall(PetscMalloc1(n + 1, &R->T.ptr));
  PetscCall(PetscMalloc2(nnz, &R->T.col, nnz, &R->T.fidx));
  PetscCall(PetscMalloc1(n, &R->T.didx));
  PetscCall(PetscMalloc1(nnz + n, &R->aa));
  R->T.ptr[0] = 0;
  for (PetscInt i = 0, c = 0; i < n; i++) {
    const PetscInt t = forward ? i : n - 1 - i;
    for (PetscInt q = cnt[t]; q < cnt[t + 1]; q++, c++) {
      R->T.col[c]  = forward ? col[q] : n - 1 - col[q];
      R->T.fidx[c] = c;
    }
    R->T.ptr[i + 1] = c;
    R->T.didx[i]    = nnz + i;
  }
  for (PetscInt q = 0; q < nnz; q++) {
    PetscReal r;
    PetscCall(PetscRandomGetValueReal(rnd, &r));
    R->aa[q] = r;
  }
  for (PetscInt i = 0; i < n; i++) {
    PetscReal r;
    PetscCall(PetscRandomGetValueReal(rnd, &r));
    R->aa[nnz + i] = (r < 0 ? -1.0 : 1.0) * (1.0 + R->T.ptr[i + 1] - R->T.ptr[i] + PetscAbsReal(r));
  }
  PetscCall(PetscFree2(cnt, col));
  PetscFunctionReturn(0);
}

static PetscErrorCode FreeTri(RandomTri *R)
{
  PetscFunctionBegin;
  PetscCall(GPUPCTriDestroy(&R->T));
  PetscCall(PetscFree(R->aa));
  PetscFunctionReturn(0);
}

/* the invariants of a schedule */
static PetscErrorCode CheckSchedule(const GPUPCTri *T, const GPUPCTasslSchedule *S, const char *what)
{
  const PetscInt n = T->n, nnz = T->ptr[n];
  PetscInt      *pos, *sub, *lev, *seen, *slotof, *lastin;

  PetscFunctionBegin;
  PetscCall(PetscMalloc6(n, &pos, n, &sub, S->nsub, &lev, nnz, &seen, nnz, &slotof, n, &lastin));
  /* permutation and sub-graph sizes */
  for (PetscInt i = 0; i < n; i++) pos[i] = -1;
  PetscCheck(S->subptr[0] == 0 && S->subptr[S->nsub] == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: sub-graphs cover %" PetscInt_FMT " .. %" PetscInt_FMT " of %" PetscInt_FMT " rows", what, S->subptr[0], S->subptr[S->nsub], n);
  for (PetscInt g = 0; g < S->nsub; g++) {
    const PetscInt sz = S->subptr[g + 1] - S->subptr[g];
    PetscCheck(sz >= 1 && sz <= S->nmax, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: sub-graph %" PetscInt_FMT " has %" PetscInt_FMT " rows (nmax %" PetscInt_FMT ")", what, g, sz, S->nmax);
    for (PetscInt k = S->subptr[g]; k < S->subptr[g + 1]; k++) {
      const PetscInt i = S->order[k];
      PetscCheck(i >= 0 && i < n && pos[i] < 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: order is not a permutation at position %" PetscInt_FMT, what, k);
      pos[i] = k;
      sub[i] = g;
    }
  }
  PetscCheck(S->levptr[0] == 0 && S->levptr[S->nlev] == S->nsub, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: levels cover %" PetscInt_FMT " .. %" PetscInt_FMT " of %" PetscInt_FMT " sub-graphs", what, S->levptr[0], S->levptr[S->nlev], S->nsub);
  for (PetscInt l = 0; l < S->nlev; l++) {
    PetscCheck(S->levptr[l + 1] > S->levptr[l], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: level %" PetscInt_FMT " is empty", what, l);
    for (PetscInt g = S->levptr[l]; g < S->levptr[l + 1]; g++) lev[g] = l;
  }
  /* every edge forward: to a later level, or later in its own sub-graph */
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt q = T->ptr[i]; q < T->ptr[i + 1]; q++) {
      const PetscInt j = T->col[q];
      if (sub[j] == sub[i]) PetscCheck(pos[j] < pos[i], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: internal edge %" PetscInt_FMT " -> %" PetscInt_FMT " goes backward in sub-graph %" PetscInt_FMT, what, j, i, sub[i]);
      else {
        PetscBool listed = PETSC_FALSE;
        PetscCheck(lev[sub[j]] < lev[sub[i]], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: edge %" PetscInt_FMT " -> %" PetscInt_FMT " from sub-graph %" PetscInt_FMT " (level %" PetscInt_FMT ") to %" PetscInt_FMT " (level %" PetscInt_FMT ") does not go to a later level", what, j, i, sub[j], lev[sub[j]], sub[i], lev[sub[i]]);
        for (PetscInt d = S->depptr[sub[i]]; d < S->depptr[sub[i] + 1]; d++) listed = (PetscBool)(listed || S->dep[d] == sub[j]);
        PetscCheck(listed, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: sub-graph %" PetscInt_FMT " reads sub-graph %" PetscInt_FMT " without listing it as a dependency", what, sub[i], sub[j]);
      }
    }
  /* every edge scheduled once, in a slot of its target's sub-graph, external iff it crosses sub-graphs */
  for (PetscInt q = 0; q < nnz; q++) seen[q] = 0;
  PetscCheck(S->nedges == nnz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " edges scheduled, %" PetscInt_FMT " in the factor", what, S->nedges, nnz);
  for (PetscInt g = 0; g < S->nsub; g++)
    for (PetscInt s = S->slotptr[g]; s < S->slotptr[g + 1]; s++) {
      const PetscBool ext = (PetscBool)(s - S->slotptr[g] < S->next[g]);
      PetscCheck(S->edgeptr[s + 1] > S->edgeptr[s], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: slot %" PetscInt_FMT " of sub-graph %" PetscInt_FMT " is empty", what, s, g);
      for (PetscInt e = S->edgeptr[s]; e < S->edgeptr[s + 1]; e++) {
        const PetscInt q = S->eent[e], i = S->order[S->subptr[g] + S->etgt[e]], j = T->col[q];
        PetscCheck(q >= 0 && q < nnz && !seen[q]++, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: entry %" PetscInt_FMT " scheduled twice", what, q);
        PetscCheck(q >= T->ptr[i] && q < T->ptr[i + 1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: edge of entry %" PetscInt_FMT " has the wrong target row %" PetscInt_FMT, what, q, i);
        PetscCheck(ext == (PetscBool)(sub[j] != g), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: edge %" PetscInt_FMT " -> %" PetscInt_FMT " is in an %s slot", what, j, i, ext ? "external" : "internal");
        PetscCheck(ext ? S->esrc[e] == j : S->esrc[e] == pos[j] - S->subptr[g], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: edge %" PetscInt_FMT " -> %" PetscInt_FMT " has source %" PetscInt_FMT, what, j, i, S->esrc[e]);
        slotof[q] = s;
        /* no two edges of a slot into one row */
        for (PetscInt e2 = S->edgeptr[s]; e2 < e; e2++) PetscCheck(S->etgt[e2] != S->etgt[e], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: two edges into row %" PetscInt_FMT " share slot %" PetscInt_FMT, what, i, s);
      }
    }
  for (PetscInt q = 0; q < nnz; q++) PetscCheck(seen[q] == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: entry %" PetscInt_FMT " never scheduled", what, q);
  /* an internal edge j -> i comes after every internal edge into j */
  for (PetscInt i = 0; i < n; i++) {
    lastin[i] = -1;
    for (PetscInt q = T->ptr[i]; q < T->ptr[i + 1]; q++)
      if (sub[T->col[q]] == sub[i]) lastin[i] = PetscMax(lastin[i], slotof[q]);
  }
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt q = T->ptr[i]; q < T->ptr[i + 1]; q++)
      if (sub[T->col[q]] == sub[i]) PetscCheck(slotof[q] > lastin[T->col[q]], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: edge %" PetscInt_FMT " -> %" PetscInt_FMT " in slot %" PetscInt_FMT " before row %" PetscInt_FMT " is complete (slot %" PetscInt_FMT ")", what, T->col[q], i, slotof[q], T->col[q], lastin[T->col[q]]);
  PetscCheck(S->C >= 0.0 && S->C <= 1.0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: concurrency %g outside [0, 1]", what, (double)S->C);
  /* level sets: a permutation in which every parent is in an earlier level */
  for (PetscInt l = 0; l < S->nls; l++)
    for (PetscInt k = S->lsptr[l]; k < S->lsptr[l + 1]; k++) lastin[S->lsorder[k]] = l;
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt q = T->ptr[i]; q < T->ptr[i + 1]; q++) PetscCheck(lastin[T->col[q]] < lastin[i], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: level set of row %" PetscInt_FMT " not after its parent %" PetscInt_FMT, what, i, T->col[q]);
  PetscCall(PetscFree6(pos, sub, lev, seen, slotof, lastin));
  PetscFunctionReturn(0);
}

/* grids larger than a sub-graph are cut along the wavefronts: a sub-graph level holds many independent sub-graphs
   and there are several level sets per sub-graph level (a cut along the rows would give a chain: levels = sub-graphs) */
static PetscErrorCode CheckWavefronts(const char *shape, PetscInt n, const GPUPCTasslSchedule *S, const char *what)
{
  PetscBool is2, is3;

  PetscFunctionBegin;
  PetscCall(PetscStrcmp(shape, "grid2d", &is2));
  PetscCall(PetscStrcmp(shape, "grid3d", &is3));
  if ((!is2 && !is3) || S->nmax < 64 || n < 50 * S->nmax) PetscFunctionReturn(0);
  PetscCheck(S->ncoord == (is2 ? 2 : 3), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " coordinates, not the grid's %d", what, S->ncoord, is2 ? 2 : 3);
  PetscCheck(S->nsub >= 3 * S->nlev, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " sub-graphs in %" PetscInt_FMT " sub-graph levels: fewer than 3 a level", what, S->nsub, S->nlev);
  PetscCheck(S->nls >= 2 * S->nlev, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " sub-graph levels for %" PetscInt_FMT " level sets: fewer than 2 level sets a sub-graph level", what, S->nlev, S->nls);
  PetscFunctionReturn(0);
}

/* the three kernels against a host substitution */
static PetscErrorCode CheckSolves(const GPUPCTri *T, const GPUPCTasslSchedule *S, const PetscScalar *aa, PetscRandom rnd, const char *what)
{
  const PetscInt           n = T->n;
  const GPUPCTasslKernels *K;
  GPUPCTasslDev            D;
  PetscInt                *hl, *hs, *bidx, *xidx;
  PetscScalar             *b, *xr, *x, *db, *dx;
  PetscReal               *mag;

  PetscFunctionBegin;
  PetscCall(GPUPCGetTasslKernels(&K));
  PetscCall(PetscMalloc6(n, &bidx, n, &xidx, n, &b, n, &xr, n, &x, n, &mag));
  /* random permutations of b and x */
  for (PetscInt i = 0; i < n; i++) bidx[i] = xidx[i] = i;
  for (PetscInt i = n - 1; i > 0; i--) {
    PetscReal r;
    PetscInt  j, t;
    PetscCall(PetscRandomGetValueReal(rnd, &r));
    j       = (PetscInt)(0.5 * (r + 1.0) * (i + 1)) % (i + 1);
    t       = bidx[i];
    bidx[i] = bidx[j];
    bidx[j] = t;
    PetscCall(PetscRandomGetValueReal(rnd, &r));
    j       = (PetscInt)(0.5 * (r + 1.0) * (i + 1)) % (i + 1);
    t       = xidx[i];
    xidx[i] = xidx[j];
    xidx[j] = t;
  }
  for (PetscInt i = 0; i < n; i++) PetscCall(PetscRandomGetValueReal(rnd, &b[i]));
  /* reference: substitution in topological order, and the magnitude sum |terms| of each row */
  for (PetscInt t = 0; t < n; t++) {
    const PetscInt i = T->forward ? t : n - 1 - t;
    PetscScalar    s = b[bidx[i]];
    PetscReal      m = PetscAbsScalar(s);
    for (PetscInt q = T->ptr[i]; q < T->ptr[i + 1]; q++) {
      s -= aa[T->fidx[q]] * xr[xidx[T->col[q]]];
      m += PetscAbsScalar(aa[T->fidx[q]] * xr[xidx[T->col[q]]]) + mag[xidx[T->col[q]]] * PetscAbsScalar(aa[T->fidx[q]]);
    }
    xr[xidx[i]]  = s / aa[T->didx[i]];
    mag[xidx[i]] = m / PetscAbsScalar(aa[T->didx[i]]);
  }
  PetscCall(GPUPCTasslDevCreate(T, S, aa, bidx, xidx, &D, &hl, &hs));
  PetscCall(GPUPCMallocArray(PetscMax(n, 1), &db));
  PetscCall(GPUPCMallocArray(PetscMax(n, 1), &dx));
  if (n) PetscCall(GPUPCCopyToDevice(db, b, n));
  for (PetscInt v = 0; v < 4; v++) {
    const char *name[] = {"subgraphs", "onelaunch", "onelaunch again", "levelset"};
    if (n) PetscCall(GPUPCMemzero(dx, n * sizeof(PetscScalar)));
    if (v == 0) PetscCall(K->subgraphs(&D, db, dx));
    else if (v < 3) PetscCall(K->onelaunch(&D, (int)v, db, dx));
    else PetscCall(K->levelset(&D, db, dx));
    if (n) PetscCall(GPUPCCopyToHost(x, dx, n));
    for (PetscInt i = 0; i < n; i++) {
      const PetscReal tol = 64 * PETSC_MACHINE_EPSILON * (T->ptr[n] / PetscMax(n, 1) + 4) * mag[i] + 1e-300;
      PetscCheck(PetscAbsScalar(x[i] - xr[i]) <= tol, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s, %s kernel: x[%" PetscInt_FMT "] = %.17g, substitution %.17g (tolerance %g)", what, name[v], i, (double)x[i], (double)xr[i], (double)tol);
    }
  }
  PetscCall(GPUPCFree(db));
  PetscCall(GPUPCFree(dx));
  PetscCall(GPUPCTasslDevDestroy(&D, &hl, &hs));
  PetscCall(PetscFree6(bidx, xidx, b, xr, x, mag));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  const char    *shapes[] = {"chain", "star", "fanin", "blocks", "isolated", "random", "grid2d", "grid3d"};
  const PetscInt sizes[]  = {0, 1, 2, 33, 700};
  const PetscInt nmaxs[]  = {1, 3, 16, 100, 6144};
  PetscRandom    rnd;
  size_t         mem0, mem1;
  PetscInt       big = 20000;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGPUPCInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-big", &big, NULL));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem0));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
    for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]) + 1; z++)
      for (int fw = 0; fw < 2; fw++)
        for (size_t m = 0; m < sizeof(nmaxs) / sizeof(nmaxs[0]); m++) {
          const PetscInt     n = z < sizeof(sizes) / sizeof(sizes[0]) ? sizes[z] : big;
          RandomTri          R;
          GPUPCTasslSchedule S;
          char               what[128];
          if (n == big && nmaxs[m] < 16) continue;
          PetscCall(PetscSNPrintf(what, sizeof(what), "%s, n %" PetscInt_FMT ", %s, nmax %" PetscInt_FMT, shapes[s], n, fw ? "lower" : "upper", nmaxs[m]));
          PetscCall(MakeTri(shapes[s], n, (PetscBool)fw, rnd, &R));
          PetscCall(GPUPCTasslAnalyze(&R.T, nmaxs[m], &S));
          PetscCall(CheckSchedule(&R.T, &S, what));
          PetscCall(CheckWavefronts(shapes[s], n, &S, what));
          PetscCall(CheckSolves(&R.T, &S, R.aa, rnd, what));
          if (n == 700 || n == big)
            PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-36s %6" PetscInt_FMT " sub-graphs %5" PetscInt_FMT " levels %7" PetscInt_FMT " slots %7" PetscInt_FMT " edges C %.3f, %" PetscInt_FMT " level sets, %" PetscInt_FMT " split, %" PetscInt_FMT " coords, side %" PetscInt_FMT ", %" PetscInt_FMT " cut\n", what, S.nsub, S.nlev, S.nslots, S.nedges, (double)S.C, S.nls, S.nsplit, S.ncoord, S.side, S.ncut));
          PetscCall(GPUPCTasslScheduleDestroy(&S));
          PetscCall(FreeTri(&R));
        }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscGPUPCDeviceMemoryInUse(&mem1));
  PetscCheck(mem0 == mem1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "device memory in use went from %zu to %zu bytes", mem0, mem1);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "tassl_analysis: every schedule keeps the invariants and every kernel matches the substitution\n"));
  PetscCall(PetscFinalize());
  return 0;
}
