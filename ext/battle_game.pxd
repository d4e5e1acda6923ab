# cython: language_level=3
"""The battle kernel's state and its basic steps (cimported by shadows_battle.pyx and battle_table.pxd).

Only enums, ctypedefs and ``cdef inline`` functions: the column layouts the wrapper fills
(oddsmith.shadows.battle_plan), the per-game state, the dice helpers (Tests, Fight Tests,
Saves) and Damage ("Damage", "Shaken", "Downed").
"""
from libc.math cimport sqrt
from libc.stdint cimport uint64_t, uint32_t, int64_t, int32_t

from shadows_common cimport *

cdef enum:
    MAXM = 17          # model slots per side: MAX_POSSE_MODELS, 4 Revenants, 3 Summoned Entities
    ENT0 = 14          # the first Entity slot: ENT0 + Difficulty - 1 (Lesser, Minor, Major; battle_summon.pxd)
    MAXPOSSE = 10      # models per posse (MAX_POSSE_MODELS)
    MAXW = 3           # Weapons per model (MAX_WEAPONS_PER_MODEL)
    NCARDS = 54
    MAXHAND = 16
    NSIDE = 2
    NSLOTS = 16        # deployment slots per zone (4 x 4)

# Model columns
cdef enum:
    M_PRESENT, M_DIE, M_DIE_SHAKEN, M_RANK, M_BOSS, M_SAVE, M_CANCEL, M_SUPER, M_HTK, M_NERVE_RR,
    M_PREACHER, M_TRIGGER, M_GUNSLINGER, M_DANGER, M_VP, M_DYNAMITE, M_JAM_RR, M_STYLE, M_DESIRED, M_FIGHT_DICE,
    M_CLOSE_WORK, M_DERRINGER, M_BULL_RUSH, M_ORNERY, M_FEARSOME, M_FIGHT_SAVE, M_HAWKEYE, M_REVENANT, M_ARCANE, M_SLICK,
    M_WHISKEY, M_SNAKE_OIL, M_CASTS, M_QUICKDRAW, M_BUSHWHACKER, M_LOOKOUT, M_MOVE, M_LIMP, M_OLD_WOUND,
    M_SUMMON, M_BANISH, M_CONCENTRATE, M_UNIQUE, M_GRIMOIRE, M_MAGISTER, M_HARBINGER,
    M_BEAST, M_BEAST_MOVE, M_BEAST_ATTACK, M_BEAST_SAVE, M_BEAST_HUG, M_BASE_MM, M_BEAST_BASE_MM, M_FEEDS, M_FLYING,
    M_MOUNT_MOVE, M_NITRO, M_WATER, M_LASSO, M_LASSO_COVER, NMC

# Weapon columns (the band blocks: Short, Medium, Long in a row)
cdef enum:
    W_USABLE, W_DICE, W_JAM, W_SHOTS, W_SAVE, W_SILVER, W_PISTOL, W_FAR, W_EDGE, W_EDGE_M, W_EDGE_L,
    W_BDICE, W_BDICE_M, W_BDICE_L, W_BCOVER, W_BCOVER_M, W_BCOVER_L, W_BSAVE, W_BSAVE_M, W_BSAVE_L, W_CORRIDOR,
    W_ONCE, NWC

# Options
cdef enum:
    O_TURNS, O_TARGETS, O_ACTIVATION, O_LONE_GUN, O_READING, O_DISTANCE, O_DYN_RANGE, O_BLAST_RADIUS,
    O_BLAST_SAVE, O_CRITTER_SAVE, O_EVENTS, O_T, O_ONE_FACE, O_RECOVERY_DICE, O_RECOVERY_STAND, O_BOSS_DICE,
    O_STANDIN_DICE, O_SCATTER_DIE, O_ROLLOFF_DIE, O_EVENT_DIE, O_MOVEMENT, O_TERRAIN, O_TABLE, O_ZONE, O_BASE,
    O_MOVE, O_CLEARANCE, O_CHARGE_REACH, O_DUST_RANGE, O_DISENGAGE_DICE, O_DISENGAGE_SAVE, O_SPOT_DICE, O_FIGHT_DICE,
    O_CHARGE_DICE, O_OUTNUMBERED_DICE, O_FEARSOME_DICE, O_NERVE_DICE, O_DERRINGER_DICE, O_CLOSE_WORK_MAX,
    O_BULL_RUSH_SAVE, O_FRIEND_RECOVERY, O_ARCANE_RANGE, O_ARCANE_DICE, O_ARCANE_DIFFICULTY, O_CASTING_DICE,
    O_REVENANT_DIE, O_REVENANT_PLUS, O_REVENANTS_A, O_REVENANTS_B, O_SPOT_MIN, O_WHISKEY_DICE, O_WHISKEY_MOVE,
    O_OIL_DIE, O_OIL_ON,
    O_TRANSFIX_RANGE, O_TRANSFIX_DIFFICULTY, O_TRANSFIX_DICE, O_IMMOLATE_RANGE, O_IMMOLATE_DIFFICULTY, O_IMMOLATE_SAVE,
    O_REACTION_DICE, O_HEALING_DIFFICULTY,
    O_TOKEN_RANGE, O_BLESS_DIFFICULTY, O_CURSE_DIFFICULTY, O_DISPEL_DIFFICULTY,
    O_SUMMON_RANGE, O_BANISH_RANGE, O_BANISH_DIFFICULTY, O_ENTITY_BLAST_DICE, O_CONCENTRATE_DICE, O_UNIQUE_DICE,
    O_HARBINGER_RANGE, O_HARBINGER_DICE, O_GUN_PACE, O_HUMAN_RETURN, O_GOOD_SHOT_DICE, O_GOOD_SHOT,
    O_FORTIFIED_DICE, O_HORSE_DIE, O_HORSE_RIDER_SAVE, O_MOUNTED_BASE_MM, O_NITRO_FUSE, O_LOOKOUT_MOVE,
    O_STORM_DICE, O_LIGHT_DICE, O_CORRIDOR_HALF, O_CORRIDOR_SAVE, O_BIG_TARGET_MM,
    O_LASSO_RANGE, O_LASSO_DRAG, O_LASSO_BIG_DRAG, O_FALL_SAVE, O_LASSO_PLAN, O_BASE_MM, NOPT

