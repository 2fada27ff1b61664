"""Signing a transcript with Ed25519, so its readers can tell who wrote it.

A digest chain can be recomputed by anyone, so on its own it proves only that a file
is consistent with itself. A signature by a key only its holder has proves that the
holder wrote the file as it stands: the ``signature`` record signs the chain's head
(``transcripts.chain.head``: a full SHA-256 chain over every line before it) and the
number of those lines, so an edited, removed, appended or cut line no longer matches.

Keys: the private key comes from a file (``--sign-key PATH``) or the environment
(``WEREWOLF_SIGNING_KEY``, holding the key itself), as PEM (PKCS#8), OpenSSH, or the
base64 of the 32-byte seed. It is read into memory and never written anywhere; only
the public key goes into the transcript's header (``signer``). ``werewolf keygen OUT``
makes a pair: ``OUT`` (PEM, mode 0600) and ``OUT.pub`` (PEM) to publish.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

import transcripts.bounded as bounded
from transcripts.schema import SignerRecord

ENV_VAR = "WEREWOLF_SIGNING_KEY"
ALGORITHM = "ed25519"
CONTEXT = b"werewolf-transcript-signature/1\n"  # so a transcript signature can never pass for another message


class SigningKeyError(ValueError):
    """A key that cannot be read or used; the message says which and why (never the key)."""


# ---------------------------------------------------------------------- encoding
def raw_public(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def encode_public(key: Ed25519PublicKey) -> str:
    """The public key as the header holds it: base64 of its 32 raw bytes."""
    return base64.b64encode(raw_public(key)).decode("ascii")


def fingerprint(key: Ed25519PublicKey) -> str:
    """A short name for a public key: ``ed25519:`` and 32 hex digits of its SHA-256."""
    return f"{ALGORITHM}:{hashlib.sha256(raw_public(key)).hexdigest()[:32]}"


def decode_public(text: str) -> Ed25519PublicKey:
    try:
        raw = base64.b64decode(text.strip(), validate=True)
    except (binascii.Error, ValueError):
        raise SigningKeyError("the public key is not base64") from None
    if len(raw) != 32:
        raise SigningKeyError(f"an Ed25519 public key has 32 bytes, this one {len(raw)}")
    return Ed25519PublicKey.from_public_bytes(raw)


def signed_message(head: str, lines: int) -> bytes:
    """What a ``signature`` record signs: the chain's head over its first ``lines`` lines."""
    return CONTEXT + f"{head}\n{lines}".encode("ascii")


# ---------------------------------------------------------------------- private keys
def _private_from_bytes(data: bytes, where: str) -> Ed25519PrivateKey:
    text = data.strip()
    key: Any = None
    try:
        if text.startswith(b"-----BEGIN OPENSSH PRIVATE KEY"):
            key = serialization.load_ssh_private_key(text, password=None)
        elif text.startswith(b"-----BEGIN"):
            key = serialization.load_pem_private_key(text, password=None)
        else:
            seed = base64.b64decode(text, validate=True)
            if len(seed) != 32:
                raise SigningKeyError(f"{where}: an Ed25519 private key seed has 32 bytes, this one {len(seed)}")
            key = Ed25519PrivateKey.from_private_bytes(seed)
    except SigningKeyError:
        raise
    except TypeError:
        raise SigningKeyError(f"{where}: the key is protected by a password; give an unencrypted key") from None
    except Exception:  # whatever the parser says, the message must not echo the key
        raise SigningKeyError(f"{where}: not an Ed25519 private key (PEM, OpenSSH or base64 of the 32-byte seed)") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningKeyError(f"{where}: the key is not an Ed25519 key ({type(key).__name__.removeprefix('_')})")
    return key


@dataclass(frozen=True)
class Signer:
    """A private key held in memory, and the public facts about it."""

    _key: Ed25519PrivateKey

    @property
    def public(self) -> Ed25519PublicKey:
        return self._key.public_key()

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public)

    def header_record(self) -> Any:
        return SignerRecord(public_key=encode_public(self.public), fingerprint=self.fingerprint)

    def sign(self, head: str, lines: int) -> str:
        return base64.b64encode(self._key.sign(signed_message(head, lines))).decode("ascii")

    def __repr__(self) -> str:  # never the key
        return f"Signer({self.fingerprint})"


