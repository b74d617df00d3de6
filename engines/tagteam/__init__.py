"""Tag Team (issue 3): 2 fighters a side, Fight Decks revealed card by card, secret builds.

Modules, one job each:
- ``content``: fighters and cards from ``data/*.toml`` (the action language, validation, TT-87..89);
- ``state``: the position as plain JSON-able data;
- ``fight``: one Turn / one Instant-Bonus step, exactly as TT-29..TT-66;
- ``rules``: team building, setup, rounds, builds and the end (where each OPEN resolution lives);
- ``commands``: legal actions, the compact build menu, parse and format;
- ``views``: per-seat views and their text rendering;
- ``bots``: the heuristic bot (rehearses the next Fight);
- ``scenario``: test-only positions for the digest's scenario checks;
- ``engine``: the contract glue, ``ENGINE``.
"""
