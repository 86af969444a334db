"""``agility key``: list, export and import the signing keys of signed games (R41)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional
import typer

from ..engine.notation import Refused, UsageError
from ..record import gamefile, keys
from ..i18n import _, pgettext
from ..said import message_of, tell as told
from ..text import safe, shell_command
from ..i18n import N_, _
from .application import App, app
from .common import boundary, err, output_path


key_app = App(  # a group: its help is marked here and translated when shown (application.Group)
    help=N_(
        "Your signing keys for signed games: one key per player per game, kept in your data directory.\n\n"
        "\b\nExample:\n"
        "  agility key export game.jsonl -o alice.key    # then, on the new machine:\n"
        "  agility key import game.jsonl alice.key"
    ),
    no_args_is_help=True,
    rich_markup_mode=None,
)


app.add_typer(key_app, name="key")


@key_app.command(
    "list",
    help=_(
        "Say whose keys this machine holds for a game (or for every game), and where they are kept.\n"
        "\n"
        "\b\n"
        "Examples:\n"
        "  agility key list game.jsonl\n"
        "  agility key list"
    ),
)
def key_list(
    file: Optional[Path] = typer.Argument(None, metavar="[FILE]", help=_("A game file; without it, every game whose keys are held here.")),
) -> None:
    with boundary():

        if file is None:
            _list_every_game()
            return
        data = gamefile.read_bytes(file)
        trust = gamefile.trust_of(data, str(file))
        if not trust.signed:
            print(_("{file} is an unsigned game: no keys").format(file=safe(str(file))))
            return
        held = keys.held_seats(data)
        for name in trust.keys:
            mark = _("held here") if name in held else _("not on this machine")
            print(_("{name}: key {key}… ({mark})").format(name=safe(name), key=trust.keys[name][:16], mark=mark))
        print(_("key store: {home}").format(home=safe(str(keys.home()))))


class _GameId:
    """A game of the key store, named by its id (the SHA-256 of its header line)."""

    def __init__(self, game_id: str):
        self.game_id = game_id


def _list_every_game() -> None:
    """``agility key list``: the games whose keys this machine holds (by game id), and whose."""
    store = keys.home() / "games"
    for directory in (keys.home(), store):
        if directory.exists() and not directory.is_dir():
            raise UsageError(pgettext("verb", "the key store's directory {dir} is not a directory; set AGILITY_HOME "
                                      "to a directory (or move that file away)").format(dir=safe(str(directory))))
    ids = sorted(p.stem for p in store.glob("*.json")) if store.is_dir() else []
    found = 0
    for game_id in ids:
        if len(game_id) != 64 or not all(c in "0123456789abcdef" for c in game_id):
            continue  # not a file the key store writes
        try:
            held = keys.held_seats(_GameId(game_id))
        except keys.KeyStoreError as exc:
            err(_("agility: {error}").format(error=told(message_of(exc))))
            continue
        if held:
            found += 1
            print(_("game {id}…: {names}").format(id=game_id[:16], names=", ".join(safe(n) for n in held)))
    if not found:
        print(_("no game keys on this machine"))
    print(_("key store: {home}").format(home=safe(str(keys.home()))))


@key_app.command(
    "export",
    help=_(
        "Export your key for this game (and your handshake secret, until it is revealed) as a key file.\n"
        "\n"
        "Keep the key file private: whoever holds it can sign lines in your name in this game.\n"
        "\n"
        "Example:  agility key export game.jsonl -o alice-game.key"
    ),
)
def key_export(
    file: Path = typer.Argument(..., metavar="FILE", help=_("The game file.")),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=_("Whose seat you are (also AGILITY_PLAYER): whose key, when this machine holds both.")),
    out: Optional[Path] = typer.Option(None, "--out", "-o", callback=output_path, help=_("Write the key file here (mode 0600; never overwritten) instead of standard output.")),
) -> None:
    with boundary():

        path = safe(str(file))
        data = gamefile.read_bytes(file)
        held = keys.held_seats(data)
        if as_player is not None:
            seat = as_player
        elif len(held) == 1:
            seat = held[0]
        elif not held:
            raise UsageError(_("this machine holds no key for {file} (an unsigned game, or the key is on another "
                               "machine)").format(file=path))
        else:
            raise UsageError(_("this machine holds the keys of {names} for {file}: choose one with --as").format(
                names=_(" and ").join(held), file=path))
        try:
            payload = keys.export_key(keys.game_id(data), seat)
        except keys.KeyStoreError as exc:
            raise UsageError(message_of(exc)) from None
        if out is None:
            sys.stdout.write(payload.decode())
            err(_("agility: this is {name}'s private key for {file}: keep it secret").format(name=seat, file=path))
            return
        try:  # whole or not at all, mode 0600 from the start, never over an existing file
            gamefile.write_new(out, payload, what="the key file", mode=0o600)
        except FileExistsError:
            raise UsageError(pgettext("verb", "{out} already exists; a key file is never overwritten (choose another "
                                      "name, or move that file away)").format(out=safe(str(out)))) from None
        err(_("wrote {name}'s key for {file} to {out} (keep it secret; import it with `{command}`)").format(
            name=seat, file=path, out=safe(str(out)),
            command=shell_command(['agility', 'key', 'import', str(file), str(out)])))


@key_app.command(
    "import",
    help=_(
        "Import a key exported on another machine, to go on playing this game here.\n"
        "\n"
        "The key must be the one the game file names for that player.\n"
        "\n"
        "Example:  agility key import game.jsonl alice-game.key"
    ),
)
def key_import(
    file: Path = typer.Argument(..., metavar="FILE", help=_("The game file.")),
    keyfile: Path = typer.Argument(..., metavar="KEYFILE", help=_("A key file written by `agility key export`.")),
) -> None:
    with boundary():
        path = safe(str(file))
        data = gamefile.read_bytes(file)
        trust = gamefile.trust_of(data, str(file), held={})  # the file's own keys, not this machine's
        header = gamefile.decode_line(data.split(b"\n", 1)[0], str(file))
        commit = header.commit if isinstance(header.commit, str) else None
        # Everything is checked before anything is written: the key file (a regular file of at most
        # keys.MAX_KEY_FILE_BYTES), its key against the game file's (R41), its secret against the
        # header's commitment (R40), its seal secret against its player's passes (R42).
        try:
            doc = keys.read_key_file(keys.read_key_bytes(keyfile, "key file"))
        except keys.KeyStoreError as exc:
            raise UsageError(_("{keyfile}: {error}; {file} is unchanged and nothing was imported").format(
                keyfile=safe(str(keyfile)), error=told(message_of(exc)), file=path)) from None
        try:  # a key file that does not match the game: refused (exit 1), nothing stored
            keys.check_key_file(doc, game=trust.game_id, keys=trust.keys, commit=commit)
            if "seal" in doc:
                _check_seal_secret(data, str(file), doc["player"], bytes.fromhex(doc["seal"]))
        except keys.KeyStoreError as exc:
            raise Refused(_("{keyfile} does not match {file}: {error}; nothing was imported").format(
                keyfile=safe(str(keyfile)), file=path, error=told(message_of(exc))), [], None, "key/mismatch") from None
        player = doc["player"]
        held = keys.entry(trust.game_id, player)
        if all(held.get(k) == doc.get(k) for k in ("signing_key", "secret", "seal") if k in doc):
            print(_("{name}'s key for {file} is already in {home}: nothing to import").format(
                name=safe(player), file=path, home=safe(str(keys.home()))))
            return
        # An entry held here that the checks above prove wrong (a key the file does not name, a seal
        # secret other than the one that makes the passes) is replaced: it could never be used.
        wrong = (held.get("signing_key") not in (None, doc["signing_key"])
                 and keys.public_key(held["signing_key"]) != trust.keys.get(player)) or any(
                 k in doc and held.get(k) not in (None, doc[k]) for k in ("secret", "seal"))
        keys.store(trust.game_id, player, signing_key=doc["signing_key"], secret=doc.get("secret"),
                   seal=doc.get("seal"), replace_wrong=wrong)
        print(_("imported {name}'s key for {file} into {home}").format(name=safe(player), file=path,
                                                                        home=safe(str(keys.home()))))


def _check_seal_secret(data: bytes, path: str, player: str, seal: bytes) -> None:
    """R42: a seal secret must make its player's passes: the game verified with that secret alone
    (the audit's check on the player's own passes).  The file itself is verified first without it,
    so that a damaged file is reported as such (exit 3) and never as a wrong key."""
    def read_all(held: dict[str, bytes]) -> None:
        try:
            for _step in gamefile.verify(data, path, held=held):
                pass
        except gamefile.HandshakePending:
            pass  # a game still being set up: what its lines hold so far is checked

    read_all({})
    try:
        read_all({player: seal})
    except gamefile.GameFileError as exc:
        raise keys.KeyStoreError(f"its seal secret does not make {player}'s passes in the game file "
                                 f"(line {exc.line}: {exc.message}): the key file was edited or belongs to "
                                 "another game") from None
