"""A reply means what the player wrote, and only the player can write it (the reading issue):
forged mails, per-installation keys and ids, and the answers a reply gets."""

from __future__ import annotations

import email
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlmodel import col, select

from service.clock import ManualClock
from service.config import Settings
from service.context import AppContext
from service.inbound.pipeline import Pipeline, store
from service.outbound.keys import lookup_key, make_key
from service.outbound.render import thread_root
from service.play.start import create_game
from service.store.db import make_engine, migrate
from service.store.games import create_player, load
from service.store.models import Game, InboundMail, MoveLog, Outbox

SECRET = "test-secret-0123456789abcdef"
_ids = iter(range(1, 10**6))


def make_ctx(tmp: Path, name: str = "pbem", **extra: object) -> AppContext:
    settings = Settings(database_url=f"sqlite:///{tmp / (name + '.sqlite3')}", service_address="play@pbem.test",
                        secret=SECRET, imap_ssl=False, **extra)  # type: ignore[arg-type]
    migrate(settings.database_url)
    return AppContext(settings=settings, db=make_engine(settings.database_url), clock=ManualClock())


def new_game(ctx: AppContext, engine: str = "toy", names: tuple[str, ...] = ("ann", "bob")) -> int:
    with ctx.session() as s:
        players = [create_player(s, f"{n}@x.test", n.title(), ctx=ctx).address for n in names]
        game = create_game(s, engine, players, seed=5, ctx=ctx)
        s.commit()
        assert game.id is not None
        return game.id


def key_of(ctx: AppContext, game_id: int, seat: int) -> str:
    with ctx.session() as s:
        engine, state = load(s.get_one(Game, game_id))
        return make_key(ctx.key_secret, game_id, seat, engine.decision_key(state, seat))


