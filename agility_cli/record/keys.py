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

import hashlib
import os
import re
from pathlib import Path
from typing import Any, Protocol

from ..i18n import N_, _name
from ..said import Said, os_words, said, said_in
from ..text import quoted
from . import datadir, storage
from .datadir import home as home  # the data directory (this user's alone: datadir)
from .lines import GameFileError, sealed_header
from ..engine.moves import LINE_DECODER, Header
import msgspec

SEED_DOMAIN = b"agility seed v1\n"
SIG_MARK = b',"sig":"'
_HEX64 = re.compile(r"[0-9a-f]{64}")
_HEX128 = re.compile(r"[0-9a-f]{128}")
KEYFILE_FORMAT = "agility-key/1"


class KeyStoreError(Exception):
    """A key store or key file problem (unreadable, malformed, not this game's): a usage error."""


class DamagedKeyStore(KeyStoreError):
    """This machine's own key store is wrong for the game: unreadable, malformed, or holding a key
    that does not match the game file (a signing key whose public key is not the one the file names,
    a seal secret that does not make its player's passes).  Exit 3, naming the file; the entry is
    never used, and nobody else is blamed for it."""


class DamagedRecord(DamagedKeyStore):
    """Another of this machine's own records in the data directory (a history record, a checkpoint)
    is no file agility wrote (a FIFO, a device, a link): exit 3, naming the file, as a damaged key
    store is."""


def damaged_record(what: str, exc: datadir.RecordError, fix: str) -> DamagedRecord:
    """The refusal of this machine's ``what`` (``datadir.read_record``'s ``exc``), with the way out."""
    return DamagedRecord(f"this machine's {what} {exc.path} {exc.why}: nothing was read from it; {fix}")


def damaged_message(path: Path, why: str, player: str | None = None) -> str:
    again = (said(N_("import {player}'s key again with `agility key import` (an entry proven wrong is "
                     "replaced)"), player=player)
             if player else said(N_("import this game's key again with `agility key import`")))
    return said_in(_name("verb", "the key store {path} is damaged ({why}); it is not used: move it away, or {again} "
                   "from a key file written by `agility key export`"), path=str(path), why=why, again=again)


def store_path(game: str) -> Path:
    """The key store file of ``game`` (for messages)."""
    return _store_path(game)


# ----------------------------------------------------------------------------------------------
# hashes, secrets and the seed


def game_id(header_raw: bytes) -> str:
    """The game id: SHA-256 (hex) of the header line's bytes (without its newline).

    R42: a sealed game's (format 3) is the hash of its header without its first shuffle passes
    and signature, re-encoded (the nonce in it names the game): the card points hash the id, and
    those passes are made from the card points.
    """
    end = header_raw.find(b"\n")
    line = header_raw if end == -1 else header_raw[:end]
    if sealed_header(line):
        try:
            header = LINE_DECODER.decode(line)
        except msgspec.DecodeError:
            header = None
        if isinstance(header, Header) and header.sealed is not msgspec.UNSET:
            return sealed_game_id(header)
    return hashlib.sha256(line).hexdigest()


def sealed_game_id(header: Header) -> str:
    """R42: the id of a format-3 game from its header (section 4 of docs/sealed-deck.md)."""
    assert header.sealed is not msgspec.UNSET
    bare = msgspec.structs.replace(header, sealed=msgspec.structs.replace(header.sealed, shuffle={}), sig=msgspec.UNSET)
    return hashlib.sha256(msgspec.json.encode(bare)).hexdigest()


def new_secret() -> str:
    """A fresh 32-byte handshake secret, as 64 hex digits."""
    import secrets  # here, not at start-up: it imports random and base64 (a few milliseconds)

    return secrets.token_bytes(32).hex()


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


#: The largest key store file or key file read (one is well under 1 KiB); anything larger, or not a
#: regular file (a FIFO, ``/dev/zero``), is refused before it is read.
MAX_KEY_FILE_BYTES = 64 << 10
#: The fields of a player's entry in the key store, each 64 hex digits.
_ENTRY_FIELDS = ("signing_key", "public_key", "secret", "seal")


def _store_dir() -> Path:
    return home() / "games"


def _store_path(game: str) -> Path:
    return _store_dir() / f"{game}.json"


def _check_home() -> None:
    """A clear refusal when the data directory is there but is not a directory (``AGILITY_HOME``
    naming a file): every path of the key store would fail with a puzzling "Not a directory"."""
    for directory in (home(), _store_dir()):
        if os.path.lexists(directory) and not directory.is_dir():
            raise KeyStoreError(said_in(_name(
                "verb", "the key store's directory {directory} is not a directory; set AGILITY_HOME to a "
                "directory (or move that file away)"), directory=str(directory)))


