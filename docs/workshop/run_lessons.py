#!/usr/bin/env python3
"""Run every workshop lesson's commands and keep what they print (docs/workshop/results/).

    python3 docs/workshop/run_lessons.py                 # all lessons, the sizes the lessons show (< 15 min, 2 cores)
    python3 docs/workshop/run_lessons.py --lesson 06     # one lesson (prefix of its folder name)
    python3 docs/workshop/run_lessons.py --smoke         # every command at tiny sizes, repeat 1, no charts (ctest)
    python3 docs/workshop/run_lessons.py --list          # print the commands of every lesson

The commands are the ones printed in the lesson files, word for word: the smoke mode checks that each
lesson file still contains each of its commands, so the text and the script cannot drift apart. In the
smoke mode `--repeat N` becomes `--repeat 1`, the lesson's `smoke` overrides are added as `--set`, outputs
go to a temporary folder and every command must exit 0 (every run verified).

Binaries come from PROXYLAB_BUILD_DIR (default build/openmp), as for ./proxylab itself.
Standard library only.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shlex
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RESULTS = HERE / "results"
sys.path.insert(0, str(ROOT / "python"))
from proxylab_tools import launch, stats  # noqa: E402  (the thread-binding rule; the median)


@dataclass
class Step:
    """One command of a lesson: `./proxylab ARGS`. name: file stem of its output under results/<lesson>/.
    smoke: --set overrides for the tiny ctest run. out: what the script adds ('dir': --out results/<lesson>/<name>
    --quiet; 'json': --json results/<lesson>/<name>.json; 'none': nothing; 'pair': an exercise: Begin/Solution, or one stage's --vary values)."""
    name: str
    args: str
    smoke: list[str] = field(default_factory=list)
    out: str = "dir"
    keep: str = ""  # regex: timer-region rows (compare) or output lines (run) shown in the lesson page


@dataclass
class Lesson:
    folder: str
    title: str
    steps: list[Step]


POP = "--deck inputs/pop/small.yaml"
EVH1 = ("compare evh1 --deck inputs/evh1/sedov-128.yaml --set time.t_end=0.02 --set verify.sedov_radius=0.05 "
        "--set verify.sedov_jump=3")
PST = "compare pstswm --deck inputs/pstswm/T42L18-case2.yaml --set time.steps=20"
FFT = "compare fft3d --deck inputs/fft3d/64cube.yaml"
FFT_RUN = "--deck inputs/fft3d/64cube.yaml --set fft3d.nx=1024 --set fft3d.ny=1024 --set fft3d.iterations=5"
TRACES = "docs/workshop/results/10-load-imbalance"
POP_SMOKE = ["solver.max_iters=20", "solver.crit=0"]
EVH1_SMOKE = ["grid.nx=32", "grid.ny=32", "time.max_steps=3", "verify.sedov_jump=0.01", "verify.sedov_radius=10",
              "verify.diagonal=10"]
PST_SMOKE = ["model.truncation=10", "time.steps=4"]
FFT_SMOKE = ["fft3d.nx=16", "fft3d.ny=16", "fft3d.nz=16", "fft3d.iterations=1", "fft3d.warmup=0"]
POP_REGIONS, EVH1_REGIONS = r"^solve/(halo|reduction)", r"(sweep_x|sweep_y|communication)$"
PST_REGIONS, FFT_REGIONS = r"(legendre|comm)$", r"(transpose|local_fft)$"

LESSONS = [
    Lesson("01-measuring", "Measuring honestly", [
        Step("perturbation-pop", f"perturbation pop {POP} --ranks 2 --repeat 5", POP_SMOKE),
        Step("null-compare-stream",
             "compare stream --deck inputs/stream/small.yaml --vary stream.scalar=0.4,0.5 --ranks 1 --repeat 7",
             ["stream.n=65536", "stream.iterations=3"]),
    ]),
    Lesson("02-know-the-machine", "Know the machine", [
        Step("stream-sweep", "sweep stream --set stream.n=4194304 --ranks 1,2 --mode weak --repeat 3",
             ["stream.n=65536", "stream.iterations=3"]),
        Step("comm-probe", "run --deck inputs/comm/small.yaml --ranks 2 comm", [], out="json",
             keep=r"^(pingpong|ring|allreduce):"),
        Step("dgemm-pstswm", "run --deck inputs/pstswm/small.yaml --set perf.measure_dgemm=true pstswm",
             PST_SMOKE, out="json", keep=r"DGEMM [0-9]"),
        Step("roofline", "roofline --out roofline", out="none"),
    ]),
    Lesson("03-vectorization", "Vectorization and loop structure", [
        Step("evh1-pencil-batched", f"{EVH1} --vary evh1.mapping=pencil,batched --ranks 1 --repeat 3", EVH1_SMOKE,
             keep=EVH1_REGIONS),
        Step("pop-mapping", f"compare pop {POP} --vary solver.mapping=flat,mdrange,team --ranks 1 --repeat 3",
             POP_SMOKE, keep=r"^solve/(operator|vector)"),
    ]),
    Lesson("04-compile-time-constants", "Tell the compiler what you know", [
        Step("pstswm-fixed-levels",
             f"{PST} --set transform.lt=loop --vary transform.fixed_levels=false,true --ranks 1 --repeat 3",
             PST_SMOKE, keep=PST_REGIONS),
    ]),
    Lesson("05-library-substitution", "Library substitution", [
        Step("pstswm-loop-gemm", f"{PST} --vary transform.lt=loop,gemm --ranks 1 --repeat 3", PST_SMOKE,
             keep=PST_REGIONS),
    ]),
    Lesson("06-halo-protocols", "Halo exchange protocols", [
        Step("pop-halo", f"compare pop {POP} --vary comm.halo=packed,sendrecv,persistent,datatype,rma "
             "--ranks 2 --repeat 3", POP_SMOKE, keep=POP_REGIONS),
        Step("comm-halo", "run --ranks 2 --set probe.tests=halo --set halo.tiles=8,64,512 --set halo.widths=2 "
             "--set probe.repetitions=50 comm", ["halo.tiles=8", "probe.repetitions=2"], out="json",
             keep=r"^halo:"),
    ]),
    Lesson("07-latency-bound-reductions", "Latency-bound reductions", [
        Step("pop-solvers", f"compare pop {POP} --vary solver.name=pcg,chrongear,pcsi,pipecg --ranks 2 --repeat 3",
             POP_SMOKE, keep=POP_REGIONS),
        Step("pop-reduce", f"compare pop {POP} --set solver.name=pipecg "
             "--vary comm.reduce=allreduce,iallreduce,reproducible --ranks 2 --repeat 3", POP_SMOKE,
             keep=POP_REGIONS),
        Step("exercise-07", "exercise 07-fuse-reductions --ranks 2 --repeat 5 --set ex.iterations=20000",
             ["ex.iterations=50"], out="pair"),
    ]),
    Lesson("08-transpose-vs-distributed", "Transpose vs distributed algorithms", [
        Step("pstswm-algorithm", f"{PST} --vary parallel.algorithm=transpose,distributed --ranks 2 --repeat 3",
             PST_SMOKE, keep=PST_REGIONS),
        Step("evh1-algorithm", f"{EVH1} --vary evh1.algorithm=transpose,halo --ranks 2 --repeat 3", EVH1_SMOKE,
             keep=EVH1_REGIONS),
    ]),
    Lesson("09-alltoall-and-the-node", "All-to-all and the node", [
        Step("fft3d-decomposition",
             f"{FFT} --set fft3d.local=staged --vary fft3d.decomposition=slab,pencil --ranks 2 --repeat 3",
             FFT_SMOKE, keep=FFT_REGIONS),
        Step("fft3d-transpose",
             f"{FFT} --vary fft3d.transpose=alltoall,alltoallv,pairwise,nonblocking,node_aware --ranks 2 --repeat 3",
             FFT_SMOKE, keep=FFT_REGIONS),
    ]),
    Lesson("10-load-imbalance", "Finding load imbalance", [
        Step("trace-balanced", f"run --ranks 2 --trace {TRACES}/trace-balanced.json {FFT_RUN} --set fft3d.nz=4 fft3d",
             ["fft3d.nx=64", "fft3d.ny=64", "fft3d.iterations=1", "fft3d.warmup=0"], out="none"),
        Step("gantt-balanced", f"gantt {TRACES}/trace-balanced.json", out="none"),
        Step("trace-imbalanced",
             f"run --ranks 2 --trace {TRACES}/trace-imbalanced.json {FFT_RUN} --set fft3d.nz=3 fft3d",
             ["fft3d.nx=64", "fft3d.ny=64", "fft3d.iterations=1", "fft3d.warmup=0"], out="none"),
        Step("gantt-imbalanced", f"gantt {TRACES}/trace-imbalanced.json", out="none"),
        Step("trace-slowed",
             f"run --ranks 2 --trace {TRACES}/trace-slowed.json --deck inputs/pop/x1.yaml "
             "--set solver.fused=false --set imbalance.slow_ranks=1 --set imbalance.slow_factor=3 pop",
             ["grid.nx=64", "grid.ny=48"], out="none"),
        Step("gantt-slowed", f"gantt {TRACES}/trace-slowed.json", out="none"),
    ]),
    Lesson("11-ranks-vs-threads", "Ranks vs threads", [
        Step("evh1-ranks-threads", f"{EVH1} --vary evh1.algorithm=halo --ranks 1,2 --threads 1,2 --oversubscribe --repeat 3",
             EVH1_SMOKE, keep=EVH1_REGIONS),
    ]),
    Lesson("12-memory-layout", "Memory layout and alignment", [
        Step("exercise-12", "exercise 12-layout --ranks 1 --repeat 5 --set ex.n=2048 --set ex.sweeps=20",
             ["ex.n=64", "ex.sweeps=2"], out="pair"),
        Step("padding", "exercise 12-layout --stage begin --ranks 1 --repeat 5 --set ex.n=2048 --set ex.sweeps=20 "
             "--vary ex.pad=0,8,64", ["ex.n=64", "ex.sweeps=2"], out="pair"),
        Step("first-touch", "exercise 12-layout --stage solution --ranks 1 --threads 2 --repeat 5 --set ex.n=8192 "
             "--set ex.sweeps=10 --vary ex.first_touch=parallel,serial", ["ex.n=64", "ex.sweeps=2"], out="pair"),
    ]),
    Lesson("13-predict-before-you-measure", "Predict before you measure", [
        Step("model-pstswm-xt4", "model pstswm --deck inputs/pstswm/T42L18-case2.yaml --set time.steps=20 --machine xt4 "
             "--vary parallel.algorithm=transpose,distributed --ranks 1,4,16,64,256,1024", PST_SMOKE),
        Step("model-pop-x1", "model pop --deck inputs/pop/x1.yaml --set solver.max_iters=100 --set solver.crit=0 "
             "--machine x1 --vary solver.name=pcg,pcsi --ranks 1,16,64,256,1024,4096",
             [*POP_SMOKE, "grid.nx=64", "grid.ny=48"]),
        Step("model-pstswm-here", "model pstswm --deck inputs/pstswm/T42L18-case2.yaml --set time.steps=20 "
             "--machine vm --ranks 1,2", PST_SMOKE),
        Step("model-pstswm-here-calibrated", "model pstswm --deck inputs/pstswm/T42L18-case2.yaml --set time.steps=20 "
             "--machine vm --kernels calibrated --ranks 1,2", PST_SMOKE),
        Step("sweep-pstswm-here", "sweep pstswm --deck inputs/pstswm/T42L18-case2.yaml --set time.steps=20 "
             "--ranks 1,2 --repeat 3", PST_SMOKE),
    ]),
]


def machine_text() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        load = "?"
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    return (f"host {socket.gethostname()}, {os.cpu_count()} cores ({cpu}), {platform.system()} "
            f"{platform.release()}; date {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC; load average {load} "
            f"at the start; git {commit}")


def command_words(step: Step, lesson: Lesson, smoke: bool, outdir: Path) -> list[str]:
    """The ./proxylab argument list of one step (smoke: repeat 1, tiny overrides, no plot)."""
    words, extra = shlex.split(step.args), []
    if smoke:
        if "--repeat" in words:
            words[words.index("--repeat") + 1] = "1"
        for kv in step.smoke:
            extra += ["--set", kv]
        if words[0] in ("compare", "sweep", "perturbation", "gantt", "roofline", "model"):
            extra.append("--no-plot")
        if words[0] == "roofline":
            extra += ["--quick", "--repeat", "1"]
        words = [w.replace("docs/workshop/results/" + lesson.folder, str(outdir)) for w in words]
    if words[0] == "roofline":  # the lesson names the participant's own folder; this run writes the lesson's results
        words[words.index("--out") + 1] = str(outdir / "roofline")
    if step.out == "dir":
        extra += ["--out", str(outdir / step.name), "--quiet"]
    elif step.out == "json":
        extra += ["--json", str(outdir / f"{step.name}.json")]
    # `./proxylab run` passes everything after the app name to the binary: its own options go before it
    return words[:-1] + extra + words[-1:] if words[0] == "run" else words + extra


def check_lesson_text(lesson: Lesson) -> list[str]:
    """Every command must appear word for word in the lesson file."""
    text = " ".join((HERE / f"{lesson.folder}.md").read_text().split()) if (HERE / f"{lesson.folder}.md").exists() \
        else ""
    wanted = [line for s in lesson.steps
              for line in (exercise_lines(s) if s.out == "pair" else [f"./proxylab {s.args}"])]
    return [f"{lesson.folder}.md lacks the command '{w}'" for w in wanted if w not in text]


@dataclass
class Exercise:
    """'exercise NN-name --ranks R [--threads T] --repeat K [--stage begin|solution] [--vary KEY=v1,v2] --set ...':
    without --vary, Begin against Solution; with it, the values of KEY on one stage (default solution)."""
    name: str
    ranks: int
    threads: int
    repeat: int
    sets: list[str]  # --set words
    variants: list[tuple[str, str, list[str]]]  # (label, stage, extra --set words)


def exercise_commands(step: Step) -> Exercise:
    words = shlex.split(step.args)
    opt = lambda flag, default: words[words.index(flag) + 1] if flag in words else default
    sets = [w for i, w in enumerate(words) if i > 1 and words[i - 1] == "--set"]
    if "--vary" in words:
        key, values = opt("--vary", "").split("=", 1)
        stage = opt("--stage", "solution")
        variants = [(f"{key.split('.')[-1]}={v}", stage, ["--set", f"{key}={v}"]) for v in values.split(",")]
    else:
        variants = [("begin", "begin", []), ("solution", "solution", [])]
    return Exercise(words[1], int(opt("--ranks", 1)), int(opt("--threads", 1)), int(opt("--repeat", 1)),
                    [x for kv in sets for x in ("--set", kv)], variants)


# The launcher the lessons name for the exercises: that of Debian's MPICH, which ./proxylab setup installs and builds
# with (a plain `mpiexec` may be another MPI's, which starts separate one-rank jobs: the binaries refuse that, exit 2).
LESSON_MPIEXEC = "mpiexec.mpich"


def exercise_lines(step: Step) -> list[str]:
    """The commands a lesson shows for an exercise step, one per variant."""
    ex = exercise_commands(step)
    return [f"OMP_NUM_THREADS={ex.threads} {LESSON_MPIEXEC} -n {ex.ranks} build/openmp/bin/proxylab-workshop-"
            f"{ex.name[:2]}-{stage} {' '.join(ex.sets + extra)}".strip() for _, stage, extra in ex.variants]


def run_exercise(step: Step, smoke: bool, log_path: Path, env: dict) -> tuple[int, float]:
    """The variants of an exercise interleaved --repeat times; a table of the FOM (median, min, max, and the
    median of back-to-back ratios to the first variant)."""
    ex = exercise_commands(step)
    repeat, sets = (1, ex.sets + [x for kv in step.smoke for x in ("--set", kv)]) if smoke else (ex.repeat, ex.sets)
    bindir = Path(env["PROXYLAB_BUILD_DIR"]) / "bin"
    # The front end's mpiexec (PROXYLAB_MPIEXEC, else MPICH's) with its environment (the rank count the binaries
    # check); unbound, as the lesson's line runs them.
    plan = launch.Launch(ex.ranks, ex.threads, launch.LaunchOptions("mpiexec", oversubscribe=True))
    env = plan.env(env)
    foms: dict[str, list[float]] = {label: [] for label, _, _ in ex.variants}
    unit, rc_all, t0 = "", 0, time.time()
    with open(log_path, "w") as log:
        for _ in range(repeat):
            for label, stage, extra in ex.variants:
                cmd = plan.command(str(bindir / f"proxylab-workshop-{ex.name[:2]}-{stage}"), sets + extra)
                res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env)
                log.write("$ " + " ".join(cmd) + "\n" + res.stdout + res.stderr)
                m = re.search(r"^FOM: ([-+0-9.eE]+) (\S+)", res.stdout, re.M)
                ok = res.returncode == 0 and "VERIFICATION: PASSED" in res.stdout and m
                rc_all = rc_all or (0 if ok else (res.returncode or 1))
                if m:
                    foms[label].append(float(m.group(1)))
                    unit = m.group(2)
        first = ex.variants[0][0]
        if all(len(v) == len(foms[first]) > 0 for v in foms.values()):
            log.write(f"\nexercise {ex.name}: {ex.ranks} rank(s) x {ex.threads} thread(s), {repeat} repeat(s) "
                      f"interleaved; FOM [{unit}]\n")
            log.write(f"{'variant':22s} {'n':>2s} {'median':>10s} {'min':>10s} {'max':>10s}  ratio to {first}\n")
            for label, v in foms.items():
                r = stats.median(b / a for a, b in zip(foms[first], v))
                log.write(f"{label:22s} {len(v):2d} {stats.median(v):10.4g} {min(v):10.4g} {max(v):10.4g}  "
                          f"{r:.3f}\n")
    return rc_all, time.time() - t0


