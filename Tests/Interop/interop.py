"""Drive real iCalendar clients for the reminders interop tests.

Run with the python of the venv that venv.sh makes (the `todo` and
`vdirsyncer` commands are taken from the same bin directory as that python).
Each subcommand prints JSON on stdout when it succeeds; on failure it prints
one line to stderr and exits 1.

  todoman-list  --vdir-root ROOT
  todoman-new   --vdir-root ROOT --list NAME --summary S
                [--due "YYYY-MM-DD[ HH:MM]"] [--priority low|medium|high]
  todoman-done  --vdir-root ROOT --uid UID
  caldav-roundtrip --from DIR_A --to DIR_B --workdir W
  icalendar-parse FILE
  icalendar-zones FILE
  vdir-todos ROOT

Time zone: todoman runs with TZ=UTC, so the wall clock it reports is UTC
(the convention of Tests/Fixtures/icalendar/expected.json). Each todoman
call gets a configuration and a cache of its own in a temporary directory, so
nothing is read from or written to the user's todoman set-up.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import icalendar

BIN = Path(sys.executable).parent
COMMAND_TIMEOUT = 120  # seconds for one run of a client
RADICALE_START_TIMEOUT = 30  # seconds for radicale to answer
DAV_USER = "interop"  # radicale runs with auth type none: any user is let in
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # no proxy


class InteropError(Exception):
    pass


def one_line(text: str) -> str:
    return " | ".join(line.strip() for line in text.strip().splitlines() if line.strip())


def tool(name: str) -> str:
    path = BIN / name
    if not path.exists():
        raise InteropError(f"{name} not found next to {sys.executable}; run with the venv's python")
    return str(path)


def run(cmd: list[str], *, env: dict[str, str] | None = None, input: str | None = None,
        what: str | None = None) -> str:
    try:
        proc = subprocess.run(cmd, env=env, input=input, capture_output=True, text=True,
                              timeout=COMMAND_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise InteropError(f"{what or cmd[0]} timed out after {COMMAND_TIMEOUT}s") from None
    if proc.returncode != 0:
        detail = one_line(proc.stderr) or one_line(proc.stdout)
        raise InteropError(f"{what or ' '.join(cmd)} exited {proc.returncode}: {detail}")
    return proc.stdout


def client_env() -> dict[str, str]:
    env = dict(os.environ)
    env["TZ"] = "UTC"
    env["LC_ALL"] = "C.UTF-8"
    env["LANG"] = "C.UTF-8"
    env["PYTHONIOENCODING"] = "utf-8"
    for name in ("XDG_CONFIG_HOME", "XDG_CONFIG_DIRS", "RADICALE_CONFIG"):
        env.pop(name, None)
    # Everything here talks to 127.0.0.1 only: never through a proxy.
    for name in ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY",
                 "ALL_PROXY"):
        env.pop(name, None)
    env["no_proxy"] = env["NO_PROXY"] = "127.0.0.1,localhost"
    return env


# ---------------------------------------------------------------- todoman

class Todoman:
    """The real `todo` CLI on a vdir root, with a private config and cache.

    Two configurations are written: one whose date-time separator is "T"
    (for listing: `todo list` then prints a due date as YYYY-MM-DD and a due
    date-time as YYYY-MM-DDTHH:MM, which cannot be confused with the summary
    that follows), and one with " " (for `todo new --due "YYYY-MM-DD HH:MM"`).
    Both share one cache, so the numeric ids stay the same between calls.
    """

    def __init__(self, root: Path, workdir: Path) -> None:
        if not root.is_dir():
            raise InteropError(f"vdir root {root} is not a directory")
        self.root = root.resolve()
        self.env = client_env()
        self.todo = tool("todo")
        cache = workdir / "cache.sqlite3"
        self.config_list = workdir / "config_list.py"
        self.config_new = workdir / "config_new.py"
        for path, sep in ((self.config_list, "T"), (self.config_new, " ")):
            path.write_text(
                "# todoman configuration for the interop tests (Python syntax)\n"
                f"path = {str(self.root / '*')!r}\n"
                'date_format = "%Y-%m-%d"\n'
                'time_format = "%H:%M"\n'
                f"dt_separator = {sep!r}\n"
                "humanize = False\n"
                'color = "never"\n'
                "default_due = 0\n"
                f"cache_path = {str(cache)!r}\n",
                encoding="utf-8",
            )

    def __call__(self, *args: str, config: Path | None = None, porcelain: bool = False) -> str:
        cmd = [self.todo, "--config", str(config or self.config_list), "--color", "never"]
        if porcelain:
            cmd.append("--porcelain")
        cmd += list(args)
        return run(cmd, env=self.env, what="todo " + " ".join(args[:1]))

    def porcelain_list(self) -> list[dict[str, Any]]:
        out = self("list", "--status", "ANY", porcelain=True)
        try:
            return json.loads(out)
        except json.JSONDecodeError as e:
            raise InteropError(f"todo --porcelain list printed no JSON: {e}") from None

    # `todo list` (not porcelain) line: "[X] 12 !!! 2024-05-01T10:30 summary @list"
    LINE = re.compile(
        r"^\[(?P<done>.)\] (?P<id>\d+) (?P<prio>!{0,3}) "
        r"(?P<due>\(no due date\)|\d{4}-\d\d-\d\d(?:T\d\d:\d\d)?) "
    )

    def plain_dues(self) -> dict[int, str | None]:
        dues: dict[int, str | None] = {}
        for line in self("list", "--status", "ANY").splitlines():
            m = self.LINE.match(line)
            if m:
                due = m.group("due")
                dues[int(m.group("id"))] = None if due.startswith("(") else due
        return dues

    def list_name(self, name: str) -> str:
        """todoman names a list by its displayname file (else its folder
        name); NAME may be that name or the folder name."""
        names = {}
        for coll in self.root.iterdir():
            if coll.is_dir():
                names[coll.name] = read_meta(coll, "displayname") or coll.name
        if name in names.values():
            return name
        return names.get(name, name)

    def uid_for_id(self, todo_id: int) -> str:
        path = Path(self("path", str(todo_id)).strip())
        return uid_in_file(path)

    def entries(self) -> list[dict[str, Any]]:
        """Every todo, completed or not, as todoman reports it."""
        todos = self.porcelain_list()
        dues = self.plain_dues()
        out = []
        for t in todos:
            todo_id = int(t["id"])
            due = porcelain_due(t.get("due"), dues.get(todo_id), todo_id)
            out.append({
                "list": t["list"],
                "uid": self.uid_for_id(todo_id),
                "summary": t["summary"],
                "due": due,
                "priority": int(t.get("priority") or 0),
                "completed": bool(t["completed"]),
                "categories": sorted(t.get("categories") or [], key=lambda c: (c.casefold(), c)),
                "id": todo_id,
            })
        out.sort(key=lambda e: e["uid"])
        return out


def porcelain_due(stamp: int | None, shown: str | None, todo_id: int) -> str | None:
    """The due of one todo from `todo --porcelain list`, as wall clock.

    Porcelain gives the due as Unix seconds: a date as local midnight, a
    date-time converted to the local zone (todoman's local zone is UTC here,
    and a floating time is taken as local time). Whether it was a date or a
    date-time is not in porcelain, so that comes from the plain `todo list`
    line of the same id, which must agree with the seconds.
    """
    if stamp is None:
        if shown is not None:
            raise InteropError(f"todo {todo_id}: porcelain has no due but todo list shows {shown}")
        return None
    wall = dt.datetime.fromtimestamp(int(stamp), dt.timezone.utc)
    if shown is None:
        raise InteropError(f"todo {todo_id}: porcelain due {stamp} but todo list shows none")
    if "T" in shown:
        value = wall.strftime("%Y-%m-%dT%H:%M")
    else:
        value = wall.strftime("%Y-%m-%d")
        if (wall.hour, wall.minute, wall.second) != (0, 0, 0):
            raise InteropError(f"todo {todo_id}: date due {shown} but porcelain says {stamp}")
    if value != shown:
        raise InteropError(f"todo {todo_id}: porcelain due {value} but todo list shows {shown}")
    return value


def uid_in_file(path: Path) -> str:
    cals = read_calendars(path)
    uids = [str(c["UID"]) for cal in cals for c in cal.walk("VTODO") if "UID" in c]
    if not uids:
        raise InteropError(f"{path} has no VTODO with a UID")
    return uids[0]


@contextlib.contextmanager
def todoman(root: str) -> Iterator[Todoman]:
    with tempfile.TemporaryDirectory(prefix="todoman-") as work:
        yield Todoman(Path(root), Path(work))


def cmd_todoman_list(args: argparse.Namespace) -> Any:
    with todoman(args.vdir_root) as tm:
        entries = tm.entries()
    for e in entries:
        del e["id"]
    return entries


def cmd_todoman_new(args: argparse.Namespace) -> Any:
    root = Path(args.vdir_root)
    before = set(root.glob("*/*.ics"))
    with todoman(args.vdir_root) as tm:
        cmd = ["new", "--list", tm.list_name(args.list)]
        if args.due:
            cmd += ["--due", args.due]
        if args.priority:
            cmd += ["--priority", args.priority]
        # "--" so that a summary starting with "-" is not read as an option.
        cmd += ["--", args.summary]
        tm(*cmd, config=tm.config_new)
    created = sorted(set(root.glob("*/*.ics")) - before)
    if len(created) != 1:
        raise InteropError(f"todo new made {len(created)} new files, expected 1")
    return {"uid": uid_in_file(created[0]), "file": str(created[0].resolve())}


def cmd_todoman_done(args: argparse.Namespace) -> Any:
    """Completes a todo. For a repeating todo, todoman removes the RRULE from
    the completed one and writes the next occurrence as a new todo with a new
    UID: those UIDs are listed in "created"."""
    root = Path(args.vdir_root)
    with todoman(args.vdir_root) as tm:
        matches = [e for e in tm.entries() if e["uid"] == args.uid]
        if not matches:
            raise InteropError(f"todoman lists no todo with uid {args.uid}")
        todo_id = matches[0]["id"]
        before = set(root.glob("*/*.ics"))
        out = tm("done", str(todo_id), porcelain=True)
    try:
        done = json.loads(out)
    except json.JSONDecodeError as e:
        raise InteropError(f"todo --porcelain done printed no JSON: {e}") from None
    created = sorted(uid_in_file(f) for f in set(root.glob("*/*.ics")) - before)
    return {"uid": args.uid, "id": todo_id, "completed": bool(done.get("completed")),
            "created": created}


# ---------------------------------------------------------- radicale + vdirsyncer

def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def conf_str(value: str) -> str:
    # vdirsyncer's config file is INI whose values are JSON.
    return json.dumps(value)


@contextlib.contextmanager
def radicale(workdir: Path) -> Iterator[str]:
    """The real radicale on 127.0.0.1, no authentication; yields its URL."""
    port = free_port()
    storage = workdir / "radicale-storage"
    config = workdir / "radicale.conf"
    log_path = workdir / "radicale.log"
    config.write_text(
        "[server]\n"
        f"hosts = 127.0.0.1:{port}\n"
        "[auth]\n"
        "type = none\n"
        "[rights]\n"
        "type = owner_only\n"
        "[storage]\n"
        f"filesystem_folder = {storage}\n"
        "[web]\n"
        "type = none\n"
        "[logging]\n"
        "level = info\n"
        "mask_passwords = True\n",
        encoding="utf-8",
    )
    url = f"http://127.0.0.1:{port}/"
    log = open(log_path, "w", encoding="utf-8")
    # --config names the only configuration file read (no /etc or ~ files).
    proc = subprocess.Popen([sys.executable, "-m", "radicale", "--config", str(config)],
                            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                            env=client_env())
    try:
        deadline = time.monotonic() + RADICALE_START_TIMEOUT
        while True:
            if proc.poll() is not None:
                raise InteropError(f"radicale exited {proc.returncode} at start: "
                                   f"{one_line(tail(log_path))}")
            try:
                req = urllib.request.Request(url, method="OPTIONS")
                with DIRECT.open(req, timeout=2):
                    break
            except urllib.error.HTTPError:
                break  # it answered
            except OSError:
                if time.monotonic() > deadline:
                    raise InteropError(f"radicale did not answer on {url} within "
                                       f"{RADICALE_START_TIMEOUT}s") from None
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def tail(path: Path, lines: int = 5) -> str:
    try:
        return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def radicale_complaints(log_path: Path) -> str:
    """The last warnings and errors of radicale's log, start-up notices left out."""
    lines = [line for line in tail(log_path, 200).splitlines()
             if ("[WARNING]" in line or "[ERROR]" in line)
             and "authentication" not in line and "Storage location" not in line]
    return one_line("\n".join(line.split("] ", 2)[-1] for line in lines[-2:])) or "nothing logged"