def deliver(ctx: AppContext, frm: str, to: str, body: str, subject: str = "Re: turn", **headers: str) -> str:
    """Store and process one mail; returns its final status."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = frm, to, subject
    msg["Message-ID"] = f"<r{next(_ids)}@client.test>"
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(body)
    with ctx.session() as s:
        row, _ = store(s, ctx, msg.as_bytes(), None, "INBOX")
    assert row.id is not None
    return Pipeline(ctx).process(row.id)


def moves(ctx: AppContext) -> list[str]:
    with ctx.session() as s:
        return [m.command for m in s.exec(select(MoveLog).order_by(col(MoveLog.id))).all()]


def outbox(ctx: AppContext, to: str | None = None) -> list[Outbox]:
    with ctx.session() as s:
        query = select(Outbox).order_by(col(Outbox.id))
        if to:
            query = query.where(Outbox.to_address == to)
        return list(s.exec(query).all())


@pytest.fixture
def ctx(tmp_path: Path) -> AppContext:
    return make_ctx(tmp_path)


# -- 8: forged mails, per-installation secrets ---------------------------------------------


def test_a_forged_from_with_the_start_mails_message_id_is_never_applied(ctx: AppContext) -> None:
    game_id = new_game(ctx)
    start = outbox(ctx, "ann@x.test")[0]
    assert start.message_id == thread_root(ctx.key_secret, game_id, 0, "pbem.test") and "game" not in start.message_id
    before = len(outbox(ctx))
    status = deliver(ctx, "Ann <ann@x.test>", "play@pbem.test", "high", In_Reply_To=start.message_id,
                     References=start.message_id)
    assert status == "rejected" and moves(ctx) == []
    answers = outbox(ctx)[before:]
    assert [(a.to_address, a.kind) for a in answers] == [("ann@x.test", "rejected")]  # the seat, never the forger


def test_the_same_secret_with_a_fresh_database_issues_other_keys_and_thread_ids(tmp_path: Path) -> None:
    old, new = make_ctx(tmp_path, "old"), make_ctx(tmp_path, "new")
    assert old.installation_id != new.installation_id
    old_game, new_game_id = new_game(old), new_game(new)
    assert old_game == new_game_id == 1
    old_key, new_key = key_of(old, 1, 0), key_of(new, 1, 0)
    assert old_key != new_key
    assert thread_root(old.key_secret, 1, 0, "pbem.test") != thread_root(new.key_secret, 1, 0, "pbem.test")
    assert {o.message_id for o in outbox(old)}.isdisjoint(o.message_id for o in outbox(new))
    with new.session() as s:
        assert lookup_key(s, new.key_secret, old_key) is None
    assert deliver(new, "ann@x.test", f"play+{old_key}@pbem.test", "high") == "rejected"
    assert moves(new) == []


@pytest.mark.parametrize("results", [
    "mx.pbem.test; dkim=fail header.d=x.test; spf=pass smtp.mailfrom=ann@x.test",
    "mx.pbem.test; spf=fail smtp.mailfrom=ann@x.test",
    "mx.pbem.test; dmarc=fail (p=reject) header.from=x.test",
])
def test_a_failed_dkim_spf_or_dmarc_for_the_players_domain_rejects_the_mail_unanswered(
        ctx: AppContext, results: str) -> None:
    game_id = new_game(ctx)
    before = len(outbox(ctx))
    status = deliver(ctx, "ann@x.test", f"play+{key_of(ctx, game_id, 0)}@pbem.test", "high",
                     Authentication_Results=results)
    assert status == "rejected" and moves(ctx) == [] and len(outbox(ctx)) == before
    with ctx.session() as s:
        assert "fail" in (s.exec(select(InboundMail)).one().error or "")


def test_a_passing_or_foreign_authentication_result_does_not_stop_a_keyed_reply(ctx: AppContext) -> None:
    game_id = new_game(ctx)
    status = deliver(ctx, "ann@x.test", f"play+{key_of(ctx, game_id, 0)}@pbem.test", "high",
                     Authentication_Results="mx.pbem.test; dkim=pass header.d=x.test; dkim=fail header.d=relay.test")
    assert status == "applied" and moves(ctx) == ["high"]


# -- 1: we know what we sent -----------------------------------------------------------------


def sent_plain(row: Outbox) -> str:
    from service.inbound.extract import decode_part
    from service.inbound.pipeline import parse_message

    return next(decode_part(p) for p in parse_message(row.raw).walk() if p.get_content_type() == "text/plain")


def test_a_rewrapped_quote_whose_continuation_is_a_command_is_not_applied(ctx: AppContext) -> None:
    """Grizzled: the first mail lists "Commands: choose felix | choose night (by the lucky charm)";
    the client re-wrapped the quote and left "choose night" (a legal move) alone on a continuation
    line without ">"."""
    game_id = new_game(ctx, "grizzled", ("ann", "bob", "cat"))
    cat_mail = outbox(ctx, "cat@x.test")[0]
    lines = []
    rewrapped = False
    for line in sent_plain(cat_mail).splitlines():
        if "| choose night " in line:
            head, tail = line.split(" choose night ", 1)
            lines += [f"> {head}", "choose night", f"> {tail}"]
            rewrapped = True
        else:
            lines.append(f"> {line}".rstrip())
    assert rewrapped, "the mail no longer shows the commands line this test re-wraps"
    body = "Hi all, thinking about it.\n\nOn Mon, 30 Nov 2026, pbem <play@pbem.test> wrote:\n" + "\n".join(lines)
    key = cat_mail.reply_key
    assert key is not None
    deliver(ctx, "cat@x.test", f"play+{key}@pbem.test", body, In_Reply_To=cat_mail.message_id)
    assert moves(ctx) == []
    with ctx.session() as s:
        assert s.get_one(Game, game_id).version == 0


def test_an_unknown_language_header_block_and_our_unquoted_mail_are_not_read(ctx: AppContext) -> None:
    """Outlook in Swedish: "Från/Skickat/Till/Ämne" (the subject holds "[TAGTEAM #1] … ref …"),
    then our whole mail unquoted and without its marker line."""
    new_game(ctx, "tagteam", ("ann", "bob"))
    ann_mail = outbox(ctx, "ann@x.test")[0]
    subject = ann_mail.raw.split(b"Subject: ", 1)[1].split(b"\n", 1)[0].decode()
    ours = "\n".join(line for line in sent_plain(ann_mail).splitlines() if "##-" not in line)
    body = (f"pick loew\n\nFrån: pbem <play+{ann_mail.reply_key}@pbem.test>\nSkickat: den 30 november 2026 10:00\n"
            f"Till: Ann <ann@x.test>\nÄmne: {subject}\n\n{ours}\n")
    deliver(ctx, "ann@x.test", f"play+{ann_mail.reply_key}@pbem.test", body)
    assert moves(ctx) == ["pick loew"]


def test_sent_text_keeps_a_command_copied_from_the_menu(ctx: AppContext) -> None:
    from service.inbound.extract import SentText, trim_reply
    from service.outbound.render import MARKER

    new_game(ctx, "tagteam", ("ann", "bob"))
    text = sent_plain(outbox(ctx, "ann@x.test")[0])
    sent = SentText([text])
    quoted = "\n".join(f"> {line}" for line in text.splitlines())
    for mine in ("pick machiavelli", "2", "help", "state"):
        assert trim_reply(f"{mine}\n\n{quoted}", MARKER, sent) == mine


# -- 6: nothing read, nothing lost, player told --------------------------------------------------


def deliver_raw(ctx: AppContext, raw: bytes) -> str:
    with ctx.session() as s:
        row, _ = store(s, ctx, raw, None, "INBOX")
    assert row.id is not None
    return Pipeline(ctx).process(row.id)


def raw_reply(key: str, body_parts: str, *, subject: str = "", frm: str = "ann@x.test") -> bytes:
    subject = subject or f"Re: [TOY #1] Your turn · ref {key}"
    return (f"From: {frm}\r\nTo: play+{key}@pbem.test\r\nSubject: {subject}\r\n"
            f"Message-ID: <r{next(_ids)}@client.test>\r\nMIME-Version: 1.0\r\n{body_parts}").encode()


def test_an_empty_text_part_beside_the_html_command_reads_the_html(ctx: AppContext) -> None:
    game_id = new_game(ctx)
    body = ('Content-Type: multipart/alternative; boundary="b"\r\n\r\n--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n'
            ' \r\n\r\n--b\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<div dir="ltr">high</div>\r\n--b--\r\n')
    assert deliver_raw(ctx, raw_reply(key_of(ctx, game_id, 0), body)) == "applied"
    assert moves(ctx) == ["high"]


def test_a_winmail_dat_only_reply_is_answered_i_could_not_read_it(ctx: AppContext) -> None:
    game_id = new_game(ctx)
    before = len(outbox(ctx))
    tnef = "eJ8+IhAAAQaQCAAEAAAAAAABAAEAAQeQBgAIAAAA5AQAAAAAAADoAAEIgAcAGAAAAElQTS5NaWNyb3NvZnQgTWFpbC5Ob3Rl"
    body = ('Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\nContent-Type: application/ms-tnef; name="winmail.dat"\r\n'
            'Content-Disposition: attachment; filename="winmail.dat"\r\nContent-Transfer-Encoding: base64\r\n\r\n'
            f'{tnef}\r\n--b--\r\n')
    assert deliver_raw(ctx, raw_reply(key_of(ctx, game_id, 0), body)) == "rejected"
    assert moves(ctx) == []
    answers = outbox(ctx)[before:]
    assert [(a.to_address, a.kind) for a in answers] == [("ann@x.test", "rejected")]
    assert "could not read your reply" in sent_plain(answers[0]), sent_plain(answers[0])


def test_raw_utf8_headers_decode_and_subject_tags_match_in_any_case() -> None:
    from service.inbound.pipeline import header_text, parse_message, sender_of, subject_command

    raw = ("From: Nguyễn Văn An <an@x.test>\r\nSubject: Trả lời: [tac #42] 7 a4 c3\r\n\r\nhi\r\n").encode()
    msg = parse_message(raw)
    assert sender_of(msg) == ("Nguyễn Văn An", "an@x.test")
    assert header_text(msg, "Subject") == "Trả lời: [tac #42] 7 a4 c3"
    assert subject_command("Re: [tac #42] 7 a4 c3") == "7 a4 c3"
    assert subject_command("AW: [Tag Team #3] pick loew") == "pick loew"
    assert subject_command("Re: [TAGTEAM#3] pick loew") == "pick loew"
    assert subject_command("Re: [TAC #42] Your turn · ref abcdefghijklmnopqrst") == ""


def test_header_text_is_the_same_whether_remembered_or_too_long_to_be() -> None:
    """Values up to ``CACHED_HEADER_MAX`` are decoded once and remembered, longer ones each
    time; both give the decoded text, and a remembered answer never leaks to another value."""
    from service.inbound.autoreply import CACHED_HEADER_MAX, _header
    from service.inbound.pipeline import header_text_of

    word = "=?utf-8?q?Tr=E1=BA=A3_l=E1=BB=9Di?="
    short, long = f"{word} 7 a4", f"{word} " + "x" * CACHED_HEADER_MAX
    for _ in range(2):  # the second round reads the remembered answers
        assert header_text_of(short) == "Trả lời 7 a4"
        assert header_text_of(short.replace("7", "8")) == "Trả lời 8 a4"
        assert header_text_of(long) == "Trả lời " + "x" * CACHED_HEADER_MAX
        for value, text in ((short, "Trả lời 7 a4"), (long, "Trả lời " + "x" * CACHED_HEADER_MAX)):
            assert _header(email.message_from_string(f"Subject: {value}\n\nhi\n"), "Subject") == text


# -- 2: the service's own commands are whole lines ---------------------------------------------


def test_a_sentence_with_a_command_word_is_not_that_command() -> None:
    from service.play.player_commands import GAME_COMMANDS, MAILBOX_COMMANDS, find_command

    def name(line: str, commands: list = GAME_COMMANDS) -> str | None:  # type: ignore[type-arg]
        found = find_command(commands, line)
        return found[0].names[0] if found else None

    for line in ("bỏ cuộc thì không bao giờ nhé, cường độ 3", "resign? never", "help me choose 3",
                 "the state of things", "log in later", "lang is nice", "tz is UTC I think"):
        assert name(line) is None, line
    for line, wanted in (("resign", "resign"), ("Bỏ cuộc nhé", "resign"), ("help please!", "help"), ("?", "help"),
                         ("state", "state"), ("ok, log", "log"), ("lang vi", "lang"), ("tz Asia/Ho_Chi_Minh", "tz")):
        assert name(line) == wanted, line
    assert name("accept the invitation later", MAILBOX_COMMANDS) is None
    assert find_command(MAILBOX_COMMANDS, "accept #3 please") is not None


def test_give_up_never_does_not_resign_a_grizzled_game(ctx: AppContext) -> None:
    game_id = new_game(ctx, "grizzled", ("ann", "bob", "cat"))
    key = outbox(ctx, "ann@x.test")[0].reply_key
    deliver(ctx, "ann@x.test", f"play+{key}@pbem.test", "bỏ cuộc thì không bao giờ nhé, cường độ 3")
    with ctx.session() as s:
        assert s.get_one(Game, game_id).status == "active"
    assert moves(ctx) == []


# -- 4: one decision, one move -----------------------------------------------------------------


def test_two_moves_for_one_decision_apply_nothing_and_ask_which(ctx: AppContext) -> None:
    game_id = new_game(ctx)
    before = len(outbox(ctx))
    assert deliver(ctx, "ann@x.test", f"play+{key_of(ctx, game_id, 0)}@pbem.test", "high\n\nlow") == "rejected"
    assert moves(ctx) == []
    answers = outbox(ctx)[before:]
    assert [(a.to_address, a.kind) for a in answers] == [("ann@x.test", "rejected")]
    text = sent_plain(answers[0])
    assert "Which one did you mean?" in text and '"high"' in text and '"low"' in text


def test_the_same_move_twice_is_one_move(ctx: AppContext) -> None:
    game_id = new_game(ctx)
    assert deliver(ctx, "ann@x.test", f"play+{key_of(ctx, game_id, 0)}@pbem.test", "high\nhigh please") == "applied"
    assert moves(ctx) == ["high"]


def test_a_secret_choice_is_not_replaced_within_one_reply(ctx: AppContext) -> None:
    """Tag Team's draft is a secret pick; a second pick line would silently replace the first."""
    new_game(ctx, "tagteam", ("ann", "bob"))
    key = outbox(ctx, "ann@x.test")[0].reply_key
    assert deliver(ctx, "ann@x.test", f"play+{key}@pbem.test", "pick loew\n\npick reeves") == "rejected"
    assert moves(ctx) == []


