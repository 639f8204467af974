/*
   Host reference of the kernels of PC cmg's device setup (gpupc/cmgsetupkernels.h): plain loops, one pass per row or
   vertex, written as the CUDA kernels run them (one row or vertex at a time, no order between rows). The floating
   point sums are those of the host setup (cmgreduce.c, cmgcluster.c), term for term, so the device path through this
   table builds the host setup's hierarchy bit for bit; CI runs it with -pc_cmg_setup device on the host backend.
*/
#include <gpupc/cmg.h>
#include <gpupc/cmgsetupkernels.h>
#include <gpupc/cmgsetuprow.h>

static PetscErrorCode DirichletRows_Host(const GPUPCDevCSR *A, const GPUPCCMGReduceRule *rule, PetscInt *isdir, PetscInt *ndir)
{
  PetscInt cnt = 0;

  for (PetscInt i = 0; i < A->m; i++) {
    isdir[i] = GPUPCCMGRowDirichlet(A, rule, i);
    cnt += isdir[i];
  }
  *ndir = cnt;
  return 0;
}

static PetscErrorCode CheckRows_Host(const GPUPCDevCSR *A, const GPUPCCMGReduceRule *rule, const PetscInt *isdir, PetscReal *excess, PetscReal *dinv, PetscInt *bad, PetscInt *strict, PetscInt *len, PetscInt *nbad, PetscInt *npos, PetscInt *nstrict)
{
  PetscInt cnt[3] = {0, 0, 0};

  for (PetscInt i = 0; i < A->m; i++) GPUPCCMGCheckRowStore(A, rule, isdir, i, excess, dinv, bad, strict, len, cnt);
  *nbad    = cnt[0];
  *npos    = cnt[1];
  *nstrict = cnt[2];
  return 0;
}

/* E's entries: the nonzero a_ij of a kept row i in a Dirichlet column j, in A's order */
static PetscErrorCode CouplingCount_Host(const GPUPCDevCSR *A, const PetscInt *isdir, PetscInt *erow)
{
  for (PetscInt i = 0; i < A->m; i++) {
    PetscInt e = 0;
    if (!isdir[i])
      for (PetscInt k = A->i[i]; k < A->i[i + 1]; k++) e += isdir[A->j[k]] && A->a[k] != 0.0;
    erow[i + 1] = e;
  }
  return 0;
}

static PetscErrorCode CouplingFill_Host(const GPUPCDevCSR *A, const PetscInt *isdir, const PetscInt *erow, PetscInt *ecol, PetscReal *eval)
{
  for (PetscInt i = 0; i < A->m; i++) {
    PetscInt q = erow[i];
    if (isdir[i]) continue;
    for (PetscInt k = A->i[i]; k < A->i[i + 1]; k++)
      if (isdir[A->j[k]] && A->a[k] != 0.0) {
        ecol[q]   = A->j[k];
        eval[q++] = A->a[k];
      }
  }
  return 0;
}

static PetscErrorCode Level0Count_Host(PetscInt n, const PetscInt *map, const PetscInt *len, PetscInt nk, PetscInt copies, PetscInt nstrict, PetscBool ground, PetscInt *rp)
{
  for (PetscInt i = 0; i < n; i++)
    if (map[i] >= 0)
      for (PetscInt c = 0; c < copies; c++) rp[c * nk + map[i] + 1] = len[i];
  if (ground) rp[copies * nk + 1] = copies * nstrict + 1;
  return 0;
}

/* the rows of the kept vertices (gpupc/cmgsetuprow.h GPUPCCMGLevel0Row) */
static PetscErrorCode Level0Fill_Host(const GPUPCDevCSR *A, const PetscInt *isdir, const PetscReal *excess, const PetscInt *map, PetscInt nk, PetscInt copies, const PetscInt *rp, PetscInt *col, PetscReal *val)
{
  for (PetscInt i = 0; i < A->m; i++)
    if (!isdir[i]) (void)GPUPCCMGLevel0Row(A, isdir, map, i, excess[i], nk, copies, rp, col, NULL, val);
  return 0;
}

