"""The Grizzled: a co-operative card game for 2-5 players (rules: shared/rules/grizzled.*)."""