# -- 5: numbers -------------------------------------------------------------------------------


class _NumberToy(__import__("tests.support.toy", fromlist=["ToyEngine"]).ToyEngine):  # type: ignore[misc]
    """The toy game where a bare card value is also a command ("13" plays the 13, as in TAC)."""

    id = "numtoy"

    def parse(self, state, seat, text):  # type: ignore[no-untyped-def]
        if text.strip().isdigit():
            return super().parse(state, seat, f"play {int(text)}")
        return super().parse(state, seat, text)


@pytest.fixture
def numtoy(ctx: AppContext):  # type: ignore[no-untyped-def]
    import engines

    engines.register(_NumberToy())
    yield
    engines.unregister("numtoy")


def _numtoy_game(ctx: AppContext) -> tuple[int, list[int]]:
    """A numtoy game after Ann's call, where Bob holds a low card (also a menu number) and a high one."""
    for seed in range(1, 200):
        with ctx.session() as s:
            players = [create_player(s, f"{n}{seed}@x.test", n, ctx=ctx).address for n in ("ann", "bob")]
            game = create_game(s, "numtoy", players, seed=seed, ctx=ctx)
            s.commit()
            _engine, state = load(game)
            hand = sorted(int(c) for c in state.hands[1])
        if any(c <= 3 and hand[c - 1] != c for c in hand) and hand[-1] > 3:
            assert game.id is not None
            assert deliver(ctx, f"ann{seed}@x.test", f"play+{key_of(ctx, game.id, 0)}@pbem.test", "high") == "applied"
            return game.id, hand
    raise AssertionError("no suitable seed")


