"""`oddsmith` commands for this area (filled in by its issue)."""


def register(app):
    return None
