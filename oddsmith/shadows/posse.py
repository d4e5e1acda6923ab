"""Posse files: read, validate against the posse-building rules, cost, and tabulate.

A posse file is TOML (read with the standard library's ``tomllib``; on
Python 3.10 the ``tomli`` package is used if installed)::

    [posse]
    name = "The Silver Creek Regulators"
    faction = "The Twilight Order"   # optional: no Faction when left out
    method = "advanced"              # basic | advanced | campaign
    dollar_limit = 100               # Advanced method (default $100)
    max_models = 8                   # Basic method (default: the number of models)
    native_american = false          # Bows, the Skinwalker Tribes

    [prices]                         # optional house prices for items this rulebook text leaves unpriced
    "Sixgun" = 6

    [house_weapons."Sawn-Off Shotgun"]   # optional house Range of a fire corridor (its only key)
    range = 6

    [house_weapons."Rifle"]          # optional house Shooting stats for the Rifle or Buffalo Gun
    short = 8                        # Range band edges (inches), Jam Die, shots, per-band modifiers
    medium = 16
    long = 24
    jam_die = "D10"

    [[model]]
    name = "Marshal Ezra Cole"
    rank = "Hero"                    # Novice/Veteran/Hero or D6/D8/D10
    weapons = ["Pistol", "Carbine"]
    gear = ["Lasso"]
    horse = "Horse"
    skills = ["Deadeye"]
    role = "Crusader"                # a Faction's unique model type
    # hired_gun = "Preacher", arcanist = true, powers = [...], unique_summonings = ["Seraphim"],
    # injuries = ["One-Eyed"], boss = true

:func:`validate` lists every broken rule (model, rule key, book section);
:func:`check_posse` raises :class:`~oddsmith.errors.OddsmithError` with the
first one. :func:`cost_table` prices an Advanced posse line by line;
:meth:`PosseModel.battle_weapons` is what a model uses in a game. The TOML
layer is :mod:`oddsmith.shadows.posse_toml`; :func:`shooting_table`,
:func:`fight_table` and :func:`summary_table` (each model's odds through the
dice engine) are in :mod:`oddsmith.shadows.posse_odds`; every name of both is
importable from here. :func:`load_posse_spec` is the one resolver of what a
command is given (a file, a sample, a Faction's name).
"""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from oddsmith import lazy
from oddsmith.errors import OddsmithError
from oddsmith.rules import shadows as R
from oddsmith.shadows.posse_toml import MAX_NESTING, parse_toml  # noqa: F401 (importable from here)
from oddsmith.shadows.posse_toml import _expect, _house_weapons, _names, _resolve
from oddsmith.textinput import read_text
from oddsmith.notebook import notebook_view

pd = lazy.module("pandas")  # loaded while a report's battles start (oddsmith/report/head_start.py)

SAMPLE_POSSE_PACKAGE = "oddsmith.data"
SAMPLE_POSSE_FOLDER = "posses"
DEFAULT_SAMPLE = "unaligned"


