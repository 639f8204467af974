/*
   spmv_bcsr.h - the bcsr table of bench/spmv (private to the benchmark; bench/spmv -bcsr runs it):
   blocked matrices (b = 2, 3, 4, 5, 8: a 27-point node stencil on a 3D grid with dense b x b blocks, as Q1 finite
   elements give; b = 3 is elasticity-like, 4 and 5 flow-like) and the bench's elast3d (block size 3), each as bcsr
   (both slice shapes where they differ), cuSPARSE CSR and cuSPARSE BSR of the same matrix, same vectors, same run.
*/
#ifndef SPMV_BCSR_H
#define SPMV_BCSR_H

#include "spmv_problems.h"

/* a value in (-1, 0] from (row, col): the blocked matrices are the same on every run */
static PetscScalar BlockedValue(PetscInt row, PetscInt col)
{
  unsigned long long h = (unsigned long long)row * 0x9E3779B97F4A7C15ULL ^ (unsigned long long)col * 0xC2B2AE3D27D4EB4FULL;
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 29;
  return -(PetscScalar)(h >> 11) / 9007199254740992.0;
}

/* nx^3 nodes, b unknowns each, every node coupled to its (up to) 27 neighbours by a dense b x b block; diagonally
   dominant (diagonal 27 b) */
static PetscErrorCode BenchBlocked(PetscInt b, PetscInt nx, Mat *A)
{
  PetscInt N = nx * nx * nx;
  BenchCSR c;

  PetscFunctionBegin;
  PetscCall(BenchCSRInit(&c, b * N, b * N, (PetscInt)PetscMin((PetscInt64)b * N * 27 * b, PETSC_MAX_INT / 2)));
  for (PetscInt node = 0; node < N; node++) {
    const PetscInt x = node % nx, y = (node / nx) % nx, z = node / (nx * nx);
    for (PetscInt a = 0; a < b; a++) {
      const PetscInt row = b * node + a;
      for (PetscInt dz = -1; dz <= 1; dz++)
        for (PetscInt dy = -1; dy <= 1; dy++)
          for (PetscInt dx = -1; dx <= 1; dx++) {
            const PetscInt nb = node + dx + dy * nx + dz * nx * nx;
            if (x + dx < 0 || x + dx >= nx || y + dy < 0 || y + dy >= nx || z + dz < 0 || z + dz >= nx) continue;
            for (PetscInt q = 0; q < b; q++) PetscCall(BenchCSRPush(&c, b * nb + q, nb == node && q == a ? 27.0 * b : BlockedValue(row, b * nb + q)));
          }
      PetscCall(BenchCSREndRow(&c, row));
    }
  }
  PetscCall(BenchCSRToMat(&c, b, A));
  PetscFunctionReturn(0);
}

/* the bcsr table: -bcsr_problems blk2,blk3,blk4,blk5,blk8,elast3d; -bcsr_rows <3000000> rows of the blkb matrices (grid
   side round((rows/b)^(1/3))), at most -bcsr_max_nnz <4e8> entries; -nelast <100> for elast3d (3 nx^3 rows);
   -bcsr_mappings full,warp: the slice shapes timed (b a power of two: one, the two are the same). Bytes per product
   for the fraction of the copy bandwidth: values 8 b^2 and index 4 per stored block, 4 per block row, x and y 8 (m + n). */
