# cython: language_level=3
"""Monte Carlo Shadows of the West firefight: two posses trade fire, Game Turn by Game Turn.

One trial is one game ("Anatomy of a Game"): Draw Phase (each side draws from
its own 54-card Deck, refreshing it from the Discard Pile when it runs out),
Action Phase (cards revealed in rounds, black before red, higher value first,
equal values Roll-Off, identical cards raise the Turn's one Event; Solo or
Dual Activations; every Action a Shoot Action), Recovery Phase (Recovery
Tests, Bottle Checks), for up to ``turns`` Game Turns. Every rule number
comes in from the rules model through the wrapper (oddsmith.shadows.battle);
every model and weapon comes in as plain integers (MODEL_COLUMNS,
WEAPON_COLUMNS), weapons sorted best first. Counts of outcomes are added
into an int64 array (OUT_COLUMNS) so chunks from oddsmith.sampling add up. Each game draws from its own
streams keyed off the chunk's bit generator (trial_streams), so that a changed posse replays the same games.
"""
from libc.stdint cimport uint64_t, uint32_t, int64_t, int32_t, int8_t

from numpy.random cimport bitgen_t

from shadows_common cimport *

cdef enum:
    MAXM = 14          # model slots per side: MAX_POSSE_MODELS and 4 Revenants
    MAXPOSSE = 10      # models per posse (MAX_POSSE_MODELS)
    MAXW = 3           # Weapons per model (MAX_WEAPONS_PER_MODEL)
    NCARDS = 54
    MAXHAND = 16
    NSIDE = 2

# Model columns
cdef enum:
    M_PRESENT, M_DIE, M_DIE_SHAKEN, M_RANK, M_BOSS, M_SAVE, M_CANCEL, M_SUPER, M_HTK, M_NERVE_RR,
    M_PREACHER, M_TRIGGER, M_GUNSLINGER, M_DANGER, M_VP, M_DYNAMITE, M_JAM_RR, M_STYLE, M_DESIRED, M_FIGHT_DICE,
    M_CLOSE_WORK, M_DERRINGER, M_BULL_RUSH, M_ORNERY, M_FEARSOME, M_FIGHT_SAVE, M_HAWKEYE, M_REVENANT, M_ARCANE, NMC

# Weapon columns
cdef enum:
    W_USABLE, W_DICE, W_JAM, W_SHOTS, W_SAVE, W_SILVER, W_PISTOL, W_FAR, W_EDGE, W_EDGE_M, W_EDGE_L,
    W_BDICE, W_BDICE_M, W_BDICE_L, W_BCOVER, W_BCOVER_M, W_BCOVER_L, W_BSAVE, W_BSAVE_M, W_BSAVE_L, NWC

# Options
cdef enum:
    O_TURNS, O_TARGETS, O_ACTIVATION, O_LONE_GUN, O_READING, O_DISTANCE, O_DYN_RANGE, O_BLAST_RADIUS,
    O_BLAST_SAVE, O_CRITTER_SAVE, O_EVENTS, O_T, O_ONE_FACE, O_RECOVERY_DICE, O_RECOVERY_STAND, O_BOSS_DICE,
    O_STANDIN_DICE, O_SCATTER_DIE, O_ROLLOFF_DIE, O_EVENT_DIE, O_MOVEMENT, O_TERRAIN, O_TABLE, O_ZONE, O_BASE,
    O_MOVE, O_CLEARANCE, O_CHARGE_REACH, O_DUST_RANGE, O_DISENGAGE_DICE, O_DISENGAGE_SAVE, O_SPOT_DICE, O_FIGHT_DICE,
    O_CHARGE_DICE, O_OUTNUMBERED_DICE, O_FEARSOME_DICE, O_NERVE_DICE, O_DERRINGER_DICE, O_CLOSE_WORK_MAX,
    O_BULL_RUSH_SAVE, O_FRIEND_RECOVERY, O_ARCANE_RANGE, O_ARCANE_DICE, O_ARCANE_DIFFICULTY, O_CASTING_DICE,
    O_REVENANT_DIE, O_REVENANT_PLUS, O_REVENANTS_A, O_REVENANTS_B, O_SPOT_MIN, NOPT