# ---------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PosseModel:
    """One model of a posse, with every name resolved against the rules model."""

    name: str
    rank: R.Rank
    weapons: tuple[R.Weapon, ...] = ()
    gear: tuple[R.Gear, ...] = ()
    horse: R.Gear | None = None
    skills: tuple[R.Skill, ...] = ()
    role: R.FactionRole | None = None
    hired_gun: R.HiredGun | None = None
    boss: bool = False
    arcanist: bool = False
    powers: tuple[R.ArcanePower, ...] = ()
    injuries: tuple[R.Injury, ...] = ()
    exp: int = 0
    index: int = 0
    house_weapons: tuple[R.Weapon, ...] = ()
    """The posse file's ``[house_weapons]`` (the same on every model of a posse): house Shooting stats for the
    Weapons the book gives none (:func:`oddsmith.rules.shadows.house_weapon`)."""
    unique_summonings: tuple[R.Entity, ...] = ()
    """An Arcanist's ``unique_summonings``: the unique Entities ("Unique Summonings") it Summons, at -1 Die, in place
    of the common Entity of the same type (Lesser, Minor, Major)."""

    @property
    def where(self) -> str:
        return f"model {self.index} {self.name!r}"

    # The derived figures below are cached (the model is frozen): set-ups and the reference battle ask for
    # them thousands of times a battle.
    @functools.cached_property
    def is_vessel(self) -> bool:
        """The Congregation's Vessel: "they will temporarily lose all their Weapons, Gear, and Horse until
        after the game" ("The Congregation", Faction Benefit: The Vessel)."""
        return bool(self.role and self.role.loses_weapons_and_gear)

    def _in_game(self, w: R.Weapon) -> tuple[R.Weapon, str | None]:
        """The Weapon as used in a game (house stats applied) and why it cannot be used, or None."""
        if self.is_vessel:
            return w, "the Vessel loses its Weapons, Gear and Horse for the game (The Congregation)"
        # house stats: the Rifle's and Buffalo Gun's Shooting stats, the Sawn-Off's Range (the Behemoth's breath has one)
        if w.takes_house_stats or (w.fire_corridor and R.corridor_range(w) is None):
            house = next((h for h in self.house_weapons if h.name == w.name), None)
            if house is None and w.takes_house_stats:
                return w, ("the rulebook text gives no ranges or Jam Die for it; give house stats under "
                           f'[house_weapons."{w.name}"]')
            if house is None:   # a fire corridor with no Range
                return w, (f"{shootable(w)}, and the rulebook text gives it no Range; give one under "
                           f'[house_weapons."{w.name}"] range = N')
            w = house
        if R.corridor_range(w):
            return w, None   # a fire corridor as far as its Range (docs/shadows-battles.md section 4a)
        return w, shootable(w) if shootable(w) != FIGHT_WEAPON else None

    def battle_weapons(self) -> tuple[R.Weapon, ...]:
        """The Weapons this model uses in a game, each once, in posse-file order.

        The Congregation's Vessel has none ("they will temporarily lose all their Weapons, Gear, and
        Horse until after the game"); a Weapon the book gives no Shooting stats for (the Rifle, the
        Buffalo Gun) comes with the posse file's house stats, and is left out without them, as is a
        fire-corridor Weapon (the Sawn-Off Shotgun): :meth:`unused_weapons` says why. A Fight Weapon
        (the Woodsman's Axe) is kept: it has no Shooting Test but acts in a Fight.
        """
        out = []
        for w in dict.fromkeys(self.weapons):
            used, why = self._in_game(w)
            if why is None:
                out.append(used)
        return tuple(out)

    def unused_weapons(self) -> tuple[tuple[R.Weapon, str], ...]:
        """(Weapon, why) for every Weapon the model carries but does not use in a game (see :meth:`battle_weapons`)."""
        out = []
        for w in dict.fromkeys(self.weapons):
            _, why = self._in_game(w)
            if why is not None:
                out.append((w, why))
        return tuple(out)

    def battle_gear(self) -> tuple[R.Gear, ...]:
        """The Gear this model uses in a game: none for the Vessel (see :attr:`is_vessel`), else its Gear."""
        return () if self.is_vessel else self.gear

    @property
    def battle_horse(self) -> R.Gear | None:
        """The horse this model rides in a game: none for the Vessel, else its own (given as ``horse`` or among
        its ``gear``)."""
        if self.is_vessel:
            return None
        return self.horse or next((g for g in self.gear if g.kind is R.GearKind.HORSE), None)

    @property
    def mounted_move_inches(self) -> float | None:
        """Its Move on horseback ("Mounted Models": 6"; an Appaloosa "has a Move rate of 8""), less Boilerplate's
        1" ("its Move rate is reduced by 1" (even if Mounted)"); None when it rides no horse in a game."""
        horse = self.battle_horse
        if horse is None or horse.move is None:
            return None
        return horse.move - (R.gear("Boilerplate").move_penalty if self.boilerplate else 0)

    @functools.cached_property
    def all_skills(self) -> tuple[R.Skill, ...]:
        """Purchased Skills plus those granted by its Faction role or Hired Gun entry."""
        granted = list(self.role.skills if self.role else ()) + list(self.hired_gun.skills if self.hired_gun else ())
        out = list(self.skills)
        for name in granted:
            s = R.skill(name)
            if s not in out:
                out.append(s)
        return tuple(out)

    def has_skill(self, name: str) -> bool:
        target = R.skill(name)
        return target in self.all_skills

    @functools.cached_property
    def supernatural(self) -> bool:
        return bool((self.role and self.role.supernatural) or (self.hired_gun and self.hired_gun.supernatural))

    @functools.cached_property
    def boilerplate(self) -> bool:
        """Boilerplate worn in a game (not by the Vessel, see :meth:`battle_gear`), or a Crusader's armour."""
        return (any(g.cancels_successes for g in self.battle_gear())
                or bool(self.role and "Boilerplate" in self.role.gear))

    @functools.cached_property
    def move_inches(self) -> float:
        """Move rate on foot ("Move": 4"; a Broodkin's 6": "This makes them Supernatural and Move 6""), less
        Boilerplate's 1" ("its Move rate is reduced by 1"", a Crusader's armour too); on horseback see
        :attr:`mounted_move_inches`, in a Beast Form the Form's (docs/shadows-battles.md)."""
        base = self.role.move if self.role and self.role.move and not self.role.beast_form else R.MOVE_INCHES
        return base - (R.gear("Boilerplate").move_penalty if self.boilerplate else 0)

    @property
    def flying(self) -> bool:
        """Flying ("Types of Model", "Flying Models"): the Harbinger of the Abyss, the Vessel (their Faction roles)."""
        return bool(self.role and self.role.flying)

    @functools.cached_property
    def silver_bullets(self) -> bool:
        """Silver Bullets in a game: a Crusader's, or bought as Gear (not by the Vessel)."""
        return bool(self.role and self.role.silver_bullets) or any(g.name == "Silver Bullets"
                                                                   for g in self.battle_gear())

    def _standing_dice(self, test: R.TestKind) -> int:
        """Dice Modifier of its Skills and Lasting Injuries on every ``test`` it makes."""
        skills = sum(s.shoot_dice if test is R.TestKind.SHOOTING else s.fight_dice for s in self.all_skills)
        return skills + sum(R.INJURY_DICE_MODIFIERS[i].dice for i in self.injuries if i in R.INJURY_DICE_MODIFIERS
                            and R.INJURY_DICE_MODIFIERS[i].test is test)

    @property
    def shoot_dice(self) -> int:
        """Standing Dice Modifier on its Shooting Tests (Deadeye, One-Eyed)."""
        return self._standing_dice(R.TestKind.SHOOTING)

    @property
    def fight_dice(self) -> int:
        """Standing Dice Modifier on its Fight Tests (Mean, Weakened)."""
        return self._standing_dice(R.TestKind.FIGHT)

    @property
    def save_modifier(self) -> int:
        """Standing Save Modifier (Tough)."""
        return sum(s.save_modifier for s in self.all_skills)

    @property
    def lead_belly(self) -> bool:
        return any(s.ignores_shaken_penalty for s in self.all_skills)

    @property
    def is_arcanist(self) -> bool:
        return self.arcanist or bool(self.role and self.role.arcanist) or bool(self.hired_gun and self.hired_gun.arcanist)

    @property
    def grimoire_dice(self) -> int:
        """Dice its Casting Tests gain from a Grimoire given to it as an Arcanist (rules ``grimoire_dice``): the
        first Grimoire of a model made an Arcanist by one is destroyed in the process."""
        free = bool(self.role and self.role.arcanist) or bool(self.hired_gun and self.hired_gun.arcanist)
        given = sum(1 for g in self.gear if g.name == "Grimoire")
        return R.grimoire_dice(given, self.is_arcanist, self.is_arcanist and not free)

    @property
    def infamy(self) -> int:
        """Personal worth ("Infamy Phase"): Rank + 1 per Skill it has (bought or granted) + 1 for an Arcanist."""
        return R.model_infamy(self.rank, len(self.all_skills), self.is_arcanist)


