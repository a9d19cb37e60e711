#!/usr/bin/env python3
"""Plain-Python reference of `runlens score` for the benchmark (lib/bench/bench.ts).

Reads run logs one line at a time with ``json.loads`` — canonical JSONL files, or folders of
lm-evaluation-harness samples files (``<folder>/samples_<lm-eval task>_<date_id>.jsonl``: task
from the file name, example index = ``doc_id``, response = ``resps[0][0]``, run =
``<folder>_<date_id>``, model from the sibling ``results_<date_id>.json``) —, ties each record to
the BBEH data set by (task, example_index), scores it with the official rules
(tests/reference/bbeh_rules.py, written from the rule list in the project notes) and prints a
JSON summary on stdout: per run, per task ``n`` and ``correct``, the accuracy (percent) and,
when the run covers all 4,520 examples, the harmonic mean of (accuracy + 1) over the 23 tasks.

Records that cannot be scored (bad JSON, unknown task, index out of range, missing response,
a repeat of the same run/task/index/epoch) are counted per run as ``skipped``. Only the
standard library is used.

Usage: python3 lib/bench/reference_score.py DATA_DIR LOG.jsonl|FOLDER [...]
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "reference"))

from bbeh_rules import fuzzy_match, normalise_prediction, normalise_target  # noqa: E402


def find_release(data_dir):
    """The folder holding benchmark_tasks/ (data root, release, or inner folder)."""
    for cand in (os.path.join(data_dir, "bbeh", "bbeh"), os.path.join(data_dir, "bbeh"), data_dir):
        if os.path.isdir(os.path.join(cand, "benchmark_tasks")):
            return cand
    raise SystemExit(f"{data_dir}: no BBEH release found")


def load_targets(data_dir):
    """{task: [normalised target, ...]} for the 23 tasks."""
    tasks_dir = os.path.join(find_release(data_dir), "benchmark_tasks")
    targets = {}
    for folder in sorted(os.listdir(tasks_dir)):
        if not folder.startswith("bbeh_"):
            continue
        with open(os.path.join(tasks_dir, folder, "task.json"), encoding="utf-8") as f:
            examples = json.load(f)["examples"]
        targets[folder[len("bbeh_"):]] = [normalise_target(e["target"]) for e in examples]
    return targets


SAMPLES = re.compile(r"^samples_(.+)_(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?)\.jsonl?$")
LM_EVAL_TASK = re.compile(r"^(leaderboard_)?bbeh(_(cot_)?(fewshot|zeroshot))?_(.+)$")


def lm_eval_files(folder):
    """(path, task, run, model) of every lm-eval samples file under ``folder``, sorted."""
    out = []
    for root, _dirs, files in os.walk(folder):
        for name in sorted(files):
            m = SAMPLES.match(name)
            if not m:
                continue
            task_match = LM_EVAL_TASK.match(m.group(1))
            task = task_match.group(5) if task_match else m.group(1)
            run = f"{os.path.basename(root)}_{m.group(2)}"
            model = run
            try:
                with open(os.path.join(root, f"results_{m.group(2)}.json"), encoding="utf-8") as f:
                    model = json.load(f).get("model_name") or run
            except OSError:
                pass
            out.append((os.path.join(root, name), task, run, model))
    return sorted(out)


def lm_eval_records(path, task, run, model):
    """Canonical-shaped records of one samples file (None for a line that does not parse)."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except ValueError:
                yield None
                continue
            resps = rec.get("resps")
            response = None
            if isinstance(resps, list) and resps and isinstance(resps[0], list) and resps[0]:
                response = resps[0][0]
            yield {
                "run": run,
                "model": model,
                "task": task,
                "example_index": rec.get("doc_id"),
                "response": response,
            }


def canonical_records(path):
    """The records of one canonical JSONL file (None for a line that does not parse)."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except ValueError:
                yield None


def all_records(paths):
    """(default run, record) of every line of every log."""
    for path in paths:
        if os.path.isdir(path):
            for file, task, run, model in lm_eval_files(path):
                for rec in lm_eval_records(file, task, run, model):
                    yield run, rec
        else:
            default_run = os.path.splitext(os.path.basename(path))[0]
            for rec in canonical_records(path):
                yield default_run, rec


def harmonic_mean_plus_one(accuracies):
    return len(accuracies) / sum(1.0 / (a + 1.0) for a in accuracies)


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__.strip().splitlines()[-1])
    targets = load_targets(sys.argv[1])
    total = sum(len(t) for t in targets.values())
    counts = {}  # run -> task -> [n, correct]
    models = {}
    skipped = {}
    seen = set()
    for default_run, rec in all_records(sys.argv[2:]):
        if rec is None:
            skipped[default_run] = skipped.get(default_run, 0) + 1
            continue
        run = rec.get("run") or default_run
        task = str(rec.get("task", "")).strip()
        if task.startswith("bbeh_"):
            task = task[len("bbeh_"):]
        index = rec.get("example_index")
        response = rec.get("response")
        key = (run, task, index, rec.get("epoch") or 1)
        if (
            task not in targets
            or not isinstance(index, int)
            or not 0 <= index < len(targets[task])
            or not isinstance(response, str)
            or key in seen
        ):
            skipped[run] = skipped.get(run, 0) + 1
            continue
        seen.add(key)
        models.setdefault(run, set()).add(rec.get("model") or run)
        correct = fuzzy_match(normalise_prediction(response), targets[task][index])
        cell = counts.setdefault(run, {}).setdefault(task, [0, 0])
        cell[0] += 1
        cell[1] += correct
    runs = []
    for run in sorted(set(counts) | set(skipped)):
        tasks = counts.get(run, {})
        n = sum(c[0] for c in tasks.values())
        summary = {
            "run": run,
            "model": ", ".join(sorted(models.get(run, {run}))),
            "rows_scored": n,
            "rows_skipped": skipped.get(run, 0),
            "tasks": {
                t: {"n": c[0], "correct": c[1], "accuracy": 100.0 * c[1] / c[0]}
                for t, c in sorted(tasks.items())
            },
            "harmonic_mean": None,
        }
        if n == total and len(tasks) == len(targets):
            summary["harmonic_mean"] = harmonic_mean_plus_one(
                [100.0 * c[1] / c[0] for c in tasks.values()]
            )
        runs.append(summary)
    json.dump({"runs": runs}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