# Target policies, activation policies
cdef enum:
    TG_DANGEROUS = 0
    TG_WEAKEST = 1
    TG_BOSS = 2
    TG_CLOSEST = 3
    MOVE_TABLE = 0
    MOVE_NONE = 1
    ACT_AUTO = 0
    ACT_DUAL = 1
    ACT_SOLO = 2

# Event effects (per face of the Event die)
cdef enum:
    EV_NONE = 0
    EV_CRITTER = 1
    EV_DUST = 2
    EV_OMEN = 3
    EV_HERO = 4

# Failed Dynamite throw results
cdef enum:
    DY_THROWER = 1
    DY_TOWARDS = 2
    DY_AWAY = 3
    DY_DUD = 4

# Output counters
cdef enum:
    C_A_WINS, C_B_WINS, C_DRAW, C_A_BOTTLES, C_B_BOTTLES, C_A_WIPED, C_B_WIPED, C_TURNS, C_TURNS2,
    C_CAS_A, C_CAS_A2, C_CAS_B, C_CAS_B2, C_EVENTS, C_EVENTS2, C_EVENTS_TURNS, C_A_FIRST, C_EVENT_T1,
    C_BY_VP, C_VP_A, C_VP_B, C_VP_A2, C_VP_B2, C_FIGHTS, C_FIGHTS2, C_FCAS_A, C_FCAS_A2, C_FCAS_B, C_FCAS_B2,
    C_HEAD_PAD, NHEAD

MODEL_COLUMNS = ("present", "die", "die_shaken", "rank", "boss", "save_mod", "cancel", "supernatural", "hard_to_kill",
                 "nerve_rerolls", "preacher", "trigger_happy", "gunslinger", "danger", "vp", "dynamite", "jam_rerolls",
                 "style", "desired", "fight_dice", "close_work", "derringer", "bull_rush", "ornery", "fearsome",
                 "fight_save", "hawkeye", "revenant", "arcane_blast")
WEAPON_COLUMNS = ("usable", "dice", "jam_die", "shots", "save_mod", "silver", "pistol", "far",
                  "short_edge", "medium_edge", "long_edge", "short_dice", "medium_dice", "long_dice",
                  "short_dice_cover", "medium_dice_cover", "long_dice_cover", "short_save", "medium_save", "long_save")
OPTION_COLUMNS = ("turns", "targets", "activation", "lone_gun", "reading", "distance", "dynamite_range", "blast_radius",
                  "blast_save", "critter_save", "events", "success_on", "one_face", "recovery_dice", "recovery_stand",
                  "boss_dice", "stand_in_dice", "scatter_die", "roll_off_die", "event_die", "movement", "terrain",
                  "table_size", "zone", "base", "move", "clearance", "charge_reach", "dust_range", "disengage_dice",
                  "disengage_save", "spotting_dice", "fight_dice", "charge_dice", "outnumbered_dice", "fearsome_dice",
                  "nerve_dice", "derringer_dice", "close_work_max", "bull_rush_save", "friend_recovery",
                  "arcane_range", "arcane_dice", "arcane_difficulty", "casting_dice", "revenant_die", "revenant_plus",
                  "revenants_a", "revenants_b", "spot_min")
HEAD_COLUMNS = ("a_wins", "b_wins", "draw", "a_bottles", "b_bottles", "a_wiped", "b_wiped", "turns", "turns_sq",
                "casualties_a", "casualties_a_sq", "casualties_b", "casualties_b_sq", "events", "events_sq",
                "events_turns", "a_first", "event_turn_1", "by_vp", "vp_a", "vp_b", "vp_a_sq", "vp_b_sq", "fights",
                "fights_sq", "fight_cas_a", "fight_cas_a_sq", "fight_cas_b", "fight_cas_b_sq", "pad")