@notebook_view
@dataclass(frozen=True)
class Posse:
    """A whole posse file."""

    name: str
    models: tuple[PosseModel, ...]
    faction: R.Faction = R.Faction.NONE
    method: R.PosseMethod = R.PosseMethod.ADVANCED
    dollar_limit: int = R.ADVANCED_DOLLAR_LIMIT
    max_models: int | None = None
    native_american: bool = False
    dracula: bool = False
    prices: dict[str, int] = field(default_factory=dict, hash=False)
    source: str = "<posse>"
    house_weapons: dict[str, R.Weapon] = field(default_factory=dict, hash=False)
    """``[house_weapons]``: house Shooting stats by Weapon name (each model also holds them)."""

    @property
    def boss(self) -> PosseModel | None:
        flagged = [m for m in self.models if m.boss]
        if flagged:
            return flagged[0]
        want = R.Rank.VETERAN if self.method is R.PosseMethod.CAMPAIGN else R.Rank.HERO
        for m in self.models:
            if m.rank is want and m.hired_gun is None:
                return m
        return None

    @property
    def infamy(self) -> int:
        """Base Infamy: number of models plus their personal worth ("Infamy Phase")."""
        return len(self.models) + sum(m.infamy for m in self.models)


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------

_POSSE_KEYS = {"name", "faction", "method", "dollar_limit", "max_models", "native_american", "dracula"}
_MODEL_KEYS = {"name", "rank", "weapons", "gear", "horse", "skills", "role", "hired_gun", "boss", "arcanist", "powers",
               "unique_summonings", "injuries", "exp"}
_TOP_KEYS = {"posse", "prices", "house_weapons", "model"}


def posse_from_dict(data: dict[str, Any], source: str = "<posse>") -> Posse:
    """Build a :class:`Posse` from parsed TOML; unknown keys and names are errors naming where they are."""
    for key in data:
        if key not in _TOP_KEYS:
            raise OddsmithError(f"posse file {source}: unknown section {key!r}; sections are [posse], [prices], "
                                f"[house_weapons] and [[model]]")
    head = data.get("posse", {})
    _expect(head, dict, f"posse file {source}: [posse]")
    for key in head:
        if key not in _POSSE_KEYS:
            raise OddsmithError(f"posse file {source}: unknown key {key!r} in [posse]; keys are {', '.join(sorted(_POSSE_KEYS))}")
    where = f"posse file {source}"
    name = _expect(head.get("name", Path(source).stem), str, f"{where}: posse name")
    faction = _resolve(R.faction, _expect(head.get("faction", "None"), str, f"{where}: faction"), where)
    method = _resolve(R.posse_method, _expect(head.get("method", "advanced"), str, f"{where}: method"), where)
    dollar_limit = _expect(head.get("dollar_limit", R.ADVANCED_DOLLAR_LIMIT), int, f"{where}: dollar_limit")
    if dollar_limit < 0:
        raise OddsmithError(f"{where}: dollar_limit must not be negative, got {dollar_limit}")
    max_models = head.get("max_models")
    if max_models is not None:
        _expect(max_models, int, f"{where}: max_models")
        if max_models < 1:
            raise OddsmithError(f"{where}: max_models must be at least 1, got {max_models}")
    native = _expect(head.get("native_american", False), bool, f"{where}: native_american")
    dracula = _expect(head.get("dracula", faction is not R.Faction.NONE), bool, f"{where}: dracula")

    prices_in = data.get("prices", {})
    _expect(prices_in, dict, f"{where}: [prices]")
    prices: dict[str, int] = {}
    for item, cost in prices_in.items():
        _expect(cost, int, f"{where}: price of {item!r}")
        if cost < 0:
            raise OddsmithError(f"{where}: price of {item!r} must not be negative, got {cost}")
        try:
            canonical = R.weapon(item).name
        except OddsmithError:
            canonical = _resolve(R.gear, item, f"{where}: [prices]").name
        prices[canonical] = cost

    house = _house_weapons(data.get("house_weapons", {}), where)

    raw_models = data.get("model", [])
    _expect(raw_models, list, f"{where}: [[model]]")
    if not raw_models:
        raise OddsmithError(f"{where}: no [[model]] entries")
    models = []
    for i, raw in enumerate(raw_models, start=1):
        _expect(raw, dict, f"{where}: model {i}")
        mname = _expect(raw.get("name", f"Model {i}"), str, f"{where}: model {i} name")
        mw = f"{where}: model {i} {mname!r}"
        for key in raw:
            if key not in _MODEL_KEYS:
                raise OddsmithError(f"{mw}: unknown key {key!r}; keys are {', '.join(sorted(_MODEL_KEYS))}")
        hired = _resolve(R.hired_gun, _expect(raw["hired_gun"], str, f"{mw}: hired_gun"), mw) if "hired_gun" in raw else None
        if "rank" in raw:
            model_rank = _resolve(R.rank, _expect(raw["rank"], (str, int), f"{mw}: rank"), mw)
        elif hired is not None and hired.grit is not None:
            model_rank = hired.grit
        else:
            raise OddsmithError(f"{mw}: no rank given (Novice, Veteran or Hero)")
        weapons = tuple(_resolve(R.weapon, w, mw) for w in _names(raw.get("weapons"), f"{mw}: weapons"))
        # a Weapon with house stats is carried as the book's Weapon; battle_weapons() applies the stats
        gear_items = tuple(_resolve(R.gear, g, mw) for g in _names(raw.get("gear"), f"{mw}: gear"))
        horse_item = _resolve(R.horse, _expect(raw["horse"], str, f"{mw}: horse"), mw) if "horse" in raw else None
        skills = tuple(_resolve(R.skill, s, mw) for s in _names(raw.get("skills"), f"{mw}: skills"))
        role = _resolve(R.faction_role, _expect(raw["role"], str, f"{mw}: role"), mw) if "role" in raw else None
        powers = tuple(_resolve(R.arcane_power, p, mw) for p in _names(raw.get("powers"), f"{mw}: powers"))
        uniques = tuple(_resolve(R.unique_summoning, u, mw)
                        for u in _names(raw.get("unique_summonings"), f"{mw}: unique_summonings"))
        injuries = tuple(_resolve(R.lasting_injury, j, mw) for j in _names(raw.get("injuries"), f"{mw}: injuries"))
        exp = _expect(raw.get("exp", 0), int, f"{mw}: exp")
        if exp < 0:
            raise OddsmithError(f"{mw}: exp must not be negative, got {exp}")
        models.append(PosseModel(
            name=mname, rank=model_rank, weapons=weapons, gear=gear_items, horse=horse_item, skills=skills, role=role,
            hired_gun=hired, boss=_expect(raw.get("boss", False), bool, f"{mw}: boss"),
            arcanist=_expect(raw.get("arcanist", False), bool, f"{mw}: arcanist"), powers=powers, injuries=injuries,
            exp=exp, index=i, house_weapons=tuple(house.values()), unique_summonings=uniques))
    return Posse(name=name, models=tuple(models), faction=faction, method=method, dollar_limit=dollar_limit,
                 max_models=max_models, native_american=native, dracula=dracula, prices=prices, source=source,
                 house_weapons=house)


