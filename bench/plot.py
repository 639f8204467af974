#!/usr/bin/env python3
"""Pictures of the GPUPC benchmarks: bench CSV files in, PNG files out (Debian's python3-matplotlib).

    bench/plot.py [CSV files or directories ...] [-o OUTDIR] [--card NAME]

Without arguments it reads bench/results/ (the CSVs of a GPU run kept in the repository). Recognised by their header:

  bench/spmv -csv                 spmv_bandwidth[_<name>].png: SpMV bandwidth per matrix, segcsr and hec against
                                  cuSPARSE, the device copy bandwidth of the same run as a line (the ceiling)
  bench/spmv -reuse_csv           spmv_reuse[_<name>].png: new values on the same pattern against a device copy plus a
                                  page-locked upload of the same bytes
  bench/cmg -csv (bench/cmg.sh    setup_<problem>_<n>.png: setup time by phase of cmg (cuda double/single, host) beside
  with BENCH_CSV=dir: cmg.csv)    the setup of gpuamg, GAMG and BoomerAMG, and the solve times
  history_<problem>_<n>_<solver>  convergence_<problem>_<n>.png: true relative residual per PCG iteration of each solver
  .csv (bench/cmg.sh)

Files it does not recognise are listed and skipped. The titles name the card: --card, else the first line after the
header of a gpu.txt (nvidia-smi --query-gpu=name,... --format=csv) in the first input directory, else none.
tools/gpu-session.sh plots writes all of these inputs on the GPU (tools/plots.sh draws them into docs/img).
"""
import argparse
import collections
import csv
import glob
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

SPMV_HEADER = "matrix,rows,cols,nnz"
REUSE_HEADER = "matrix,rows,nnz,segment_length,padding,value_bytes"
CMG_HEADER = "problem,n,nnz,solver,backend,precision"
HISTORY_HEADER = "iteration,relres"
PHASES = [("reduce_s", "reduction"), ("cluster_s", "clustering"), ("galerkin_s", "Galerkin"), ("coarse_s", "last-level factor"), ("upload_only_s", "upload")]


CARD = ""  # the GPU that measured the CSVs, for the titles


def titled(text):
    return f"{text}\n{CARD}" if CARD else text


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def number(row, key):
    v = row.get(key, "")
    return float(v) if v not in ("", None) else None


def stem(path):
    return os.path.splitext(os.path.basename(path))[0]


def save(fig, outdir, name):
    path = os.path.join(outdir, name)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    print(f"plot.py: wrote {path}")
    return path


def plot_spmv(path, rows, outdir):
    names = [r["matrix"] for r in rows]
    kinds = [("segcsr_GBs", "segcsr (GPUPC)"), ("hec_GBs", "hec (GPUPC)"), ("cusparse_GBs", "cuSPARSE CSR")]
    kinds = [(k, name) for k, name in kinds if any(number(r, k) for r in rows)]  # older CSVs have no hec columns
    copy = max((number(r, "copy_GBs") or 0.0) for r in rows)
    fig, ax = plt.subplots(figsize=(max(7.5, 1.1 * len(rows) + 2), 5))
    width = 0.8 / len(kinds)
    top = copy
    for i, (key, name) in enumerate(kinds):
        xs = [x + (i - (len(kinds) - 1) / 2) * width for x in range(len(rows))]
        vals = [number(r, key) or 0.0 for r in rows]
        top = max([top] + vals)
        ax.bar(xs, vals, width, label=name)
        if key != "cusparse_GBs":  # each GPUPC bar carries its speedup over cuSPARSE (same run, same vectors)
            for x, v, r in zip(xs, vals, rows):
                cus = number(r, "cusparse_GBs")
                if v and cus:
                    ax.text(x, v, f"{v / cus:.2f}x", ha="center", va="bottom", fontsize=7, rotation=90)
    if copy > 0:
        ax.axhline(copy, color="k", linestyle="--", linewidth=1, label=f"device copy {copy:.0f} GB/s")
    ax.set_ylim(0, 1.35 * top)
    ax.set_xticks(list(range(len(rows))))
    ax.set_xticklabels(names, rotation=30, ha="right")
    ax.set_ylabel("effective bandwidth (GB/s)")
    ax.set_title(titled("SpMV bandwidth per matrix (bytes of the CSR floor / time),\nGPUPC bars labelled with their speedup over cuSPARSE"))
    ax.legend(loc="upper center", ncol=len(kinds) + 1, fontsize=8)
    suffix = "" if stem(path) == "spmv" else "_" + stem(path).replace("spmv_", "")
    return [save(fig, outdir, f"spmv_bandwidth{suffix}.png")]


