"""Query understanding: which indexed document does a question name?

Analysts write "Consider the NDA between CEII and ...; does it require ...?" or "Under the
Fiverr privacy policy, who can see ...". When one part of the query names a document, the
clause search should run inside that document and on the rest of the query only: the
document's name matches every clause of it equally and only adds noise.

Documents are matched on a short profile (file name, title and opening text, where parties
and the agreement's name are stated) with BM25 over profiles: names are lexical.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from clausegraph.models import Document
# the store records each document's parties at ingest (opening_parties); an older index
# gets them here
from clausegraph.store.base import OPENING_CHARS, IndexReader, opening_parties
from clausegraph.text.documents import DOCUMENT_NOUN
from clausegraph.text.tokenize import tokenize

_PROFILE_CHARS = OPENING_CHARS
# The name is short and decisive, the opening text long and generic: weigh the name up.
_NAME_REPEATS = 3
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|[_\-.]+")
# Query parts are separated by ';' or a line break: "<document reference>; <question>".
_CAPITALISED = re.compile(r"\b[A-Z][\w&'.-]*")
_PART_BREAK = re.compile(r";\s+|\n\s*\n")
# A name written inside a sentence: two or more capitalised words ("National Parivar
# Mediclaim Plus Policy", "Arogya Sanjeevani Policy"), small joiners allowed inside.
_NAME_RUN = re.compile(
    r"(?<![\w'])(?:[A-Z][\w&'’.-]*|\d+)(?:\s+(?:of|and|for|the|&|de|[A-Z][\w&'’.-]*|\d+))*"
    r"\s+[A-Z][\w&'’.-]*"
)
# a name in quotes ("Fiverr", “Viber Messenger”): one word can name a document there
_QUOTED = re.compile(r"[\"“]([^\"“”]{2,80})[\"”]")
_POSSESSIVE = re.compile(r"['’]s$")
_EDGE_PUNCTUATION = "\"'“”‘’()[],.:;!?"
# ("... Well Baby Well Mother add-on policy", "... Privacy Policy 2021 policy")
_DOCUMENT_NOUN_AFTER = re.compile(rf"(?:\s+\d{{2,4}})?(?:\s+{DOCUMENT_NOUN.pattern}\b)+",
                                  re.IGNORECASE)
# A frame that says where to look, before the question. An attribution
# ("according to", "as per", "based on") takes any few words before its word for a
# document; a plain preposition ("under", "in") takes "the" or "this" before them, so
# "In case the policy lapses, ..." is a condition, not a frame.
_FRAME_WORDS = (r"(?P<words>(?:[\w&'’.-]+\s+){0,6}?" + DOCUMENT_NOUN.pattern +
                r"|document)(?:\s+(?:document|wordings?|\d{2,4}))*")
_FRAME_LEAD = re.compile(
    r"^\s*(?:(?:according\s+to|as\s+per|based\s+on|going\s+by|with\s+(?:reference|respect|"
    r"regard)\s+to|referring\s+to)\s+(?:the\s+|this\s+|your\s+|my\s+|our\s+)?|"
    r"(?:under|in|per|from)\s+(?:the|this)\s+)" + _FRAME_WORDS + r"\s*(?P<comma>,)\s*(?=\S)",
    re.IGNORECASE)
# A request around the question ("Can you tell me what ...?", "Please let me know ...",
# "I want to know whether ..."): "Can you ..." would read as a yes-or-no question
_REQUEST = re.compile(
    r"^\s*(?:(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|please\s+|kindly\s+)?"
    r"(?:tell|let)\s+me(?:\s+know)?(?:\s+about(?:\s+the)?)?|"
    r"i\s+(?:want|would\s+like|'d\s+like|need|wish)\s+to\s+know|do\s+you\s+know|"
    # "Information about the Closing Condition: ...", "I want information about ...",
    # "What about the Fiduciary exception ...": the subject follows
    r"(?:i\s+(?:want|would\s+like|'d\s+like|need)\s+)?(?:some\s+|more\s+)?"
    r"(?:information|details|info)\s+(?:about|on|regarding|concerning)(?:\s+the)?|"
    r"what\s+about(?:\s+the)?|"
    r"please\s+(?:answer|explain)(?:\s+(?:from|using|based\s+on)\s+[^,:?]{1,60})?)"
    r"\s*[,:]?\s+(?=\S)", re.IGNORECASE)
_WHETHER = re.compile(r"^(?:if|whether)\s+", re.IGNORECASE)
_LEAD_IN = re.compile(r"\s*(?:,\s*)?(?:\b(?:under|in|of|for|from|within|per|by)\s+(?:the\s+)?|"
                      r"\bthe\s+)$", re.I)


@dataclass
class DocumentScope:
    """The documents a query names and the query text left for clause search."""

    doc_ids: list[str]
    question: str
    reference: str


def document_name(document: Document) -> str:
    """The words a document is called by: its file name and its title."""
    return f"{_CAMEL.sub(' ', Path(document.source_path).stem)}\n{document.title}"


def document_profile(document: Document) -> str:
    """Name, then opening text: where a document says what it is and who the parties are."""
    return f"{(document_name(document) + chr(10)) * _NAME_REPEATS}{document.text[:_PROFILE_CHARS]}"


def name_words(text: str, title_tokens: set[str]) -> set[str]:
    """Words of ``text`` that may name a document with these title tokens.

    File and title words count as typed; party names only when written as names
    (capitalised), because NER also tags phrases like "Termination Date" as ORG.
    """
    proper = set(tokenize(" ".join(_CAPITALISED.findall(text))))
    return {w for w in tokenize(text) if w in title_tokens or w in proper}


def _bm25_over(texts: list[str]):
    import bm25s

    model = bm25s.BM25(method="robertson")
    model.index([tokenize(t) or [""] for t in texts], show_progress=False)
    return model


def _scores(model, text: str, size: int) -> np.ndarray:
    tokens = [t for t in tokenize(text) if t in model.vocab_dict]
    if not tokens:
        return np.zeros(size, dtype=np.float32)
    return np.asarray(model.get_scores(tokens), dtype=np.float32)


def _leader(scores: np.ndarray) -> tuple[int, float, float]:
    """Index of the best score, the best score and the runner-up's."""
    order = np.argsort(-scores)
    runner_up = float(scores[order[1]]) if len(order) > 1 else 0.0
    return int(order[0]), float(scores[order[0]]), runner_up


