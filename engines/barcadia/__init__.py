"""Heroes of Barcadia: a hex dungeon race with d20 fights, loot and power-ups (engine id ``barcadia``).

Where each decision lives (so a designer can change it in one place):

- numbers and OPEN resolutions of ``barcadia.en.md``: ``resolutions.py`` (HP scale, trap and
  duel damage, disarm target, power-up limit, small-game removal, duels on the SP, portal
  duels, which effect scopes count for which roll, the turn limit);
- content (our own design, marked so in each file): ``data/rooms.toml``, ``data/loot.toml``,
  ``data/powerups.toml``, ``data/modules.toml`` (Signature Moves, House Rules), validated by
  ``content.py``;
- geometry (HB-9/10): ``hexes.py``; set-up (HB-12..18): ``setup.py``;
- the between-turns window for mail (HB-26): ``flow.py`` (module docstring);
- legal moves: ``moves.py``; command text: ``commands.py``; views and the text map: ``view.py``;
  the heuristic bot: ``bots.py``.
"""
