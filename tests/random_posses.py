"""Random legal Shadows posses for the kernel-against-reference tests (test_shadows_battle, test_shadows_table)."""
from __future__ import annotations

import random
from typing import Mapping, Sequence

from oddsmith.shadows import posse as P

WEAPONS = ["Pistol", "Carbine", "Shotgun", "Sixgun", "Repeater Rifle", "Heavy Pistol"]
SKILLS = ["Deadeye", "Trigger-Happy", "Gunslinger", "Gunsmith", "Trick Shooter", "Tough", "Hard to Kill",
          "Nerves of Steel", "Lead-Belly", "Mean"]
LASTING_INJURIES = ["Old Wound", "Limp", "One-Eyed", "Weakened"]
HOUSE_PRICES = {"Sixgun": 6, "Repeater Rifle": 8, "Heavy Pistol": 4, "Telescopic Sight": 4}


def random_posse(rng: random.Random, name: str, *, skills: Sequence[str] = SKILLS,
                 prices: Mapping[str, int] = HOUSE_PRICES, derringer: float = 0.0, injuries: float = 0.0,
                 horses: float = 0.0, thrown: float = 0.0) -> P.Posse:
    """A legal Advanced posse of 3-7 models (and sometimes a Preacher) with random Weapons, ``skills`` and Gear
    (Boilerplate, one Dynamite, a Telescopic Sight; a Derringer with chance ``derringer``), house ``prices`` for the
    rest. With ``derringer=0`` no draw is made for it, so the older callers' posses stay as they were; likewise
    ``injuries``, each model's chance of one Lasting Injury that changes a battle (Old Wound, Limp, One-Eyed,
    Weakened); likewise ``horses``, each model's chance of riding a Horse or an Appaloosa (a Gear slot); likewise
    ``thrown``, each model's chance of carrying a Vial of Nitro (on foot), house-priced $5 (Blessed Water is
    Supernatural Gear: a Faction posse's)."""
    n = rng.randint(3, 7)
    shared: dict[str, int] = {}
    models = []
    dynamite = False
    for i in range(n):
        m = {"name": f"{name} {i}", "rank": "Hero" if i == 0 else rng.choice(["Novice", "Novice", "Veteran"])}
        ws: list[str] = []
        for _ in range(rng.randint(1, 3)):
            w = rng.choice(WEAPONS)
            if w != "Pistol" and (shared.get(w, 0) >= 2 or w in ws):
                w = "Pistol"
            if w != "Pistol":
                shared[w] = shared.get(w, 0) + 1
            ws.append(w)
        chosen = rng.sample(list(skills), rng.randint(0, 2))
        if "Gunslinger" in chosen and "Trigger-Happy" in chosen:
            chosen.remove("Trigger-Happy")
        gear = []
        if rng.random() < 0.2:
            gear.append("Boilerplate")
        if not dynamite and rng.random() < 0.3:
            gear.append("Dynamite")
            dynamite = True
        if rng.random() < 0.3 and any(w in ("Carbine", "Repeater Rifle") for w in ws):
            gear.append("Telescopic Sight")
        if derringer and rng.random() < derringer and len(gear) < 3:  # at most three items of Gear
            gear.append("Derringer")
        hurt = [rng.choice(LASTING_INJURIES)] if injuries and rng.random() < injuries else []
        ridden = {}
        if horses and rng.random() < horses and len(gear) < 3:
            ridden = {"horse": rng.choice(["Horse", "Appaloosa Horse"])}
        if thrown and not ridden and rng.random() < thrown and len(gear) < 3:
            gear.append("Vial of Nitro")
        models.append({**m, "weapons": ws, "skills": chosen, "gear": gear, "injuries": hurt, **ridden})
    if rng.random() < 0.3:
        models.append({"name": f"{name} preacher", "hired_gun": "Preacher", "weapons": ["Pistol"]})
    prices = {**prices, "Vial of Nitro": 5} if thrown else prices
    data = {"posse": {"name": name, "method": "advanced", "dollar_limit": 1000}, "prices": dict(prices),
            "model": models}
    posse = P.posse_from_dict(data, name)
    P.check_posse(posse)
    return posse
