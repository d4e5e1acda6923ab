"""The one exception type for bad user input.

Anything a user can get wrong (a card token, a deck list, a posse file, an
option value) raises :class:`OddsmithError` with a message that names the
problem and where it is. The CLI prints that message on one line and exits
with status 2; library callers can catch it (it is a ``ValueError``).
A piece of user input in a message is quoted once, with :func:`quote`, and
shortened when long (:data:`QUOTE_LIMIT`).
"""
import re


class OddsmithError(ValueError):
    """Bad input: the message names the problem and where it is."""


#: Longest piece of user input an error message shows whole (characters).
QUOTE_LIMIT = 40


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as an error message shows it: whole up to ``limit`` characters, else its start and
    end around "…" with its length, so that a pasted paragraph does not fill the screen."""
    text = str(text)
    if len(text) <= limit:
        return text
    head = max(1, (limit - 1) * 2 // 3)
    tail = max(1, limit - 1 - head)
    return f"{text[:head]}…{text[-tail:]} ({len(text):,} characters)"


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``value`` quoted once for an error message (``'AX'``), shortened by :func:`shorten`: the one
    helper every message that quotes user input uses."""
    text = str(value)
    if len(text) <= limit:
        return repr(text)
    short = shorten(text, limit)
    cut = short.rindex(" (")
    return f"{short[:cut]!r}{short[cut:]}"


# A quoted item in a message: a quote after a space, "(" or the start, up to the same quote before
# a space, punctuation or the end (so that the apostrophe of "dude's" or "Gamblin'" starts none).
_QUOTED = re.compile(r"""(?:(?<=^)|(?<=[\s(\[=]))(['"])([^'"\n]+)\1(?=$|[\s,;:.)\]])""")


def shorten_quoted(message: str, limit: int = QUOTE_LIMIT) -> str:
    """``message`` with every quoted item longer than ``limit`` shortened as :func:`quote` does: the
    CLI passes every error line through it, whichever module (or click) wrote the message."""
    def one(m: re.Match) -> str:
        if len(m.group(2)) <= limit:
            return m.group(0)
        short = shorten(m.group(2), limit)
        cut = short.rindex(" (")
        q = m.group(1)
        return f"{q}{short[:cut]}{q}{short[cut:]}"
    return _QUOTED.sub(one, message)


def check_whole(value: object, what: str, low: int, high: int | None = None) -> int:
    """``value`` if it is a whole number in ``low..high`` (no upper bound when ``high`` is None);
    otherwise an :class:`OddsmithError` naming ``what``, the range and the value given."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise OddsmithError(f"{what} {quote(value)} is not a whole number")
    if value < low or (high is not None and value > high):
        span = f"{low}..{high}" if high is not None else f"at least {low}"
        raise OddsmithError(f"{what} {value} is not {span}")
    return value
