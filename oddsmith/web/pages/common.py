"""What the pages share: the form controls, the seed and trials fields, deck and posse inputs."""
from __future__ import annotations

from oddsmith.web import render as H
from oddsmith.web.forms import BadInput, Query


def select(name: str, options, value: str, label: str, *, blank: str | None = None) -> str:
    opts = f'<option value=""{" selected" if not value else ""}>{H.esc(blank)}</option>' if blank is not None else ""
    opts += "".join(f'<option{" selected" if o == value else ""}>{H.esc(o)}</option>' for o in options)
    return f'<label>{H.esc(label)} <select name="{name}">{opts}</select></label>'


def check(name: str, value: bool, label: str) -> str:
    return (f'<label class="check"><input type="checkbox" name="{name}" value="1"{" checked" if value else ""}>'
            f" {H.esc(label)}</label>")


def number(name: str, value: object, label: str, lo: int, hi: int) -> str:
    shown = "" if value is None else str(value)[:40]
    return (f'<label>{H.esc(label)} <input name="{name}" type="number" min="{lo}" max="{hi}" '
            f'value="{H.esc(shown)}"></label>')


def text(name: str, value: str | None, label: str, placeholder: str = "") -> str:
    return (f'<label>{H.esc(label)} <input name="{name}" value="{H.esc(value or "")}" '
            f'placeholder="{H.esc(placeholder)}"></label>')


def textarea(name: str, value: str | None, label: str, placeholder: str = "") -> str:
    return (f'<label>{H.esc(label)} <textarea name="{name}" id="{name}" spellcheck="false" '
            f'placeholder="{H.esc(placeholder)}">{H.esc(value or "")}</textarea></label>')


def sampling_fields(trials: object, seed: object, hi: int) -> str:
    return (number("trials", trials, f"Trials (simulated; at most {hi:,})", 1, hi)
            + number("seed", seed, "Seed (the same seed gives the same figures)", 0, 2**63 - 1))


def load_deck_input(q: Query, name: str, paste_name: str | None, *, with_gang: bool, partial: bool, what: str):
    """A Doomtown deck from a pasted list (any format the CLI reads) or a sample name, after set-up."""
    from oddsmith.doomtown.deck import parse_deck, sample_names, set_up
    from oddsmith.doomtown.deck import load_sample

    pasted = q.paste(paste_name) if paste_name else None
    sample = q.choice(name, sample_names(), "") if q.params.get(name) else ""
    if pasted:
        from oddsmith.textinput import decode_text

        text = decode_text(pasted.encode("utf-8", "replace"), f"pasted {what}", "deck list")
        deck = parse_deck(text, name=f"pasted {what}", source=f"pasted {what}", partial=partial)
        return set_up(deck, with_gang=with_gang), pasted, ""
    if not sample:
        raise BadInput(f"{what}: paste a deck list or pick a sample deck", name)
    return load_sample(sample, with_gang=with_gang, partial=partial), None, sample


def deck_error(exc: Exception, field: str) -> BadInput:
    """A deck's error as the page's (a :class:`BadInput` keeps its own field and status)."""
    return exc if isinstance(exc, BadInput) else BadInput(str(exc), field)
