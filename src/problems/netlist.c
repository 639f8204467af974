/*
   SPICE power-grid netlist reader (the DC format of the IBM power grid benchmarks).

   Rank 0 parses the netlist: R (resistor), V (ideal voltage source to ground), I (current
   source) elements; C (open at DC), comment lines (*) and dot directives are skipped;
   L and anything else is refused with the line number. Values take SPICE suffixes
   (f p n u m k meg g t) and an optional DC keyword. Node 0 (also gnd) is ground.

   Nodes held by a voltage source are known and eliminated: a resistor g from an unknown
   node u to a known node at V adds g to A(u,u) and g*V to b(u). The unknowns are the other
   nodes, numbered in order of first appearance in the file. A current source "I a b val"
   drives val from a through the source to b: b(a) -= val, b(b) += val. The result is a
   symmetric, diagonally dominant matrix with non-positive off-diagonals; every group of
   connected nodes must reach ground or a voltage source (else an error names a node).
*/
#include "rootread.h"
#include "strmap.h"
#include <ctype.h>
#include <string.h>
#include <errno.h>

typedef struct {
  PetscInt a, b; /* node ids, -1 for ground */
  double   value;
  PetscInt line;
  char     kind; /* 'R', 'V', 'I' */
} Element;

typedef struct {
  FILE         *fp;
  GPUPCStrMap   names;
  Element      *el;
  size_t        nel, elcap;
  PetscReal    *fixed; /* per node: voltage or NaN */
  PetscInt     *idx;   /* per node: unknown number or -1 */
  PetscInt     *uf;    /* union-find over nodes */
  PetscBool    *grounded;
  GPUPCTriplets t;
  PetscInt     *ia, *ja;
  PetscScalar  *a, *rhs;
  PetscInt      N;
} NetRead;

/*
   GPUPCSpiceValue - a SPICE number: decimal, then an optional scale suffix (case-insensitive:
   f p n u m k meg g t mil), then optional unit letters which are ignored.
*/
PetscErrorCode GPUPCSpiceValue(const char s[], double *v, PetscBool *ok)
{
  char  *end;
  double scale = 1.0;

  PetscFunctionBegin;
  errno = 0;
  *v    = strtod(s, &end);
  *ok   = (PetscBool)(end != s && errno != ERANGE && !PetscIsInfOrNanReal(*v));
  if (!*ok) PetscFunctionReturn(0);
  if (!strncasecmp(end, "meg", 3)) scale = 1e6;
  else if (!strncasecmp(end, "mil", 3)) scale = 25.4e-6;
  else switch (tolower((unsigned char)*end)) {
    case 'f': scale = 1e-15; break;
    case 'p': scale = 1e-12; break;
    case 'n': scale = 1e-9; break;
    case 'u': scale = 1e-6; break;
    case 'm': scale = 1e-3; break;
    case 'k': scale = 1e3; break;
    case 'g': scale = 1e9; break;
    case 't': scale = 1e12; break;
    default: break;
    }
  for (; *end; end++)
    if (!isalpha((unsigned char)*end)) *ok = PETSC_FALSE;
  *v *= scale;
  PetscFunctionReturn(0);
}

static PetscErrorCode NodeId(NetRead *r, const char name[], PetscInt *id)
{
  PetscFunctionBegin;
  if (!strcmp(name, "0") || !strcasecmp(name, "gnd")) *id = -1;
  else PetscCall(GPUPCStrMapGetOrAdd(&r->names, name, id));
  PetscFunctionReturn(0);
}

static PetscErrorCode AddElement(NetRead *r, char kind, PetscInt a, PetscInt b, double value, PetscInt line)
{
  PetscFunctionBegin;
  if (r->nel == r->elcap) {
    r->elcap = r->elcap ? 2 * r->elcap : 4096;
    PetscCall(PetscRealloc(r->elcap * sizeof(Element), &r->el));
  }
  r->el[r->nel].kind  = kind;
  r->el[r->nel].a     = a;
  r->el[r->nel].b     = b;
  r->el[r->nel].value = value;
  r->el[r->nel].line  = line;
  r->nel++;
  PetscFunctionReturn(0);
}

