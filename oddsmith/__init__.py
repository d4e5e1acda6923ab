"""oddsmith: odds for Doomtown: Weird West Edition and Dracula's America: Shadows of the West."""

__version__ = "0.1.0"
