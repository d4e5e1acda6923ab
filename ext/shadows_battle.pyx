# cython: language_level=3
"""Monte Carlo Shadows of the West battle, Game Turn by Game Turn, on a table or at one fixed range.

One trial is one game ("Anatomy of a Game"): Draw Phase (each side draws from
its own 54-card Deck, refreshing it from the Discard Pile when it runs out),
Action Phase (cards revealed in rounds, black before red, higher value first,
equal values Roll-Off, identical cards raise the Turn's one Event; Solo or
Dual Activations), Recovery Phase (Recovery Tests, Bottle Checks), for up to
``turns`` Game Turns. On the table (option ``movement`` 0, docs/shadows-battles.md)
each Action is chosen by the model's plan (battle_table.pxd: Moves, Charges,
Fights, Disengaging, Shooting with Cover per shot, Arcane Blast); at a fixed
range (``movement`` 1) every Action is a Shoot Action (battle_fixed.pxd), the
random numbers drawn exactly as before the table existed. The state and its
basic steps are in battle_game.pxd. Every rule number comes in from the rules
model through the wrapper (oddsmith.shadows.battle_plan); every model and
weapon comes in as plain integers (MODEL_COLUMNS, WEAPON_COLUMNS), weapons
sorted best first. Counts of outcomes are added into an int64 array (N_OUT)
so chunks from oddsmith.sampling add up. Each game draws from its own streams
keyed off the chunk's bit generator (trial_streams), and each model's Action
re-keys the dice, so that a changed posse replays the same games.
"""
from libc.stdint cimport uint64_t, uint32_t, int64_t, int32_t, int8_t, uint8_t
from libc.string cimport memcpy
from libc.stdlib cimport calloc, free

from numpy.random cimport bitgen_t
import numpy as _np

from shadows_common cimport *
from battle_game cimport *
from battle_table cimport *
from battle_gear cimport *
from battle_reactions cimport *
from battle_fixed cimport *
from battle_arcane cimport *
from battle_tokens cimport *
from battle_summon cimport *

cdef double WITHIN_EPS = 1e-6   # inches: distances within this of a limit count as at it (Contact, "within")

MODEL_COLUMNS = ("present", "die", "die_shaken", "rank", "boss", "save_mod", "cancel", "supernatural", "hard_to_kill",
                 "nerve_rerolls", "preacher", "trigger_happy", "gunslinger", "danger", "vp", "dynamite", "jam_rerolls",
                 "style", "desired", "fight_dice", "close_work", "derringer", "bull_rush", "ornery", "fearsome",
                 "fight_save", "hawkeye", "revenant", "arcane_blast", "slick", "whiskey", "snake_oil", "casts",
                 "quickdraw", "bushwhacker", "lookout", "move", "limp", "old_wound",
                 "summon", "banish", "concentrate", "unique_summoning", "grimoire_dice", "magister", "harbinger",
                 "beast_form", "beast_move", "beast_attack_dice", "beast_win_save", "beast_hug_margin", "base_mm",
                 "beast_base_mm", "feeds", "flying", "mount_move", "nitro", "blessed_water",
                 "lasso", "lasso_cover")
WEAPON_COLUMNS = ("usable", "dice", "jam_die", "shots", "save_mod", "silver", "pistol", "far",
                  "short_edge", "medium_edge", "long_edge", "short_dice", "medium_dice", "long_dice",
                  "short_dice_cover", "medium_dice_cover", "long_dice_cover", "short_save", "medium_save", "long_save",
                  "corridor", "once_corridor")
OPTION_COLUMNS = ("turns", "targets", "activation", "lone_gun", "reading", "distance", "dynamite_range", "blast_radius",
                  "blast_save", "critter_save", "events", "success_on", "one_face", "recovery_dice", "recovery_stand",
                  "boss_dice", "stand_in_dice", "scatter_die", "roll_off_die", "event_die", "movement", "terrain",
                  "table_size", "zone", "base", "move", "clearance", "charge_reach", "dust_range", "disengage_dice",
                  "disengage_save", "spotting_dice", "fight_dice", "charge_dice", "outnumbered_dice", "fearsome_dice",
                  "nerve_dice", "derringer_dice", "close_work_max", "bull_rush_save", "friend_recovery",
                  "arcane_range", "arcane_dice", "arcane_difficulty", "casting_dice", "revenant_die", "revenant_plus",
                  "revenants_a", "revenants_b", "spot_min", "whiskey_dice", "whiskey_move", "snake_oil_die",
                  "snake_oil_on",
                  "transfix_range", "transfix_difficulty", "transfix_dice", "immolate_range", "immolate_difficulty",
                  "immolate_save", "reaction_dice", "healing_difficulty",
                  "token_range", "bless_difficulty", "curse_difficulty", "dispel_difficulty",
                  "summon_range", "banish_range", "banish_difficulty", "entity_blast_dice",
                  "concentrate_dice", "unique_summoning_dice", "harbinger_range", "harbinger_dice",
                  "gun_pace", "human_return", "good_shot_dice", "good_shot",
                  "fortified_dice", "horse_die", "horse_rider_save", "mounted_base_mm", "nitro_fuse", "lookout_move",
                  "storm_dice", "light_dice", "corridor_half_width", "corridor_save", "big_target_mm",
                  "lasso_range", "lasso_drag", "lasso_big_drag", "fall_save", "lasso_plan", "base_mm")
HEAD_COLUMNS = ("a_wins", "b_wins", "draw", "a_bottles", "b_bottles", "a_wiped", "b_wiped", "turns", "turns_sq",
                "casualties_a", "casualties_a_sq", "casualties_b", "casualties_b_sq", "events", "events_sq",
                "events_turns", "a_first", "event_turn_1", "by_vp", "vp_a", "vp_b", "vp_a_sq", "vp_b_sq", "fights",
                "fights_sq", "fight_cas_a", "fight_cas_a_sq", "fight_cas_b", "fight_cas_b_sq", "pad")
PAIRED_FIGURES = ("a_wins", "casualties_b")
PAIR_SUMS = ("x", "y", "xy", "xx", "yy")
"""pair_out = for each PAIRED_FIGURES (x: the recorded run's per-game value, y: this run's) the sums PAIR_SUMS."""
RECORD_COLUMNS = PAIRED_FIGURES
TOUCH_COLUMNS = ("fight_dice", "close_work", "ornery", "fearsome", "bull_rush", "fight_save", "hard_to_kill",
                 "gunslinger", "save_mod", "hawkeye", "jam_rerolls", "nerve_rerolls", "die_shaken", "trigger_happy",
                 "lookout", "bushwhacker", "quickdraw")
TOUCH_BITS = (T_FIGHT_DICE, T_CLOSE_WORK, T_ORNERY, T_FEARSOME, T_BULL_RUSH, T_FIGHT_SAVE, T_HTK, T_GUNSLINGER,
              T_SAVE_MOD, T_HAWKEYE, T_JAM_RR, T_NERVE_RR, T_DIE_SHAKEN, T_TRIGGER, T_LOOKOUT, T_BUSHWHACKER,
              T_QUICKDRAW)
"""The MODEL_COLUMNS whose every read a game marks (battle_game.pxd, ``tracked``), and their bits in mc_battle's
``touched``."""
MAX_MODELS = MAXM
MAX_WEAPONS = MAXW
N_OUT = NHEAD + 6 * MAXM
"""out = HEAD_COLUMNS, then casualty[side][model], downed_at_end[side][model], fought[side][model] (side-major,
MAX_MODELS each; slots n..n+3 of a side with Revenants are its Revenants, slots ENTITY_SLOT..MAX_MODELS-1 its
Summoned Lesser, Minor and Major Entity: a game counts there when its Entity of that type became a Casualty, was
Downed at the end, Fought)."""
ENTITY_SLOT = ENT0

assert len(MODEL_COLUMNS) == NMC and len(WEAPON_COLUMNS) == NWC and len(OPTION_COLUMNS) == NOPT
assert len(HEAD_COLUMNS) == NHEAD


cdef int CARD_KEY[NCARDS]