/* CheckRows_Host's checks and Level0Fill_Host's placement on the kept structure (a Dirichlet row: map[i] < 0), in
   one pass per row, through the same per-row functions (gpupc/cmgsetuprow.h), so the values are theirs bit for bit.
   A row whose level-0 rows would have another length or other columns is counted in *nchanged (its values are
   undefined). */
static PetscErrorCode Level0Refill_Host(const GPUPCDevCSR *A, const GPUPCCMGReduceRule *rule, const PetscInt *map, PetscInt nk, PetscInt copies, const PetscInt *rp, const PetscInt *col, PetscReal *excess, PetscReal *dinv, PetscReal *val, PetscInt *nbad, PetscInt *npos, PetscInt *nstrict, PetscInt *nchanged)
{
  PetscInt cbad = 0, cpos = 0, cstrict = 0, cchanged = 0;

  for (PetscInt i = 0; i < A->m; i++) {
    PetscInt       p, st;
    const PetscInt r = GPUPCCMGRefillRow(A, rule, map, i, nk, copies, rp, col, &excess[i], &dinv[i], val, &p, &st);
    cbad += r == 1;
    cchanged += r == 2;
    cpos += p;
    cstrict += st;
  }
  *nbad     = cbad;
  *npos     = cpos;
  *nstrict  = cstrict;
  *nchanged = cchanged;
  return 0;
}

static PetscErrorCode GroundFill_Host(PetscInt nstrict, const PetscInt *list, const PetscReal *excess, const PetscInt *map, PetscInt nk, PetscInt copies, const PetscInt *rp, PetscInt *col, PetscReal *val, size_t *peak)
{
  const PetscInt g = copies * nk, o = rp[g], m = copies * nstrict;

  if (peak) *peak = 0;
  for (PetscInt q = 0; q < m; q++) {
    const PetscInt c = q / PetscMax(nstrict, 1), i = list[q % PetscMax(nstrict, 1)];
    col[o + q] = c * nk + map[i];
    val[o + q] = -excess[i];
  }
  col[o + m] = g;
  val[o + m] = GPUPCCMGGroundDiagonal(m, val + o);
  return 0;
}

static PetscErrorCode Heaviest_Host(const GPUPCDevCSR *L, PetscInt *p, PetscReal *wmax, PetscReal *vol, PetscInt *nlight)
{
  PetscInt cnt = 0;

  for (PetscInt v = 0; v < L->m; v++) {
    PetscReal best = 0.0, d = 0.0;
    PetscInt  at = v;
    for (PetscInt k = L->i[v]; k < L->i[v + 1]; k++) {
      const PetscInt  u = L->j[k];
      const PetscReal w = -L->a[k];
      if (u == v) {
        d = L->a[k];
        continue;
      }
      if (w > best) {
        best = w;
        at   = u;
      }
    }
    p[v]    = at;
    wmax[v] = best;
    vol[v]  = d;
    if (best < d / 8) cnt++;
  }
  *nlight = cnt;
  return 0;
}

static PetscErrorCode Weak_Host(const GPUPCDevCSR *L, const PetscReal *wmax, const PetscReal *vol, PetscInt *p, PetscInt *nweak, size_t *peak)
{
  PetscReal *t;
  PetscInt   cnt = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(L->m, &t));
  if (peak) *peak = (size_t)L->m * sizeof(PetscReal);
  for (PetscInt v = 0; v < L->m; v++) {
    PetscReal s = p[v] != v ? wmax[v] : 0.0;
    for (PetscInt k = L->i[v]; k < L->i[v + 1]; k++) {
      const PetscInt u = L->j[k];
      if (u != v && p[u] == v && p[v] != u) s += wmax[u];
    }
    t[v] = s;
  }
  for (PetscInt v = 0; v < L->m; v++)
    if (p[v] != v && t[v] < vol[v] / 8) {
      p[v] = v;
      cnt++;
    }
  *nweak = cnt;
  PetscCall(PetscFree(t));
  PetscFunctionReturn(0);
}