PAIRED_FIGURES = ("a_wins", "casualties_b")
PAIR_SUMS = ("x", "y", "xy", "xx", "yy")
"""pair_out = for each PAIRED_FIGURES (x: the recorded run's per-game value, y: this run's) the sums PAIR_SUMS."""
RECORD_COLUMNS = PAIRED_FIGURES
MAX_MODELS = MAXM
MAX_WEAPONS = MAXW
N_OUT = NHEAD + 6 * MAXM
"""out = HEAD_COLUMNS, then casualty[side][model], downed_at_end[side][model], fought[side][model] (side-major,
MAX_MODELS each; slots n..n+3 of a side with Revenants are its Revenants)."""

assert len(MODEL_COLUMNS) == NMC and len(WEAPON_COLUMNS) == NWC and len(OPTION_COLUMNS) == NOPT
assert len(HEAD_COLUMNS) == NHEAD


ctypedef struct Setup:
    int mp[NSIDE][MAXM][NMC]
    int wp[NSIDE][MAXM][MAXW][NWC]
    int opt[NOPT]
    int stab[MAX_TABLE]
    int dmg[MAX_TABLE]
    int event_code[16]
    int dyn_fail[8]
    int order[NSIDE][MAXM]       # models by danger, most dangerous first
    int n[NSIDE]


ctypedef struct Game:
    DiceStream st                # dice, Roll-Offs and random models of this trial
    DiceStream cards             # Deck shuffles of this trial
    uint64_t dice_seed           # the trial's dice key: each round and Recovery Phase re-keys g.st from it
    uint64_t *dice_key
    int turn
    int acts[NSIDE][MAXM]        # Shoot Actions begun this Game Turn, for re-keying the dice per Action
    int on[NSIDE][MAXM]
    int downed[NSIDE][MAXM]
    int shaken[NSIDE][MAXM]
    int done[NSIDE][MAXM]
    int cas[NSIDE][MAXM]
    int jam[NSIDE][MAXM]
    int dyn[NSIDE][MAXM]
    int omen[NSIDE][MAXM]
    int deck[NSIDE][NCARDS]
    int deck_n[NSIDE]
    int disc[NSIDE][NCARDS]
    int disc_n[NSIDE]
    int hand[NSIDE][MAXHAND]
    int hand_n[NSIDE]
    int hand_pos[NSIDE]
    int vp[NSIDE]
    int dust
    int event_this_turn


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


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    """The SplitMix64 output function (Steele, Lea & Flood 2014)."""
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline void dice_segment(Game *g, uint64_t tag) noexcept nogil:
    """Re-key the trial's dice stream for one stretch of play (a round of cards, a side's Recovery Phase), so that
    two runs on one seed roll the same dice there whatever the earlier stretches drew (common random numbers)."""
    g.dice_key[0] = mix64(g.dice_seed + tag * <uint64_t>0x9E3779B97F4A7C15)
    g.st.buf = 0
    g.st.left = 0


cdef inline int roll_test(DiceStream *st, int D, int T, int n, int reading, int free_rr, int one_face,
                          int *one) noexcept nogil:
    """One Test ("Tests"): Successes of n dice, maximum-face re-rolls on the lowest failing die (reading B: a
    maximum on a re-roll grants another), ``free_rr`` extra re-rolls spent the same way; ``one``: a final die
    shows ``one_face``."""
    cdef int faces[MAX_DICE]
    cdef char rr[MAX_DICE]
    cdef int i, s = 0
    if n > MAX_DICE:
        n = MAX_DICE
    roll_and_reroll(st, D, T, n, reading, free_rr, faces, rr)
    one[0] = 0
    for i in range(n):
        if faces[i] >= T:
            s += 1
        if faces[i] == one_face:
            one[0] = 1
    return s


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


# ---------------------------------------------------------------------------
# Shooting ("Shoot", "Damage", "Shaken", "Downed")
# ---------------------------------------------------------------------------

cdef inline int standing(Game *g, int s, int m) noexcept nogil:
    return g.on[s][m] and not g.downed[s][m]


cdef inline int cur_die(Setup *p, Game *g, int s, int m) noexcept nogil:
    return p.mp[s][m][M_DIE_SHAKEN] if g.shaken[s][m] else p.mp[s][m][M_DIE]


