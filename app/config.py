"""Settings, read from ``SOCLOVER_*`` environment variables (pydantic-settings)."""

from __future__ import annotations

from functools import lru_cache
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address, ip_network
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """What a self-hoster may change without touching the code."""

    model_config = SettingsConfigDict(env_prefix="SOCLOVER_", env_file=".env", extra="ignore")

    database_url: str = Field(
        default="sqlite:///soclover.sqlite3",
        description="SQLAlchemy URL; a plain postgresql:// URL works too.",
    )
    database_wait_seconds: float = Field(
        default=60.0,
        ge=0,
        description="How long the server keeps trying to reach PostgreSQL at start (started "
        "beside it, the database may not answer yet); 0: fail at once.",
    )
    keywords_fr: Path | None = Field(
        default=None, description="A deck file for French rooms, instead of keywords.fr.txt."
    )
    keywords_zh: Path | None = Field(
        default=None, description="A deck file for Chinese rooms, instead of keywords.zh.txt."
    )
    keywords: Path | None = Field(
        default=None, description="A deck file that replaces the built-in keywords.txt."
    )
    host: str = "127.0.0.1"
    port: int = 8000
    room_expiry_days: float = Field(
        default=7.0, gt=0, description="Rooms idle this long are deleted; legends stay."
    )
    expiry_sweep_seconds: float = Field(default=3600.0, gt=0)
    presence_grace_seconds: float = Field(
        default=30.0, ge=0, description="How long a player stays present after their last sign."
    )
    presence_sweep_seconds: float = Field(default=3.0, gt=0)
    ping_seconds: float = Field(default=15.0, gt=0)
    join_rate_per_minute: int = Field(default=20, gt=0)
    create_rate_per_minute: int = Field(default=10, gt=0)
    lookup_rate_per_minute: int = Field(
        default=60,
        gt=0,
        description="Reads of a room by code from someone with no seat in it, per client "
        "address: a code is a room's only secret, so guessing codes stays slow.",
    )
    claim_rate_per_minute: int = Field(
        default=10, gt=0, description="Seat requests per client address."
    )
    claim_room_rate_per_minute: int = Field(
        default=30, gt=0, description="Seat requests per room, wherever they come from."
    )
    claim_room_share_per_minute: int = Field(
        default=5,
        gt=0,
        description="Seat requests per room from one client address: its share of the "
        "room's, so that a few addresses cannot spend the room's whole budget and keep "
        "a real claimant out.",
    )
    streams_per_seat: int = Field(
        default=4,
        gt=0,
        description="Live streams one seat token holds open at once, per server process: "
        "a phone needs two; one more is refused (429 too_many_streams).",
    )
    chat_lines_per_minute: int = Field(default=60, gt=0, description="Chat lines per seat.")
    chat_burst: int = Field(default=8, gt=0, description="Chat lines a seat may send at once.")
    public_url: str | None = Field(
        default=None,
        description="The address players reach the table at (https://clover.example.org), "
        "for the invite link and its QR code; without it, each page uses the address it "
        "was asked for.",
    )

    @field_validator("public_url")
    @classmethod
    def _origin(cls, value: str | None) -> str | None:
        if not value:
            return None
        parts = urlsplit(value.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query:
            raise ValueError("SOCLOVER_PUBLIC_URL is an http(s) address, like https://host:port")
        return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"

    bots: bool = Field(
        default=True,
        description="Offer bots in the lobby (when the bots' brain, .[bots], is installed).",
    )
    bot_pace: float = Field(
        default=1.0,
        gt=0,
        le=10,
        description="How long bots take to act, as a multiple of a person's pace.",
    )

    clock_file: Path | None = Field(
        default=None,
        description="For tests only: a file holding how many seconds the server's clock "
        "runs ahead of the real time, so a test can make a countdown run out at once.",
    )

    secure_cookies: bool = Field(
        default=False,
        description="Mark every cookie Secure, whatever the request's scheme (behind an "
        "HTTPS proxy the app marks them so by itself: ``trusted_proxies``).",
    )

    trusted_proxies: str = Field(
        default="127.0.0.1,::1",
        description="The addresses (or networks, 10.0.0.0/24) of the proxies in front of "
        "the table, separated by commas: only a connection from one of them may say, by "
        "X-Forwarded-For and X-Forwarded-Proto, whom and over what it forwards. Anyone "
        "else is judged by their own address. Never everyone: a client that may name its "
        "own address escapes every limit per address.",
    )

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies(cls, value: str) -> str:
        return ",".join(str(entry) for entry in trusted_networks(value))

    metrics: Literal["off", "local", "on"] = Field(
        default="local",
        description="Who may read GET /metrics (Prometheus): nobody, clients on this "
        "machine (a loopback address, as the server sees it behind a trusted proxy: "
        "the proxy's client, not the proxy), or everyone. Refused, it is a 404.",
    )

    opentelemetry: bool = Field(
        default=False,
        description="Let FastAPI trace requests and record their metrics and logs with "
        "OpenTelemetry, through the providers this process has set up (such as "
        "opentelemetry-instrument's). Off, no request asks whether any is set up.",
    )

    @field_validator("metrics", mode="before")
    @classmethod
    def _metrics(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value


def trusted_networks(value: str) -> list[IPv4Address | IPv6Address | IPv4Network | IPv6Network]:
    """The proxies ``SOCLOVER_TRUSTED_PROXIES`` names, each an address or a network.

    uvicorn, which reads them, takes a word that is neither for a name no client ever
    has, so a typo would trust nobody without a word: refused here instead. So is
    trusting everyone (``*``, a network of every address): then whoever connects may
    say they are anyone, and no limit per address holds."""
    found: list[IPv4Address | IPv6Address | IPv4Network | IPv6Network] = []
    for word in value.replace(",", " ").split():
        if word == "*":
            raise ValueError(
                "SOCLOVER_TRUSTED_PROXIES=* would let every client choose its own address: "
                'name the proxy\'s address (docs/hosting.md, "Behind a proxy")'
            )
        try:
            found.append(ip_network(word, strict=False) if "/" in word else ip_address(word))
        except ValueError:
            raise ValueError(
                f"SOCLOVER_TRUSTED_PROXIES: {word!r} is neither an IP address nor a network"
            ) from None
        if isinstance(found[-1], IPv4Network | IPv6Network) and found[-1].prefixlen == 0:
            raise ValueError(
                f"SOCLOVER_TRUSTED_PROXIES: {word} is every address: name the proxy's own"
            )
    return found


@lru_cache
def get_settings() -> Settings:
    return Settings()
