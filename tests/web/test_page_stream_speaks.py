"""The room page's stream speaks for every change it hears, even one it shows nothing
of: the hub skips the next ping of a stream that was sent a change (``RoomHub.ping``),
so a page that stayed silent then would go without a byte for as long as others type."""

from __future__ import annotations

import asyncio

from app.rules import actions as act
from app.web.live import _regions
from app.web.renderings import Renderings
from app.web.streams import PING_COMMENT
from tests.service.support import memory_service, run_async, table


def test_a_change_the_page_shows_nothing_of_still_gets_a_ping_through() -> None:
    async def scenario() -> None:
        service = memory_service()
        t = await table(service, "Ada", "Bea", "Cy")
        await service.act(t.code, t.seat(0), act.Start())
        page = _regions(service.follow(t.code, t.seat(0)), Renderings(), "", "en")
        first = await anext(page)
        assert b"event: stage" in first  # every region, as the page connects
        # Bea's typing is saved as she goes: nothing of it shows on Ada's page.
        draft = act.Clues(("Qza", None, None, None), draft=True)
        await service.act(t.code, t.seat(1), draft)
        assert await asyncio.wait_for(anext(page), 5) == PING_COMMENT
        # and a change Ada sees is sent as ever
        await service.act(t.code, t.seat(1), act.Clues(("Qza", "Qzb", "Qzc", "Qzd")))
        assert b"event: announce" in await asyncio.wait_for(anext(page), 5)
        await page.aclose()

    run_async(scenario())