def read_posse(path: str | Path) -> Posse:
    """Read and parse a posse file (not yet validated: see :func:`load_posse`)."""
    p = Path(path)
    return posse_from_dict(parse_toml(read_text(p, what="posse file"), str(p)), str(p))


def sample_posse_names() -> list[str]:
    """Names of the shipped sample posses (one per Faction plus an unaligned one)."""
    folder = resources.files(SAMPLE_POSSE_PACKAGE) / SAMPLE_POSSE_FOLDER
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


def sample_posse_text(faction_name: str | R.Faction | None = None) -> tuple[str, str]:
    """(file name, TOML text) of the shipped sample posse for a Faction (default: the unaligned one)."""
    if faction_name is None:
        slug = DEFAULT_SAMPLE
    else:
        slug = R.faction(faction_name).slug
    folder = resources.files(SAMPLE_POSSE_PACKAGE) / SAMPLE_POSSE_FOLDER
    entry = folder / f"{slug}.toml"
    if not entry.is_file():
        raise OddsmithError(f"no sample posse for {faction_name}; samples: {', '.join(sample_posse_names())}")
    return f"{slug}.toml", entry.read_text(encoding="utf-8")


TEMPLATE_FILE = "posse-template.toml"


def template_text() -> str:
    """A commented posse file to start from (``oddsmith shadows posse --template``): legal as it is."""
    return (resources.files(SAMPLE_POSSE_PACKAGE) / TEMPLATE_FILE).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=32)
def sample_posse(faction_name: str | R.Faction | None = None) -> Posse:
    """A shipped sample posse, validated; read once (a frozen posse): a report's battle pages ask for each again."""
    name, text = sample_posse_text(faction_name)
    posse = posse_from_dict(parse_toml(text, name), name)
    check_posse(posse)
    return posse


def load_posse(path: str | Path) -> Posse:
    """Read a posse file and check it against the posse-building rules."""
    posse = read_posse(path)
    check_posse(posse)
    return posse


def resolve_posse(posse: "Posse | str | os.PathLike[str]", *, check: bool = True) -> Posse:
    """Any posse the Python API takes, as a :class:`Posse` (one resolver for every posse-taking function).

    A :class:`Posse` is returned as it is; a path to a posse file (TOML) is
    read; the name of a shipped sample posse (``twilight-order``, a Faction
    name such as ``Twilight Order``, ``unaligned``) loads that sample; a TOML
    text (several lines) is parsed. Read posses are checked against the
    posse-building rules unless ``check`` is False.
    """
    if isinstance(posse, Posse):
        return posse
    if isinstance(posse, os.PathLike):
        read = read_posse(posse)
    elif isinstance(posse, str):
        spec = posse.strip()
        key = spec.lower().replace(" ", "-")
        if "\n" in spec or spec.startswith("["):
            read = posse_from_dict(parse_toml(posse, "<text>"), "<text>")
        elif spec == "-" or _is_file(spec) or spec.lower().endswith(".toml") or os.sep in spec:
            read = read_posse(spec)
        elif key in sample_posse_names() or _is_faction(spec):
            name, text = sample_posse_text(None if key == DEFAULT_SAMPLE else (key if key in sample_posse_names()
                                                                             else spec))
            read = posse_from_dict(parse_toml(text, name), name)
        else:
            raise OddsmithError(_unknown_posse(spec))
    else:
        raise OddsmithError("a posse is a Posse, a posse file, a sample posse name or a posse's TOML text")
    if check:
        check_posse(read)
    return read


def _closest_posse_name(spec: str) -> str:
    """' (did you mean ...?)' with the closest sample or Faction name, or ''."""
    import difflib

    names = {R.normalize_name(n): n for n in sample_posse_names()}
    for alias in R._FACTION_ALIASES:
        names.setdefault(R.normalize_name(alias), alias.lower())
    close = difflib.get_close_matches(R.normalize_name(spec), list(names), n=1, cutoff=0.6)
    return f" (did you mean {names[close[0]]!r}?)" if close else ""


_SAMPLES_HINT = "(or a Faction's name: twilight, red hand coven, ...)"


def _unknown_posse(spec: str) -> str:
    """The error for a posse spec that is no file, sample or Faction, with the closest sample or Faction name."""
    return (f"{spec}: no such posse file or sample posse{_closest_posse_name(spec)}; samples: "
            f"{', '.join(sample_posse_names())} {_SAMPLES_HINT}")


def load_posse_spec(spec: str | os.PathLike[str], what: str = "POSSE") -> Posse:
    """The one resolver of a posse the commands take: a posse file (``-``: stdin), a shipped sample posse
    by name (``twilight-order``), or a Faction's name or alias (``twilight``, ``Red Hand Coven``), read and
    checked against the posse-building rules. ``what`` names the option in the error for an unknown name."""
    try:
        return resolve_posse(spec if isinstance(spec, os.PathLike) else str(spec))
    except OddsmithError as exc:
        if str(exc).startswith(f"{str(spec).strip()}: no such posse file or sample posse"):
            raise OddsmithError(f"{what}: no posse file {str(spec).strip()!r} and no sample posse or Faction by "
                                f"that name{_closest_posse_name(str(spec))}; samples: "
                                f"{', '.join(sample_posse_names())} {_SAMPLES_HINT}") from None
        raise


