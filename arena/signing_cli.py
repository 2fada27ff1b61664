"""``werewolf keygen`` and the ``--sign-key`` flag shared by play, fork and tournament.

The private key is read from the file the flag names, or else from the environment
variable ``WEREWOLF_SIGNING_KEY`` (the key itself), only when a transcript is about
to be written, and is kept in memory: it is never printed, logged or written.
"""

from __future__ import annotations

import argparse

from arena.command import CliError, Command
from transcripts.signing import ENV_VAR, Signer, SigningKeyError, generate, load_signer


def add_sign_key_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--sign-key",
        metavar="PATH",
        help=f"sign the transcript with this Ed25519 private key (default: the key in ${ENV_VAR}, if set); "
        "werewolf keygen makes one, werewolf verify --key checks it",
    )


def signer_for(path: str | None) -> Signer | None:
    """The signer ``--sign-key PATH`` (or the environment) names; ``CliError`` for a
    key that cannot be used."""
    try:
        return load_signer(path)
    except SigningKeyError as e:
        raise CliError(str(e)) from None


def _configure_keygen(p: argparse.ArgumentParser) -> None:
    p.add_argument("out", metavar="OUT", help="write the private key to OUT (PEM, readable by you only) and the public key to OUT.pub")
    p.epilog = (
        "Sign games with werewolf play --transcript T --sign-key OUT (or tournaments with sign_key: OUT); "
        "publish OUT.pub, so anyone can check them with werewolf verify T --key OUT.pub. Keep OUT secret."
    )


def run_keygen(args: argparse.Namespace) -> int:
    try:
        private, public, fp = generate(args.out)
    except SigningKeyError as e:
        raise CliError(str(e)) from None
    print(f"wrote {private} (private: keep it secret) and {public} (public: publish it); fingerprint {fp}")
    return 0


COMMANDS = [Command("keygen", "make an Ed25519 key pair for signing transcripts", _configure_keygen, run_keygen)]