static PetscErrorCode Parse(const char file[], NetRead *r)
{
  char      buf[4096];
  PetscInt  lineno = 0;
  PetscBool eof;

  PetscFunctionBegin;
  r->fp = fopen(file, "r");
  PetscCheck(r->fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open netlist %s: %s", file, strerror(errno));
  while (1) {
    char     *tok[6], *save = NULL, *s;
    int       ntok = 0;
    PetscInt  a, b;
    double    v;
    PetscBool ok;
    char      kind;

    PetscCall(GPUPCReadLine(r->fp, file, buf, sizeof(buf), &lineno, &eof));
    if (eof) break;
    for (s = buf; *s && isspace((unsigned char)*s); s++) {}
    if (!*s || *s == '*') continue;
    if (*s == '.') {
      if (!strncasecmp(s, ".end", 4) && (!s[4] || isspace((unsigned char)s[4]))) break;
      continue; /* .op, .print, .option ...: no effect on the DC system */
    }
    PetscCheck(*s != '+', PETSC_COMM_SELF, PETSC_ERR_SUP, "%s:%" PetscInt_FMT ": continuation lines (+) are not supported; join the element onto one line", file, lineno);
    for (char *t = strtok_r(s, " \t", &save); t && ntok < 6; t = strtok_r(NULL, " \t", &save)) tok[ntok++] = t;
    kind = (char)toupper((unsigned char)tok[0][0]);
    if (kind == 'C') continue; /* a capacitor is open at DC */
    PetscCheck(kind != 'L', PETSC_COMM_SELF, PETSC_ERR_SUP, "%s:%" PetscInt_FMT ": inductor %s: inductors (shorts at DC) are not supported; merge its two nodes", file, lineno, tok[0]);
    PetscCheck(kind == 'R' || kind == 'V' || kind == 'I', PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": element %s: only R, V, I (and C, ignored) elements are supported in a power-grid netlist", file, lineno, tok[0]);
    if (ntok == 5 && !strcasecmp(tok[3], "dc")) {
      tok[3] = tok[4];
      ntok   = 4;
    }
    PetscCheck(ntok == 4, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": element %s needs exactly \"name node node value\"", file, lineno, tok[0]);
    PetscCall(GPUPCSpiceValue(tok[3], &v, &ok));
    PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": element %s: \"%s\" is not a number", file, lineno, tok[0], tok[3]);
    PetscCheck(kind != 'R' || v > 0.0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": resistor %s has resistance %g; it must be positive (merge the nodes of a zero-ohm resistor)", file, lineno, tok[0], v);
    PetscCall(NodeId(r, tok[1], &a));
    PetscCall(NodeId(r, tok[2], &b));
    PetscCheck(a != b || kind == 'R', PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": element %s connects node %s to itself", file, lineno, tok[0], tok[1]);
    PetscCall(AddElement(r, kind, a, b, v, lineno));
  }
  PetscFunctionReturn(0);
}

static PetscInt Find(PetscInt *uf, PetscInt x)
{
  while (uf[x] != x) {
    uf[x] = uf[uf[x]];
    x     = uf[x];
  }
  return x;
}

/* eliminate the voltage sources, number the unknowns, build A (CSR) and b */
static PetscErrorCode Build(const char file[], NetRead *r)
{
  PetscInt nn = r->names.count;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(nn, &r->fixed, nn, &r->idx, nn, &r->uf, nn, &r->grounded));
  for (PetscInt i = 0; i < nn; i++) {
    r->fixed[i]    = PETSC_MAX_REAL;
    r->uf[i]       = i;
    r->grounded[i] = PETSC_FALSE;
  }
  for (size_t e = 0; e < r->nel; e++) {
    Element  *el = &r->el[e];
    PetscInt  node;
    PetscReal v;

    if (el->kind != 'V') continue;
    PetscCheck(el->a < 0 || el->b < 0, PETSC_COMM_SELF, PETSC_ERR_SUP, "%s:%" PetscInt_FMT ": voltage source between nodes %s and %s: only sources to ground (node 0) are supported", file, el->line, GPUPCStrMapName(&r->names, el->a), GPUPCStrMapName(&r->names, el->b));
    node = el->a >= 0 ? el->a : el->b;
    v    = el->a >= 0 ? el->value : -el->value;
    PetscCheck(r->fixed[node] == PETSC_MAX_REAL || r->fixed[node] == v, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": node %s is held at %g V by an earlier voltage source and at %g V here", file, el->line, GPUPCStrMapName(&r->names, node), (double)r->fixed[node], (double)v);
    r->fixed[node] = v;
  }
  r->N = 0;
  for (PetscInt i = 0; i < nn; i++) r->idx[i] = r->fixed[i] == PETSC_MAX_REAL ? r->N++ : -1;
  PetscCheck(r->N > 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: no unknown node voltages (every node is ground or held by a voltage source)", file);
  PetscCall(PetscCalloc1(r->N, &r->rhs));
  for (size_t e = 0; e < r->nel; e++) {
    Element *el = &r->el[e];
    PetscInt ua = el->a >= 0 ? r->idx[el->a] : -1, ub = el->b >= 0 ? r->idx[el->b] : -1;

    if (el->kind == 'I') {
      if (ua >= 0) r->rhs[ua] -= el->value;
      if (ub >= 0) r->rhs[ub] += el->value;
    } else if (el->kind == 'R') {
      PetscReal g = 1.0 / el->value;
      if (el->a == el->b) continue; /* a resistor from a node to itself carries no current */
      if (ua >= 0) {
        PetscCall(GPUPCTripletsAdd(&r->t, ua, ua, g));
        if (ub >= 0) PetscCall(GPUPCTripletsAdd(&r->t, ua, ub, -g));
        else {
          if (el->b >= 0) r->rhs[ua] += g * r->fixed[el->b];
          r->grounded[el->a] = PETSC_TRUE;
        }
      }
      if (ub >= 0) {
        PetscCall(GPUPCTripletsAdd(&r->t, ub, ub, g));
        if (ua >= 0) {
          PetscCall(GPUPCTripletsAdd(&r->t, ub, ua, -g));
          r->uf[Find(r->uf, el->a)] = Find(r->uf, el->b);
        } else {
          if (el->a >= 0) r->rhs[ub] += g * r->fixed[el->a];
          r->grounded[el->b] = PETSC_TRUE;
        }
      }
    }
  }
  /* every connected group of unknown nodes must reach ground or a source, else A is singular */
  for (PetscInt i = 0; i < nn; i++)
    if (r->idx[i] >= 0 && r->grounded[i]) r->grounded[Find(r->uf, i)] = PETSC_TRUE;
  for (PetscInt i = 0; i < nn; i++)
    PetscCheck(r->idx[i] < 0 || r->grounded[Find(r->uf, i)], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "%s: node %s (and the nodes connected to it) has no resistive path to ground or to a voltage source, so its voltage is undetermined; remove it or connect it", file, GPUPCStrMapName(&r->names, i));
  PetscCall(GPUPCTripletsToCSR(&r->t, r->N, &r->ia, &r->ja, &r->a));
  PetscFunctionReturn(0);
}