def _is_file(spec: str) -> bool:
    try:
        return Path(spec).is_file()
    except (OSError, ValueError):
        return False


def _is_faction(spec: str) -> bool:
    try:
        R.faction(spec)
    except OddsmithError:
        return False
    return True


# ---------------------------------------------------------------------------
# Costs (Advanced method)
# ---------------------------------------------------------------------------


def item_price(posse: Posse, name: str) -> int | None:
    """Price of a Weapon, Gear or horse: the book's price list, else the posse file's house price."""
    book = R.price(name)
    if book is not None:
        return book
    return posse.prices.get(name)


def _free_weapons(model: PosseModel) -> list[str]:
    """Weapons that come with a Hired Gun (its listed arms are part of the hire)."""
    return list(model.hired_gun.weapons) if model.hired_gun else []


def cost_rows(posse: Posse) -> list[dict]:
    """One row per priced line of the posse: model, item, kind, cost (None when no price is known)."""
    posse = resolve_posse(posse)
    rows: list[dict] = []
    for m in posse.models:
        if m.hired_gun is not None:
            rows.append({"model": m.name, "item": f"Hired Gun: {m.hired_gun.name}", "kind": "model", "cost": m.hired_gun.hire})
        elif m is posse.boss and m.rank is R.Rank.HERO and posse.method is not R.PosseMethod.CAMPAIGN:
            rows.append({"model": m.name, "item": "Hero (the Boss, free)", "kind": "model", "cost": 0})
        elif m.rank in R.RECRUIT_COST:
            rows.append({"model": m.name, "item": m.rank.label, "kind": "model", "cost": R.RECRUIT_COST[m.rank]})
        else:
            rows.append({"model": m.name, "item": m.rank.label, "kind": "model", "cost": None})
        free = _free_weapons(m)
        for w in m.weapons:
            if w.name in free:
                free.remove(w.name)
                rows.append({"model": m.name, "item": f"{w.name} (comes with the Hired Gun)", "kind": "weapon", "cost": 0})
                continue
            rows.append({"model": m.name, "item": w.name, "kind": "weapon", "cost": item_price(posse, w.name)})
        for g in m.gear:
            rows.append({"model": m.name, "item": g.name, "kind": "gear", "cost": item_price(posse, g.name)})
        if m.horse is not None:
            rows.append({"model": m.name, "item": m.horse.name, "kind": "horse", "cost": item_price(posse, m.horse.name)})
        for k, s in enumerate(m.skills, start=1):
            rows.append({"model": m.name, "item": f"{s.name} (Skill {k})", "kind": "skill", "cost": R.skill_cost(m.rank, k)})
    return rows


def cost_table(posse: Posse) -> pd.DataFrame:
    """Priced lines of an Advanced posse (columns ``model``, ``item``, ``kind``, ``cost``)."""
    posse = resolve_posse(posse)
    return pd.DataFrame(cost_rows(posse), columns=["model", "item", "kind", "cost"])


def total_cost(posse: Posse) -> int:
    """Total $ of the posse; raises if an item has no price (book or [prices])."""
    posse = resolve_posse(posse)
    total = 0
    for row in cost_rows(posse):
        if row["cost"] is None:
            raise OddsmithError(f"model {row['model']!r}: no price for {row['item']}")
        total += row["cost"]
    return total


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Violation:
    """A broken posse-building rule: where, which rule, and what is wrong."""

    where: str
    rule: str
    message: str

    def __str__(self) -> str:
        r = R.POSSE_RULES[self.rule]
        return f"{self.where}: {self.message} (rule {self.rule}: {r.text}; {r.section})"


