"""Heroes of Barcadia: a hex dungeon race with d20 fights, loot and power-ups (engine id ``barcadia``)."""
