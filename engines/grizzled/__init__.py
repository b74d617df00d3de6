"""The Grizzled: a co-operative card game for 2-5 players (rules: shared/rules/grizzled.*).

Modules, one job each:

- ``data/*.toml`` + ``content.py``: threats, the 59 Trial cards, Hard Knock types, the six
  Grizzled and the Support tiles, validated on load (``ContentError``).
- ``state.py``: the JSON-able state. ``setup.py``: a new game (GR-11 .. GR-16).
- ``rules.py``: every rule as a query or a mutator of one working copy.
- ``commands.py``: legal choices, labels, canonical text and parsing (en/vi).
- ``view.py``: per-seat views and their plain-text rendering.
- ``bots.py``: the co-operative bot (``default_action``). ``engine.py``: the contract.
- ``scenario.py``: builds positions by card face, for rule tests.

Where each OPEN resolution of the digest lives (change it there and only there):

=========  =================================================================
GR-3       threat names: ``data/threats.toml``
GR-6       left = clockwise = seat + 1: tile offsets in ``data/tiles.toml``
GR-7       the Trial cards and Merry Christmas: ``data/cards.toml``
GR-8       Hard Knock types, weights, effects: ``data/knocks.toml`` (effects in ``rules``)
GR-9/10    characters and tiles: ``data/characters.toml``, ``data/tiles.toml``
GR-11      chosen secretly at once, or dealt (option ``characters``): ``setup.new_state``
GR-11      a clash goes to the first in turn order from the Leader: ``rules.clash_order``
GR-13      shuffle all 59: ``setup.new_state``
GR-15      random first Leader: ``setup.new_state``
GR-21      no maximum, but none beyond the one dealing the whole pile: ``rules.max_intensity``
GR-28      a failing trapped card draws nothing: ``rules._play``
GR-30      the charm needs a matching card: ``rules.charm_targets``
GR-33      Speech answers are secret and applied together: ``rules.answer_speech``
GR-36      an empty hand withdraws ignoring its Hard Knocks (Mute still acts): ``rules.ignores_knocks``
GR-41      failure shuffles the combined pile: ``rules.end_mission``
GR-47      the helped player picks and may decline: ``rules.support_options``
GR-50      knock limit before victory: ``rules.finish_support``
GR-52      Morale Drop one by one, unshuffled: ``rules.finish_support``
GR-55      unplaced tiles are private: ``view.build_view``
=========  =================================================================
"""
