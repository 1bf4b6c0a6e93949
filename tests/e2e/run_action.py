#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Run a composite GitHub Action's steps the way a runner does, for the tests.

usage: run_action.py ACTION_DIR WORKSPACE OUT_DIR [INPUT=VALUE ...]

Reads ACTION_DIR/action.yml; fills ${{ inputs.X }}, ${{ steps.ID.outputs.X }},
${{ github.action_path }}, ${{ github.workspace }} and ${{ runner.temp }} (anything else is an
error, so that an expression the runner would see differently cannot pass here); runs each step's
`run` with `bash --noprofile --norc -eo pipefail FILE` in the workspace, with the env GitHub sets
(GITHUB_ACTION_PATH, GITHUB_WORKSPACE, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_PATH,
GITHUB_ENV, RUNNER_TEMP, CI, GITHUB_ACTIONS) plus the step's own env; stops at the first failing
step. Writes OUT_DIR/result.json: {"failed", "steps": [{"id", "exit", "stdout", "stderr",
"outputs", "summary"}], "outputs"} and every step's stdout/summary to OUT_DIR/<id>.stdout, .md.
"""
import json
import os
import re
import subprocess
import sys

import yaml

EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def read_outputs(path):
    """GITHUB_OUTPUT: NAME=VALUE lines, or NAME<<DELIM, lines, DELIM."""
    out = {}
    if not os.path.exists(path):
        return out
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line:
            continue
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delim = line.split("<<", 1)
            value = []
            while i < len(lines) and lines[i] != delim:
                value.append(lines[i])
                i += 1
            i += 1
            out[name] = "\n".join(value)
        else:
            name, value = line.split("=", 1)
            out[name] = value
    return out


def main():
    action_dir, workspace, out_dir = (os.path.abspath(a) for a in sys.argv[1:4])
    given = dict(a.split("=", 1) for a in sys.argv[4:])
    action = yaml.safe_load(open(os.path.join(action_dir, "action.yml"), encoding="utf-8"))
    assert action["runs"]["using"] == "composite", "not a composite action"
    declared = action.get("inputs", {})
    unknown = set(given) - set(declared)
    if unknown:
        sys.exit("inputs the action does not declare: %s" % sorted(unknown))
    inputs = {}
    for name, spec in declared.items():
        if name in given:
            inputs[name] = given[name]
        elif spec.get("required") and "default" not in spec:
            sys.exit("required input missing: " + name)
        else:
            inputs[name] = str(spec.get("default", ""))

    os.makedirs(out_dir, exist_ok=True)
    temp = os.path.join(out_dir, "runner_temp")
    os.makedirs(temp, exist_ok=True)
    path_file = os.path.join(out_dir, "github_path")
    open(path_file, "w").close()
    step_outputs = {}

    def evaluate(text):
        def one(m):
            expr = m.group(1)
            parts = expr.split(".")
            if parts[0] == "inputs" and len(parts) == 2:
                return inputs[parts[1]]
            if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
                return step_outputs.get(parts[1], {}).get(parts[3], "")
            if expr == "github.action_path":
                return action_dir
            if expr == "github.workspace":
                return workspace
            if expr == "runner.temp":
                return temp
            raise SystemExit("expression this emulation does not know: " + expr)
        return EXPR.sub(one, str(text))

    result = {"failed": False, "steps": []}
    for n, step in enumerate(action["runs"]["steps"]):
        sid = step.get("id", "step%d" % n)
        assert "uses" not in step, "steps with uses: are not emulated"
        assert "if" not in step, "steps with if: are not emulated"
        assert step.get("shell") == "bash", "only shell: bash is emulated"
        env = dict(os.environ)
        extra = [p for p in open(path_file).read().split("\n") if p]
        env["PATH"] = ":".join(list(reversed(extra)) + [env.get("PATH", "")])
        files = {k: os.path.join(out_dir, "%s.%s" % (sid, k)) for k in ("output", "md", "env")}
        for f in files.values():
            open(f, "w").close()
        env.update({
            "CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_ACTION_PATH": action_dir,
            "GITHUB_WORKSPACE": workspace, "GITHUB_OUTPUT": files["output"],
            "GITHUB_STEP_SUMMARY": files["md"], "GITHUB_ENV": files["env"],
            "GITHUB_PATH": path_file, "RUNNER_TEMP": temp,
        })
        for k, v in (step.get("env") or {}).items():
            env[k] = evaluate(v)
        script = os.path.join(out_dir, sid + ".sh")
        with open(script, "w") as f:
            f.write(evaluate(step["run"]) + "\n")
        cwd = os.path.join(workspace, evaluate(step.get("working-directory", ".")))
        proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], cwd=cwd, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace")
        step_outputs[sid] = read_outputs(files["output"])
        with open(os.path.join(out_dir, sid + ".stdout"), "w") as f:
            f.write(proc.stdout)
        result["steps"].append({"id": sid, "exit": proc.returncode, "stdout": proc.stdout, "stderr": proc.stderr,
                                "outputs": step_outputs[sid], "summary": open(files["md"]).read()})
        if proc.returncode != 0:
            result["failed"] = True
            break
    result["outputs"] = {k: evaluate(v["value"]) for k, v in (action.get("outputs") or {}).items()}
    with open(os.path.join(out_dir, "result.json"), "w") as f:
        json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
