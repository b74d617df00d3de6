"""Every OPEN resolution of tac.en.md, each in exactly one place so a designer can change it.

Each constant names its clause. Code elsewhere reads these instead of hard-wiring a choice;
the switches are read as ``rules.NAME`` at call time, so a test can flip one with monkeypatch.
"""

from __future__ import annotations

# TAC-8: 64 ring fields, start fields 16 apart, seat p starts at 16p.
RING_SIZE = 64
START_SPACING = 16
HOME_SIZE = 4

# TAC-13 / TAC-87: cards per deal; the master version's fifth deal of a shuffle gives six.
CARDS_PER_DEAL = 5
MASTER_ROUND_CARDS = 6
DEALS_PER_SHUFFLE = 5

# TAC-15: the first dealer is drawn at random; the player after the dealer plays first.
RANDOM_FIRST_DEALER = True

# TAC-23: a player who cannot play discards ONE card of their choice; that is the whole turn.
# TAC-25: a player with an empty hand is skipped; the deal ends when all hands are empty.
# (Both are structural: see engine.next_turn.)

# TAC-30 / TAC-31: start fields give no protection; opening knocks any occupant, own included.
# (Not a switch: it is simply how board.move_to and board.place_on_start treat every field.)

# TAC-32: entering the home is optional (ring and home are separate legal destinations).
# False makes entry compulsory for ordinary forward moves (the 7 keeps its step-by-step choice).
HOME_ENTRY_OPTIONAL = True

# TAC-38: the 4 may pass backward over the own start field into the home (non-fresh marbles).
FOUR_MAY_ENTER_HOME = True

# TAC-39: the 7 inside the home: "both-ways" (default) or "forward-only". This is an engine option.
SEVEN_IN_HOME_DEFAULT = "both-ways"
SEVEN_IN_HOME_CHOICES = ("both-ways", "forward-only")
# TAC-39 (amended): is a home marble with no empty field ahead stuck after every single step of
# the 7 ("each-step", default, the seed's reading) or only once the whole 7 is finished
# ("after-the-seven", as the online platform plays it: a home marble may step forward and back
# to spend steps although the fields beyond are taken). This is an engine option too.
SEVEN_STUCK_DEFAULT = "each-step"
SEVEN_STUCK_CHOICES = ("each-step", "after-the-seven")

# TAC-48: steps left after the 7 brings the player's fourth marble home go to the partner's marbles.
SEVEN_LEFTOVER_TO_PARTNER = True

# TAC-51: no 8-skip when the player to be skipped holds no card.
SKIP_NEEDS_VICTIM_CARDS = True

# TAC-53: the Trickser needs at least two ring marbles; swapped marbles are never fresh afterwards.
TRICK_CLEARS_FRESH = True

# TAC-57: an Angel aimed at a finished player acts on that player's partner.
ANGEL_FINISHED_GOES_TO_PARTNER = True

# TAC-62: a Warrior alone on the ring goes round and knocks itself.
WARRIOR_ALONE_KNOCKS_ITSELF = True

# TAC-66: a playable TAC is an ordinary playable card (another card may be chosen) except
# against a winning move (TAC-75), where it must be played.
TAC_FORCED_ONLY_AGAINST_WIN = True

# TAC-77 (our resolution, not in the digest): a TAC directly after a Fool has nothing to undo
# and no card to take over, so it is not playable then.
TAC_AFTER_FOOL_PLAYABLE = False

# TAC-86: "you have a marble on the ring" means any controlled marble.
# TAC-90: only 1 and 13 count for the "I can / I can't" announcement.
ANNOUNCE_CARDS = frozenset({"1", "13"})
