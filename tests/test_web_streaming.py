"""A model seat's speech grows on the web table as the model writes it: real Chromium,
the real server, models on the streaming stand-in of ``arena/standin_server.py``
(OpenAI's ``chat.completion.chunk`` events, a pause between two of them).

A person plays a whole game against three model seats; the page records every text
its speech-in-progress box shows, and the test checks the speech grew in at least
three steps, only ever showed public words, ended as the speech the game recorded,
and left nothing behind once the speech was heard; and, when the model's first speech
is a reply the checks refuse, that the page showed its words and never its reasoning,
said it was withdrawn, and ended with the checked speech.
"""

from __future__ import annotations


import pytest

from arena.standin_server import REASONING, SPEECH, WITHDRAWN, StandInServer  # noqa: E402
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


def play_against_models(tmp_path, page, monkeypatch, broken: int = 0) -> tuple[list[dict], int, list[str]]:  # noqa: F811
    """A whole game of Alice's against three streaming models: what the draft box
    showed, how many drafts were left at the end, and the models' recorded speeches."""
    import agents.llm.backends.openai_backend  # noqa: F401  (imported before the request that seats it: a slow import on a busy machine)

    with StandInServer(latency=0, stream_delay=0.02) as api:
        api.broken_speeches = broken
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
    return drafts, left, [e.data["text"] for e in transcript.events if e.kind == "speech" and e.data["speaker"] in MODELS]


def test_a_models_speech_grows_on_the_table_as_it_is_written(tmp_path, page, monkeypatch):  # noqa: F811
    drafts, left, spoken = play_against_models(tmp_path, page, monkeypatch)
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


def test_a_streamed_speech_the_checks_refuse_is_withdrawn_on_the_page(tmp_path, page, monkeypatch):  # noqa: F811
    drafts, left, spoken = play_against_models(tmp_path, page, monkeypatch, broken=1)
    assert spoken and set(spoken) == {SPEECH}  # the record holds the checked speech only
    shown = [d["shown"] for d in drafts]
    first = next(i for i, d in enumerate(drafts) if d["text"].startswith(WITHDRAWN[:10]))
    assert any(d["text"] == WITHDRAWN for d in drafts), "the refused words were shown as they came"
    told = next(i for i, t in enumerate(shown) if "withdrew a reply that failed the checks" in t)
    assert told > first
    seat = drafts[first]["seat"]
    after = [d["text"] for d in drafts[told:] if d["seat"] == seat and d["text"]]
    assert after and after[-1] == SPEECH, "the checked speech followed"
    assert not any("SECRET PLAN" in t or "I am the wolf" in t or "reasoning" in t for t in shown)
    assert left == 0