static PetscErrorCode CutTwoCycles_Host(PetscInt n, PetscInt *p, size_t *peak)
{
  PetscInt *cut;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n, &cut));
  if (peak) *peak = (size_t)n * sizeof(PetscInt);
  for (PetscInt v = 0; v < n; v++) cut[v] = p[v] != v && p[p[v]] == v && v < p[v];
  for (PetscInt v = 0; v < n; v++)
    if (cut[v]) p[v] = v;
  PetscCall(PetscFree(cut));
  PetscFunctionReturn(0);
}

/* the climb of cmgcluster.c on one thread: each leaf climbs while it is the last child of its parent to finish */
static PetscErrorCode Heights_Host(PetscInt n, const PetscInt *p, PetscInt *h, PetscInt *done, size_t *peak)
{
  PetscInt *pending, cnt = 0;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(n, &pending));
  if (peak) *peak = (size_t)n * sizeof(PetscInt);
  for (PetscInt v = 0; v < n; v++) h[v] = 0;
  for (PetscInt v = 0; v < n; v++)
    if (p[v] != v) pending[p[v]]++;
  for (PetscInt v = 0; v < n; v++) h[v] = pending[v] == 0 ? -1 : 0; /* -1 marks the leaves until they start */
  for (PetscInt s = 0; s < n; s++) {
    PetscInt v = s;
    if (h[s] != -1) continue;
    h[s] = 0;
    for (;;) {
      const PetscInt u = p[v];
      cnt++;
      if (u == v) break;
      if (h[v] < GPUPC_CMG_MAX_HEIGHT) h[u] = PetscMax(h[u] < 0 ? 0 : h[u], h[v] + 1);
      if (--pending[u] != 0) break;
      v = u;
    }
  }
  *done = cnt;
  PetscCall(PetscFree(pending));
  PetscFunctionReturn(0);
}

static PetscErrorCode ClusterTops_Host(const GPUPCDevCSR *L, const PetscInt *p, const PetscInt *h, const PetscReal *wmax, PetscInt *rep, PetscInt *mark, size_t *peak)
{
  const PetscInt n = L->m;
  PetscInt      *flag, *top, *size, *join;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(n, &flag, n, &top, n, &size, n, &join));
  if (peak) *peak = 4 * (size_t)n * sizeof(PetscInt);
  for (PetscInt v = 0; v < n; v++) {
    flag[v] = p[v] == v || h[v] >= GPUPC_CMG_MAX_HEIGHT;
    size[v] = 0;
  }
  for (PetscInt v = 0; v < n; v++) {
    PetscInt u = v;
    while (!flag[u]) u = p[u];
    top[v] = u;
  }
  for (PetscInt v = 0; v < n; v++) size[top[v]]++;
  for (PetscInt v = 0; v < n; v++) { /* a tree top of at most 2 vertices joins its heaviest cut-off child cluster */
    PetscInt  best = -1;
    PetscReal bw   = 0.0;
    join[v]        = -1;
    if (p[v] != v || size[v] > 2) continue;
    for (PetscInt k = L->i[v]; k < L->i[v + 1]; k++) {
      const PetscInt d = L->j[k];
      if (d != v && p[d] == v && flag[d] && (best < 0 || wmax[d] > bw)) {
        best = d;
        bw   = wmax[d];
      }
    }
    join[v] = best;
  }
  for (PetscInt v = 0; v < n; v++) {
    if (join[top[v]] >= 0) top[v] = join[top[v]];
    rep[v] = n;
  }
  for (PetscInt v = 0; v < n; v++) rep[top[v]] = PetscMin(rep[top[v]], v); /* first vertex, kept at the top for now */
  for (PetscInt v = 0; v < n; v++) size[v] = rep[top[v]];
  for (PetscInt v = 0; v < n; v++) {
    rep[v]  = size[v];
    mark[v] = rep[v] == v;
  }
  PetscCall(PetscFree4(flag, top, size, join));
  PetscFunctionReturn(0);
}