def vdir_collections(root: Path) -> list[Path]:
    return sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))


def read_meta(collection: Path, name: str) -> str | None:
    try:
        return (collection / name).read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None


def vdir_snapshot(root: Path) -> dict[str, dict[str, Any]]:
    """collection name -> {displayname, color, uids: sorted list}."""
    snap = {}
    for coll in vdir_collections(root):
        uids = []
        for f in sorted(coll.glob("*.ics")):
            for cal in read_calendars(f):
                uids += [str(c["UID"]) for c in cal.walk("VTODO") if "UID" in c]
        snap[coll.name] = {
            "displayname": read_meta(coll, "displayname"),
            "color": read_meta(coll, "color"),
            "uids": sorted(uids),
        }
    return snap


def cmd_caldav_roundtrip(args: argparse.Namespace) -> Any:
    dir_a = Path(args.from_).resolve()
    dir_b = Path(args.to).resolve()
    work = Path(args.workdir).resolve()
    if not dir_a.is_dir():
        raise InteropError(f"{dir_a} is not a directory")
    if not vdir_collections(dir_a):
        raise InteropError(f"{dir_a} has no collections (subfolders)")
    for stale in ("radicale-storage", "vdirsyncer-status"):
        if (work / stale).exists():
            raise InteropError(f"{work / stale} is left from an earlier run; use a new workdir")
    work.mkdir(parents=True, exist_ok=True)
    dir_b.mkdir(parents=True, exist_ok=True)
    vdirsyncer = tool("vdirsyncer")
    env = client_env()

    with radicale(work) as url:
        config = work / "vdirsyncer.conf"
        status = work / "vdirsyncer-status"
        # Collection names: vdirsyncer's filesystem storage names a collection
        # after its subfolder; with "from a" it creates the missing collection
        # on the caldav side by MKCOL at <calendar-home>/<name>/, and its
        # caldav storage names a discovered collection after the last segment
        # of its URL. So the radicale ids are DIR_A's folder names and the
        # second pair gives DIR_B the same folder names.
        # Items: a file is named after the item's UID when the UID is made of
        # [A-Za-z0-9_.+-] only; any other UID (for example with "@") gets a
        # random UUID as file name on the way. So items are compared by UID.
        # implicit = "create" creates missing collections without a prompt.
        pair = (
            'collections = ["from a"]\n'
            'metadata = ["color", "displayname", "order"]\n'
            'conflict_resolution = "a wins"\n'
            'implicit = "create"\n'
        )
        dav = (
            'type = "caldav"\n'
            f"url = {conf_str(url)}\n"
            f"username = {conf_str(DAV_USER)}\n"
            f"password = {conf_str(DAV_USER)}\n"
        )
        config.write_text(
            "[general]\n"
            f"status_path = {conf_str(str(status) + '/')}\n\n"
            "[pair up]\n"
            'a = "local_a"\nb = "server_up"\n' + pair + "\n"
            "[storage local_a]\n"
            'type = "filesystem"\n'
            f"path = {conf_str(str(dir_a) + '/')}\n"
            'fileext = ".ics"\n\n'
            "[storage server_up]\n" + dav + "\n"
            "[pair down]\n"
            'a = "server_down"\nb = "local_b"\n' + pair + "\n"
            "[storage server_down]\n" + dav + "\n"
            "[storage local_b]\n"
            'type = "filesystem"\n'
            f"path = {conf_str(str(dir_b) + '/')}\n"
            'fileext = ".ics"\n',
            encoding="utf-8",
        )
        base = [vdirsyncer, "--verbosity", "WARNING", "--config", str(config)]
        try:
            for pair_name in ("up", "down"):
                # Prompts (should any come) are answered "yes" from stdin.
                yes = "y\n" * 100
                run(base + ["discover", "--no-list", pair_name], env=env, input=yes,
                    what=f"vdirsyncer discover {pair_name}")
                run(base + ["sync", pair_name], env=env, input=yes,
                    what=f"vdirsyncer sync {pair_name}")
                # `sync` moves items only; collection metadata needs `metasync`.
                run(base + ["metasync", pair_name], env=env, input=yes,
                    what=f"vdirsyncer metasync {pair_name}")
        except InteropError as e:
            raise InteropError(f"{e} (radicale: {radicale_complaints(work / 'radicale.log')})") from None

    a, b = vdir_snapshot(dir_a), vdir_snapshot(dir_b)
    if a != b:
        diffs = []
        for name in sorted(set(a) | set(b)):
            if a.get(name) != b.get(name):
                diffs.append(f"{name}: {a.get(name)} != {b.get(name)}")
        raise InteropError("after the round trip DIR_B differs from DIR_A: " + "; ".join(diffs))
    return {
        "collections": sorted(b),
        "items": sum(len(list((dir_b / name).glob("*.ics"))) for name in b),
    }