def exercise_table(log_text: str) -> str:
    """The FOM table run_exercise writes at the end of an exercise's log ('' when a run failed before it)."""
    return ("exercise " + log_text.split("\nexercise ", 1)[1]).strip() if "\nexercise " in log_text else ""


def run_step(words: list[str], log_path: Path, env: dict) -> tuple[int, float]:
    t0 = time.time()
    with open(log_path, "w") as log:
        log.write("$ ./proxylab " + " ".join(shlex.quote(w) for w in words) + "\n")
        log.flush()
        rc = subprocess.run([str(ROOT / "proxylab")] + words, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                            env=env).returncode
    return rc, time.time() - t0


def verified(step: Step, rc: int, log_path: Path) -> bool:
    text = log_path.read_text(errors="replace")
    if step.args.startswith("run "):
        return rc == 0 and "VERIFICATION: PASSED" in text
    return rc == 0


def compare_summary(records: Path) -> list[str]:
    """One line per rank x thread configuration: each variant's median FOM and time and its ratio to the first."""
    doc = json.loads(records.read_text())
    lines = []
    for key, conf in doc.get("summary", {}).get("configs", {}).items():
        parts = []
        by_name = {m["metric"]: m for m in conf.get("metrics", [])}
        fom = next((m for name, m in by_name.items() if name.startswith("FOM")), None)
        rt = by_name.get("run time [s]")
        for label, v in (fom or {}).get("variants", {}).items():
            t = rt["variants"].get(label, {}) if rt else {}
            parts.append(f"{label} {v['median']:.4g} (x{v['ratio']:.2f}; time x{t.get('ratio', float('nan')):.2f})")
        if fom:
            lines.append(f"{key} ranks x threads, {fom['metric']}: " + "; ".join(parts))
    return lines