cdef int choose_target(Setup *p, Game *g, int o) noexcept nogil:
    """A visible enemy not Downed, by the target policy; -1 if none (all enemies stand equally far on open ground,
    so any of them may be the Target with no Spotting Test)."""
    cdef int i, m, best = -1, bd = 99, d
    cdef int pol = p.opt[O_TARGETS]
    if pol == TG_BOSS:
        for m in range(p.n[o]):
            if p.mp[o][m][M_BOSS] and standing(g, o, m):
                return m
    if pol == TG_WEAKEST:
        for i in range(p.n[o]):
            m = p.order[o][i]
            if standing(g, o, m):
                # lowest Grit Die now rolled, then the smaller Save Modifier, Shaken ones first
                d = cur_die(p, g, o, m) * 4 + p.mp[o][m][M_SAVE]
                if g.shaken[o][m]:
                    d -= 1  # a Shaken model goes Down from any further Shaken result
                if d < bd:
                    bd = d
                    best = m
        return best
    for i in range(p.n[o]):
        m = p.order[o][i]
        if standing(g, o, m):
            return m
    return -1


cdef inline void hurt(Setup *p, Game *g, int o, int t, int code, int credit) noexcept nogil:
    """Apply a Damage result to model t of side o; ``credit`` (-1: nobody) earns the Victory Points of a Casualty."""
    if code == DMG_NONE:
        return
    if code == DMG_CASUALTY:
        g.on[o][t] = 0
        g.cas[o][t] = 1
        g.downed[o][t] = 0
        if credit >= 0:
            g.vp[credit] += p.mp[o][t][M_VP]
    elif code == DMG_DOWNED:
        g.downed[o][t] = 1
    elif g.shaken[o][t]:
        g.downed[o][t] = 1   # "Further Damage results of Shaken cause the model to be immediately Downed"
    else:
        g.shaken[o][t] = 1


cdef inline int save_roll(Setup *p, Game *g, int o, int t, int target, int mod) noexcept nogil:
    """Damage code of one Save on the model's (Shaken-lowered) Grit Die ("Target Makes Save if Hit", "Damage")."""
    mod += p.mp[o][t][M_SAVE] - g.omen[o][t]
    return damage_code(roll_die(&g.st, cur_die(p, g, o, t)) + mod, target, p.dmg)


cdef int fire(Setup *p, Game *g, int s, int m, int w, int shots) noexcept nogil:
    """``shots`` Shooting Attacks with Weapon w, each at a Target chosen afresh; stops when it Jams."""
    cdef int o = 1 - s, i, t, succ, one, e, code, mod
    cdef int *wp = &p.wp[s][m][w][0]
    for i in range(shots):
        t = choose_target(p, g, o)
        if t < 0:
            return 0
        succ = roll_test(&g.st, cur_die(p, g, s, m), p.opt[O_T], wp[W_DICE], p.opt[O_READING], 0,
                         p.opt[O_ONE_FACE], &one)
        if succ == 0:
            if one:
                # Jamming Check on the Weapon's Jam Die; Gunsmith re-rolls a Failure
                if roll_die(&g.st, wp[W_JAM]) < p.opt[O_T] and (
                        p.mp[s][m][M_JAM_RR] == 0 or roll_die(&g.st, wp[W_JAM]) < p.opt[O_T]):
                    g.jam[s][m] |= 1 << w
                    return 0
            continue
        e = succ - p.mp[o][t][M_CANCEL]
        if e <= 0:
            continue
        if e >= MAX_TABLE:
            e = MAX_TABLE - 1
        mod = wp[W_SAVE] + (wp[W_SILVER] if p.mp[o][t][M_SUPER] else 0)
        code = save_roll(p, g, o, t, p.stab[e], mod)
        hurt(p, g, o, t, code, s)
    return 0


cdef inline void blast(Setup *p, Game *g, int o, int t, int thrower_side) noexcept nogil:
    """A model caught by Dynamite: a 7+ Save ("Ka-Boom!"); its thrower's side earns VP for an enemy Casualty."""
    if not g.on[o][t]:
        return
    cdef int code = save_roll(p, g, o, t, p.opt[O_BLAST_SAVE], 0)
    hurt(p, g, o, t, code, thrower_side if o != thrower_side else -1)