# ---------------------------------------------------------------- icalendar

def read_calendars(path: Path) -> list[icalendar.Calendar]:
    try:
        data = path.read_bytes()
    except OSError as e:
        raise InteropError(f"cannot read {path}: {e.strerror}") from None
    try:
        cals = icalendar.Calendar.from_ical(data, multiple=True)
    except Exception as e:  # icalendar raises ValueError and friends
        raise InteropError(f"{path}: not iCalendar: {e}") from None
    cals = [c for c in cals if c.name == "VCALENDAR"]
    if not cals:
        raise InteropError(f"{path}: no VCALENDAR")
    for cal in cals:
        for comp in cal.walk():
            if comp.errors:
                name, err = comp.errors[0]
                raise InteropError(f"{path}: {comp.name} property {name}: {err}")
    return cals


def as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def text(value: Any) -> str | None:
    return None if value is None else str(value)


def decoded_str(comp: icalendar.cal.Component, name: str) -> str | None:
    if name not in comp:
        return None
    value = comp.decoded(name)
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    return str(value)


def categories(comp: icalendar.cal.Component) -> list[str]:
    out: list[str] = []
    for prop in as_list(comp.get("CATEGORIES")):
        out += [str(c) for c in prop.cats]
    return out


def cmd_icalendar_parse(args: argparse.Namespace) -> Any:
    path = Path(args.file)
    cals = read_calendars(path)
    todos = []
    for cal in cals:
        for todo in cal.walk("VTODO"):
            rrule = todo.get("RRULE")
            due = todo.get("DUE")
            todos.append({
                "uid": text(todo.get("UID")),
                "summary": text(todo.get("SUMMARY")),
                "description": text(todo.get("DESCRIPTION")),
                "due": decoded_str(todo, "DUE"),
                "due_tzid": due.params.get("TZID") if due is not None else None,
                "status": text(todo.get("STATUS")),
                "priority": int(todo.get("PRIORITY", 0)),
                "completed": decoded_str(todo, "COMPLETED"),
                "categories": categories(todo),
                "rrule": rrule.to_ical().decode() if rrule is not None else None,
                "related_to": [str(r) for r in as_list(todo.get("RELATED-TO"))],
                "alarms": len([c for c in todo.subcomponents if c.name == "VALARM"]),
                "x_properties": sorted({k.upper() for k in todo.keys()
                                        if k.upper().startswith("X-")}),
            })
    return {"calendars": len(cals), "todos": todos}


