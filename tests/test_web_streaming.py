"""A model seat's speech grows on the web table as the model writes it: real Chromium,
the real server, models on the streaming stand-in of ``benchmarks/standin_server.py``
(OpenAI's ``chat.completion.chunk`` events, a pause between two of them).

A person plays a whole game against three model seats; the page records every text
its speech-in-progress box shows, and the test checks the speech grew in at least
three steps, only ever showed public words, ended as the speech the game recorded,
and left nothing behind once the speech was heard.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from standin_server import REASONING, SPEECH, StandInServer  # noqa: E402
from test_web_browser import browser, page  # noqa: E402,F401  (the browser fixtures, used by name)
from test_web_browser import create, play_to_end, run_server  # noqa: E402
from test_web_browser import table as browser_table  # noqa: E402

from transcripts.schema import read_transcript  # noqa: E402

pytestmark = pytest.mark.usefixtures("llm_env")
MODELS = ("Bob", "Chloe", "David")

# Every text the speech-in-progress box shows, in order, as the page draws it.
RECORDER = """
window.__drafts = [];
new MutationObserver(() => {
  for (const node of document.querySelectorAll('#drafts .draft')) {
    const words = node.querySelector('.words');
    const text = words ? words.textContent : '';
    const last = window.__drafts.filter((d) => d.seat === node.dataset.seat).pop();
    const shown = node.textContent;
    if (!last || last.text !== text || last.shown !== shown) window.__drafts.push({ seat: node.dataset.seat, text, shown });
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def test_a_models_speech_grows_on_the_table_as_it_is_written(tmp_path, page, monkeypatch):  # noqa: F811
    import agents.llm.backends.openai_backend  # noqa: F401  (imported before the request that seats it: a slow import on a busy machine)

    with StandInServer(latency=0, stream_delay=0.02) as api:
        monkeypatch.setenv("OPENAI_BASE_URL", api.base_url)
        app, base, stop = run_server(tmp_path)
        try:
            table = browser_table({"Alice": "werewolf"}, seed=11)
            for seat in table["seats"]:
                if seat["name"] in MODELS:
                    seat["agent"] = "openai:standin"
            links = create(base, **table)
            page.add_init_script(RECORDER)
            page.goto(base + links["seats"]["Alice"])
            play_to_end(page)
            drafts = page.evaluate("window.__drafts")
            left = page.locator("#drafts .draft").count()
            session = app.state.store.by_seat(links["seats"]["Alice"].rsplit("/", 1)[1])
        finally:
            stop()
    assert session is not None
    transcript = read_transcript(session[0].transcript)
    spoken = [e.data["text"] for e in transcript.events if e.kind == "speech" and e.data["speaker"] in MODELS]
    assert spoken and set(spoken) == {SPEECH}
    by_seat: dict[str, list[str]] = {}
    for d in drafts:
        if d["text"]:
            by_seat.setdefault(d["seat"], []).append(d["text"])
    assert by_seat, "no speech was shown while it was written"
    for seat, texts in by_seat.items():
        speech = texts[: texts.index(SPEECH) + 1] if SPEECH in texts else texts
        assert len(speech) >= 3, f"{seat}'s speech appeared in {len(speech)} steps"
        assert all(b.startswith(a) and len(b) > len(a) for a, b in zip(speech, speech[1:])), speech
        assert SPEECH in texts, f"{seat}'s speech did not end as the one recorded"
    assert not any(REASONING[:20] in d["shown"] or "reasoning" in d["shown"] for d in drafts)
    assert left == 0, "a finished speech was left on the table"