cdef void throw_dynamite(Setup *p, Game *g, int s, int m, int t) noexcept nogil:
    """An unmodified 1 Die Shooting Test ("Dynamite"); on open ground the thrower and the Target stand on one line
    ``distance`` apart (in thousandths of an inch) and only they can be caught within the blast radius."""
    cdef int o = 1 - s, d, score, what
    cdef int r = p.opt[O_BLAST_RADIUS] * 1000, dist = p.opt[O_DISTANCE]
    score = roll_die(&g.st, cur_die(p, g, s, m))
    g.dyn[s][m] -= 1
    if score >= p.opt[O_T]:
        blast(p, g, o, t, s)
        return
    what = p.dyn_fail[score] if score < 8 else DY_DUD
    if what == DY_THROWER:
        blast(p, g, s, m, s)
    elif what == DY_TOWARDS:
        d = roll_die(&g.st, p.opt[O_SCATTER_DIE]) * 1000
        if d <= r:
            blast(p, g, o, t, s)
        if (dist - d if dist >= d else d - dist) <= r:
            blast(p, g, s, m, s)
    elif what == DY_AWAY:
        d = roll_die(&g.st, p.opt[O_SCATTER_DIE]) * 1000
        if d <= r:
            blast(p, g, o, t, s)
        if dist + d <= r:
            blast(p, g, s, m, s)


cdef inline int weapon_ready(Setup *p, Game *g, int s, int m, int w) noexcept nogil:
    return p.wp[s][m][w][W_USABLE] and not ((g.jam[s][m] >> w) & 1) and not (g.dust and p.wp[s][m][w][W_FAR])


cdef void shoot_action(Setup *p, Game *g, int s, int m, int *fired, int *again) noexcept nogil:
    """One Action of model m: Dynamite (once per stick, within throwing range), else a Gunslinger's two Pistols,
    else its best ready Weapon not fired this Activation (Trigger-Happy: the same one once more), else clear a Jam."""
    cdef int w, a, b, t
    if not standing(g, s, m):
        return
    # each model's Actions roll their own dice: a change to one model leaves the others' rolls as they were
    dice_segment(g, (<uint64_t>g.turn << 16) | (1 << 15) | (s << 11) | (m << 6) | (g.acts[s][m] & 63))
    g.acts[s][m] += 1
    if g.dyn[s][m] > 0 and p.opt[O_DISTANCE] >= 0 and p.opt[O_DISTANCE] <= p.opt[O_DYN_RANGE] * 1000:
        t = choose_target(p, g, 1 - s)
        if t >= 0:
            throw_dynamite(p, g, s, m, t)
            return
    if p.mp[s][m][M_GUNSLINGER]:
        a = -1
        b = -1
        for w in range(MAXW):
            if p.wp[s][m][w][W_PISTOL] and weapon_ready(p, g, s, m, w) and not ((fired[0] >> w) & 1):
                if a < 0:
                    a = w
                elif b < 0:
                    b = w
        if b >= 0:
            fired[0] |= (1 << a) | (1 << b)
            fire(p, g, s, m, a, 1)   # "Sixguns may not fire twice"
            fire(p, g, s, m, b, 1)
            return
    for w in range(MAXW):
        if not weapon_ready(p, g, s, m, w):
            continue
        if (fired[0] >> w) & 1:
            if p.mp[s][m][M_TRIGGER] and not again[0] and not p.mp[s][m][M_GUNSLINGER]:
                again[0] = 1
            else:
                continue
        fired[0] |= 1 << w
        fire(p, g, s, m, w, p.wp[s][m][w][W_SHOTS])
        return
    for w in range(MAXW):
        if p.wp[s][m][w][W_USABLE] and (g.jam[s][m] >> w) & 1:
            g.jam[s][m] &= ~(1 << w)   # a Move Action clears one Jammed Weapon
            return


cdef int pick_model(Setup *p, Game *g, int s, int skip) noexcept nogil:
    """Most dangerous model of side s able to Activate (not Done, not Downed), other than ``skip``."""
    cdef int i, m
    for i in range(p.n[s]):
        m = p.order[s][i]
        if m != skip and standing(g, s, m) and not g.done[s][m]:
            return m
    return -1