def cmd_icalendar_zones(args: argparse.Namespace) -> Any:
    """Each calendar's TZIDs without a VTIMEZONE (icalendar's own check),
    and each VTIMEZONE read by icalendar into a tzinfo and compared, hour by
    hour from its first onset through a year past its last, with the zone
    of that name in the IANA database (zoneinfo)."""
    import zoneinfo
    cals = read_calendars(Path(args.file))
    missing: list[str] = []
    zones = []
    for cal in cals:
        missing += sorted(cal.get_missing_tzids())
        for vtz in cal.walk("VTIMEZONE"):
            tzid = str(vtz["TZID"])
            reference = zoneinfo.ZoneInfo(tzid.split("/", 3)[-1] if tzid.startswith("/") else tzid)
            mine = vtz.to_tz()
            onsets = []
            for obs in vtz.subcomponents:
                onsets.append(obs.decoded("DTSTART"))
                for rdate in as_list(obs.get("RDATE")):
                    onsets += [p.dt for p in rdate.dts]
            start = min(onsets).replace(tzinfo=dt.timezone.utc)
            end = max(onsets).replace(tzinfo=dt.timezone.utc) + dt.timedelta(days=365)
            checked = mismatches = 0
            moment = start + dt.timedelta(days=1)
            first_mismatch = None
            while moment < end:
                checked += 1
                if moment.astimezone(mine).utcoffset() != moment.astimezone(reference).utcoffset():
                    mismatches += 1
                    first_mismatch = first_mismatch or moment.isoformat()
                moment += dt.timedelta(hours=1)
            zones.append({"tzid": tzid, "checked": checked, "mismatches": mismatches,
                          "first_mismatch": first_mismatch})
    return {"missing": missing, "zones": zones}


