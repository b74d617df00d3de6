"""Service configuration: ``config/pbem.toml`` plus ``PBEM_*`` environment variables.

pydantic-settings gives typed values and one clear error per bad field at start-up,
instead of a crash deep in the pipeline an hour later. Secrets (the reply-key secret and
the mail passwords) are read from the environment ONLY, so a TOML file checked into a
repository or copied to a bug report never carries one.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

#: Fields that must never come from a file.
SECRET_FIELDS = frozenset({"secret", "secret_previous", "imap_password", "smtp_password"})

DEFAULT_CONFIG_PATH = Path("config/pbem.toml")


class ConfigError(RuntimeError):
    """A configuration the service cannot start with; the message names every bad field."""


class Settings(BaseSettings):
    """Everything the service needs to run; see ``config/pbem.toml`` for a commented example."""

    model_config = SettingsConfigDict(env_prefix="PBEM_", extra="forbid")

    database_url: str = "sqlite:///var/pbem.sqlite3"
    service_address: str = "play@pbem.test"
    service_name: str = "pbem"

    imap_host: str = "127.0.0.1"
    imap_port: int = Field(default=993, ge=1, le=65535)
    imap_user: str = ""
    imap_password: str = ""
    imap_ssl: bool = True
    imap_mailbox: str = "INBOX"
    imap_idle: bool = True

    smtp_host: str = "127.0.0.1"
    smtp_port: int = Field(default=25, ge=1, le=65535)
    smtp_user: str = ""
    smtp_password: str = ""
    #: STARTTLS on the submission port (587)
    smtp_tls: bool = False
    #: TLS from the first byte (SMTPS, port 465); excludes ``smtp_tls``
    smtp_ssl: bool = False
    #: STARTTLS on a plain IMAP port (143) when ``imap_ssl`` is off
    imap_starttls: bool = False
    #: a PEM file of the CA(s) the IMAP and SMTP servers' certificates must chain to ("" = the
    #: system's trust store). Certificates and host names are always verified.
    tls_ca_file: str = ""

    #: ``pbem serve`` answers ``GET /healthz`` on this port (0 = off); ``pbem health`` asks it
    health_port: int = Field(default=0, ge=0, le=65535)
    health_host: str = "127.0.0.1"
    #: unhealthy when the last successful inbox poll is older than this (or than two poll
    #: intervals, when ``poll_interval_seconds`` is longer: the inbox is polled only that often)
    health_max_poll_age_seconds: float = Field(default=300.0, gt=0)

    secret: str = ""
    #: earlier values of ``secret`` (comma-separated, env ``PBEM_SECRET_PREVIOUS``): reply keys and
    #: thread ids MACed under them are still accepted, new ones are made with ``secret`` only —
    #: so rotating the secret never breaks an open game (see deploy/README.md)
    secret_previous: str = ""
    poll_interval_seconds: float = Field(default=30.0, gt=0)
    outbox_interval_seconds: float = Field(default=5.0, gt=0)
    #: ``pbem serve`` sends the outbox from a child process of its own, so the SMTP conversation
    #: and the reply pipeline run on two cores instead of sharing one (Python runs one thread
    #: at a time); false: from a thread of the service's process
    outbox_process: bool = True
    sweep_interval_seconds: float = Field(default=60.0, gt=0)
    #: several workers on one PostgreSQL: how long a claim of a worker on another host is
    #: trusted (a dead process on this host is recognised at once), and how often a worker
    #: that does not hold the mailbox looks for stored mail and tries to take the mailbox over
    claim_lease_seconds: float = Field(default=60.0, gt=0)
    worker_poll_seconds: float = Field(default=1.0, gt=0)
    #: a job round (poll, outbox, sweep) still running after this long is stuck on something
    #: that never answers: the watchdog logs where it waits and starts the job afresh
    job_round_timeout_seconds: float = Field(default=300.0, gt=0)
    #: answers to one address (help, state, errors, invitations); game mails are never limited
    error_answers_per_day: int = Field(default=30, ge=0)
    answers_per_hour: int = Field(default=20, ge=0)
    answers_per_day: int = Field(default=60, ge=0)
    #: a reply larger than this (bytes of the whole mail) is answered without being parsed
    max_mail_bytes: int = Field(default=10_000_000, ge=1000)
    #: a reply whose text is larger than this (characters) is answered without being read
    max_text_chars: int = Field(default=2_000_000, ge=1000)
    max_send_attempts: int = Field(default=8, ge=1)
    max_crashes: int = Field(default=3, ge=1)
    #: a reply that waits this long for a passing fault (full disk, database away) gets a
    #: "received, will be applied as soon as possible" notice
    delay_notice_seconds: float = Field(default=180.0, gt=0)
    #: a directory for the service's own small files: the journal of those notices, which
    #: must outlive a restart while the database cannot be written ("" = systemd's
    #: $STATE_DIRECTORY, else next to a SQLite database, else ~/.local/state/pbem)
    state_dir: str = ""
    turn_hours: float = Field(default=72.0, gt=0)
    # -- the default deadline policy of a new game (``service.store.policy.DeadlinePolicy``)
    #: reminders this many hours before a deadline (one merged mail per player and sweep)
    reminder_hours: list[float] = Field(default_factory=lambda: [24.0, 2.0])
    #: after the deadline, this long before the missed-deadline rule acts (the player is "late")
    grace_hours: float = Field(default=0.0, ge=0)
    #: Saturdays and Sundays (UTC) do not count towards a deadline
    weekend_pause: bool = False
    #: what a missed deadline does: wait (remind, tell the operator) | default | skip
    on_miss: str = "default"
    #: missed deadlines in a row after which a seat is abandoned (bot-kept, offered to a substitute)
    abandon_after_misses: int = Field(default=3, ge=1)
    #: at most one "you are late" reminder per player within this many hours
    late_reminder_hours: float = Field(default=24.0, gt=0)
    #: days of absence (``vacation N``) a player may take per calendar year
    vacation_days_per_year: int = Field(default=21, ge=0)
    #: the operator's address: abandoned seats and stalled games are reported there ("" = nobody)
    operator_address: str = ""
    templates_dir: str = ""
    #: draw the board as a picture in the HTML part of game mails
    pictures: bool = True
    #: "module:attribute" of extra Engine instances to register (tests, plugins).
    extra_engines: list[str] = Field(default_factory=list)

    @field_validator("service_address")
    @classmethod
    def _address_has_domain(cls, value: str) -> str:
        local, sep, domain = value.partition("@")
        if not sep or not local or not domain or "+" in local:
            raise ValueError("must be a plain address like play@example.org (no plus part)")
        return value.lower()

    @field_validator("on_miss")
    @classmethod
    def _known_on_miss(cls, value: str) -> str:
        if value not in ("wait", "default", "skip"):
            raise ValueError("must be wait, default or skip")
        return value

    @field_validator("secret")
    @classmethod
    def _secret_is_long(cls, value: str) -> str:
        if len(value) < 16:
            raise ValueError("set PBEM_SECRET in the environment to at least 16 random characters")
        return value

    @field_validator("secret_previous")
    @classmethod
    def _previous_are_long(cls, value: str) -> str:
        if any(len(part) < 16 for part in _comma_list(value)):
            raise ValueError("every secret in PBEM_SECRET_PREVIOUS must have at least 16 characters")
        return value

    @property
    def previous_secrets(self) -> list[str]:
        """The retired secrets still accepted for verification, newest first as written."""
        return [part for part in _comma_list(self.secret_previous) if part != self.secret]

    @field_validator("tls_ca_file")
    @classmethod
    def _ca_file_exists(cls, value: str) -> str:
        if value and not Path(value).is_file():
            raise ValueError(f"no CA file {value}")
        return value

    @model_validator(mode="after")
    def _one_smtp_security(self) -> Settings:
        if self.smtp_tls and self.smtp_ssl:
            raise ValueError("smtp_tls (STARTTLS, port 587) and smtp_ssl (TLS, port 465) exclude each other")
        if self.imap_ssl and self.imap_starttls:
            raise ValueError("imap_ssl (TLS, port 993) and imap_starttls (port 143) exclude each other")
        return self

    @model_validator(mode="after")
    def _imap_user_defaults(self) -> Settings:
        if not self.imap_user:
            self.imap_user = self.service_address
        return self

    @property
    def domain(self) -> str:
        return self.service_address.partition("@")[2]

    @property
    def local_part(self) -> str:
        return self.service_address.partition("@")[0]


def _comma_list(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def _read_toml(path: Path) -> dict[str, Any]:
    with path.open("rb") as fh:
        data = tomllib.load(fh)
    flat: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict):  # [imap] host = ... -> imap_host
            for sub, subvalue in value.items():
                flat[f"{key}_{sub}"] = subvalue
        else:
            flat[key] = value
    leaked = sorted(SECRET_FIELDS & flat.keys())
    if leaked:
        raise ConfigError(f"{path}: {', '.join(leaked)} must come from the environment (PBEM_*), not a file")
    return flat


def load_settings(path: Path | str | None = None, **overrides: Any) -> Settings:
    """Settings from the TOML file (if any), then the environment, then ``overrides``.

    The environment wins over the file so an operator can change one value without editing
    it; ``overrides`` win over both (tests). Raises ``ConfigError`` with every problem listed.
    """
    if path is None:
        path = Path(os.environ.get("PBEM_CONFIG", DEFAULT_CONFIG_PATH))
    path = Path(path)
    file_values = _read_toml(path) if path.exists() else {}
    unknown = sorted(k for k in file_values if k not in Settings.model_fields)
    if unknown:
        raise ConfigError(f"{path}: unknown setting(s) {', '.join(unknown)}")
    from_file = {k: v for k, v in file_values.items() if f"PBEM_{k.upper()}" not in os.environ}
    try:
        return Settings(**{**from_file, **overrides})
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'settings'}: {err['msg']}" for err in exc.errors()
        )
        raise ConfigError(f"bad configuration: {problems}") from None
