/*
   The public setters and getters of PC tasslilu (petscgpupc.h): each calls the function composed as
   "PCTASSLILU<Name>_C" on a tasslilu PC and does nothing on a PC of another type (setters) or refuses it (getters).
*/
#include "tassliluimpl.h"

/*@C
   PCTASSLILUSetLevels - sets the levels of fill k of ILU(k)

   Logically Collective

   Input Parameter:
.  pc - the PC

   Input Parameters:
.  k - the levels of fill k of ILU(k)

   Options Database Key:
.  -pc_tasslilu_levels <k> - the same

   Level: intermediate

.seealso: PCTASSLILU
@*/
PetscErrorCode PCTASSLILUSetLevels(PC pc, PetscInt k)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, k, 2);
  PetscTryMethod(pc, "PCTASSLILUSetLevels_C", (PC, PetscInt), (pc, k));
  PetscFunctionReturn(0);
}

/*@C
   PCTASSLILUGetLevels - gets the levels of fill k of ILU(k)

   Not Collective

   Input Parameter:
.  pc - the PC

   Output Parameters:
.  k - the levels of fill k of ILU(k)

   Level: intermediate

.seealso: PCTASSLILU
@*/
PetscErrorCode PCTASSLILUGetLevels(PC pc, PetscInt *k)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidIntPointer(k, 2);
  PetscUseMethod(pc, "PCTASSLILUGetLevels_C", (PC, PetscInt *), (pc, k));
  PetscFunctionReturn(0);
}

/*@C
   PCTASSLILUSetOrdering - sets the fill-reducing ordering, through MatGetOrdering() (natural, rcm, nd, ...)

   Logically Collective

   Input Parameter:
.  pc - the PC

   Input Parameters:
.  o - the fill-reducing ordering, through MatGetOrdering() (natural, rcm, nd, ...)

   Options Database Key:
.  -pc_tasslilu_ordering <o> - the same

   Level: intermediate

.seealso: PCTASSLILU
@*/
PetscErrorCode PCTASSLILUSetOrdering(PC pc, MatOrderingType o)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);

  PetscTryMethod(pc, "PCTASSLILUSetOrdering_C", (PC, MatOrderingType), (pc, o));
  PetscFunctionReturn(0);
}

/*@C
   PCTASSLILUGetOrdering - gets the fill-reducing ordering

   Not Collective

   Input Parameter:
.  pc - the PC

   Output Parameters:
.  o - the fill-reducing ordering

   Level: intermediate

.seealso: PCTASSLILU
@*/
PetscErrorCode PCTASSLILUGetOrdering(PC pc, MatOrderingType *o)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidPointer(o, 2);
  PetscUseMethod(pc, "PCTASSLILUGetOrdering_C", (PC, MatOrderingType *), (pc, o));
  PetscFunctionReturn(0);
}

/*@C
   PCTASSLILUSetShift - sets what to do with zero pivots (t) and the shift amount a (PETSC_DEFAULT: see PCTASSLILU)

   Logically Collective

   Input Parameter:
.  pc - the PC

   Input Parameters:
+  t - what to do with zero pivots (t) and the shift amount a (PETSC_DEFAULT: see PCTASSLILU)
-  a - see above

   Options Database Key:
.  -pc_tasslilu_shift <t> -pc_tasslilu_shift_amount <a> - the same

   Level: intermediate

.seealso: PCTASSLILU
@*/
PetscErrorCode PCTASSLILUSetShift(PC pc, PCTASSLILUShiftType t, PetscReal a)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, t, 2);
  PetscTryMethod(pc, "PCTASSLILUSetShift_C", (PC, PCTASSLILUShiftType, PetscReal), (pc, t, a));
  PetscFunctionReturn(0);
}

/*@C
   PCTASSLILUGetShift - gets the zero-pivot handling and shift amount (either may be NULL)

   Not Collective

   Input Parameter:
.  pc - the PC

   Output Parameters:
+  t - the zero-pivot handling and shift amount (either may be NULL)
-  a - see above

   Level: intermediate

.seealso: PCTASSLILU
@*/
PetscErrorCode PCTASSLILUGetShift(PC pc, PCTASSLILUShiftType *t, PetscReal *a)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);

  PetscUseMethod(pc, "PCTASSLILUGetShift_C", (PC, PCTASSLILUShiftType *, PetscReal *), (pc, t, a));
  PetscFunctionReturn(0);
}

