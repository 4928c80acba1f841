"""Settings, read from ``SOCLOVER_*`` environment variables (pydantic-settings)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """What a self-hoster may change without touching the code."""

    model_config = SettingsConfigDict(env_prefix="SOCLOVER_", env_file=".env", extra="ignore")

    database_url: str = Field(
        default="sqlite:///soclover.sqlite3",
        description="SQLAlchemy URL; a plain postgresql:// URL works too.",
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
    secure_cookies: bool = Field(
        default=False, description="Mark seat cookies Secure (behind HTTPS)."
    )


@lru_cache
def get_settings() -> Settings:
    return Settings()
