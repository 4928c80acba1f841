"""Bring the schema up to date with Alembic before the app serves."""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from app.db.engine import sync_url
from app.resources import migrations_dir

MIGRATIONS = migrations_dir()


def alembic_config(database_url: str) -> Config:
    config = Config(str(MIGRATIONS / "alembic.ini"))
    config.set_main_option("script_location", str(MIGRATIONS))
    # The app is importable already; alembic.ini's prepend_sys_path (the checkout, for
    # alembic by hand) would be the package folder itself in an installed wheel.
    config.set_main_option("prepend_sys_path", "")
    config.set_main_option(
        "sqlalchemy.url", sync_url(database_url).render_as_string(hide_password=False)
    )
    config.attributes["configure_logger"] = False
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(database_url), revision)


def downgrade(database_url: str, revision: str) -> None:
    command.downgrade(alembic_config(database_url), revision)