def read_key_bytes(path: str | Path, what: str) -> bytes:
    """The bytes of a key file or key store file: a regular file of at most
    :data:`MAX_KEY_FILE_BYTES`, read as game files are (``storage.read_bytes``), else
    :class:`KeyStoreError`."""
    try:
        return storage.read_bytes(path, what=what, limit=MAX_KEY_FILE_BYTES)
    except GameFileError as exc:  # the message without the path: the caller names the file
        raise KeyStoreError(exc.message + (f"; {exc.hint}" if exc.hint else "")) from None


def _parse_json(data: bytes) -> Any:
    """JSON from a file someone else may have written: ``ValueError`` for anything that is not
    (bad bytes, bad syntax, a number too long for ``int``, nesting too deep to parse)."""
    try:
        return msgspec.json.decode(data)
    except RecursionError:
        raise ValueError("it is nested too deeply") from None


def _read_store(game: str) -> dict[str, dict[str, str]]:
    """The players' entries of ``game``'s key store file (none if it does not exist); a file
    that is not what :func:`store` writes raises :class:`KeyStoreError` saying so."""
    _check_home()
    path = _store_path(game)
    datadir.folder("games", create=False)  # the data directory's, this user's alone (or exit 2)
    try:
        data = datadir.read_record(path, MAX_KEY_FILE_BYTES, secret=True)
    except datadir.RecordError as exc:  # no key store (a FIFO, a device, too large): exit 3
        raise DamagedKeyStore(said_in(_name("verb", "cannot read the key store {path}: it {why}; move it away, and import "
                                      "this game's key again with `agility key import`"),
                                   path=str(path), why=exc.why)) from None
    except OSError as exc:  # the system refused (permissions): exit 2, as other OS errors
        raise KeyStoreError(said(N_("cannot read the key store {path}: cannot open the file ({error})"),
                                 path=str(path), error=os_words(exc))) from None
    if data is None:
        return {}
    def damaged(why: str) -> Said:
        return said_in(_name("verb", "the key store {path} is damaged ({why}); move it away and import this game's key "
                       "again with `agility key import` (from a key file written by `agility key export`)"),
                    path=str(path), why=why)

    try:
        doc = _parse_json(data)
    except ValueError as exc:
        raise DamagedKeyStore(damaged(said(N_("not JSON: {error}"), error=str(exc)))) from None
    players = doc.get("players") if isinstance(doc, dict) else None
    if not isinstance(players, dict):
        raise DamagedKeyStore(damaged(said_in(_name("verb", 'no "players"'))))
    if doc.get("game", game) != game:
        raise DamagedKeyStore(damaged(said(N_("it holds the keys of another game"))))
    out: dict[str, dict[str, str]] = {}
    for name, entry in players.items():
        if not isinstance(entry, dict):
            raise DamagedKeyStore(damaged(said(N_("the entry of {name} is not an object"), name=quoted(str(name)))))
        for field in _ENTRY_FIELDS:
            if field in entry and not (isinstance(entry[field], str) and _HEX64.fullmatch(entry[field])):
                raise DamagedKeyStore(damaged(said(N_("the {field} of {name} is not 64 hex digits"),
                                                   field=field, name=quoted(str(name)))))
        out[name] = {k: v for k, v in entry.items() if k in _ENTRY_FIELDS}
    return out


def _write_private(path: Path, payload: bytes) -> None:
    """Write ``payload`` to ``path`` whole or not at all (``storage.write_new``: a temporary file,
    fsynced, then renamed), mode 0600, in directories of mode 0700 (the data directory and its
    ``games`` folder, created so)."""
    _check_home()
    try:
        datadir.folder(path.parent.name, create=True)  # 0700, this user's alone (datadir)
    except OSError as exc:
        raise KeyStoreError(said(N_("cannot create the key store's directory {directory}: {error}"),
                                 directory=str(path.parent), error=os_words(exc))) from None
    storage.write_new(path, payload, what="the key store", replace=True, mode=0o600,
                       after="the key store is as it was, and nothing else was written")


class KeyHeld(KeyStoreError):
    """This machine holds a key for the player in that game already: keys are never replaced."""


