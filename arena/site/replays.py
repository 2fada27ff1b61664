"""Each game's replay page, by the existing per-game export (``transcripts.export_html``),
and what a page depends on, so that a rebuild exports only changed games."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import transcripts.export_html as export
from arena.site.svg import esc
from transcripts.export_html import render_html
from transcripts.verify import Status, verify_file


def replay(transcript: Path, out: Path, back: str) -> str:
    """One game's page by the existing export (public / per-seat / full views), with a
    link back to the leaderboard. ``ok``, ``unverified`` (written with its verdict,
    never dropped), or ``missing``."""
    v = verify_file(transcript, allow_unchained=True)
    if v.status is Status.UNREADABLE or v.transcript is None:
        out.unlink(missing_ok=True)  # an earlier build's page of a file no longer there
        return "missing"
    verdict = v.summary().splitlines()[0].replace(str(transcript), transcript.name)  # no local path on a published page
    html_text = render_html(v.transcript, title=transcript.name, verdict=verdict)
    html_text = html_text.replace('<header class="page">', f'<header class="page"><p><a href="../index.html">{esc(back)}</a></p>', 1)
    out.write_text(html_text, encoding="utf-8")
    return "unverified" if v.status is Status.MISMATCH else "ok"


@lru_cache(maxsize=None)
def _exporter_digest() -> str:
    """The export's code and template, hashed: a changed export rebuilds every page."""
    h = hashlib.sha256(Path(export.__file__).read_bytes())
    h.update(Path(export.__file__).with_name("templates").joinpath("report.html").read_bytes())
    h.update(Path(__file__).read_bytes())  # this module: the link back
    return h.hexdigest()[:16]


def stamp(transcript: Path, back: str) -> str | None:
    """What a replay page depends on: the transcript's size and time, the export's
    code, and the link's words. A rebuild while a tournament runs then exports only
    the new games."""
    try:
        st = transcript.stat()
    except OSError:
        return None
    return f"{st.st_size}:{st.st_mtime_ns}:{_exporter_digest()}:{back}"