def plot_reuse(path, rows, outdir):
    names = [r["matrix"] for r in rows]
    upd = [number(r, "update_ms") or 0.0 for r in rows]
    ref = [(number(r, "d2d_copy_ms") or 0.0) + (number(r, "h2d_pinned_ms") or 0.0) for r in rows]
    fig, ax = plt.subplots(figsize=(max(6.0, 0.9 * len(rows) + 2), 4.5))
    xs = range(len(rows))
    ax.bar([x - 0.2 for x in xs], upd, 0.4, label="segcsr value update")
    ax.bar([x + 0.2 for x in xs], ref, 0.4, label="page-locked upload + device copy of the same bytes")
    ax.set_xticks(list(xs))
    ax.set_xticklabels(names, rotation=30, ha="right")
    ax.set_ylabel("ms")
    ax.set_title(titled("New values on the same pattern"))
    ax.legend()
    name = stem(path)
    suffix = name[len("spmv_reuse"):] if name.startswith("spmv_reuse") else "_" + name
    return [save(fig, outdir, f"spmv_reuse{suffix}.png")]


def label(r):
    if r["solver"] == "cmg":
        return f"cmg {r['backend']} {r['precision']}"
    where = r["backend"]
    if where.startswith("host-") and where.endswith("ranks"):
        where = f"{where[5:-5]} host cores"
    return {"gamg": "GAMG", "hypre": "BoomerAMG"}.get(r["solver"], r["solver"]) + f" ({where})"


def plot_cmg(rows, outdir):
    out = []
    groups = collections.OrderedDict()
    for r in rows:
        groups.setdefault((r["problem"], r["n"]), []).append(r)
    for (problem, n), rs in groups.items():
        fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 4.5), gridspec_kw={"width_ratios": [3, 2]})
        names = [label(r) for r in rs]
        xs = list(range(len(rs)))
        bottom = [0.0] * len(rs)
        for key, name in PHASES:
            vals = [number(r, key) or 0.0 for r in rs]
            if any(vals):
                ax.bar(xs, vals, 0.6, bottom=bottom, label=name)
                bottom = [b + v for b, v in zip(bottom, vals)]
        rest = [max((number(r, "setup_s") or 0.0) - b, 0.0) for r, b in zip(rs, bottom)]
        ax.bar(xs, rest, 0.6, bottom=bottom, label="whole setup (no phases: gpuamg, GAMG, BoomerAMG)", color="0.75")
        for x, r in zip(xs, rs):
            ax.text(x, number(r, "setup_s") or 0.0, f"{number(r, 'setup_s') or 0.0:.2f} s", ha="center", va="bottom", fontsize=8)
        ax.set_xticks(xs)
        ax.set_xticklabels(names, rotation=20, ha="right")
        ax.set_ylabel("setup (s)")
        ax.set_title(titled(f"{problem}, {rs[0]['n']} rows: setup by phase"))
        ax.legend(fontsize=8)
        solve = [number(r, "solve_s") or 0.0 for r in rs]
        bx.bar(xs, solve, 0.6, color="tab:green")
        for x, r, v in zip(xs, rs, solve):
            bx.text(x, v, f"{int(float(r['its']))} its", ha="center", va="bottom", fontsize=8)
        bx.set_yscale("log")
        bx.set_xticks(xs)
        bx.set_xticklabels(names, rotation=20, ha="right")
        bx.set_ylabel("solve to relres 1e-8 (s, log)")
        bx.set_title("solve")
        out.append(save(fig, outdir, f"setup_{problem}_{n}.png"))
    return out


