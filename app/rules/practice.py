"""The practice deal: one hand-written game per language, the same every time.

A practice table (``Room.practice``) seats its creator and two bots and deals
this game, not a random one: its lesson (``lesson.py``) then meets the same
clovers every time, and the bots' clues and moves (``app/bots/lesson.py``) are
written for it in advance. Only the card ids and the pool's order come from the
deal's seed, so ids still say nothing of where a card lies.

Every keyword is a card of that language's built-in deck (a test checks it),
written here whole, so a table with a deck of its own still teaches with these.
Each clover is given by its spots, clockwise from the top left: a card, and the
keyword it turns towards the leaf before it (the left leaf for the top left spot,
the top leaf for the top right, the right leaf for the bottom right, the bottom
leaf for the bottom left); its next keyword clockwise faces the leaf after.

Seat 0 is the newcomer, seats 1 and 2 the bots. The first Spectator is seat 1:
the newcomer rebuilds both bots' clovers before watching their own in silence.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from app.rules.geometry import SPOTS, Words
from app.rules.state import Card, Clover

FIRST_SPECTATOR = 1
"""The first bot's clover comes first, the newcomer's last."""
NEWCOMER = 0
"""The seat of the practice table's one person."""
DECOYS = 1


@dataclass(frozen=True)
class PracticeClover:
    """One clover of the practice deal: by spot, a card and the keyword it turns towards
    the leaf before it; its decoy; and the clues its bot writes (none for the newcomer's)."""

    spots: tuple[tuple[Words, str], ...]
    decoy: Words
    clues: tuple[str, ...] = ()

    @property
    def cards(self) -> tuple[Words, ...]:
        return tuple(card for card, _ in self.spots)

    @property
    def rotations(self) -> tuple[int, ...]:
        """Each spot's rotation: the card at rotation r shows ``words[(e - r) % 4]`` on
        edge e, and the leaf before spot s faces its edge ``(s - 1) % 4``."""
        return tuple((s - 1 - card.index(word)) % 4 for s, (card, word) in enumerate(self.spots))


@dataclass(frozen=True)
class PracticeDeal:
    """A language's practice game: the clovers by seat, and the two example clues shown
    on the newcomer's clover: one the rules refuse on its top leaf (a keyword's plural,
    or in Chinese the keyword in traditional characters), one they only warn about on
    its right leaf (a keyword's relative)."""

    clovers: tuple[PracticeClover, PracticeClover, PracticeClover]
    refused: str
    warned: str


def _w(line: str) -> Words:
    a, b, c, d = (word.strip() for word in line.split(","))
    return (a, b, c, d)