def summary_lines(lesson: Lesson, step: Step) -> list[str]:
    """The lines results/SUMMARY.md has now for one step (git keeps no records.json: a page rewrite or a partial rerun
    keeps the headline of a compare step whose records are not here)."""
    path, section, lines = RESULTS / "SUMMARY.md", "", []
    for line in (path.read_text().splitlines() if path.exists() else []):
        section = line if line.startswith("## ") else section
        if section.startswith(f"## {lesson.folder}:") and line.startswith((f"- `{step.name}` ", f"- `{step.name}`:")):
            lines.append(line)
    return lines


def write_summary(lessons: list[Lesson]) -> None:
    """results/SUMMARY.md: the headline numbers of every lesson from the files just written (a compare step without
    its records.json keeps its lines)."""
    out = ["# Workshop results: headline numbers", "", "Machine and runs:", "",
           *[f"- {line}" for line in (RESULTS / "MACHINE.txt").read_text().strip().splitlines()],
           "", "Ratios are medians of back-to-back pairs, variant / first variant (FOM; and run time).", ""]
    for lesson in lessons:
        out.append(f"## {lesson.folder}: {lesson.title}")
        for step in lesson.steps:
            folder, txt = RESULTS / lesson.folder, RESULTS / lesson.folder / f"{step.name}.txt"
            if (folder / step.name / "records.json").exists() and step.args.startswith("compare"):
                out += [f"- `{step.name}` " + line for line in compare_summary(folder / step.name / "records.json")]
            elif step.args.startswith("compare") and summary_lines(lesson, step):
                out += summary_lines(lesson, step)
            elif step.out == "pair" and txt.exists():
                out += [f"- `{step.name}` " + l.strip() for l in exercise_table(txt.read_text()).splitlines()
                        if l.strip() and not l.startswith("variant ")]
            else:
                out.append(f"- `{step.name}`: see `{lesson.folder}/{step.name}.txt`")
        out.append("")
    (RESULTS / "SUMMARY.md").write_text("\n".join(out))


