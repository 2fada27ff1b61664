"""What each vendor's prompt cache would bill for a request, by the vendors' documented rules.

The stand-ins the tests and benchmarks talk to (``tests/llm_standins.py``,
``arena/standin_server.py``) report their usage blocks from these models, so the
project's accounting reads what a game would really be billed, and a prompt layout
is judged by the cache the vendor really has, not by how similar two message lists
look. Pure and deterministic: tokens are counted as 4 characters each (the stand-ins'
tokeniser), time comes from a clock the caller passes.

OpenAI (automatic prefix caching; developers.openai.com/api/docs/guides/prompt-caching
and developers.openai.com/cookbook/examples/prompt_caching_201):

- the whole request prefix is cacheable, tool definitions and the structured-output
  schema included; they are rendered before the messages, so a schema that changes
  between calls breaks the prefix at its very start;
- only prompts of 1,024 tokens or more are cached; a hit covers the matched prefix in
  128-token blocks after the first 1,024 (cached = 1,024 + 128·k);
- a request is routed by a hash of its first ~256 tokens combined with
  ``prompt_cache_key`` when given: only requests that land on the same machine share
  a cache, so requests of different keys never read each other's entries;
- above about 15 requests a minute for one prefix and key, requests overflow to
  further machines, which hold none of the first machine's entries; this model sends
  a request to the first of a route's machines that has served fewer than
  ``overflow_rate`` requests in the last 60 seconds of the caller's clock (off unless
  asked: only a clock that runs at the vendor's pace, such as ``StepClock``, makes
  that rate mean anything);
- entries live 5 to 10 minutes of inactivity (in-memory retention); this model keeps
  them ``OPENAI_TTL`` seconds after their last use;
- the figure is reported as ``usage.prompt_tokens_details.cached_tokens``, inside
  ``prompt_tokens``.

Anthropic (explicit breakpoints; platform.claude.com/docs/en/build-with-claude/prompt-caching
and docs.anthropic.com/en/docs/agents-and-tools/tool-use/tool-use-with-prompt-caching):

- the prefix is rendered tools, then system, then messages; ``cache_control`` marks a
  breakpoint on a block and at most 4 are allowed (more is a 400);
- a breakpoint writes the prefix up to its block, if that prefix is at least the
  model's minimum (``ANTHROPIC_MIN``: 4,096 tokens for Haiku 4.5 and Opus 4.5 to 4.7,
  1,024 for Sonnet 4.6 and Opus 4.8, 512 for Opus 5, Fable 5 and Mythos 5); shorter
  ones silently cache nothing;
- a read is found at a breakpoint or at an earlier block boundary, looking back up to
  20 blocks from each breakpoint; entries exist only where an earlier request had a
  breakpoint;
- changing ``tool_choice`` or the thinking settings invalidates the cached message
  blocks (tools and system stay cached);
- an entry becomes readable once the request that wrote it is answered (parallel
  requests do not see each other's writes), and lives 5 minutes (``ttl: "1h"``: an
  hour), refreshed at every hit;
- usage reports ``cache_read_input_tokens`` (billed at 0.1x input) and
  ``cache_creation_input_tokens`` (1.25x for 5-minute entries) apart from
  ``input_tokens``, which counts only the rest.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from agents.llm.model_ids import entry_for

CHARS_PER_TOKEN = 4
Clock = Callable[[], float]

OPENAI_MIN = 1024
OPENAI_STEP = 128
OPENAI_ROUTE_TOKENS = 256
OPENAI_TTL = 300.0
OPENAI_ENTRIES_PER_ROUTE = 64
OPENAI_OVERFLOW_RATE = 15  # requests per route and machine per minute, as documented (approximately)
OPENAI_RATE_WINDOW = 60.0

ANTHROPIC_MAX_BREAKPOINTS = 4
ANTHROPIC_LOOKBACK = 20
ANTHROPIC_TTL = {"5m": 300.0, "1h": 3600.0}
# Minimum cacheable prefix by model id or dated snapshot (``agents.llm.model_ids``);
# any other model: 1,024, the documented figure for Sonnet 4.6 and Opus 4.8 and the
# smallest of the older families. Sources: the "cache limitations" list of
# https://platform.claude.com/docs/en/build-with-claude/prompt-caching as quoted in
# github.com/anthropics/anthropic-sdk-python/issues/1194 and
# clawdemy.org/lessons/building-with-claude/prompt-caching-and-context-management/cheatsheet/
# (4,096 for Opus 4.5-4.7 and Haiku 4.5; 1,024 for Sonnet 4.6 and Opus 4.8), and
# dev.to/creeta/claudes-prompt-cache-fails-silently-below-1024-tokens-1ch1 for the 512
# of the 5 family (one source; it gives Opus 4.7 2,048 where the two above give 4,096).
ANTHROPIC_MIN = {
    "claude-haiku-4-5": 4096,
    "claude-opus-4-5": 4096,
    "claude-opus-4-6": 4096,
    "claude-opus-4-7": 4096,
    "claude-opus-5": 512,
    "claude-fable-5": 512,
    "claude-mythos-5": 512,
}
ANTHROPIC_DEFAULT_MIN = 1024


def tokens(text: str) -> int:
    """The stand-ins' tokeniser: 4 characters a token, at least one."""
    return max(1, (len(text) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN)


def common_prefix(a: str, b: str) -> int:
    """Length of the longest common prefix (binary search over C-speed slice compares)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _dump(value: Any) -> str:
    # Insertion order, as the SDKs serialise the body: the bytes the vendor sees.
    return json.dumps(value, ensure_ascii=False)


# ---------------------------------------------------------------------- OpenAI
def openai_prompt_text(body: dict[str, Any]) -> str:
    """The request as the prefix cache sees it: tools and the response schema first,
    then every message in order."""
    parts = []
    if body.get("tools"):
        parts.append("<tools>" + _dump(body["tools"]))
    rf = body.get("response_format")
    if isinstance(rf, dict) and rf.get("type") == "json_schema":
        parts.append("<response_format>" + _dump(rf.get("json_schema")))
    for m in body.get("messages", []):
        c = m.get("content")
        if isinstance(c, list):
            c = "".join(p.get("text", "") for p in c if isinstance(p, dict))
        calls = _dump(m["tool_calls"]) if m.get("tool_calls") else ""
        parts.append(f"<{m.get('role')}>{c or ''}{calls}")
    return "".join(parts)


def openai_billed_cached(prefix_tokens: int, minimum: int = OPENAI_MIN) -> int:
    """Cached tokens for a matched prefix of this length: 0 below the minimum, else
    the minimum plus whole 128-token blocks."""
    if prefix_tokens < minimum:
        return 0
    return prefix_tokens - (prefix_tokens - minimum) % OPENAI_STEP


@dataclass
class _Entry:
    text: str
    used: float


@dataclass
class _Machine:
    """One machine behind a route: its cache entries and when it was last asked."""

    entries: list[_Entry] = field(default_factory=list)
    arrivals: list[float] = field(default_factory=list)


@dataclass
class OpenAIUsage:
    prompt_tokens: int
    cached_tokens: int
    route: str
    text: str
    machine: int = 0  # 0: the route's own machine; more: an overflow machine


class OpenAIPromptCache:
    """The prompt cache of one OpenAI organisation, as seen by its usage blocks.
    ``minimum`` is the documented 1,024 unless a test needs short prompts cached;
    ``overflow_rate`` (requests per machine per minute of ``clock``) models the
    documented overflow to further machines, when ``clock`` runs at the vendor's pace."""

    def __init__(
        self, clock: Clock = time.monotonic, ttl: float = OPENAI_TTL, minimum: int = OPENAI_MIN, overflow_rate: int | None = None
    ) -> None:
        self.clock = clock
        self.ttl = ttl
        self.minimum = minimum
        self.overflow_rate = overflow_rate
        self._routes: dict[str, list[_Machine]] = {}

    def reset(self) -> None:
        self._routes.clear()

    @staticmethod
    def route(body: dict[str, Any], text: str) -> str:
        head = text[: OPENAI_ROUTE_TOKENS * CHARS_PER_TOKEN]
        key = body.get("prompt_cache_key") or ""
        return hashlib.sha256(f"{key}\x00{head}".encode()).hexdigest()

    def _machine(self, route: str, now: float) -> int:
        """The machine that serves a request arriving now: the route's first one that
        is under the overflow rate (every request counts where it is served)."""
        machines = self._routes.setdefault(route, [_Machine()])
        if self.overflow_rate is None:
            return 0
        for i, m in enumerate(machines):
            m.arrivals = [t for t in m.arrivals if now - t < OPENAI_RATE_WINDOW]
            if len(m.arrivals) < self.overflow_rate:
                m.arrivals.append(now)
                return i
        machines.append(_Machine(arrivals=[now]))
        return len(machines) - 1

    def lookup(self, body: dict[str, Any]) -> OpenAIUsage:
        """What this request reads from the cache now (nothing is written yet)."""
        text = openai_prompt_text(body)
        route = self.route(body, text)
        now = self.clock()
        index = self._machine(route, now)
        machine = self._routes[route][index]
        machine.entries = [e for e in machine.entries if now - e.used <= self.ttl]
        best, hit = 0, None
        for e in machine.entries:
            n = common_prefix(e.text, text)
            if n > best:
                best, hit = n, e
        prompt_tokens = tokens(text)
        cached = min(openai_billed_cached(best // CHARS_PER_TOKEN, self.minimum), prompt_tokens)
        if hit is not None and cached:
            hit.used = now
        return OpenAIUsage(prompt_tokens=prompt_tokens, cached_tokens=cached, route=route, text=text, machine=index)

    def commit(self, usage: OpenAIUsage) -> None:
        """The request was answered: its prefix is now cached on the machine that served it."""
        if usage.prompt_tokens < self.minimum:
            return
        entries = self._routes[usage.route][usage.machine].entries
        entries.append(_Entry(usage.text, self.clock()))
        del entries[:-OPENAI_ENTRIES_PER_ROUTE]


class StepClock:
    """Vendor time for a stand-in that answers faster than the vendor does: each run of
    requests that starts when none is in flight (one round trip of the game, however
    many calls it holds in parallel) advances the clock by ``step`` seconds, the
    vendor's latency per call. Rates and lifetimes are then judged at the vendor's
    pace, whatever the stand-in's latency and the client's CPU time between calls."""

    def __init__(self, step: float) -> None:
        self.step = step
        self._steps = 0
        self._in_flight = 0
        self._lock = threading.Lock()

    def __call__(self) -> float:
        return self._steps * self.step

    def arrive(self) -> None:
        with self._lock:
            if self._in_flight == 0:
                self._steps += 1
            self._in_flight += 1

    def leave(self) -> None:
        with self._lock:
            self._in_flight = max(0, self._in_flight - 1)

    def reset(self) -> None:
        with self._lock:
            self._steps = self._in_flight = 0


# ---------------------------------------------------------------------- Anthropic
class CacheRequestError(ValueError):
    """A request the vendor refuses (too many breakpoints): a 400 with this message."""


def anthropic_min(model: str) -> int:
    """The model's minimum cacheable prefix; a later version (``claude-opus-5-5``) is
    not taken for an earlier one (``claude-opus-5``)."""
    key = entry_for(model, ANTHROPIC_MIN)
    return ANTHROPIC_MIN[key] if key is not None else ANTHROPIC_DEFAULT_MIN


def anthropic_blocks(body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The prompt as (section, block) pairs in cache order: tools, system, messages."""
    out: list[tuple[str, dict[str, Any]]] = [("tools", t) for t in body.get("tools") or []]
    system = body.get("system")
    if isinstance(system, str):
        out.append(("system", {"type": "text", "text": system}))
    else:
        out += [("system", b) for b in system or []]
    for m in body.get("messages", []):
        c = m.get("content")
        blocks = [{"type": "text", "text": c}] if isinstance(c, str) else list(c or [])
        out += [("messages", {"role": m.get("role"), **b}) for b in blocks]
    return out


def _block_text(block: dict[str, Any]) -> str:
    if block.get("type") == "text" and isinstance(block.get("text"), str):
        return block["text"]
    return _dump({k: v for k, v in block.items() if k not in ("cache_control", "role")})


@dataclass
class AnthropicUsage:
    input_tokens: int
    cache_read_input_tokens: int
    cache_creation_input_tokens: int
    writes: list[tuple[str, float]] = field(default_factory=list)  # (digest, ttl) to store once answered


class AnthropicPromptCache:
    """The prompt cache of one Anthropic workspace, as seen by its usage blocks.
    ``minimum`` overrides the model's documented minimum (tests with short prompts)."""

    def __init__(self, clock: Clock = time.monotonic, minimum: int | None = None) -> None:
        self.clock = clock
        self.minimum = minimum
        self._entries: dict[str, tuple[float, float]] = {}  # digest -> (last use, ttl)

    def reset(self) -> None:
        self._entries.clear()

    def _alive(self, digest: str, now: float) -> bool:
        got = self._entries.get(digest)
        if got is None:
            return False
        used, ttl = got
        if now - used > ttl:
            del self._entries[digest]
            return False
        return True

    def lookup(self, body: dict[str, Any]) -> AnthropicUsage:
        """What this request reads and would write; raises ``CacheRequestError``."""
        pairs = anthropic_blocks(body)
        breakpoints = [i for i, (_, b) in enumerate(pairs) if b.get("cache_control")]
        if len(breakpoints) > ANTHROPIC_MAX_BREAKPOINTS:
            raise CacheRequestError(f"A maximum of {ANTHROPIC_MAX_BREAKPOINTS} blocks with cache_control may be provided. Found {len(breakpoints)}.")
        sizes = [tokens(_block_text(b)) for _, b in pairs]
        digests: list[str] = []
        h = hashlib.sha256(body.get("model", "").encode())
        entered_messages = False
        for section, b in pairs:
            if section == "messages" and not entered_messages:
                # What invalidates the message blocks' cache without touching tools or system.
                h.update(_dump({"tool_choice": body.get("tool_choice"), "thinking": body.get("thinking")}).encode())
                entered_messages = True
            h.update(_dump({k: v for k, v in b.items() if k != "cache_control"}).encode())
            digests.append(h.copy().hexdigest())
        now = self.clock()
        read_upto = -1
        for bp in breakpoints:
            for j in range(bp, max(-1, bp - ANTHROPIC_LOOKBACK), -1):
                if self._alive(digests[j], now):
                    if j > read_upto:
                        read_upto = j
                    break
        if read_upto >= 0:
            used, ttl = self._entries[digests[read_upto]]
            self._entries[digests[read_upto]] = (now, ttl)
        minimum = self.minimum if self.minimum is not None else anthropic_min(body.get("model", ""))
        writes: list[tuple[str, float]] = []
        write_upto = read_upto
        for bp in breakpoints:
            if bp > read_upto and sum(sizes[: bp + 1]) >= minimum:
                ttl = ANTHROPIC_TTL.get(str(pairs[bp][1]["cache_control"].get("ttl", "5m")), ANTHROPIC_TTL["5m"])
                writes.append((digests[bp], ttl))
                write_upto = max(write_upto, bp)
        read = sum(sizes[: read_upto + 1])
        written = sum(sizes[read_upto + 1 : write_upto + 1])
        fresh = sum(sizes[write_upto + 1 :])
        return AnthropicUsage(input_tokens=fresh, cache_read_input_tokens=read, cache_creation_input_tokens=written, writes=writes)

    def commit(self, usage: AnthropicUsage) -> None:
        """The request was answered: its writes are readable from now on."""
        now = self.clock()
        for digest, ttl in usage.writes:
            self._entries[digest] = (now, ttl)


# ---------------------------------------------------------------------- the answer asked for
def narrowed_schema(schema: dict[str, Any] | None, question: str) -> dict[str, Any] | None:
    """The schema a legal answer must follow: the request's, narrowed by the fields the
    question spells out on its last line holding a JSON object with ``properties``
    (the cache layout sends one schema for the whole game and names each decision's
    legal answers in the question). ``$ref`` to ``#/properties/X`` points into the
    request's schema; fields the question does not name stay empty."""
    if not isinstance(schema, dict):
        return schema
    found = None
    for line in reversed(question.splitlines()):
        start = line.find("{")
        while start >= 0 and found is None:
            try:
                value, _ = json.JSONDecoder().raw_decode(line, start)
            except json.JSONDecodeError:
                value = None
            if isinstance(value, dict) and isinstance(value.get("properties"), dict):
                found = value
            start = line.find("{", start + 1)
        if found is not None:
            break
    if found is None:
        return schema
    props = schema.get("properties", {})
    out = {}
    for name, sub in props.items():
        if name in found["properties"]:
            asked = found["properties"][name]
            ref = asked.get("$ref", "") if isinstance(asked, dict) else ""
            out[name] = props.get(ref.rsplit("/", 1)[-1], sub) if ref.startswith("#/properties/") else asked
        elif name != "reasoning":
            out[name] = {"empty": True, **sub}
        else:
            out[name] = sub
    return {**schema, "properties": out}


def user_text(messages: list[dict[str, Any]]) -> str:
    """What the user side of a request said, in order (history, the question, any
    corrections, tool results): where the question's own line is found, even in a
    re-ask."""
    out = []
    for m in messages:
        if m.get("role") not in ("user", "tool"):
            continue
        c = m.get("content")
        if isinstance(c, list):
            out += [b.get("text", "") if b.get("type") == "text" else str(b.get("content", "")) for b in c if isinstance(b, dict)]
        else:
            out.append(c or "")
    return "\n".join(out)


def empty_value(schema: dict[str, Any]) -> Any:
    """The "nothing" of a field the question does not ask for."""
    t = schema.get("type")
    types = t if isinstance(t, list) else [t]
    if "anyOf" in schema or "null" in types:
        return None
    if "object" in types:
        return {k: empty_value(v) for k, v in schema.get("properties", {}).items()}
    if "array" in types:
        return []
    if "string" in types:
        return ""
    if "boolean" in types:
        return False
    return None
