#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Runs the fleet examples as their engines would, with a container engine on this machine:
#   k8s WORKFLOW.yaml ENGINE IMAGE UPLOADS RESULTS
#       examples/kubernetes-indexed-job.yaml: the Job's pod once per index (completions), with
#       JOB_COMPLETION_INDEX set as the Job controller sets it, the pod's command, working
#       directory, user, read-only root and volume mounts; no network.
#   matrix WORKFLOW.yml ENGINE IMAGE WORKSPACE
#       examples/github-matrix-workflow.yml: the check job's run step once per matrix shard (bash
#       -eo pipefail, in WORKSPACE, with the workflow's and the step's env), then the merge job's
#       run steps in WORKSPACE/merge, with the shards' out/ files as download-artifact leaves
#       them; docker is ENGINE (a command line, split on spaces).
# EXTRA (env TFK_FLEET_EXTRA) is put after the first " check " of each command: the test's own
# options (--no-libtraceevent, to keep 300 traces within a minute).
# Prints what it runs; exits non-zero when a pod or a step fails as its engine would fail it.
import os
import re
import shutil
import subprocess
import sys

import yaml

extra = os.environ.get("TFK_FLEET_EXTRA", "")


def with_extra(text):
    return text.replace(" check ", " check %s " % extra, 1) if extra else text


def k8s(path, engine, image, uploads, results):
    job = yaml.safe_load(open(path))
    assert job["apiVersion"] == "batch/v1" and job["kind"] == "Job", "not a batch/v1 Job"
    spec = job["spec"]
    assert spec.get("completionMode") == "Indexed", "not an Indexed Job"
    n = spec["completions"]
    assert spec.get("parallelism") == n, "parallelism is not completions"
    pod = spec["template"]["spec"]
    (c,) = pod["containers"]
    psc, csc = pod.get("securityContext", {}), c.get("securityContext", {})
    assert psc.get("runAsNonRoot") and psc.get("runAsUser", 0) != 0, "the pod may run as root"
    assert csc.get("readOnlyRootFilesystem"), "the root file system is writable"
    command = [with_extra(w) for w in c["command"] + c.get("args", [])]
    # the shard count the command names is the Job's
    shards = re.findall(r"--shard (\d+)\b", " ".join(command))
    assert shards == [str(n)], "--shard %s in the command, %d completions" % (shards, n)
    # the claims: uploads (read-only) and results; an emptyDir is a tmpfs (nothing else is
    # writable: no tmpfs on /tmp unless the pod mounts one, as on a node)
    host = {"uploads": (uploads, True), "results": (results, False)}
    volumes = {v["name"]: v for v in pod["volumes"]}
    vols = []
    for m in c["volumeMounts"]:
        if "emptyDir" in volumes[m["name"]]:
            vols += ["--tmpfs", m["mountPath"]]
            continue
        d, ro = host[volumes[m["name"]]["persistentVolumeClaim"]["claimName"].replace("tracefsck-", "")]
        assert bool(m.get("readOnly")) == ro, "%s mounted %s" % (m["name"], "rw" if ro else "ro")
        vols += ["-v", "%s:%s%s" % (d, m["mountPath"], ":ro" if ro else "")]
    for i in range(n):
        argv = engine + ["run", "--rm", "--network", "none", "--read-only", "--read-only-tmpfs=false",
                         "--user", "%d:%d" % (psc["runAsUser"], psc.get("runAsGroup", psc["runAsUser"])),
                         "--workdir", c["workingDir"], "-e", "JOB_COMPLETION_INDEX=%d" % i] + vols + \
               ["--entrypoint", command[0], image] + command[1:]
        print("pod %d/%d:" % (i, n), " ".join(argv[len(engine):len(engine) + 12]), "...", flush=True)
        rc = subprocess.call(argv)
        if rc != 0:
            print("FAIL: pod %d exited %d: the Job would retry it" % (i, rc))
            return 1
    return 0


def step_env(*envs):
    e = dict(os.environ)
    for env in envs:
        e.update({k: str(v) for k, v in (env or {}).items()})
    return e


def matrix(path, engine, image, workspace):
    wf = yaml.safe_load(open(path))
    env = dict(wf.get("env", {}), IMAGE=image)
    check, merge = wf["jobs"]["check"], wf["jobs"]["merge"]
    shards = check["strategy"]["matrix"]["shard"]
    assert shards == list(range(len(shards))), "the matrix's shards are not 0..N-1"
    assert int(env["SHARDS"]) == len(shards), "SHARDS is not the matrix's size"
    assert merge.get("needs") == "check", "merge does not wait for the shards"
    (step,) = [s for s in check["steps"] if "run" in s]
    # docker is the engine: a function ahead of the step's script
    prelude = 'docker() { %s "$@"; }\n' % " ".join(engine)
    for shard in shards:
        script = with_extra(step["run"].replace("${{ matrix.shard }}", str(shard)))
        e = step_env(env, {k: v.replace("${{ matrix.shard }}", str(shard)) for k, v in step.get("env", {}).items()})
        print("matrix shard %d: %s" % (shard, step["name"].replace("${{ matrix.shard }}", str(shard))), flush=True)
        rc = subprocess.call(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", prelude + script],
                             cwd=workspace, env=e)
        if rc != 0:
            print("FAIL: shard %d's step exited %d" % (shard, rc))
            return 1
    # the merge job: out/ as download-artifact merges the shards' artifacts
    mdir = os.path.join(workspace, "merge")
    os.makedirs(os.path.join(mdir, "out"), exist_ok=True)
    for f in os.listdir(os.path.join(workspace, "out")):
        shutil.copy(os.path.join(workspace, "out", f), os.path.join(mdir, "out"))
    for s in merge["steps"]:
        if "run" not in s:
            continue
        print("merge: %s" % s["name"], flush=True)
        rc = subprocess.call(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s["run"]], cwd=mdir,
                             env=step_env(env, s.get("env")))
        if s["name"] == "Gate":
            open(os.path.join(mdir, "gate.rc"), "w").write("%d\n" % rc)
        elif rc != 0:
            print("FAIL: merge step '%s' exited %d" % (s["name"], rc))
            return 1
    return 0


if __name__ == "__main__":
    kind, path, engine = sys.argv[1], sys.argv[2], sys.argv[3].split()
    if kind == "k8s":
        sys.exit(k8s(path, engine, *sys.argv[4:7]))
    sys.exit(matrix(path, engine, *sys.argv[4:6]))
