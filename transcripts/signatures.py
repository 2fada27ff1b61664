"""Checking a transcript's signatures: who signed it, and whether it is whole.

Every ``signature`` record must be the header's signer's, over the full-strength chain
head of exactly the lines before it (``transcripts.chain.head``). The file is *signed*
when its last line is such a record: then nothing was added, removed or edited since
the key's holder wrote it. A header that names a signer promises a signature, so a
finished game whose signature is missing, or followed by more lines, fails (it was
cut or extended after signing); a game stopped before its end (killed) is merely not
signed yet. With a trusted key (``verify --key PUB``) the signer must be that key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from transcripts.chain import HEAD_START, forms, head_link
from transcripts.schema import SignatureRecord, Transcript
from transcripts.signing import SigningKeyError, check_signature, decode_public, encode_public, fingerprint


@dataclass
class SignatureCheck:
    signed: bool = False  # the last line is a valid signature covering everything before it
    signer: str | None = None  # the fingerprint of the key that signed (computed from the key, not taken from the file)
    trusted: bool | None = None  # None: no trusted key given
    detail: str = ""
    line: int | None = None  # the first line at fault
    message: str = ""


def check_signatures(t: Transcript, trusted: Any = None, canon: list[str] | None = None) -> SignatureCheck:
    """``trusted``: an ``Ed25519PublicKey`` the signer must be, or ``None``; ``canon``:
    the lines' canonical forms (``transcripts.chain.forms``), when already computed."""
    out = SignatureCheck()
    declared = t.header.signer
    sigs = [(i, r) for i, r in enumerate(t.records) if isinstance(r, SignatureRecord)]
    want = fingerprint(trusted) if trusted is not None else None

    def fail(line: int, message: str) -> SignatureCheck:
        out.line, out.message, out.signed = line, message, False
        if out.trusted is None and want is not None:
            out.trusted = False
        return out

    if declared is None:
        if sigs:
            return fail(sigs[0][0] + 2, "a signature record, but the header names no signer")
        out.detail = "not signed"
        if want is not None:
            return fail(1, f"the transcript is not signed, and --key asks for a signature by {want}")
        return out
    try:
        key = decode_public(declared.public_key)
    except SigningKeyError as e:
        return fail(1, f"the header's signer key cannot be read: {e}")
    out.signer = fingerprint(key)
    if declared.fingerprint != out.signer:
        return fail(1, f"the header's signer fingerprint {declared.fingerprint} is not that of its key ({out.signer})")
    if want is not None:
        out.trusted = encode_public(key) == encode_public(trusted)
        if not out.trusted:
            return fail(1, f"signed by {out.signer}, not by the trusted key {want}")
    canon = canon if canon is not None else forms(t.header, t.records)
    h = head_link(HEAD_START, t.header, canon[0])
    for i, r in enumerate(t.records):
        line = i + 2
        if isinstance(r, SignatureRecord):
            if r.lines != line - 1 or r.head != h:
                return fail(line, "the signature does not cover the lines before it: a line was edited, added or removed before it")
            if r.fingerprint != out.signer or not check_signature(declared.public_key, r.signature, r.head, r.lines):
                return fail(line, f"the signature is not a valid signature by {out.signer}")
        h = head_link(h, r, canon[line - 1])
    last = len(t.records) + 1
    if sigs and sigs[-1][0] + 2 == last and not t.truncated:
        out.signed = True
        out.detail = f"signed by {out.signer}: every line, up to line {last}"
        return out
    if sigs and sigs[-1][0] + 2 == last:  # t.truncated: something was added after it
        at, why = last + 1, f"a partial line follows the signature on line {last}"
    elif sigs:
        at = sigs[-1][0] + 3
        span = f"line {at} comes" if at == last else f"lines {at} to {last} come"
        why = f"{span} after the last signature (line {at - 1}): added after signing"
    else:
        at, why = last, f"the file ends at line {last} without a signature (cut off after signing, or never signed)"
    out.detail = f"the header names signer {out.signer}, but {why}"
    if t.complete or want is not None:
        # A finished game is signed when its writer closes: no signature at its end
        # means lines were added, or the signature cut off, after signing.
        return fail(at, out.detail)
    return out