DEALS: dict[str, PracticeDeal] = {
    "en": PracticeDeal(
        clovers=(
            PracticeClover(
                spots=(
                    (_w("Canyon, Purple, Pencil, Puzzle"), "Purple"),
                    (_w("King, Lettuce, Attic, Painting"), "Painting"),
                    (_w("Kitchen, Angry, Poodle, Knight"), "Knight"),
                    (_w("White, Plane, Reporter, Apron"), "Apron"),
                ),
                decoy=_w("Yacht, Biscuit, Drum, Sneeze"),
            ),
            PracticeClover(
                spots=(
                    (_w("Palace, Sparrow, Cheese, Nail"), "Sparrow"),
                    (_w("Museum, Pasta, Kitten, Ring"), "Pasta"),
                    (_w("Tickle, Muffin, Puppy, Flood"), "Puppy"),
                    (_w("Nanny, Joke, River, Dove"), "River"),
                ),
                decoy=_w("Hat, Engine, Lid, Farm"),
                clues=("Italy", "Pets", "Water", "Birds"),
            ),
            PracticeClover(
                spots=(
                    (_w("Nest, Drawing, Bay, Flower"), "Bay"),
                    (_w("Rhino, Ocean, Author, Perfume"), "Perfume"),
                    (_w("Swing, Elephant, Road, Mermaid"), "Elephant"),
                    (_w("Truck, Beach, Bear, Concert"), "Truck"),
                ),
                decoy=_w("Comet, Wish, Tortoise, Tooth"),
                clues=("Smell", "Safari", "Drive", "Coast"),
            ),
        ),
        refused="Pencils",
        warned="Kingdom",
    ),
    "fr": PracticeDeal(
        clovers=(
            PracticeClover(
                spots=(
                    (_w("Roi, Mouche, Golf, Bougie"), "Bougie"),
                    (_w("Ordinateur, Quiche, Reine, Poisson"), "Reine"),
                    (_w("Ferry, Abeille, Basket, Fourchette"), "Ferry"),
                    (_w("Coccinelle, Feu, Bonnet, Colis"), "Coccinelle"),
                ),
                decoy=_w("Pain, Dune, Soie, Anniversaire"),
            ),
            PracticeClover(
                spots=(
                    (_w("Soleil, Chat, Radiateur, Patin"), "Soleil"),
                    (_w("Chien, Palmier, Dîner, Hôpital"), "Chien"),
                    (_w("Plage, Short, Saumon, Salade"), "Plage"),
                    (_w("Planète, Faucon, Puzzle, Maillot"), "Maillot"),
                ),
                decoy=_w("Lapin, Grotte, Radeau, Photo"),
                clues=("Animaux", "Vacances", "Été", "Espace"),
            ),
            PracticeClover(
                spots=(
                    (_w("Hirondelle, Étoile, Lampe, Spaghetti"), "Hirondelle"),
                    (_w("Girafe, Phénix, Lune, Pyjama"), "Lune"),
                    (_w("Veste, Éclair, Tortue, Canapé"), "Veste"),
                    (_w("Rideau, Cirque, Tonnerre, Oiseau"), "Tonnerre"),
                ),
                decoy=_w("Trophée, Lavabo, Titre, Glace"),
                clues=("Nuit", "Habits", "Orage", "Ailes"),
            ),
        ),
        refused="Rois",
        warned="Poissonnier",
    ),
    "zh": PracticeDeal(
        clovers=(
            PracticeClover(
                spots=(
                    (_w("口罩, 梨, 铅笔, 卡车"), "梨"),
                    (_w("本子, 满月, 卡片, 番茄"), "本子"),
                    (_w("月饼, 牙刷, 蜜蜂, 玩具"), "月饼"),
                    (_w("冬瓜, 公交车, 农民, 牙膏"), "牙膏"),
                ),
                decoy=_w("鲤鱼, 音符, 雪糕, 沙漠"),
            ),
            PracticeClover(
                spots=(
                    (_w("水晶, 国王, 萤火虫, 拖把"), "水晶"),
                    (_w("舞台, 雷, 皇冠, 颜料"), "皇冠"),
                    (_w("鞋子, 粉笔, 书桌, 画家"), "画家"),
                    (_w("凉鞋, 星星, 电灯, 平原"), "凉鞋"),
                ),
                decoy=_w("丝带, 花生, 云, 刺猬"),
                clues=("宝座", "美术", "脚", "闪亮"),
            ),
            PracticeClover(
                spots=(
                    (_w("冰山, 孔雀, 红薯, 足球"), "红薯"),
                    (_w("石榴, 彗星, 排球, 花园"), "排球"),
                    (_w("鸡肉, 办公室, 春天, 潜水艇"), "春天"),
                    (_w("沙子, 游泳, 南瓜, 乌龟"), "游泳"),
                ),
                decoy=_w("岩石, 生日, 茶杯, 脖子"),
                clues=("运动", "蝴蝶", "海底", "蔬菜"),
            ),
        ),
        refused="鉛筆",
        warned="赏月",
    ),
}
"""Each language's practice game (``LANGUAGES``, all three)."""


def deal_practice(language: str, rng: random.Random) -> tuple[tuple[Clover, ...], int]:
    """The practice game of ``language`` (English for one without its own), dealt as
    ``dealing.deal`` deals: fresh random card ids and pool order from ``rng``, the
    cards, turns and decoys as written above. Also the first Spectator."""
    deal = DEALS.get(language, DEALS["en"])
    clovers = []
    for owner, written in enumerate(deal.clovers):
        ids = _fresh_ids(rng, 4 + DECOYS)
        cards = [Card(id=ids[i], words=w) for i, w in enumerate((*written.cards, written.decoy))]
        pool_order = [card.id for card in cards]
        rng.shuffle(pool_order)
        clovers.append(
            Clover(
                owner=owner,
                cards=tuple(cards[:4]),
                rotations=written.rotations,
                decoys=tuple(cards[4:]),
                pool_order=tuple(pool_order),
            )
        )
    return tuple(clovers), FIRST_SPECTATOR


def truth(language: str, owner: int) -> dict[Words, tuple[int, int]]:
    """Where each card of ``owner``'s practice clover lies, by its keywords: its spot
    and rotation (the bots' script rebuilds the newcomer's clover by it)."""
    written = DEALS.get(language, DEALS["en"]).clovers[owner]
    return {
        card: (spot, written.rotations[spot])
        for spot, card in zip(SPOTS, written.cards, strict=True)
    }


def _fresh_ids(rng: random.Random, count: int) -> list[str]:
    ids: list[str] = []
    while len(ids) < count:
        candidate = f"{rng.getrandbits(48):012x}"
        if candidate not in ids:
            ids.append(candidate)
    return ids
