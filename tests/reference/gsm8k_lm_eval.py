"""lm-evaluation-harness's GSM8K scoring, transcribed for the conformance test of
lib/benchmarks/gsm8k/scorers.ts (tests/gsm8k_scorers.test.ts): Python's own `re` on the
patterns of lm_eval/tasks/gsm8k/gsm8k.yaml v3.0 (@ 47f16bf), `RegexFilter.apply`
(lm_eval/filters/extraction.py) and `exact_match_hf_evaluate` (lm_eval/api/metrics.py) with
the task's options. numpy is left out: its string arrays only hide trailing NUL characters,
done here with rstrip.

Reads a JSON list of [response, target] from the file named by argv[1]; prints one JSON list
per case: [strict output, strict verdict, flexible output, flexible verdict].
"""
import json
import re
import sys

STRICT = "#### (\\-?[0-9\\.\\,]+)"
FLEXIBLE = "(-?[$0-9.,]{2,})|(-?[0-9]+)"
IGNORE = [",", "\\$", "(?s).*#### ", "\\.$"]


def regex_filter(resp, pattern, group_select):
    match = re.compile(pattern).findall(resp)
    if not match:
        return "[invalid]"
    match = match[group_select]
    if isinstance(match, tuple):
        match = [m for m in match if m]
        match = match[0] if match else "[invalid]"
    return match.strip()


def exact_match(prediction, reference):
    for s in IGNORE:
        prediction = re.sub(s, "", prediction)
        reference = re.sub(s, "", reference)
    return prediction.lower().rstrip("\0") == reference.lower().rstrip("\0")


with open(sys.argv[1], encoding="utf-8") as f:
    cases = json.load(f)
for response, target in cases:
    strict = regex_filter(response, STRICT, 0)
    flexible = regex_filter(response, FLEXIBLE, -1)
    out = [strict, exact_match(strict, target), flexible, exact_match(flexible, target)]
    print(json.dumps(out, ensure_ascii=False))