# Target policies, activation policies, movement modes, styles
cdef enum:
    TG_DANGEROUS = 0
    TG_WEAKEST = 1
    TG_BOSS = 2
    TG_CLOSEST = 3
    ACT_AUTO = 0
    ACT_DUAL = 1
    ACT_SOLO = 2
    MOVE_TABLE = 0
    MOVE_NONE = 1
    STYLE_GUN = 0
    STYLE_BRAWL = 1

# Event effects (per face of the Event die)
cdef enum:
    EV_NONE = 0
    EV_CRITTER = 1
    EV_DUST = 2
    EV_OMEN = 3
    EV_HERO = 4
    EV_GLOOM = 5        # Supernatural Events (--events supernatural): Unnatural Gloom, Let There Be Light, Arcane Storm
    EV_LIGHT = 6
    EV_STORM = 7

# Failed Dynamite throw results
cdef enum:
    DY_THROWER = 1
    DY_TOWARDS = 2
    DY_AWAY = 3
    DY_DUD = 4

# What a Shoot Action throws (battle_table.throw_choice; section 11b)
cdef enum:
    TH_NONE = 0
    TH_NITRO = 1
    TH_DYNAMITE = 2
    TH_WATER = 3

# What one Action of the table game did
cdef enum:
    DID_NOTHING = 0
    DID_MOVE = 1
    DID_SHOOT = 2
    DID_FIGHT = 3
    DID_CHARGE = 4
    DID_DISENGAGE = 5
    DID_CLEAR = 6
    DID_CAST = 7
    DID_LOOKOUT = 8     # went on Lookout (battle_reactions.pxd)
    DID_CONCENTRATE = 9  # Concentrated for the next Action's Cast (battle_arcane.pxd)
    DID_FEED = 10       # a Broodkin Fed (battle_table.feed)

# Output counters
cdef enum:
    C_A_WINS, C_B_WINS, C_DRAW, C_A_BOTTLES, C_B_BOTTLES, C_A_WIPED, C_B_WIPED, C_TURNS, C_TURNS2,
    C_CAS_A, C_CAS_A2, C_CAS_B, C_CAS_B2, C_EVENTS, C_EVENTS2, C_EVENTS_TURNS, C_A_FIRST, C_EVENT_T1,
    C_BY_VP, C_VP_A, C_VP_B, C_VP_A2, C_VP_B2, C_FIGHTS, C_FIGHTS2, C_FCAS_A, C_FCAS_A2, C_FCAS_B, C_FCAS_B2,
    C_HEAD_PAD, NHEAD


