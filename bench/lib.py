"""What every benchmark shares: the result row, the run context, a
server started on a free port with its own data folder, and the
summariser run over a batch of transcripts."""

import json
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field


@dataclass
class Row:
    """One line of the table. `ours` and `peer` are already formatted with
    their unit; `values` keeps the raw numbers for the JSON file."""

    measure: str
    ours: str
    budget: str
    passed: bool
    peer: str = "—"
    ratio: float | None = None
    values: dict = field(default_factory=dict)
    # Requests that failed while measuring: any fails even a quick pass.
    errors: int = 0
    # A quality figure (recall, accuracy, ROUGE) does not vary from run to
    # run or with the machine's load, so its budget holds in a quick pass too.
    quality: bool = False


def median(xs):
    return statistics.median(xs)


def rss_kb(pid, key="VmRSS"):
    """Resident memory of a live process, in KiB (VmHWM: its peak)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {key} for pid {pid}")


class Server:
    """`debrief serve` on 127.0.0.1:0 (plain HTTP unless `tls`) with a fresh
    data folder, ready once it printed its `ready: URL` line."""

    def __init__(self, ctx, args=(), env=None, data_dir=None, tls=False):
        self.bin = ctx.bin
        self._own_dir = data_dir is None
        self.data_dir = data_dir or tempfile.mkdtemp(prefix="debrief-bench-", dir=ctx.tmp)
        self.proc = subprocess.Popen(
            [ctx.bin, "serve", *([] if tls else ["--http"]), "--bind", "127.0.0.1:0", "--data-dir", self.data_dir, *args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            # Rows sign accounts up from one address as often as they need.
            env={**os.environ, "DEBRIEF_SIGNUPS_PER_HOUR": "100000", **(env or {})},
        )
        self.url = None
        self.printed = []
        deadline = time.monotonic() + 30
        for line in self.proc.stdout:
            self.printed.append(line.rstrip())
            if line.startswith("ready: "):
                self.url = line[len("ready: "):].strip()
                break
            if time.monotonic() > deadline:
                break
        if self.url is None:
            self.stop()
            raise RuntimeError("the server did not start:\n" + "\n".join(self.printed))
        # Keep reading so a chatty server never blocks on a full pipe.
        threading.Thread(target=lambda: [None for _ in self.proc.stdout], daemon=True).start()

    @property
    def pid(self):
        return self.proc.pid

    def cli(self, *args, check=True):
        """Another `debrief` command on the same data folder."""
        return subprocess.run([self.bin, *args, "--data-dir", self.data_dir],
                              check=check, capture_output=True, text=True)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self._own_dir:
            shutil.rmtree(self.data_dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.stop()


class Http:
    """A tiny cookie-keeping JSON client for seeding data over the API."""

    def __init__(self, base):
        self.base = base.rstrip("/")
        self.cookie = None

    def call(self, method, path, body=None, content_type="application/json", raw=False):
        data = body if raw else (json.dumps(body).encode() if body is not None else None)
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Origin", self.base)
        if data is not None:
            req.add_header("Content-Type", content_type)
        if self.cookie:
            req.add_header("Cookie", self.cookie)
        try:
            res = urllib.request.urlopen(req, timeout=60)
        except urllib.error.HTTPError as e:
            raise RuntimeError(f"{method} {path}: {e.code} {e.read()[:500]!r}") from None
        with res:
            cookie = res.headers.get("Set-Cookie")
            if cookie:
                self.cookie = cookie.split(";", 1)[0]
            text = res.read()
            return json.loads(text) if text and res.headers.get_content_type() == "application/json" else text


def import_models(ctx, names, into):
    """The test models `names` (folders of ctx.models) imported into a fresh
    models folder, as `debrief models import` does for a user."""
    for name in names:
        subprocess.run([ctx.bin, "models", "import", os.path.join(ctx.models, name), "--models-dir", into,
                        "--data-dir", os.path.join(into, "data")], check=True, capture_output=True)


def summarise_batch(ctx, files, models_dir, summariser, meeting_date=None, me=None, client=None, extra=()):
    """`debrief summarise --batch FILE... --json`: the model loads once and
    each file gets one JSON line. Returns the answers keyed by file, the
    process's CPU and wall seconds and its stderr."""
    flags = [("--meeting-date", meeting_date), ("--me", me), ("--client", client)]
    args = [ctx.bin, "summarise", "--batch", *files, "--json", "--summariser", summariser, "--models-dir", models_dir,
            *[part for flag, value in flags if value for part in (flag, value)], *extra]
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    out = subprocess.run(args, capture_output=True, text=True)
    wall = time.perf_counter() - started
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise RuntimeError(f"debrief summarise --batch --summariser {summariser} failed:\n{out.stderr[-2000:]}")
    # Keyed by the file as given, whatever form of its path the answer names.
    given = {os.path.realpath(f): f for f in files}
    answers = {}
    for line in out.stdout.splitlines():
        if line.strip():
            answer = json.loads(line)
            answers[given.get(os.path.realpath(answer["file"]), answer["file"])] = answer
    missing = [f for f in files if f not in answers]
    if missing:
        raise RuntimeError(f"debrief summarise --batch gave no answer for {missing}")
    cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
    return answers, cpu, wall, out.stderr


class Context:
    """Where the binary and the test models are, how many runs to make, and
    a scratch folder removed at the end."""

    def __init__(self, binary, models, runs, quick, repo):
        self.bin = binary
        self.models = models
        self.runs = runs
        self.quick = quick
        self.repo = repo
        self.tmp = tempfile.mkdtemp(prefix="debrief-bench-")

    def serve(self, args=(), env=None, data_dir=None, tls=False):
        return Server(self, args, env, data_dir, tls)

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


def signed_in(server, email="bench@example.com", password="a long bench password"):
    """A new account on `server`, signed in: an Http client with its cookie."""
    http = Http(server.url)
    http.call("POST", "/api/auth/signup", {
        "firstName": "Bench", "lastName": "Mark", "email": email, "password": password,
        "confirmPassword": password, "company": "Debrief", "position": "Tester", "linkedinUrl": "",
    })
    http.call("POST", "/api/auth/login", {"email": email, "password": password})
    return http


def multipart(field, filename, content_type, data):
    """A multipart/form-data body with one file field, as browsers send it."""
    boundary = "debrief-bench-" + os.urandom(8).hex()
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{filename}\"\r\n"
            f"Content-Type: {content_type}\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"