def excerpt(step: Step, text: str) -> str:
    """What a lesson page shows of a step's output: the tables (compare: FOM, run time and the regions
    matching step.keep), or for `run` the lines matching step.keep, and always the FOM line."""
    lines = text.splitlines()
    if step.out == "pair":  # an exercise: the table of its interleaved runs (each run is in the full output)
        return exercise_table(text)
    if step.args.startswith("run "):  # the blocks (up to a blank line) whose first line matches step.keep
        start, shown, inside = re.compile(step.keep or r"^(FOM|VERIFICATION):"), [], False
        for line in lines:
            inside = bool(start.search(line)) or (inside and line.strip() != "")
            if inside or line.startswith(("FOM:", "VERIFICATION:")):
                shown.append(line)
        return "\n".join(shown)
    keep_region = re.compile(step.keep) if step.keep else None
    shown, keep = [], True
    for line in lines:
        if line.startswith(("$ ", "[")) or "Interactive view" in line:
            continue
        if line.startswith("region ") and step.args.startswith("compare "):
            name = line.split()[1]
            keep = bool(keep_region and keep_region.search(name))
        elif line and not line[0].isspace():
            keep = True
        if keep:
            shown.append(line)
    return "\n".join(shown).strip()


def figures(lesson: Lesson, step: Step) -> list[str]:
    """PNG files a step wrote, relative to docs/workshop/."""
    folder = RESULTS / lesson.folder
    pngs = sorted((folder / step.name).glob("*.png")) if (folder / step.name).is_dir() else []
    if step.args.startswith("gantt "):
        pngs = [folder / (Path(shlex.split(step.args)[1]).stem + ".png")]
    return [str(p.relative_to(HERE)) for p in pngs if p.exists()]