static PetscErrorCode ClusterNumber_Host(PetscInt n, PetscInt nc, const PetscInt *rep, const PetscInt *id, PetscInt *cluster, PetscInt *nsingle, PetscInt *maxsize, size_t *peak)
{
  PetscInt *size, ns = 0, mx = 0;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(nc, &size));
  if (peak) *peak = (size_t)nc * sizeof(PetscInt);
  for (PetscInt v = 0; v < n; v++) {
    cluster[v] = id[rep[v]];
    size[cluster[v]]++;
  }
  for (PetscInt c = 0; c < nc; c++) {
    if (size[c] == 1) ns++;
    mx = PetscMax(mx, size[c]);
  }
  *nsingle = ns;
  *maxsize = mx;
  PetscCall(PetscFree(size));
  PetscFunctionReturn(0);
}

static PetscErrorCode GalerkinTriples_Host(const GPUPCDevCSR *L, const PetscInt *cluster, PetscInt nc, PetscInt *ci, PetscInt *cj, PetscReal *v)
{
  for (PetscInt c = 0; c < nc; c++) {
    if (ci) ci[c] = cj[c] = c;
    v[c] = 0.0;
  }
  for (PetscInt r = 0; r < L->m; r++) {
    const PetscInt C = cluster[r];
    for (PetscInt k = L->i[r]; k < L->i[r + 1]; k++) {
      const PetscInt D = cluster[L->j[k]];
      const size_t   e = (size_t)nc + (size_t)k;
      if (ci) {
        ci[e] = D == C ? -1 : C;
        cj[e] = D;
      }
      v[e] = D == C ? 0.0 : L->a[k];
    }
  }
  return 0;
}

static PetscErrorCode GalerkinDiagonal_Host(GPUPCDevCSR *C)
{
  for (PetscInt r = 0; r < C->m; r++) {
    PetscReal d  = 0.0;
    PetscInt  at = -1;
    for (PetscInt q = C->i[r]; q < C->i[r + 1]; q++) {
      if (C->j[q] == r) at = q;
      else d -= C->a[q];
    }
    if (at >= 0) C->a[at] = d;
  }
  return 0;
}

static PetscErrorCode SmootherWeights_Host(const GPUPCDevCSR *L, PetscReal *invd)
{
  for (PetscInt i = 0; i < L->m; i++) {
    PetscReal d = 0.0;
    for (PetscInt q = L->i[i]; q < L->i[i + 1]; q++)
      if (L->j[q] == i) d = L->a[q];
    invd[i] = d > 0.0 ? 1.0 / (2.0 * d) : 0.0;
  }
  return 0;
}

static PetscErrorCode CoarseDense_Host(const GPUPCDevCSR *L, const PetscReal *mask, PetscReal *M)
{
  const size_t n = (size_t)L->m;

  for (size_t q = 0; q < n * n; q++) M[q] = 0.0;
  for (PetscInt v = 0; v < L->m; v++) {
    if (mask[v] == 0.0) {
      M[(size_t)v * n + v] = 1.0;
      continue;
    }
    for (PetscInt k = L->i[v]; k < L->i[v + 1]; k++)
      if (mask[L->j[k]] != 0.0) M[(size_t)v * n + L->j[k]] += L->a[k];
  }
  return 0;
}

static PetscErrorCode Differ_Host(PetscInt n, const PetscInt *a, const PetscInt *b, PetscInt *count)
{
  PetscInt cnt = 0;

  for (PetscInt k = 0; k < n; k++) cnt += a[k] != b[k];
  *count = cnt;
  return 0;
}

GPUPC_KERNEL_TABLE_DEFINE(GPUPCCMGSetupKernels, GPUPCCMGSetupKernelsHost, GPUPC_CMG_SETUP_KERNEL_LIST, "host", _Host);
