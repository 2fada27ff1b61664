"""The static site: ``index.html`` (ratings, head to head, sides, roles, behaviour,
cost, self-play), ``games.html`` (every game) and ``games/<id>.html`` (each game's
replay, the existing per-game export), in two languages, plus ``leaderboard.json``.

Why built from ``--json``'s dictionary: the page is a view of those numbers and
nothing else, so a reader can check any figure on it against the JSON beside it.
No script, no network, no CDN: inline CSS and inline SVG open from the disk.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.site.bias import store_bias
from arena.site.frame import LANGUAGES, Words, suffix
from arena.site.games import games_page
from arena.site.index import index_page
from arena.site.monitor import store_monitor
from arena.site.replays import stamp, replay
import transcripts.bounded as bounded


@dataclass
class BuildReport:
    folder: Path
    seconds: float = 0.0
    files: int = 0
    bytes: int = 0
    index_bytes: int = 0
    replays: dict[str, int] = field(default_factory=dict)

    def summary(self) -> str:
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(self.replays.items()))
        return (f"wrote {self.folder}/index.html ({self.index_bytes // 1024 + 1} KiB; {self.files} files, "
                f"{self.bytes / 1e6:.1f} MB in all; replays: {kinds or 'none'}) in {self.seconds:.1f} s")  # fmt: skip


def build_from_store(data: dict[str, Any], db: str, out_dir: str | Path, *, seed: int, language: str = "en") -> BuildReport:
    """``leaderboard --html``: the site of a tournament database. ``data`` is what
    ``--json`` prints; the site adds what only it shows (in ``data`` too, so ``--json``
    beside ``--html`` prints it): the table's biases and the monitors' readings, both
    read from every transcript (cached in the store)."""
    data["bias"] = store_bias(db, seed=seed)
    data["monitor"] = store_monitor(db, seed=seed)
    return build(data, db, out_dir, language=language)


def build(data: dict[str, Any], db: str, out_dir: str | Path, language: str = "en") -> BuildReport:
    """Write the site into ``out_dir`` from ``data`` (``--json``'s dictionary)."""
    t0 = time.perf_counter()
    out = Path(out_dir)
    (out / "games").mkdir(parents=True, exist_ok=True)
    folder = Path(db).parent
    pages: dict[str, str] = {}
    back = Words(language)("back")
    manifest_path = out / "games" / "built.json"
    try:
        manifest = bounded.loads_json(bounded.read_bytes(manifest_path, bounded.SESSION_FILE))
    except (OSError, ValueError):
        manifest = {}
    if not isinstance(manifest, dict):  # not what this version writes: every page again
        manifest = {}
    fresh: dict[str, Any] = {}
    for g in data.get("game_list") or []:
        src, dst = folder / g["transcript"], out / "games" / f"{g['id']}.html"
        key = stamp(src, back)
        old = manifest.get(g["id"])
        if key is not None and old and old[0] == key and old[1] != "missing" and dst.exists():
            pages[g["id"]] = old[1]  # the same transcript, already exported by this version
        else:
            pages[g["id"]] = replay(src, dst, back)
        fresh[g["id"]] = [key, pages[g["id"]]]
    manifest_path.write_text(json.dumps(fresh), encoding="utf-8")
    (out / "leaderboard.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    for lang in (language, *(x for x in LANGUAGES if x != language)):
        w, sfx = Words(lang), suffix(lang, language)
        other_lang = next(x for x in LANGUAGES if x != lang)
        osfx = suffix(other_lang, language)
        (out / f"index{sfx}.html").write_text(index_page(data, w, sfx, f"index{osfx}.html", db), encoding="utf-8")
        (out / f"games{sfx}.html").write_text(games_page(data, w, sfx, f"games{osfx}.html", pages), encoding="utf-8")
    report = BuildReport(out, seconds=time.perf_counter() - t0)
    for p in out.rglob("*"):
        if p.is_file():
            report.files += 1
            report.bytes += p.stat().st_size
    report.index_bytes = (out / "index.html").stat().st_size
    for status in pages.values():
        report.replays[status] = report.replays.get(status, 0) + 1
    return report