def cmd_vdir_todos(args: argparse.Namespace) -> Any:
    root = Path(args.root)
    if not root.is_dir():
        raise InteropError(f"{root} is not a directory")
    out = []
    for coll in vdir_collections(root):
        for f in sorted(coll.glob("*.ics")):
            todos = [t for cal in read_calendars(f) for t in cal.walk("VTODO")]
            if not todos:
                raise InteropError(f"{f}: no VTODO")
            for t in todos:
                out.append({"collection": coll.name, "file": f.name,
                            "uid": text(t.get("UID")), "summary": text(t.get("SUMMARY"))})
    out.sort(key=lambda e: (e["collection"], e["file"], e["uid"] or ""))
    return out


# ---------------------------------------------------------------- main

class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 1
        print(f"{self.prog}: {message}", file=sys.stderr)
        sys.exit(1)


def main(argv: list[str]) -> int:
    parser = Parser(prog="interop.py", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    p = sub.add_parser("todoman-list")
    p.add_argument("--vdir-root", required=True)
    p.set_defaults(func=cmd_todoman_list)

    p = sub.add_parser("todoman-new")
    p.add_argument("--vdir-root", required=True)
    p.add_argument("--list", required=True)
    p.add_argument("--summary", required=True)
    p.add_argument("--due")
    p.add_argument("--priority", choices=["low", "medium", "high"])
    p.set_defaults(func=cmd_todoman_new)

    p = sub.add_parser("todoman-done")
    p.add_argument("--vdir-root", required=True)
    p.add_argument("--uid", required=True)
    p.set_defaults(func=cmd_todoman_done)

    p = sub.add_parser("caldav-roundtrip")
    p.add_argument("--from", dest="from_", required=True)
    p.add_argument("--to", required=True)
    p.add_argument("--workdir", required=True)
    p.set_defaults(func=cmd_caldav_roundtrip)

    p = sub.add_parser("icalendar-parse")
    p.add_argument("file")
    p.set_defaults(func=cmd_icalendar_parse)

    p = sub.add_parser("icalendar-zones")
    p.add_argument("file")
    p.set_defaults(func=cmd_icalendar_zones)

    p = sub.add_parser("vdir-todos")
    p.add_argument("root")
    p.set_defaults(func=cmd_vdir_todos)

    args = parser.parse_args(argv)
    try:
        result = args.func(args)
    except InteropError as e:
        print(f"interop.py {args.command}: {one_line(str(e))}", file=sys.stderr)
        return 1
    except Exception as e:  # a bug here, or a client changed: still one line
        print(f"interop.py {args.command}: {type(e).__name__}: {one_line(str(e))}",
              file=sys.stderr)
        return 1
    sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
