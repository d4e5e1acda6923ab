"""`oddsmith shadows ...`: the Shadows of the West command group.

The dice commands (test, shoot, fight, recover, bottle, cast, dynamite, table)
live in :mod:`oddsmith.commands.shadows_dice`; the campaign and posse commands
in :mod:`oddsmith.commands.shadows_campaign`; battle and value in
:mod:`oddsmith.commands.shadows_battle`. This module only groups them.
"""
import typer

from oddsmith.commands import shadows_battle, shadows_campaign, shadows_dice

shadows_app = typer.Typer(
    name="shadows",
    help="Dracula's America: Shadows of the West odds: tests, shooting, fights, campaign rolls, posses, battles.",
    no_args_is_help=True,
    rich_markup_mode=None,
)


def register(app: typer.Typer) -> None:
    shadows_dice.register(shadows_app)
    shadows_campaign.register(shadows_app)
    shadows_battle.register(shadows_app)
    app.add_typer(shadows_app, name="shadows")
