"""Snapshots: this machine's own objects as MessagePack (msgspec), read back without running code
that the bytes name — what the checkpoint keeps, in place of a pickle (issue 37).

A snapshot is ``[tags, root]``.  ``tags`` lists the classes it holds, each as
``[module:qualname, field names]`` (the names only for a Struct kept field by field); ``root`` is a
tree in which a scalar (None, a boolean, a number, a string, bytes) stands for itself and every
other value is an array whose first element says what it is::

    [LIST, item…]  [TUPLE, item…]  [SET, item…]  [DICT, key, value, …]  [UNSET]
    [PLAIN_LIST, scalar…]  [PLAIN_TUPLE, scalar…]   the same, of scalars only (read in one step)
    [OBJECT, tag, name, value, …]   a plain class (its ``__slots__`` or ``__dict__``)
    [STRUCT, tag, value…]           a msgspec Struct, field by field
    [FROZEN, tag, bytes]            a frozen Struct whose fields msgspec types in full: encoded and
                                    decoded by msgspec itself, typed and checked
    [CUSTOM, tag, value]            a class with its own pair of functions (a game's catalogue: its
                                    component set)
    [REF, n]                        the n-th object of this snapshot again (shared stays shared)
    [EXTERN, n]                     the n-th object the reader hands in (the catalogue the game has)

A :class:`Codec` knows a fixed set of classes: those defined in the modules its caller names.
Reading, it looks every tag up in that set and refuses a snapshot naming any other
(:class:`SnapshotError`); it imports no module and calls nothing a snapshot names: a plain object
is made by ``cls.__new__`` and ``object.__setattr__`` (only names its class can hold), a Struct by
its own constructor with the fields its class declares, or by msgspec's typed decoder.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any

import msgspec

LIST, TUPLE, SET, DICT, UNSET, OBJECT, STRUCT, FROZEN, CUSTOM, REF, EXTERN, PLAIN_LIST, PLAIN_TUPLE = range(13)
_SCALARS = (type(None), bool, int, float, str, bytes)
_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder()


class SnapshotError(ValueError):
    """A value this codec cannot keep, or bytes that are not a snapshot of its classes."""


_HEAD = msgspec.msgpack.Decoder(tuple[list[tuple[str, list[str] | None]], msgspec.Raw])


def tags_of(blob: bytes) -> list[str]:
    """The classes a snapshot names (its root left unread: a check before it is read whole)."""
    try:
        return [tag for tag, _ in _HEAD.decode(blob)[0]]
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise SnapshotError(f"not a snapshot: {exc}") from None


def tag_of(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def _slots(cls: type) -> tuple[str, ...]:
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        slots = klass.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else [s for s in slots if s not in ("__dict__", "__weakref__")]
    return tuple(names)


def _typed_in_full(t: Any, seen: set[type]) -> bool:
    """Whether msgspec's type ``t`` (``msgspec.inspect``) decodes to exactly what was encoded:
    no ``Any``, no custom class, only frozen Structs."""
    from msgspec import inspect as mi

    if isinstance(t, (mi.AnyType, mi.CustomType)):
        return False
    if isinstance(t, mi.StructType):
        if t.cls in seen:
            return True
        seen.add(t.cls)
        return bool(t.cls.__struct_config__.frozen) and all(_typed_in_full(f.type, seen) for f in t.fields)
    if isinstance(t, (mi.DataclassType, mi.TypedDictType, mi.NamedTupleType)):
        return False
    for name in ("item_type", "key_type", "value_type"):
        sub = getattr(t, name, None)
        if sub is not None and not _typed_in_full(sub, seen):
            return False
    return all(_typed_in_full(sub, seen) for name in ("item_types", "types") for sub in getattr(t, name, ()) or ())


class Codec:
    """Snapshots of the classes defined in ``modules`` (and ``custom`` ones: class → (to, from),
    the value kept for an instance and the instance made again from it)."""

    def __init__(self, modules: Iterable[ModuleType],
                 custom: dict[type, tuple[Callable[[Any], Any], Callable[[Any], Any]]] | None = None) -> None:
        self.classes: dict[str, type] = {}
        for module in modules:
            for value in vars(module).values():
                if (isinstance(value, type) and value.__module__ == module.__name__
                        and not issubclass(value, BaseException)):
                    self.classes[tag_of(value)] = value
        self.custom = dict(custom or {})
        for cls in self.custom:
            self.classes[tag_of(cls)] = cls
        self._frozen: dict[type, bool] = {}
        self._decoders: dict[type, msgspec.msgpack.Decoder[Any]] = {}

    # ---------------------------------------------------------------------------------------
    # writing

    def encode(self, obj: Any, extern: Iterable[Any] = ()) -> bytes:
        """``obj`` as a snapshot; the objects of ``extern`` are left out, named by their place."""
        writer = _Writer(self, {id(o): i for i, o in enumerate(extern)})
        try:
            root = writer.pack(obj)
            return _ENCODER.encode([writer.tags, root])
        except (TypeError, ValueError, OverflowError, RecursionError) as exc:
            raise SnapshotError(f"cannot keep a snapshot of this value: {exc}") from None

    def native(self, cls: type) -> bool:
        """Whether msgspec encodes and decodes ``cls`` exactly by itself (a frozen Struct typed in full)."""
        known = self._frozen.get(cls)
        if known is None:
            from msgspec import inspect as mi

            try:
                known = _typed_in_full(mi.type_info(cls), set())
            except (TypeError, ValueError):
                known = False
            self._frozen[cls] = known
        return known

    # ---------------------------------------------------------------------------------------
    # reading

    def decode(self, blob: bytes, extern: Iterable[Any] = ()) -> Any:
        """The object of a snapshot made by :meth:`encode`; :class:`SnapshotError` if the bytes are
        not one, or name a class this codec does not know."""
        try:
            doc = _DECODER.decode(blob)
            if not (isinstance(doc, list) and len(doc) == 2 and isinstance(doc[0], list)):
                raise SnapshotError("not a snapshot")
            reader = _Reader(self, [self._tag(entry) for entry in doc[0]], list(extern))
            return reader.unpack(doc[1])
        except SnapshotError:
            raise
        except (msgspec.DecodeError, msgspec.ValidationError, TypeError, ValueError, KeyError, IndexError,
                AttributeError, RecursionError, OverflowError) as exc:
            raise SnapshotError(f"not a snapshot of this tool's objects: {type(exc).__name__}: {exc}") from None

    def _tag(self, entry: Any) -> tuple[type, tuple[str, ...] | None]:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)):
            raise SnapshotError("a malformed class entry")
        cls = self.classes.get(entry[0])
        if cls is None:
            raise SnapshotError(f"the snapshot names a class this tool does not keep: {entry[0][:80]!r}")
        fields = entry[1]
        if fields is not None:
            if not (isinstance(fields, list) and all(isinstance(f, str) for f in fields)
                    and isinstance(cls, type) and issubclass(cls, msgspec.Struct)
                    and set(fields) <= set(cls.__struct_fields__)):
                raise SnapshotError(f"fields that {entry[0]} does not have")
            fields = tuple(fields)
        return cls, fields

    def decoder(self, cls: type) -> msgspec.msgpack.Decoder[Any]:
        found = self._decoders.get(cls)
        if found is None:
            found = self._decoders[cls] = msgspec.msgpack.Decoder(cls)
        return found


class _Writer:
    def __init__(self, codec: Codec, extern: dict[int, int]) -> None:
        self.codec = codec
        self.extern = extern
        self.tags: list[list[Any]] = []
        self.tag_index: dict[tuple[type, bool], int] = {}
        self.memo: dict[int, int] = {}
        self.alive: list[Any] = []

    def tag(self, cls: type, fields: bool) -> int:
        key = (cls, fields)
        found = self.tag_index.get(key)
        if found is None:
            tag = tag_of(cls)
            if self.codec.classes.get(tag) is not cls:
                raise TypeError(f"{tag} is not a class this snapshot keeps")
            found = self.tag_index[key] = len(self.tags)
            self.tags.append([tag, list(cls.__struct_fields__) if fields else None])  # type: ignore[attr-defined]
        return found

    def pack(self, obj: Any) -> Any:
        kind = type(obj)
        if kind in _SCALARS:
            return obj
        key = id(obj)
        if key in self.extern:
            return [EXTERN, self.extern[key]]
        if key in self.memo:
            return [REF, self.memo[key]]
        self.memo[key] = len(self.memo)
        self.alive.append(obj)  # an id stays this object's while the snapshot is made
        pack = self.pack
        if kind is list:
            if all(type(item) in _SCALARS for item in obj):
                return [PLAIN_LIST, *obj]
            return [LIST, *map(pack, obj)]
        if kind is tuple:
            if all(type(item) in _SCALARS for item in obj):
                return [PLAIN_TUPLE, *obj]
            return [TUPLE, *map(pack, obj)]
        if kind is set or kind is frozenset:
            return [SET, *map(pack, obj)]
        if kind is dict:
            out: list[Any] = [DICT]
            for k, v in obj.items():
                out += (pack(k), pack(v))
            return out
        if obj is msgspec.UNSET:
            return [UNSET]
        custom = self.codec.custom.get(kind)
        if custom is not None:
            return [CUSTOM, self.tag(kind, False), pack(custom[0](obj))]
        if isinstance(obj, msgspec.Struct):
            if self.codec.native(kind):
                return [FROZEN, self.tag(kind, False), _ENCODER.encode(obj)]
            return [STRUCT, self.tag(kind, True), *(pack(getattr(obj, f)) for f in obj.__struct_fields__)]
        state = getattr(obj, "__dict__", None)
        items = list(state.items()) if state is not None else []
        items += [(name, getattr(obj, name)) for name in _slots(kind) if hasattr(obj, name)]
        out = [OBJECT, self.tag(kind, False)]
        for name, value in items:
            out += (name, pack(value))
        return out


class _Reader:
    def __init__(self, codec: Codec, tags: list[tuple[type, tuple[str, ...] | None]], extern: list[Any]) -> None:
        self.codec = codec
        self.tags = tags
        self.extern = extern
        self.memo: list[Any] = []

    def unpack(self, node: Any) -> Any:
        if type(node) is not list:
            if type(node) in _SCALARS:
                return node
            raise SnapshotError("a value of no known shape")
        code = node[0]
        if code == REF:
            found = self.memo[node[1]]
            if found is _PENDING:
                raise SnapshotError("a reference to an object not yet made")
            return found
        if code == EXTERN:
            return self.extern[node[1]]
        if code == UNSET:
            return msgspec.UNSET
        at = len(self.memo)
        self.memo.append(_PENDING)
        unpack = self.unpack
        out: Any
        if code == PLAIN_LIST:
            out = self.memo[at] = node[1:]
            if not all(type(item) in _SCALARS for item in out):
                raise SnapshotError("a list of scalars holding another value")
        elif code == PLAIN_TUPLE:
            out = self.memo[at] = tuple(node[1:])
            if not all(type(item) in _SCALARS for item in out):
                raise SnapshotError("a tuple of scalars holding another value")
        elif code == LIST:
            out = self.memo[at] = []
            out.extend(map(unpack, node[1:]))
        elif code == DICT:
            out = self.memo[at] = {}
            items = node[1:]
            if len(items) % 2:
                raise SnapshotError("a dict with a key and no value")
            for i in range(0, len(items), 2):
                key = unpack(items[i])
                out[key] = unpack(items[i + 1])
        elif code == TUPLE:
            out = self.memo[at] = tuple(map(unpack, node[1:]))
        elif code == SET:
            out = self.memo[at] = set(map(unpack, node[1:]))
        else:
            out = self.memo[at] = self._instance(code, node, at)
        return out

    def _instance(self, code: int, node: list[Any], at: int) -> Any:
        cls, fields = self.tags[node[1]]
        if code == FROZEN:
            if fields is not None or not issubclass(cls, msgspec.Struct) or type(node[2]) is not bytes:
                raise SnapshotError("a malformed Struct")
            return self.codec.decoder(cls).decode(node[2])
        if code == STRUCT:
            if fields is None or len(node) - 2 != len(fields):
                raise SnapshotError("a Struct with fields missing")
            return cls(**dict(zip(fields, map(self.unpack, node[2:]))))
        if code == CUSTOM:
            custom = self.codec.custom.get(cls)
            if custom is None:
                raise SnapshotError("a class with no functions of its own")
            return custom[1](self.unpack(node[2]))
        if code != OBJECT or fields is not None or issubclass(cls, msgspec.Struct) or cls in self.codec.custom:
            raise SnapshotError("a value of no known shape")
        obj = cls.__new__(cls)
        self.memo[at] = obj  # made before its attributes: they may refer to it
        allowed = set(_slots(cls))
        open_dict = hasattr(obj, "__dict__")
        items = node[2:]
        if len(items) % 2:
            raise SnapshotError("an attribute with no value")
        for i in range(0, len(items), 2):
            name = items[i]
            if not (isinstance(name, str) and name.isidentifier() and not name.startswith("__")
                    and (name in allowed or open_dict)):
                raise SnapshotError(f"an attribute that {cls.__qualname__} does not have")
            object.__setattr__(obj, name, self.unpack(items[i + 1]))
        return obj


_PENDING = object()
