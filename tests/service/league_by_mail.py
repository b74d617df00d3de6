"""A league season played by bots over the real local mail stack, the clock fast-forwarded.

Every member is a ``service.demo.bots.MailBot`` (the demo's players: they read their own
mailbox over IMAP and answer each game mail's menu over SMTP, in a mail client's style). They
join by mail, one writes ``vacation`` and later ``back`` (sitting one round out), one writes
``leave`` mid-season. The service runs as ``pbem serve`` would, one step at a time (poll,
outbox, deadline sweep — which advances leagues); a round whose games do not end within a few
steps is settled when the manual clock jumps past the round's end.

``recompute`` is the independent check: the points of every member straight from the stored
games (their outcomes and final positions, by the rules the league states), not from the
league's bookkeeping.
"""

from __future__ import annotations

import json
import random
import smtplib
from collections import defaultdict
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any

from sqlmodel import select

from service.demo.bots import MailBot
from service.demo.styles import PERSONAS
from service.leagues import season
from service.leagues.scoring import BYE_POINTS
from service.store.games import load
from service.store.league_models import League, LeagueGame
from service.store.models import Game, Player
from tests.support.mailservers import send_mail

from .world import PASSWORD, SERVICE, World, text_of

NAMES = ["Anh", "Bình", "Chi", "Dũng", "Emma", "Finn", "Giang", "Hoa"]


@dataclass
class Season:
    """What happened: the rounds' pairings, the mails each member got, how long it ran."""

    league: str
    addresses: list[str]
    rounds: list[list[list[int]]] = field(default_factory=list)
    steps: int = 0
    fast_forwards: int = 0
    away_seen: bool = False  # the vacation was taken (the service stopped that member's clocks)
    league_mails: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))


def _to_service(world: World, sender: str, body: str, tag: str) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, SERVICE, "league"
    msg["Message-ID"] = f"<{tag}.{sender}>"
    msg.set_content(body + "\n")
    send_mail(world.stack, msg, sender, SERVICE)


def _league(world: World, name: str) -> League:
    with world.service.session() as s:
        return s.exec(select(League).where(League.name == name)).one()


async def play_season(world: World, engine_id: str, count: int, *, rounds: int, vacation: tuple[int, int],
                      leave: tuple[int, int], fmt: str | None = None, steps_per_round: int = 12,
                      seed: int = 1, **options: Any) -> Season:
    """Run a whole league by mail. ``vacation=(member, round)``: that member writes
    ``vacation 10`` during the round before and ``back`` once ``round`` is paired;
    ``leave=(member, round)``: that member writes ``leave`` during ``round``."""
    name = f"{engine_id}-mail"
    addresses = [world.player(f"{NAMES[i].lower().replace('ì', 'i').replace('ũ', 'u')}@pbem.test", NAMES[i],
                              PERSONAS[i % len(PERSONAS)].lang) for i in range(count)]
    rng = random.Random(seed)
    bots = [MailBot(a, PASSWORD, NAMES[i], PERSONAS[i % len(PERSONAS)], random.Random(rng.random()),
                    world.stack.host, world.stack.imap_port) for i, a in enumerate(addresses)]
    result = Season(name, addresses)
    with world.service.session() as s:
        season.new_league(s, world.service.ctx, name, engine_id, fmt=fmt, rounds=rounds, round_days=7,
                          options=options or None)
        s.commit()
    for n, address in enumerate(addresses):
        _to_service(world, address, f"join {name}", f"join{n}")
    await world.step()
    for address in addresses:
        assert any(f"join {name}" in text_of(m) for m in world.new_mails(address)), f"{address} joined by mail"
    with world.service.session() as s:
        season.start(s, world.service.ctx, name)
        s.commit()
    await world.service.flush_outbox()
    smtp = smtplib.SMTP(world.stack.host, world.stack.smtp_port, timeout=30)
    told: set[str] = set()
    try:
        current, idle = 1, 0
        while True:
            league = _league(world, name)
            if league.status == "finished":
                break
            if league.current_round != current:
                current, idle = league.current_round, 0
            for when, body, member in ((vacation[1] - 1, "vacation 10", vacation[0]), (vacation[1], "back", vacation[0]),
                                       (leave[1], f"leave {name}", leave[0])):
                tag = f"{body.split()[0]}{when}"
                if current == when and tag not in told:
                    told.add(tag)
                    _to_service(world, addresses[member], body, tag)
            deliveries = world.stack.all_deliveries()
            for bot in bots:
                bot.check_mail(deliveries.get(bot.address, 0))
                for reply in bot.replies_due():
                    bot.send(smtp, reply)
            await world.step()
            if f"vacation{vacation[1] - 1}" in told and not result.away_seen:
                with world.service.session() as s:
                    result.away_seen = s.exec(select(Player).where(Player.address == addresses[vacation[0]])
                                              ).one().away_until is not None
            await world.service.sweep()
            await world.service.flush_outbox()
            result.steps += 1
            idle += 1
            if idle >= steps_per_round:  # the round's time runs out: unfinished games are settled
                world.clock.advance(days=league.round_days + 1)
                result.fast_forwards += 1
                idle = 0
            assert result.steps < 60 * rounds, "the season does not end"
    finally:
        smtp.quit()
        for bot in bots:
            bot.close()
    with world.service.session() as s:
        league = s.exec(select(League).where(League.name == name)).one()
        for r in range(1, league.current_round + 1):
            games = s.exec(select(LeagueGame).where(LeagueGame.league_id == league.id, LeagueGame.round == r)).all()
            result.rounds.append([json.loads(lg.seats) for lg in games])
    for address in addresses:
        for msg in world.mails(address):
            if "[PBEM]" in str(msg["Subject"]) and ("League" in str(msg["Subject"]) or "Giải" in str(msg["Subject"])):
                result.league_mails[address].append(text_of(msg))
    return result