def history_label(solver):
    """legend entry of a history file's solver part (bench/cmg.sh: cmg-<backend>-<precision>, gpuamg, gamg, hypre)"""
    if solver.startswith("cmg-"):
        return "cmg " + solver[4:].replace("-", " ")
    return {"gamg": "GAMG (host cores)", "hypre": "BoomerAMG (host cores)", "gpuamg": "gpuamg"}.get(solver, solver)


def plot_histories(files, outdir):
    out = []
    groups = collections.OrderedDict()
    for path in files:
        parts = stem(path).split("_")  # history_<problem>_<n>_<solver>
        if len(parts) < 4:
            print(f"plot.py: {path}: not named history_<problem>_<n>_<solver>.csv; skipped")
            continue
        groups.setdefault((parts[1], parts[2]), []).append(("_".join(parts[3:]), path))
    for (problem, n), items in groups.items():
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for solver, path in sorted(items):
            rows = read(path)
            ax.semilogy([int(r["iteration"]) for r in rows], [float(r["relres"]) for r in rows], marker=".", label=history_label(solver))
        ax.set_xlabel("PCG iteration")
        ax.set_ylabel("true relative residual")
        ax.set_title(titled(f"{problem}, n = {n}: convergence"))
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
        out.append(save(fig, outdir, f"convergence_{problem}_{n}.png"))
    return out


def card_of(folder):
    """the card named in folder/gpu.txt (nvidia-smi's CSV: a header, then name, driver, ... per GPU), or """""
    path = os.path.join(folder, "gpu.txt")
    if not os.path.isfile(path):
        return ""
    with open(path) as f:
        lines = [line.strip() for line in f if line.strip()]
    return lines[1].split(",")[0].strip() if len(lines) > 1 else ""


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("inputs", nargs="*", help="CSV files or directories of them (default: bench/results)")
    ap.add_argument("-o", "--outdir", help="where the PNGs go (default: next to the first input)")
    ap.add_argument("--card", help="the GPU that measured the CSVs, for the titles (default: from gpu.txt)")
    args = ap.parse_args()
    inputs = args.inputs or [os.path.join(here, "results")]
    global CARD
    CARD = args.card or card_of(inputs[0] if os.path.isdir(inputs[0]) else os.path.dirname(os.path.abspath(inputs[0])))
    files = []
    for p in inputs:
        if os.path.isdir(p):
            files += sorted(glob.glob(os.path.join(p, "*.csv")))
        elif os.path.isfile(p):
            files.append(p)
        else:
            sys.exit(f"plot.py: {p} does not exist (run tools/gpu-session.sh plots on the GPU, then tools/plots.sh)")
    if not files:
        sys.exit(f"plot.py: no CSV files in {' '.join(inputs)}")
    outdir = args.outdir or (inputs[0] if os.path.isdir(inputs[0]) else os.path.dirname(os.path.abspath(inputs[0])))
    os.makedirs(outdir, exist_ok=True)
    written, cmg_rows, histories = [], [], []
    for path in files:
        with open(path) as f:
            header = f.readline().strip()
        if header.startswith(SPMV_HEADER):
            written += plot_spmv(path, read(path), outdir)
        elif header.startswith(REUSE_HEADER):
            written += plot_reuse(path, read(path), outdir)
        elif header.startswith(CMG_HEADER):
            cmg_rows += read(path)
        elif header.startswith(HISTORY_HEADER):
            histories.append(path)
        else:
            print(f"plot.py: {path}: header not recognised ({header[:60]}); skipped")
    if cmg_rows:
        written += plot_cmg(cmg_rows, outdir)
    if histories:
        written += plot_histories(histories, outdir)
    if not written:
        sys.exit("plot.py: none of the files was a bench CSV")
    return 0


if __name__ == "__main__":
    sys.exit(main())
