"""Per-seat settings of a model seat.

One pydantic model serves the game file (``seats[i].options``), the registry's keyword
options and the Python API, so a misspelt key is refused the same way everywhere and
the defaults live in one place. The retry and time-limit knobs are here, not buried in
the back ends, because a test suite wants them tiny and a 1,000-game tournament wants
them patient.

API keys are deliberately not a setting: a key in a game file ends up in version
control and transcripts. A seat that needs a key other than the SDK's default
variable names that variable (``api_key_env``) instead.

``base_url`` and ``api_key_env`` together decide which secret goes to which server
(``ENDPOINT_FIELDS``), so they are taken only from the user: the command line, the
Python API, the vendors' own variables. A game file, a tournament file or a transcript
(someone else's, perhaps) that sets them is refused unless the user passes
``--trust-endpoints`` (``arena.endpoints``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from engine.words import MAX_CHARS

# Where a back end's key comes from when ``api_key_env`` is not given: the SDKs' own.
DEFAULT_KEY_ENV = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
DEFAULT_BASE_URL_ENV = {"openai": "OPENAI_BASE_URL", "anthropic": "ANTHROPIC_BASE_URL"}
# Reply limits in characters (reasoning, words) by layout: the vendors' APIs, and servers
# of one's own, where a small model on a CPU writes a few tokens a second.
DEFAULT_CHARS = {"cache": (300, 600), "grammar": (100, 240)}
# The settings that choose where a seat's key is sent, and which variable is sent.
ENDPOINT_FIELDS = ("base_url", "api_key_env")


def endpoint_fields(options: object) -> list[str]:
    """Which of ``ENDPOINT_FIELDS`` a seat's options (a mapping or ``LLMOptions``) set."""
    if isinstance(options, BaseModel):
        options = options.model_dump(exclude_unset=True)
    if not isinstance(options, dict):
        return []
    return [f for f in ENDPOINT_FIELDS if options.get(f) is not None]