def write_measured(lesson: Lesson, machine: str) -> None:
    """Replace the block between the measured markers of the lesson page with the results just written."""
    page = HERE / f"{lesson.folder}.md"
    begin, end = "<!-- measured:begin (written by run_lessons.py) -->", "<!-- measured:end -->"
    text = page.read_text()
    if begin not in text or end not in text:
        return
    out = [begin, f"Produced by `python3 docs/workshop/run_lessons.py` on {machine}.", ""]
    for step in lesson.steps:
        txt = RESULTS / lesson.folder / f"{step.name}.txt"
        if not txt.exists():
            out += [f"`{step.name}`: **not yet measured** (no output in results/{lesson.folder}/).", ""]
            continue
        title = " / ".join(exercise_lines(step)) if step.out == "pair" else f"./proxylab {step.args}"
        out += [f"`{title}` ([full output](results/{lesson.folder}/{step.name}.txt)):", "```text",
                excerpt(step, txt.read_text(errors="replace")), "```"]
        out += [f"![{step.name}]({png})" for png in figures(lesson, step)] + [""]
    out.append(end)
    head, rest = text.split(begin, 1)
    page.write_text(head + "\n".join(out) + rest.split(end, 1)[1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, repeat 1, temporary output (the ctest)")
    ap.add_argument("--lesson", action="append", default=[], help="run only lessons whose folder starts so")
    ap.add_argument("--step", action="append", default=[], help="run only the steps of this name (repeatable)")
    ap.add_argument("--list", action="store_true", help="print the commands and exit")
    ap.add_argument("--pages", action="store_true",
                    help="only rewrite the measured blocks of the lesson pages and results/SUMMARY.md from results/")
    args = ap.parse_args()
    lessons = [l for l in LESSONS if not args.lesson or any(l.folder.startswith(p) for p in args.lesson)]
    if args.list:
        for l in lessons:
            print(f"# {l.folder}: {l.title}")
            for s in l.steps:
                print("\n".join(exercise_lines(s)) if s.out == "pair" else f"./proxylab {s.args}")
        return 0
    if args.pages:
        write_summary(LESSONS)
        for lesson in lessons:
            write_measured(lesson, "; ".join((RESULTS / "MACHINE.txt").read_text().strip().splitlines()))
        return 0
    problems = [p for l in lessons for p in check_lesson_text(l)] if args.smoke else []
    env = dict(os.environ)
    env.setdefault("PROXYLAB_BUILD_DIR", str(ROOT / "build" / "openmp"))
    missing = [a for a in ("stream", "comm", "pop", "pstswm", "evh1", "fft3d")
               if not (Path(env["PROXYLAB_BUILD_DIR"]) / "bin" / f"proxylab-{a}").exists()]
    if missing and args.smoke:  # never let the ctest start a build through ./proxylab
        print(f"[workshop] missing binaries in {env['PROXYLAB_BUILD_DIR']}/bin: {', '.join(missing)}")
        return 1
    tmp = tempfile.TemporaryDirectory(prefix="workshop-smoke-") if args.smoke else None
    base = Path(tmp.name) if tmp else RESULTS
    if not args.smoke:
        RESULTS.mkdir(exist_ok=True)
        if args.lesson or args.step:  # a partial rerun: keep the description of the earlier runs
            with open(RESULTS / "MACHINE.txt", "a") as f:
                f.write(f"rerun of {' '.join(args.lesson + args.step)}: {machine_text()}\n")
        else:
            (RESULTS / "MACHINE.txt").write_text(machine_text() + "\n")
    print(f"[workshop] {'smoke run' if args.smoke else 'results in ' + str(RESULTS)}; {machine_text()}", flush=True)
    failures, t_all = [], time.time()
    for lesson in lessons:
        outdir = base / lesson.folder
        outdir.mkdir(parents=True, exist_ok=True)
        for step in lesson.steps:
            if args.step and step.name not in args.step:
                continue
            log_path = outdir / f"{step.name}.txt"
            if step.out == "pair":
                rc, dt = run_exercise(step, args.smoke, log_path, env)
            else:
                rc, dt = run_step(command_words(step, lesson, args.smoke, outdir), log_path, env)
            ok = verified(step, rc, log_path)
            print(f"[workshop] {lesson.folder}/{step.name}: {'ok' if ok else 'FAILED (exit %d)' % rc} "
                  f"({dt:.1f} s)", flush=True)
            if not ok:
                failures.append(f"{lesson.folder}/{step.name}: exit {rc}; see the end of its output:\n"
                                + "".join(log_path.read_text(errors="replace").splitlines(True)[-15:]))
    if not args.smoke:
        write_summary(LESSONS)
        machine = "; ".join((RESULTS / "MACHINE.txt").read_text().strip().splitlines())
        for lesson in lessons:
            write_measured(lesson, machine)
    for p in problems:
        print(f"[workshop] {p}")
    for f in failures:
        print(f"[workshop] FAILED {f}")
    print(f"[workshop] {len(failures)} failed command(s), {len(problems)} lesson text problem(s); "
          f"{time.time() - t_all:.0f} s", flush=True)
    return 1 if failures or problems else 0


if __name__ == "__main__":
    sys.exit(main())