cdef void activate(Setup *p, Game *g, int s, int cards_left) noexcept nogil:
    """One Activation of side s (Pass, Solo or Dual by the activation policy)."""
    cdef int i, m, a, b, eligible = 0, dual, fired, again
    for m in range(p.n[s]):
        if standing(g, s, m) and not g.done[s][m]:
            eligible += 1
    if eligible == 0:
        # only Downed models left to Activate: one crawls (no effect on open ground) and is Done
        for m in range(p.n[s]):
            if g.on[s][m] and not g.done[s][m]:
                g.done[s][m] = 1
                return
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
        g.done[s][a] = 1
        g.done[s][b] = 1
        fired = 0
        again = 0
        shoot_action(p, g, s, a, &fired, &again)
        fired = 0
        again = 0
        shoot_action(p, g, s, b, &fired, &again)
    else:
        g.done[s][a] = 1
        fired = 0
        again = 0
        for i in range(2):
            shoot_action(p, g, s, a, &fired, &again)


cdef int random_model(Setup *p, Game *g, int *side) noexcept nogil:
    """A random model on the table and not Downed, from either posse; -1 if none."""
    cdef int s, m, count = 0, k
    for s in range(NSIDE):
        for m in range(p.n[s]):
            if standing(g, s, m):
                count += 1
    if count == 0:
        return -1
    k = <int>roll_range(&g.st, count)
    for s in range(NSIDE):
        for m in range(p.n[s]):
            if standing(g, s, m):
                if k == 0:
                    side[0] = s
                    return m
                k -= 1
    return -1


cdef void unexpected_event(Setup *p, Game *g) noexcept nogil:
    """Roll on the Unexpected Events table and apply what open ground allows ("Unexpected Events")."""
    cdef int face = roll_die(&g.st, p.opt[O_EVENT_DIE]), code = p.event_code[face], s = 0, m, fired = 0, again = 0
    if code == EV_DUST:
        g.dust = 1
    elif code == EV_CRITTER or code == EV_OMEN or code == EV_HERO:
        m = random_model(p, g, &s)
        if m < 0:
            return
        if code == EV_CRITTER:
            hurt(p, g, s, m, save_roll(p, g, s, m, p.opt[O_CRITTER_SAVE], 0), -1)
        elif code == EV_OMEN:
            g.omen[s][m] = 1
        else:
            fired = 0
            shoot_action(p, g, s, m, &fired, &again)


cdef inline int all_done(Setup *p, Game *g) noexcept nogil:
    cdef int s, m
    for s in range(NSIDE):
        for m in range(p.n[s]):
            if g.on[s][m] and not g.done[s][m]:
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
    cdef int m, succ, one, up = 0, roller = -1, best, dice, rr = 0
    for m in range(p.n[s]):
        g.done[s][m] = 0
        g.omen[s][m] = 0
        if not (g.on[s][m] and g.downed[s][m]):
            continue
        if p.mp[s][m][M_HTK]:
            succ = p.opt[O_RECOVERY_STAND]
        else:
            succ = roll_test(&g.st, cur_die(p, g, s, m), p.opt[O_T], p.opt[O_RECOVERY_DICE], p.opt[O_READING], 0,
                             p.opt[O_ONE_FACE], &one)
        if succ == 0:
            g.on[s][m] = 0
            g.cas[s][m] = 1      # worth no Victory Points
            g.downed[s][m] = 0
        elif succ >= p.opt[O_RECOVERY_STAND]:
            g.downed[s][m] = 0
            g.shaken[s][m] = 1
    for m in range(p.n[s]):
        if standing(g, s, m):
            up += 1
    if up > start // 2:
        return 0
    if up == 0:
        return 1     # nobody left standing to make the Check
    for m in range(p.n[s]):
        if p.mp[s][m][M_BOSS] and standing(g, s, m):
            roller = m
    if roller >= 0:
        dice = p.opt[O_BOSS_DICE]
    else:
        dice = p.opt[O_STANDIN_DICE]
        best = -1
        for m in range(p.n[s]):
            if standing(g, s, m):
                # next highest Rank; among equals the one rolling the larger die, then with Nerves of Steel
                succ = p.mp[s][m][M_RANK] * 100 + cur_die(p, g, s, m) * 2 + p.mp[s][m][M_NERVE_RR]
                if succ > best:
                    best = succ
                    roller = m
    rr = p.mp[s][roller][M_NERVE_RR]
    for m in range(p.n[s]):
        if p.mp[s][m][M_PREACHER] and standing(g, s, m):
            rr += 1
            break
    succ = roll_test(&g.st, cur_die(p, g, s, roller), p.opt[O_T], dice, p.opt[O_READING], rr, p.opt[O_ONE_FACE], &one)
    return 1 if succ == 0 else 0