static PetscErrorCode BCSRBench(PetscBool quick, PetscBool timing, PetscInt reps, double copygbs, const char *csvname)
{
  char       *names[16], *maps[2];
  PetscInt    nnames = 16, nmaps = 2, rows = quick ? 6000 : 3000000, nel = quick ? 10 : 100, nrun = 0;
  PetscReal   maxnnz = 4e8;
  PetscBool   set;
  FILE       *csv        = NULL;
  const char *defaults[] = {"blk2", "blk3", "blk4", "blk5", "blk8", "elast3d"};
  double      logcsr = 0.0, logbsr = 0.0;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bcsr_rows", &rows, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nelast", &nel, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-bcsr_max_nnz", &maxnnz, NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-bcsr_problems", names, &nnames, &set));
  if (!set) {
    nnames = 6;
    for (PetscInt k = 0; k < 6; k++) PetscCall(PetscStrallocpy(defaults[k], &names[k]));
  }
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-bcsr_mappings", maps, &nmaps, &set));
  if (!set) {
    nmaps = 2;
    PetscCall(PetscStrallocpy("full", &maps[0]));
    PetscCall(PetscStrallocpy("warp", &maps[1]));
  }
  if (timing) {
    PetscCall(PetscFOpen(PETSC_COMM_WORLD, csvname, "w", &csv));
    PetscCall(PetscFPrintf(PETSC_COMM_WORLD, csv, "matrix,b,rows,nnz,block_density,padding,mapping,bcsr_ms,cusparse_csr_ms,cusparse_bsr_ms,bcsr_bytes,bcsr_GBs,bcsr_pct_copy,speedup_csr,speedup_bsr,copy_GBs\n"));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-8s %2s %10s %11s %7s %7s %-5s %9s %9s %9s %8s %6s %7s %7s\n", "matrix", "b", "rows", "nnz", "density", "padding", "map", "bcsr ms", "csr ms", "bsr ms", "bcsr GB/s", "%copy", "vs csr", "vs bsr"));
  for (PetscInt p = 0; p < nnames; p++) {
    Mat       A, S;
    Vec       x, y, yref;
    PetscInt  b = 0, m, n, bb;
    PetscReal density, padding, rel;
    MatInfo   info;
    double    nnz, tcsr = 0.0, tbsr = 0.0, best = 0.0;
    PetscBool f;

    PetscCall(PetscStrcmp(names[p], "elast3d", &f));
    if (f) {
      PetscCall(BenchElasticity(nel, &A));
      b = 3;
    } else {
      PetscCheck(names[p][0] == 'b' && names[p][1] == 'l' && names[p][2] == 'k' && names[p][3] >= '1' && names[p][3] <= '8' && !names[p][4], PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "unknown problem %s in -bcsr_problems (use blk1 .. blk8, elast3d)", names[p]);
      b = names[p][3] - '0';
      {
        PetscInt nx = (PetscInt)(PetscPowReal((PetscReal)rows / b, 1.0 / 3.0) + 0.5);
        while (nx > 2 && (PetscReal)nx * nx * nx * 27 * b * b > maxnnz) nx--;
        PetscCall(BenchBlocked(b, PetscMax(nx, 2), &A));
      }
    }
    PetscCall(MatGetSize(A, &m, &n));
    PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
    nnz = info.nz_used;
    PetscCall(MatConvert(A, MATBCSR, MAT_INITIAL_MATRIX, &S));
    PetscCall(MatSetFromOptions(S));
    PetscCall(MatCreateVecs(S, &x, &y));
    PetscCall(VecDuplicate(y, &yref));
    PetscCall(VecSetRandom(x, NULL));
    PetscCall(MatMult(A, x, yref));
#if defined(GPUPC_HAVE_CUDA)
    if (timing) {
      PetscCall(GPUPCBenchCuSparseSpMV(A, x, y, reps, &tcsr));
      PetscCall(RelDiff(y, yref, &rel));
      PetscCheck(rel < 1e-10, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: cuSPARSE CSR differs from AIJ (relative %g)", names[p], (double)rel);
      PetscCall(GPUPCBenchCuSparseBSRMV(A, b, x, y, reps, &tbsr));
      PetscCall(RelDiff(y, yref, &rel));
      PetscCheck(rel < 1e-10, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: cuSPARSE BSR differs from AIJ (relative %g)", names[p], (double)rel);
    }
#endif
    for (PetscInt k = 0; k < nmaps; k++) {
      PetscInt       mp;
      double         tb = 0.0, bytes;
      MatBCSRMapping mapping;

      PetscCall(PetscEListFind(2, MatBCSRMappings, maps[k], &mp, &f));
      PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "unknown mapping %s in -bcsr_mappings (use full, warp)", maps[k]);
      mapping = (MatBCSRMapping)mp;
      if (k > 0 && (b & (b - 1)) == 0) continue; /* a power of two: both mappings are the same layout */
      PetscCall(MatBCSRSetMapping(S, mapping));
      PetscCall(MatBCSRGetInfo(S, &bb, &density, &padding, NULL, NULL));
      PetscCall(MatMult(S, x, y));
      PetscCall(RelDiff(y, yref, &rel));
      PetscCheck(rel < 1e-10, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: bcsr (%s) differs from AIJ (relative %g)", names[p], maps[k], (double)rel);
      {
        /* stored blocks: the padding share of them and the blocks holding entries (density) */
        const double blocks = nnz / (density * bb * bb) / (1.0 - padding);
        bytes               = blocks * (8.0 * bb * bb + 4.0) + 4.0 * m / bb + 8.0 * (m + n);
      }
#if defined(GPUPC_HAVE_CUDA)
      if (timing) PetscCall(GPUPCBenchTimeMatMult(S, x, y, reps, &tb));
#endif
      if (timing) {
        const double gbs = bytes / (tb * 1e-3) / 1e9;
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-8s %2" PetscInt_FMT " %10" PetscInt_FMT " %11.0f %7.3f %7.4f %-5s %9.4f %9.4f %9.4f %8.1f %6.1f %7.3f %7.3f\n", names[p], bb, m, nnz, (double)density, (double)padding, maps[k], tb, tcsr, tbsr, gbs, 100.0 * gbs / copygbs, tcsr / tb, tbsr / tb));
        PetscCall(PetscFPrintf(PETSC_COMM_WORLD, csv, "%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%.0f,%.4f,%.4f,%s,%.6f,%.6f,%.6f,%.0f,%.2f,%.2f,%.4f,%.4f,%.2f\n", names[p], bb, m, nnz, (double)density, (double)padding, maps[k], tb, tcsr, tbsr, bytes, gbs, 100.0 * gbs / copygbs, tcsr / tb, tbsr / tb, copygbs));
        if (k == 0) best = tb; /* the geometric means use the default (full) mapping */
      } else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-8s %2" PetscInt_FMT " %10" PetscInt_FMT " %11.0f %7.3f %7.4f %-5s %9s %9s %9s %8s %6s %7s %7s  (bcsr == AIJ: rel %.1e)\n", names[p], bb, m, nnz, (double)density, (double)padding, maps[k], "-", "-", "-", "-", "-", "-", "-", (double)rel));
    }
    if (timing && best > 0.0) {
      logcsr += PetscLogReal(tcsr / best);
      logbsr += PetscLogReal(tbsr / best);
      nrun++;
    }
    PetscCall(MatBCSRSetMapping(S, MAT_BCSR_MAPPING_FULL));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
    PetscCall(VecDestroy(&yref));
    PetscCall(MatDestroy(&S));
    PetscCall(MatDestroy(&A));
  }
  if (nrun) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "geometric mean speedup of bcsr (full mapping) over %" PetscInt_FMT " matrices: %.3f vs cuSPARSE CSR, %.3f vs cuSPARSE BSR\nCSV: %s\n", nrun, exp(logcsr / nrun), exp(logbsr / nrun), csvname));
  if (csv) PetscCall(PetscFClose(PETSC_COMM_WORLD, csv));
  for (PetscInt k = 0; k < nnames; k++) PetscCall(PetscFree(names[k]));
  for (PetscInt k = 0; k < nmaps; k++) PetscCall(PetscFree(maps[k]));
  PetscFunctionReturn(0);
}

#endif