def load_signer(path: str | None = None, *, environ: dict[str, str] | None = None) -> Signer | None:
    """The signing key from ``path``, else from ``WEREWOLF_SIGNING_KEY``; ``None`` when
    neither is given. Raises ``SigningKeyError`` for a key that cannot be used."""
    env = os.environ if environ is None else environ
    if path:
        try:
            data = bounded.read_bytes(path, bounded.KEY_FILE)
        except OSError as e:
            raise SigningKeyError(f"cannot read the signing key {path}: {e.strerror or e}") from None
        return Signer(_private_from_bytes(data, path))
    value = env.get(ENV_VAR)
    if value:
        if "\n" not in value.strip() and Path(value.strip()).is_file():
            raise SigningKeyError(f"{ENV_VAR} names a file; it must hold the key itself (or give the file with --sign-key PATH)")
        return Signer(_private_from_bytes(value.encode("utf-8", "replace"), ENV_VAR))
    return None


def require_same_signer(path: str, declared: Any, signer: Signer | None) -> None:
    """Going on writing ``path`` (resume) keeps its signing as it began: the header's
    key for a signed file, none for an unsigned one (a signature cannot cover lines
    its key never saw). Raises ``SigningKeyError`` saying what to do instead."""
    if declared is not None and (signer is None or signer.fingerprint != declared.fingerprint):
        given = "no signing key was given" if signer is None else f"the key given is {signer.fingerprint}"
        raise SigningKeyError(
            f"{path} is signed by {declared.fingerprint} and {given}: go on with that key (--sign-key), "
            "or write the game to a new file (--transcript OUT)"
        )
    if declared is None and signer is not None:
        raise SigningKeyError(f"{path} was not signed from its start; to sign the game, write it to a new file (--transcript OUT)")


# ---------------------------------------------------------------------- public keys
def load_public_key(path: str) -> Ed25519PublicKey:
    """A trusted public key from a file: PEM (``OUT.pub`` of keygen), OpenSSH
    (``ssh-ed25519 AAAA...``), or the base64 of its 32 bytes (the header's form)."""
    try:
        data = bounded.read_bytes(path, bounded.KEY_FILE).strip()
    except OSError as e:
        raise SigningKeyError(f"cannot read the public key {path}: {e.strerror or e}") from None
    try:
        if data.startswith(b"-----BEGIN"):
            key: Any = serialization.load_pem_public_key(data)
        elif data.startswith(b"ssh-"):
            key = serialization.load_ssh_public_key(data)
        else:
            key = decode_public(data.decode("ascii"))
    except SigningKeyError as e:
        raise SigningKeyError(f"{path}: not an Ed25519 public key (PEM, OpenSSH or base64): {e}") from None
    except Exception:
        raise SigningKeyError(f"{path}: not an Ed25519 public key (PEM, OpenSSH or base64)") from None
    if not isinstance(key, Ed25519PublicKey):
        raise SigningKeyError(f"{path}: not an Ed25519 public key ({type(key).__name__.removeprefix('_')})")
    return key


def check_signature(public_key: str, signature: str, head: str, lines: int) -> bool:
    """Whether ``signature`` is ``public_key``'s over the chain head ``head`` of ``lines`` lines."""
    try:
        key = decode_public(public_key)
        sig = base64.b64decode(signature, validate=True)
        key.verify(sig, signed_message(head, lines))
    except (SigningKeyError, InvalidSignature, binascii.Error, ValueError):
        return False
    return True


# ---------------------------------------------------------------------- keygen
def generate(out: str | Path, *, overwrite: bool = False) -> tuple[Path, Path, str]:
    """A new key pair: ``out`` (private, PEM, readable by its owner only) and
    ``out.pub`` (public, PEM); returns both paths and the fingerprint."""
    private_path = Path(out)
    public_path = private_path.with_name(private_path.name + ".pub")
    for p in (private_path, public_path):
        if p.exists() and not overwrite:
            raise SigningKeyError(f"{p} exists; choose another name (a key is never overwritten)")
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    pub = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    flags = os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if overwrite else os.O_EXCL)
    try:
        fd = os.open(private_path, flags, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(pem)
        public_path.write_bytes(pub)
    except OSError as e:
        raise SigningKeyError(f"cannot write the key pair {private_path}: {e.strerror or e}") from None
    return private_path, public_path, fingerprint(key.public_key())
