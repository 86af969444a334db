"""Signing keys, handshake secrets and the joint seed (R40, R41).

Cryptography comes from PyNaCl (libsodium): Ed25519 signatures (``nacl.signing``).  SHA-256 (hashlib)
makes the commitment and the seed.  Nothing here is home-made cryptography.

**Where keys live.**  Each player has one Ed25519 key per game, kept outside the game file in the
user's data directory (``platformdirs.user_data_dir("agility")``; the environment variable
``AGILITY_HOME`` overrides it, for tests and for two identities on one machine).  The keys of one game
are one file, ``games/<game id>.json``, the game id being the SHA-256 (hex) of the game file's header
line.  The creator's handshake secret is kept there too until it is revealed.  Files are written
with mode 0600 in directories of mode 0700, and replaced atomically.

**The seed** (R40) of a game started by handshake::

    seed = int.from_bytes(SHA-256(b"agility seed v1\\n" || game_id || creator_secret || joiner_secret)[:8], "big")

``game_id`` being the 32 bytes of the header line's SHA-256, each secret its 32 bytes (written in the
file as 64 lowercase hex digits).  The commitment in the header is ``SHA-256(creator_secret)`` (hex).

**Signatures** (R41): a line's ``"sig"`` is its last member, written ``,"sig":"<128 hex digits>"``
just before the closing brace; the signed message is the line's bytes with that member removed,
``raw[:pos] + b"}"`` where ``pos`` is where ``,"sig":`` starts.  Keys and signatures are lowercase hex.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import secrets as _secrets
from pathlib import Path
from typing import Any, Protocol

SEED_DOMAIN = b"agility seed v1\n"
SIG_MARK = b',"sig":"'
_HEX64 = re.compile(r"[0-9a-f]{64}")
_HEX128 = re.compile(r"[0-9a-f]{128}")
KEYFILE_FORMAT = "agility-key/1"


class KeyStoreError(Exception):
    """A key store or key file problem (unreadable, malformed, not this game's): a usage error."""


# ----------------------------------------------------------------------------------------------
# hashes, secrets and the seed


def game_id(header_raw: bytes) -> str:
    """The game id: SHA-256 (hex) of the header line's bytes (without its newline)."""
    end = header_raw.find(b"\n")
    return hashlib.sha256(header_raw if end == -1 else header_raw[:end]).hexdigest()


def new_secret() -> str:
    """A fresh 32-byte handshake secret, as 64 hex digits."""
    return _secrets.token_bytes(32).hex()


def commitment(secret_hex: str) -> str:
    """R40: the commitment to a secret, SHA-256 (hex) of its 32 bytes."""
    return hashlib.sha256(bytes.fromhex(secret_hex)).hexdigest()


def derive_seed(game: str, creator_secret: str, joiner_secret: str) -> int:
    """R40: the joint seed from the game id and both secrets (all hex); a 64-bit integer."""
    h = hashlib.sha256(SEED_DOMAIN + bytes.fromhex(game) + bytes.fromhex(creator_secret) + bytes.fromhex(joiner_secret))
    return int.from_bytes(h.digest()[:8], "big")


def is_hex64(text: str) -> bool:
    return bool(_HEX64.fullmatch(text))


# ----------------------------------------------------------------------------------------------
# signing and verifying (Ed25519 via PyNaCl)


def new_signing_key() -> str:
    """A fresh Ed25519 signing key (its 32-byte seed, hex)."""
    from nacl.signing import SigningKey

    return bytes(SigningKey.generate()).hex()


def public_key(signing_key_hex: str) -> str:
    """The Ed25519 public key (hex) of a signing key."""
    from nacl.signing import SigningKey

    return bytes(SigningKey(bytes.fromhex(signing_key_hex)).verify_key).hex()


def sign(signing_key_hex: str, message: bytes) -> str:
    """The Ed25519 signature (128 hex digits) of ``message``."""
    from nacl.signing import SigningKey

    return bytes(SigningKey(bytes.fromhex(signing_key_hex)).sign(message).signature).hex()


def verify(public_key_hex: str, message: bytes, signature_hex: str) -> bool:
    """Whether ``signature_hex`` is ``public_key_hex``'s Ed25519 signature of ``message``."""
    from nacl.exceptions import BadSignatureError
    from nacl.signing import VerifyKey

    if not _HEX64.fullmatch(public_key_hex) or not _HEX128.fullmatch(signature_hex):
        return False
    try:
        VerifyKey(bytes.fromhex(public_key_hex)).verify(message, bytes.fromhex(signature_hex))
    except (BadSignatureError, ValueError):
        return False
    return True


def signed_message(raw: bytes) -> bytes | None:
    """The bytes a line's signature covers: the line without its final ``,"sig":"…"`` member.

    ``None`` when the line does not end with that member exactly (``,"sig":"<hex>"}``).
    """
    pos = raw.rfind(SIG_MARK)
    if pos == -1 or not raw.endswith(b'"}') or b'"' in raw[pos + len(SIG_MARK) : -2]:
        return None
    return raw[:pos] + b"}"


def with_signature(unsigned: bytes, signing_key_hex: str) -> bytes:
    """Append the ``"sig"`` member to an encoded line (an object ending in ``}``)."""
    assert unsigned.endswith(b"}")
    sig = sign(signing_key_hex, unsigned)
    return unsigned[:-1] + SIG_MARK + sig.encode() + b'"}'


# ----------------------------------------------------------------------------------------------
# the key store


def home() -> Path:
    """The data directory: ``AGILITY_HOME`` or the platform's user data directory for agility."""
    env = os.environ.get("AGILITY_HOME")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("agility", appauthor=False))


