"""The glossary of every report: each term the pages use, explained once, here.

Every format prints these entries (a glossary page at the end of a PDF, PNG or
SVG report; a glossary section in Markdown and HTML), so a term is worded in
one place only. The rules are the project's rules model
(:mod:`oddsmith.rules.doomtown`, :mod:`oddsmith.rules.shadows`), which cite the
Doomtown rulebook and quick reference and the Shadows of the West rulebook by
section; the wording here is the project's own.

Entries belong to the part of the report that uses them: a report without a
Shadows part prints no Shadows terms.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

#: The parts of a report (the top level of the PDF bookmarks).
DOOMTOWN = "Doomtown deck report"
SHADOWS = "Shadows of the West reference sheets"

GLOSSARY_TITLE = "Glossary"


@dataclass(frozen=True)
class Term:
    """One glossary entry: the term as the pages print it and what it means."""

    term: str
    meaning: str


#: How to read the colours of every heatmap (stated on the glossary's first page and in docs/reports.md).
COLOUR_CONVENTION = [
    "Heatmaps print their number in every cell; the colour only helps the eye, and always means the same thing. "
    "Each colour bar names whom the colour is about (the row deck, the shooter, the model saving, the attacker, "
    "the roller): bright yellow is better for them, dark blue is worse. So high P(win) is yellow, and high "
    "casualties suffered are dark blue, on every page.",
    "Where a table mixes good and bad outcomes (Hit and Jams on the shooting sheets, Saved and Casualty on the "
    "save sheets), each column is coloured by what it means for that side and shaded on its own range: "
    "brightest in the row best for that side, darkest in the worst; the colour bar reads from worse to better "
    "instead of a percentage.",
    "Grey shades (white to dark grey) show how likely an outcome is when it is neither good nor bad as such, "
    "e.g. the distribution of casualties in a round.",
    "The blue-to-yellow scale (cividis) is readable by colour-blind readers and prints as light to dark in "
    "black and white.",
]

GENERAL = (
    Term("P(…) and (%)", "A probability, printed as a percentage: P(win) 62.5 means 62.5 in 100. Headers marked "
         "(%) hold percentages without the % sign."),
    Term("exact", "Computed by counting every case (every five-card hand, every roll of the dice) or by dynamic "
         "programming over them: no sampling error."),
    Term("simulated, trials, seed", "Estimated by dealing or rolling many times (trials). The seed fixes the "
         "random numbers, so the same seed and trials give the same figures on any machine and with any "
         "number of workers."),
    Term("standard error, ±", "How far a simulated figure may stray from the true value through chance alone: "
         "about two times in three within ± one standard error, nineteen times in twenty within ± two. "
         "It shrinks with the square root of the trials. Exact figures have none."),
    Term("whiskers (error bars)", "The line through the end of a bar or a point on every chart: ± 2 standard "
         "errors either side (about a 95 % interval). A bar whose whiskers cross zero is no measurable change. "
         "Tables print ± one standard error."),
    Term("pp (percentage points)", "The unit of a difference between percentages: 40 % to 42 % is 2 pp."),
    Term("rows that add up to 100", "Where a row (or column) lists every outcome of one roll or deal, its "
         "figures add up to 100 %, give or take the rounding of the last digit."),
)

DOOMTOWN_TERMS = (
    Term("stud bonus", "Extra cards a posse draws in a shootout: it draws 5 + stud bonus and keeps the best five. "
         "It comes from the shooter's bullets and the posse's other stud dudes (Quick reference \"Stud Bonus\")."),
    Term("draw bonus", "How many cards of the draw hand a posse may discard and replace, once, from its deck before "
         "it keeps five (Quick reference \"Draw Bonus\")."),
    Term("stud s, draw d", "A shootout hand made with stud bonus s and draw bonus d. \"(exact)\" marks the cells "
         "computed exactly (no draw bonus and a stud bonus of 0 to 2); the rest are simulated."),
    Term("hand rank", "The poker rank of a five-card hand, numbered from 1 (High Card) through Pair, Two Pair, "
         "Three of a Kind (3 Kind), Straight, Flush, Full House (Full H.), Four of a Kind (4 Kind), Straight "
         "Flush (Str. Fl.) and Five of a Kind (5 Kind) to 11, Dead Man's Hand (DMH)."),
    Term("P(rank r or better), Pair+ … 5 Kind+", "The chance that the kept hand is of rank r or better (\"Full H.+\": a "
         "Full House or any higher hand)."),
    Term("mean rank", "The average rank number (1 = High Card … 11 = Dead Man's Hand) of the kept hand: one "
         "figure for how strong a deck's hands are. In lowball a lower mean rank is better."),
    Term("cheatin', P(cheatin')", "A cheatin' hand is an illegal one: it could not be made from one regular deck "
         "(two identical cards, as a deck may hold several copies of a suit and value). A joker never makes a "
         "hand cheatin'. Cheatin' hands can be punished by Cheatin' Resolutions (Rulebook \"Cheatin'\")."),
    Term("policy (hand-keeping): legal, greedy, margin:K", "Which five cards a side keeps. legal: the best legal "
         "hand whenever one exists (it cheats only when it must). greedy: the highest hand whatever its "
         "legality. margin:K: cheat only when the best hand is K or more ranks above the best legal one."),
    Term("heuristic discard, search", "Which cards a side throws away with its draw bonus. heuristic: a sensible "
         "player's rule (keep the made or nearly made hand, drop the loose cards). search: the reference, the "
         "discard with the highest expected kept rank, found by trying every discard and every redraw (slow, "
         "small cases only). The Automaton variant has its own rule (automaton)."),
    Term("lowball, Gamblin'", "In the Gamblin' phase each player draws five cards with no bonuses and the lower "
         "hand rank wins (Rulebook \"Lowball\"). Lowball figures are exact."),
    Term("identical hands, identical deal", "Both hands the same rank and the same values: a tie. In Gamblin' the "
         "hands are redrawn, so P(win) + P(lose) = 100 %; in a shootout round it is a tie."),
    Term("equal ranks", "Both shootout hands of the same rank (whether or not the tie-break then decided the "
         "round): each side then suffers one casualty."),
    Term("shootout round", "Both posses draw and keep a hand; the higher hand wins. The loser suffers one "
         "casualty per rank it lost by (Rulebook \"8. Determine Casualties\")."),
    Term("casualties", "What a posse must cover after a round: discarding a dude or Sidekick covers one, acing a "
         "dude two (Quick reference \"Casualty\"). Pages give the mean and the distribution per round."),
    Term("mirror (match)", "A deck against a copy of itself."),
    Term("trade-off", "Low cards win lowball, high hands win shootouts, so a deck built for one tends to be weaker "
         "at the other: the chart plots both, one point per deck and bonus."),
)

SHADOWS_TERMS = (
    Term("Grit die", "The die a model rolls for its Tests and Saves: Novice D6, Veteran D8, Hero D10. A Shaken "
         "model rolls one Rank lower, D6 at least (Rulebook \"Grit\")."),
    Term("Test, Success", "Roll a number of Grit dice; each die showing 5 or better is a Success. A die showing its "
         "highest face grants a re-roll (the Tests sheet says how oddsmith reads that rule)."),
    Term("Dice Modifier", "Adds or removes whole dice from a Test (Cover -1, Long Range -1, Short Range +1, "
         "Elevated +1, Back-Shooter +1, ...); a Test always rolls at least one die. Saves and campaign rolls "
         "are never Modified."),
    Term("Save, Save Modifier", "One Grit die rolled by a model that was hit: it needs 5+ against 1 Success, 6+ "
         "against 2, up to 10+ against 6. A Save Modifier changes the score (Tough +1)."),
    Term("Hit, Saved", "Hit: the Shooting Test scored at least one Success. Saved: hit, but the Save was made."),
    Term("Shaken", "The Save failed by 1 or 2. The model rolls its Grit die one Rank lower; Shaken again means "
         "Downed."),
    Term("Downed", "The Save failed by 3 or 4: the model lies down and makes Recovery Tests."),
    Term("Casualty", "The Save failed by 5 or more: the model is removed from the game (and rolls for Injury "
         "after it)."),
    Term("Jams", "Missed with at least one die showing 1 and then failed the weapon's Jamming Check."),
    Term("Fight, Charging, Draw", "Both models roll 3 Grit dice (+1 die when Charging); more Successes wins, "
         "with equal Successes the single highest die wins by 1, otherwise it is a Draw. The loser saves "
         "against the difference."),
    Term("Recovery Test", "3 dice (+1 with a friend in Contact) for a Downed model: 0 Successes Casualty, 1-2 stays "
         "Downed, 3+ stands up Shaken."),
    Term("Bottle Check", "Whether the posse fights on: the Boss rolls 3 dice (a stand-in 1 die) and one Success is "
         "enough. Nerves of Steel and a Preacher each allow one re-roll of a die."),
    Term("Advance, EXP", "After a game a model rolls its Grit die plus its EXP; 6 (Novice), 8 (Veteran) or 10 "
         "(Hero) is an Advance, and a D6 then gives a Preferred Skill, a Random Skill or a Rank-Up. "
         "Otherwise it gains 1 EXP."),
    Term("Injury roll", "A model that ended the game a Casualty rolls a D10 on the Injury table; a Downed model "
         "first rolls its Grit die and recovers fully on a Success (Full Recovery). 1 Dead, 2-5 a Lasting "
         "Injury (Old Wound, One-Eyed, Limp, Weakened), 6 Laid-Up (misses the rest of this Campaign Phase), "
         "7-10: the table lists nothing, read as no Injury (Rulebook \"Injury Phase\")."),
    Term("range band", "Short, Medium or Long range of a weapon: Short Range +1 die, Long Range -1 die."),
    Term("battle", "Two posses on the book's 3' table, deployed in the Showdown's corners, simulated Game Turn "
         "by Game Turn for up to 8 Turns: each draws cards, Activates its models to Move, Shoot, Charge and Fight "
         "by its plan (gunline, brawl or balanced), then makes Recovery Tests and Bottle Checks. Cover is a "
         "density drawn per shot, not terrain pieces (Rulebook \"Anatomy of a Game\", \"Activations\")."),
    Term("activation, Solo, Dual", "Each card a posse plays Activates its models: Solo, one model makes two "
         "Actions; Dual, two models make one each. Cards go black before red, higher value first, Jokers last; "
         "equal values Roll-Off. The pages' policy (auto): Dual while the posse has more models to act than cards "
         "left, else Solo; the most dangerous model acts first; it shoots the closest enemy it can see, or the most "
         "dangerous one after a passed Spotting Test (Rulebook \"Activations\", \"Declare Weapon and Target\")."),
    Term("Event", "Both posses reveal the exact same card: one Unexpected Event that Game Turn, rolled on the "
         "events table. The battle applies the ones a clear table allows (Rulebook \"Unexpected Events\")."),
    Term("Bottle Out", "A posse that fails its Bottle Check leaves the table at once; it loses the battle (both "
         "in the same Turn: a draw). A posse with no model left standing is wiped out."),
    Term("Victory Points (VP)", "Earned for each enemy made a Casualty by your attacks: Novice 1, Veteran 2, Hero "
         "3. If neither posse Bottles Out in 8 Turns, more VP wins and equal VP is a draw (Rulebook \"Victory "
         "Points (VP)\")."),
    Term("A wins, draw, B wins", "How a battle ends: the other posse Bottled Out or was wiped out, or had fewer "
         "Victory Points after the last Turn. The three add up to 100 %."),
    Term("value per $, P(win) change per $", "What one purchase (a Skill, Weapon or Gear for one model) changes: the "
         "posse's P(win) with it minus without it, in pp, divided by its price in $ (Rulebook \"Item Price "
         "List\", \"Add Skills\"). The enemy Casualties change is the change in the enemies it puts out of the game."),
    Term("over $ limit", "The posse with this purchase would cost more than the Dollar Limit: valued anyway, "
         "since the question is what the next dollar buys."),
    Term("common random numbers, paired standard error", "Every purchase replays the same battles as the posse "
         "without it (the same cards, and the same dice wherever the purchase changes nothing), so chance "
         "mostly cancels in the difference. Its ± comes from the spread of the per-battle differences, which "
         "is smaller than the two figures' own errors combined."),
)

SECTIONS: dict[str, tuple[str, tuple[Term, ...]]] = {
    "": ("Reading the figures", GENERAL),
    DOOMTOWN: ("Doomtown: Weird West Edition", DOOMTOWN_TERMS),
    SHADOWS: ("Shadows of the West", SHADOWS_TERMS),
}


def draw_colour_key(fig) -> None:
    """The two colour scales of the heatmaps side by side, labelled as the convention reads them."""
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    from oddsmith.report import charts, layout

    axes = fig.subplots(1, 2, subplot_kw={"axes_class": layout.ReportAxes})
    for ax, good, ticks, label in (
            (axes[0], charts.HIGH, ["worse", "better"], "good or bad for the side a chart is about"),
            (axes[1], charts.NEUTRAL, ["unlikely", "likely"], "neither good nor bad: how likely")):
        bar = fig.colorbar(ScalarMappable(Normalize(0, 1), charts.colour_map(good)), cax=ax,
                           orientation="horizontal")
        bar.set_ticks([0, 1], labels=ticks)
        bar.outline.set_linewidth(0.4)
        charts.unsampled_solids(bar)
        ax.set_title(label, fontsize=7.5, fontweight="normal")


def glossary_sections(parts: Iterable[str]) -> list[tuple[str, tuple[Term, ...]]]:
    """The glossary sections a report with these parts needs: the general one, then one per game it covers."""
    present = set(parts)
    return [section for part, section in SECTIONS.items() if part == "" or part in present]


def glossary_pages(parts: Iterable[str], paged: bool = True):
    """The glossary as pages: the colour convention, then the terms, split over as many pages as they need
    (``paged=False``: one page however long, the glossary section of Markdown and HTML)."""
    from oddsmith.report.document import CONTENT_HEIGHT, TERM_TITLE, Chart, Notes, Page, Terms

    budget = CONTENT_HEIGHT if paged else float("inf")
    import textwrap

    # Notes' own estimate assumes 105 characters a line; the glossary runs the full width (about 110 on A4)
    lines = sum(len(textwrap.wrap(line, 108)) for line in COLOUR_CONVENTION)
    colours = Notes(COLOUR_CONVENTION, title="How to read the colours", height=0.3 + 0.145 * lines)
    key = Chart(draw_colour_key, title="The two colour scales of the heatmaps", height=0.75)
    pages: list[list] = [[colours, key]]
    used = colours.height + key.height
    for heading, terms in glossary_sections(parts):
        pending: list[tuple[str, str]] = []
        title = heading
        for t in terms:
            h = Terms.entry_height(t.term, t.meaning)
            if used + TERM_TITLE + sum(Terms.entry_height(*e) for e in pending) + h > budget and (pending or pages[-1]):
                if pending:
                    pages[-1].append(Terms(pending, title=title))
                    title = f"{heading} (continued)"
                pages.append([])
                used, pending = 0.0, []
            pending.append((t.term, t.meaning))
        if pending:
            block = Terms(pending, title=title)
            pages[-1].append(block)
            used += block.height
    out = []
    for i, blocks in enumerate(pages):
        out.append(Page(title=GLOSSARY_TITLE if i == 0 else f"{GLOSSARY_TITLE} (continued)",
                        subtitle="The terms of this report and how to read its colours",
                        blocks=blocks, section=GLOSSARY_TITLE))
    return out