@pytest.mark.usefixtures("numtoy")
def test_a_number_that_is_an_option_and_a_different_card_asks(ctx: AppContext) -> None:
    game_id, hand = _numtoy_game(ctx)
    low = next(c for c in hand if c <= 3 and hand[c - 1] != c)
    bob = next(o.to_address for o in outbox(ctx) if o.game_id == game_id and o.to_address.startswith("bob"))
    before = moves(ctx)
    assert deliver(ctx, bob, f"play+{key_of(ctx, game_id, 1)}@pbem.test", str(low)) == "rejected"
    assert moves(ctx) == before
    last = [o for o in outbox(ctx) if o.to_address == bob][-1]
    assert f"can mean option {low} (play {hand[low - 1]}) or the move play {low}" in sent_plain(last)


@pytest.mark.usefixtures("numtoy")
def test_a_number_that_is_no_option_but_a_legal_card_plays_the_card(ctx: AppContext) -> None:
    game_id, hand = _numtoy_game(ctx)
    bob = next(o.to_address for o in outbox(ctx) if o.game_id == game_id and o.to_address.startswith("bob"))
    assert deliver(ctx, bob, f"play+{key_of(ctx, game_id, 1)}@pbem.test", str(hand[-1])) == "applied"
    assert moves(ctx)[-1] == str(hand[-1])
    with ctx.session() as s:
        _engine, state = load(s.get_one(Game, game_id))
        assert state.chosen.get("1") == str(hand[-1])