ctypedef struct Setup:
    int mp[NSIDE][MAXM][NMC]
    int wp[NSIDE][MAXM][MAXW][NWC]
    int opt[NOPT]
    int stab[MAX_TABLE]
    int dmg[MAX_TABLE]
    int event_code[16]
    int dyn_fail[8]
    int order[NSIDE][MAXM]       # models by danger, most dangerous first; Revenant slots after the posse
    int rank_of[NSIDE][MAXM]     # position of each model in ``order`` (ties of the table's choices)
    int n[NSIDE]                 # posse models (Revenant slots come after them)
    int rev[NSIDE]               # 1: D3+1 Revenants join this side
    int spot_ok[NSIDE][MAXM][2]  # 1: a Spotting Test passes at least SPOTTING_MIN_CHANCE (index: Shaken)
    double move_in[NSIDE][MAXM][3]   # its Move in inches on foot, in its Beast Form, on horseback (move_of)
    double desired_in[NSIDE][MAXM]   # its D* in inches
    int gun_posse[NSIDE]         # bit m: posse model m plays gun style (gun_pace)
    int special[NSIDE][MAXM]     # 1: it may Feed, Limp, carry Gear, take a Beast Form or cast (table_action's checks)
    int pistols[NSIDE][MAXM]     # its Pistols: with fewer than two, Gunslinger is never read (pistol_pair)
    int arcane[NSIDE][MAXM]      # 1: it may Summon, Banish or cast an Arcane Power (act's checks)
    double slot_x[NSIDE][NSLOTS]
    double slot_y[NSIDE][NSLOTS]
    double base                  # a standard base's diameter: centre distance of two such models in Contact
    double clear                 # centre distance of two standard bases 1" apart (clear2 its square)
    double contact2              # squared thresholds of measured2 (inches²): Contact, the 1" rule, Charge reach,
    double clear2                # Dust Storm, Dynamite's throw, Arcane Blast's range
    double dust2
    double dyn2
    double arcane2
    double lasso2                # a Lasso's throw ("up to 6"")
    double band2[NSIDE][MAXM][MAXW][3]   # squared centre distance of each band's far edge
    double desired2[NSIDE][MAXM]         # squared centre distance at D*
    double reach2[NSIDE][MAXM]           # squared centre distance a Charge reaches: the model's Move
    double beast_reach2[NSIDE][MAXM]     # the same in its Beast Form (a Skinwalker's, M_BEAST_MOVE)
    double mount_reach2[NSIDE][MAXM]     # the same on horseback (M_MOUNT_MOVE)
    double lo                    # the table's edge for a model's centre (half a base in)
    double hi
    uint64_t cover_thr           # a Line of Fire is in Cover when a 32-bit draw is below this (2**32: always)


ctypedef struct Game:
    DiceStream st                # dice, Roll-Offs and random models of this trial
    DiceStream cards             # Deck shuffles of this trial
    uint64_t dice_seed           # the trial's dice key: each round and Recovery Phase re-keys g.st from it
    uint64_t *dice_key
    int turn
    int nm[NSIDE]                # models of the side in this game: the posse, then the Revenants that joined
    int acts[NSIDE][MAXM]        # Actions begun this Game Turn, for re-keying the dice per Action
    int on[NSIDE][MAXM]
    int downed[NSIDE][MAXM]
    int shaken[NSIDE][MAXM]
    int done[NSIDE][MAXM]
    int cas[NSIDE][MAXM]
    int jam[NSIDE][MAXM]
    int dyn[NSIDE][MAXM]
    int omen[NSIDE][MAXM]
    int fought[NSIDE][MAXM]      # took part in a Fight this game
    int touch[NSIDE][MAXM]       # the tracked columns (T_*) of the model that play has read this game
    int derringer[NSIDE][MAXM]   # the Derringer's once-per-game +1 is still to use
    int fear[NSIDE][MAXM]        # the Activation (act_id) in which it failed a Nerve Test against a Fearsome model
    int whiskey[NSIDE][MAXM]     # bottles of Whiskey and Snake Oil left (battle_gear.pxd); the Game Turn it drank in
    int oil[NSIDE][MAXM]
    int drunk[NSIDE][MAXM]
    double x[NSIDE][MAXM]
    double y[NSIDE][MAXM]
    double grow[NSIDE][MAXM]     # its base's radius beyond a standard base's (inches; 0.3 on a 40mm base: section 11d)
    int cmask[NSIDE][MAXM]       # enemies whose base touches this model's (bit t: enemy model t), on the table or not
    double md2[NSIDE][MAXM][MAXM]   # measured2 of each pair of enemies as last placed (set_contacts, measure_row):
                                    # md2[s][m][t] is model m of side s and enemy t, the same as md2[1 - s][t][m]
    int upmask[NSIDE]            # models on the table and not Downed
    int nc_valid                 # the closest enemy model nc_s/nc_m may shoot at is cached: nc_t, nc_d2 (any change
    int nc_s                     # of positions or states clears it)
    int nc_m
    int nc_t
    double nc_d2
    int onmask[NSIDE]            # models on the table
    int act_id
    int fights
    int fight_cas[NSIDE]
    int deck[NSIDE][NCARDS]
    int deck_n[NSIDE]
    int disc[NSIDE][NCARDS]
    int disc_n[NSIDE]
    int hand[NSIDE][MAXHAND]
    int hand_n[NSIDE]
    int hand_pos[NSIDE]
    int vp[NSIDE]
    int dust                     # 1: a Dust Storm (nobody sees past 12"); 2: Unnatural Gloom (only Supernatural
                                 # models do)
    int light                    # Let There Be Light this Game Turn: Supernatural models -1 Die on all Tests
    int storm                    # an Arcane Storm this Game Turn: +1 Die to Cast; a Miscast makes the Caster a Casualty
    int event_this_turn
    int look[NSIDE][MAXM]        # on Lookout (battle_reactions.pxd): holds a Lookout Token
    int nlook[NSIDE]             # models of the side on Lookout (0: no Reaction work at all)
    int moved[NSIDE][MAXM]       # the Activation (act_id) of its last Move Action: Limp allows one per Activation
    int tok[NSIDE][MAXM]         # a Bless or Curse token on the model (MODE_BLESS, MODE_CURSE; battle_tokens.pxd)
    int tok_by[NSIDE][MAXM]      # the token's Caster: side * MAXM + model
    int ntok                     # tokens in play (0: no Test or Save looks at them)
    int beast[NSIDE][MAXM]       # a Skinwalker in its Beast Form (section 9: Beast Forms)
    int mounted[NSIDE][MAXM]     # riding its horse (section 11a: Horses)
    int nitro[NSIDE][MAXM]       # carries its Vial of Nitro, not yet thrown (section 11b)
    int water[NSIDE][MAXM]       # flasks of Blessed Water left (section 11b)
    int fuse                     # 1 + side * MAXM + model: its carried Nitro goes off when this Save's Damage is done
    int once[NSIDE][MAXM]        # bit w: Weapon w's once-per-game fire corridor is spent (a LeMat's; section 4a)
    int gs_pending               # "Good Shot!" (battle_table.react): in this Action (act() clears it) a Lookout model
                                 # waits for the Active model's Dynamite throw: model gs_r with Weapon gs_w, on the
                                 # dice stretch gs_tag; the Action's own stretch is act_tag
    int gs_r
    int gs_w
    uint64_t gs_tag
    uint64_t act_tag
    int owner[NSIDE][MAXM]       # an Entity slot's Summoner (battle_summon.pxd); -1: none. A side's g.nm is MAXM once
                                 # it has Summoned (slots between its Revenants and ENT0 stay off the table)


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    """The SplitMix64 output function (Steele, Lea & Flood 2014)."""
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline void dice_segment(Game *g, uint64_t tag) noexcept nogil:
    """Re-key the trial's dice stream for one stretch of play (a round of cards, a side's Recovery Phase, one
    model's Action), so that two runs on one seed roll the same dice there whatever the earlier stretches drew
    (common random numbers)."""
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