def validate(posse: Posse) -> list[Violation]:
    """Every posse-building rule the posse breaks, in file order (empty: the posse is legal)."""
    posse = resolve_posse(posse, check=False)
    out: list[Violation] = []
    here = f"posse {posse.name!r}"

    def bad(where: str, rule: str, message: str) -> None:
        out.append(Violation(where, rule, message))

    models = posse.models
    n = len(models)
    hired = [m for m in models if m.hired_gun is not None]
    method = posse.method

    # --- composition and size ---------------------------------------------------------------
    flagged_boss = [m for m in models if m.boss]
    if len(flagged_boss) > 1:
        bad(here, "one-hero-boss", f"{len(flagged_boss)} models are marked boss: {', '.join(m.name for m in flagged_boss)}")
    for m in flagged_boss:
        if m.hired_gun is not None:
            bad(m.where, "hired-gun-boss", "a Hired Gun cannot be the Boss")
    if method is R.PosseMethod.CAMPAIGN:
        vets = [m for m in models if m.rank is R.Rank.VETERAN and m.hired_gun is None]
        novices = [m for m in models if m.rank is R.Rank.NOVICE and m.hired_gun is None]
        heroes = [m for m in models if m.rank is R.Rank.HERO]
        if len(vets) != 1 or len(novices) != 5 or heroes or hired:
            bad(here, "one-hero-boss", f"a new Campaign Posse is one Veteran and five Novices, found {len(vets)} Veteran(s), "
                f"{len(novices)} Novice(s), {len(heroes)} Hero(es), {len(hired)} Hired Gun(s)")
        if posse.boss is not None and posse.boss.rank is not R.Rank.VETERAN:
            bad(posse.boss.where, "one-hero-boss", "the Boss of a new Campaign Posse is its Veteran")
    else:
        heroes = [m for m in models if m.rank is R.Rank.HERO and m.hired_gun is None]
        if len(heroes) != 1:
            bad(here, "one-hero-boss", f"needs exactly one Hero (the Boss), found {len(heroes)}")
        boss = posse.boss
        if boss is not None and boss.rank is not R.Rank.HERO:
            bad(boss.where, "one-hero-boss", f"the Boss must be the posse's Hero, this model is a {boss.rank.label}")
    if method is R.PosseMethod.BASIC:
        limit = posse.max_models if posse.max_models is not None else n
        for m in hired:
            bad(m.where, "basic-trade", "the Basic method has no Hired Guns")
        vets = sum(1 for m in models if m.rank is R.Rank.VETERAN and m.hired_gun is None)
        novices = sum(1 for m in models if m.rank is R.Rank.NOVICE and m.hired_gun is None)
        slots = vets * R.BASIC_NOVICES_PER_VETERAN + novices
        if slots > limit - 1:
            bad(here, "basic-trade", f"{vets} Veteran(s) and {novices} Novice(s) take {slots} Novice places, but a posse of "
                f"at most {limit} has {limit - 1} besides its Hero")
        if n > limit:
            bad(here, "posse-size", f"{n} models, over the agreed maximum of {limit}")
        # the book recommends 6-10 models (BASIC_POSSE_SIZE) but any agreed maximum is legal
    elif method is R.PosseMethod.ADVANCED:
        low, high = R.ADVANCED_POSSE_SIZE
        if not low <= n <= high:
            bad(here, "posse-size", f"{n} models; an Advanced posse has {low} to {high}")
        if len(hired) * 3 > n:
            bad(here, "hired-gun-third", f"{len(hired)} Hired Guns among {n} models; at most {n // 3}")
    if n > R.MAX_POSSE_MODELS:
        bad(here, "posse-size", f"{n} models; a posse has at most {R.MAX_POSSE_MODELS}")

    # --- Hired Guns -------------------------------------------------------------------------
    seen_hg: dict[str, PosseModel] = {}
    for m in hired:
        hg = m.hired_gun
        assert hg is not None
        if hg.name in seen_hg:
            bad(m.where, "hired-gun-once", f"{hg.name} is already in the posse ({seen_hg[hg.name].name!r})")
        seen_hg[hg.name] = m
        if hg.grit is None or hg.hire is None:
            bad(m.where, "no-price", f"this rulebook text gives no Rank or Hire fee for the {hg.name}")
        elif m.rank is not hg.grit:
            bad(m.where, "hired-gun-once", f"a {hg.name} is a {hg.grit.label}, not a {m.rank.label}")
        if hg.faction_only is not None and posse.faction is not hg.faction_only:
            bad(m.where, "hired-gun-faction", f"the {hg.name} can only be hired by {hg.faction_only.value} posses")
        if hg.supernatural_campaign_only and not posse.dracula:
            bad(m.where, "supernatural-gear", f"the {hg.name} is a Supernatural Hired Gun (Dracula's America rules only)")
        if m.role is not None:
            bad(m.where, "faction-roles", f"a Hired Gun cannot be a {m.role.name}")

    # --- weapons, gear, skills per model ----------------------------------------------------
    weapon_owners: dict[str, list[PosseModel]] = {}
    marked_cards: list[PosseModel] = []
    dynamite_sticks = 0
    for m in models:
        if not m.weapons:
            bad(m.where, "one-weapon", "has no Weapon")
        if len(m.weapons) > R.MAX_WEAPONS_PER_MODEL:
            bad(m.where, "three-weapons", f"has {len(m.weapons)} Weapons, at most {R.MAX_WEAPONS_PER_MODEL}")
        for w in {w.name for w in m.weapons}:
            weapon_owners.setdefault(w, []).append(m)
        if m.hired_gun is not None and m.hired_gun.name == "Carpathian Guard":
            others = [w.name for w in m.weapons if w.name not in m.hired_gun.weapons]
            if others:
                bad(m.where, "hired-gun-once", f"the Carpathian Guard can never use other Weapons ({', '.join(others)})")
        for w in m.weapons:
            if w.only_for is not None and (m.hired_gun is None or m.hired_gun.name != w.only_for):
                bad(m.where, "hired-gun-once", f"the {w.name} is used only by the {w.only_for}")
            if w.native_americans_only and not posse.native_american:
                bad(m.where, "native-american", f"the {w.name} is for Native Americans only (set native_american = true)")
            if method is R.PosseMethod.CAMPAIGN and w.table is not R.WeaponTable.BASIC:
                bad(m.where, "basic-weapons-only", f"the {w.name} is a Special Weapon")
        slot_gear = [g for g in m.gear if g.takes_slot] + ([m.horse] if m.horse else [])
        if len(slot_gear) > R.MAX_GEAR_PER_MODEL:
            bad(m.where, "three-gear", f"has {len(slot_gear)} items of Gear and horses, at most {R.MAX_GEAR_PER_MODEL}")
        horses = [g for g in m.gear if g.kind is R.GearKind.HORSE] + ([m.horse] if m.horse else [])
        if len(horses) > R.MAX_HORSES_PER_MODEL:
            bad(m.where, "one-horse", f"has {len(horses)} horses")
        if method is R.PosseMethod.CAMPAIGN and (m.gear or m.horse or m.skills):
            bad(m.where, "basic-weapons-only", "a new Campaign Posse buys Weapons only (no Gear, horses or Skills)")
        if method is R.PosseMethod.BASIC and m.skills:
            bad(m.where, "basic-trade", "the Basic method buys no Skills")
        names = [s.name for s in m.skills]
        for s in set(names):
            if names.count(s) > 1:
                bad(m.where, "skill-once", f"knows {s} {names.count(s)} times")
        granted = set(m.role.skills if m.role else ()) | set(m.hired_gun.skills if m.hired_gun else ())
        for s in names:
            if s in granted:
                bad(m.where, "skill-once", f"already has {s} from being a {(m.role or m.hired_gun).name}")
        gear_names = [g.name for g in m.gear]
        if "Marked Cards" in gear_names:
            marked_cards.extend([m] * gear_names.count("Marked Cards"))
        dynamite_sticks += gear_names.count("Dynamite")
        if gear_names.count("Vial of Nitro") > 1:
            bad(m.where, "unique-gear", "carries more than one Vial of Nitro")
        if "Vial of Nitro" in gear_names and horses:
            bad(m.where, "unique-gear", "the bearer of a Vial of Nitro cannot ride any kind of Horse")
        rifles = sum(1 for w in m.weapons if w.weapon_class is R.WeaponClass.RIFLE)
        if gear_names.count("Telescopic Sight") > rifles:
            bad(m.where, "unique-gear", f"{gear_names.count('Telescopic Sight')} Telescopic Sight(s) need as many Rifle-Class "
                f"Weapons, it has {rifles}")
        for g in m.gear:
            # the Vessel is Supernatural only while possessed, when it has no Gear (The Congregation)
            if g.non_supernatural_only and m.supernatural and not m.is_vessel:
                bad(m.where, "unique-gear", f"{g.name} can only be taken by a non-Supernatural model")
            if g.kind is R.GearKind.SUPERNATURAL and not posse.dracula:
                bad(m.where, "supernatural-gear", f"{g.name} is Supernatural Gear (Dracula's America rules only)")
        if method is R.PosseMethod.ADVANCED:
            for g in [*m.gear, *([m.horse] if m.horse else [])]:
                if item_price(posse, g.name) is None:
                    bad(m.where, "no-price", f"the Item Price List of this rulebook text gives no price for {g.name}; "
                        f"give one under [prices]")
            free = _free_weapons(m)
            for w in m.weapons:
                if w.name in free:
                    free.remove(w.name)
                    continue
                if item_price(posse, w.name) is None:
                    bad(m.where, "no-price", f"the Item Price List of this rulebook text gives no price for the {w.name}; "
                        f"give one under [prices]")

    for wname, owners in weapon_owners.items():
        if wname != R.UNLIMITED_WEAPON and len(owners) > R.MAX_MODELS_SHARING_A_WEAPON:
            bad(owners[R.MAX_MODELS_SHARING_A_WEAPON].where, "two-per-weapon",
                f"{len(owners)} models have a {wname} ({', '.join(o.name for o in owners)}); at most two")
    if len(marked_cards) > 1:
        bad(marked_cards[1].where, "unique-gear", "a posse may only have one Marked Cards")
    if method is R.PosseMethod.BASIC and dynamite_sticks > R.BASIC_DYNAMITE_PER_POSSE:
        bad(here, "one-dynamite", f"{dynamite_sticks} sticks of Dynamite; a Basic posse may have one")

    # --- Arcanists and Powers ---------------------------------------------------------------
    arcanists = [m for m in models if m.is_arcanist and not (m.hired_gun and m.hired_gun.arcanist)]
    if len(arcanists) > R.ARCANISTS_PER_POSSE:
        bad(arcanists[1].where, "one-arcanist", f"{len(arcanists)} Arcanists: {', '.join(a.name for a in arcanists)}")
    for m in models:
        if m.is_arcanist:
            if m.hired_gun is not None and not m.hired_gun.arcanist:
                bad(m.where, "one-arcanist", "a Hired Gun cannot become an Arcanist")
            free_arcanist = (m.role is not None and m.role.arcanist) or (m.hired_gun is not None and m.hired_gun.arcanist)
            if not free_arcanist and R.gear("Grimoire") not in m.gear:
                bad(m.where, "one-arcanist", "becomes an Arcanist only by being given a Grimoire (add it to its gear)")
            want = len(m.hired_gun.powers) if (m.hired_gun and m.hired_gun.arcanist) else R.ARCANIST_STARTING_POWERS
            names = [p.name for p in m.powers]
            if len(set(names)) != len(names):
                bad(m.where, "arcanist-powers", "lists the same Power twice")
            if not want <= len(set(names)) <= R.ARCANIST_MAX_POWERS:
                bad(m.where, "arcanist-powers", f"knows {len(set(names))} Powers; an Arcanist starts with {want} "
                    f"(at most {R.ARCANIST_MAX_POWERS})")
            if m.hired_gun and m.hired_gun.arcanist:
                for p in m.hired_gun.powers:
                    if p not in names:
                        bad(m.where, "arcanist-powers", f"the {m.hired_gun.name} knows {p}")
            if m.role and m.role.required_power and m.role.required_power not in names:
                bad(m.where, "faction-roles", f"a {m.role.name} must take {m.role.required_power} as one of its Powers")
        elif m.powers:
            bad(m.where, "arcanist-powers", "lists Powers but is not an Arcanist (set arcanist = true and give it a Grimoire)")
        if m.unique_summonings:
            if not m.is_arcanist or "Summon" not in [p.name for p in m.powers]:
                bad(m.where, "unique-summoning", "lists unique Summonings but is not an Arcanist who knows Summon")
            for e in m.unique_summonings:
                if e.summoned_by != posse.faction.value:
                    bad(m.where, "unique-summoning", f"the {e.name} can be Summoned by {e.summoned_by} Arcanists only")
            types = [e.entity_class for e in m.unique_summonings]
            for t in set(types):
                if types.count(t) > 1:
                    bad(m.where, "unique-summoning", f"lists {types.count(t)} unique Summonings that count as a {t} "
                        f"Entity; a posse may only have one of each type of Entity at a time")

    # --- Factions ---------------------------------------------------------------------------
    fac = posse.faction
    if fac is not R.Faction.NONE and not posse.dracula:
        bad(here, "dracula-factions", f"it joins {fac.value} but sets dracula = false (leave dracula out, or drop "
            f"the faction)")
    if fac in R.NATIVE_AMERICAN_ONLY_FACTIONS and not posse.native_american:
        bad(here, "native-american", f"only Native American Posses may join {fac.value} (set native_american = true)")
    if fac in R.NOT_NATIVE_AMERICAN_FACTIONS and posse.native_american:
        bad(here, "native-american", f"Native American Posses can never join {fac.value}")
    roles: dict[str, list[PosseModel]] = {}
    for m in models:
        if m.role is None:
            continue
        roles.setdefault(m.role.name, []).append(m)
        if m.role.faction is not fac:
            bad(m.where, "faction-roles", f"a {m.role.name} belongs to {m.role.faction.value}, the posse is "
                f"{'unaligned' if fac is R.Faction.NONE else fac.value}")
        if m.role.boss_only and m is not posse.boss:
            bad(m.where, "faction-roles", f"the {m.role.name} is the posse's Boss")
        if m.role.not_boss and m is posse.boss:
            bad(m.where, "faction-roles", f"a {m.role.name} can never be the Boss")
    for role in R.FACTION_ROLES.values():
        if role.faction is not fac:
            continue
        have = roles.get(role.name, [])
        if role.exactly is not None and len(have) != role.exactly:
            who = "one model" if role.exactly == 1 else f"{role.exactly} models"
            hint = f'give {who} role = "{role.name}"' if len(have) < role.exactly else "keep only that many"
            bad(here, "faction-roles", f"{fac.value} needs exactly {role.exactly} {role.name}(s), found {len(have)} "
                f"({hint})")
        elif len(have) > role.at_most:
            bad(here, "faction-roles", f"at most {role.at_most} {role.name}(s), found {len(have)}")
    if fac is R.Faction.SKINWALKER_TRIBES:
        walkers = [m for m in models if m.role is not None and m.role.name.startswith("Skinwalker")]
        if len(walkers) != R.SKINWALKERS_PER_POSSE:
            bad(here, "faction-roles", f"the Skinwalker Tribes need exactly {R.SKINWALKERS_PER_POSSE} Skinwalkers, "
                f"found {len(walkers)}")
    return out