def store(game: str, player: str, *, signing_key: str | None = None, secret: str | None = None,
          seal: str | None = None, replace_wrong: bool = False) -> None:
    """Record ``player``'s signing key and/or handshake secret for ``game`` (merged into the store).

    A key (or a secret) already held for ``player`` in ``game`` is never replaced: a different one
    raises :class:`KeyHeld` and nothing is written (the one held may be the only copy; signed lines
    and the seed's commitment depend on it, R40, R41).  The same one again changes nothing.  With
    ``replace_wrong`` (``key import`` has proven the entry held does not match the game, and the new
    one does), the player's entry is replaced whole.
    """
    players = _read_store(game)
    entry = {} if replace_wrong else dict(players.get(player, {}))
    held = entry.get("signing_key")
    if signing_key is not None and held is not None and held != signing_key:
        raise KeyHeld(
            f"this machine already holds a key for {player} in this game (the game is already set up here), "
            "and a key is never replaced: go on with the game file that key belongs to, or start over with a "
            "new game file (`agility new`)"
        )
    if secret is not None and entry.get("secret") not in (None, secret):
        raise KeyHeld(
            f"this machine already holds a different handshake secret for {player} in this game, and it is never "
            "replaced: start over with a new game file (`agility new`)"
        )
    if seal is not None and entry.get("seal") not in (None, seal):
        raise KeyHeld(
            f"this machine already holds a different seal secret for {player} in this game (R42), and it is never "
            "replaced: start over with a new game file (`agility new`)"
        )
    if seal is not None:
        entry["seal"] = seal
    if signing_key is not None:
        entry["signing_key"] = signing_key
        entry["public_key"] = public_key(signing_key)
    if secret is not None:
        entry["secret"] = secret
    if entry == players.get(player):
        return  # nothing new: the same key (and secret) again
    players[player] = entry
    doc = {"game": game, "players": players}
    import json  # the key store is written as people read it (reading it takes msgspec's decoder)

    _write_private(_store_path(game), (json.dumps(doc, indent=1, sort_keys=True) + "\n").encode())


def entry(game: str, player: str) -> dict[str, str]:
    """What the key store holds for ``player`` in ``game`` (empty when nothing), as stored."""
    return dict(_read_store(game).get(player, {}))


def signing_key(game: str, player: str) -> str | None:
    """The signing key this machine holds for ``player`` in ``game``, if any."""
    key = _read_store(game).get(player, {}).get("signing_key")
    return key if isinstance(key, str) and _HEX64.fullmatch(key) else None


def seal_secret(game: str, player: str) -> bytes | None:
    """The seal secret this machine keeps for ``player`` in a sealed game (R42), if any."""
    value = _read_store(game).get(player, {}).get("seal")
    return bytes.fromhex(value) if isinstance(value, str) and _HEX64.fullmatch(value) else None


def seal_secrets(game: str, players: Any) -> dict[str, bytes]:
    """The seal secrets this machine keeps for the game's players (R42)."""
    out = {}
    for name in players:
        found = seal_secret(game, name)
        if found is not None:
            out[name] = found
    return out


def secret(game: str, player: str) -> str | None:
    """The handshake secret this machine keeps for ``player`` in ``game`` (the creator's), if any."""
    value = _read_store(game).get(player, {}).get("secret")
    return value if isinstance(value, str) and _HEX64.fullmatch(value) else None