/*@C
   PCTASSLILUSetSubgraphSize - sets the most rows of a TASSL sub-graph (1 .. 6144; PETSC_DEFAULT: 6144, 48 KB of doubles)

   Logically Collective

   Input Parameter:
.  pc - the PC

   Input Parameters:
.  nmax - the most rows of a TASSL sub-graph (1 .. 6144; PETSC_DEFAULT: 6144, 48 KB of doubles)

   Options Database Key:
.  -pc_tasslilu_subgraph_size <nmax> - the same

   Level: intermediate

.seealso: PCTASSLILU
@*/
PetscErrorCode PCTASSLILUSetSubgraphSize(PC pc, PetscInt nmax)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, nmax, 2);
  PetscTryMethod(pc, "PCTASSLILUSetSubgraphSize_C", (PC, PetscInt), (pc, nmax));
  PetscFunctionReturn(0);
}

/*@C
   PCTASSLILUGetSubgraphSize - gets the most rows of a TASSL sub-graph

   Not Collective

   Input Parameter:
.  pc - the PC

   Output Parameters:
.  nmax - the most rows of a TASSL sub-graph

   Level: intermediate

.seealso: PCTASSLILU
@*/
PetscErrorCode PCTASSLILUGetSubgraphSize(PC pc, PetscInt *nmax)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidIntPointer(nmax, 2);
  PetscUseMethod(pc, "PCTASSLILUGetSubgraphSize_C", (PC, PetscInt *), (pc, nmax));
  PetscFunctionReturn(0);
}

/*@C
   PCTASSLILUSetSolveType - sets the triangular-solve kernels: tassl, levelset or cusparse (cuda backend only)

   Logically Collective

   Input Parameter:
.  pc - the PC

   Input Parameters:
.  t - the triangular-solve kernels: tassl, levelset or cusparse (cuda backend only)

   Options Database Key:
.  -pc_tasslilu_solve <t> - the same

   Level: intermediate

.seealso: PCTASSLILU
@*/
PetscErrorCode PCTASSLILUSetSolveType(PC pc, PCTASSLILUSolveType t)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, t, 2);
  PetscTryMethod(pc, "PCTASSLILUSetSolveType_C", (PC, PCTASSLILUSolveType), (pc, t));
  PetscFunctionReturn(0);
}

/*@C
   PCTASSLILUGetSolveType - gets the triangular-solve kernels

   Not Collective

   Input Parameter:
.  pc - the PC

   Output Parameters:
.  t - the triangular-solve kernels

   Level: intermediate

.seealso: PCTASSLILU
@*/
PetscErrorCode PCTASSLILUGetSolveType(PC pc, PCTASSLILUSolveType *t)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidPointer(t, 2);
  PetscUseMethod(pc, "PCTASSLILUGetSolveType_C", (PC, PCTASSLILUSolveType *), (pc, t));
  PetscFunctionReturn(0);
}

/*@C
   PCTASSLILUSetLaunch - sets how the TASSL solve launches: auto, level (one launch per sub-graph level) or one (ready flags)

   Logically Collective

   Input Parameter:
.  pc - the PC

   Input Parameters:
.  l - how the TASSL solve launches: auto, level (one launch per sub-graph level) or one (ready flags)

   Options Database Key:
.  -pc_tasslilu_launch <l> - the same

   Level: intermediate

.seealso: PCTASSLILU
@*/
PetscErrorCode PCTASSLILUSetLaunch(PC pc, PCTASSLILULaunch l)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, l, 2);
  PetscTryMethod(pc, "PCTASSLILUSetLaunch_C", (PC, PCTASSLILULaunch), (pc, l));
  PetscFunctionReturn(0);
}

/*@C
   PCTASSLILUGetLaunch - gets how the TASSL solve launches

   Not Collective

   Input Parameter:
.  pc - the PC

   Output Parameters:
.  l - how the TASSL solve launches

   Level: intermediate

.seealso: PCTASSLILU
@*/
PetscErrorCode PCTASSLILUGetLaunch(PC pc, PCTASSLILULaunch *l)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidPointer(l, 2);
  PetscUseMethod(pc, "PCTASSLILUGetLaunch_C", (PC, PCTASSLILULaunch *), (pc, l));
  PetscFunctionReturn(0);
}

/*@C
   PCTASSLILUGetInfo - what the TASSL analysis of L and U built (sums over both factors of this rank)

   Not Collective

   Input Parameter:
.  pc - the PC, set up

   Output Parameters:
+  nsub - sub-graphs
.  nlev - sub-graph levels
.  nslots - time slots
.  nedges - edges (off-diagonal entries of L and U)
-  C - concurrency factor 1 - (time slots on the critical path) / edges

   Level: intermediate

.seealso: PCTASSLILU
@*/
PetscErrorCode PCTASSLILUGetInfo(PC pc, PetscInt *nsub, PetscInt *nlev, PetscInt *nslots, PetscInt *nedges, PetscReal *C)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCTASSLILUGetInfo_C", (PC, PetscInt *, PetscInt *, PetscInt *, PetscInt *, PetscReal *), (pc, nsub, nlev, nslots, nedges, C));
  PetscFunctionReturn(0);
}