cdef inline int fight_result_of(int *faces, int n, int T, int *high) noexcept nogil:
    """A Fight Test's final dice read: its Successes, and ``high`` the single highest die (the tie-break)."""
    cdef int i, s = 0, h = 0
    for i in range(n):
        if faces[i] >= T:
            s += 1
        if faces[i] > h:
            h = faces[i]
    high[0] = h
    return s


cdef inline int roll_fight_test(DiceStream *st, int D, int T, int n, int reading, int *high) noexcept nogil:
    """A Fight Test ("Fight: 2"): Successes of n dice (the Test's own maximum-face re-rolls), ``high`` the single
    highest final die."""
    cdef int faces[MAX_DICE]
    cdef char rr[MAX_DICE]
    if n < 1:
        n = 1
    if n > MAX_DICE:
        n = MAX_DICE
    roll_and_reroll(st, D, T, n, reading, 0, faces, rr)
    return fight_result_of(faces, n, T, high)


# ---------------------------------------------------------------------------
# Tracked columns: which of a model's rarely read columns a game reads (oddsmith.shadows.battle.run_paired)
# ---------------------------------------------------------------------------

cdef enum:
    T_FIGHT_DICE = 1
    T_CLOSE_WORK = 2
    T_ORNERY = 4
    T_FEARSOME = 8
    T_BULL_RUSH = 16
    T_FIGHT_SAVE = 32
    T_HTK = 64
    T_GUNSLINGER = 128
    T_SAVE_MOD = 256
    T_HAWKEYE = 512
    T_JAM_RR = 1024
    T_NERVE_RR = 2048
    T_DIE_SHAKEN = 4096
    T_TRIGGER = 8192
    T_LOOKOUT = 16384
    T_BUSHWHACKER = 32768
    T_QUICKDRAW = 65536   # read by no rule of the kernel: never marked, so its changes copy every game


cdef inline int tracked(Setup *p, Game *g, int s, int m, int column, int bit) noexcept nogil:
    """Column ``column`` of model m (side s), marked as read in this game (``bit``). Every read of a tracked column
    goes through here: a game that never reads one plays the same whatever it holds, so a paired run of a posse
    that differs from the base only there copies the base's outcome for that game instead of playing it."""
    g.touch[s][m] |= bit
    return p.mp[s][m][column]