# -- 9: names are data, not layout ------------------------------------------------------------


def test_clean_name_keeps_one_short_line() -> None:
    from service.addresses import NAME_MAX, clean_name

    assert clean_name("Bob\r\n  1. resign — everyone loses") == "Bob 1. resign — everyone loses"
    assert clean_name("Ann\u202e\u200b\tNguyễn\x00") == "Ann Nguyễn"
    assert len(clean_name("x" * 500)) == NAME_MAX
    assert clean_name("\n\t", "ann") == "ann"


def test_a_display_name_with_a_line_break_cannot_print_a_fake_menu_line(ctx: AppContext) -> None:
    from service.inbound.pipeline import parse_message

    with ctx.session() as s:
        create_player(s, "ann@x.test", "Ann", ctx=ctx)
        create_player(s, "bob@x.test", "Bob\n  1. resign — give up the game\n  2. state", ctx=ctx)
        game = create_game(s, "toy", ["ann@x.test", "bob@x.test"], seed=5, ctx=ctx)
        s.commit()
    for row in outbox(ctx):
        text = sent_plain(row)
        assert not any(line.strip().startswith(("1. resign", "2. state")) for line in text.splitlines()), text
        html = next(p for p in parse_message(row.raw).walk() if p.get_content_type() == "text/html")
        assert "give up the game<br" not in html.get_payload(decode=True).decode()  # type: ignore[union-attr]
    assert game.id is not None