def stored_games() -> list[str]:
    """The ids of the games whose key store file is here (``agility games``)."""
    folder = datadir.folder("games", create=False)
    try:
        names = [p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json")]
    except OSError:
        return []
    return sorted(n for n in names if _HEX64.fullmatch(n))


class _HasGameId(Protocol):
    @property
    def game_id(self) -> str: ...


def held_seats(header_raw_or_game: bytes | _HasGameId) -> list[str]:
    """Names of the players whose signing key this machine holds for the game (R39 "who is viewing").

    Takes the header line (or the whole file's bytes) or a loaded game (``gamefile.Game``).
    """
    if isinstance(header_raw_or_game, bytes):
        gid = game_id(header_raw_or_game)
        public = file_keys(header_raw_or_game)
    else:
        gid = header_raw_or_game.game_id
        trust = getattr(header_raw_or_game, "trust", None)
        public = dict(trust.keys) if trust is not None else {}
    entries = _read_store(gid)
    check_entries(gid, entries, public)
    return sorted(name for name, entry in entries.items() if "signing_key" in entry)


def check_entries(gid: str, entries: dict[str, dict[str, str]], public: dict[str, str]) -> None:
    """R39/R41: every signing key the key store holds for a player the game file names a public key
    for must be that key's; else :class:`DamagedKeyStore` (the entry is never used: a made-up key
    for the other seat would show its hand, a wrong one for one's own would sign lines nobody can
    verify)."""
    for name, entry in entries.items():
        key = entry.get("signing_key")
        if key is not None and name in public and public_key(key) != public[name]:
            raise DamagedKeyStore(damaged_message(
                _store_path(gid), said(N_("its signing key for {name} is not the one the game file names"),
                                      name=quoted(name)), name))


def file_keys(data: bytes) -> dict[str, str]:
    """The public keys a game file names (R41): the header's, and the ``join`` line's if it is
    there; empty for an unsigned game or bytes that are no game file (the verifier says why)."""
    from ..engine.moves import JoinLine

    out: dict[str, str] = {}
    for raw in data.split(b"\n", 2)[:2]:
        try:
            record = LINE_DECODER.decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
            break
        if isinstance(record, Header) and record.keys is not msgspec.UNSET:
            out.update(record.keys)
        elif isinstance(record, JoinLine):
            out[record.player] = record.key
    return out


# ----------------------------------------------------------------------------------------------
# key files (export / import)


def export_key(game: str, player: str) -> bytes:
    """A key file for ``player`` in ``game``: their signing key (and secret, if still held), JSON."""
    entry = _read_store(game).get(player)
    if not entry or "signing_key" not in entry:
        raise KeyStoreError(said(N_("this machine holds no key for {name} in this game"), name=player))
    doc: dict[str, Any] = {
        "format": KEYFILE_FORMAT,
        "game": game,
        "player": player,
        "public_key": public_key(entry["signing_key"]),
        "signing_key": entry["signing_key"],
    }
    if "secret" in entry:
        doc["secret"] = entry["secret"]
    if "seal" in entry:
        doc["seal"] = entry["seal"]  # R42: without it the sealed deck's cards cannot be read
    import json

    return (json.dumps(doc, indent=1) + "\n").encode()


def read_key_file(data: bytes) -> dict[str, str]:
    """Parse and check a key file written by :func:`export_key`."""
    try:
        doc = _parse_json(data)
    except ValueError:
        raise KeyStoreError(said(N_("the key file is not JSON (export one with `agility key export`)"))) from None
    if not isinstance(doc, dict) or doc.get("format") != KEYFILE_FORMAT:
        raise KeyStoreError(said(N_("not an agility key file (expected \"format\": \"{format}\")"), format=KEYFILE_FORMAT))
    out: dict[str, str] = {}
    for name in ("game", "player", "signing_key", "public_key"):
        value = doc.get(name)
        if not isinstance(value, str) or not value:
            raise KeyStoreError(said(N_("the key file has no {name}"), name=repr(name)))
        out[name] = value
    if not _HEX64.fullmatch(out["signing_key"]) or public_key(out["signing_key"]) != out["public_key"]:
        raise KeyStoreError(said(N_("the key file is damaged: its signing key does not match its public key")))
    if "secret" in doc:
        if not isinstance(doc["secret"], str) or not _HEX64.fullmatch(doc["secret"]):
            raise KeyStoreError(said(N_("the key file is damaged: its secret is not 64 hex digits")))
        out["secret"] = doc["secret"]
    if "seal" in doc:
        if not isinstance(doc["seal"], str) or not _HEX64.fullmatch(doc["seal"]):
            raise KeyStoreError(said(N_("the key file is damaged: its seal secret is not 64 hex digits")))
        out["seal"] = doc["seal"]
    return out


def check_key_file(doc: dict[str, str], *, game: str, keys: dict[str, str], commit: str | None) -> None:
    """Whether a key file read by :func:`read_key_file` belongs to this game, before anything is
    written: its game id, its public key the one the game file names for its player (R41), and a
    handshake secret the one the header commits to (R40).  Else :class:`KeyStoreError`."""
    if doc["game"] != game:
        raise KeyStoreError(said(N_("it holds a key for another game")))
    player = doc["player"]
    if keys.get(player) != doc["public_key"]:
        named = ", ".join(keys) or said(N_("no keys"))
        raise KeyStoreError(said(N_("it holds a key for {name} that the game file does not name (the file has {named})"),
                                 name=player, named=named))
    if "secret" in doc:
        if commit is None:
            raise KeyStoreError(said(N_("it holds a handshake secret, but the game's header commits to none (R40)")))
        if commitment(doc["secret"]) != commit:
            raise KeyStoreError(said(N_(
                "its handshake secret is not the one the game's header commits to (R40): the key file was edited or "
                "belongs to another game")))
