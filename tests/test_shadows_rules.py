"""The Shadows of the West rules model: book tables, book examples, lookups."""
from fractions import Fraction

import pytest

from oddsmith.errors import OddsmithError
from oddsmith.rules import shadows as R


# --- Grit -------------------------------------------------------------------------------------


@pytest.mark.parametrize("text,expected", [
    ("Novice", R.Rank.NOVICE), ("novice", R.Rank.NOVICE), ("D6", R.Rank.NOVICE), ("d6", R.Rank.NOVICE),
    ("VETERAN", R.Rank.VETERAN), ("d8", R.Rank.VETERAN), (8, R.Rank.VETERAN),
    ("Hero", R.Rank.HERO), ("D10", R.Rank.HERO), (" hero ", R.Rank.HERO),
])
def test_rank_lookup(text, expected):
    assert R.rank(text) is expected


def test_unknown_rank_suggests_closest():
    with pytest.raises(OddsmithError, match=r"unknown rank 'Vetran' \(did you mean 'Veteran'\?\)"):
        R.rank("Vetran")
    with pytest.raises(OddsmithError, match="unknown rank 'D12'"):
        R.rank("D12")


def test_grit_dice_and_shaken():
    assert [r.die for r in (R.Rank.NOVICE, R.Rank.VETERAN, R.Rank.HERO)] == [6, 8, 10]
    # "So a Veteran would roll a D6 instead of a D8"; minimum D6; Lead-Belly ignores the penalty
    assert R.grit_die("Veteran", shaken=True) == 6
    assert R.grit_die("Hero", shaken=True) == 8
    assert R.grit_die("Novice", shaken=True) == 6
    assert R.grit_die("Hero", shaken=True, lead_belly=True) == 10
    assert R.Rank.NOVICE < R.Rank.VETERAN < R.Rank.HERO
    assert R.Rank.NOVICE.higher() is R.Rank.VETERAN and R.Rank.HERO.higher() is None