static PetscErrorCode NetReadFree(NetRead *r)
{
  PetscFunctionBegin;
  if (r->fp) fclose(r->fp);
  r->fp = NULL;
  PetscCall(GPUPCStrMapDestroy(&r->names));
  PetscCall(PetscFree(r->el));
  PetscCall(PetscFree4(r->fixed, r->idx, r->uf, r->grounded));
  PetscCall(GPUPCTripletsFree(&r->t));
  PetscCall(PetscFree(r->ia));
  PetscCall(PetscFree(r->ja));
  PetscCall(PetscFree(r->a));
  PetscCall(PetscFree(r->rhs));
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadRoot(const char file[], NetRead *r)
{
  PetscFunctionBegin;
  PetscCall(Parse(file, r));
  PetscCall(Build(file, r));
  PetscFunctionReturn(0);
}

/*@C
   GPUPCMatLoadNetlist - reads a SPICE power-grid netlist (as in the IBM power grid benchmarks)
   into the conductance matrix and right-hand side of its DC node equations

   Collective

   Input Parameters:
+  comm - the communicator
-  file - the netlist

   Output Parameters:
+  A - the conductance matrix over the nodes not held by voltage sources (MATAIJ, then
       MatSetFromOptions()); symmetric, diagonally dominant, non-positive off-diagonals
-  b - the right-hand side: source currents plus the conductance-weighted voltages of the
       eliminated source nodes (may be NULL)

   Notes:
   Rank 0 reads the file and distributes the rows. Supported elements: R, V (to ground),
   I; C is skipped (open at DC); comment lines (*) and dot directives are skipped; .end ends.
   Unknowns are numbered in order of first appearance. Errors name the file and line.

   Level: beginner

.seealso: GPUPCNetlistWritePowerGrid(), GPUPCProblemCreate()
@*/
PetscErrorCode GPUPCMatLoadNetlist(MPI_Comm comm, const char file[], Mat *A, Vec *b)
{
  NetRead        r;
  PetscMPIInt    rank;
  PetscErrorCode ierr = 0;
  PetscInt       N;
  Vec            bs, bm;

  PetscFunctionBegin;
  PetscCall(GPUPCProblemsRegisterEvents());
  PetscCall(PetscLogEventBegin(GPUPC_MatLoadNetlist, 0, 0, 0, 0));
  PetscCall(PetscMemzero(&r, sizeof(r)));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) {
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = ReadRoot(file, &r); /* captured, relayed to every rank below */
    PetscCall(PetscPopErrorHandler());
    if (ierr) PetscCall(NetReadFree(&r));
  }
  PetscCall(GPUPCRootErrorRelay(comm, ierr));
  N = r.N;
  PetscCallMPI(MPI_Bcast(&N, 1, MPIU_INT, 0, comm));
  PetscCall(GPUPCMatCreateFromRootCSR(comm, N, N, r.ia, r.ja, r.a, A));
  PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(GPUPCVecCreateFromRootArray(comm, N, r.rhs, &bs));
  PetscCall(NetReadFree(&r));
  if (b) {
    PetscCall(MatCreateVecs(*A, NULL, &bm));
    PetscCall(VecCopy(bs, bm));
    *b = bm;
  }
  PetscCall(VecDestroy(&bs));
  PetscCall(PetscLogEventEnd(GPUPC_MatLoadNetlist, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}