cdef void _init_keys():
    """Activation order of each card id, smallest first: black before red, higher value first, Jokers last.

    Ids 0-51: suit = id // 13 (Spades, Clubs, Hearts, Diamonds), value = id % 13 + 2; 52 the black Joker,
    53 the red Joker (the wrapper checks this against the rules model's cards)."""
    cdef int c, colour, value
    for c in range(NCARDS):
        if c < 52:
            colour = (c // 13) // 2
            value = c % 13 + 2
        else:
            colour = c - 52
            value = 0
        CARD_KEY[c] = colour * 16 + (14 - value)


_init_keys()


def card_keys():
    """The kernel's activation keys per card id (for the wrapper's check against the rules model)."""
    return [CARD_KEY[c] for c in range(NCARDS)]


# ---------------------------------------------------------------------------
# Cards ("Activations", "Running Out of Cards")
# ---------------------------------------------------------------------------

cdef inline void shuffle(DiceStream *st, int *cards, int n) noexcept nogil:
    cdef int i, j, t
    for i in range(n - 1, 0, -1):
        j = <int>roll_range(st, i + 1)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t


cdef inline void sort_hand(int *h, int n) noexcept nogil:
    """Best card first (the policy plays its best card each round); equal keys by id (Spades before Clubs)."""
    cdef int i, j, c
    for i in range(1, n):
        c = h[i]
        j = i - 1
        while j >= 0 and (CARD_KEY[h[j]] > CARD_KEY[c] or (CARD_KEY[h[j]] == CARD_KEY[c] and h[j] > c)):
            h[j + 1] = h[j]
            j -= 1
        h[j + 1] = c


cdef inline void draw_hand(Game *g, int s, int k) noexcept nogil:
    """Draw k cards; when the Deck runs out, draw what you can, then shuffle the Discard Pile into a new Deck
    and go on drawing ("Running Out of Cards")."""
    cdef int i, j
    g.hand_n[s] = 0
    g.hand_pos[s] = 0
    if k > MAXHAND:
        k = MAXHAND
    for i in range(k):
        if g.deck_n[s] == 0:
            if g.disc_n[s] == 0:
                break
            for j in range(g.disc_n[s]):
                g.deck[s][j] = g.disc[s][j]
            g.deck_n[s] = g.disc_n[s]
            g.disc_n[s] = 0
            shuffle(&g.cards, &g.deck[s][0], g.deck_n[s])
        g.deck_n[s] -= 1
        g.hand[s][g.hand_n[s]] = g.deck[s][g.deck_n[s]]
        g.hand_n[s] += 1
    sort_hand(&g.hand[s][0], g.hand_n[s])


cdef inline int roll_off(DiceStream *st, int die) noexcept nogil:
    """Roll-Off between the two sides: each rolls the die, re-roll ties; 0 if side A wins ("Roll-Offs")."""
    cdef int a, b
    while True:
        a = roll_die(st, die)
        b = roll_die(st, die)
        if a != b:
            return 0 if a > b else 1


cdef int pick_model(Setup *p, Game *g, int s, int skip) noexcept nogil:
    """Most dangerous model of side s able to Activate (not Done, not Downed), other than ``skip``."""
    cdef int i, m, up = g.upmask[s]
    for i in range(p.n[s]):
        m = p.order[s][i]
        if m != skip and (up >> m) & 1 and not g.done[s][m]:
            return m
    return entity_pick(g, s, skip) if g.nm[s] == MAXM else -1   # Summoned Entities (battle_summon.pxd)


cdef inline int act(Setup *p, Game *g, int s, int m, int last, int solo_second, int prev, int *fired,
                    int *again) noexcept nogil:
    """One Action of model m: on the table by its plan (battle_table.table_action), else a Shoot Action. On the
    table a Passive model on Lookout may React first (battle_reactions.react), and DID_LOOKOUT puts m on Lookout.
    Concentrate: the first Action of the Activation with another to follow may be one; the next gains from it."""
    cdef int did, conc = CONC_NONE
    if p.opt[O_MOVEMENT] == MOVE_TABLE:
        if fired[0] & CONCENTRATED:
            conc = CONC_BONUS   # "If their second Action is to Cast": this Action only
        elif not (fired[0] & ACTED) and not last:
            conc = CONC_MAY
        fired[0] = (fired[0] & ~CONCENTRATED) | ACTED
        g.gs_pending = 0   # a "Good Shot!" waits for this Action only
        if g.nlook[1 - s]:
            react(p, g, s, m)   # Reactions to the declared Action come first (battle_table.react)
        # a Beast Form cannot "Cast Arcane Powers"
        if p.arcane[s][m] and not g.beast[s][m]:
            if p.mp[s][m][M_SUMMON] or p.mp[s][m][M_BANISH]:   # Summon, Banish (battle_summon.pxd)
                did = summon_action(p, g, s, m, fired, again, conc)
                if did != DID_NOTHING:
                    return did
            if p.mp[s][m][M_CASTS]:   # Arcane Powers (battle_arcane.pxd)
                did = cast_action(p, g, s, m, fired, again, conc)
                if did != DID_NOTHING:
                    return did
        did = table_action(p, g, s, m, last, solo_second, prev, fired, again)
        if did == DID_LOOKOUT:
            go_lookout(g, s, m)
        elif did == DID_MOVE or did == DID_CHARGE or did == DID_DISENGAGE or did == DID_CLEAR:
            g.moved[s][m] = g.act_id   # a Move Action (a Charge, a Disengage, clearing a Jam, Gear used in one)
        return did
    shoot_action(p, g, s, m, fired, again)
    return DID_SHOOT


cdef inline int slick(Setup *p, Game *g, int s, int m) noexcept nogil:
    """Slick, on the table: "When Activated, this model may roll one Grit Die. On a Success, it can make an
    additional Action this Activation" (policy: it always rolls; its own stretch of dice)."""
    cdef int one
    if not p.mp[s][m][M_SLICK] or p.opt[O_MOVEMENT] != MOVE_TABLE or not standing(g, s, m):
        return 0
    dice_segment(g, (<uint64_t>g.turn << 16) | (1 << 15) | (1 << 13) | (s << 11) | (m << 6))
    return roll_test(&g.st, cur_die(p, g, s, m), p.opt[O_T], 1, p.opt[O_READING], 0, p.opt[O_ONE_FACE], &one) > 0


cdef void revenants_act(Setup *p, Game *g, int s) noexcept nogil:
    """After their Boss's Actions each Revenant not Done makes one Action, then all are Done (Revenants)."""
    cdef int m, fired, again
    for m in range(p.n[s], g.nm[s] if g.nm[s] < ENT0 else ENT0):
        if g.on[s][m] and not g.done[s][m]:
            fired = 0
            again = 0
            act(p, g, s, m, 1, 0, DID_NOTHING, &fired, &again)
            g.done[s][m] = 1


cdef void activate(Setup *p, Game *g, int s, int cards_left) noexcept nogil:
    """One Activation of side s (Pass, Solo or Dual by the activation policy); the Revenants follow their Boss."""
    cdef int i, m, a, b = -1, eligible = 0, dual, fired, again, did, extra, up = g.upmask[s]
    for m in range(p.n[s]):
        if (up >> m) & 1 and not g.done[s][m]:
            eligible += 1
    if g.nm[s] == MAXM:
        eligible += entities_eligible(g, s)
    g.act_id += 1
    if eligible == 0:
        # only Downed models left to Activate: one is Done (policy: Downed models never crawl)
        for m in range(p.n[s]):
            if g.on[s][m] and not g.done[s][m]:
                g.done[s][m] = 1
                return
        if g.nm[s] == MAXM:
            entity_pass(g, s)
        return
    if p.opt[O_ACTIVATION] == ACT_SOLO:
        dual = 0
    elif p.opt[O_ACTIVATION] == ACT_DUAL:
        dual = eligible >= 2
    else:
        dual = eligible >= 2 and eligible > cards_left
    a = pick_model(p, g, s, -1)
    if dual:
        b = pick_model(p, g, s, a)
    if g.nlook[s]:   # "A model loses its Lookout Token at the start of its next Activation at no penalty"
        lookout_activated(g, s, a)
        lookout_activated(g, s, b)
    if dual:
        g.done[s][a] = 1
        g.done[s][b] = 1
        for i in range(2):
            m = a if i == 0 else b
            fired = 0
            again = 0
            did = DID_NOTHING
            extra = slick(p, g, s, m)
            if extra:
                did = act(p, g, s, m, 0, 0, DID_NOTHING, &fired, &again)
            act(p, g, s, m, 1, extra, did, &fired, &again)
    else:
        g.done[s][a] = 1
        fired = 0
        again = 0
        if slick(p, g, s, a):
            did = act(p, g, s, a, 0, 0, DID_NOTHING, &fired, &again)
            did = act(p, g, s, a, 0, 1, did, &fired, &again)
        else:
            did = act(p, g, s, a, 0, 0, DID_NOTHING, &fired, &again)
        act(p, g, s, a, 1, 1, did, &fired, &again)
    if p.rev[s] and (p.mp[s][a][M_BOSS] or (b >= 0 and p.mp[s][b][M_BOSS])):
        revenants_act(p, g, s)


cdef inline int eligible_for_event(Setup *p, Game *g, int s, int m, int not_engaged) noexcept nogil:
    return standing(g, s, m) and not (not_engaged and engaged(p, g, s, m))


cdef int random_model(Setup *p, Game *g, int *side, int not_engaged) noexcept nogil:
    """A random model on the table and not Downed (and, with ``not_engaged``, not in a Fight), from either posse;
    -1 if none."""
    cdef int s, m, count = 0, k
    for s in range(NSIDE):
        for m in range(g.nm[s]):
            if eligible_for_event(p, g, s, m, not_engaged):
                count += 1
    if count == 0:
        return -1
    k = <int>roll_range(&g.st, count)
    for s in range(NSIDE):
        for m in range(g.nm[s]):
            if eligible_for_event(p, g, s, m, not_engaged):
                if k == 0:
                    side[0] = s
                    return m
                k -= 1
    return -1


cdef void unexpected_event(Setup *p, Game *g) noexcept nogil:
    """Roll on the Unexpected Events table and apply what the battle allows ("Unexpected Events"): 'Ornery Critter!
    picks a model "not Downed or engaged", Bad Omen and Hero of the Hour one "not Downed"."""
    cdef int face = roll_die(&g.st, p.opt[O_EVENT_DIE]), code = p.event_code[face], s = 0, m, fired = 0, again = 0
    if code == EV_DUST or code == EV_GLOOM:
        g.dust = 1 if code == EV_DUST else 2   # Unnatural Gloom: non-Supernatural models only (battle_game.gloomy)
        g.nc_valid = 0
    elif code == EV_LIGHT:
        g.light = 1
    elif code == EV_STORM:
        g.storm = 1
    elif code == EV_CRITTER or code == EV_OMEN or code == EV_HERO:
        m = random_model(p, g, &s, code == EV_CRITTER and p.opt[O_MOVEMENT] == MOVE_TABLE)
        if m < 0:
            return
        if code == EV_CRITTER:
            hurt(p, g, s, m, save_roll(p, g, s, m, p.opt[O_CRITTER_SAVE], 0), -1)
        elif code == EV_OMEN:
            g.omen[s][m] = 1
        elif p.opt[O_MOVEMENT] == MOVE_TABLE:
            # "Activate for any one Action": one lone Action by its plan, as a Dual Action's, in an Activation of
            # its own (KERNEL-NOTES Q10)
            g.act_id += 1
            if g.nlook[s]:   # an Activation: "loses its Lookout Token at the start of its next Activation"
                lookout_activated(g, s, m)
            act(p, g, s, m, 1, 0, DID_NOTHING, &fired, &again)
        else:
            fired = 0
            shoot_action(p, g, s, m, &fired, &again)


cdef inline int all_done(Setup *p, Game *g) noexcept nogil:
    cdef int s, m
    for s in range(NSIDE):
        for m in range(p.n[s]):
            if g.on[s][m] and not g.done[s][m]:
                return 0
        if g.nm[s] == MAXM and entities_waiting(g, s):
            return 0
    return 1


cdef int action_phase(Setup *p, Game *g, int turn) noexcept nogil:
    """Rounds of revealed cards until no cards remain or every model is Done; returns which side Activated first."""
    cdef int s, first = -1, order0, k, rnd = 0
    cdef int plays[NSIDE]
    cdef int card[NSIDE]
    cdef int left[NSIDE]
    cdef int lone[NSIDE]
    for s in range(NSIDE):
        lone[s] = p.opt[O_LONE_GUN] and g.hand_n[s] == 1
    if lone[0] and lone[1]:
        lone[0] = 0
        lone[1] = 0
    while not all_done(p, g):
        for s in range(NSIDE):
            left[s] = g.hand_n[s] - g.hand_pos[s]
        for s in range(NSIDE):
            # Lone Gun: hold the single card until the other side has played out its Hand
            plays[s] = left[s] > 0 and not (lone[s] and left[1 - s] > 0)
        if not plays[0] and not plays[1]:
            break
        rnd += 1
        dice_segment(g, <uint64_t>turn * 256 + rnd)
        for s in range(NSIDE):
            if plays[s]:
                card[s] = g.hand[s][g.hand_pos[s]]
                g.hand_pos[s] += 1
                g.disc[s][g.disc_n[s]] = card[s]
                g.disc_n[s] += 1
        if plays[0] and plays[1]:
            if card[0] == card[1] and p.opt[O_EVENTS] and not g.event_this_turn:
                g.event_this_turn = 1
                unexpected_event(p, g)
            if CARD_KEY[card[0]] == CARD_KEY[card[1]]:
                order0 = roll_off(&g.st, p.opt[O_ROLLOFF_DIE])
            else:
                order0 = 0 if CARD_KEY[card[0]] < CARD_KEY[card[1]] else 1
            if first < 0:
                first = order0
            for k in range(NSIDE):
                s = order0 if k == 0 else 1 - order0
                activate(p, g, s, g.hand_n[s] - g.hand_pos[s] + 1)
        else:
            s = 0 if plays[0] else 1
            if first < 0:
                first = s
            activate(p, g, s, g.hand_n[s] - g.hand_pos[s] + 1)
    for s in range(NSIDE):
        while g.hand_pos[s] < g.hand_n[s]:
            g.disc[s][g.disc_n[s]] = g.hand[s][g.hand_pos[s]]
            g.disc_n[s] += 1
            g.hand_pos[s] += 1
    return first


cdef int recovery_and_bottle(Setup *p, Game *g, int s, int start) noexcept nogil:
    """Recovery Phase of side s ("The Recovery Phase"); 1 if the Posse Bottles Out."""
    cdef int m, f, succ, one, up = 0, roller, dice, rr = 0
    for m in range(g.nm[s]):
        g.done[s][m] = 0
        g.omen[s][m] = 0
        if not (g.on[s][m] and g.downed[s][m]):
            continue
        if tracked(p, g, s, m, M_HTK, T_HTK):
            succ = p.opt[O_RECOVERY_STAND]
        else:
            dice = p.opt[O_RECOVERY_DICE]
            if p.opt[O_MOVEMENT] == MOVE_TABLE:
                for f in range(g.nm[s]):
                    if f != m and standing(g, s, f) and measured2(g, s, m, s, f) <= p.contact2:
                        dice += p.opt[O_FRIEND_RECOVERY]   # "Friend in Contact"
                        break
            succ = roll_test(&g.st, cur_die(p, g, s, m), p.opt[O_T], light_dice(p, g, s, m, dice), p.opt[O_READING],
                             0, p.opt[O_ONE_FACE], &one)
        if succ == 0:
            g.on[s][m] = 0
            g.cas[s][m] = 1      # worth no Victory Points
            g.downed[s][m] = 0
            if p.mp[s][m][M_BOSS] and p.rev[s]:
                revenants_leave(p, g, s)
        elif succ >= p.opt[O_RECOVERY_STAND]:
            g.downed[s][m] = 0
            g.shaken[s][m] = 1
    if g.nm[s] == MAXM:
        summoned_alone(g, s)
    refresh_masks(g, s)
    for m in range(p.n[s]):
        if standing(g, s, m):
            up += 1
    if up > start // 2:
        return 0
    if up == 0:
        return 1     # nobody left standing to make the Check
    roller = bottle_roller(p, g, s)
    dice = p.opt[O_BOSS_DICE] if p.mp[s][roller][M_BOSS] else p.opt[O_STANDIN_DICE]
    if whiskey_on(g, s, roller):
        return 0     # Whiskey: "automatically passes all Nerve Tests ... (including Bottle Checks)" (battle_gear.pxd)
    rr = tracked(p, g, s, roller, M_NERVE_RR, T_NERVE_RR)
    for m in range(p.n[s]):
        if p.mp[s][m][M_PREACHER] and standing(g, s, m):
            rr += 1
            break
    succ = roll_test(&g.st, cur_die(p, g, s, roller), p.opt[O_T], light_dice(p, g, s, roller, dice),
                     p.opt[O_READING], rr, p.opt[O_ONE_FACE], &one)
    return 1 if succ == 0 else 0


cdef inline void deploy(Setup *p, Game *g, int s) noexcept nogil:
    """Showdown Deployment: the side's models take its zone's slots in Activation order (Revenants last)."""
    cdef int i, m
    for i in range(g.nm[s]):
        m = p.order[s][i]
        g.x[s][m] = p.slot_x[s][i]
        g.y[s][m] = p.slot_y[s][i]
        g.cmask[s][m] = 0


cdef inline void new_game_model(Setup *p, Game *g, int s, int m) noexcept nogil:
    """Model slot m of side s as a game starts: no tokens (Shaken, Downed, Done, Lookout, a Jam, Bad Omen), no
    Contacts, no Fight yet, its single-use items (Dynamite, the Derringer, Whiskey, Snake Oil) in hand. The caller
    puts it on the table or not."""
    g.on[s][m] = 0
    g.touch[s][m] = 0
    g.look[s][m] = 0
    g.downed[s][m] = 0
    g.shaken[s][m] = 0
    g.done[s][m] = 0
    g.cas[s][m] = 0
    g.jam[s][m] = 0
    g.omen[s][m] = 0
    g.dyn[s][m] = p.mp[s][m][M_DYNAMITE]
    g.nitro[s][m] = p.mp[s][m][M_NITRO]   # section 11b: played on the table only (0 with --movement none)
    g.water[s][m] = p.mp[s][m][M_WATER]
    g.once[s][m] = 0
    g.fought[s][m] = 0
    g.derringer[s][m] = p.mp[s][m][M_DERRINGER]
    g.fear[s][m] = 0
    g.moved[s][m] = 0
    g.cmask[s][m] = 0
    g.owner[s][m] = -1
    g.beast[s][m] = 0   # "A Skinwalker must begin each game in Human Form"
    g.mounted[s][m] = p.mp[s][m][M_MOUNT_MOVE] > 0 and p.opt[O_MOVEMENT] == MOVE_TABLE   # on horseback (section 11a)
    g.grow[s][m] = grow_of(p, g, s, m)   # its base as geometry (section 11d)
    gear_reset(p, g, s, m)


cdef inline void old_wounds(Setup *p, Game *g, int s) noexcept nogil:
    """Old Wound (Injury Table): "The model must roll one Grit Die before Deployment at the start of each game ... If
    the roll is Failed, the model begins that game already Shaken" (a stretch of dice of its own, only when a model of
    the side has one)."""
    cdef int m, one, segment = 0
    for m in range(p.n[s]):
        if p.mp[s][m][M_OLD_WOUND]:
            if not segment:
                dice_segment(g, <uint64_t>242 + s)
                segment = 1
            if roll_test(&g.st, p.mp[s][m][M_DIE], p.opt[O_T], 1, p.opt[O_READING], 0, p.opt[O_ONE_FACE], &one) == 0:
                g.shaken[s][m] = 1


# ---------------------------------------------------------------------------
# One pair of streams per game, so that two runs on one seed play game t on the same dice and cards
# ---------------------------------------------------------------------------

cdef uint64_t splitmix64(void *state) noexcept nogil:
    """SplitMix64 (Steele, Lea & Flood 2014): a cheap stream from one 64-bit key drawn off the chunk's PCG64."""
    cdef uint64_t *x = <uint64_t *>state
    cdef uint64_t z
    x[0] += <uint64_t>0x9E3779B97F4A7C15
    return mix64(x[0])


ctypedef struct TrialStreams:
    bitgen_t *chunk
    uint64_t key[2]
    bitgen_t gen[2]


cdef void trials_open(TrialStreams *ts, bitgen_t *chunk) noexcept nogil:
    cdef int i
    ts.chunk = chunk
    for i in range(2):
        ts.key[i] = 0
        ts.gen[i].state = &ts.key[i]
        ts.gen[i].next_uint64 = splitmix64
        ts.gen[i].next_uint32 = NULL
        ts.gen[i].next_double = NULL
        ts.gen[i].next_raw = NULL


cdef inline void trial_streams(TrialStreams *ts, Game *g) noexcept nogil:
    """Game t of a chunk draws its dice and its cards from two streams keyed by the chunk's draws 2t and 2t+1,
    whatever the games before it drew; the dice are re-keyed from the game's key at every round of cards, every
    model's Shoot Action and every Recovery Phase (dice_segment). So two runs on one seed, a posse and the same
    posse with one purchase, play game t on the same cards and the same dice for every model and stretch of play
    the purchase leaves alone (common random numbers: the paired differences of oddsmith.shadows.value)."""
    g.dice_seed = ts.chunk.next_uint64(ts.chunk.state)
    g.dice_key = &ts.key[0]
    ts.key[0] = g.dice_seed
    ts.key[1] = ts.chunk.next_uint64(ts.chunk.state)
    stream_open(&g.st, &ts.gen[0])
    stream_open(&g.cards, &ts.gen[1])


# ---------------------------------------------------------------------------
# A game's state at the start of a Game Turn, saved by the base run and taken up by a changed one
# ---------------------------------------------------------------------------

cdef Py_ssize_t SNAP_SIZE = sizeof(Game) + 2 * sizeof(uint64_t)
SNAP_BYTES = SNAP_SIZE
"""Bytes of one saved game (:func:`mc_battle`'s ``saves``): the Game, then its two streams' keys."""


cdef inline void save_game(const Game *g, const TrialStreams *ts, uint8_t *to) noexcept nogil:
    memcpy(to, g, sizeof(Game))
    memcpy(to + sizeof(Game), ts.key, 2 * sizeof(uint64_t))


cdef inline void restore_game(Game *g, TrialStreams *ts, const uint8_t *saved) noexcept nogil:
    """Game state ``saved`` (save_game) taken up by this run: its pointers are the saving run's, so they are set to
    this run's streams, whose keys are the saved ones."""
    memcpy(g, saved, sizeof(Game))
    memcpy(ts.key, saved + sizeof(Game), 2 * sizeof(uint64_t))
    g.dice_key = &ts.key[0]
    g.st.rng = &ts.gen[0]
    g.cards.rng = &ts.gen[1]


cdef void game_start(Setup *p, Game *g) noexcept nogil:
    """A game as it starts: the posses set up, Decks shuffled, the Revenants joined, the models deployed."""
    cdef int s, m, c, k
    g.act_id = 0
    g.fights = 0
    g.nc_valid = 0
    g.gs_pending = 0
    g.fuse = 0
    tokens_clear(g)   # no Bless or Curse token in play (battle_tokens.pxd)
    for s in range(NSIDE):
        g.nm[s] = p.n[s]
        g.fight_cas[s] = 0
        g.nlook[s] = 0
        for m in range(MAXM):   # every slot: the posse, Revenants, Summoned Entities
            new_game_model(p, g, s, m)
            g.on[s][m] = m < p.n[s]
        for c in range(NCARDS):
            g.deck[s][c] = c
        shuffle(&g.cards, &g.deck[s][0], NCARDS)
        g.deck_n[s] = NCARDS
        g.disc_n[s] = 0
        g.vp[s] = 0
    for s in range(NSIDE):
        if p.rev[s]:
            # "before deployment roll D3+1": that many Revenants join (their own stretch of dice)
            dice_segment(g, <uint64_t>240 + s)
            k = roll_die(&g.st, p.opt[O_REVENANT_DIE]) + p.opt[O_REVENANT_PLUS]
            for m in range(p.n[s], p.n[s] + k):
                g.on[s][m] = 1
            g.nm[s] = p.n[s] + k
        old_wounds(p, g, s)
        refresh_masks(g, s)
        if p.opt[O_MOVEMENT] == MOVE_TABLE:
            deploy(p, g, s)
    if p.opt[O_MOVEMENT] == MOVE_TABLE:
        for m in range(g.nm[0]):
            measure_row(g, 0, m)   # both sides deployed: every pair measured (md2)


cdef void play_game(Setup *p, Game *g, int64_t *out, int *res, int first_turn, uint8_t *saves,
                    const TrialStreams *ts, int *n_saved) noexcept nogil:
    """One game; adds its counts into ``out``; res[0] = 1 if side A wins, res[1] = side B's Casualties.

    ``first_turn`` 1: from the start. Above 1: ``g`` holds the game as that Game Turn starts (restore_game), and the
    game is played on from there (``out`` then misses the counts of the turns before: mc_battle does not keep them).
    ``saves`` (not NULL): the game as each Game Turn from the second on starts is saved there (save_game), one
    SNAP_SIZE after another, and ``n_saved`` set to how many."""
    cdef int s, m, c, turn, k, on_table, boss_on, first, events = 0, turns = 0, cas_a = 0, cas_b = 0
    cdef int win_a = 0
    cdef int bottled[NSIDE]
    cdef int wiped[NSIDE]
    cdef int out_[NSIDE]
    cdef int start[NSIDE]
    if saves != NULL:
        n_saved[0] = 0
    for s in range(NSIDE):
        start[s] = p.n[s]
        bottled[s] = 0
        wiped[s] = 0
    if first_turn <= 1:
        first_turn = 1
        game_start(p, g)
    for turn in range(first_turn, p.opt[O_TURNS] + 1):
        if saves != NULL and turn >= 2:
            save_game(g, ts, saves + (turn - 2) * SNAP_SIZE)
            n_saved[0] = turn - 1
        turns = turn
        g.turn = turn
        for s in range(NSIDE):
            for m in range(g.nm[s]):
                g.acts[s][m] = 0
        g.dust = 0
        g.light = 0   # Supernatural Events last "Until the end of this Game Turn"
        g.storm = 0
        g.nc_valid = 0
        g.event_this_turn = 0
        for s in range(NSIDE):
            on_table = 0
            boss_on = 0
            for m in range(p.n[s]):
                if g.on[s][m]:
                    on_table += 1
                    if p.mp[s][m][M_BOSS]:
                        boss_on = 1
            # Draw Phase: half the models on the table rounded up, +1 if the Boss is amongst them
            k = (on_table + 1) // 2 + (boss_on if on_table > 0 else 0)
            draw_hand(g, s, k)
        first = action_phase(p, g, turn)
        if turn == 1:
            if first == 0:
                out[C_A_FIRST] += 1
            if g.event_this_turn:
                out[C_EVENT_T1] += 1
        events += g.event_this_turn
        if g.ntok:
            tokens_clear(g)   # "the effects of all Powers cease at the start of this Game Turn's Recovery Phase"
        for s in range(NSIDE):
            dice_segment(g, <uint64_t>turn * 256 + 250 + s)
            bottled[s] = recovery_and_bottle(p, g, s, start[s])
            on_table = 0
            for m in range(p.n[s]):
                on_table += g.on[s][m]
            wiped[s] = on_table == 0
            if bottled[s] and not wiped[s]:
                for m in range(g.nm[s]):
                    g.on[s][m] = 0    # the whole Posse leaves the table: not Casualties
                refresh_masks(g, s)
            out_[s] = bottled[s] or wiped[s]
        if out_[0] or out_[1]:
            break
    if out_[0] and out_[1]:
        out[C_DRAW] += 1
    elif out_[1]:
        win_a = 1
    elif out_[0]:
        out[C_B_WINS] += 1
    else:
        out[C_BY_VP] += 1
        if g.vp[0] > g.vp[1]:
            win_a = 1
        elif g.vp[1] > g.vp[0]:
            out[C_B_WINS] += 1
        else:
            out[C_DRAW] += 1
    out[C_A_WINS] += win_a
    if bottled[0] and not wiped[0]:
        out[C_A_BOTTLES] += 1
    if bottled[1] and not wiped[1]:
        out[C_B_BOTTLES] += 1
    out[C_A_WIPED] += wiped[0]
    out[C_B_WIPED] += wiped[1]
    out[C_TURNS] += turns
    out[C_TURNS2] += turns * turns
    for m in range(g.nm[0] if g.nm[0] < ENT0 else ENT0):   # Summoned Entities are not counted (KERNEL-NOTES)
        cas_a += g.cas[0][m]
    for m in range(g.nm[1] if g.nm[1] < ENT0 else ENT0):
        cas_b += g.cas[1][m]
    out[C_CAS_A] += cas_a
    out[C_CAS_A2] += cas_a * cas_a
    out[C_CAS_B] += cas_b
    out[C_CAS_B2] += cas_b * cas_b
    res[0] = win_a
    res[1] = cas_b
    out[C_EVENTS] += events
    out[C_EVENTS2] += events * events
    out[C_EVENTS_TURNS] += events * turns
    out[C_VP_A] += g.vp[0]
    out[C_VP_B] += g.vp[1]
    out[C_VP_A2] += g.vp[0] * g.vp[0]
    out[C_VP_B2] += g.vp[1] * g.vp[1]
    out[C_FIGHTS] += g.fights
    out[C_FIGHTS2] += g.fights * g.fights
    out[C_FCAS_A] += g.fight_cas[0]
    out[C_FCAS_A2] += g.fight_cas[0] * g.fight_cas[0]
    out[C_FCAS_B] += g.fight_cas[1]
    out[C_FCAS_B2] += g.fight_cas[1] * g.fight_cas[1]
    for s in range(NSIDE):
        for m in range(g.nm[s]):
            out[NHEAD + s * MAXM + m] += g.cas[s][m]
            if g.on[s][m] and g.downed[s][m]:
                out[NHEAD + 2 * MAXM + s * MAXM + m] += 1
            out[NHEAD + 4 * MAXM + s * MAXM + m] += g.fought[s][m]


cdef inline double sq(double x) noexcept nogil:
    return x * x


cdef int load_setup(Setup *p, const int32_t[:, :, ::1] models, const int32_t[:, :, :, ::1] weapons,
                    const int32_t[::1] n_models, const int32_t[:, ::1] order, const int32_t[::1] options,
                    const int32_t[::1] save_table, const int32_t[::1] damage, const int32_t[::1] event_codes,
                    const int32_t[::1] dynamite_failed) except -1:
    """Check the wrapper's arrays against the kernel's limits and copy them into ``p``, with what the table needs
    worked out once: Activation-order positions, the Spotting policy per model, the deployment slots, Cover."""
    if models.shape[0] != NSIDE or models.shape[1] != MAXM or models.shape[2] != NMC \
            or weapons.shape[0] != NSIDE or weapons.shape[1] != MAXM or weapons.shape[2] != MAXW \
            or weapons.shape[3] != NWC or n_models.shape[0] != NSIDE or order.shape[0] != NSIDE \
            or order.shape[1] != MAXM or options.shape[0] != NOPT or save_table.shape[0] != MAX_TABLE \
            or damage.shape[0] != MAX_TABLE or event_codes.shape[0] != 16 or dynamite_failed.shape[0] != 8:
        raise ValueError("mc_battle: bad shapes")
    cdef int s, m, w, c, b, i, j, slots, used, sh
    cdef double chance, fail, cx, kx, ky
    cdef double key[NSLOTS]
    cdef double sx[NSLOTS]
    cdef double sy[NSLOTS]
    for c in range(NOPT):
        p.opt[c] = options[c]
    if not (1 <= p.opt[O_TURNS] <= 64 and 2 <= p.opt[O_T] <= 10 and 2 <= p.opt[O_EVENT_DIE] <= 15
            and 2 <= p.opt[O_ROLLOFF_DIE] <= MAX_FACES and 2 <= p.opt[O_SCATTER_DIE] <= MAX_FACES
            and 1 <= p.opt[O_RECOVERY_DICE] <= MAX_DICE and 1 <= p.opt[O_BOSS_DICE] <= MAX_DICE
            and 1 <= p.opt[O_STANDIN_DICE] <= MAX_DICE and 0 <= p.opt[O_MOVEMENT] <= 1
            and 0 <= p.opt[O_TERRAIN] <= 1000000 and 0 <= p.opt[O_TARGETS] <= 3
            and 1 <= p.opt[O_REVENANT_DIE] <= MAX_FACES and 0 <= p.opt[O_REVENANT_PLUS] <= 1
            and p.opt[O_REVENANT_DIE] + p.opt[O_REVENANT_PLUS] <= ENT0 - MAXPOSSE
            and 1 <= p.opt[O_FIGHT_DICE] <= MAX_DICE and 1 <= p.opt[O_CASTING_DICE] <= MAX_DICE
            and 1 <= p.opt[O_ARCANE_DICE] <= MAX_DICE and 1 <= p.opt[O_SPOT_DICE] <= MAX_DICE
            and 1 <= p.opt[O_NERVE_DICE] <= MAX_DICE and 1 <= p.opt[O_DISENGAGE_DICE] <= MAX_DICE
            and 0 < p.opt[O_BASE] and 0 < p.opt[O_ZONE] and 4 * p.opt[O_ZONE] <= 2 * p.opt[O_TABLE]
            and 0 <= p.opt[O_MOVE] and 0 <= p.opt[O_CLEARANCE] and 0 <= p.opt[O_BLAST_RADIUS] <= 100):
        raise ValueError("mc_battle: options outside the kernel's limits")
    if not (2 <= p.opt[O_OIL_DIE] <= MAX_FACES and 0 <= p.opt[O_WHISKEY_MOVE] <= p.opt[O_CHARGE_REACH]):
        raise ValueError("mc_battle: gear options outside the kernel's limits")
    if not (2 <= p.opt[O_HORSE_DIE] <= MAX_FACES and 1 <= p.opt[O_HORSE_RIDER_SAVE] <= MAX_TABLE
            and -MAX_DICE <= p.opt[O_FORTIFIED_DICE] <= 0 and 0 < p.opt[O_MOUNTED_BASE_MM]):
        raise ValueError("mc_battle: horse options outside the kernel's limits")
    if not 0 <= p.opt[O_BIG_TARGET_MM]:
        raise ValueError("mc_battle: big_target_mm must be 0 (off) or a base in mm")
    if not 0 <= p.opt[O_BASE_MM]:
        raise ValueError("mc_battle: base_mm must be 0 (every base standard) or the standard base in mm")
    if not (0 <= p.opt[O_LASSO_RANGE] and 0 <= p.opt[O_LASSO_DRAG] and 0 <= p.opt[O_LASSO_BIG_DRAG]
            and 1 <= p.opt[O_FALL_SAVE] <= MAX_TABLE and 0 <= p.opt[O_LASSO_PLAN] <= 1):
        raise ValueError("mc_battle: Lasso options outside the kernel's limits")
    if not 0 <= p.opt[O_NITRO_FUSE] <= MAX_TABLE:
        raise ValueError("mc_battle: the Nitro's fuse score is outside the kernel's limits")
    for s in range(NSIDE):
        p.n[s] = n_models[s]
        if not 1 <= p.n[s] <= MAXPOSSE:
            raise ValueError("mc_battle: a posse has 1..10 models")
        p.rev[s] = p.opt[O_REVENANTS_A + s] != 0
        used = p.n[s] + (p.opt[O_REVENANT_DIE] + p.opt[O_REVENANT_PLUS] if p.rev[s] else 0)
        for m in range(MAXM):
            p.order[s][m] = order[s, m]
            p.rank_of[s][m] = 0
            for c in range(NMC):
                p.mp[s][m][c] = models[s, m, c]
            if (m < used or (m >= ENT0 and p.mp[s][m][M_PRESENT])) and not (2 <= p.mp[s][m][M_DIE_SHAKEN] <= MAX_FACES and 2 <= p.mp[s][m][M_DIE] <= MAX_FACES):
                raise ValueError("mc_battle: bad Grit Die")
            if (m < used or (m >= ENT0 and p.mp[s][m][M_PRESENT])) and p.opt[O_MOVEMENT] == MOVE_TABLE and not (
                    p.opt[O_WHISKEY_MOVE] <= p.mp[s][m][M_MOVE] <= p.opt[O_TABLE]):
                raise ValueError("mc_battle: a model's Move must be at least Whiskey's cost and at most the table")
            if p.mp[s][m][M_BEAST] and not (1 <= p.mp[s][m][M_BEAST] <= 2 and 0 < p.mp[s][m][M_BEAST_MOVE] <= p.opt[O_TABLE]
                                            and 0 <= p.mp[s][m][M_BEAST_HUG] <= MAX_TABLE):
                raise ValueError("mc_battle: a Beast Form's Move must be positive and at most the table")
            if p.mp[s][m][M_MOUNT_MOVE] and not (p.opt[O_WHISKEY_MOVE] <= p.mp[s][m][M_MOUNT_MOVE] <= p.opt[O_TABLE]):
                raise ValueError("mc_battle: a mounted Move must be at least Whiskey's cost and at most the table")
            if not (0 <= p.mp[s][m][M_NITRO] <= 1 and 0 <= p.mp[s][m][M_WATER] <= 100
                    and 0 <= p.mp[s][m][M_DYNAMITE] <= 100):
                raise ValueError("mc_battle: a model carries one Vial of Nitro at most, and 0..100 Dynamite or Blessed "
                                 "Water")
            if not (0 <= p.mp[s][m][M_LASSO_COVER] <= p.mp[s][m][M_LASSO] <= MAX_DICE
                    and (p.mp[s][m][M_LASSO] == 0) == (p.mp[s][m][M_LASSO_COVER] == 0)):
                raise ValueError("mc_battle: a Lasso's dice are 1..MAX_DICE, in Cover no more than in the open")
            for w in range(MAXW):
                for c in range(NWC):
                    p.wp[s][m][w][c] = weapons[s, m, w, c]
                if p.wp[s][m][w][W_USABLE] and not (1 <= p.wp[s][m][w][W_DICE] <= MAX_DICE
                                                    and (p.wp[s][m][w][W_JAM] == 0
                                                         or 2 <= p.wp[s][m][w][W_JAM] <= MAX_FACES)
                                                    and 1 <= p.wp[s][m][w][W_SHOTS] <= 4):
                    raise ValueError("mc_battle: bad weapon row")
                if p.opt[O_MOVEMENT] == MOVE_TABLE and p.wp[s][m][w][W_USABLE]:
                    for b in range(3):
                        if not (1 <= p.wp[s][m][w][W_BDICE + b] <= MAX_DICE
                                and 1 <= p.wp[s][m][w][W_BCOVER + b] <= MAX_DICE
                                and 0 < p.wp[s][m][w][W_EDGE + b] <= 1000000
                                and (b == 0 or p.wp[s][m][w][W_EDGE + b - 1] < p.wp[s][m][w][W_EDGE + b]
                                     or (p.wp[s][m][w][W_CORRIDOR] and p.wp[s][m][w][W_EDGE + b - 1]
                                         == p.wp[s][m][w][W_EDGE + b]))):
                            raise ValueError("mc_battle: bad weapon band")
            # a Spotting Test is worth taking when it passes at least SPOTTING_MIN_CHANCE of the time
            for sh in range(2):
                c = p.mp[s][m][M_DIE_SHAKEN] if sh else p.mp[s][m][M_DIE]
                fail = (p.opt[O_T] - 1.0) / c if c >= p.opt[O_T] else 1.0
                if fail > 1.0:
                    fail = 1.0
                if p.mp[s][m][M_HAWKEYE]:
                    fail = fail * fail
                chance = 1.0 - fail
                p.spot_ok[s][m][sh] = c >= 2 and chance * 1000000.0 >= p.opt[O_SPOT_MIN] - 1e-6
        for i in range(used):
            if not 0 <= p.order[s][i] < used:
                raise ValueError("mc_battle: bad model order")
            p.rank_of[s][p.order[s][i]] = i
        for i in range(used, MAXM):   # the slots after: in slot order (Summoned Entities: Lesser, Minor, Major)
            p.order[s][i] = i
            p.rank_of[s][i] = i
        for i in range(used):
            for j in range(i):
                if p.order[s][i] == p.order[s][j]:
                    raise ValueError("mc_battle: bad model order")
    for c in range(16):
        p.event_code[c] = event_codes[c]
    for c in range(8):
        p.dyn_fail[c] = dynamite_failed[c]
    copy_rule_tables(save_table, damage, p.stab, p.dmg)
    # the table: slot centres 1, 3, 5, 7" from the corner (one base between neighbours), taken nearest the
    # table's centre first, ties by smaller x then smaller y; side B's mirrored
    p.base = p.opt[O_BASE] / 1000.0
    p.lo = p.base / 2
    p.hi = p.opt[O_TABLE] / 1000.0 - p.base / 2
    cx = p.opt[O_TABLE] / 2000.0
    slots = 0
    for i in range(4):
        for j in range(4):
            sx[slots] = p.base * (1 + 2 * i)
            sy[slots] = p.base * (1 + 2 * j)
            slots += 1
    for i in range(NSLOTS):
        key[i] = (sx[i] - cx) * (sx[i] - cx) + (sy[i] - cx) * (sy[i] - cx)
    for i in range(1, NSLOTS):   # insertion sort on (distance, x, y)
        kx = sx[i]
        ky = sy[i]
        chance = key[i]
        j = i - 1
        while j >= 0 and (key[j] > chance + 1e-9 or (abs(key[j] - chance) <= 1e-9 and (
                sx[j] > kx or (sx[j] == kx and sy[j] > ky)))):
            key[j + 1] = key[j]
            sx[j + 1] = sx[j]
            sy[j + 1] = sy[j]
            j -= 1
        key[j + 1] = chance
        sx[j + 1] = kx
        sy[j + 1] = ky
    for i in range(NSLOTS):
        p.slot_x[0][i] = sx[i]
        p.slot_y[0][i] = sy[i]
        p.slot_x[1][i] = p.opt[O_TABLE] / 1000.0 - sx[i]
        p.slot_y[1][i] = p.opt[O_TABLE] / 1000.0 - sy[i]
    p.cover_thr = (<uint64_t>p.opt[O_TERRAIN] * (<uint64_t>1 << 32) + 500000) // 1000000
    # "within" a distance includes it, up to rounding: a Move that stops exactly at a band's edge or at D* must land
    # inside it whatever the last bit of its arithmetic (the reference reads every "within" with the same WITHIN_EPS)
    p.contact2 = sq(p.base + WITHIN_EPS)
    p.clear = p.base + p.opt[O_CLEARANCE] / 1000.0
    p.clear2 = sq(p.clear)
    p.dust2 = sq(p.base + p.opt[O_DUST_RANGE] / 1000.0 + WITHIN_EPS)
    p.dyn2 = sq(p.base + p.opt[O_DYN_RANGE] + WITHIN_EPS)
    p.arcane2 = sq(p.base + p.opt[O_ARCANE_RANGE] / 1000.0 + WITHIN_EPS)
    p.lasso2 = sq(p.base + p.opt[O_LASSO_RANGE] / 1000.0 + WITHIN_EPS)
    for s in range(NSIDE):
        p.gun_posse[s] = 0
        for m in range(p.n[s]):
            if p.mp[s][m][M_STYLE] == STYLE_GUN:
                p.gun_posse[s] |= 1 << m
        for m in range(MAXM):
            p.desired2[s][m] = sq(p.base + p.mp[s][m][M_DESIRED] / 1000.0 + WITHIN_EPS)
            p.reach2[s][m] = sq(p.base + p.mp[s][m][M_MOVE] / 1000.0 + WITHIN_EPS)
            p.beast_reach2[s][m] = sq(p.base + p.mp[s][m][M_BEAST_MOVE] / 1000.0 + WITHIN_EPS)
            p.mount_reach2[s][m] = sq(p.base + p.mp[s][m][M_MOUNT_MOVE] / 1000.0 + WITHIN_EPS)
            p.move_in[s][m][0] = p.mp[s][m][M_MOVE] / 1000.0
            p.move_in[s][m][1] = p.mp[s][m][M_BEAST_MOVE] / 1000.0
            p.move_in[s][m][2] = p.mp[s][m][M_MOUNT_MOVE] / 1000.0
            p.desired_in[s][m] = p.mp[s][m][M_DESIRED] / 1000.0
            p.arcane[s][m] = p.mp[s][m][M_SUMMON] or p.mp[s][m][M_BANISH] or p.mp[s][m][M_CASTS]
            p.special[s][m] = (p.mp[s][m][M_FEEDS] or p.mp[s][m][M_LIMP] or p.mp[s][m][M_WHISKEY]
                               or p.mp[s][m][M_SNAKE_OIL] or p.mp[s][m][M_BEAST] or p.mp[s][m][M_ARCANE])
            p.pistols[s][m] = 0
            for w in range(MAXW):
                p.pistols[s][m] += p.wp[s][m][w][W_PISTOL] != 0
            for w in range(MAXW):
                for b in range(3):
                    p.band2[s][m][w][b] = sq(p.base + p.wp[s][m][w][W_EDGE + b] / 1000.0 + WITHIN_EPS)
    return 0


def table_slots(const int32_t[::1] options):
    """Side A's and side B's deployment slots in the order models take them: [(x, y), ...] for each side."""
    if options.shape[0] != NOPT:
        raise ValueError("table_slots: bad options")
    cdef Setup p
    cdef int32_t[:, :, ::1] mz = _np.zeros((NSIDE, MAXM, NMC), dtype=_np.int32)
    cdef int32_t[:, :, :, ::1] wz = _np.zeros((NSIDE, MAXM, MAXW, NWC), dtype=_np.int32)
    cdef int32_t[:, ::1] oz = _np.tile(_np.arange(MAXM, dtype=_np.int32), (NSIDE, 1))
    mz[:, :, M_DIE] = 6
    mz[:, :, M_DIE_SHAKEN] = 6
    mz[:, :, M_MOVE] = options[O_MOVE]
    opt = _np.array(options, dtype=_np.int32)
    opt[O_REVENANTS_A] = 0
    opt[O_REVENANTS_B] = 0
    load_setup(&p, mz, wz, _np.array([1, 1], dtype=_np.int32), oz, opt, _np.zeros(MAX_TABLE, dtype=_np.int32),
               _np.zeros(MAX_TABLE, dtype=_np.int32), _np.zeros(16, dtype=_np.int32), _np.zeros(8, dtype=_np.int32))
    return [[(p.slot_x[s][i], p.slot_y[s][i]) for i in range(NSLOTS)] for s in range(NSIDE)]


def mc_battle(object bit_generator, const int32_t[:, :, ::1] models, const int32_t[:, :, :, ::1] weapons,
              const int32_t[::1] n_models, const int32_t[:, ::1] order, const int32_t[::1] options,
              const int32_t[::1] save_table, const int32_t[::1] damage, const int32_t[::1] event_codes,
              const int32_t[::1] dynamite_failed, int64_t trials, int64_t[::1] out, int8_t[:, ::1] record=None,
              const int8_t[:, ::1] paired=None, int64_t[::1] pair_out=None, int32_t[:, ::1] touched=None,
              const int32_t[:, ::1] paired_touched=None, int skip_model=-1, int skip_mask=0,
              uint8_t[:, :, ::1] saves=None, int32_t[::1] saved=None, const uint8_t[:, :, ::1] paired_saves=None,
              const int32_t[::1] paired_saved=None, int64_t[::1] resumed=None):
    """Play ``trials`` games and add their counts into ``out`` (N_OUT: HEAD_COLUMNS, then per-model counts).

    ``record`` (trials x RECORD_COLUMNS): each game's outcome is written there. ``paired`` (such a record of
    another posse on the same bit generator state) with ``pair_out`` (len(PAIRED_FIGURES) * len(PAIR_SUMS)): the
    sums of x, y, xy, x², y² over the games are added into ``pair_out`` (x: paired's game t, y: this run's game t).

    ``touched`` (trials x MAX_MODELS): for each game, the TOUCH_COLUMNS bits of side A's models that the game read.
    ``paired_touched`` (such a record of the ``paired`` run) with ``skip_model`` and ``skip_mask``: this posse
    differs from the paired one only in the TOUCH_COLUMNS ``skip_mask`` of side A's model ``skip_model``, so a game
    that read none of them there is the paired game, move for move: its outcome is copied (y = x) and it is not
    played, nor counted in ``out``. Returns the number of games copied.

    ``saves`` (trials x (turns - 1) x SNAP_BYTES) with ``saved`` (trials): game t as each Game Turn from the second
    on starts, and how many of them it reached (``turns``: the options' Game Turns). ``paired_saves`` and
    ``paired_saved`` (such a record of the ``paired`` run, with ``paired_touched``): a game that is not copied is
    taken up at the start of the latest Game Turn before which the paired game had read none of ``skip_mask`` of
    ``skip_model`` (its turns before are the paired game's, move for move), not counted in ``out`` either;
    ``resumed``, if given, adds the number of games so taken up and the Game Turns they did not play again."""
    if trials < 0 or (record is not None and (record.shape[0] != trials or record.shape[1] != 2)) \
            or (paired is None) != (pair_out is None) \
            or (paired is not None and (paired.shape[0] != trials or paired.shape[1] != 2 or pair_out.shape[0] != 10)):
        raise ValueError("mc_battle: bad record, paired or pair_out")
    if (touched is not None and (touched.shape[0] != trials or touched.shape[1] != MAXM)) \
            or (paired_touched is not None and (paired is None or paired_touched.shape[0] != trials
                                                 or paired_touched.shape[1] != MAXM
                                                 or not 0 <= skip_model < MAXM or skip_mask < 0)):
        raise ValueError("mc_battle: bad touched, paired_touched, skip_model or skip_mask")
    if out.shape[0] != N_OUT:
        raise ValueError("mc_battle: bad shapes")
    cdef Py_ssize_t n_saves = options[O_TURNS] - 1 if options.shape[0] == NOPT and options[O_TURNS] > 1 else 0
    if (saves is None) != (saved is None) or (paired_saves is None) != (paired_saved is None) \
            or (saves is not None and (saves.shape[0] != trials or saves.shape[1] != n_saves
                                       or saves.shape[2] != SNAP_SIZE or saved.shape[0] != trials)) \
            or (paired_saves is not None and (paired_touched is None or paired_saves.shape[0] != trials
                                              or paired_saves.shape[1] != n_saves
                                              or paired_saves.shape[2] != SNAP_SIZE
                                              or paired_saved.shape[0] != trials)) \
            or (resumed is not None and resumed.shape[0] != 2):
        raise ValueError("mc_battle: bad saves, saved, paired_saves, paired_saved or resumed")
    cdef bint keep = saves is not None and trials > 0 and n_saves > 0
    cdef bint take_up = paired_saves is not None and trials > 0 and n_saves > 0
    cdef uint8_t *sv = &saves[0, 0, 0] if keep else NULL
    cdef int32_t *svn = &saved[0] if keep else NULL
    cdef const uint8_t *psv = &paired_saves[0, 0, 0] if take_up else NULL
    cdef const int32_t *psvn = &paired_saved[0] if take_up else NULL
    cdef int64_t *scratch = NULL
    cdef int64_t taken = 0, skipped = 0
    cdef int first, j, n_saved = 0
    cdef const uint8_t *at
    if keep:
        saved[:] = 0
    if take_up:
        for j in range(paired_saved.shape[0]):
            if not 0 <= paired_saved[j] <= n_saves:
                raise ValueError("mc_battle: bad paired_saved")
        scratch = <int64_t *>calloc(N_OUT, sizeof(int64_t))
        if scratch == NULL:
            raise MemoryError()
    cdef int8_t *rec = &record[0, 0] if record is not None and trials > 0 else NULL
    cdef const int8_t *base = &paired[0, 0] if paired is not None and trials > 0 else NULL
    cdef int64_t *po = &pair_out[0] if pair_out is not None else NULL
    cdef int32_t *tout = &touched[0, 0] if touched is not None and trials > 0 else NULL
    cdef const int32_t *tin = &paired_touched[0, 0] if paired_touched is not None and trials > 0 else NULL
    cdef int res[2]
    cdef int k, m
    cdef int64_t x, y, copied = 0
    cdef TrialStreams ts
    cdef Setup p
    cdef Game g
    cdef int64_t t
    load_setup(&p, models, weapons, n_models, order, options, save_table, damage, event_codes, dynamite_failed)
    trials_open(&ts, stream_bitgen(bit_generator))
    with bit_generator.lock, nogil:
        for t in range(trials):
            trial_streams(&ts, &g)   # drawn for a copied game too: game t + 1 keeps its streams
            if tin != NULL and (tin[MAXM * t + skip_model] & skip_mask) == 0:
                res[0] = base[2 * t]
                res[1] = base[2 * t + 1]
                copied += 1
            else:
                first = 1
                if psvn != NULL:
                    # the latest saved Game Turn before which the paired game had not read the change (the reads
                    # accumulate: from the last one down, the first clean one)
                    j = psvn[t]
                    while j > 0:
                        at = psv + (t * n_saves + j - 1) * SNAP_SIZE
                        if ((<const Game *>at).touch[0][skip_model] & skip_mask) == 0:
                            restore_game(&g, &ts, at)
                            first = j + 1
                            taken += 1
                            skipped += j
                            break
                        j -= 1
                play_game(&p, &g, &out[0] if first == 1 else scratch, res, first,
                          sv + t * n_saves * SNAP_SIZE if sv != NULL else NULL, &ts, &n_saved)
                if svn != NULL:
                    svn[t] = n_saved
                if tout != NULL:
                    for m in range(MAXM):
                        tout[MAXM * t + m] = g.touch[0][m]
            if rec != NULL:
                rec[2 * t] = <int8_t>res[0]
                rec[2 * t + 1] = <int8_t>res[1]
            if base != NULL:
                for k in range(2):
                    x = base[2 * t + k]
                    y = res[k]
                    po[5 * k] += x
                    po[5 * k + 1] += y
                    po[5 * k + 2] += x * y
                    po[5 * k + 3] += x * x
                    po[5 * k + 4] += y * y
    free(scratch)
    if resumed is not None:
        resumed[0] += taken
        resumed[1] += skipped
    return copied


def mc_first_round(object bit_generator, int hand_a, int hand_b, int roll_off_die, int64_t trials, int64_t[::1] out):
    """Turn 1 cards only: both sides draw from fresh shuffled Decks and play best first (the battle's own card
    code). out[0] += side A Activates first; out[1] += the same card is revealed in some round (an Event)."""
    if not (0 <= hand_a <= MAXHAND and 0 <= hand_b <= MAXHAND and 2 <= roll_off_die <= MAX_FACES) or out.shape[0] != 2:
        raise ValueError("mc_first_round: parameters outside the kernel's limits")
    cdef Game g
    cdef int s, c, k, a, b
    cdef int64_t t
    stream_open(&g.st, stream_bitgen(bit_generator))
    stream_open(&g.cards, stream_bitgen(bit_generator))
    with bit_generator.lock, nogil:
        for t in range(trials):
            for s in range(NSIDE):
                for c in range(NCARDS):
                    g.deck[s][c] = c
                shuffle(&g.cards, &g.deck[s][0], NCARDS)
                g.deck_n[s] = NCARDS
                g.disc_n[s] = 0
            draw_hand(&g, 0, hand_a)
            draw_hand(&g, 1, hand_b)
            if g.hand_n[0] > 0 and (g.hand_n[1] == 0 or CARD_KEY[g.hand[0][0]] < CARD_KEY[g.hand[1][0]] or (
                    CARD_KEY[g.hand[0][0]] == CARD_KEY[g.hand[1][0]] and roll_off(&g.st, roll_off_die) == 0)):
                out[0] += 1
            for k in range(g.hand_n[0] if g.hand_n[0] < g.hand_n[1] else g.hand_n[1]):
                if g.hand[0][k] == g.hand[1][k]:
                    out[1] += 1
                    break


PROBE_KINDS = ("action", "fight", "charge", "disengage", "shoot", "solo", "reaction", "declared")
PROBE_DID_NAMES = ("nothing", "move", "shoot", "fight", "charge", "disengage", "clear", "cast", "lookout", "concentrate",
                   "feed")
"""table_probe's ``did`` counts, in DID_* order (battle_game.pxd), then the Fights and Fight Casualties."""
cdef enum:
    PROBE_FIGHTS = DID_FEED + 1
    PROBE_FIGHT_CASUALTIES = DID_FEED + 2
    PROBE_DID = DID_FEED + 3
PROBE_DID_SIZE = PROBE_DID
assert len(PROBE_DID_NAMES) == PROBE_FIGHTS
"""table_probe's steps: one table Action (arg: 1 last Action, 2 a Solo's second, 4 * what the first did), a Fight
Action (arg: 1 Charging), a Charge at enemy ``arg``, a Disengage, a Shoot Action, a Solo Activation's two Actions
(Powers included)."""


def table_probe(object bit_generator, const int32_t[:, :, ::1] models, const int32_t[:, :, :, ::1] weapons,
                const int32_t[::1] n_models, const int32_t[:, ::1] order, const int32_t[::1] options,
                const int32_t[::1] save_table, const int32_t[::1] damage, const int32_t[::1] in_game,
                const double[:, :, ::1] positions, const int32_t[:, :, ::1] state, int kind, int side, int model,
                int arg, int64_t trials, int64_t[:, :, ::1] out, int64_t[::1] did, double[:, :, ::1] last,
                int turn_events=0):
    """One step of the table game from a given position, ``trials`` times (for tests): ``in_game`` models per side,
    ``positions`` (side, model, x/y inches), ``state`` (side, model, on/downed/shaken, optionally in its Beast Form).
    Adds into ``out`` (side, model, on/downed/Shaken and standing/casualty, optionally riding, after the step),
    ``did`` (PROBE_DID: the DID_* counts, then Fights and Fight Casualties at PROBE_FIGHTS, PROBE_FIGHT_CASUALTIES;
    a model going on Lookout counts in did[0]) and leaves the last trial's positions in ``last``. Kind "reaction":
    ``model`` of ``side`` is on Lookout and enemy ``arg`` declares an Action (battle_table.react); did counts nothing
    done, or Lookout where the Token is kept. Kind "declared": enemy ``arg`` is on Lookout and ``model`` makes one Action as act() plays it (a
    Dual Action). ``turn_events``: the Events in force this Game Turn, bits 1 Dust Storm, 2 Unnatural Gloom, 4 Let There
    Be Light, 8 Arcane Storm."""
    if not (0 <= kind < 8 and 0 <= side < 2 and in_game.shape[0] == 2 and positions.shape[0] == 2
            and positions.shape[1] == MAXM and positions.shape[2] == 2 and state.shape[0] == 2
            and state.shape[1] == MAXM and 3 <= state.shape[2] <= 4 and out.shape[0] == 2 and out.shape[1] == MAXM
            and 4 <= out.shape[2] <= 5 and did.shape[0] == PROBE_DID and last.shape[0] == 2 and last.shape[1] == MAXM
            and last.shape[2] == 2 and trials >= 0):
        raise ValueError("table_probe: bad arguments")
    cdef Setup p
    cdef Game g
    cdef TrialStreams ts
    cdef int s, m, fired, again, r
    cdef int64_t t
    ev = _np.zeros(16, dtype=_np.int32)
    dy = _np.full(8, DY_DUD, dtype=_np.int32)
    load_setup(&p, models, weapons, n_models, order, options, save_table, damage, ev, dy)
    for s in range(NSIDE):
        if not p.n[s] <= in_game[s] <= MAXM or (in_game[s] > p.n[s] and not p.rev[s]):
            raise ValueError("table_probe: bad in_game")
    if not 0 <= model < in_game[side] or (kind in (2, 6, 7) and not 0 <= arg < in_game[1 - side]):
        raise ValueError("table_probe: bad model")
    trials_open(&ts, stream_bitgen(bit_generator))
    with bit_generator.lock, nogil:
        for t in range(trials):
            trial_streams(&ts, &g)
            g.turn = 1
            g.act_id = 1
            g.fights = 0
            g.gs_pending = 0
            g.fuse = 0
            g.dust = 1 if turn_events & 1 else (2 if turn_events & 2 else 0)
            g.light = (turn_events >> 2) & 1
            g.storm = (turn_events >> 3) & 1
            g.nc_valid = 0
            for s in range(NSIDE):
                g.nm[s] = in_game[s]
                g.fight_cas[s] = 0
                g.vp[s] = 0
                g.nlook[s] = 0
                for m in range(MAXM):
                    new_game_model(&p, &g, s, m)
                    g.on[s][m] = state[s, m, 0] if m < g.nm[s] else 0
                    g.downed[s][m] = state[s, m, 1]
                    g.shaken[s][m] = state[s, m, 2]
                    g.beast[s][m] = state[s, m, 3] if state.shape[2] > 3 else 0
                    g.grow[s][m] = grow_of(&p, &g, s, m)
                    g.acts[s][m] = 0
                    g.x[s][m] = positions[s, m, 0]
                    g.y[s][m] = positions[s, m, 1]
                refresh_masks(&g, s)
            for m in range(g.nm[0]):
                update_contacts(&p, &g, 0, m)
            fired = 0
            again = 0
            dice_segment(&g, 1)
            if kind == 0:
                r = table_action(&p, &g, side, model, arg & 1, (arg >> 1) & 1, arg >> 2, &fired, &again)
            elif kind == 1:
                r = fight_action(&p, &g, side, model, -1, arg)
            elif kind == 2:
                r = charge(&p, &g, side, model, arg)
            elif kind == 3:
                r = disengage(&p, &g, side, model)
            elif kind == 4:
                shoot_table(&p, &g, side, model, &fired, &again)
                r = DID_SHOOT
            elif kind == 5:   # a Solo Activation's two Actions as act() plays them (Concentrate, then the Cast)
                r = act(&p, &g, side, model, 0, 0, DID_NOTHING, &fired, &again)
                r = act(&p, &g, side, model, 1, 1, r, &fired, &again)
            elif kind == 7:
                go_lookout(&g, 1 - side, arg)
                r = act(&p, &g, side, model, 1, 0, DID_NOTHING, &fired, &again)
            else:
                go_lookout(&g, side, model)
                react(&p, &g, 1 - side, arg)
                r = DID_LOOKOUT if g.look[side][model] else DID_NOTHING
                did[r] += 1
                r = -1
            if r == DID_LOOKOUT:   # a Lookout (nothing resolved yet) is counted as nothing done
                go_lookout(&g, side, model)
                r = DID_NOTHING
            if r >= 0:
                did[r] += 1
            did[PROBE_FIGHTS] += g.fights
            did[PROBE_FIGHT_CASUALTIES] += g.fight_cas[0] + g.fight_cas[1]
            for s in range(NSIDE):
                for m in range(MAXM):
                    out[s, m, 0] += g.on[s][m]
                    out[s, m, 1] += g.on[s][m] and g.downed[s][m]
                    out[s, m, 2] += g.on[s][m] and g.shaken[s][m] and not g.downed[s][m]
                    out[s, m, 3] += g.cas[s][m]
                    if out.shape[2] > 4:
                        out[s, m, 4] += g.on[s][m] and g.mounted[s][m]
                    last[s, m, 0] = g.x[s][m]
                    last[s, m, 1] = g.y[s][m]