cdef inline int standing(Game *g, int s, int m) noexcept nogil:
    return g.on[s][m] and not g.downed[s][m]


cdef inline int cur_die(Setup *p, Game *g, int s, int m) noexcept nogil:
    if g.shaken[s][m]:
        return tracked(p, g, s, m, M_DIE_SHAKEN, T_DIE_SHAKEN)
    return p.mp[s][m][M_DIE]


cdef inline void refresh_masks(Game *g, int s) noexcept nogil:
    """Recount which models of side s are on the table and which of those stand (after any change of state)."""
    cdef int m, up = 0, on = 0
    for m in range(g.nm[s]):
        if g.on[s][m]:
            on |= 1 << m
            if not g.downed[s][m]:
                up |= 1 << m
    g.upmask[s] = up
    g.onmask[s] = on
    g.nc_valid = 0


cdef inline void revenants_leave(Setup *p, Game *g, int s) noexcept nogil:
    """The Boss is a Casualty: "all Revenants are removed" at once (not Casualties, no VP; Revenants)."""
    cdef int m
    for m in range(p.n[s], g.nm[s] if g.nm[s] < ENT0 else ENT0):
        g.on[s][m] = 0
        g.downed[s][m] = 0
    refresh_masks(g, s)


cdef inline void summoned_alone(Game *g, int s) noexcept nogil:
    """"If you only have Summoned models left on the table at any point, they are removed immediately" ("Summoned
    Models"; not Casualties). Only for a side that has Summoned (g.nm[s] == MAXM)."""
    cdef int m
    for m in range(ENT0):
        if g.on[s][m]:
            return
    for m in range(ENT0, MAXM):
        g.on[s][m] = 0
        g.downed[s][m] = 0


cdef inline void lookout_lost(Game *g, int o, int t) noexcept nogil:
    """The Lookout Token "is immediately replaced by a Done Token" ("Lookout"; battle_reactions.pxd)."""
    g.look[o][t] = 0
    g.nlook[o] -= 1
    g.done[o][t] = 1


cdef inline int spend_token(Game *g, int s, int m) noexcept nogil:
    """The model's Bless or Curse token (MODE_NONE if none), removed: it acts on this Test or Save (battle_tokens.pxd)."""
    cdef int k = g.tok[s][m]
    if k:
        g.tok[s][m] = 0
        g.ntok -= 1
    return k


cdef inline void caster_out(Game *g, int s, int m) noexcept nogil:
    """"Should the Caster be Downed or become a Casualty, the effects of all Powers they have in play will end
    immediately": its Bless and Curse tokens go (battle_tokens.pxd)."""
    cdef int side, t, c = s * MAXM + m
    for side in range(NSIDE):
        for t in range(MAXM):
            if g.tok[side][t] and g.tok_by[side][t] == c:
                g.tok[side][t] = 0
                g.ntok -= 1


cdef inline int hurt(Setup *p, Game *g, int o, int t, int code, int credit) noexcept nogil:
    """Apply a Damage result to model t of side o; ``credit`` (-1: nobody) earns the Victory Points of a Casualty.
    Returns 1 if the model became a Casualty. A model on Lookout that is Shaken, Downed or removed loses it. Then a
    Vial of Nitro whose bearer failed this Save with a score of 1 or 2 "immediately explodes with the blast centred
    over them" (save_roll lit the fuse; the blast credited as the Damage is)."""
    cdef int r = damage_model(p, g, o, t, code, credit), f, fo, ft
    if g.fuse:
        f = g.fuse - 1
        g.fuse = 0
        fo = f // MAXM
        ft = f % MAXM
        g.nitro[fo][ft] = 0
        blast_at(p, g, credit, g.x[fo][ft], g.y[fo][ft], 0)
    return r


cdef inline int damage_model(Setup *p, Game *g, int o, int t, int code, int credit) noexcept nogil:
    """hurt's Damage itself."""
    if code == DMG_NONE:
        return 0
    if g.ntok and (code >= DMG_DOWNED or g.shaken[o][t]):
        caster_out(g, o, t)   # Downed or a Casualty: its Powers end
    if g.look[o][t]:
        lookout_lost(g, o, t)
    if (g.beast[o][t] or g.mounted[o][t]) and (code >= DMG_DOWNED or g.shaken[o][t]):
        g.beast[o][t] = 0   # "If Downed, it reverts to Human Form immediately" (a Casualty too)
        g.mounted[o][t] = 0   # "A rider that is Downed is forcibly dismounted ... their horse immediately flees"
        if code != DMG_CASUALTY:
            resize(p, g, o, t)   # its smaller base (a Casualty leaves the table)
    if code == DMG_CASUALTY:
        g.on[o][t] = 0
        g.cas[o][t] = 1
        g.downed[o][t] = 0
        if credit >= 0:
            g.vp[credit] += p.mp[o][t][M_VP]
        if p.mp[o][t][M_BOSS] and p.rev[o]:
            revenants_leave(p, g, o)
        if g.nm[o] == MAXM:
            summoned_alone(g, o)
        refresh_masks(g, o)
        return 1
    if code == DMG_DOWNED:
        g.downed[o][t] = 1
    elif g.shaken[o][t]:
        g.downed[o][t] = 1   # "Further Damage results of Shaken cause the model to be immediately Downed"
    else:
        g.shaken[o][t] = 1
    refresh_masks(g, o)
    return 0