class DocumentScoper:
    """Finds the document a query refers to, if the query clearly refers to one."""

    def __init__(self, index: IndexReader, min_margin: float = 1.3) -> None:
        self.doc_ids = index.clauses.document_ids()
        self.min_margin = min_margin
        documents = [index.clauses.document(d) for d in self.doc_ids]
        self.profiles = _bm25_over([document_profile(d) for d in documents])
        parties = _opening_parties(index)
        self.title_tokens = [set(tokenize(document_name(d))) for d in documents]
        self.party_tokens = [set(tokenize(parties.get(d.doc_id, ""))) for d in documents]
        self.name_tokens = [t | p for t, p in zip(self.title_tokens, self.party_tokens)]
        self.name_frequency = Counter(t for tokens in self.name_tokens for t in tokens)
        self.openings = [_flat(document_name(d) + " " + d.text[:_PROFILE_CHARS])
                         for d in documents]
        # a word names a document when at most this many document names contain it
        self.max_name_frequency = max(1, len(documents) // 50)

    def names_document(self, text: str) -> int | None:
        """Position of the document ``text`` names, if it names exactly one.

        Two tests: the text must single out one document's profile by the margin, and
        share a distinctive word with that document's name, so that a question which
        merely sounds like one contract ("can the agreement be terminated?") names nothing.
        """
        best, top, runner_up = _leader(_scores(self.profiles, text, len(self.doc_ids)))
        if top <= 0 or top < self.min_margin * max(runner_up, 1e-9):
            return None
        words = name_words(text, self.title_tokens[best])
        return best if any(self._is_distinctive_name_word(w, best) for w in words) else None

    def _is_distinctive_name_word(self, word: str, position: int) -> bool:
        """``word`` is in the name of document ``position`` and of few others.

        File names often glue words ("THERAVANCEBIOPHARMA"), so a word of four or more
        letters also counts when it is part of a name token.
        """
        def in_name(tokens: set[str]) -> bool:
            return word in tokens or (len(word) >= 4 and any(word in t for t in tokens))

        if len(word) < 3 or not in_name(self.name_tokens[position]):
            return False  # "co", "s", "no": too short to name anything
        if len(word) < 4:
            return self.name_frequency[word] <= self.max_name_frequency
        holders = sum(1 for tokens in self.name_tokens if in_name(tokens))
        return holders <= self.max_name_frequency

    def scope(self, query: str) -> DocumentScope | None:
        """The named document and the question part, or None when no part names one.

        Queries are split at ';' and blank lines. People name the context first and ask
        last ("Consider the NDA between A; B; does it ...?"), so the reference is looked
        for in the leading parts (longest first) and the last part is the question; a
        query of one part can only name a document as a whole.
        """
        if self.document_count < 2:
            return None
        parts = _parts(query)
        for cut in range(len(parts) - 1, 0, -1):
            reference = "; ".join(parts[:cut])
            named = self.named_doc_id(reference)
            if named is not None:
                question = "; ".join(parts[cut:])
                return DocumentScope([named], question, reference)
        if len(parts) == 1:
            phrase = self.named_phrase(query)
            if phrase is not None:
                return phrase
        named = self.named_doc_id(query) if len(parts) == 1 else None
        if named is None:
            return None
        # "When does the term of the Biocept collaboration agreement end?": the name words
        # would only match the document's opening; the question is the rest
        return DocumentScope([named], without_name_words(
            query, lambda token: self.names_word(token, named)), query)

    def names_word(self, word: str, doc_id: str) -> bool:
        """Whether ``word`` is a distinctive word of document ``doc_id``'s name."""
        return self._is_distinctive_name_word(word, self.doc_ids.index(doc_id))

    @property
    def document_count(self) -> int:
        return len(self.doc_ids)

    def named_doc_id(self, text: str) -> str | None:
        """Id of the document ``text`` names, if it names exactly one."""
        named = self.names_document(text)
        return None if named is None else self.doc_ids[named]

    def named_phrase(self, query: str) -> DocumentScope | None:
        """A document named by a phrase inside one sentence ("... under the National Parivar
        Mediclaim Plus Policy?"): a run of capitalised words that the name or opening of
        exactly one document contains. The phrase (and its "under the") leaves the question.
        """
        openings = getattr(self, "openings", None)
        if openings is None:  # the PostgreSQL scoper keeps no openings in memory (yet)
            return None
        for start, end in _name_candidates(query):
            phrase = query[start:end]
            holders = [i for i, opening in enumerate(openings) if _flat(phrase) in opening]
            if len(holders) == 1:
                question = _without(query, start, end)
                return DocumentScope([self.doc_ids[holders[0]]], question, phrase)
        return None


def reframe(query: str) -> str:
    """``query`` without the frame it opens with to say where to look ("According to the
    policy document, what is ...?", "Under this agreement, can ...?"):
    its words match every clause alike, and a question opening with it no longer opens
    with what it asks ("Is there ...", "How long ..."). A frame that names a document
    ("According to the Arogya Sanjeevani Policy, ...") becomes a leading part, which the
    scoping reads as a reference ("...; what is ...?")."""
    request = _REQUEST.match(query)
    if request is not None and len(query) > request.end():
        # "Can you tell me if maternity is covered?" asks whether it is
        rest = _WHETHER.sub("Is it the case that ", query[request.end():], count=1)
        query = rest[:1].upper() + rest[1:]
    lead = _FRAME_LEAD.match(query)
    if lead is not None:
        rest = query[lead.end():]
        # a name is a capitalised word besides the word for a document ("this Agreement")
        named = any(w[:1].isupper() and not DOCUMENT_NOUN.fullmatch(w)
                    for w in re.findall(r"[\w&'’.-]+", lead.group("words")))
        query = f"{query[:lead.start('comma')].strip()}; {rest}" if named else \
            rest[:1].upper() + rest[1:]
    return query


def without_name_words(query: str, names: Callable[[str], bool]) -> str:
    """``query`` less its capitalised words that ``names`` a document by (a question of
    nothing else is kept whole)."""
    kept = [word for word in query.split()
            if not (word[:1].isupper() and word[1:2].islower()
                    and any(names(token) for token in tokenize(word)))]
    question = re.sub(r"\s+([?.!,;])", r"\1", " ".join(kept)).strip()
    return question if len(tokenize(question)) >= 2 else query


@dataclass(frozen=True)
class DocumentNaming:
    """What a question may call a chosen document by, lower-cased and flattened: its name
    (file name and title), and that name with its opening text (parties, agreement name)."""

    name: str
    opening: str


def document_naming(document: Document) -> DocumentNaming:
    """How ``without_document_name`` reads a chosen document's name and opening."""
    name = _flat(document_name(document))
    return DocumentNaming(name, name + " " + _flat(document.text[:_PROFILE_CHARS]))


def without_document_name(query: str, namings: list[DocumentNaming]) -> str:
    """``query`` without what names one of the documents already chosen (``--doc``).

    - Leading parts (split at ";" and blank lines) that name one by a phrase of its name or
      opening: "Consider the SERVICE AGREEMENT between BICYCLETX LIMITED ("Company"); NIGEL
      CROCKETT ("Employee"); What is the governing law ...?" asks the last part. A leading
      part is context: one capitalised word there names it too ("Consider Motorola's
      Non-Disclosure Agreement;", "Consider "Fiverr"'s privacy policy;").
    - Else a phrase inside the sentence that names it as a document
      (``_named_in_sentence``): "the grace period under the National Insurance National
      Parivar Mediclaim Plus policy" asks about the grace period.

    The name would only match the document's preamble.
    """
    def names(part: str) -> bool:
        return any(_holds(naming.opening, phrase)
                   for phrase in _context_phrases(part) for naming in namings)

    parts = _parts(query)
    for cut in range(len(parts) - 1, 0, -1):
        if names("; ".join(parts[:cut])):
            return "; ".join(parts[cut:])
    named = _named_in_sentence(query, namings)
    return _without(query, *named) if named else query


def _named_in_sentence(query: str, namings: list[DocumentNaming]) -> tuple[int, int] | None:
    """Where a sentence names a chosen document: a capitalised run that ends with, or is
    followed by, a word for a document ("... Arogya Sanjeevani Policy", "the HDFC ERGO Easy
    Health policy"), from the first of its words that some two or more of them the document
    is called by start (its name or opening holds them: "HDFC ERGO", "Easy Health"), to the
    run's end and that word. Leading words called nothing stay ("Does the ..."); a defined
    term is no document's name ("all Confidential Information be")."""
    for end, words in _runs(query):
        noun = _DOCUMENT_NOUN_AFTER.match(query, end)
        if noun is None and not DOCUMENT_NOUN.fullmatch(query[words[-1][0]:words[-1][1]]):
            continue
        first = next((i for i in range(len(words)) for j in range(i + 2, len(words) + 1)
                      if any(len(query[a:b]) >= 4 for a, b in words[i:j])
                      and any(_calls(n, query[words[i][0]:words[j - 1][1]])
                              for n in namings)), None)
        if first is None:
            continue
        # a word of the name before the words held ("Edelweiss" before "Well Baby ..."),
        # not the sentence's first ("Does the ...")
        while first > 0 and query[:words[first - 1][0]].strip() and any(
                _calls(n, query[words[first - 1][0]:words[first - 1][1]]) for n in namings):
            first -= 1
        return words[first][0], noun.end() if noun else end
    return None


def _calls(naming: DocumentNaming, phrase: str) -> bool:
    """Whether a document is called ``phrase``: its name or opening holds it as words, or
    with the spaces left out ("ICICI Lombard" in "icicilombard.com", "ICICILombard_...")."""
    return _holds(naming.opening, phrase) or (
        len(phrase.split()) > 1 and _flat(phrase).replace(" ", "") in naming.opening)


def _holds(text: str, phrase: str) -> bool:
    """Whether flattened ``text`` holds ``phrase`` as whole words."""
    return re.search(rf"(?<!\w){re.escape(_flat(phrase))}(?!\w)", text) is not None


def _context_phrases(part: str) -> list[str]:
    """The phrases a leading part may name a document by: capitalised runs and their
    tails, quoted names, and single capitalised words after its first (possessive "'s"
    dropped: "Motorola's")."""
    phrases = [part[start:end] for start, end in _name_candidates(part)]
    phrases += _QUOTED.findall(part)
    words = [w.strip(_EDGE_PUNCTUATION) for w in part.split()[1:]]
    phrases += [w for w in words if w[:1].isupper() and len(w) >= 3]
    return [_POSSESSIVE.sub("", p) for p in phrases]


def _without(query: str, start: int, end: int) -> str:
    """``query`` less ``query[start:end]`` and the "under the" that leads into it."""
    head = _LEAD_IN.sub("", query[:start])
    question = re.sub(r"\s+([?.!,;])", r"\1", " ".join(f"{head} {query[end:]}".split()))
    # "Under the Easy Health policy, what is ...?" asks "what is ...?"
    return question.lstrip(",;: ") or query


def _parts(query: str) -> list[str]:
    """The query's parts, split at ";" and blank lines: "<document reference>; <question>"."""
    return [p.strip() for p in _PART_BREAK.split(query) if p.strip()]


def _runs(query: str) -> Iterator[tuple[int, list[tuple[int, int]]]]:
    """Each capitalised run of ``query`` (``_NAME_RUN``, trailing punctuation off): its end
    and its words' spans."""
    for match in _NAME_RUN.finditer(query):
        end = match.start() + len(match.group().rstrip(" .,;:?!"))
        yield end, [(match.start() + m.start(), match.start() + m.end())
                    for m in re.finditer(r"\S+", query[match.start():end])]


def _name_candidates(query: str) -> list[tuple[int, int]]:
    """Spans of capitalised runs and of their tails (the run may start with the sentence's
    first word, "Does the Arogya Sanjeevani Policy"), longest first, two words or more."""
    spans = []
    for end, words in _runs(query):
        for start, _ in words:
            tail = query[start:end].split()
            if len(tail) >= 2 and any(len(w) >= 4 for w in tail) and tail[0][0].isupper():
                spans.append((start, end))
    return sorted(spans, key=lambda s: s[0] - s[1])


def _flat(text: str) -> str:
    """Lower case, curly quotes straightened, whitespace collapsed: how names are compared."""
    return " ".join(text.replace("’", "'").lower().split())


def _opening_parties(index: IndexReader) -> dict[str, str]:
    """As recorded at ingest; found in the clauses of documents indexed before that (every
    clause of every document read: seconds on a corpus of hundreds)."""
    recorded = {d: e.parties for d, e in index.entries().items() if e.parties is not None}
    unrecorded = [d for d in index.clauses.document_ids() if d not in recorded]
    found = opening_parties(clause for doc_id in unrecorded
                            for clause in index.clauses.document_clauses(doc_id))
    return found | recorded