cdef void play_game(Setup *p, Game *g, int64_t *out, int *res) noexcept nogil:
    """One game; adds its counts into ``out``; res[0] = 1 if side A wins, res[1] = side B's Casualties."""
    cdef int s, m, c, turn, k, on_table, boss_on, first, events = 0, turns = 0, cas_a = 0, cas_b = 0
    cdef int win_a = 0
    cdef int bottled[NSIDE]
    cdef int wiped[NSIDE]
    cdef int out_[NSIDE]
    cdef int start[NSIDE]
    for s in range(NSIDE):
        start[s] = p.n[s]
        for m in range(p.n[s]):
            g.on[s][m] = 1
            g.downed[s][m] = 0
            g.shaken[s][m] = 0
            g.done[s][m] = 0
            g.cas[s][m] = 0
            g.jam[s][m] = 0
            g.omen[s][m] = 0
            g.dyn[s][m] = p.mp[s][m][M_DYNAMITE]
        for c in range(NCARDS):
            g.deck[s][c] = c
        shuffle(&g.cards, &g.deck[s][0], NCARDS)
        g.deck_n[s] = NCARDS
        g.disc_n[s] = 0
        g.vp[s] = 0
        bottled[s] = 0
        wiped[s] = 0
    for turn in range(1, p.opt[O_TURNS] + 1):
        turns = turn
        g.turn = turn
        for s in range(NSIDE):
            for m in range(MAXM):
                g.acts[s][m] = 0
        g.dust = 0
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
        for s in range(NSIDE):
            dice_segment(g, <uint64_t>turn * 256 + 250 + s)
            bottled[s] = recovery_and_bottle(p, g, s, start[s])
            on_table = 0
            for m in range(p.n[s]):
                on_table += g.on[s][m]
            wiped[s] = on_table == 0
            if bottled[s] and not wiped[s]:
                for m in range(p.n[s]):
                    g.on[s][m] = 0    # the whole Posse leaves the table: not Casualties
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
    for m in range(p.n[0]):
        cas_a += g.cas[0][m]
    for m in range(p.n[1]):
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
    for s in range(NSIDE):
        for m in range(p.n[s]):
            out[NHEAD + s * MAXM + m] += g.cas[s][m]
            if g.on[s][m] and g.downed[s][m]:
                out[NHEAD + 2 * MAXM + s * MAXM + m] += 1


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


