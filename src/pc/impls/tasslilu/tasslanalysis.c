/*
   TASSL analysis of a triangular system on the host (gpupc/tassl.h): partition the rows into sub-graphs of at
   most nmax rows, group them in sub-graph levels, and schedule each sub-graph's edges into time slots.

   Graph: a vertex per row, an edge j -> i for every parent j of row i (x_i needs x_j). Steps:
   1. weakly connected components (union-find); rows without edges are components of one row;
   2. components of at most nmax rows are packed, smallest first, into sub-graphs of at most nmax rows;
   3. the rows of larger components are cut into boxes of coordinates that never decrease along an edge (longest
      paths counting one class of edges each: on a grid, the grid indices), so that a wavefront holds many
      independent sub-graphs (tasslpartition.c). Every edge goes to the same sub-graph or one of a later level;
   4. sub-graph levels: longest-path levels of the quotient DAG; sub-graphs are renumbered in level order;
   5. in each sub-graph, external edges (from other sub-graphs) take external slots 0, 1, ... in the order of the
      row's parents; internal edges are scheduled as soon as possible: an edge j -> i can go in the slot after the
      last internal slot into j, and the edges into one row take distinct slots (the earliest-ready first);
   6. the permutation Q (order) lists the sub-graphs' rows, each sub-graph in topological order.
   The level sets of the baseline come with it (level = 1 + the largest level of the parents).
*/
#include <petsctime.h>
#include "tassliluimpl.h"