cdef inline int save_roll(Setup *p, Game *g, int o, int t, int target, int mod) noexcept nogil:
    """Damage code of one Save on the model's (Shaken-lowered) Grit Die ("Target Makes Save if Hit", "Damage")."""
    cdef int D = cur_die(p, g, o, t), x, k
    mod += tracked(p, g, o, t, M_SAVE, T_SAVE_MOD) - g.omen[o][t]
    x = roll_die(&g.st, D)
    if g.ntok and g.tok[o][t]:
        # its Bless re-rolls a failed Save, its Curse a passed one, once (battle_tokens.pxd)
        k = spend_token(g, o, t)
        if (k == MODE_BLESS) == (x + mod < target):
            x = roll_die(&g.st, D)
    if g.nitro[o][t] and x + mod < target and x + mod <= p.opt[O_NITRO_FUSE]:
        g.fuse = 1 + o * MAXM + t   # "fails a Save with a score of 1 or 2" (the modified score; docs section 11b)
    return damage_code(x + mod, target, p.dmg)


cdef inline int horse_falls(Setup *p, Game *g) noexcept nogil:
    """A horse's Save in a blast, on a Novice's Grit Die ("it counts as a Novice and immediately becomes a Casualty
    should it Fail any Save"): 1 if it fails."""
    return roll_die(&g.st, p.opt[O_HORSE_DIE]) < p.opt[O_BLAST_SAVE]


cdef inline void blast_at(Setup *p, Game *g, int s, double bx, double by, int only_super) noexcept nogil:
    """Dynamite explodes at (bx, by): every model on the table whose centre is within the blast radius (3", "centre
    of base fully within") makes a 7+ Save, side s's enemies first ("Ka-Boom!"); side s (-1: nobody) earns VP for
    enemy Casualties. ``only_super``: Blessed Water, which "only affects Supernatural models" (a horse is not one)."""
    cdef int k, side, t, credit
    cdef double dx, dy, r = p.opt[O_BLAST_RADIUS]
    for k in range(2):
        side = (1 - s if k == 0 else s) if s >= 0 else k
        credit = s if side != s else -1
        for t in range(g.nm[side]):
            if not g.on[side][t] or (only_super and not p.mp[side][t][M_SUPER]):
                continue
            dx = g.x[side][t] - bx
            dy = g.y[side][t] - by
            if dx * dx + dy * dy <= r * r + 1e-9:
                hurt(p, g, side, t, save_roll(p, g, side, t, p.opt[O_BLAST_SAVE], 0), credit)
                if g.mounted[side][t] and g.on[side][t] and not only_super and horse_falls(p, g):
                    # "A mounted model ... makes two Saves, on behalf of both horse and rider"; its horse a Casualty,
                    # the rider "must then make a 5+ Save" (section 11a: the rider's Save first)
                    g.mounted[side][t] = 0
                    resize(p, g, side, t)
                    hurt(p, g, side, t, save_roll(p, g, side, t, p.opt[O_HORSE_RIDER_SAVE], 0), credit)


cdef inline void land_shot(Setup *p, Game *g, int s, int m, int o, int t, int succ, int save_mod) noexcept nogil:
    """A hit with ``succ`` Successes: Boilerplate cancels one, then the Target's Save ("Target Makes Save if Hit")."""
    cdef int e = succ - (0 if g.beast[o][t] else p.mp[o][t][M_CANCEL])   # no Gear in a Beast Form: no Boilerplate
    if e <= 0:
        return
    if e >= MAX_TABLE:
        e = MAX_TABLE - 1
    hurt(p, g, o, t, save_roll(p, g, o, t, p.stab[e], save_mod), s)


cdef inline int jams(Setup *p, Game *g, int s, int m, int w) noexcept nogil:
    """A missed shot that rolled a 1: the Jamming Check on the Weapon's Jam Die, Gunsmith re-rolling a Failure
    ("Jamming"). Returns 1 (and marks the Weapon Jammed) when it Jams."""
    cdef int jd = p.wp[s][m][w][W_JAM]
    if jd == 0:
        return 0   # Jam Die 0: a Weapon that never Jams (a Seraphim's Blessed Pistols)
    if roll_die(&g.st, jd) < p.opt[O_T] and (tracked(p, g, s, m, M_JAM_RR, T_JAM_RR) == 0
                                             or roll_die(&g.st, jd) < p.opt[O_T]):
        g.jam[s][m] |= 1 << w
        return 1
    return 0