class LLMOptions(BaseModel):
    """What a game file may say about one model seat (all optional)."""

    model_config = ConfigDict(extra="forbid")

    # --- sampling ----------------------------------------------------------------------
    temperature: float | None = Field(default=None, ge=0, le=2)
    max_tokens: int = Field(default=1024, ge=16, le=1_000_000, description="completion budget per call")
    max_tokens_cap: int = Field(
        default=4096, ge=16, le=1_000_000, description="largest budget a re-ask after a reply cut at max_tokens may use (doubling each time)"
    )
    # --- what a reply may spend ------------------------------------------------------------
    reasoning_chars: int | None = Field(
        default=None,
        ge=0,
        le=100_000,
        description="the longest private reasoning a reply may hold, in characters (0: no limit); stated in the prompt, and a "
        "maxLength in the schema a local server enforces as a grammar. Default: "
        f"{DEFAULT_CHARS['cache'][0]} on the vendors' APIs, {DEFAULT_CHARS['grammar'][0]} on a server "
        "of one's own (the grammar layout), where a CPU writes a few tokens a second",
    )
    text_chars: int | None = Field(
        default=None,
        ge=0,
        le=MAX_CHARS,
        description="the longest speech or private talk, in characters, at most the engine's bound on every seat's words "
        f"({MAX_CHARS:,}, engine.words; 0: that bound); stated and enforced as reasoning_chars, and longer words are cut to "
        f"it and counted as a violation. Default: {DEFAULT_CHARS['cache'][1]} on the vendors' APIs, "
        f"{DEFAULT_CHARS['grammar'][1]} on a server of one's own",
    )
    budgets: dict[Literal["choice", "words", "beliefs"], int] | None = Field(
        default=None,
        description="completion tokens per kind of question (choice: a vote, a target, yes or no; words: a speech, a private "
        "talk; beliefs), each at most max_tokens and stated in the prompt; default: room for the longest reply the limits "
        "above allow (docs/MODEL_CACHE.md)",
    )
    # --- where ------------------------------------------------------------------------
    base_url: str | None = None  # else OPENAI_BASE_URL / ANTHROPIC_BASE_URL, else the vendor's
    api_key_env: str | None = None  # the variable holding this seat's key, when not the SDK's
    display_name: str | None = None  # how the model is named in summaries (default: the model id)
    # --- never hang -------------------------------------------------------------------
    timeout: float | None = Field(
        default=None,
        gt=0,
        le=3600,
        description="seconds for one HTTP call. Default: 60 on the vendors' APIs; on a server of one's own (the grammar "
        "layout) the decision's whole time limit, decision_timeout: a slow answer there is the server still working on "
        "this very request (a small model's first prompt on a busy CPU), and a retry would start it over",
    )
    max_retries: int = Field(default=4, ge=0, le=20, description="retries of a transient failure per call")
    retry_initial: float = Field(default=1.0, ge=0, le=600, description="first backoff, seconds")
    retry_max_wait: float = Field(default=30.0, ge=0, le=3600, description="cap on one wait, Retry-After included")
    retry_total: float = Field(default=120.0, gt=0, le=86400, description="cap on the time spent retrying one call")
    decision_timeout: float = Field(default=300.0, gt=0, le=86400, description="seconds for one decision, re-asks included")
    max_reasks: int = Field(default=2, ge=0, le=10, description="re-asks after a malformed or illegal answer")
    # --- structured output ---------------------------------------------------------------
    mode: str | None = Field(
        default=None,
        description="force json_schema | tool | text (default: the best the server accepts, learnt per back end)",
    )

    prompt_layout: Literal["auto", "cache", "grammar"] = Field(
        default="auto",
        description=(
            "cache: one answer schema for the whole game and a stable prompt_cache_key, the legal answers in the question "
            "(what the vendors' prompt caches need); grammar: each decision's own schema, enforced by the server's JSON-schema "
            "grammar (free on local servers, where the schema is not part of the prompt); auto: cache on api.openai.com and "
            "on the Anthropic API, grammar elsewhere"
        ),
    )
    cache_key_seats: int = Field(
        default=2,
        ge=1,
        le=8,
        description=(
            "seats that share one OpenAI prompt_cache_key (neighbours in seat order): each key's first request misses its "
            "whole prefix, so sharing saves those misses, but above about 15 requests a minute one key overflows to machines "
            "without its cache; 2 pays from about 2.5 s a round trip, 1 is better for models faster than that "
            "(docs/MODEL_CACHE.md)"
        ),
    )
    # --- reasoning models ----------------------------------------------------------------
    reasoning_effort: Literal["none", "minimal", "low", "medium", "high"] | None = Field(
        default=None, description="OpenAI reasoning models' reasoning_effort"
    )
    reasoning_budget: int | None = Field(
        default=None,
        ge=1024,
        description=(
            "hidden reasoning tokens allowed per call, on top of max_tokens: Anthropic extended thinking's budget_tokens; "
            "with OpenAI, added to max_completion_tokens (which counts reasoning). Default with reasoning_effort: 4096"
        ),
    )
    extra_body: dict[str, Any] | None = Field(default=None, description="raw fields merged into every request body (a server's own knobs)")

    @field_validator("mode")
    @classmethod
    def _mode(cls, v: str | None) -> str | None:
        if v is not None and v not in ("json_schema", "tool", "text"):
            raise ValueError("mode must be json_schema, tool or text")
        return v

    @field_validator("base_url")
    @classmethod
    def _url(cls, v: str | None) -> str | None:
        if v is not None and not v.startswith(("http://", "https://")):
            raise ValueError("base_url must start with http:// or https://")
        return v

    @field_validator("budgets")
    @classmethod
    def _budgets(cls, v: dict[str, int] | None) -> dict[str, int] | None:
        if v is not None and any(not isinstance(n, int) or n < 16 for n in v.values()):
            raise ValueError("each budget must be a whole number of tokens, at least 16")
        return v

    def chars(self, layout: str = "cache") -> tuple[int, int]:
        """(reasoning, words) character limits for a seat of ``layout``: the ones set,
        else the defaults for the vendors' APIs (``cache``) or a server of one's own
        (``grammar``), where every token is a CPU's work."""
        reasoning, text = DEFAULT_CHARS["grammar" if layout == "grammar" else "cache"]
        if self.text_chars is not None:
            text = self.text_chars or MAX_CHARS  # words are never unbounded (``engine.words``)
        return (reasoning if self.reasoning_chars is None else self.reasoning_chars, text)

    def call_timeout(self, layout: str = "cache") -> float:
        """Seconds for one HTTP call of a seat of ``layout``: the one set, else 60 on the
        vendors' APIs and the decision's time limit on a server of one's own."""
        if self.timeout is not None:
            return self.timeout
        return min(self.decision_timeout, 3600.0) if layout == "grammar" else 60.0

    def budget(self, family: str, *, language: str = "en", players: int = 0, layout: str = "cache") -> int:
        """The completion budget of a question of ``family`` (``choice``, ``words`` or
        ``beliefs``): the one set in ``budgets``, else room for the longest reply the
        character limits allow in ``language`` plus the JSON around it; never above
        ``max_tokens``.

        On the vendors' APIs (``cache``) a Chinese character is about a token and an
        English word about 1.3. On a server of one's own (``grammar``) the schema's
        ``maxLength`` already bounds the reply, so the budget is only the net under the
        longest reply the grammar lets through, and a cut reply is a whole call wasted.
        That net is the worst case, not the usual one: a byte-level tokenizer spends at
        most a token per byte, one per English character and three per Chinese one.
        Counted at the usual rate (half a token an English character) it cut four of
        242 replies in three SmolLM2 games, each one a run of "}}}}" or "2021 } 2021"
        that the grammar allowed and that was then asked again."""
        if self.budgets and family in self.budgets:
            return min(self.budgets[family], self.max_tokens)
        reasoning, text = self.chars(layout)
        if not reasoning or (family == "words" and not text):
            return self.max_tokens  # a part without a limit: no room can be computed
        per_char = (3.0 if language == "zh" else 1.0) if layout == "grammar" else (1.0 if language == "zh" else 0.3)
        chars = reasoning + (text if family == "words" else 0)
        # The object's keys, the claims (three checks, three accusations) and the
        # beliefs' names and numbers; with a grammar, room for the longest names.
        overhead = (128 if layout == "grammar" and family == "words" else 96) + (12 * players if family == "beliefs" else 0)
        return min(self.max_tokens, overhead + int(chars * per_char + 0.5))

    def completion_budget(self, answer: int | None = None) -> int:
        """The completion limit to send: the answer's budget (``answer``, else
        ``max_tokens``) plus the hidden reasoning a reasoning model spends first
        (counted in the same limit)."""
        return (answer or self.max_tokens) + (self.reasoning_tokens() or 0)

    def reasoning_tokens(self) -> int | None:
        if self.reasoning_budget is not None:
            return self.reasoning_budget
        return 4096 if self.reasoning_effort not in (None, "none") else None

    def public(self) -> dict:
        """The options worth recording in a transcript header (only what was set)."""
        return self.model_dump(exclude_unset=True)