/*@C
   GPUPCTasslAnalyze - the TASSL schedule of a triangular system

   Not Collective

   Input Parameters:
+  T - the system (its pattern)
-  nmax - the most rows of a sub-graph (rows whose x fit one thread block's shared memory)

   Output Parameter:
.  S - the schedule: sub-graphs in level order, their time slots and edges, dependencies, level sets

   Level: developer

.seealso: GPUPCTriFromILU(), GPUPCTasslDevCreate()
@*/
PetscErrorCode GPUPCTasslAnalyze(const GPUPCTri *T, PetscInt nmax, GPUPCTasslSchedule *S)
{
  const PetscInt n = T->n, nnz = T->ptr[n];
  PetscLogDouble t0, t1;
  PetscInt      *lev, *uf, *comp, *compsize, *compptr, *compv, *sg, *big, nls = 0, nbig = 0, ncomp = 0, nsub = 0;
  PetscInt64    *ckeys;
  PetscBool     *haschild;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCheck(nmax >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "TASSL sub-graph size must be >= 1, not %" PetscInt_FMT, nmax);
  PetscCall(PetscMemzero(S, sizeof(*S)));
  S->n    = n;
  S->nmax = nmax;
  /* rows with children; every parent is earlier in the topological order */
  PetscCall(PetscCalloc1(n, &haschild));
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt q = T->ptr[i]; q < T->ptr[i + 1]; q++) {
      const PetscInt j = T->col[q];
      PetscCheck(j >= 0 && j < n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "triangular system entry %" PetscInt_FMT " has parent %" PetscInt_FMT " outside 0 .. %" PetscInt_FMT, q, j, n - 1);
      PetscCheck(GPUPCTasslTopo(T, j) < GPUPCTasslTopo(T, i), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s system row %" PetscInt_FMT " needs row %" PetscInt_FMT ": not triangular", GPUPCTriKinds[T->kind], i, j);
      haschild[j] = PETSC_TRUE;
    }
  /* level sets: level = 1 + the largest level of the parents */
  PetscCall(PetscMalloc1(n, &lev));
  for (PetscInt t = 0; t < n; t++) {
    const PetscInt v = T->forward ? t : n - 1 - t;
    lev[v]           = 0;
    for (PetscInt q = T->ptr[v]; q < T->ptr[v + 1]; q++) lev[v] = PetscMax(lev[v], lev[T->col[q]] + 1);
    nls = PetscMax(nls, lev[v] + 1);
  }
  /* 1. weakly connected components, vertices of each in topological order */
  PetscCall(PetscMalloc5(n, &uf, n, &comp, n + 1, &compsize, n + 1, &compptr, n, &compv));
  for (PetscInt i = 0; i < n; i++) uf[i] = i;
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt q = T->ptr[i]; q < T->ptr[i + 1]; q++) {
      PetscInt a = GPUPCTasslFind(uf, i), b = GPUPCTasslFind(uf, T->col[q]);
      if (a != b) uf[PetscMax(a, b)] = PetscMin(a, b);
    }
  for (PetscInt i = 0; i < n; i++) comp[i] = -1;
  for (PetscInt t = 0; t < n; t++) {
    const PetscInt v = T->forward ? t : n - 1 - t, r = GPUPCTasslFind(uf, v);
    if (comp[r] < 0) {
      comp[r]           = ncomp;
      compsize[ncomp++] = 0;
    }
    comp[v] = comp[r];
    compsize[comp[v]]++;
    S->nisolated += (T->ptr[v + 1] == T->ptr[v] && !haschild[v]);
  }
  S->ncomp   = ncomp;
  compptr[0] = 0;
  for (PetscInt c = 0; c < ncomp; c++) compptr[c + 1] = compptr[c] + compsize[c];
  for (PetscInt c = 0; c < ncomp; c++) compsize[c] = 0;
  for (PetscInt t = 0; t < n; t++) {
    const PetscInt v                              = T->forward ? t : n - 1 - t;
    compv[compptr[comp[v]] + compsize[comp[v]]++] = v;
  }
  /* 2. small components packed smallest first; 3. large components (their rows in big) partitioned together */
  PetscCall(PetscMalloc2(n, &sg, n, &big));
  PetscCall(PetscMalloc1(ncomp, &ckeys));
  for (PetscInt c = 0; c < ncomp; c++) ckeys[c] = (PetscInt64)compsize[c] * (ncomp + 1) + c;
  PetscCall(PetscSortInt64(ncomp, ckeys));
  {
    PetscInt cur = -1, cursize = 0;
    for (PetscInt k = 0; k < ncomp; k++) {
      const PetscInt c = (PetscInt)(ckeys[k] % (ncomp + 1)), m = compsize[c];
      if (m > nmax) {
        S->nsplit++;
        for (PetscInt q = compptr[c]; q < compptr[c + 1]; q++) big[nbig++] = compv[q];
        continue;
      }
      if (cur < 0 || cursize + m > nmax) {
        cur     = nsub++;
        cursize = 0;
      }
      cursize += m;
      for (PetscInt q = compptr[c]; q < compptr[c + 1]; q++) sg[compv[q]] = cur;
    }
  }
  PetscCall(PetscFree(ckeys));
  if (nbig) {
    PetscInt nt;
    PetscCall(GPUPCTasslPartition(T, lev, nls, big, nbig, nmax, sg, &nt, &S->ncoord, &S->side, &S->ncut));
    for (PetscInt k = 0; k < nbig; k++) sg[big[k]] += nsub;
    nsub += nt;
  }
  /* 4. quotient DAG of the sub-graphs: rows of each sub-graph in topological order, its dependencies, levels */
  {
    PetscInt *gptr, *grow, *gfill, *dptr, *dl, *glev, *indeg, *gch, *gchptr, *queue, *newid, *mark, nd = 0, nlev = 0, nnew = 0, head = 0, tail = 0;

    PetscCall(PetscCalloc3(nsub + 1, &gptr, nsub + 1, &gfill, nsub + 1, &dptr));
    PetscCall(PetscMalloc1(n, &grow));
    for (PetscInt i = 0; i < n; i++) gptr[sg[i] + 1]++;
    for (PetscInt g = 0; g < nsub; g++) gptr[g + 1] += gptr[g];
    for (PetscInt t = 0; t < n; t++) {
      const PetscInt v                   = T->forward ? t : n - 1 - t;
      grow[gptr[sg[v]] + gfill[sg[v]]++] = v;
    }
    /* dependencies: distinct sub-graphs of external parents */
    PetscCall(PetscMalloc1(nsub, &mark));
    for (PetscInt g = 0; g < nsub; g++) mark[g] = -1;
    for (PetscInt g = 0; g < nsub; g++) {
      for (PetscInt k = gptr[g]; k < gptr[g + 1]; k++)
        for (PetscInt q = T->ptr[grow[k]]; q < T->ptr[grow[k] + 1]; q++) {
          const PetscInt h = sg[T->col[q]];
          if (h != g && mark[h] != g) {
            mark[h] = g;
            nd++;
          }
        }
      dptr[g + 1] = nd;
    }
    PetscCall(PetscMalloc1(nd, &dl));
    for (PetscInt g = 0; g < nsub; g++) mark[g] = -1;
    for (PetscInt g = 0, c = 0; g < nsub; g++)
      for (PetscInt k = gptr[g]; k < gptr[g + 1]; k++)
        for (PetscInt q = T->ptr[grow[k]]; q < T->ptr[grow[k] + 1]; q++) {
          const PetscInt h = sg[T->col[q]];
          if (h != g && mark[h] != g) {
            mark[h] = g;
            dl[c++] = h;
          }
        }
    /* longest-path levels (Kahn) */
    PetscCall(PetscCalloc2(nsub + 1, &gchptr, nsub, &indeg));
    PetscCall(PetscMalloc4(nd, &gch, nsub, &glev, nsub, &queue, nsub, &newid));
    for (PetscInt q = 0; q < nd; q++) gchptr[dl[q] + 1]++;
    for (PetscInt g = 0; g < nsub; g++) gchptr[g + 1] += gchptr[g];
    for (PetscInt g = 0; g < nsub; g++) gfill[g] = gchptr[g];
    for (PetscInt g = 0; g < nsub; g++)
      for (PetscInt q = dptr[g]; q < dptr[g + 1]; q++) gch[gfill[dl[q]]++] = g;
    for (PetscInt g = 0; g < nsub; g++) {
      indeg[g] = dptr[g + 1] - dptr[g];
      glev[g]  = 0;
      if (!indeg[g]) queue[tail++] = g;
    }
    while (head < tail) {
      const PetscInt g = queue[head++];
      for (PetscInt q = gchptr[g]; q < gchptr[g + 1]; q++) {
        const PetscInt h = gch[q];
        glev[h]          = PetscMax(glev[h], glev[g] + 1);
        if (!--indeg[h]) queue[tail++] = h;
      }
    }
    PetscCheck(tail == nsub, PETSC_COMM_SELF, PETSC_ERR_PLIB, "TASSL partition has a cycle between sub-graphs (%" PetscInt_FMT " of %" PetscInt_FMT " ordered)", tail, nsub);
    for (PetscInt g = 0; g < nsub; g++)
      if (gptr[g + 1] > gptr[g]) nlev = PetscMax(nlev, glev[g] + 1);
    /* renumber: by level, then old index; empty sub-graphs dropped */
    PetscCall(PetscCalloc1(nlev + 1, &S->levptr));
    for (PetscInt g = 0; g < nsub; g++)
      if (gptr[g + 1] > gptr[g]) S->levptr[glev[g] + 1]++;
    for (PetscInt l = 0; l < nlev; l++) S->levptr[l + 1] += S->levptr[l];
    for (PetscInt l = 0; l <= nlev; l++) gfill[l] = S->levptr[l];
    for (PetscInt g = 0; g < nsub; g++) newid[g] = gptr[g + 1] > gptr[g] ? gfill[glev[g]]++ : -1;
    nnew    = S->levptr[nlev];
    S->nsub = nnew;
    S->nlev = nlev;
    /* positions */
    PetscCall(PetscMalloc2(nnew + 1, &S->subptr, n, &S->order));
    for (PetscInt g = 0; g < nsub; g++)
      if (newid[g] >= 0) gfill[newid[g]] = g; /* old index of each new one */
    S->subptr[0] = 0;
    for (PetscInt g = 0; g < nnew; g++) {
      const PetscInt o = gfill[g];
      S->subptr[g + 1] = S->subptr[g] + gptr[o + 1] - gptr[o];
      PetscCall(PetscArraycpy(S->order + S->subptr[g], grow + gptr[o], gptr[o + 1] - gptr[o]));
    }
    for (PetscInt i = 0; i < n; i++) sg[i] = newid[sg[i]];
    PetscCall(PetscFree3(gptr, gfill, dptr));
    PetscCall(PetscFree(grow));
    PetscCall(PetscFree(mark));
    PetscCall(PetscFree(dl));
    PetscCall(PetscFree2(gchptr, indeg));
    PetscCall(PetscFree4(gch, glev, queue, newid));
  }
  PetscCall(PetscFree5(uf, comp, compsize, compptr, compv));
  /* 5. time slots */
  {
    const PetscInt nnew = S->nsub;
    PetscInt      *loc, *fin, *eslot, *rdy, *idx, *mark, ne = 0, nslots = 0, nd = 0;

    PetscCall(PetscMalloc2(n, &loc, n, &fin));
    PetscCall(PetscMalloc1(nnz, &eslot)); /* slot of each entry of T */
    PetscInt maxin = 0;
    for (PetscInt i = 0; i < n; i++) maxin = PetscMax(maxin, T->ptr[i + 1] - T->ptr[i]);
    PetscCall(PetscMalloc2(maxin + 1, &rdy, maxin + 1, &idx));
    PetscCall(PetscMalloc1(nnew + 1, &S->slotptr));
    PetscCall(PetscMalloc1(nnew, &S->next));
    PetscCall(PetscMalloc1(nnew + 1, &S->depptr));
    PetscCall(PetscMalloc1(nnew, &mark));
    for (PetscInt g = 0; g < nnew; g++) mark[g] = -1;
    S->slotptr[0] = 0;
    S->depptr[0]  = 0;
    for (PetscInt g = 0; g < nnew; g++) {
      PetscInt next = 0, nint = 0;
      for (PetscInt k = S->subptr[g]; k < S->subptr[g + 1]; k++) loc[S->order[k]] = k - S->subptr[g];
      for (PetscInt k = S->subptr[g]; k < S->subptr[g + 1]; k++) {
        const PetscInt v   = S->order[k];
        PetscInt       ext = 0;
        for (PetscInt q = T->ptr[v]; q < T->ptr[v + 1]; q++) {
          const PetscInt h = sg[T->col[q]];
          if (h != g) {
            ext++;
            if (mark[h] != g) {
              mark[h] = g;
              nd++;
            }
          }
        }
        next = PetscMax(next, ext);
      }
      S->depptr[g + 1] = nd;
      for (PetscInt k = S->subptr[g]; k < S->subptr[g + 1]; k++) {
        const PetscInt v   = S->order[k];
        PetscInt       ext = 0, nin = 0, t = -1;
        for (PetscInt q = T->ptr[v]; q < T->ptr[v + 1]; q++) {
          const PetscInt j = T->col[q];
          if (sg[j] != g) { /* external: slot ext of the row's external slots */
            eslot[q] = nslots + ext++;
            ne++;
          } else {
            rdy[nin]   = fin[j] + 1;
            idx[nin++] = q;
          }
        }
        PetscCall(PetscSortIntWithArray(nin, rdy, idx));
        for (PetscInt e = 0; e < nin; e++) {
          t             = PetscMax(rdy[e], t + 1);
          eslot[idx[e]] = nslots + next + t;
          ne++;
        }
        fin[v] = t;
        nint   = PetscMax(nint, t + 1);
      }
      S->next[g] = next;
      nslots += next + nint;
      S->slotptr[g + 1] = nslots;
    }
    PetscCheck(ne == nnz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "TASSL scheduled %" PetscInt_FMT " of %" PetscInt_FMT " edges", ne, nnz);
    /* dependencies */
    PetscCall(PetscMalloc1(nd, &S->dep));
    for (PetscInt g = 0; g < nnew; g++) mark[g] = -1;
    for (PetscInt g = 0, c = 0; g < nnew; g++)
      for (PetscInt k = S->subptr[g]; k < S->subptr[g + 1]; k++)
        for (PetscInt q = T->ptr[S->order[k]]; q < T->ptr[S->order[k] + 1]; q++) {
          const PetscInt h = sg[T->col[q]];
          if (h != g && mark[h] != g) {
            mark[h]     = g;
            S->dep[c++] = h;
          }
        }
    /* edges bucketed by slot, each slot's by target position (Q's order); written straight into the schedule */
    S->nslots = nslots;
    S->nedges = ne;
    PetscCall(PetscCalloc1(nslots + 1, &S->edgeptr));
    PetscCall(PetscMalloc3(ne, &S->etgt, ne, &S->esrc, ne, &S->eent));
    for (PetscInt q = 0; q < nnz; q++) S->edgeptr[eslot[q] + 1]++;
    for (PetscInt s = 0; s < nslots; s++) S->edgeptr[s + 1] += S->edgeptr[s];
    {
      PetscInt *fill;
      PetscCall(PetscMalloc1(nslots + 1, &fill));
      PetscCall(PetscArraycpy(fill, S->edgeptr, nslots + 1));
      for (PetscInt k = 0; k < n; k++) {
        const PetscInt v = S->order[k];
        for (PetscInt q = T->ptr[v]; q < T->ptr[v + 1]; q++) {
          const PetscInt j = T->col[q], p = fill[eslot[q]]++;
          S->etgt[p] = loc[v];
          S->esrc[p] = sg[j] != sg[v] ? j : loc[j];
          S->eent[p] = q;
        }
      }
      PetscCall(PetscFree(fill));
    }
    /* critical slots: per level the sub-graph with the most slots */
    S->critslots = 0;
    for (PetscInt l = 0; l < S->nlev; l++) {
      PetscInt m = 0;
      for (PetscInt g = S->levptr[l]; g < S->levptr[l + 1]; g++) m = PetscMax(m, S->slotptr[g + 1] - S->slotptr[g]);
      S->critslots += m;
    }
    S->C = ne ? 1.0 - (PetscReal)S->critslots / (PetscReal)ne : 1.0;
    PetscCall(PetscFree2(loc, fin));
    PetscCall(PetscFree(eslot));
    PetscCall(PetscFree2(rdy, idx));
    PetscCall(PetscFree(mark));
  }
  /* level sets of the baseline */
  {
    PetscInt *fill;
    S->nls = nls;
    PetscCall(PetscCalloc1(nls + 1, &S->lsptr));
    PetscCall(PetscMalloc1(n, &S->lsorder));
    for (PetscInt i = 0; i < n; i++) S->lsptr[lev[i] + 1]++;
    for (PetscInt l = 0; l < nls; l++) S->lsptr[l + 1] += S->lsptr[l];
    PetscCall(PetscMalloc1(nls + 1, &fill));
    PetscCall(PetscArraycpy(fill, S->lsptr, nls + 1));
    for (PetscInt i = 0; i < n; i++) S->lsorder[fill[lev[i]]++] = i;
    PetscCall(PetscFree(fill));
  }
  PetscCall(PetscFree(lev));
  PetscCall(PetscFree2(sg, big));
  PetscCall(PetscFree(haschild));
  PetscCall(PetscTime(&t1));
  S->time = t1 - t0;
  PetscFunctionReturn(0);
}

/*@C
   GPUPCTasslScheduleDestroy - frees a schedule

   Level: developer
@*/
PetscErrorCode GPUPCTasslScheduleDestroy(GPUPCTasslSchedule *S)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(S->levptr));
  PetscCall(PetscFree2(S->subptr, S->order));
  PetscCall(PetscFree(S->slotptr));
  PetscCall(PetscFree(S->next));
  PetscCall(PetscFree(S->depptr));
  PetscCall(PetscFree(S->dep));
  PetscCall(PetscFree(S->edgeptr));
  PetscCall(PetscFree3(S->etgt, S->esrc, S->eent));
  PetscCall(PetscFree(S->lsptr));
  PetscCall(PetscFree(S->lsorder));
  PetscCall(PetscMemzero(S, sizeof(*S)));
  PetscFunctionReturn(0);
}
