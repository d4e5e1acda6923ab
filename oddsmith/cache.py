"""A result cache on disk, so that asking the same question twice is near instant.

Entries live in the user's cache folder (``$ODDSMITH_CACHE_DIR``, else
``$XDG_CACHE_HOME/oddsmith``, else ``~/.cache/oddsmith``), one file each,
named by a hash of their key: oddsmith's version, a hash of its code (every
module, kernel and data file of the package: a development install keeps its
version number while its code changes) and everything the result depends on
(the inputs, the trials, the seed, ...), so other code or other inputs never
meet an old entry. Each file starts with a magic line, the hash
of its key and an HMAC-SHA256 of key and payload under a random secret kept
in the folder (readable by the user only): a truncated, corrupted or foreign
file fails the check and is ignored, removed and recomputed, never trusted.
Writes go to a temporary file renamed into place, so concurrent runs only
ever see whole entries; after each write the oldest entries (by last use) go
until the folder holds at most :data:`MAX_BYTES`.
"""
from __future__ import annotations

import functools
import hashlib
import hmac
import os
import secrets
import tempfile
from pathlib import Path
from typing import Any, Callable

from oddsmith import __version__

MAGIC = b"oddsmith-cache 1\n"
#: The most the folder holds; the least recently used entries go first.
MAX_BYTES = 256 * 1024 * 1024
SECRET_NAME = "secret"
SUFFIX = ".entry"


def folder() -> Path:
    """The cache folder (not created here)."""
    if os.environ.get("ODDSMITH_CACHE_DIR"):
        return Path(os.environ["ODDSMITH_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "oddsmith"


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A hash of the installed package's files (modules, compiled kernels, data; not ``__pycache__``), read once per
    process (about 14 MB, a few tens of ms): results made by other code never meet."""
    root = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        h.update(path.relative_to(root).as_posix().encode("utf-8") + b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()


def key_digest(*parts: Any) -> bytes:
    """The hash naming an entry: oddsmith's version, :func:`code_fingerprint` and ``parts`` (``repr`` of each, in
    order)."""
    text = repr((__version__, code_fingerprint(), *parts)).encode("utf-8")
    return hashlib.sha256(text).digest()


def _secret(root: Path) -> bytes:
    path = root / SECRET_NAME
    try:
        value = path.read_bytes()
        if len(value) == 32:
            return value
    except OSError:
        pass
    value = secrets.token_bytes(32)
    _write_atomic(root, path, value, mode=0o600)
    return path.read_bytes()  # whichever concurrent run renamed last: every run then uses it


def _write_atomic(root: Path, path: Path, data: bytes, mode: int = 0o600) -> None:
    fd, tmp = tempfile.mkstemp(dir=root, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _mac(secret: bytes, digest: bytes, payload: bytes) -> bytes:
    return hmac.new(secret, digest + payload, hashlib.sha256).digest()


def load(digest: bytes) -> bytes | None:
    """The payload stored under ``digest``, or None (no entry, or one that fails its check: removed)."""
    root = folder()
    path = root / (digest.hex() + SUFFIX)
    try:
        data = path.read_bytes()
        secret = (root / SECRET_NAME).read_bytes()
    except OSError:
        return None
    head = len(MAGIC)
    ok = (data.startswith(MAGIC) and len(data) >= head + 64 and data[head:head + 32] == digest
          and len(secret) == 32
          and hmac.compare_digest(data[head + 32:head + 64], _mac(secret, digest, data[head + 64:])))
    if not ok:
        try:
            path.unlink()
        except OSError:
            pass
        return None
    try:
        os.utime(path)  # last used: kept longest
    except OSError:
        pass
    return data[head + 64:]


def store(digest: bytes, payload: bytes) -> bool:
    """Store ``payload`` under ``digest``; False when the folder cannot be written (then nothing is cached)."""
    root = folder()
    try:
        root.mkdir(parents=True, exist_ok=True, mode=0o700)
        secret = _secret(root)
        entry = MAGIC + digest + _mac(secret, digest, payload) + payload
        if len(entry) > MAX_BYTES:
            return False
        _write_atomic(root, root / (digest.hex() + SUFFIX), entry)
        trim(root)
    except OSError:
        return False
    return True


def trim(root: Path | None = None, max_bytes: int | None = None) -> None:
    """Remove the least recently used entries until the folder holds at most ``max_bytes``."""
    root = root or folder()
    limit = MAX_BYTES if max_bytes is None else max_bytes
    entries = []
    for path in root.glob("*" + SUFFIX):
        try:
            st = path.stat()
        except OSError:
            continue
        entries.append((st.st_mtime, st.st_size, path))
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries):
        if total <= limit:
            break
        try:
            path.unlink()
        except OSError:
            pass
        total -= size


def cached(digest: bytes, compute: Callable[[], bytes], *, use: bool = True) -> tuple[bytes, bool]:
    """``compute()``'s bytes, from the cache when an entry for ``digest`` holds them; (bytes, hit).
    ``use=False`` (``--no-cache``) neither reads nor writes."""
    if use:
        payload = load(digest)
        if payload is not None:
            return payload, True
    payload = compute()
    if use:
        store(digest, payload)
    return payload, False
