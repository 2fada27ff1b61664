"""What a web game leaves on disk besides its transcript, so it outlives the server.

Why a small file beside the transcript (``web-….session.json``): the transcript is the
game (``play --resume`` replays it), but the addresses that open it are the server's
own. The file keeps only what a restarted server needs to recognise them: a digest of
every token, never a token, plus the bots' pace and whether the game was still being
played. A page's token is checked by its digest, so the file alone opens nothing.

Why the spectators' token is also kept sealed with each seat's and the host's token:
their pages link to the spectators' page, and after a restart the server knows that
address only when someone who may have it (a seat, the host) shows their own token,
which is the key that opens the seal. No API key is ever written here; the seats'
agents, options and language are the transcript header's.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT = 1
SUFFIX = ".session.json"


def digest(token: str) -> str:
    """What the server keeps of a token (a token holds 144 random bits: no salt needed)."""
    return hashlib.sha256(b"werewolf-web-token:" + token.encode()).hexdigest()


def _pad(key: str, n: int) -> bytes:
    stream = hashlib.sha256(b"werewolf-web-seal:" + key.encode()).digest()
    if n > len(stream):
        raise ValueError("a sealed token is at most 32 bytes")
    return stream[:n]


def seal(secret: str, key: str) -> str:
    raw = secret.encode()
    return bytes(a ^ b for a, b in zip(raw, _pad(key, len(raw)))).hex()


def unseal(sealed: str, key: str) -> str | None:
    try:
        raw = bytes.fromhex(sealed)
        return bytes(a ^ b for a, b in zip(raw, _pad(key, len(raw)))).decode()
    except (ValueError, UnicodeDecodeError):
        return None


@dataclass
class Keys:
    """A game's tokens: digests always, clear tokens only in memory and only once known
    (created here, or shown by a page since the server started)."""

    seats: dict[str, str]  # digest -> seat name
    watch: str  # digest of the spectators' token
    host: str  # digest of the host's token
    sealed: dict[str, str]  # digest of a seat's or the host's token -> the spectators' token sealed with it
    watch_token: str | None = None
    host_token: str | None = None
    seat_tokens: dict[str, str] = field(default_factory=dict)  # name -> token, for the creator only

    @classmethod
    def new(cls, seat_names: list[str]) -> "Keys":
        watch, host = secrets.token_urlsafe(18), secrets.token_urlsafe(24)
        seat_tokens = {name: secrets.token_urlsafe(18) for name in seat_names}
        keys = [host, *seat_tokens.values()]
        return cls(
            seats={digest(t): name for name, t in seat_tokens.items()},
            watch=digest(watch),
            host=digest(host),
            sealed={digest(k): seal(watch, k) for k in keys},
            watch_token=watch,
            host_token=host,
            seat_tokens=seat_tokens,
        )

    def learn(self, view: str, token: str) -> None:
        """A page showed ``token`` for ``view`` (already checked): remember what it opens."""
        if view == "host":
            self.host_token = token
        elif view in ("watch", "full"):
            self.watch_token = token
        if self.watch_token is None and digest(token) in self.sealed:
            self.watch_token = unseal(self.sealed[digest(token)], token)

    def to_json(self) -> dict[str, Any]:
        return {"seats": self.seats, "watch": self.watch, "host": self.host, "sealed": self.sealed}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Keys":
        return cls(seats=dict(data["seats"]), watch=data["watch"], host=data["host"], sealed=dict(data.get("sealed") or {}))


def meta_path(transcript: Path) -> Path:
    return transcript.with_name(transcript.stem + SUFFIX)


def save(transcript: Path, data: dict[str, Any]) -> None:
    """Write the game's file whole or not at all (a crash mid-write keeps the old one)."""
    path = meta_path(transcript)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps({"format": FORMAT, **data}, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, path)


def load(path: Path) -> tuple[Path, dict[str, Any]] | None:
    """One game file and its transcript's path (beside it, whatever folder it was
    written in); ``None`` when it cannot be read or is not this format."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return None
        Keys.from_json(data["keys"])
        return path.with_name(Path(str(data["transcript"])).name), data
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