# ---------------------------------------------------------------------------
# On the table: distances and Cover, shared by the table's steps and the Reactions
# ---------------------------------------------------------------------------

cdef inline double dist2(Game *g, int s, int m, int o, int t) noexcept nogil:
    """Squared centre distance of two models (inches²): for directions and centre-based rules (a blast)."""
    cdef double dx = g.x[s][m] - g.x[o][t], dy = g.y[s][m] - g.y[o][t]
    return dx * dx + dy * dy


cdef inline double measured2(Game *g, int s, int m, int o, int t) noexcept nogil:
    """The squared distance every "within" compares ("Measuring": edge to edge): the centre distance less the two
    bases' radii beyond a standard base's (g.grow), squared, so that one threshold sq(base + X) serves every pair
    of bases without square roots where both are standard (section 11d)."""
    cdef double dx = g.x[s][m] - g.x[o][t], dy = g.y[s][m] - g.y[o][t], e = g.grow[s][m] + g.grow[o][t], d
    if e == 0:
        return dx * dx + dy * dy
    d = sqrt(dx * dx + dy * dy) - e
    return d * d if d > 0 else 0.0


cdef inline double grow_of(Setup *p, Game *g, int s, int m) noexcept nogil:
    """Its base's radius beyond a standard base's in inches: a base of B mm is B / base_mm standard bases across
    (base_mm 0: every base standard, the geometry before section 11d)."""
    if p.opt[O_BASE_MM] <= 0:
        return 0.0
    return (base_mm_of(p, g, s, m) - p.opt[O_BASE_MM]) * p.base / (2.0 * p.opt[O_BASE_MM])


cdef inline void measure_row(Game *g, int s, int m) noexcept nogil:
    """Model m of side s stands somewhere new or on a new base: measure it against every enemy slot in play (md2).
    Every change of place or base ends here (set_contacts calls it), and so do the deployment and a look from another
    Form. The hot scans read a distance instead of working it out again (section
    11d's square root for every 40mm pair)."""
    cdef int o = 1 - s, t
    cdef double d
    for t in range(g.nm[o]):
        d = measured2(g, s, m, o, t)
        g.md2[s][m][t] = d
        g.md2[o][t][m] = d


cdef inline double enemy2(Game *g, int s, int m, int t) noexcept nogil:
    """measured2 of model m of side s and enemy model t, as measure_row last measured them."""
    return g.md2[s][m][t]


cdef inline int set_contacts(Setup *p, Game *g, int s, int m) noexcept nogil:
    """Model m of side s stands somewhere new: measure it against every enemy (measure_row) and recompute which enemy
    bases touch its base (both sides' masks); returns its mask."""
    cdef int o = 1 - s, t, mask = 0
    measure_row(g, s, m)
    for t in range(g.nm[o]):
        if g.md2[s][m][t] <= p.contact2:
            mask |= 1 << t
            g.cmask[o][t] |= 1 << m
        else:
            g.cmask[o][t] &= ~(1 << m)
    g.cmask[s][m] = mask
    g.nc_valid = 0
    return mask


cdef inline void clamp(Setup *p, Game *g, int s, int m) noexcept nogil:
    """A model stays on the table: its centre at least its base's radius in from every edge."""
    cdef double lo = p.lo + g.grow[s][m], hi = p.hi - g.grow[s][m]
    if g.x[s][m] < lo:
        g.x[s][m] = lo
    elif g.x[s][m] > hi:
        g.x[s][m] = hi
    if g.y[s][m] < lo:
        g.y[s][m] = lo
    elif g.y[s][m] > hi:
        g.y[s][m] = hi


cdef inline void resize(Setup *p, Game *g, int s, int m) noexcept nogil:
    """Its base changed (off its horse, into or out of a Beast Form; section 11d): the new model stands where the old
    one stood; a smaller one that touched an enemy is placed touching the first of them (by index) still, its centre
    moved towards that enemy's by the difference of the radii. Then it is kept on the table and its Contacts are
    recomputed (not a Move: no Lookout Token is lost)."""
    cdef double was = g.grow[s][m], now = grow_of(p, g, s, m), dx, dy, d
    cdef int o = 1 - s, t, touch
    if now == was:
        return
    g.grow[s][m] = now
    touch = g.cmask[s][m] & g.onmask[o]
    if now < was and touch:
        t = 0
        while not (touch >> t) & 1:
            t += 1
        dx = g.x[o][t] - g.x[s][m]
        dy = g.y[o][t] - g.y[s][m]
        d = sqrt(dx * dx + dy * dy)
        if d > 1e-12:
            g.x[s][m] += dx / d * (was - now)
            g.y[s][m] += dy / d * (was - now)
    clamp(p, g, s, m)
    set_contacts(p, g, s, m)