def mc_battle(object bit_generator, const int32_t[:, :, ::1] models, const int32_t[:, :, :, ::1] weapons,
              const int32_t[::1] n_models, const int32_t[:, ::1] order, const int32_t[::1] options,
              const int32_t[::1] save_table, const int32_t[::1] damage, const int32_t[::1] event_codes,
              const int32_t[::1] dynamite_failed, int64_t trials, int64_t[::1] out, int8_t[:, ::1] record=None,
              const int8_t[:, ::1] paired=None, int64_t[::1] pair_out=None):
    """Play ``trials`` games and add their counts into ``out`` (N_OUT: HEAD_COLUMNS, then per-model counts).

    ``record`` (trials x RECORD_COLUMNS): each game's outcome is written there. ``paired`` (such a record of
    another posse on the same bit generator state) with ``pair_out`` (len(PAIRED_FIGURES) * len(PAIR_SUMS)): the
    sums of x, y, xy, x², y² over the games are added into ``pair_out`` (x: paired's game t, y: this run's game t).
    """
    if models.shape[0] != NSIDE or models.shape[1] != MAXM or models.shape[2] != NMC \
            or weapons.shape[0] != NSIDE or weapons.shape[1] != MAXM or weapons.shape[2] != MAXW \
            or weapons.shape[3] != NWC or n_models.shape[0] != NSIDE or order.shape[0] != NSIDE \
            or order.shape[1] != MAXM or options.shape[0] != NOPT or save_table.shape[0] != MAX_TABLE \
            or damage.shape[0] != MAX_TABLE or event_codes.shape[0] != 16 or dynamite_failed.shape[0] != 8 \
            or out.shape[0] != N_OUT:
        raise ValueError("mc_battle: bad shapes")
    if trials < 0 or (record is not None and (record.shape[0] != trials or record.shape[1] != 2)) \
            or (paired is None) != (pair_out is None) \
            or (paired is not None and (paired.shape[0] != trials or paired.shape[1] != 2 or pair_out.shape[0] != 10)):
        raise ValueError("mc_battle: bad record, paired or pair_out")
    cdef int8_t *rec = &record[0, 0] if record is not None and trials > 0 else NULL
    cdef const int8_t *base = &paired[0, 0] if paired is not None and trials > 0 else NULL
    cdef int64_t *po = &pair_out[0] if pair_out is not None else NULL
    cdef int res[2]
    cdef int k
    cdef int64_t x, y
    cdef TrialStreams ts
    cdef Setup p
    cdef Game g
    cdef int s, m, w, c
    cdef int64_t t
    for s in range(NSIDE):
        p.n[s] = n_models[s]
        if not 1 <= p.n[s] <= MAXPOSSE:
            raise ValueError("mc_battle: a posse has 1..10 models")
        for m in range(MAXM):
            p.order[s][m] = order[s, m]
            if m < p.n[s] and not 0 <= p.order[s][m] < p.n[s]:
                raise ValueError("mc_battle: bad model order")
            for c in range(NMC):
                p.mp[s][m][c] = models[s, m, c]
            if m < p.n[s] and not (2 <= p.mp[s][m][M_DIE_SHAKEN] <= MAX_FACES and 2 <= p.mp[s][m][M_DIE] <= MAX_FACES):
                raise ValueError("mc_battle: bad Grit Die")
            for w in range(MAXW):
                for c in range(NWC):
                    p.wp[s][m][w][c] = weapons[s, m, w, c]
                if p.wp[s][m][w][W_USABLE] and not (1 <= p.wp[s][m][w][W_DICE] <= MAX_DICE
                                                    and 2 <= p.wp[s][m][w][W_JAM] <= MAX_FACES
                                                    and 1 <= p.wp[s][m][w][W_SHOTS] <= 4):
                    raise ValueError("mc_battle: bad weapon row")
    for c in range(NOPT):
        p.opt[c] = options[c]
    if not (1 <= p.opt[O_TURNS] <= 64 and 2 <= p.opt[O_T] <= 10 and 2 <= p.opt[O_EVENT_DIE] <= 15
            and 2 <= p.opt[O_ROLLOFF_DIE] <= MAX_FACES and 2 <= p.opt[O_SCATTER_DIE] <= MAX_FACES
            and 1 <= p.opt[O_RECOVERY_DICE] <= MAX_DICE and 1 <= p.opt[O_BOSS_DICE] <= MAX_DICE
            and 1 <= p.opt[O_STANDIN_DICE] <= MAX_DICE):
        raise ValueError("mc_battle: options outside the kernel's limits")
    for c in range(16):
        p.event_code[c] = event_codes[c]
    for c in range(8):
        p.dyn_fail[c] = dynamite_failed[c]
    copy_rule_tables(save_table, damage, p.stab, p.dmg)
    trials_open(&ts, stream_bitgen(bit_generator))
    with bit_generator.lock, nogil:
        for t in range(trials):
            trial_streams(&ts, &g)
            play_game(&p, &g, &out[0], res)
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