# -- 7 and 10: answers are limited and say so; big mails are cheap -------------------------------


def test_a_hundred_state_mails_get_at_most_the_hourly_answers_and_the_last_says_so(tmp_path: Path) -> None:
    ctx = make_ctx(tmp_path, answers_per_hour=5)
    game_id = new_game(ctx)
    key = key_of(ctx, game_id, 0)
    before = len(outbox(ctx, "ann@x.test"))
    for _ in range(100):
        deliver(ctx, "ann@x.test", f"play+{key}@pbem.test", "state")
    answers = outbox(ctx, "ann@x.test")[before:]
    assert len(answers) == 5
    assert "last answer I send to this address" in sent_plain(answers[-1])
    assert all("last answer" not in sent_plain(a) for a in answers[:-1])
    assert deliver(ctx, "ann@x.test", f"play+{key}@pbem.test", "high") == "applied"  # moves still count
    assert moves(ctx) == ["high"]


def test_forged_help_mails_to_the_plain_address_cannot_flood_a_player(tmp_path: Path) -> None:
    ctx = make_ctx(tmp_path, answers_per_hour=3)
    new_game(ctx)
    before = len(outbox(ctx, "bob@x.test"))
    for _ in range(100):
        deliver(ctx, "Bob <bob@x.test>", "play@pbem.test", "help")
    assert len(outbox(ctx, "bob@x.test")) - before == 3


def test_the_error_limit_never_hides_the_first_answer_about_another_game(tmp_path: Path) -> None:
    ctx = make_ctx(tmp_path, error_answers_per_day=3)
    first = new_game(ctx)
    with ctx.session() as s:
        create_player(s, "cat@x.test", "Cat", ctx=ctx)
        second = create_game(s, "toy", ["ann@x.test", "cat@x.test"], seed=6, ctx=ctx).id
        s.commit()
    assert second is not None
    for _ in range(10):
        deliver(ctx, "ann@x.test", f"play+{key_of(ctx, first, 0)}@pbem.test", "what is this")
    errors = [o for o in outbox(ctx, "ann@x.test") if o.kind == "rejected"]
    assert len(errors) == 3 and "last answer" in sent_plain(errors[-1])
    deliver(ctx, "ann@x.test", f"play+{key_of(ctx, second, 0)}@pbem.test", "nonsense")
    latest = outbox(ctx, "ann@x.test")[-1]
    assert latest.kind == "rejected" and latest.game_id == second