cdef inline int in_cover(Setup *p, Game *g) noexcept nogil:
    """Is this Line of Fire in Cover? One draw per shot per candidate at the terrain's density."""
    if p.cover_thr == 0:
        return 0
    if p.cover_thr >= (<uint64_t>1 << 32):
        return 1
    return stream_u32(&g.st) < p.cover_thr


cdef inline int bottle_roller(Setup *p, Game *g, int s) noexcept nogil:
    """The model that makes side s's Bottle Check now ("Bottle Checks"): the Boss if it stands, else the next highest
    Rank standing (among equals the larger die now rolled, then Nerves of Steel; first in model order); -1 if nobody
    stands."""
    cdef int m, k, best = -1, roller = -1
    for m in range(p.n[s]):
        if p.mp[s][m][M_BOSS] and standing(g, s, m):
            return m
    for m in range(p.n[s]):
        if standing(g, s, m):
            k = p.mp[s][m][M_RANK] * 100 + cur_die(p, g, s, m) * 2 + tracked(p, g, s, m, M_NERVE_RR, T_NERVE_RR)
            if k > best:
                best = k
                roller = m
    return roller


cdef inline int band_at(Setup *p, int s, int m, int w, double d2) noexcept nogil:
    """The range band (0 Short, 1 Medium, 2 Long) of Weapon w of model m at squared centre distance ``d2`` (the caller
    knows it is within Long Range)."""
    return 0 if d2 <= p.band2[s][m][w][0] else (1 if d2 <= p.band2[s][m][w][1] else 2)


cdef inline int gloomy(Setup *p, Game *g, int s, int m) noexcept nogil:
    """Model m of side s sees no farther than 12": a Dust Storm ("Visibility drops to a maximum of 12"") or, if it is
    not Supernatural, Unnatural Gloom ("visibility is reduced to 12" for all non-Supernatural models")."""
    return g.dust == 1 or (g.dust == 2 and not p.mp[s][m][M_SUPER])


cdef inline int light_dice(Setup *p, Game *g, int s, int m, int n) noexcept nogil:
    """The Dice of a Test under Let There Be Light: "all Supernatural models suffer a -1 Die Modifier on all Tests",
    never below one Die ("You can never be reduced to 0 Dice for any Test")."""
    if g.light and n > 0 and p.mp[s][m][M_SUPER]:
        n += p.opt[O_LIGHT_DICE]
        if n < 1:
            return 1
    return n


cdef inline int weapon_ready(Setup *p, Game *g, int s, int m, int w) noexcept nogil:
    """Weapon w may fire: usable, not Jammed, not beyond a Dust Storm's (or Unnatural Gloom's) 12", and the model not
    in a Beast Form ("cannot use any Weapons or Gear")."""
    return p.wp[s][m][w][W_USABLE] and not ((g.jam[s][m] >> w) & 1) and not (g.dust and p.wp[s][m][w][W_FAR]
                                                                             and gloomy(p, g, s, m)) \
        and not g.beast[s][m]


# ---------------------------------------------------------------------------
# A Skinwalker's Beast Form ("The Skinwalker Tribes"; docs/shadows-battles.md section 9)
# ---------------------------------------------------------------------------

cdef inline int fearsome(Setup *p, Game *g, int s, int m) noexcept nogil:
    """Fearsome: the Skill, or a Beast Form ("It gains Fearsome")."""
    return tracked(p, g, s, m, M_FEARSOME, T_FEARSOME) or g.beast[s][m]


cdef inline double move_of(Setup *p, Game *g, int s, int m) noexcept nogil:
    """Its Move in inches, in the Form it is in, or on horseback ("A model on horseback moves 6"")."""
    if g.mounted[s][m]:
        return p.move_in[s][m][2]
    return p.move_in[s][m][1 if g.beast[s][m] else 0]


cdef inline double reach2_of(Setup *p, Game *g, int s, int m) noexcept nogil:
    """The squared centre distance its Charge reaches, in the Form it is in, or on horseback."""
    if g.mounted[s][m]:
        return p.mount_reach2[s][m]
    return p.beast_reach2[s][m] if g.beast[s][m] else p.reach2[s][m]


cdef inline int base_mm_of(Setup *p, Game *g, int s, int m) noexcept nogil:
    """Its base in mm, in the Form it is in (a Beast Form's 40mm; the bear-hug compares bases), or on horseback
    ("Mounted models have a 40mm diameter base")."""
    if g.mounted[s][m]:
        return p.opt[O_MOUNTED_BASE_MM]
    return p.mp[s][m][M_BEAST_BASE_MM] if g.beast[s][m] else p.mp[s][m][M_BASE_MM]