@pytest.mark.parametrize("sides,faces", [(3, 6), (4, 8), (5, 10)])
def test_halved_dice_are_uniform(sides, faces):
    dist = R.halved_die_distribution(sides)
    assert dist == {k: Fraction(1, sides) for k in range(1, sides + 1)}
    # brute force: halve every face of the big die, rounding up
    counts = {}
    for f in range(1, faces + 1):
        counts[(f + 1) // 2] = counts.get((f + 1) // 2, 0) + 1
    assert {k: Fraction(c, faces) for k, c in counts.items()} == dist


def test_halved_die_unknown():
    with pytest.raises(OddsmithError, match="D7"):
        R.halved_die_distribution(7)


# --- Tests ------------------------------------------------------------------------------------


def test_dice_modifiers_never_below_one_die():
    assert R.dice_to_roll(3) == 3
    assert R.dice_to_roll(3, +1, +1) == 5
    assert R.dice_to_roll(3, -1, -1, -1, -1) == 1
    assert R.dice_to_roll(1, -2) == 1
    with pytest.raises(OddsmithError, match="at least 1"):
        R.dice_to_roll(0)
    with pytest.raises(OddsmithError):
        R.dice_to_roll(-2, +5)


def test_success_on_five_plus():
    assert R.SUCCESS_ON == 5
    assert [R.is_success(s) for s in range(1, 11)] == [False] * 4 + [True] * 6
    assert R.success_chance(6) == Fraction(1, 3)
    assert R.success_chance(8) == Fraction(1, 2)
    assert R.success_chance(10) == Fraction(3, 5)


def test_reroll_readings_and_blessing():
    assert R.DEFAULT_REROLL_READING is R.RerollReading.B
    assert R.RerollReading.B.chained and not R.RerollReading.A.chained
    assert R.reroll_reading("A") is R.RerollReading.A
    assert R.blessing("Curse") is R.Blessing.CURSE and R.blessing(None) is R.Blessing.NONE
    with pytest.raises(OddsmithError, match="re-roll reading"):
        R.reroll_reading("c")


def test_test_rules_base_dice():
    assert R.TESTS[R.TestKind.SHOOTING].base_dice == 3
    assert R.TESTS[R.TestKind.FIGHT].base_dice == 3
    assert R.TESTS[R.TestKind.RECOVERY].base_dice == 3
    assert R.TESTS[R.TestKind.BOTTLE_CHECK].base_dice == 3 and not R.TESTS[R.TestKind.BOTTLE_CHECK].modified
    for kind in (R.TestKind.DISENGAGE, R.TestKind.SPOTTING, R.TestKind.REACTION, R.TestKind.NERVE):
        assert R.TESTS[kind].base_dice == 1
    assert R.TESTS[R.TestKind.DYNAMITE_THROW].base_dice == 1 and not R.TESTS[R.TestKind.DYNAMITE_THROW].modified


# --- Shooting ---------------------------------------------------------------------------------


def test_shoot_modifiers_table():
    table = {m.value.name: m.dice for m in R.SHOOT_MODIFIERS_TABLE}
    assert table == {"Target has Cover": -1, "Target at Long Range": -1, "Back-Shooter": +1,
                     "Target at Short Range": +1, "Shooter Elevated": +1}
    assert R.RangeBand.SHORT.dice_modifier == 1 and R.RangeBand.MEDIUM.dice_modifier == 0
    assert R.RangeBand.LONG.dice_modifier == -1


def test_fight_modifiers_table():
    assert [m.dice for m in R.FIGHT_MODIFIERS_TABLE] == [+1, -1, -1]
    assert R.FightModifier.WOLF_FORM.dice == 2 and R.FightModifier.MEAN.dice == 1


BOOK_WEAPONS = {
    # name: (S, M, L, Jam, class)
    "Pistol": (4, 8, 12, 10, "Pistol"),
    "Carbine": (6, 12, 18, 10, "Rifle"),
    "Shotgun": (4, 8, 12, 10, "Shotgun"),
    "Bow": (6, 12, 18, 10, None),
    "Heavy Pistol": (4, 8, 12, 8, "Pistol"),
    "Sixgun": (4, 8, 12, 6, "Pistol"),
    "LeMat Pistol": (4, 8, 12, 8, "Pistol"),
    "Repeater Rifle": (6, 12, 18, 6, "Rifle"),
}


@pytest.mark.parametrize("name", list(BOOK_WEAPONS))
def test_weapons_tables(name):
    w = R.weapon(name)
    s, m, l, jam, cls = BOOK_WEAPONS[name]
    assert (w.short, w.medium, w.long, w.jam_die) == (s, m, l, jam)
    assert (w.weapon_class.value if w.weapon_class else None) == cls


def test_weapon_special_rules():
    assert R.weapon("Sixgun").shots_per_action == 2
    assert R.weapon("Repeater Rifle").shots_per_action == 2
    assert R.weapon("Pistol").shots_per_action == 1
    shotgun = R.weapon("shotgun")
    assert [shotgun.dice_modifier(b) for b in R.RangeBand] == [2, 0, -2]
    bow = R.weapon("bow")
    assert [bow.save_modifier(b) for b in R.RangeBand] == [0, 1, 2] and bow.native_americans_only
    assert [R.weapon("Heavy Pistol").save_modifier(b) for b in R.RangeBand] == [-1, 0, 0]
    assert R.weapon("lemat").once_per_game_sawn_off
    assert R.weapon("Sawn-Off Shotgun").fire_corridor
    # the Item Price List
    assert {n: R.weapon(n).cost for n in ("Pistol", "Shotgun", "Carbine", "Rifle", "Bow")} == \
        {"Pistol": 2, "Shotgun": 5, "Carbine": 3, "Rifle": 5, "Bow": 2}


def test_unpriced_and_unlisted_weapons_say_so():
    rifle = R.weapon("Rifle")
    assert rifle.cost == 5 and not rifle.stats_known and rifle.jam_die is None
    assert R.weapon("Sixgun").cost is None
    with pytest.raises(OddsmithError, match="no ranges"):
        rifle.band_at(5)


def test_range_bands_and_telescopic_sight():
    pistol = R.weapon("Pistol")
    assert pistol.band_at(4) is R.RangeBand.SHORT
    assert pistol.band_at(4.5) is R.RangeBand.MEDIUM  # partway between: the higher band
    assert pistol.band_at(8) is R.RangeBand.MEDIUM
    assert pistol.band_at(12) is R.RangeBand.LONG
    assert pistol.band_at(12.5) is None
    carbine = R.weapon("Carbine")
    # "a Carbine with a Telescopic Sight attached has a Long Range of 13-24" rather than 13-18""
    assert carbine.range_of(R.RangeBand.LONG) == (12, 18)
    assert carbine.range_of(R.RangeBand.LONG, telescopic_sight=True) == (12, 24)
    assert carbine.band_at(24, telescopic_sight=True) is R.RangeBand.LONG
    assert carbine.band_at(24) is None
    assert R.range_band("s") is R.RangeBand.SHORT and R.range_band("LONG") is R.RangeBand.LONG


def test_jam_chance():
    assert R.jam_chance(10) == Fraction(2, 5)
    assert R.jam_chance(8) == Fraction(1, 2)
    assert R.jam_chance(6) == Fraction(2, 3)


# --- Saves and Damage -------------------------------------------------------------------------


def test_save_table():
    assert [R.save_target(s) for s in range(1, 9)] == [5, 6, 7, 8, 9, 10, 10, 10]
    with pytest.raises(OddsmithError):
        R.save_target(0)


def test_damage_table_and_book_examples():
    assert [R.damage_for(k) for k in range(1, 8)] == [R.Damage.SHAKEN] * 2 + [R.Damage.DOWNED] * 2 + [R.Damage.CASUALTY] * 3
    # "if required to make a 6+ Save and you rolled a 4, your model would be Shaken"
    assert R.save_result(4, 6) is R.Damage.SHAKEN
    # "a -1 Save Modifier means a score of 5 actually counts as a 4"
    assert R.save_result(5, 5) is None and R.save_result(5, 5, -1) is R.Damage.SHAKEN
    assert R.save_result(1, 10) is R.Damage.CASUALTY
    assert R.save_result(3, 7) is R.Damage.DOWNED


def test_shaken_again_is_downed():
    S, D = R.ModelState, R.Damage
    assert R.apply_damage(S.STANDING, D.SHAKEN) is S.SHAKEN
    assert R.apply_damage(S.SHAKEN, D.SHAKEN) is S.DOWNED
    assert R.apply_damage(S.STANDING, D.DOWNED) is S.DOWNED
    assert R.apply_damage(S.SHAKEN, D.CASUALTY) is S.CASUALTY
    assert D.SHAKEN.worse() is D.DOWNED and D.DOWNED.worse() is D.CASUALTY


def test_boilerplate_and_bear_hug_numbers():
    assert R.BOILERPLATE_CANCELS == 1 and R.gear("Boilerplate").cancels_successes == 1
    assert R.BEAR_HUG_MARGIN == 2 and R.BEAR_FORM_WIN_SAVE_MODIFIER == -1


# --- Fight ------------------------------------------------------------------------------------


@pytest.mark.parametrize("att,dfn,result,margin", [
    ([5, 6, 1], [5, 1, 1], R.FightResult.ATTACKER_WINS, 1),
    ([1, 2, 3], [5, 6, 7], R.FightResult.DEFENDER_WINS, 3),
    ([5, 2, 1], [6, 3, 1], R.FightResult.DEFENDER_WINS, 1),   # 1-1, the defender's 6 is the highest die
    ([4, 2, 1], [3, 3, 1], R.FightResult.ATTACKER_WINS, 1),   # 0-0, highest die still decides
    ([5, 4, 1], [5, 2, 2], R.FightResult.DRAW, 0),            # equal highest die: a Draw
    ([10, 5, 5], [8, 8, 8], R.FightResult.ATTACKER_WINS, 1),  # 3-3, a D10's 10 beats an 8
    ([7, 5, 1], [7, 6, 2], R.FightResult.DRAW, 0),
])
def test_fight_result(att, dfn, result, margin):
    assert R.fight_result(att, dfn) == (result, margin)


def test_shove_example():
    # the Deputy wins by 2 and Shoves the Outlaw 2"
    assert R.shove_distance(2) == 2
    assert R.shove_distance(3, target_on_larger_base=True) == 1
    with pytest.raises(OddsmithError):
        R.shove_distance(0)


# --- Recovery Phase ---------------------------------------------------------------------------


def test_recovery_results():
    assert R.recovery_result(0) is R.RecoveryResult.CASUALTY
    assert R.recovery_result(1) is R.recovery_result(2) is R.RecoveryResult.REMAINS_DOWNED
    assert R.recovery_result(3) is R.recovery_result(5) is R.RecoveryResult.STANDS_SHAKEN
    assert R.RECOVERY_FRIEND_IN_CONTACT == 1


def test_bottle_check_example():
    # Stuart's Posse started with nine models; with four on their feet it must check
    assert R.bottle_check_required(9, 4)
    assert not R.bottle_check_required(9, 5)
    assert R.BOTTLE_CHECK_BOSS_DICE == 3 and R.BOTTLE_CHECK_STAND_IN_DICE == 1


# --- Falling, Dynamite, fire corridors ---------------------------------------------------------


@pytest.mark.parametrize("inches,save", [(0, 5), (2, 5), (3, 5), (3.9, 5), (4, 6), (5, 6), (6, 7), (7.5, 7), (8, 8)])
def test_falling_book_example(inches, save):
    # "a model falls 4". The player must make a Save of 6+. If a model falls 5", it would still make a 6+ Save."
    assert R.falling_save_target(inches) == save


def test_dynamite():
    assert R.dynamite_throw(5) is R.DynamiteOutcome.ON_TARGET
    assert [R.dynamite_throw(s) for s in (1, 2, 3, 4)] == [
        R.DynamiteOutcome.ON_THROWER, R.DynamiteOutcome.TOWARDS_THROWER, R.DynamiteOutcome.AWAY_FROM_THROWER,
        R.DynamiteOutcome.DUD]
    assert R.DYNAMITE_BLAST_SAVE == 7 and R.DYNAMITE_BLAST_RADIUS == 3 and R.DYNAMITE_THROW_INCHES == 8
    assert R.FIRE_CORRIDOR_SAVE == 5 and R.FIRE_CORRIDOR_HALF_WIDTH == 1


# --- Skills, gear, powers, factions -----------------------------------------------------------


def test_skill_tables_complete():
    for lst in R.SkillList:
        assert sorted(s.d6 for s in R.SKILL_LISTS[lst].values()) == [1, 2, 3, 4, 5, 6]
    assert R.random_skill("shooting", 6).name == "Deadeye"
    assert R.random_skill("Fighting", 5).name == "Tough"
    assert R.random_skill("gumption", 5).name == "Lead-Belly"
    assert R.skill("Deadeye").shoot_dice == 1 and R.skill("Mean").fight_dice == 1
    assert R.skill("Tough").save_modifier == 1 and R.skill("Bull-Rush").charge_win_save_modifier == -1


@pytest.mark.parametrize("typed,name", [
    ("trick-shooter", "Trick Shooter"), ("ORNERY", "'Ornery"), ("'ornery", "'Ornery"), ("lead belly", "Lead-Belly"),
    ("nerves_of_steel", "Nerves of Steel"), ("trigger happy", "Trigger-Happy"),
])
def test_skill_lookup(typed, name):
    assert R.skill(typed).name == name


def test_every_name_finds_itself():
    for table, fn in ((R.WEAPONS, R.weapon), (R.SKILLS, R.skill), (R.GEAR, R.gear), (R.ARCANE_POWERS, R.arcane_power),
                      (R.ALL_HIRED_GUNS, R.hired_gun), (R.FACTION_ROLES, R.faction_role)):
        for name in table:
            assert fn(name).name == name
            assert fn(name.upper()).name == name
    for f in R.Faction:
        assert R.faction(f.value) is f and R.faction(f.slug) is f


def test_unknown_names_suggest():
    with pytest.raises(OddsmithError, match=r"unknown weapon 'Pistl' \(did you mean 'Pistol'\?\)"):
        R.weapon("Pistl")
    with pytest.raises(OddsmithError, match=r"unknown skill 'Deadeyes' \(did you mean 'Deadeye'\?\)"):
        R.skill("Deadeyes")
    with pytest.raises(OddsmithError, match=r"unknown gear 'Whisky' \(did you mean 'Whiskey'\?\)"):
        R.gear("Whisky")
    with pytest.raises(OddsmithError, match="unknown faction"):
        R.faction("Illuminati")


def test_gear_prices_and_effects():
    assert {n: R.gear(n).cost for n in ("Appaloosa Horse", "Horse", "Boilerplate", "Dynamite", "Lasso", "Marked Cards")} == \
        {"Appaloosa Horse": 15, "Horse": 10, "Boilerplate": 20, "Dynamite": 15, "Lasso": 3, "Marked Cards": 9}
    assert all(R.gear(n).uncommon for n in ("Appaloosa Horse", "Boilerplate", "Dynamite", "Marked Cards"))
    assert R.gear("Whiskey").shoot_dice == -1 and R.gear("Whiskey").cost is None
    assert R.gear("Derringer").fight_dice == 1
    assert R.gear("Snake Oil").recover_on_d6 == 4 and R.SNAKE_OIL_CHANCE == Fraction(1, 2)
    assert R.gear("Telescopic Sight").requires_weapon_class is R.WeaponClass.RIFLE
    assert R.gear("Silver Bullets").save_modifier_vs_supernatural == -1
    assert R.gear("Grimoire").casting_dice == 1 and not R.gear("Grimoire").takes_slot
    assert R.sale_price(2) == 1  # "you may sell a Pistol for $1"


def test_arcane_powers():
    diffs = {n: p.difficulties for n, p in R.ARCANE_POWERS.items()}
    assert diffs == {"Arcane Blast": (2,), "Banish": (1,), "Bless": (1,), "Curse": (1,), "Dispel": (2,),
                     "Faith Healing": (3,), "Immolate": (3,), "Scry": (1,), "Summon": (1, 2, 3), "Transfix": (2,),
                     "Warding Circle": (2,)}
    assert R.is_miscast([1, 2, 4]) and not R.is_miscast([2, 3, 4]) and not R.is_miscast([1, 1, 5])
    assert R.SUMMON_DIFFICULTY[3] == "Major Entity"


def test_faction_roles():
    crusader = R.faction_role("crusader")
    assert crusader.exactly == 2 and "Nerves of Steel" in crusader.skills and "Boilerplate" in crusader.gear
    assert R.faction_role("Zombi").skills == ("Lead-Belly", "Tough")
    assert R.faction_role("wolf").faction is R.Faction.SKINWALKER_TRIBES
    assert R.faction_role("Magister").required_power == "Summon"
    assert R.faction_role("Necromancer").required_power == "Faith Healing"
    assert R.revenants_distribution() == {2: Fraction(1, 3), 3: Fraction(1, 3), 4: Fraction(1, 3)}


# --- Campaign tables --------------------------------------------------------------------------


def test_injury_table():
    assert [R.injury(k) for k in range(1, 7)] == [R.Injury.DEAD, R.Injury.OLD_WOUND, R.Injury.ONE_EYED,
                                                  R.Injury.LIMP, R.Injury.WEAKENED, R.Injury.LAID_UP]
    assert all(R.injury(k) is R.Injury.NOT_LISTED for k in range(7, 11))
    with pytest.raises(OddsmithError):
        R.injury(11)
    assert R.lasting_injury("one-eyed") is R.Injury.ONE_EYED
    with pytest.raises(OddsmithError):
        R.lasting_injury("Laid-Up")


def test_advance_rules_and_example():
    # "a Novice with 2 EXP rolls a 5 ... allowing it to Advance"
    assert R.advances("Novice", 5, 2)
    assert not R.advances("Veteran", 6, 1)
    assert R.advances("Hero", 10, 0)
    assert [R.advance_result("Veteran", d) for d in range(1, 7)] == \
        [R.Advance.PREFERRED_SKILL] + [R.Advance.RANDOM_SKILL] * 4 + [R.Advance.RANK_UP]
    assert R.advance_result("Hero", 6) is R.Advance.RANDOM_SKILL


def test_income_and_encounter_example():
    # "if you rolled 3, 3, 4 and 5 you would earn $15 and the two 3s would indicate an Encounter — a Forgotten Cabin"
    roll = [3, 3, 4, 5]
    assert sum(roll) == 15
    assert R.encounter_sets(roll) == [(2, 3)]
    assert R.TWO_OF_A_KIND_ENCOUNTERS.entry(3).name == "Forgotten Cabin"
    assert R.encounter_sets([2, 2, 5, 5]) == [(2, 2), (2, 5)]
    assert R.encounter_sets([6, 6, 6, 1, 1]) == [(2, 1), (3, 6)]
    assert R.encounter_sets([4, 4, 4, 4, 4]) == [(4, 4)]
    assert R.income_dice(False) == 4 and R.income_dice(True) == 5


def test_recruitment_table_is_cumulative():
    assert R.recruits_available(1) == (0, 0)
    assert R.recruits_available(5) == (4, 0)
    # "if your score was a 6 you could Recruit 1 Veteran and up to 4 Novices. If your score was a 10, ..."
    assert R.recruits_available(6) == (4, 1)
    assert R.recruits_available(10) == (4, 3)
    assert R.RECRUIT_COST == {R.Rank.NOVICE: 4, R.Rank.VETERAN: 10}


def test_uncommon_search_example():
    # "Aaron rolls a D4, and scores a final result of 3, which is reduced to 2"
    sides, shift = R.UNCOMMON_SEARCH[R.Rank.VETERAN]
    assert sides == 4 and 3 + shift == 2
    assert R.UNCOMMON_SEARCH[R.Rank.NOVICE] == (3, -1) and R.UNCOMMON_SEARCH[R.Rank.HERO] == (5, -1)


def test_hired_guns():
    assert {n: (h.hire, h.retainer, h.grit) for n, h in R.HIRED_GUNS.items()} == {
        "Doc": (8, 2, R.Rank.NOVICE), "Moonshiner": (12, 3, R.Rank.NOVICE), "Preacher": (6, 2, R.Rank.NOVICE)}
    assert R.hired_gun("carpathian guard").grit is R.Rank.VETERAN
    assert R.hired_gun("Templar").hire is None


def test_skill_cost_book_example():
    # "I pay $4 to buy a Veteran the Trick-Shooter Skill ... Hawkeye ... $6 ($4 + $2) ... Deadeye, for a further $7"
    assert [R.skill_cost("Veteran", k) for k in (1, 2, 3)] == [4, 6, 7]
    assert R.skills_cost("Veteran", 3) == 17
    assert [R.skill_cost("Novice", k) for k in (1, 2, 3, 4)] == [2, 4, 5, 6]
    assert R.skill_cost("Hero", 1) == 6


def test_infamy_book_examples():
    # "a Veteran with the Gunslinger and Fearsome Skills has an Infamy of 2 + 1 + 1 = 4"
    assert R.model_infamy("Veteran", 2) == 4
    # three wins, six models: Hero with Fearsome, two Veterans (one Gunslinger), three Novices: 3 + 6 + 4 + 5 + 3 = 21
    models = [("Hero", 1), ("Veteran", 1), ("Veteran", 0), ("Novice", 0), ("Novice", 0), ("Novice", 0)]
    assert R.posse_infamy(models, wins=3) == 21
    assert R.model_infamy("Novice", 0, arcanist=True) == 2


@pytest.mark.parametrize("diff,bonus", [(0, (0, 0)), (1, (0, 0)), (2, (3, 1)), (3, (3, 1)), (5, (5, 2)), (8, (7, 2)),
                                        (11, (9, 3)), (12, (12, 3)), (15, (12, 3)), (16, (15, 4)), (40, (15, 4))])
def test_underdog_table(diff, bonus):
    assert R.underdog_bonus(diff) == bonus


def test_events_tables():
    assert R.UNEXPECTED_EVENTS.entry(4).name == "Bad Omen"
    assert R.UNEXPECTED_EVENTS.entry(6).name == "Lucky Find" and R.UNEXPECTED_EVENTS.entry(6).effect is None
    assert R.SUPERNATURAL_EVENTS.entry(5).name == "Arcane Storm"
    assert not R.SUPERNATURAL_EVENTS.listed(6)
    assert R.UNWELCOME_GUESTS.entry(10).name == "Vampire Ancient"
    assert R.SCENARIOS.entry(5).name == "Showdown"
    with pytest.raises(OddsmithError):
        R.UNWELCOME_GUESTS.entry(11)


# --- putting a shot or a Fight Test together --------------------------------------------------


def test_shooting_dice():
    assert R.shooting_dice("Pistol", "short") == 4
    assert R.shooting_dice("Pistol", "medium") == 3
    assert R.shooting_dice("Pistol", "long", cover=True) == 1
    assert R.shooting_dice("Shotgun", "short") == 5 and R.shooting_dice("Shotgun", "long") == 1
    assert R.shooting_dice("Carbine", "medium", skills=["Deadeye"], back_shooter=True, elevated=True) == 6
    assert R.shooting_dice("Pistol", "long", cover=True, small_target=True, whiskey=True, injuries=["One-Eyed"]) == 1
    # Trick Shooter ignores one of Long Range / Cover with a Rifle-Class Weapon only
    assert R.shooting_dice("Carbine", "long", cover=True, skills=["Trick Shooter"]) == 2
    assert R.shooting_dice("Carbine", "medium", skills=["Trick Shooter"]) == 3
    assert R.shooting_dice("Pistol", "long", skills=["Trick Shooter"]) == 2


def test_shot_save_modifier():
    assert R.shot_save_modifier("Bow", "long") == 2
    assert R.shot_save_modifier("Heavy Pistol", "short", target_skills=["Tough"]) == 0
    assert R.shot_save_modifier("Pistol", "short", silver_bullets=True, target_supernatural=True) == -1
    assert R.shot_save_modifier("Pistol", "short", silver_bullets=True) == 0


def test_fight_dice():
    assert R.fight_dice() == 3
    assert R.fight_dice(charging=True, skills=["Mean"]) == 5
    assert R.fight_dice(outnumbered_by=2) == 1
    assert R.fight_dice(outnumbered_by=2, skills=["'Ornery"]) == 3
    assert R.fight_dice(fortified_defender=True, outnumbered_by=3, injuries=["Weakened"]) == 1
    assert R.fight_dice(wolf_form_attacking=True) == 5
    assert R.fight_dice(skills=["Close Work"], close_work_pistols=3) == 5
    assert R.fight_dice(skills=["Close Work"], close_work_pistols=2, derringer=True) == 5
    assert R.fight_dice(skills=["Close Work"], close_work_pistols=1, derringer=True) == 5


def test_uncommon_items_are_the_ones_the_book_names():
    # Item Price List: "Appaloosa Horse*", "Boilerplate*", "Dynamite*", "Marked Cards*" ("* Uncommon Item");
    # "Searching for Uncommon Items": "two Uncommon Items ... a stick of Dynamite and a Bottle of Snake Oil".
    assert set(R.UNCOMMON_ITEMS) == {"Appaloosa Horse", "Boilerplate", "Dynamite", "Marked Cards", "Snake Oil"}
    assert R.gear("snake oil").uncommon and R.gear("Dynamite").uncommon
    assert not any(g.uncommon for n, g in R.GEAR.items() if n not in R.UNCOMMON_ITEMS)
    assert not any(w.uncommon for w in R.WEAPONS.values())  # the book marks no Weapon with *
    assert {n for n, e in R.ITEM_PRICE_LIST.items() if e.uncommon} == set(R.UNCOMMON_ITEMS) - {"Snake Oil"}