def _store_path(game: str) -> Path:
    return home() / "games" / f"{game}.json"


def _read_store(game: str) -> dict[str, dict[str, str]]:
    path = _store_path(game)
    try:
        data = json.loads(path.read_bytes())
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise KeyStoreError(f"cannot read the key store {path}: {exc}") from None
    players = data.get("players") if isinstance(data, dict) else None
    if not isinstance(players, dict):
        raise KeyStoreError(f"the key store {path} is damaged (no \"players\")")
    return {str(k): dict(v) for k, v in players.items() if isinstance(v, dict)}


def _write_private(path: Path, payload: bytes) -> None:
    """Write ``payload`` to ``path`` atomically, mode 0600, its directory 0700."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(OSError):
        os.chmod(path.parent, 0o700)
    import tempfile  # only when a key is written: keeps every command's start-up light

    fd, tmp = tempfile.mkstemp(  # mode 0600
        dir=path.parent, prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def store(game: str, player: str, *, signing_key: str | None = None, secret: str | None = None) -> None:
    """Record ``player``'s signing key and/or handshake secret for ``game`` (merged into the store)."""
    players = _read_store(game)
    entry = players.setdefault(player, {})
    if signing_key is not None:
        entry["signing_key"] = signing_key
        entry["public_key"] = public_key(signing_key)
    if secret is not None:
        entry["secret"] = secret
    doc = {"game": game, "players": players}
    _write_private(_store_path(game), (json.dumps(doc, indent=1, sort_keys=True) + "\n").encode())


def signing_key(game: str, player: str) -> str | None:
    """The signing key this machine holds for ``player`` in ``game``, if any."""
    key = _read_store(game).get(player, {}).get("signing_key")
    return key if isinstance(key, str) and _HEX64.fullmatch(key) else None


def secret(game: str, player: str) -> str | None:
    """The handshake secret this machine keeps for ``player`` in ``game`` (the creator's), if any."""
    value = _read_store(game).get(player, {}).get("secret")
    return value if isinstance(value, str) and _HEX64.fullmatch(value) else None


class _HasGameId(Protocol):
    @property
    def game_id(self) -> str: ...


def held_seats(header_raw_or_game: bytes | _HasGameId) -> list[str]:
    """Names of the players whose signing key this machine holds for the game (R39 "who is viewing").

    Takes the header line (or the whole file's bytes) or a loaded game (``gamefile.Game``).
    """
    if isinstance(header_raw_or_game, bytes):
        gid = game_id(header_raw_or_game)
    else:
        gid = header_raw_or_game.game_id
    return sorted(name for name, entry in _read_store(gid).items() if "signing_key" in entry)


# ----------------------------------------------------------------------------------------------
# key files (export / import)


def export_key(game: str, player: str) -> bytes:
    """A key file for ``player`` in ``game``: their signing key (and secret, if still held), JSON."""
    entry = _read_store(game).get(player)
    if not entry or "signing_key" not in entry:
        raise KeyStoreError(f"this machine holds no key for {player} in this game")
    doc: dict[str, Any] = {
        "format": KEYFILE_FORMAT,
        "game": game,
        "player": player,
        "public_key": public_key(entry["signing_key"]),
        "signing_key": entry["signing_key"],
    }
    if "secret" in entry:
        doc["secret"] = entry["secret"]
    return (json.dumps(doc, indent=1) + "\n").encode()


def read_key_file(data: bytes) -> dict[str, str]:
    """Parse and check a key file written by :func:`export_key`."""
    try:
        doc = json.loads(data)
    except ValueError:
        raise KeyStoreError("the key file is not JSON (export one with `agility key export`)") from None
    if not isinstance(doc, dict) or doc.get("format") != KEYFILE_FORMAT:
        raise KeyStoreError(f"not an agility key file (expected \"format\": \"{KEYFILE_FORMAT}\")")
    out: dict[str, str] = {}
    for name in ("game", "player", "signing_key", "public_key"):
        value = doc.get(name)
        if not isinstance(value, str) or not value:
            raise KeyStoreError(f"the key file has no {name!r}")
        out[name] = value
    if not _HEX64.fullmatch(out["signing_key"]) or public_key(out["signing_key"]) != out["public_key"]:
        raise KeyStoreError("the key file is damaged: its signing key does not match its public key")
    if "secret" in doc:
        if not isinstance(doc["secret"], str) or not _HEX64.fullmatch(doc["secret"]):
            raise KeyStoreError("the key file is damaged: its secret is not 64 hex digits")
        out["secret"] = doc["secret"]
    return out