def check_posse(posse: Posse) -> None:
    """Raise :class:`OddsmithError` naming the first broken rule (and how many more there are)."""
    posse = resolve_posse(posse, check=False)
    problems = validate(posse)
    over = dollar_limit_violation(posse)
    if over is not None:
        problems.insert(0, over)
    if problems:
        more = f" (and {len(problems) - 1} more problem{'s' if len(problems) > 2 else ''})" if len(problems) > 1 else ""
        raise OddsmithError(f"{posse.source}: {problems[0]}{more}")


def spent(posse: Posse) -> int | None:
    """Dollars the posse spends under its method: the Advanced total, a new Campaign Posse's Weapons, None for Basic."""
    posse = resolve_posse(posse)
    if posse.method is R.PosseMethod.ADVANCED:
        return total_cost(posse)
    if posse.method is R.PosseMethod.CAMPAIGN:
        return campaign_cost(posse)
    return None


def dollar_limit(posse: Posse) -> int | None:
    """The posse's Dollar Limit: its own (Advanced), $22 (new Campaign Posse), None (Basic)."""
    posse = resolve_posse(posse)
    if posse.method is R.PosseMethod.ADVANCED:
        return posse.dollar_limit
    if posse.method is R.PosseMethod.CAMPAIGN:
        return R.CAMPAIGN_STARTING_DOLLARS
    return None