def test_a_reply_with_many_bad_lines_gets_a_short_answer(ctx: AppContext) -> None:
    game_id = new_game(ctx)
    body = "\n".join(f"line {n} of nonsense " + "x" * 300 for n in range(3000))
    before = len(outbox(ctx))
    deliver(ctx, "ann@x.test", f"play+{key_of(ctx, game_id, 0)}@pbem.test", body)
    answer = outbox(ctx)[before:]
    assert len(answer) == 1 and len(answer[0].raw) < 20_000
    assert "more lines, not shown" in sent_plain(answer[0])


def test_a_ten_megabyte_reply_is_answered_quickly_and_does_not_hold_up_the_next(tmp_path: Path) -> None:
    import time

    ctx = make_ctx(tmp_path)
    game_id = new_game(ctx)
    key = key_of(ctx, game_id, 0)
    huge = "7 a4 c3 and a lot more text\n" * 380_000  # ~10 MB of text
    started = time.monotonic()
    assert deliver(ctx, "ann@x.test", f"play+{key}@pbem.test", huge) == "rejected"
    assert deliver(ctx, "ann@x.test", f"play+{key}@pbem.test", "high") == "applied"
    elapsed = time.monotonic() - started
    # A guard against quadratic reading (minutes), not a timing test: the
    # machine is shared and speed is measured by `pbem bench`.
    assert elapsed < 60, elapsed
    answers = [o for o in outbox(ctx, "ann@x.test") if o.kind == "rejected"]
    assert len(answers) == 1 and len(answers[0].raw) < 20_000
    assert "too large" in sent_plain(answers[0])
    assert moves(ctx) == ["high"]


def test_mobile_footers_in_other_languages_and_trim_marks_are_not_read() -> None:
    from service.inbound.extract import trim_reply
    from service.outbound.render import MARKER

    for footer in ("Tải Outlook cho iOS", "Envoyé de mon iPhone", "Gửi từ iPhone của tôi", "Von meinem iPhone gesendet",
                   "Enviado desde mi iPhone", "Inviato da iPhone", "Verzonden met mijn iPhone", "Wysłane z iPhone'a",
                   "Отправлено с iPhone", "iPhoneから送信", "내 iPhone에서 보냄", "Get Outlook for iOS"):
        assert trim_reply(f"3\n\n{footer}\n", MARKER) == "3", footer
    assert trim_reply("> Your hand: 7, K\n[...]\nK\n[…]\n> Deadline\n", MARKER) == "K"


def test_a_command_retried_after_an_answer_that_echoed_it_is_still_read() -> None:
    """Our answer quotes the player's line ("NOT done: …"); writing it again must still count,
    while a client's re-wrap of that echo line stays ours."""
    from service.inbound.extract import SentText, trim_reply
    from service.outbound.render import MARKER

    sent = SentText([f"{MARKER}\n\nYour reply:\n  NOT done: \"play rain shell please\" — it is not your turn\n"
                     "  đã làm: withdraw left and then speech gas\n"])
    assert trim_reply("play rain shell please\n", MARKER, sent) == "play rain shell please"
    assert trim_reply("withdraw left and then speech gas\n", MARKER, sent) == "withdraw left and then speech gas"
    wrapped = '> Your reply:\n>   NOT done: "play rain shell\nplease" — it is not your turn\n'
    assert trim_reply(f"K\n\n{wrapped}", MARKER, sent) == "K"