def recompute(world: World, name: str) -> dict[int, float]:
    """Every member's points from the stored games alone, by the league's stated rules:
    1-v-1 and teams: win 1, draw ½ each, loss 0; co-operative: each member gets the table's
    result (1 for a win, else the engine's score of the final position); free-for-all: by
    finishing order, first 1 … last 0; a game ended by the league (time up, a member left)
    counts as the league wrote it on the game's outcome; byes add the format's bye points."""
    totals: dict[int, float] = defaultdict(float)
    with world.service.session() as s:
        league = s.exec(select(League).where(League.name == name)).one()
        for member, _ in season.members(s, league, active_only=False):
            totals[member.player_id] += BYE_POINTS[league.format] * len([x for x in member.byes.split(",") if x])
        for lg in s.exec(select(LeagueGame).where(LeagueGame.league_id == league.id)).all():
            game = s.get_one(Game, lg.game_id)
            seats: list[int] = json.loads(lg.seats)
            outcome = json.loads(game.outcome or "null")
            assert outcome is not None, f"game {game.id} has a result"
            winners, draw = set(outcome["winners"]), bool(outcome["draw"])
            engine, state = load(game)
            score = getattr(engine, "score", None)
            scored = {int(k): float(v) for k, v in ((score(state) if callable(score) else None) or {}).items()}
            if lg.settled != "played" and engine.id in ("grizzled", "barcadia"):
                # a table the league ended (time up, a member left): its points are the verdict
                for pid, pts in zip(seats, json.loads(lg.points or "[]"), strict=True):
                    totals[pid] += pts
                continue
            if engine.id == "grizzled":
                got = 1.0 if winners else round(min(max(max(scored.values(), default=0.0), 0.0), 1.0), 3)
                for pid in seats:
                    totals[pid] += got
            elif engine.id == "barcadia" and len(seats) > 2:
                order = sorted(winners) + sorted((i for i in range(len(seats)) if i not in winners),
                                                 key=lambda i: -scored.get(i, 0.0))
                for rank, i in enumerate(order):
                    totals[seats[i]] += round((len(seats) - 1 - rank) / (len(seats) - 1), 3) if scored else (
                        1.0 if i in winners else 0.0)
            else:
                for i, pid in enumerate(seats):
                    totals[pid] += 0.5 if draw or not winners else (1.0 if i in winners else 0.0)
    return dict(totals)


def check_mail_of_the_season(result: Season, world: World) -> None:
    """Every member was mailed every round's summary with the standings, in their language."""
    for address in result.addresses:
        mails = result.league_mails[address]
        assert mails, f"{address} got the round mails"