def dollar_limit_violation(posse: Posse) -> Violation | None:
    """The dollar-limit Violation, if the posse is over it (None also when some price is unknown)."""
    posse = resolve_posse(posse)
    limit = dollar_limit(posse)
    if limit is None:
        return None
    try:
        total = spent(posse)
    except OddsmithError:
        return None  # an unpriced item: validate() names it
    if total is not None and total > limit:
        what = "its Weapons cost" if posse.method is R.PosseMethod.CAMPAIGN else "costs"
        return Violation(f"posse {posse.name!r}", "dollar-limit", f"{what} ${total}, over its ${limit} Dollar Limit")
    return None


def campaign_cost(posse: Posse) -> int:
    """Weapons bought by a new Campaign Posse out of its $22."""
    posse = resolve_posse(posse)
    total = 0
    for m in posse.models:
        for w in m.weapons:
            cost = R.price(w.name)
            if cost is None:
                raise OddsmithError(f"{m.where}: the Item Price List of this rulebook text gives no price for the {w.name}")
            total += cost
    return total


# ---------------------------------------------------------------------------
# ---------------------------------------------------------------------------
# Summary
# ---------------------------------------------------------------------------


def roster_table(posse: Posse) -> pd.DataFrame:
    """One row per model: name, rank, die, boss, role, weapons, gear, skills, and its standing dice effects."""
    posse = resolve_posse(posse)
    rows = []
    for m in posse.models:
        rows.append({
            "model": m.name, "rank": m.rank.label, "die": m.rank.die_name, "boss": m is posse.boss,
            "role": m.role.name if m.role else (f"Hired Gun: {m.hired_gun.name}" if m.hired_gun else ""),
            "weapons": ", ".join(w.name for w in m.weapons),
            "gear": ", ".join([g.name for g in m.gear] + ([m.horse.name] if m.horse else [])),
            "skills": ", ".join(s.name for s in m.all_skills),
            "shoot_dice": m.shoot_dice, "fight_dice": m.fight_dice, "save_modifier": m.save_modifier,
            "boilerplate": m.boilerplate, "supernatural": m.supernatural, "infamy": m.infamy,
        })
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------
# Weapons in a game
# ---------------------------------------------------------------------------

FIGHT_WEAPON = "a Fight weapon"


def shootable(weapon: R.Weapon) -> str | None:
    """Why a Weapon has no shooting table here, or None when it has one."""
    if weapon.fire_corridor:
        return "fires a fire corridor (Fire Corridors), not a Shooting Test"
    if weapon.weapon_class is None and not weapon.band_save and not weapon.stats_known:
        return FIGHT_WEAPON
    if not weapon.stats_known:
        return "the rulebook text gives no ranges or Jam Die for it"
    return None


def untabulated_weapons(posse: Posse) -> list[tuple[str, str, str]]:
    """(model, weapon, reason) for every carried Weapon that gets no shooting table: the Weapons a model
    does not use in a game (:meth:`PosseModel.unused_weapons`) and Fight Weapons."""
    posse = resolve_posse(posse)
    out = []
    for m in posse.models:
        unused = dict(m.unused_weapons())
        for w in dict.fromkeys(m.weapons):
            why = unused.get(w) or (FIGHT_WEAPON if shootable(w) == FIGHT_WEAPON else None)
            if why is not None:
                out.append((m.name, w.name, why))
    return out


# ---------------------------------------------------------------------------
# Odds per model: in oddsmith.shadows.posse_odds, importable from here
# ---------------------------------------------------------------------------

_ODDS_NAMES = frozenset({"TARGET_RANKS", "RANGE_BANDS", "SHOOTING_COLUMNS", "ACTION_COLUMNS", "FIGHT_COLUMNS",
                         "SUMMARY_COLUMNS", "shooter_of", "fighter_of", "shooting_table", "fight_table",
                         "summary_table"})


def __getattr__(name: str):
    """The odds tables (:mod:`oddsmith.shadows.posse_odds`, which imports this module) by their old names here."""
    if name in _ODDS_NAMES:
        from oddsmith.shadows import posse_odds
        return getattr(posse_odds, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
