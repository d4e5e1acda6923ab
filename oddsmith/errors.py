"""The one exception type for bad user input.

Anything a user can get wrong (a card token, a deck list, a posse file, an
option value) raises :class:`OddsmithError` with a message that names the
problem and where it is. The CLI prints that message on one line and exits
with status 2; library callers can catch it (it is a ``ValueError``).
"""


class OddsmithError(ValueError):
    """Bad input: the message names the problem and where it is."""
