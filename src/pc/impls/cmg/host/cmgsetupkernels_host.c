/*
   Host reference of the kernels of PC cmg's device setup (gpupc/cmgsetupkernels.h): plain loops, one pass per row or
   vertex, written as the CUDA kernels run them (one row or vertex at a time, no order between rows). The floating
   point sums are those of the host setup (cmgreduce.c, cmgcluster.c), term for term, so the device path through this
   table builds the host setup's hierarchy bit for bit; CI runs it with -pc_cmg_setup device on the host backend.
*/
#include <gpupc/cmg.h>
#include <gpupc/cmgsetupkernels.h>

/* a_ij of a CSR with sorted rows, 0 if not stored */
static PetscReal EntryOf(const GPUPCDevCSR *A, PetscInt i, PetscInt j)
{
  PetscInt lo = A->i[i], hi = A->i[i + 1] - 1;

  while (lo <= hi) {
    PetscInt mid = (lo + hi) / 2;
    if (A->j[mid] == j) return A->a[mid];
    if (A->j[mid] < j) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0.0;
}

static PetscErrorCode DirichletRows_Host(const GPUPCDevCSR *A, const GPUPCCMGReduceRule *rule, PetscInt *isdir, PetscInt *ndir)
{
  PetscInt cnt = 0;

  for (PetscInt i = 0; i < A->m; i++) {
    PetscInt dir = rule->dirichlet_rows ? 1 : 0;
    for (PetscInt k = A->i[i]; k < A->i[i + 1] && dir; k++)
      if (A->j[k] != i && A->a[k] != 0.0) dir = 0;
    isdir[i] = dir;
    cnt += dir;
  }
  *ndir = cnt;
  return 0;
}

static PetscErrorCode CheckRows_Host(const GPUPCDevCSR *A, const GPUPCCMGReduceRule *rule, const PetscInt *isdir, PetscReal *excess, PetscReal *dinv, PetscInt *bad, PetscInt *strict, PetscInt *len, PetscInt *nbad, PetscInt *npos, PetscInt *nstrict)
{
  PetscInt cbad = 0, cpos = 0, cstrict = 0;

  for (PetscInt i = 0; i < A->m; i++) {
    PetscReal d = 0.0, off = 0.0, offdir = 0.0, e;
    PetscInt  p = 0, l = 1, fault = 0;
    for (PetscInt k = A->i[i]; k < A->i[i + 1] && !fault; k++) {
      const PetscInt  j = A->j[k];
      const PetscReal a = A->a[k];
      if (!isfinite(a)) { /* (the host reduction then names the entry) */
        fault = 1;
        break;
      }
      if (j == i) {
        d += a;
        continue;
      }
      if (a == 0.0) continue;
      if (isdir[j]) {
        offdir += PetscAbsReal(a);
        continue;
      }
      if (rule->check_symmetry) {
        const PetscReal at = EntryOf(A, j, i);
        if (PetscAbsReal(a - at) > rule->symmetry_tol * PetscMax(PetscAbsReal(a), PetscAbsReal(at))) fault = 1;
      }
      if (a > 0.0) {
        if (!rule->doublecover) fault = 1;
        p++;
      }
      off += PetscAbsReal(a);
      l++;
    }
    e = d - off - offdir;
    if (!fault && !(d > 0.0)) fault = 1;
    if (!fault && e < -rule->dominance_tol * d) fault = 1;
    bad[i]    = fault;
    excess[i] = 0.0;
    dinv[i]   = 0.0;
    strict[i] = 0;
    len[i]    = 0;
    if (fault) {
      cbad++;
      continue;
    }
    if (e <= rule->dominance_tol * d) e = 0.0;
    excess[i] = isdir[i] ? 0.0 : e + offdir;
    dinv[i]   = isdir[i] ? 1.0 / d : 0.0;
    strict[i] = !isdir[i] && excess[i] > 0.0;
    len[i]    = l + (excess[i] > 0.0 ? 1 : 0);
    cpos += p;
    cstrict += strict[i];
  }
  *nbad    = cbad;
  *npos    = cpos;
  *nstrict = cstrict;
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

/* The row of copy c of kept row i with its columns in order, without a sort: the columns of copy 0 (< nk) come before
   those of copy 1, and inside a copy the order of the user's columns (map increases); the diagonal sits among the
   entries of its own copy, the ground (the largest column) last. */
static PetscErrorCode Level0Fill_Host(const GPUPCDevCSR *A, const PetscInt *isdir, const PetscReal *excess, const PetscInt *map, PetscInt nk, PetscInt copies, const PetscInt *rp, PetscInt *col, PetscReal *val)
{
  for (PetscInt i = 0; i < A->m; i++) {
    PetscInt  nneg = 0, nposr = 0, before = 0;
    PetscReal sum = 0.0;
    if (isdir[i]) continue;
    for (PetscInt k = A->i[i]; k < A->i[i + 1]; k++) {
      const PetscInt  j = A->j[k];
      const PetscReal a = A->a[k];
      if (j == i || a == 0.0 || isdir[j]) continue;
      if (a < 0.0) {
        nneg++;
        if (j < i) before++;
      } else nposr++;
      sum += PetscAbsReal(a);
    }
    if (excess[i] > 0.0) sum += excess[i];
    for (PetscInt c = 0; c < copies; c++) {
      const PetscInt r = c * nk + map[i], o = rp[r];
      /* where the same-copy part (negatives and the diagonal) and the other-copy part (positives) start */
      const PetscInt same = c == 0 ? o : o + nposr, other = c == 0 ? o + nneg + 1 : o;
      PetscInt       qn = 0, qp = 0;
      col[same + before] = r;
      val[same + before] = sum;
      for (PetscInt k = A->i[i]; k < A->i[i + 1]; k++) {
        const PetscInt  j = A->j[k];
        const PetscReal a = A->a[k];
        if (j == i || a == 0.0 || isdir[j]) continue;
        if (a < 0.0) {
          const PetscInt q = same + qn + (qn >= before ? 1 : 0);
          col[q]           = c * nk + map[j];
          val[q]           = -PetscAbsReal(a);
          qn++;
        } else {
          col[other + qp] = (1 - c) * nk + map[j];
          val[other + qp] = -PetscAbsReal(a);
          qp++;
        }
      }
      if (excess[i] > 0.0) {
        col[rp[r + 1] - 1] = copies * nk;
        val[rp[r + 1] - 1] = -excess[i];
      }
    }
  }
  return 0;
}

/* CheckRows_Host's checks and Level0Fill_Host's placement on the kept structure (a Dirichlet row: map[i] < 0), in
   one pass per row; the terms are added in the order of those two members, so the values are theirs bit for bit. A row
   whose level-0 rows would have another length or other columns is counted in *nchanged (its values are undefined). */
static PetscErrorCode Level0Refill_Host(const GPUPCDevCSR *A, const GPUPCCMGReduceRule *rule, const PetscInt *map, PetscInt nk, PetscInt copies, const PetscInt *rp, const PetscInt *col, PetscReal *excess, PetscReal *dinv, PetscReal *val, PetscInt *nbad, PetscInt *npos, PetscInt *nstrict, PetscInt *nchanged)
{
  PetscInt cbad = 0, cpos = 0, cstrict = 0, cchanged = 0;

  for (PetscInt i = 0; i < A->m; i++) {
    const PetscInt isdir = map[i] < 0;
    PetscReal      d = 0.0, off = 0.0, offdir = 0.0, e, sum = 0.0;
    PetscInt       p = 0, l = 1, fault = 0, dir = rule->dirichlet_rows ? 1 : 0, nneg = 0, nposr = 0, before = 0, moved = 0;

    excess[i] = 0.0;
    dinv[i]   = 0.0;
    for (PetscInt k = A->i[i]; k < A->i[i + 1] && dir; k++)
      if (A->j[k] != i && A->a[k] != 0.0) dir = 0;
    if (dir != isdir) { /* a row turned Dirichlet, or stopped being one */
      cchanged++;
      continue;
    }
    for (PetscInt k = A->i[i]; k < A->i[i + 1] && !fault; k++) {
      const PetscInt  j = A->j[k];
      const PetscReal a = A->a[k];
      if (!isfinite(a)) {
        fault = 1;
        break;
      }
      if (j == i) {
        d += a;
        continue;
      }
      if (a == 0.0) continue;
      if (map[j] < 0) {
        offdir += PetscAbsReal(a);
        continue;
      }
      if (rule->check_symmetry) {
        const PetscReal at = EntryOf(A, j, i);
        if (PetscAbsReal(a - at) > rule->symmetry_tol * PetscMax(PetscAbsReal(a), PetscAbsReal(at))) fault = 1;
      }
      if (a > 0.0) {
        if (!rule->doublecover) fault = 1;
        p++;
      }
      off += PetscAbsReal(a);
      l++;
    }
    e = d - off - offdir;
    if (!fault && !(d > 0.0)) fault = 1;
    if (!fault && e < -rule->dominance_tol * d) fault = 1;
    if (fault) {
      cbad++;
      continue;
    }
    if (e <= rule->dominance_tol * d) e = 0.0;
    excess[i] = isdir ? 0.0 : e + offdir;
    dinv[i]   = isdir ? 1.0 / d : 0.0;
    cpos += p;
    cstrict += !isdir && excess[i] > 0.0;
    if (isdir) continue;
    for (PetscInt k = A->i[i]; k < A->i[i + 1]; k++) {
      const PetscInt  j = A->j[k];
      const PetscReal a = A->a[k];
      if (j == i || a == 0.0 || map[j] < 0) continue;
      if (a < 0.0) {
        nneg++;
        if (j < i) before++;
      } else nposr++;
      sum += PetscAbsReal(a);
    }
    if (excess[i] > 0.0) sum += excess[i];
    for (PetscInt c = 0; c < copies && !moved; c++) moved = rp[c * nk + map[i] + 1] - rp[c * nk + map[i]] != l + (excess[i] > 0.0 ? 1 : 0);
    for (PetscInt c = 0; c < copies && !moved; c++) {
      const PetscInt r = c * nk + map[i], o = rp[r];
      const PetscInt same = c == 0 ? o : o + nposr, other = c == 0 ? o + nneg + 1 : o;
      PetscInt       qn = 0, qp = 0;
      moved |= col[same + before] != r;
      val[same + before] = sum;
      for (PetscInt k = A->i[i]; k < A->i[i + 1]; k++) {
        const PetscInt  j = A->j[k];
        const PetscReal a = A->a[k];
        if (j == i || a == 0.0 || map[j] < 0) continue;
        if (a < 0.0) {
          const PetscInt q = same + qn + (qn >= before ? 1 : 0);
          moved |= col[q] != c * nk + map[j];
          val[q] = -PetscAbsReal(a);
          qn++;
        } else {
          moved |= col[other + qp] != (1 - c) * nk + map[j];
          val[other + qp] = -PetscAbsReal(a);
          qp++;
        }
      }
      if (excess[i] > 0.0) {
        moved |= col[rp[r + 1] - 1] != copies * nk;
        val[rp[r + 1] - 1] = -excess[i];
      }
    }
    cchanged += moved;
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

static PetscErrorCode Differ_Host(PetscInt n, const PetscInt *a, const PetscInt *b, PetscInt *count)
{
  PetscInt cnt = 0;

  for (PetscInt k = 0; k < n; k++) cnt += a[k] != b[k];
  *count = cnt;
  return 0;
}

GPUPC_KERNEL_TABLE_DEFINE(GPUPCCMGSetupKernels, GPUPCCMGSetupKernelsHost, GPUPC_CMG_SETUP_KERNEL_LIST, "host", _Host);
