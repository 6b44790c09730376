"""A direct answer without a language model: the deciding sentence of the best clause.

An analyst reads the first line and stops, so that line must be the sentence that holds
the asked value (a period, an amount, a limit, a governing law, a yes/no condition), quoted
verbatim from the clause that decides the question and cited; the exceptions that govern
that clause follow, one line each. When the evidence does not support an answer the
answer says so ("Not found in the indexed documents") and lists the nearest clauses.

How the sentence is chosen (no model, only the retrieved clauses and the index):

* the question's content words are weighted by their inverse document frequency *within
  the document* (a word the document never uses weighs most: it is what the document does
  not talk about);
* every sentence of the top ``CANDIDATE_CLAUSES`` retrieved clauses is scored by the weight
  of the question words it holds (its clause's heading and section path count at half),
  plus a bonus when it holds a value of the kind the question asks for (a duration for
  "how long", an amount or percentage for "limit", a place for "which law"), plus a small
  prior for the clause's retrieval rank;
* "found" is decided by the answer gate (:mod:`clausegraph.answer.gate`): a logistic
  regression over what the best sentence and its document say (the share of the question's
  weight the document uses at all, the sentence's score and words, whether it holds a
  value of the asked kind, the question's kind, the retrieval cosine of the clauses, how
  far the document's clauses are of the CUAD clause type asked about) gives
  P(the answer is right), and below its fitted threshold the answer is "not found". The
  gate is fitted on the 22 policies of benchmarks/policies and the CUAD dev asks
  (scripts/fit_answer_gate.py, docs/answer_gate.md). The old hand thresholds
  (``MIN_DOCUMENT_COVERAGE``, ``MIN_SENTENCE_SCORE``, ``MIN_CONFIDENCE``, chosen on
  ``benchmarks/real_pdfs/``) are one of its features, no longer the decision.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from clausegraph.answer import sentences
from clausegraph.answer.defined import PRONOUNS, definition_terms, past_term_line
from clausegraph.answer.gate import KINDS, active_gate, answer_features
from clausegraph.answer.kinds import learned_kind
from clausegraph.classify.categories import CUAD_CATEGORIES
from clausegraph.classify.questions import type_affinity
from clausegraph.models import (
    CELL_SEPARATOR,
    AnswerLine,
    Clause,
    DirectAnswer,
    RelationType,
    Span,
    TypeCheck,
)
from clausegraph.segment.clauses import reads_as_title, wraps_on
from clausegraph.segment.headings import VERB_RE, ends_mid_phrase
from clausegraph.segment.lines import is_caps
from clausegraph.store.base import IndexReader
from clausegraph.text.abbreviations import ABBREVIATION, ends_with_abbreviation
from clausegraph.text.nlp import place_spans
from clausegraph.text.stopwords import ENGLISH_STOP_WORDS
from clausegraph.text.tokenize import answer_tokens
from clausegraph.text.term import event_end, notice_durations, starts_on, term_end
from clausegraph.text.values import (Value, bracket_figure, extract_values, meets_figures,
                                     stated_figures)

# the cosines of sentences with the question (the answer's caller embeds them)
SentenceSimilarity = Callable[[Sequence[str]], np.ndarray]

NOT_FOUND = "Not found in the indexed documents"
# The answer gate's P(right) from which a review that finds no clause of the type asked does
# not refuse the answer (answer_type_absent_refuses, off by default): on CUAD dev any value
# from 0.7 to 0.9 lost no not-found recall against never (docs/cuad_dev.md, session 13);
# with the trees deciding typed questions (session 22) 0.6 / 0.7 / 0.8 / 0.9 give not-found
# precision 88.0 / 87.7 / 87.7 / 87.6 at recall 82.5 each, and 0.7 keeps a five-year term
# answering "How long does the agreement last?" (P 0.74) where 0.8 refused it
SURE_ANSWER = 0.7
_TYPE_COLUMN = {name: i for i, name in enumerate(CUAD_CATEGORIES)}
CANDIDATE_CLAUSES = 5
# The old not-found thresholds (docs/real_documents.md), now one feature of the answer gate
# (clausegraph/answer/gate.py: ``constants_pass``), not the decision.
MIN_DOCUMENT_COVERAGE = 0.7
MIN_SENTENCE_SCORE = 0.45
# and both together: min(sentence score, 1) x document coverage
MIN_CONFIDENCE = 0.5
MAX_SENTENCE_CHARS = 320
# a quote up to this much longer is shown whole rather than cut a few words short
_CUT_SLACK = 80
# how far around a bracketed numeral a value written twice may reach ("one hundred and
# twenty\n(120) days")
_VALUE_REACH = 40
FOCUS_VALUE_BONUS = 0.35
_PLAIN_SENTENCE_WORDS = 40
_PAIR_DISCOUNT = 0.9
# words of one family share their first letters ("governs" / "governed", "warranty" /
# "warrants")
FAMILY_PREFIX = 5
# Words that only name the kind of value asked: a sentence holding such a value has them.
_KIND_WORDS = {
    "law": frozenset(answer_tokens("law laws govern governs governed governing jurisdiction")),
    "coverage": frozenset(answer_tokens("cover covers covered coverage benefit benefits eligible "
                                   "reimburse reimbursed indemnify payable pay pays")),
    # a rate is stated as a percentage ("interest at 2% per month")
    "amount": frozenset(answer_tokens("cap capped limit limits maximum minimum amount rate")),
    # "when does it start?" is answered by a date ("shall commence on September 10, 2015")
    "duration": frozenset(answer_tokens("expire expires expiry expiration last lasts long length "
                                   "run runs duration start starts begin begins commence "
                                   "commences")),
    "incorporation": frozenset(answer_tokens("incorporated incorporation organized organised "
                                        "organization formed registered")),
    "contact": frozenset(answer_tokens("contact phone telephone number e-mail email website "
                                  "helpline hotline toll free call")),
    "place": frozenset(answer_tokens("country countries territory territories region regions "
                                "continent continents geographical geographic area where")),
}
# the words a cover question asks with, not what it asks about; and the function words
# ("while", "during", "if") the answer stage's tokens keep (spaCy's English stop words,
# without the number words: a figure can be what is asked about)
_ASKS_COVER_WORDS = _KIND_WORDS["coverage"] | frozenset(answer_tokens(
    "exclude excludes excluded exclusion exclusions")) | frozenset(
    t for t in answer_tokens(" ".join(sorted(ENGLISH_STOP_WORDS))) if t.isalpha())
# cover held back for a period: "excluded until the expiry of 24 months", "covered after 48
# months of continuous coverage", "not payable until 30 days have elapsed"
DEFERS_COVER = re.compile(
    r"\b(?:exclu\w*|not\s+(?:be\s+)?(?:covered|payable|available|admissible))\b[^.;]*?"
    r"\buntil\b|\b(?:covered|payable|available|admissible)\s+(?:only\s+)?after\b", re.I)
_WAIT_WORDS = frozenset(answer_tokens("wait waiting period periods"))
EXCEPTION_LINES = 3
# the lines a clause's own number is looked for in, past a section heading merged into it
_TITLE_LINES = 3
# An exception line must hold this share of the question's word weight (see governs()).
MIN_EXCEPTION_RELEVANCE = 0.5

# Words every question about a document uses: they say nothing about what is asked.
_GENERIC = frozenset(answer_tokens(
    "policy policies agreement contract document there any under this these such what "
    "which whose is are be there's tell me please explain describe many much long soon "
    "often extent kind type define defined definition meaning mean apply applies "
    "exception exceptions conditions "
    # how a question is phrased, not what it is about ("how much notice does X need")
    "need needs needed require requires required before happen happens get gets take takes "
    "can could may might shall should would will must do does did have has had either"
))
# words that name no place by themselves ("the Geographical Area", "Policy")
_NO_PLACE = _KIND_WORDS["place"] | _GENERIC

# A sentence ends at . ; or : followed by a capital, a digit or an opening bracket/quote,
# but not after a list label ("a.", "iii.", "2.") or a common abbreviation.
_SENTENCE_END = re.compile(r"[.;:](?=\s+[A-Z(\"“0-9])")
_NO_END_BEFORE = re.compile(
    rf"(?:^|[\s(])(?:[a-zA-Z]|[ivxlcIVXLC]{{1,5}}|\d{{1,3}}|{ABBREVIATION})\s$"
)
_WORD_RE = re.compile(r"[A-Za-z0-9]+")
# a line of a table as ingest renders it (ingest/blocks.py, render_table)
_TABLE_ROW_LINE = re.compile(rf"^[^\n]*?{re.escape(CELL_SEPARATOR)}[^\n]*(?:\n|$)",
                             re.MULTILINE)
# A list item that starts its own line: "a. ", "iii. ", "(b) ", "2) ", a bullet.
_LINE_ITEM = re.compile(
    r"(?<=\n)[ \t]*(?:\(?(?:[a-zA-Z]|[ivxlcIVXLC]{1,5}|\d{1,2})[.)]|[•●▪◦■➢►\uf0b7\-–])\s"
)

# The values each kind of question asks for, read by the one value extractor
# (clausegraph/text/values.py): "30 (thirty) days", "thirty (30) days", "$500" and "INR 500"
# alike. A period is answered by a duration, an age or a date ("when does it start?" by
# "shall commence on September 10, 2015"); a limit by money or a percentage; a count by any
# number, a measure too ("How many kilometres of towing?": "up to 50 km").
_VALUE_KINDS: dict[str, frozenset[str]] = {
    "duration": frozenset({"duration", "age", "date"}),
    "amount": frozenset({"money", "percent"}),
    "count": frozenset({"number", "money", "percent", "duration", "age", "measure"}),
}
# the question kinds that ask for a figure
VALUE_QUESTION_KINDS = frozenset(_VALUE_KINDS)
# "in perpetuity" states a period without a number
_UNBOUNDED = re.compile(r"\bperpetuity\b", re.I)
# "refund proportionate premium for the unexpired period", "a pro rata share": an amount
# stated as a share of another, without a number
PROPORTIONAL = re.compile(r"\bpro[- ]?rata\b|\bproportionate\s+(?:premium|share|amount|"
                          r"refund|part|portion)\b", re.I)
# an amount stated without a number: a share of another, or "Nil", a rate or an amount of
# zero ("Glass parts | Nil", "Deductible: NIL")
NIL = re.compile(r"\bnil\b", re.I)
# "for the shortest time required", "as long as necessary", "no longer than is necessary":
# a period stated by what it serves, without a number (how long a privacy policy keeps data,
# how long a duty of confidence lasts)
WHILE_NEEDED = re.compile(
    r"\b(?:as\s+long\s+as\s+(?:is\s+|it\s+is\s+)?(?:reasonably\s+|strictly\s+)?(?:necessary|"
    r"required|needed)|no\s+longer\s+than\s+(?:is\s+)?(?:reasonably\s+|strictly\s+)?(?:necessary|"
    r"required|needed)|for\s+(?:the|such)\s+(?:shortest\s+|minimum\s+)?(?:time|period)\s+(?:as\s+"
    r"(?:is\s+)?|that\s+is\s+)?(?:reasonably\s+|strictly\s+)?(?:necessary|required|needed))\b",
    re.IGNORECASE)
_UNNUMBERED = {"duration": re.compile(f"{_UNBOUNDED.pattern}|{WHILE_NEEDED.pattern}",
                                      re.IGNORECASE),
               "amount": re.compile(f"{PROPORTIONAL.pattern}|{NIL.pattern}", re.I)}
# "as specified in the Policy Schedule", "set out in Exhibit A", "as per the Table of
# Benefits": a value the wording gives by pointing to where it is stated
DEFERRED = re.compile(
    r"\b(?:(?:specified|stated|mentioned|shown|set\s+(?:forth|out)|given|indicated)\s+"
    r"(?:in|on|under)|as\s+per|according\s+to)\s+(?:the\s+|your\s+|this\s+)?"
    r"(?P<target>(?:[\w/&-]+\s+){0,3}?(?:schedule|table|certificate|exhibit|annex(?:ure)?|"
    r"appendix)\b(?:\s+of\s+[\w-]+)?)", re.I)
# a figure left blank on a printed wording, to be filled in the schedule ("a discount of
# Rs. ……….", "an additional premium of ₹....", "....% of the premium", "within ... days")
_BLANK_VALUE = re.compile(
    r"(?:\bRs\.?|\bINR|₹|\$|€|£|\bUSD|\bEUR)\s*[.…_*]{2,}"
    r"|[.…_*]{3,}\s*(?:%|per\s*cent\b|days?\b|months?\b|years?\b|hours?\b|kms?\b)",
    re.I)
# words of a pointer's target that say where, not which ("the Policy Schedule")
_TARGET_GENERIC = frozenset(answer_tokens("the this your policy"))
# Values that are not numbers, by their wording
# cover stated as going on ("During a FMLA Leave, coverage will be maintained", "cover shall
# continue"): it grants cover for the time asked about
CONTINUES_COVER = re.compile(
    r"\b(?:coverage|cover)\s+(?:will|shall|would|is to|does)\s+(?:be\s+maintained|continue|"
    r"remain in (?:force|effect))", re.I)
# the insurer's promise as motor endorsements write it: "the insurer undertakes to pay
# compensation ..." (IMT16), "the Company undertakes to indemnify ..."
UNDERTAKES = re.compile(r"\bundertakes?\s+to\s+(?:pay|indemnify|reimburse|make good)\b", re.I)
# who grants cover: the insurer ("We", "the Company") or the contract itself ("The Policy
# will pay", "This insurance covers", "this benefit shall reimburse"); cover that goes on
# ("coverage will be maintained"); an insurer that "undertakes to pay". Read by the verdict
# of a quote, and of a list's lead-in, whose items it covers (``_granting_lead_in``: a verb
# of the promise, not the noun, as in "opt for this cover for any one of the periods below")
AFFIRMS_COVER = re.compile(
    r"\b(?:we|the company|the insurer|the plan|(?:the|this) (?:policy|insurance|cover|benefit|"
    r"section|plan|extension|endorsement))\s+(?:(?:will|shall)\s+(?:pay|cover|reimburse|"
    r"indemnify|bear)\b|(?:covers|pays|reimburses|indemnifies)\b|"
    # "This Section provides for indemnity against ...", "The plan provides coverage for"
    r"(?:(?:will|shall)\s+provide|provides)\s+(?:for\s+)?(?:an?\s+)?(?:indemnity|cover(?:age)?|"
    r"reimbursement|compensation)\b)|\b(?:is|are|shall be|will be)\s+"
    r"(?:covered|payable|reimbursed|reimbursable|included|indemnified)\b|"
    # (what "shall be paid" is a promise; "if the premium is paid" is a condition)
    r"\b(?:shall|will)\s+be\s+paid\b|"
    # a cover named by its title, then what it does ("Well mother Cover Covers routine
    # medical care ...", "Accident Benefit pays ...")
    r"\b(?:cover|benefit|extension)\s+(?:covers|pays|reimburses|indemnifies)\b|"
    + CONTINUES_COVER.pattern + "|" + UNDERTAKES.pattern, re.IGNORECASE)
_VALUE_PATTERNS = {
    "law": re.compile(r"(?i:(?<!organized under the )(?<!organised under the )"
                      r"(?<!existing under the )(?<!incorporated under the )"
                      r"(?<!formed under the )(?<!standing under the )\blaws?\s+of\b)"
                      # the place named with it ("the laws of England and Wales"), so a long
                      # sentence cut around the value keeps the whole place
                      r"(?:\s+(?:the\s+)?[A-Z][\w.'’-]*(?:\s+(?:and|of)\s+[A-Z][\w.'’-]*|"
                      r"\s+[A-Z][\w.'’-]*)*)?"
                      # "governed by Singapore law", not "governed by an interconnect agreement"
                      # nor a "Governing law" heading
                      r"|\b(?!(?:Governing|Applicable|Choice|Such|This|That|Any|The)\b)"
                      r"[A-Z][a-z]+ law\b"),
    "definition": re.compile(r"\bmeans?\b|\bshall mean\b|\bdefined\b|\brefers? to\b", re.I),
    # "Photronics, Inc., a Connecticut corporation"; "organized under the laws of Florida"
    "incorporation": re.compile(
        r"\b(?:incorporated|organi[sz]ed|formed|registered|existing)\s+(?:in|under)\b"
        r"|\b[A-Z][a-z]+(?: [A-Z][a-z]+)?\s+(?:corporation|limited liability company|"
        r"limited partnership|company|limited company)\b"),
    # an e-mail address, a web address, a telephone number (7 or more digits in groups;
    # not a date written with hyphens or slashes)
    "contact": re.compile(
        r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b(?:https?://|www\.)[^\s<>;,()]+"
        r"|(?<![\w.,/-])(?!\d{1,4}[-/]\d{1,2}[-/]\d{1,4}\b)(?=(?:[ ()+-]*\d){7})"
        r"\+?\(?\d{2,5}\)?(?:[ -]\(?\d{2,5}\)?){0,4}(?![\w/-])"),
    # a sentence that says how a figure is arrived at names its basis or its rule
    "method": re.compile(
        # the basis named with its first words ("on the basis of the manufacturer's listed
        # selling price"), so a long sentence is cut to hold them
        r"\b(?:(?:on the )?basis of|(?:calculated|computed|determined|worked out) "
        r"(?:on|as|at|by|from|in accordance with|according to|by reference to))"
        r"\s+(?:[\w'’,/-]+\s+){0,5}[\w'’/-]+"
        r"|\b(?:pro[- ]?rata|proportion\w*|formula|short[- ]period scale|multiplied|"
        r"divided)\b", re.I),
    # a sentence that grants or refuses cover says so with one of these verbs
    "coverage": re.compile(
        r"\b(?:indemnif\w*|reimburs\w*|(?:is|are|be|being|not) covered|covers?\b|payable|"
        r"shall (?:pay|be paid|be admissible)|will pay|admissible|excluded|not be liable|"
        r"(?:is|are) eligible|entitled|" + CONTINUES_COVER.pattern + "|" + UNDERTAKES.pattern
        + ")", re.I),
}
# "... and what are the conditions?": the condition sentence of the answering clause follows
_ASKS_CONDITIONS = re.compile(r"\b(conditions?|eligib\w*|requirements?|criteria|qualif\w*)\b",
                              re.I)
_CONDITION = re.compile(
    r"\b(?:provided (?:that)?|subject to|only (?:if|when|after)|at least|must|should have|"
    r"continuously covered|waiting period|unless|on condition)\b", re.I)
# A sentence that opens by carving an exception out of what precedes it.
_PROVISO = re.compile(
    r"\s*(?:\(?[a-z0-9ivx]{1,4}[.)]\s*)?(?:notwithstanding|provided(?:,)?\s+(?:however|that|further)|"
    r"except\b|excepting|save\s+(?:that|as|for)|however\b|unless\b|this\s+(?:exclusion|limitation|"
    r"section|clause)\s+(?:shall|will|does)\s+not\s+(?:apply|be\s+applicable)|the\s+foregoing\s+"
    r"(?:shall|will|does)\s+not\s+(?:apply|be\s+applicable))", re.I)
# An exception inside a sentence, after the rule it qualifies.
_INLINE_PROVISO = re.compile(
    r"[;,]\s*(?=(?:provided,?\s+(?:however|further|that)|except\s+(?:that|as|for|to\s+the\s+extent)"
    r"|notwithstanding)\b)", re.I)
_MIN_RULE_CHARS = 60
# Where a party's introduction starts: after "by and between", or after the defined name
# that closes the party before it ('... ("Equidata"), and National ...'; not after
# '(the "Effective Date"), by and between')
_PARTY_END = re.compile(r"[”\"]\s*\)\s*[,;]?\s*(?:and\s+)?(?=[A-Z])|\bbetween\s+(?=[A-Z])")
# The relation rule that recognises a clause refusing cover ("shall be excluded", "is not
# covered"): rules/overrides.yaml, one pattern for the graph and for the answer.
REFUSES_COVER_RULE = "overrides.exclusion_text"
# An exception line whose words are mostly an answer line's repeats it (documents restate
# exclusions in a second section); 0.9 of the shorter text's words.
RESTATED_SHARE = 0.9
# For "is X covered?" the grant is the answer and the exclusions its exceptions: an
# exclusion's sentence wins only when it matches the question clearly better.
_EXCLUSION_DISCOUNT = 0.8
_TITLE_BONUS = 0.15
# the hand score's rank prior (0.12 / (1 + rank)) and the bonus of a sentence holding a value
# of the asked kind, the cost of lacking one (x the share of the question it holds): set on
# the labelled sets, their dev sweep in docs/answer_constants.md (session 29)
_RANK_PRIOR = 0.12
_VALUE_FIT = 0.3
_MISSING_VALUE_COST = 0.45
# a sentence that ends by introducing what follows
_INTRODUCES = re.compile(r"(?::|\bmeans\s*[;:,]?|\bas under\s*[;:,]?|\bfollowing\s*[;:,]?)\s*$",
                         re.I)
# how a worked example opens: "For example, if a covered Employee ...", "Example: ..."
_EXAMPLE_WORDS = (r"for\s+(?:example|instance)|by\s+way\s+of\s+(?:example|illustration)|e\.g\.|"
                  r"example:|illustration:")
_ITEM_LABEL = r"\s*(?:\(?[a-z0-9ivx]{1,4}[.)]\s*)?"
# A sentence that opens by pointing back at a case the text before it describes; an
# illustration is one case of the rule
_SPECIAL_CASE = re.compile(
    _ITEM_LABEL + r"(?:however,?\s+)?(?:in\s+(?:such|that|this|these|which)\s+"
    r"(?:a\s+)?(?:case|cases|event|events|circumstances?)|where\s+the\s+circumstances|"
    + _EXAMPLE_WORDS + r")(?!\w)", re.I)
_SPECIAL_CASE_DISCOUNT = 0.9
# a worked example: a sentence that opens so, or one after a line that does ("Example:")
_EXAMPLE_OPENS = re.compile(_ITEM_LABEL + r"(?:" + _EXAMPLE_WORDS + r")(?!\w)", re.I)
_EXAMPLE_BEFORE = re.compile(r"\b(?:example|illustration|e\.g\.)\s*:?\s*$", re.I)
# words (not stop words) of a sentence that states something, not a label
_STATEMENT_WORDS = 4
# a sentence of fewer words than this (a heading line, "3.1.9 Ambulance") states too little
# to be an answer by itself
_SUBSTANCE_WORDS = 6
# the defined term opens its definition: its "means" comes this close to the start
_DEFINED_TERM_CHARS = 100
# a parent clause this short is a list heading: its words are context of its items
_LIST_HEADING_CHARS = 200
_LIST_ITEMS = 12
# how many lists up an item's refusal is looked for: its own list, and the list that list
# is an item of ("3. any loss ... whilst the vehicle is" / "(b) being driven by ...")
_REFUSING_LEVELS = 2
# the items of one list quoted beside the best when the question picks none of them
_PARALLEL_ITEMS = 3
# the items quoted after a sentence they complete (a definition's "(i) which ... (ii) ...");
# a readability bound, as _PARALLEL_ITEMS
_COMPLETING_ITEMS = 5
# a list heading this short reads as the title of its items
LIST_TITLE_CHARS = 100
# a list label: "3.", "(b)", "iv)", "2.1.", or a bare number ("3")
_LIST_LABEL = r"\(?(?:\d{1,3}(?:\.\d{1,3})*|[ivxlcIVXLC]{1,6}|[a-zA-Z])[.)]|\d{1,3}(?:\.\d{1,3})*"
# a line that is only a list label
_LABEL_ONLY_LINE = re.compile(_LIST_LABEL)
# the label a row or an item opens with ("2 Loss of ...", "(ii) ...", "b. ..."): no word of it
_OPENING_LABEL = re.compile(rf"^\s*(?:{_LIST_LABEL})(?=\s)\s*")
# a list's title merged into its first item lies at most this many clauses before an item
_TITLE_SEARCH_CLAUSES = 40
# a rule stated for a list given elsewhere in its section: "the listed conditions", "the
# following diseases", "the diseases specified below", "as listed in Annexure I"
_REFERS_TO_LIST = re.compile(
    r"\b(?:the\s+)?(?:listed|following)\s+(?:conditions?|diseases?|illness\w*|ailments?|"
    r"procedures?|treatments?|surger\w*|items?)\b|\b(?:specified|mentioned|listed|given)\s+"
    r"(?:below|hereunder|in\s+the\s+list)\b", re.I)
# the label that opens a section-path entry ("6.3(f)(i)", "(b)", "12.") before its title
_PATH_LABEL = re.compile(r"[(\[]?[0-9A-Za-z.()\[\]~¶]{1,14}")
# the words that name an attachment ("Annexure III", "SCHEDULE B", "Exhibit A") and, with
# them, the other containers a section path may name by word and label ("SECTION 3(C)")
_ATTACHMENT_WORDS = r"annex(?:ure)?|schedule|appendix|exhibit|attachment"
_CONTAINER_LABEL = re.compile(rf"(?i:section|part|article|chapter|clause|endorsement|"
                              rf"{_ATTACHMENT_WORDS})\s+(?=\S*\d|[A-Z]{{1,4}}\b|[IVXLC]+\b)")
# "Is cosmetic surgery excluded?", "Are war risks an exclusion?": cover asked the other way
ASKS_EXCLUSION = re.compile(r"\b(excluded|exclusions?|not (?:covered|payable|paid|"
                            r"reimbursed|included))\b", re.I)
# a question that asks when something ends ("When does the initial term end?", "On what date
# does the agreement expire?": the end of a term, which a clause more often counts, "for three
# (3) years", than states), and one asked as a date ("When does the policy period end?" asks a
# date though "period" reads as a duration, "What is the expiration date of this contract?"
# one though "expiration" reads as a duration too; "How long before the end ...?" asks a
# length)
ASKS_END = re.compile(r"\b(expir\w*|end|ends|ending)\b|\bwhen\s+(does|will|do)\b[^?]*"
                      r"\bterminat\w*", re.I)
ASKS_DATE = re.compile(r"\bwhen\b|\bdate\b", re.I)
# a question for how long something lasts or when it ends ("How long does the agreement
# last?", "What is the term?", "When does it expire?"), which the day it starts does not
# answer (unlike "When was this agreement made?")
_ASKS_LENGTH = re.compile(r"\bhow\s+long\b|\b(?:term|duration|expir\w*|ends?|ending|lasts?|"
                          r"until)\b", re.IGNORECASE)
# a question answered yes or no: it opens with an auxiliary verb
ASKS_YES_NO = re.compile(
    r"^\s*(is|are|was|were|does|do|did|can|could|may|might|will|would|shall|should|must|has|"
    r"have|had)\b", re.IGNORECASE)
# "How much notice must be given to stop the agreement from renewing?": a notice period,
# which a sentence setting a term often states after its term's and renewal's lengths
ASKS_NOTICE = re.compile(r"\bnotice\b", re.I)
_QUESTION_KINDS = (
    ("incorporation", re.compile(
        r"\bwhere\b.*\b(incorporated|organi[sz]ed|formed|registered)\b|"
        r"\b(state|jurisdiction|place) of (incorporation|organi[sz]ation)\b", re.I)),
    ("law", re.compile(r"\b(law|laws|governed|governing|jurisdiction)\b", re.I)),
    ("definition", re.compile(r"\b(define[sd]?|definition|mean|meaning)\b|^what (is|are) (an? )?['\"‘“]", re.I)),
    # where something holds: "In which countries does the cover apply?", "What is the
    # geographical area of the policy?", "Which countries can the area be extended to?"
    ("place", re.compile(
        r"\b(?:which|what)\s+(?:countr(?:y|ies)|territor(?:y|ies)|regions?|continents?)\b|"
        r"\bwhere\b.*\b(?:valid|apply|applies)\b|"
        r"\bgeographic(?:al)?\s+(?:area|scope|limits?|extent|coverage)\b|"
        r"\bterritorial\s+(?:limits?|scope)\b", re.I)),
    # how a figure is arrived at: "How is the refund calculated?", "On what basis is the
    # IDV fixed?"
    ("method", re.compile(
        r"\bhow (?:is|are|will|would|shall|do|does)\b.*\b(?:calculated|computed|determined|"
        r"worked out|fixed|assessed|arrived at|valued)\b|\bon what basis\b", re.I)),
    ("duration", re.compile(
        r"\b(how long|how soon|how many (days|months|years|weeks|hours)|within how|period|"
        # a time asked without "how": "Within what time ...?", "By when ...?", "time limit"
        r"within what|in what time|by when|time ?limits?|time ?frame|deadline|"
        r"term\b|duration|length of|when does|expire|until when|how much notice|notice|"
        # an age is a number of years ("children aged below 17 years")
        r"(what|which|maximum|minimum|entry) age|age limit|how old)\b", re.I)),
    ("amount", re.compile(
        r"\b(how much|limit|limits|amount|cap|capped|maximum|minimum|percentage|percent|rate|fee|"
        r"fees|co-?pay\w*|discount|bonus|rent|charges|deductible|sub-?limit|price|paid|"
        r"payable|liability|refunds?)\b|%", re.I)),
    ("count", re.compile(r"\bhow many\b", re.I)),
    # how to reach someone: a telephone number, an e-mail address, a website
    ("contact", re.compile(
        r"\b(?:how|who|whom|where)\b.*\bcontact\b(?!\s+(?:lens|lenses|sports?)\b)|"
        r"\bcontact (?:details|number|address|information|person|point)\b|"
        r"\b(?:helpline|hotline|toll[- ]?free|e-?mail|website)\b|"
        r"\b(?:tele)?phone (?:number|no)\b|\bby (?:tele)?phone\b|"
        r"\bwho (?:do|should|can|may) (?:i|we|you|they) (?:call|write to)\b", re.I)),
    ("coverage", re.compile(
        r"\b(cover|covers|covered|coverage|benefits?|eligible|reimburs\w*|indemnif\w*|"
        r"payable|pay for|pays for|provided|available|offered)\b", re.I)),
)


@dataclass
class _Scored:
    score: float
    coverage: float
    clause: Clause
    span: Span  # offsets in clause.text
    has_value: bool = False  # holds a value of the asked kind
    words: float = 0.0  # share of the question's weight held by the words themselves
    # the parts of the hand score the answer-sentence scorer also reads (answer/sentences.py)
    rank: int = 0
    tokens: int = 0
    title: float = 0.0  # share of the question's weight the clause's heading holds
    exclusion: bool = False
    special_case: bool = False
    pair: bool = False  # read with the sentence before it


# "What is not included in the out-of-pocket limit?", "Which costs are excluded from the
# deductible?": the question asks what a figure holds or leaves out, not the figure (as an
# amount question, its answer was the row stating the limit in dollars); "What amount is
# included ..." still asks for a figure
_ASKS_CONTENTS = re.compile(
    r"^\s*(?:what|which)(?:\s+(?!amount|sum|figure|percentage|limit)\w+)?\s+(?:is|are)\s+"
    r"(?:not\s+)?(?:included|excluded|counted)\b", re.I)


# "What documents are needed to make a claim?", "Which illnesses have a two-year waiting
# period?", "What are the grounds for cancellation?", "List the exclusions": the members of
# a set are asked, a plural noun before a verb that agrees with it or after "what are the"
_ASKS_LIST = re.compile(
    r"^\s*(?:(?:what|which)\s+(?:are|were)\s+(?:all\s+)?the\s+(?:\w+\s+){0,2}?"
    r"(?P<set>\w+(?<!s)(?<!u)s)\b|"
    r"(?:what|which)\s+(?:\w+\s+){0,2}?(?P<members>\w+(?<!s)(?<!u)(?<!i)s)\s+(?:are|were|have|do|must|"
    r"should|can|need|may|will|would)\b|(?:list|name|enumerate)\s+(?:all\s+)?the\b)",
    re.IGNORECASE)
# words that announce a list: a lead-in's colon, "the following", "listed below", "List of"
_ANNOUNCES_LIST = re.compile(r":\s*$|\bthe\s+following\b|\b(?:listed|mentioned|given|stated|"
                             r"set\s+out)\s+(?:below|hereunder)\b|\bbelow[\s-]+(?:mentioned|listed|"
                             r"given)\b|\bas\s+under\b|\blist\s+of\b", re.IGNORECASE)
# how near (characters) an announcing cue stands to the noun it announces: "the following
# documents for or in support of the Claim:", "List of Claim documents:" (a few words)
_CUE_REACH = 40
# a readability bound on the items a list answer quotes, as _COMPLETING_ITEMS
_LISTED_ITEMS = 8


def asks_list(question: str) -> bool:
    """Whether the question asks for the members of a set ("What documents are needed to
    make a claim?"): its answer is a list, quoted with its lead-in, not one item of it."""
    return _ASKS_LIST.search(question) is not None


def _listed_noun(question: str) -> frozenset[str]:
    """The word a list question asks the members of ("documents" in "What documents are
    needed to make a claim?"), as answer tokens; empty when it names none ("List the
    ...")."""
    match = _ASKS_LIST.search(question)
    noun = match and (match.group("set") or match.group("members"))
    return frozenset(answer_tokens(noun)) if noun else frozenset()


def asks_contents(question: str) -> bool:
    """Whether the question asks what a figure or a cover includes or leaves out (it asks
    for no value)."""
    return _ASKS_CONTENTS.search(question) is not None


def question_kind(question: str) -> str | None:
    """The kind of value the question asks for, read by the question-kind model
    (answer/kinds.py): None when it asks for none, or asks what something includes or
    leaves out (a list answers it)."""
    if asks_contents(question):
        return None
    kind = learned_kind(question)
    if kind is None:  # the model's encoder is not installed: the hand rule
        return rule_question_kind(question)
    return None if kind == "none" else kind


def rule_question_kind(question: str) -> str | None:
    """The hand rule the model replaced in session 30 (first matching pattern wins), kept
    to compare the model with (scripts/train_question_kinds.py and its tests)."""
    if asks_contents(question):
        return None
    for kind, pattern in _QUESTION_KINDS:
        if pattern.search(question):
            return kind
    return None


def split_sentences(text: str) -> list[Span]:
    """Sentence spans of a clause text: a sentence ends at . ; or : before a capital, and a
    list item on its own line ("\\nb. Hernia") starts a new one; a list label written inline
    ("a. Cataract b. Hernia") never ends a sentence.

    >>> text = "iii. Two years waiting period a. Cataract b. Hernia. Then more."
    >>> [text[s:e] for s, e in split_sentences(text)]
    ['iii. Two years waiting period a. Cataract b. Hernia.', 'Then more.']
    """
    # "(60)" opening a line after "within sixty" is the numeral, not a list item
    cuts = {m.start() for m in _LINE_ITEM.finditer(text)
            if not (m.group().lstrip().startswith("(") and m.group().lstrip()[1:2].isdigit()
                    and _inside_value(text, m.start()))}
    for match in _SENTENCE_END.finditer(text):
        before = text[max(0, match.start() - 12): match.start()]
        if text[match.start()] == "." and _NO_END_BEFORE.search(before + " ") is None \
                and not ends_with_abbreviation(text, match.start()):
            cuts.add(match.end())
        elif text[match.start()] != "." and not _in_parentheses(text, match.start()):
            cuts.add(match.end())
    # a table row rendered inside a prose clause ("Exceeding 2 years ... | % of
    # Depreciation: 30%") is one sentence: a cut inside it would pair one row's band with
    # the next row's figure
    rows = _table_row_spans(text)
    if rows:
        cuts = {cut for cut in cuts if not any(a < cut < b for a, b in rows)}
        cuts.update(bound for row in rows for bound in row)
    spans, start = [], 0
    for cut in sorted(cuts):
        if cut > start:
            spans.append((start, cut))
        start = cut
    spans.append((start, len(text)))
    return [_trim(text, span) for span in spans if text[span[0]:span[1]].strip()]


def _in_parentheses(text: str, at: int) -> bool:
    """Whether ``at`` is inside a parenthesis opened on its line or the line before: "please
    contact us (For website: ...; For email: ...)" is one sentence. (A list label's lone
    ")" closes nothing: the depth never falls below zero.)"""
    start = text.rfind("\n", 0, max(0, text.rfind("\n", 0, at))) + 1
    depth = 0
    for char in text[start:at]:
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
    return depth > 0


def bare_item(text: str) -> bool:
    """Whether ``text`` is a list item of a few words with no verb ("1. For all parts made
    of glass - Nil"): what it is an item of is said by its list's lead-in."""
    return len(text) <= LIST_TITLE_CHARS and names_only(text)


def names_only(text: str) -> bool:
    """Whether ``text`` names things without a verb a rule is stated with ("List of
    specific diseases: • Cataract • Hernia"): its items are what its list's title or rule
    says of them."""
    return VERB_RE.search(text.lower()) is None


def _titled_items(terms: DocumentTerms, clause: Clause) -> bool:
    """Whether a clause's sentences are items its list title speaks for: a short clause, one
    that only names things, or a table captioned as a list ("List of specific diseases /
    procedures is as below" over rows "5. Benign prostatic hypertrophy | 6. Hernia of all
    types"), whose rows are its items however they are worded ("unless it is necessitated
    by an accident")."""
    text = clause.text
    if len(text) <= _LIST_HEADING_CHARS or names_only(text):
        return True
    return clause.kind == "table" and \
        _ANNOUNCES_LIST.search(clause.heading or terms.list_title(clause)) is not None


def _caps_title(text: str, span: Span) -> bool:
    """Whether ``text[span]`` is a title set in capitals ("SECTION III – PERSONAL ACCIDENT
    COVER FOR OWNER-DRIVER"): short, with no verb a rule is stated with."""
    line = text[span[0]:span[1]]
    return bare_item(line) and is_caps(line)


def _body_after_heading(best: _Scored) -> Span | None:
    """The sentence after ``best`` when ``best`` is its clause's heading line: the clause's
    first sentence, a line of its own no longer than a list title and ending in no stop;
    None otherwise."""
    text, (start, end) = best.clause.text, best.span
    line = text[start:end].rstrip()
    # a sentence ends at a line break only where a list item opens the next line: a
    # line without a stop cut there is the title of the items after it
    own_line = "\n" in text[end:end + 3]
    if _is_row(best) or text[:start].strip() or not own_line \
            or len(line) > LIST_TITLE_CHARS or line.endswith((".", ";", ":")):
        return None
    after = [span for span in split_sentences(text) if span[0] >= end]
    return after[0] if after else None


def _after_row(text: str, previous: Span) -> bool:
    """Whether ``previous`` is a table's row: a row is no heading of what follows it, the
    prose after the table or the next row (which carries its own label and column
    headers: "Exceeding 1 year but not exceeding 2 years | % of depreciation: 20%" read
    with the row above it states two bands)."""
    return _holds_row(text, previous)


def _holds_row(text: str, span: Span) -> bool:
    """Whether ``text[span]`` holds a table row as ingest renders it."""
    return CELL_SEPARATOR in text[span[0]:span[1]]


def _with_table_titles(index: IndexReader, lines: list[AnswerLine]) -> list[AnswerLine]:
    """``lines`` with the title of each quoted row's table read above the row, where the
    table has one and no line says it yet: two rows "Embedded Deductible ... | Amounts:
    $750" and "... | Amounts: $1,250" are the Gold and the Silver plan's only under the
    titles "Gold PPO Plan" and "Silver PPO Plan" their tables open with."""
    out: list[AnswerLine] = []
    said = {line.text for line in lines}
    for line in lines:
        title = None if line.heads or CELL_SEPARATOR not in line.text else \
            _row_title(index, line)
        if title is not None and title.text not in said:
            said.add(title.text)
            out.append(title.model_copy(update={"heads": True}))
        out.append(line)
    return out


def _row_title(index: IndexReader, line: AnswerLine) -> AnswerLine | None:
    """The title of the table the row ``line`` quotes: the first line above the table's
    rows (its header among them) when it reads as a title ("Gold PPO Plan" over "Type of
    Expense | Amounts"); None when there is none in the clause."""
    clause = index.clauses.clause(line.clause_id)
    start = clause.text_offset(line.span[0])
    if start is None:
        return None
    text = clause.text
    end = text.rfind("\n", 0, start) + 1  # the row's own line start
    while end > 0:
        above = text.rfind("\n", 0, end - 1) + 1
        row = text[above:end - 1]
        if CELL_SEPARATOR not in row:
            title = _trim(text, (above, end - 1))
            said = text[title[0]:title[1]]
            # a title, not the last words of a sentence wrapped above the table ("... the
            # co-payment below shall apply:") nor a row of one named cell ("Option
            # A/Sub-limit (in Rs): 30,000")
            titled = reads_as_title(said) and ": " not in said
            return _line(index, clause, title) if titled else None
        end = above
    return None


def _table_row_spans(text: str) -> list[Span]:
    """The lines of ``text`` that are rows of a table as ingest renders them ("label |
    column: value"), end offsets past the line break."""
    return [(m.start(), m.end()) for m in _TABLE_ROW_LINE.finditer(text)]


def _inside_value(text: str, position: int) -> bool:
    """Whether ``position`` (a "(60)" opening a line) lies inside one value written twice
    ("within sixty\n(60) days")."""
    start = max(0, position - _VALUE_REACH)
    window = text[start:position + _VALUE_REACH]
    return any(v.start < position - start < v.end for v in extract_values(window))


def _value_spans(kind: str | None, text: str, start: int = 0, end: int | None = None) -> list[Span]:
    """The spans of ``text[start:end]`` that state a value of the asked ``kind``."""
    end = len(text) if end is None else end
    if kind in _VALUE_KINDS:
        spans = [(v.start, v.end) for v in extract_values(text)
                 if start <= v.start and v.end <= end and value_answers(kind, v)]
        if kind in _UNNUMBERED:
            spans += [m.span() for m in _UNNUMBERED[kind].finditer(text, start, end)]
        return spans
    if kind == "place":
        # "the Geographical Area", "the Territory" name the kind of place, not a place; the
        # small model also takes a capitalised "Policy" for one
        return [(s, e) for s, e in place_spans(text) if start <= s and e <= end
                and not set(answer_tokens(text[s:e])) <= _NO_PLACE]
    pattern = _VALUE_PATTERNS.get(kind or "")
    return [m.span() for m in pattern.finditer(text, start, end)] if pattern else []


def value_answers(kind: str, value: Value) -> bool:
    """Whether ``value`` answers a question of ``kind`` (one of the kinds asking for a
    value: duration, amount, count); a number written with thousands
    separators ("1,00,000", "250,000") is an amount even without a currency."""
    if kind == "amount" and value.kind == "number":
        return "," in value.text and (value.amount or 0) >= 1000
    return value.kind in _VALUE_KINDS[kind]


def _asks_value(kind: str | None) -> bool:
    """Whether a question of ``kind`` asks for a value a sentence may state or lack."""
    return kind in _VALUE_KINDS or kind in _VALUE_PATTERNS or kind == "place"


def _trim(text: str, span: Span) -> Span:
    start, end = span
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


# a heading that refuses cover: "Exclusions", "What is not covered", "What we don't pay for",
# "We shall not be liable to pay for", "General Exceptions" (a motor wording's exclusions;
# "Exception to ..." in the singular lifts one)
_REFUSING = r"\bexclu\w*|\bnot\s+covered\b|(?:\bnot|n['’]t)\s+(?:pay|cover|be\s+liable)\b|" \
    r"\bexceptions\b"
REFUSING_HEADING = re.compile(_REFUSING, re.I)
# the words of a bulleted item that only names something ("Acupuncture (if prescribed for
# rehabilitation purposes)", "Non-emergency care when traveling outside the U.S."); a
# longer one states a case ("- The patient takes treatment at home on account of ...")
_BULLET_WORDS = 10
# the bullets a run of items opens each of them with (blocks of bare items: _bare_bullets)
_BULLETS = re.compile(r"(?:^|\n)\s*[•●▪◦■➢►\uf0b7\-–]\s")
# a title over what is covered: "Other Covered Services", "Benefits covered", "What is
# covered", "What we will pay for"
GRANTING_TITLE = re.compile(r"\bcovered\s+(?:services|benefits|expenses|items)\b|"
                            r"\bbenefits?\s+covered\b|\bwhat\s+(?:is|are)\s+covered\b|"
                            r"\bwhat\s+we\s+(?:will\s+)?(?:pay|cover)\b", re.I)
# a heading that names what is not covered or only in part: those, and "Limitations",
# "Exceptions"
# a clause that ends by refusing the list after it: "...; We will not cover:", "We shall not
# be liable to pay for", "the following are excluded -", "... in respect of:-", a title
# "GENERAL EXCEPTIONS" the segmenter reads as the lead-in of the items after it
REFUSES_ITEMS = re.compile(
    r"(?:(?:will|shall)\s+not\s+(?:cover|pay|be\s+liable)|not\s+covered|(?:are|is|be)\s+excluded|"
    r"exclusions?|exceptions)[^.;:]{0,60}(?::-|[:\-–])?\s*$", re.I)
EXCEPTION_HEADING = re.compile(rf"\b(?:exception\w*|limitation\w*)\b|{_REFUSING}", re.I)


def refusing_close(clause: Clause) -> Span | None:
    """The last sentence of ``clause`` when the clause ends by refusing the list after it
    (``REFUSES_ITEMS``), else None."""
    if REFUSES_ITEMS.search(clause.text[-200:]) is None:
        return None
    spans = split_sentences(clause.text)
    return spans[-1] if spans else None


def exclusion_heading(text: str) -> bool:
    """Whether a heading names what is not covered."""
    return EXCEPTION_HEADING.search(text) is not None


def excluding_section(clause: Clause) -> str | None:
    """The title of the nearest section ``clause`` sits in that names what is not covered
    ("What we don't pay for", "Exclusions"), from its section path; None under none."""
    return next((title for title in map(path_title_of, reversed(clause.section_path))
                 if title and exclusion_heading(title)), None)


def path_title(clause: Clause) -> str:
    """The title of the section ``clause`` sits in, as its section path names it, without
    its number ("6.3(f)(i) 24 Months waiting period" -> "24 Months waiting period"); ""
    for a bare number."""
    return path_title_of(clause.section_path[-1]) if clause.section_path else ""


def path_title_of(entry: str) -> str:
    """A section-path entry's title without its number ("" for a bare number), and without
    the container word before it ("SECTION 3(C) Specific Exclusions" -> "Specific
    Exclusions": the page writes "C. Specific Exclusions")."""
    container = _CONTAINER_LABEL.match(entry)
    if container is not None:  # the container's label, whatever its style, then the title
        return entry[container.end():].partition(" ")[2].lstrip("-–—:. ")
    first, _, rest = entry.partition(" ")
    is_label = _PATH_LABEL.fullmatch(first) is not None and \
        any(ch.isdigit() or ch in "()[]" for ch in first)
    if not rest:
        return "" if is_label else entry
    return rest if is_label else entry


def _whole_title_line(clause: Clause, span: Span) -> tuple[Clause, Span]:
    """The line a section path's title is written on, when that line is a title: the path
    may name only its label ("SECTION 4" for "SECTION 4 - What we will not pay for")."""
    text = clause.text
    start = text.rfind("\n", 0, span[0]) + 1
    end = text.find("\n", span[1])
    end = len(text) if end < 0 else end
    line = _trim(text, (start, end))
    return (clause, line) if line[1] - line[0] <= LIST_TITLE_CHARS else (clause, span)


# the first part of a clause id that names an attachment ("Annexure III", "SCHEDULE B")
_ATTACHMENT_PART = re.compile(rf"(?i)(?:{_ATTACHMENT_WORDS})\b")


class DocumentTerms:
    """Per-document word weights (inverse document frequency over the document's clauses)."""

    def __init__(self, index: IndexReader) -> None:
        self.index = index
        self._df: dict[str, tuple[int, dict[str, int]]] = {}
        # per document: each clause's parent (clause id -> parent clause), and each
        # parent's children (clause id -> clauses in document order)
        self._parents: dict[str, dict[str, Clause]] = {}
        self._children: dict[str, dict[str, list[Clause]]] = {}
        self._headed: dict[str, dict[str, Clause]] = {}
        self._titles: dict[str, tuple[Clause, Span] | None] = {}
        self._rules: dict[str, list[tuple[Clause, Span]]] = {}
        # per document: its clauses in reading order, and each clause's place in it
        self._ordered: dict[str, tuple[list[Clause], dict[str, int]]] = {}
        # per document: the reading-order places of the clauses of each "number heading"
        self._sections: dict[str, dict[str, list[int]]] = {}
        self._families: dict[tuple[str, str], bool] = {}
        self._attached: dict[tuple[str, str], list[tuple[Clause, Span]]] = {}

    def weights(self, doc_id: str, tokens: Sequence[str]) -> dict[str, float]:
        if doc_id not in self._df:
            df: dict[str, int] = {}
            clause_tokens = [
                answer_tokens(" ".join([*c.section_path[-2:], c.text]))
                for c in self.index.clauses.document_clauses(doc_id)
            ]
            for toks in clause_tokens:
                for token in set(toks):
                    df[token] = df.get(token, 0) + 1
            self._df[doc_id] = (len(clause_tokens), df)
        total, df = self._df[doc_id]
        # square root: a word the document rarely uses should count more than a common
        # one, but not drown it ("terminate" is everywhere in a termination question)
        return {t: math.sqrt(math.log((total + 1) / (df.get(t, 0) + 0.5))) for t in tokens}

    def list_heading(self, clause: Clause) -> str:
        """The text of the short clause that heads ``clause``'s list ("ii. Specified
        disease/procedure waiting period" over "a) ... excluded until 24 months"), or ""."""
        parent = self.parent(clause)
        if parent is None or len(parent.text) > _LIST_HEADING_CHARS:
            return ""
        return parent.text

    def list_title(self, clause: Clause) -> str:
        """The text of ``clause``'s list title (``list_title_line``), or ""."""
        line = self.list_title_line(clause)
        return _quoted_text(line)

    def list_title_line(self, clause: Clause) -> tuple[Clause, Span] | None:
        """Where the title of ``clause``'s list is written ("24 Months waiting period" over
        "9. Cataract", "Maternity Expenses (Code - Excl 18)" over "i. Medical treatment
        ..."): the title its section path names, found in the clause that heads the list or
        one just before it (a title is often merged into the list's first item); else the
        first line of its parent clause when that line is short enough to be a title."""
        if clause.clause_id not in self._titles:
            self._titles[clause.clause_id] = self._title_line(clause)
        return self._titles[clause.clause_id]

    def _title_line(self, clause: Clause) -> tuple[Clause, Span] | None:
        title = path_title(clause)
        found = self.find_before(clause, title) if title else None
        if found is not None:
            return _whole_title_line(*found)
        parent = self.parent(clause) or self.headed_parent(clause)
        if parent is None:
            return None
        first = _trim(parent.text, (0, len(parent.text.split("\n", 1)[0])))
        if _LABEL_ONLY_LINE.fullmatch(parent.text, *first):
            # "3." on a line of its own: the title is the label with the words it heads
            # ("3. any accidental loss ... whilst the vehicle insured herein is")
            spans = split_sentences(parent.text)
            whole = spans[0] if spans else first
            return (parent, whole) if whole[1] - whole[0] <= _LIST_HEADING_CHARS else None
        return (parent, first) if 0 < first[1] - first[0] <= LIST_TITLE_CHARS else None

    def find_before(self, clause: Clause, title: str) -> tuple[Clause, Span] | None:
        """Where ``title`` is written in ``clause`` or one of the clauses just before it
        (whitespace aside): a section path names a title, this cites it."""
        # a section path writes a title without the marks that follow its number
        # ("SECTION D EXCLUSIONS- ..." for "SECTION D) EXCLUSIONS- ...")
        pattern = re.compile(r"\W+".join(re.escape(word) for word in re.findall(r"\w+", title)))
        ordered, place = self._reading_order(clause.doc_id)
        start = max(0, place[clause.clause_id] + 1 - _TITLE_SEARCH_CLAUSES)
        # the clause itself too: a title merged into the list's first item
        for other in reversed(ordered[start:place[clause.clause_id] + 1]):
            match = pattern.search(other.text)
            if match:
                return other, match.span()
        return self._section_opener(clause, title, pattern, ordered[:start])

    @staticmethod
    def _section_opener(clause: Clause, title: str, pattern: re.Pattern[str],
                        before: Sequence[Clause]) -> tuple[Clause, Span] | None:
        """Where a title of ``clause``'s own section path is written when its section runs
        longer than the clauses ``find_before`` reads (an exclusions section of 17 lists):
        in a clause of that section or the one that opens it, read back from ``before``."""
        depth = next((i for i, entry in enumerate(clause.section_path)
                      if path_title_of(entry) == title), None)
        if depth is None:
            return None
        section = list(clause.section_path[:depth + 1])
        for other in reversed(before):
            match = pattern.search(other.text)
            if match:
                return other, match.span()
            if list(other.section_path[:depth + 1]) != section:
                return None
        return None

    def list_rules(self, clause: Clause) -> list[tuple[Clause, Span]]:
        """The sentences that state a rule for the list ``clause`` is an item of, nearest
        first, when the list's section states it in a clause of its own before the list ("a)
        Expenses related to the treatment of the listed Conditions ... shall be excluded
        until the expiry of 24 months" in the section whose "f) List of specific diseases"
        holds "1. Eye Cataract"): sentences before ``clause``, in clauses of the section the
        list sits in (their section path a prefix of the item's), that refer to a list,
        within ``_TITLE_SEARCH_CLAUSES`` clauses before it."""
        if clause.clause_id not in self._rules:
            self._rules[clause.clause_id] = self._find_list_rules(clause)
        return self._rules[clause.clause_id]

    def _find_list_rules(self, clause: Clause) -> list[tuple[Clause, Span]]:
        ordered, place = self._reading_order(clause.doc_id)
        at = place[clause.clause_id]
        path = clause.section_path
        # an item that names things without stating a rule ("f. Eye • Cataract • NIL") may
        # sit beside the rule ("a) ... the listed Conditions ..."); one that states a rule
        # of its own only under it
        beside = names_only(clause.text)
        rules = []
        for other in reversed(ordered[max(0, at - _TITLE_SEARCH_CLAUSES):at]):
            own = other.section_path
            if not own or len(own) > len(path) or own != path[:len(own)] or \
                    (len(own) == len(path) and not beside):
                continue
            if self.section_items(other) and not is_ancestor(other, clause):
                # "c. ... the conditions listed below ..." over items of its own is the
                # rule of those items, not of the next list ("d. Permanent Exclusions")
                continue
            rules += [(other, (start, end)) for start, end in reversed(split_sentences(other.text))
                      if _REFERS_TO_LIST.search(other.text, start, end)]
        return rules

    def lead_in(self, clause: Clause) -> tuple[Clause, Span] | None:
        """The sentence that announces ``clause``'s list when the outline did not nest the
        list under it ("v. ... We will not cover:" / "1. Any infertility treatments"): the
        last sentence, ending in a colon, of the nearest clause before the list's items in
        reading order (numbered items back to it, at most ``_LIST_ITEMS``)."""
        other = self.before_list(clause)
        spans = split_sentences(other.text) if other is not None else []
        last = spans[-1] if spans else None
        if last is None or not other.text[last[0]:last[1]].rstrip().endswith(":"):
            return None
        return other, last

    def list_holder(self, item: Clause) -> Clause | None:
        """The clause that holds ``item``'s list: its parent, or, for a bare numbered item
        the outline did not nest ("... We will not cover" / "1. Any infertility
        treatments"), the clause just before its list."""
        parent = self.parent(item)
        if parent is None and item.number and bare_item(item.text):
            return self.before_list(item)
        return parent

    def before_list(self, clause: Clause) -> Clause | None:
        """The clause just before the list ``clause`` is an item of, in reading order
        (numbered items back to it, at most ``_LIST_ITEMS``): where a list not nested under
        its lead-in is announced."""
        ordered, place = self._reading_order(clause.doc_id)
        at = place[clause.clause_id]
        for other in reversed(ordered[max(0, at - _LIST_ITEMS):at]):
            if other.number and bare_item(other.text):
                continue  # an earlier item of the same list
            return other
        return None

    def before_siblings(self, clause: Clause) -> Clause | None:
        """The clause just before the run of numbered items ``clause`` is one of (the items
        of its section path before it, at most ``_LIST_ITEMS``): the lead-in of a list the
        outline did not nest ("The Company shall not be liable in respect of:" / "1. any
        loss ... outside the Geographical area" / ... / "3. any loss ... whilst ..." / "(a)
        being used otherwise ..." / ... / "6. Any accidental loss ... war")."""
        if not clause.number:
            return None
        ordered, place = self._reading_order(clause.doc_id)
        at = place[clause.clause_id]
        path = clause.section_path
        for other in reversed(ordered[max(0, at - _LIST_ITEMS):at]):
            if other.number and other.section_path[:len(path)] == path:
                continue  # an earlier item of the same list, or an item of one of its items
            return other
        return None

    def continuing_items(self, clause: Clause) -> list[Clause]:
        """The numbered clauses right after ``clause`` in reading order whose words, after
        their label, open in lower case: items that go on with its last sentence when the
        outline did not nest them under it ("Def. 12. ... means those treatments" / "1.
        which are undertaken ..." / "2. which would ..."); at most ``_LIST_ITEMS``."""
        ordered, place = self._reading_order(clause.doc_id)
        at = place[clause.clause_id] + 1
        items = []
        for other in ordered[at:at + _LIST_ITEMS]:
            words = _OPENING_LABEL.sub("", other.text, count=1).lstrip()
            if not other.number or not words[:1].islower():
                break
            items.append(other)
        return items

    def list_siblings(self, clause: Clause) -> list[Clause]:
        """The numbered clauses next to ``clause`` in reading order under the same section
        path, ``clause`` among them: the items of the list it is one of (however its
        parent is numbered or titled), at most ``_LIST_ITEMS`` either side of it."""
        if not clause.number:
            return []
        ordered, place = self._reading_order(clause.doc_id)
        at = place[clause.clause_id]

        def sibling(other: Clause) -> bool:
            return bool(other.number) and other.section_path == clause.section_path

        start = at
        while start > max(0, at - _LIST_ITEMS) and sibling(ordered[start - 1]):
            start -= 1
        end = at + 1
        while end < min(len(ordered), at + 1 + _LIST_ITEMS) and sibling(ordered[end]):
            end += 1
        return ordered[start:end]

    def section_items(self, clause: Clause) -> list[Clause]:
        """The clauses right after ``clause`` in reading order whose section path ends in
        its own number ("7 Modern Treatment" under "7. Modern Treatment ..."): the bullets
        or paragraphs its section goes on with, at most ``_LIST_ITEMS``."""
        if not clause.number:
            return []
        ordered, place = self._reading_order(clause.doc_id)
        at = place[clause.clause_id] + 1
        items = []
        for other in ordered[at:at + _LIST_ITEMS]:
            last = other.section_path[-1] if other.section_path else ""
            if not (last == clause.number or last.startswith(clause.number + " ")):
                break
            items.append(other)
        return items

    def _reading_order(self, doc_id: str) -> tuple[list[Clause], dict[str, int]]:
        if doc_id not in self._ordered:
            ordered = sorted(self.index.clauses.document_clauses(doc_id), key=lambda c: c.order)
            self._ordered[doc_id] = ordered, {c.clause_id: i for i, c in enumerate(ordered)}
        return self._ordered[doc_id]

    def section_clause(self, clause: Clause, entry: str) -> Clause | None:
        """The clause that opens the section ``entry`` of ``clause``'s section path names
        ("4.1 Hospitalization": the nearest clause before it so numbered and headed); None
        when the outline kept the heading only as a path (merged into its first item)."""
        ordered, place = self._reading_order(clause.doc_id)
        if clause.doc_id not in self._sections:
            sections: dict[str, list[int]] = {}
            for at, other in enumerate(ordered):
                if other.number and other.heading:
                    sections.setdefault(f"{other.number} {other.heading}", []).append(at)
            self._sections[clause.doc_id] = sections
        before = self._sections[clause.doc_id].get(entry, [])
        at = bisect_left(before, place[clause.clause_id])
        return ordered[before[at - 1]] if at else None

    def parent(self, clause: Clause) -> Clause | None:
        """The clause ``clause`` is an item of (None at the top of the document)."""
        return self._family(clause.doc_id)[0].get(clause.clause_id)

    def list_items(self, clause: Clause) -> list[Clause]:
        """The items of the list a short clause heads (empty for any other clause)."""
        if not clause.number or len(clause.text) > _LIST_HEADING_CHARS:
            return []
        return self._family(clause.doc_id)[1].get(clause.clause_id, [])[:_LIST_ITEMS]

    def _family(self, doc_id: str) -> tuple[dict[str, Clause], dict[str, list[Clause]]]:
        """Each clause's parent: the nearest clause before it numbered as the last part of
        its section path. Numbers repeat in a document (every exclusion list has its
        "(2)"), so the parent is the nearest one above, not any clause of that number."""
        if doc_id not in self._parents:
            parents: dict[str, Clause] = {}
            children: dict[str, list[Clause]] = {}
            headed: dict[str, Clause] = {}
            latest: dict[str, Clause] = {}  # number -> the last clause so numbered
            # "number heading", as a section path names a headed clause -> that clause
            latest_headed: dict[str, Clause] = {}
            for clause in self._reading_order(doc_id)[0]:
                last = clause.section_path[-1] if clause.section_path else None
                parent = latest.get(last) if last else None
                if parent is not None:
                    parents[clause.clause_id] = parent
                    children.setdefault(parent.clause_id, []).append(clause)
                elif last in latest_headed:
                    headed[clause.clause_id] = latest_headed[last]
                if clause.number:
                    latest[clause.number] = clause
                    if clause.heading:
                        latest_headed[f"{clause.number} {clause.heading}"] = clause
            self._parents[doc_id], self._children[doc_id] = parents, children
            self._headed[doc_id] = headed
        return self._parents[doc_id], self._children[doc_id]

    def headed_parent(self, clause: Clause) -> Clause | None:
        """The clause whose number and heading name ``clause``'s section ("7.15 Maternity
        Expenses (Code - Excl 18)" over "i. Medical treatment ..."). Kept apart from
        ``parent``: a headed section's words already reach its items through their section
        path, where retrieval and the sentence scores read them."""
        self._family(clause.doc_id)
        return self._headed[clause.doc_id].get(clause.clause_id)

    def attachment_references(self, clause: Clause) -> list[tuple[Clause, Span]]:
        """The sentences outside the attachment ``clause`` sits in (an annexure, schedule,
        appendix, exhibit: the first part of its clause id) that refer to it ("We will pay
        ... the Modern Treatment Methods as mentioned in Annexure III" for "G. Robotic
        surgeries" of Annexure III), in reading order: what an attached list is for is
        written where the wording points to it, not in the list."""
        key, _, path = clause.clause_id.partition(":")
        top = path.split("/", 1)[0].split("~", 1)[0]
        if _ATTACHMENT_PART.match(top) is None:
            return []
        cached = self._attached.get((clause.doc_id, top))
        if cached is None:
            cached = self._attached[(clause.doc_id, top)] = \
                self._find_attachment_references(clause.doc_id, f"{key}:{top}")
        return cached

    def _find_attachment_references(self, doc_id: str, prefix: str
                                    ) -> list[tuple[Clause, Span]]:
        def inside(clause_id: str) -> bool:
            return clause_id.split("/", 1)[0].split("~", 1)[0] == prefix

        found: dict[tuple[str, Span], tuple[Clause, Span]] = {}
        for edge in self.index.graph.document_edges(doc_id):
            if edge.type is not RelationType.REFERS_TO or not inside(edge.target) \
                    or inside(edge.source) or edge.evidence_span is None:
                continue
            source = self.index.clauses.clause(edge.source)
            offset = source.text_offset(edge.evidence_span[0])
            span = next((s for s in split_sentences(source.text)
                         if offset is not None and s[0] <= offset < s[1]), None)
            if span is not None:
                found.setdefault((source.clause_id, span), (source, span))
        _, place = self._reading_order(doc_id)
        return sorted(found.values(), key=lambda ref: (place.get(ref[0].clause_id, 0),
                                                       ref[1]))

    def present(self, doc_id: str, token: str) -> bool:
        """Whether the document uses the word (or, for a long word, one of its family:
        "governs" is there when the document says "governed" or "governing")."""
        df = self._df[doc_id][1]
        if df.get(token, 0) > 0:
            return True
        if len(token) < FAMILY_PREFIX:
            return False
        key = (doc_id, token[:FAMILY_PREFIX])
        if key not in self._families:  # a scan of the document's vocabulary: done once
            self._families[key] = any(word.startswith(key[1]) for word in df)
        return self._families[key]


_TERMS: dict[int, DocumentTerms] = {}


def terms_for(index: IndexReader) -> DocumentTerms:
    """Word weights of a loaded index (a loaded index never changes, so they are cached)."""
    terms = _TERMS.get(id(index))
    if terms is None or terms.index is not index:
        _TERMS.clear()  # one index at a time is the normal case: do not grow without bound
        terms = _TERMS[id(index)] = DocumentTerms(index)
    return terms


def focus_scores(
    index: IndexReader, question: str, clauses: Sequence[Clause]
) -> list[float]:
    """For each clause, the share of the question's weight its best sentence holds.

    Retrieval ranks whole clauses; an answer lives in one sentence. A clause whose single
    sentence holds "cataract" and "waiting period" beats one that mentions them pages apart.
    """
    terms = terms_for(index)
    tokens = content_tokens(question)
    kind = question_kind(question)
    asked = asked_words(question)
    # a figure the question states is a value it asks about: a sentence that states it or
    # sets the range it is read against holds that value ("Can a person aged 85 be
    # insured?" / "Entry age ... between 03 months to 90 years")
    stated = stated_figures(question)
    scores = []
    by_document: dict[str, tuple[dict[str, float], float]] = {}
    for clause in clauses:
        if clause.doc_id not in by_document:  # the weights are the document's, not the clause's
            weights = terms.weights(clause.doc_id, tokens)
            by_document[clause.doc_id] = weights, sum(weights.values()) or 1.0
        weights, total = by_document[clause.doc_id]
        sentences = _score_sentences(clause, 0, weights, total, kind,
                                     list_heading=terms.list_heading(clause), asked=asked,
                                     list_title=_value_list_title(terms, clause, kind))
        scores.append(max((s.words * (1 + FOCUS_VALUE_BONUS * (
            s.has_value or _judges(stated, s.clause.text[s.span[0]:s.span[1]])))
            for s in sentences), default=0.0))
    return scores


def _judges(stated: list[Value], text: str) -> bool:
    """Whether ``text`` states the figures of ``stated`` or sets a range or bound they are
    read against (False when nothing is stated)."""
    return bool(stated) and (meets_figures(stated, text) or
                             bracket_figure(stated, text) is not None)


def content_tokens(question: str) -> list[str]:
    return list(dict.fromkeys(t for t in answer_tokens(question) if t not in _GENERIC))


def direct_answer(
    index: IndexReader,
    terms: DocumentTerms,
    question: str,
    ranked: Sequence[Clause],
    exceptions: Sequence[Clause] = (),
    overrides: frozenset[tuple[str, str]] = frozenset(),
    similarity: Mapping[str, float] | None = None,
    question_types: np.ndarray | None = None,
    type_prior: float = 0.0,
    learned_choice: bool = False,
    checked: TypeCheck | None = None,
    absent_refuses: bool = False,
    *,
    sentence_similarity: SentenceSimilarity | None = None,
    definitions: Sequence[Clause] = (),
) -> DirectAnswer:
    """The direct answer from one document's ranked clauses (best first).

    ``exceptions`` are the retrieved clauses of the document's exception group;
    ``overrides`` the (source, target) clause ids of its Overrides edges; ``similarity``
    each retrieved clause's cosine with the question and ``question_types`` the CUAD clause
    types it asks about ((41,) probabilities, classify/questions.py): features of the
    answer gate. The quoted sentence is the best by hand score plus ``type_prior`` times
    its clause's type affinity, or, when ``learned_choice``, the answer-sentence ranker's
    best of the first few by that (answer/sentences.py), which reads each one's cosine with
    the question through ``sentence_similarity`` when given. ``checked``: whether the
    document has a clause of the CUAD types the question asks about (review/presence.py):
    when it has, the answer is given and quotes that clause if it is among the candidates;
    when it has none and ``absent_refuses``, the answer is not found unless the gate is sure
    of it."""
    kind = question_kind(question)
    tokens = content_tokens(question)
    if not ranked:
        return DirectAnswer(found=False, text=None, kind=kind)
    defining = _defining(question, definitions) if kind == "definition" else None
    if defining is not None:
        ranked = [defining, *(c for c in ranked if c.clause_id != defining.clause_id)]
    doc_id = ranked[0].doc_id
    document = index.clauses.document(doc_id).title
    file = Path(index.clauses.document(doc_id).source_path).name
    weights = terms.weights(doc_id, tokens)
    total = sum(weights.values()) or 1.0
    # a word that only asks for the kind of value ("cap", "expire") need not be the
    # document's own word: its value answers it
    asks = _KIND_WORDS.get(kind or "", frozenset())
    doc_coverage = sum(w for t, w in weights.items()
                       if t in asks or terms.present(doc_id, t)) / total
    # a question whether something is covered or excluded: the sentence choice reads a
    # clause's exclusion as its answer, and the heading that excludes is quoted with it
    asks_cover = kind == "coverage" or ASKS_EXCLUSION.search(question) is not None
    excluded = {c.clause_id for c in exceptions} if asks_cover else set()
    # an item of an attachment that only an exclusion refers to ("... not pay for the items
    # listed in Annexure I" / "b. Walking aids") is excluded by it
    refused = {clause.clause_id: refusal for clause in ranked[:CANDIDATE_CLAUSES]
               if asks_cover and clause.clause_id not in excluded
               and (refusal := _attachment_refusal(terms, clause)) is not None}
    excluded |= set(refused)
    # an item of a list its lead-in grants ("The Company will indemnify the insured against
    # loss or damage to the vehicle: ... ii. by burglary housebreaking or theft") is covered
    # by its list, as an item of a refused list is excluded by it
    granted = {clause.clause_id: lead for clause in ranked[:CANDIDATE_CLAUSES]
               if asks_cover and clause.clause_id not in excluded
               and (lead := _granting_lead_in(terms, clause)) is not None}
    candidates = [
        scored
        for rank, clause in enumerate(ranked[:CANDIDATE_CLAUSES])
        for scored in _score_sentences(clause, rank, weights, total, kind,
                                       clause.clause_id in excluded,
                                       terms.list_heading(clause), asked_words(question),
                                       _value_list_title(terms, clause, kind),
                                       granted=_quoted_text(granted.get(clause.clause_id)),
                                       quoted=True)
    ]
    # a question that states a figure ("Which illnesses have a two-year waiting period?")
    # is answered by a sentence that states or brackets it, where one does
    # (one asked yes or no, where none does, by a sentence whose range leaves the figure
    # out: "Can a 70-year-old buy this policy?" is answered by "aged 18 to 65 years")
    stated = stated_figures(question)
    if stated:
        said = [c.clause.text[c.span[0]:c.span[1]] for c in candidates]
        yes_no = ASKS_YES_NO.search(question) is not None
        met = [meets_figures(stated, text) for text in said]
        brackets = [bracket_figure(stated, text) if yes_no else None for text in said]
        # asked yes or no of an age, a range that holds it says more than a sentence that
        # states the same age ("Can a 60-year-old enrol?": "not older than 65 years", not a
        # senior citizens' cell "above 60 years")
        ages = any(v.kind == "age" for v in stated)
        candidates = [c for c, m, b in zip(candidates, met, brackets, strict=True)
                      if ages and m and b is not None and b.inside] \
            or [c for c, m in zip(candidates, met, strict=True) if m] \
            or [c for c, b in zip(candidates, brackets, strict=True) if b is not None] \
            or candidates
    # how long a term lasts, or when it ends, is not stated by the day it starts: "How long
    # does the agreement last?" of "... entered into on October 1, 2019 and is made
    # effective as of November 1, 2019" (the opening) over "... shall terminate on
    # December 31, 2020"
    if kind == "duration" and _ASKS_LENGTH.search(question) is not None:
        candidates = [c for c in candidates if not _states_only_starts(c)] or candidates
    # "What is X?" is answered by the definition of X where the document has one
    if defining is not None:
        candidates = [c for c in candidates if c.clause is defining] or candidates
    # a definition says what a word means, not whether it is covered or excluded
    # ("Migration means ..." for "Is maternity covered?"), nor how or which ("Any Room
    # means any category room in a Hospital" for "What room category is allowed?"): it
    # answers such a question only when nothing else can. (A figure it holds answers: "a
    # child aged less than 21 years"; and a term it defines exists: "MOQ means ..." for "Is
    # there a minimum order quantity?")
    asks_how = kind not in _VALUE_KINDS and kind != "definition" and defining is None \
        and ASKS_YES_NO.search(question) is None
    if asks_cover or asks_how:
        candidates = [c for c in candidates if c.clause.kind != "definition"] or candidates
    # whether something is covered is answered by a sentence that names it: of the
    # sentences, those that name the question's rarest subject word where any does ("Is
    # dental treatment covered?": not "The following procedures will be covered ... Oral
    # Chemotherapy", which names "treatment" and "covered" only)
    if asks_cover:
        candidates = _naming_rarest(candidates, weights, token_set(document))
    # the members of a set asked for are answered by the list that announces them ("What
    # documents are required to file a claim?": "... the following documents for or in
    # support of the Claim:"), where one among the candidates names them; not by a sentence
    # that shares the question's other words ("submit a Claim in accordance with Clause 4")
    announced = False
    asks_members = asks_list(question)
    if asks_members:
        listing = _announcing(candidates, _listed_noun(question))
        announced, candidates = bool(listing), listing or candidates
    # the review found the type asked in this clause: the answer quotes one of its sentences
    reviewed = [c for c in candidates if checked is not None and checked.present
                and c.clause.clause_id == checked.lead_clause_id]
    best = _choose(reviewed or candidates, question, doc_id, kind, question_types, type_prior,
                   learned_choice, sentence_similarity)
    # what the quoted item's list is, said by the line its own clause opens with
    opening = None if best is None else _opening_lead_in(best)
    subject = _subject_words(weights, token_set(document))
    nearest = [_line(index, c, _lead_span(c)) for c in ranked[:3]]
    confidence = round(min(best.score if best else 0.0, 1.0) * doc_coverage, 3)
    features = None if best is None else _gate_features(
        best, ranked, doc_coverage, confidence, kind, len(tokens), similarity,
        None if question_types is None else _type_match(index, doc_id, question_types),
        checked)
    gate = active_gate(typed=question_types is not None)
    answers, probability = (best is not None, None) if gate is None or features is None \
        else gate.answers(features)
    # Whether the contract has such a clause at all is read from the whole document by the
    # review; the gate reads one sentence's words, which a contract of the same kind uses
    # either way (docs/cuad_dev.md, session 13). A gate sure of its answer is not overruled
    # by an absence: the review is only as right as the question's type ("How long does the
    # agreement last?" is typed Agreement Date).
    if checked is not None and best is not None and checked.present:
        answers = True
    elif announced:
        # the document announces a list of what the question asks the members of: the
        # gate reads one sentence's words, and an announcement repeats few of them
        answers = True
    elif asks_cover and best is not None and _listed_under_title(terms, best, subject,
                                                                 opening):
        # a bulleted item that names all the question is about, in a box titled what is
        # covered or not ("Other Covered Services" / "• Hearing aids"): the gate reads the
        # item's words alone, which say nothing of cover
        answers = True
    elif checked is not None and best is not None and checked.present is False \
            and absent_refuses:
        answers = probability is not None and probability >= SURE_ANSWER
    elif checked is not None and checked.present is False and doc_coverage == 0:
        # nothing in the document is of the type asked, and no word of the question is in
        # it ("What are the insurance requirements?" of a contract with no insurance
        # clause): of the gate's 2,935 rows, 49 such, none answerable (docs/cuad_dev.md,
        # session 32); the gate had answered them from any clause
        answers = False
    if not answers:
        return DirectAnswer(found=False, text=None, document=document, doc_id=doc_id,
                            file=file, nearest=nearest, confidence=confidence, kind=kind,
                            document_coverage=round(doc_coverage, 3),
                            sentence_score=round(best.score if best else 0.0, 3),
                            right_probability=_rounded(probability), gate_features=features,
                            type_check=checked)
    # "X may terminate ...; provided, however, that ...": the rule answers, its proviso
    # is the first exception
    rule, inline_proviso = _split_proviso(best.clause.text,
                                          _with_statement(best.clause.text, best.span))
    rule = (past_term_line(best.clause.text, *rule), rule[1])
    # "When does the term end?" is answered by the whole sentence that sets the term (to the
    # line's limit): a cut to the words asked kept a renewal's "one (1) year" and a notice's
    # "ninety (90) days" and dropped the term's own "three (3) years"
    if ASKS_DATE.search(question) and ASKS_END.search(question):
        lines = [_line(index, best.clause, rule)]
    else:
        lines = [_focused_line(index, best.clause, rule, weights, kind,
                               notice=bool(ASKS_NOTICE.search(question)))]
    # A sentence ending in a colon ("... complies with all minimum criteria as under:")
    # introduces the answer: the items after it are read with it.
    if best.clause.text[best.span[0]:best.span[1]].rstrip().endswith(":"):
        introduced = _introduced(best.clause.text, best.span)
        if introduced is not None:
            lines.append(_line(index, best.clause, introduced, limit=False))
    # A sentence its clause's list items complete ("Day Care Procedures means those medical
    # treatment, and/or surgical procedure" / "i. which is undertaken under ..." / "ii. ...")
    # is read with them: cut there, a definition stops after its first words.
    for item in _completing_items(terms, best):
        lines.append(_line(index, item, (0, len(item.text))))
    # A clause's heading line quoted alone ("3. 30-day waiting period (Excl03)") names what
    # the clause rules; the sentence after it states the rule.
    body = _body_after_heading(best)
    if body is not None:
        lines.append(_line(index, best.clause, body))
    # A sentence that names the topic but not the value ("a. Cataract" in a list, the value
    # in the list's heading "iii. Two years waiting period") reads after the sentence before.
    condition = _condition_span(best, question)
    if condition is not None:
        lines.append(_line(index, best.clause, condition))
    # items of one list that answer alike ("Co-payment of 5% ... aged up to 75" and "... of
    # 15% ... aged over 75" for "What co-payment applies?"): the question picks none, so
    # each is quoted, in the list's order
    parallel = _parallel_items(terms, candidates, best, kind, question)
    for item in parallel:
        lines.append(_line(index, item.clause, item.span))
    if parallel and _is_row(best):
        # the rows of one table are read in the table's order, the best among them
        rows = sorted([best, *parallel], key=lambda row: row.span)
        spans = [best.clause.document_span(*row.span) for row in rows]
        lines = [line for line in lines if line.clause_id != best.clause.clause_id
                 or not any(a <= line.span[0] and line.span[1] <= b for a, b in spans)]
        lines += [_line(index, row.clause, row.span) for row in rows]
    # "up to the limit as shown in the Table of Benefits": the row of that table
    row = _pointed_row(index, best, question, kind)
    if row is not None:
        lines.append(_line(index, *row))
    lead = _companion(candidates, best, kind)
    if lead is not None:
        lines.insert(0, _focused_line(index, lead.clause, lead.span, weights, kind)
                     .model_copy(update={"heads": True}))
    else:
        title = _value_title(terms, best, kind)
        # what a list is, said by the line its own clause opens with, before any heading
        titles = [title] if title is not None else [(best.clause, opening)] if opening \
            else _exclusion_titles(terms, best, best.clause.clause_id in excluded)
        if best.clause.clause_id in granted:
            # the promise that covers the list says more than its bare title
            titles = [granted[best.clause.clause_id]]
        if best.clause.clause_id in refused:
            # what refuses an attachment's list is written where the wording points to it
            titles = _refusal_lines(terms, refused[best.clause.clause_id])
        if not titles and best.clause.number and bare_item(best.clause.text):
            # "1. For all rubber / nylon / plastic parts ... - 50%" reads with "Subject to a
            # deduction for depreciation at the rates mentioned below ...:" before it
            announced = terms.lead_in(best.clause)
            titles = [announced] if announced is not None else []
        if not titles:
            # bulleted items that go on in a clause of their own after the clause that
            # opens their list ("Other Covered Services (...)" / "• Acupuncture ...")
            titles = _bullets_title(terms, best.clause)
        lines[:0] = [_line(index, *where).model_copy(update={"heads": True})
                     for where in titles]
    lines = _with_table_titles(index, lines)
    if asks_members:
        # the list the quoted item belongs to, with what announces it, answers: one of its
        # items ("vii. Any other document as required by Us") is not the set asked for
        listed = _list_lines(index, terms, best)
        lines = listed or lines
    answered = {line.clause_id for line in lines}
    shown_end = max(line.span[1] for line in lines if line.clause_id == best.clause.clause_id)
    proviso = _proviso_span(best.clause, best.clause.document_span(*best.span)[0], shown_end)
    rarest = max(subject, key=weights.__getitem__) if subject else None
    # a bare "provided that:" (its conditions are the clauses after it) says nothing
    own_excepts = [_line(index, best.clause, span) for span in (inline_proviso, proviso)
                   if span and len(answer_tokens(best.clause.text[span[0]:span[1]])) >= 3]
    excepts = own_excepts + [
        line
        for clause in exceptions
        if clause.clause_id not in answered
        # an exclusion refuses cover by its place: it speaks of the "cover" asked about
        and governs(clause, best.clause, overrides,
                    _word_share(clause.text, weights, total, asks if excluded else frozenset()))
        # a list of named things excepts only what it names ("• Cosmetic surgery • Dental
        # care" is no exception to bariatric surgery's cover)
        and not _lists_other_things(clause, rarest)
        # a document that repeats the rule elsewhere ("... with Us" / "... with Insurer")
        # has no exception in the repetition
        and not restates((line := _line(index, clause, _best_span(clause, weights, total))).text,
                         lines)
    ][:EXCEPTION_LINES]
    return DirectAnswer(
        found=True, text=" ".join(line.text for line in lines), document=document,
        doc_id=doc_id, file=file, lines=lines, exceptions=excepts, nearest=[],
        confidence=confidence, kind=kind,
        document_coverage=round(doc_coverage, 3), sentence_score=round(best.score, 3),
        right_probability=_rounded(probability), gate_features=features,
        type_check=checked,
    )


def _gate_features(
    best: _Scored, ranked: Sequence[Clause], doc_coverage: float, confidence: float,
    kind: str | None, question_words: int, similarity: Mapping[str, float] | None,
    type_match: float | None, checked: TypeCheck | None,
) -> dict[str, float | None]:
    """What the answer gate reads of the answer ``best`` would give (gate.answer_features)."""
    top = ranked[:CANDIDATE_CLAUSES]
    rank = next(i for i, clause in enumerate(top) if clause is best.clause)
    cosines = [similarity[c.clause_id] for c in top if c.clause_id in similarity] \
        if similarity else []
    return answer_features(
        document_coverage=doc_coverage, sentence_score=best.score,
        sentence_words=best.words, sentence_coverage=best.coverage, confidence=confidence,
        constants_pass=doc_coverage >= MIN_DOCUMENT_COVERAGE and
        best.score >= MIN_SENTENCE_SCORE and confidence >= MIN_CONFIDENCE,
        holds_value=best.has_value, asks_value=_asks_value(kind), kind=kind,
        question_words=question_words, best_rank=rank,
        dense_top=max(cosines) if cosines else None,
        dense_best=similarity.get(best.clause.clause_id) if similarity else None,
        type_match=type_match,
        review_margin=None if checked is None or checked.least_confidence is None
        else checked.least_confidence - checked.threshold,
        review_quoted=checked is not None and checked.lead_clause_id == best.clause.clause_id,
    )


def _defining(question: str, definitions: Sequence[Clause]) -> Clause | None:
    """The definition, of ``definitions`` (the document's retrieved ones and those that
    govern its retrieved clauses), of the longest term the question names ("What is a
    qualified medical child support order?": the clause that defines "Qualified Medical
    Child Support Order", not the one that defines "Child"); None when it names none. A
    defined pronoun ("We", "You") or a term of one or two letters is no term asked about."""
    named = [(len(term), clause) for clause in definitions
             for term in definition_terms(clause)
             if len(term) >= 3 and term.casefold() not in PRONOUNS
             and re.search(rf"(?<!\w){re.escape(term)}(?!\w)", question, re.IGNORECASE)]
    return max(named, key=lambda item: item[0])[1] if named else None


def _choose(candidates: list[_Scored], question: str, doc_id: str, kind: str | None,
            question_types: np.ndarray | None, type_prior: float,
            learned: bool, similarity: SentenceSimilarity | None = None) -> _Scored | None:
    """The sentence the direct answer quotes (see :func:`direct_answer`): the best by hand
    score plus ``type_prior`` times its clause's type affinity, or, when ``learned``, the
    answer-sentence ranker's best of those ``sentences.CANDIDATES`` best (``similarity``:
    each sentence's cosine with the question, one of its features)."""
    rows = sentences.collector()
    key = _type_preference(question_types, type_prior)
    if (not learned and rows is None) or not candidates:
        return _best(candidates, key, question)
    asks_type = question_types is not None and bool(question_types.any())
    order = sorted(range(len(candidates)), key=lambda i: -key(candidates[i]))
    shortlist = [candidates[i] for i in order[:sentences.CANDIDATES]]
    texts = [c.clause.text[c.span[0]:c.span[1]] for c in shortlist]
    cosines = similarity(texts) if similarity is not None else None
    affinity: dict[str, float] = {}
    for scored in shortlist:
        if scored.clause.clause_id not in affinity:
            affinity[scored.clause.clause_id] = type_affinity(
                question_types, scored.clause.clause_types, _TYPE_COLUMN) if asks_type else 0.0
    features = [_sentence_features(c, kind, asks_type, affinity[c.clause.clause_id],
                                   None if cosines is None else float(cosines[i]),
                                   None if cosines is None else float(max(cosines)))
                for i, c in enumerate(shortlist)]
    if rows is not None:  # a training script collects what the ranker is fitted on
        rows.append({"question": question, "doc_id": doc_id, "candidates": [
            {"clause_id": c.clause.clause_id, "span": list(c.span), "text": text,
             "features": f}
            for c, text, f in zip(shortlist, texts, features, strict=True)]})
    if not learned:
        return _best(candidates, key, question)
    ranker = sentences.active_ranker()
    return shortlist[ranker.choose(ranker.matrix(features))]


def _sentence_features(scored: _Scored, kind: str | None, asks_type: bool,
                       affinity: float, cosine: float | None = None,
                       best_cosine: float | None = None) -> dict[str, float | None]:
    """What the answer-sentence ranker reads of one candidate (sentences.FEATURES)."""
    return {
        "cosine": cosine,
        "cosine_gap": None if cosine is None or best_cosine is None else cosine - best_cosine,
        "hand_score": scored.score, "coverage": scored.coverage, "words": scored.words,
        "has_value": float(scored.has_value), "asks_value": float(_asks_value(kind)),
        "log_tokens": math.log1p(scored.tokens), "rank": float(scored.rank),
        "title": scored.title, "exclusion": float(scored.exclusion),
        "special_case": float(scored.special_case), "pair": float(scored.pair),
        "type_affinity": affinity, "asks_type": float(asks_type),
        **{f"kind_{k}": float(kind == k) for k in KINDS}}


def _best(candidates: list[_Scored], key: Callable[[_Scored], float],
          question: str) -> _Scored | None:
    """The candidate of the highest ``key``, the first of equals; among equal rows of
    tables (in table clauses or rendered inside prose), the one whose own words the
    question names most closely: rows of one table hold the same question words ("loss",
    "one", "limb" in "Loss of two limbs or ... one limb and sight of one eye | 100%" and in
    "Loss of one limb or sight of one eye | 50%"), and the row with fewer other words is
    the one asked about. (Sentences of prose that tie keep the document's order: a rule is
    stated before what follows from it.)"""
    if not candidates:
        return None
    keys = [key(c) for c in candidates]
    top = max(keys)
    tied = [c for c, k in zip(candidates, keys, strict=True) if k == top]
    if len(tied) == 1 or not all(_is_row(c) for c in tied):
        return tied[0]
    asked = set(content_tokens(question)) | _figures(question)

    def closeness(scored: _Scored) -> float:
        # the row's own words: its list label ("2", "(ii)", "b.") is no word of it
        row = _OPENING_LABEL.sub("", scored.clause.text[scored.span[0]:scored.span[1]], count=1)
        words = [*content_tokens(row), *_figures(row)]
        return sum(w in asked for w in words) / len(words) if words else 0.0
    return max(tied, key=closeness)


def _figures(text: str) -> set[str]:
    """The numbers ``text`` states, as one token each whatever their style, so a row is
    matched to the question by the figure it names: "after five claim-free years" names
    the row "... preceding 5 consecutive years | 50%", not the one of 3 years."""
    return {f"#{value.amount:g}" for value in extract_values(text)
            if value.amount is not None and value.kind in ("number", "duration", "age")}


def _is_row(scored: _Scored) -> bool:
    """Whether the candidate is a table's row: a line of a table clause, or a table
    rendered inside a prose clause."""
    return scored.clause.kind == "table" or _holds_row(scored.clause.text, scored.span)


def _type_preference(question_types: np.ndarray | None, type_prior: float):
    """The key the quoted sentence is chosen by: its score plus ``type_prior`` times its
    clause's type affinity with the question (``RetrievalConfig.answer_type_prior``), so a
    clause of the asked CUAD type is quoted over one that only shares words with the
    question. Only the choice changes: confidence and the gate read the score itself."""
    if question_types is None or not type_prior or not question_types.any():
        return lambda scored: scored.score
    affinity: dict[str, float] = {}

    def key(scored: _Scored) -> float:
        clause = scored.clause
        if clause.clause_id not in affinity:
            affinity[clause.clause_id] = type_affinity(question_types, clause.clause_types,
                                                       _TYPE_COLUMN)
        return scored.score + type_prior * affinity[clause.clause_id]
    return key


def _type_match(index: IndexReader, doc_id: str, question_types: np.ndarray) -> float:
    """How far the document's most fitting clause is of the CUAD clause types the question
    asks about: the largest type affinity (classify/questions.py) of its clauses' stored
    types; -1 when the question is like no CUAD category (it asks about no type)."""
    if not question_types.any():
        return -1.0
    return max((type_affinity(question_types, clause.clause_types, _TYPE_COLUMN)
                for clause in index.clauses.document_clauses(doc_id)), default=0.0)


def _rounded(probability: float | None) -> float | None:
    return None if probability is None else round(probability, 3)


def restates(text: str, lines: Sequence[AnswerLine]) -> bool:
    """Whether ``text`` says what one of the answer's lines says: at least
    ``RESTATED_SHARE`` of the words of the shorter of the two are in the other, or the
    same words under another list label ("c. Gestational Surrogacy" in one part's
    exclusions, "d. Gestational Surrogacy" in another's)."""
    words = token_set(text)
    unlabelled = token_set(_OPENING_LABEL.sub("", text))
    for line in lines:
        other = token_set(line.text)
        shorter = min(len(words), len(other))
        if shorter and len(words & other) >= RESTATED_SHARE * shorter:
            return True
        if unlabelled and unlabelled == token_set(_OPENING_LABEL.sub("", line.text)):
            return True
    return False


def refuses_cover(text: str) -> bool:
    """Whether a clause itself refuses cover ("... shall be excluded until ...", "is not
    covered"): another exclusion that merely shares words with it does not limit it."""
    return _refusal_pattern().search(text) is not None


def word_overlap_rules() -> frozenset[str]:
    """Ids of the Overrides rules that link an exclusion to the coverage clauses it shares
    words with (``target: overlap`` in rules/overrides.yaml)."""
    return _relation_rules()[1]


def _refusal_pattern() -> re.Pattern:
    return _relation_rules()[0]


@lru_cache(maxsize=1)
def _relation_rules() -> tuple[re.Pattern, frozenset[str]]:
    """What the answer reads from the relation rules (loaded once)."""
    from clausegraph.relate.rules import RuleSet

    rules = RuleSet.load(check_examples=False)
    overlap = frozenset(r.id for r in rules.for_type(RelationType.OVERRIDES)
                        if r.target == "overlap")
    return rules.rule(REFUSES_COVER_RULE).regex, overlap


def governs(
    exception: Clause, answer: Clause, overrides: frozenset[tuple[str, str]], relevance: float
) -> bool:
    """Whether an exception-group clause is an exception *to the answering clause*.

    An Overrides edge to it says so. Otherwise the clause must not be the answer's own
    list heading or a sibling item of the same list (in "iii. Two years waiting period:
    a. Cataract", the three-year and 90-day items beside it are other rules, not exceptions
    to it), and must speak of what is asked (``relevance``: share of the question's word
    weight it holds)."""
    if (exception.clause_id, answer.clause_id) in overrides:
        return True
    if is_ancestor(exception, answer) or exception.section_path == answer.section_path:
        return False
    return relevance >= MIN_EXCEPTION_RELEVANCE


def is_ancestor(clause: Clause, other: Clause) -> bool:
    """Whether ``clause`` is numbered as one of the parts of ``other``'s section path below
    its own ancestors: item "4. Uterine Polyps" of list 4(c) under "4 Exclusions" is no
    ancestor of 4(c), though its number is that of the section."""
    number = clause.number
    depth = len(clause.section_path)
    if not number or list(other.section_path[:depth]) != list(clause.section_path):
        return False
    return any(part == number or part.startswith(number + " ")
               for part in other.section_path[depth:])


def _stands_for(kind: str, text: str, window: Span) -> frozenset[str]:
    """The question words a value of ``kind`` in ``text[window]`` stands for ("indemnify"
    for "cover"); a period that holds cover back ("excluded until the expiry of 36 months")
    is also a waiting period."""
    if kind == "duration" and DEFERS_COVER.search(text, *window):
        return _KIND_WORDS[kind] | _WAIT_WORDS
    return _KIND_WORDS[kind]


def _names_term(words: frozenset[str], term: frozenset[str]) -> bool:
    """Whether a sentence's words (its number aside: "3.11 Pre-hospitalisation Medical
    Expenses:") are those of a definition's term."""
    named = {word for word in words if not word.isdigit()}
    return bool(named) and named <= term


def _held(weights: dict[str, float], own: frozenset[str], context: frozenset[str]) -> float:
    """The question's word weight a sentence holds: its own words in full, the words of its
    heading context at half."""
    return sum(w if t in own else 0.5 * w for t, w in weights.items()
               if t in own or t in context)


def _word_share(
    text: str, weights: dict[str, float], total: float, implied: frozenset[str] = frozenset()
) -> float:
    present = set(answer_tokens(text)) | implied
    return sum(w for t, w in weights.items() if t in present) / total


def _score_sentences(
    clause: Clause, rank: int, weights: dict[str, float], total: float, kind: str | None,
    exclusion: bool = False, list_heading: str = "", asked: frozenset[str] = frozenset(),
    list_title: str = "", granted: str = "", quoted: bool = False,
) -> list[_Scored]:
    """Every sentence of ``clause`` scored; a sentence may take the one before it along
    ("iii. Two years waiting period" + "a. Cataract") at a small discount. ``granted``: the
    lead-in sentence that grants cover for the list the clause is an item of
    (``_granting_lead_in``), whose words the item is read with ("... against loss or damage
    to the vehicle: ... (v) by flood, typhoon ...")
    ``quoted``: the sentences are candidates for the quote, which shows a sentence read
    with the one before it only whole (``_quotable``); to rank the clause, the pair's words
    count however long it runs."""
    context = _context_words(clause) | token_set(list_heading)
    # only a heading-like line names its items' subject, not a long parent paragraph; a
    # lead-in that grants cover for the items states it for each ("loss or damage")
    heading = token_set(list_heading) if len(list_heading) <= LIST_TITLE_CHARS else frozenset()
    heading |= token_set(granted)
    # the clause titled with what is asked ("3.1.14 Maternity") governs it: a small bonus
    # by the share of the question's weight its own heading holds
    titled = token_set(clause.heading or "")
    title_bonus = _TITLE_BONUS * sum(w for t, w in weights.items() if t in titled) / total
    asks_value = _asks_value(kind)
    # a list item under a title that holds the asked value ("24 Months waiting period" over
    # "9. Cataract") states that value for its item, and the title's words with it
    # (``list_title`` is given for such items only: ``_value_list_title``)
    title_value = kind in _VALUE_KINDS and _holds_value(kind, list_title, 0, len(list_title))
    # a title that points to where the value is stated gives it for its items as a pointer
    # of their own would: no missing value, and the title's words with the item's
    title_defers = not title_value and _defers_value(kind, list_title, 0, len(list_title))
    # the title's value stands for what it stands for in the title ("... excluded until
    # the expiry of 24 months": a waiting period)
    title_stands = frozenset()
    if title_value or title_defers:
        heading = heading | token_set(list_title)
        if kind in _KIND_WORDS:
            title_stands = _stands_for(kind, list_title, (0, len(list_title)))
    prior = _RANK_PRIOR / (1 + rank)
    sentences = _sentence_tokens(clause.text, clause.kind == "table", kind == "incorporation")
    # a definition's term: its own terms, or its heading where none were read
    defined = token_set(" ".join([*clause.defined_terms, clause.heading or ""])) \
        if clause.kind == "definition" else frozenset()
    scored = []
    for i, (span, own) in enumerate(sentences):
        if not own:
            continue
        options = [(1.0, span, own)]
        # a list item reads with the heading before it; a line that introduces what follows
        # ("Cover Maternity Expenses means;") completes nothing before it, unless what is
        # before it is the term its definition defines ("3.11. PRE-HOSPITALISATION
        # EXPENSES:" / "Medical Expenses incurred ... upto 30 days ..., provided that:")
        if i > 0 and sentences[i - 1][1] and (
                not _INTRODUCES.search(clause.text, *span)
                or _names_term(sentences[i - 1][1], defined)) \
                and not _after_row(clause.text, sentences[i - 1][0]):
            previous_span, previous = sentences[i - 1]
            pair = (previous_span[0], span[1])
            # a sentence read with a statement before it is quoted with it, whole: a pair
            # the quote must cut loses the sentence's own end (a heading before it stays)
            if not quoted or previous_span[1] - previous_span[0] <= LIST_TITLE_CHARS or \
                    _quotable(clause.text, pair):
                options.append((_PAIR_DISCOUNT, pair, own | previous))
        best = None
        for discount, window, tokens in options:
            # an exclusion list item ("Treatment taken outside India") refuses cover by
            # its section, not by a verb of its own
            # the title gives the value, the item must give the topic: one asked word
            item_titled = title_value and not tokens.isdisjoint(weights)
            holds_value = asks_value and _holds_value(kind, clause.text, *window)
            # a row of a schedule that gives what is asked a figure ("Hearing Aids |
            # Benefits: 90% of the Allowable Charge | Limits: $1,000") states its cover
            benefit_row = kind == "coverage" and not holds_value and \
                _holds_row(clause.text, window) and _holds_value("amount", clause.text, *window)
            has_value = exclusion or bool(granted) or item_titled or holds_value or benefit_row
            # a sentence that points to where its value is stated ("as specified in the
            # Policy Schedule") gives the value as the wording does: it is not one that
            # lacks it, though it wins nothing over one that states it
            item_deferred = title_defers and not tokens.isdisjoint(weights)
            deferred = not has_value and (item_deferred or
                                          _defers_value(kind, clause.text, *window))
            if has_value and kind == "definition":
                has_value = _defines_asked(clause.text, window, asked)
            if has_value and kind in _KIND_WORDS:
                matched = tokens | _stands_for(kind, clause.text, window) | \
                    (title_stands if item_titled else frozenset())
            else:
                matched = tokens | title_stands if item_deferred else tokens
            # a list item that holds the asked value states what its list heading names
            # ("Specified disease waiting period: a. ... excluded until 24 months")
            own = (matched | heading) if has_value or item_deferred else matched
            coverage = discount * _held(weights, own, context) / total
            # the same without the value's stand-in words: what the text itself says
            words = coverage if matched is tokens else discount * _held(
                weights, (tokens | heading | (title_stands if item_titled else frozenset()))
                if has_value else tokens, context) / total
            # asked for a period, an amount, a law: a sentence without one answers less
            fit = _VALUE_FIT if has_value else (
                -_MISSING_VALUE_COST * coverage if asks_value and not deferred else 0.0)
            # a bare heading line ("3.1.9 Ambulance") states nothing: it is not an answer;
            # an item read with its list's title states the title's value for the item
            stated = len(tokens | heading) if item_titled or item_deferred else len(tokens)
            # an item of an exclusion list that names what is asked ("iv. Ayurvedic
            # treatment.") states its refusal by its list, however few its own words, as an
            # item of a list its lead-in grants states its cover
            listed_item = (exclusion or bool(granted)) and not tokens.isdisjoint(weights)
            # a row of a list or schedule that names what is asked and states its figure
            # ("2. For fibre glass components 30%") is a rule, however few its words (a
            # figure: a heading names a cover or a law as readily as a rule does)
            valued_item = holds_value and kind in _VALUE_KINDS and \
                not tokens.isdisjoint(weights)
            substance = 1.0 if (stated >= _SUBSTANCE_WORDS or listed_item or valued_item) and \
                not _caps_title(clause.text, window) else 0.4
            # a run-on "sentence" (a flattened table, a whole list) holds every word somewhere
            spread = 1.0 + max(0, len(tokens) - _PLAIN_SENTENCE_WORDS) / 80
            score = substance * (coverage + fit) / spread + prior + title_bonus
            if exclusion:
                score *= _EXCLUSION_DISCOUNT
            # "In such cases, ... within 45 days" is the special case of the rule before it
            # ("... within thirty days"): the rule answers, the special case is its exception
            special_case = _SPECIAL_CASE.match(clause.text, window[0], window[1]) is not None \
                or _EXAMPLE_BEFORE.search(clause.text, max(0, window[0] - 24), window[0]) \
                is not None
            if special_case:
                score *= _SPECIAL_CASE_DISCOUNT
            if best is None or score > best.score:
                best = _Scored(score, coverage, clause, window, has_value or deferred,
                               words, rank,
                               len(tokens), title_bonus / _TITLE_BONUS, exclusion,
                               special_case, discount < 1.0)
        scored.append(best)
    # a worked example restates its rule with figures of its own ("Example: If insured has
    # travelled a distance of 300kms ... we will pay 50%"): where the clause states the rule
    # with a value of the kind asked, the example is not an answer
    examples = [c.special_case and _worked_example(clause.text, c.span) for c in scored]
    if any(c.has_value and not example for c, example in zip(scored, examples, strict=True)):
        scored = [c for c, example in zip(scored, examples, strict=True)
                  if not (c.has_value and example)]
    return scored


def _quoted_text(where: tuple[Clause, Span] | None) -> str:
    """The text at a (clause, span) place, or "" for none."""
    return "" if where is None else where[0].text[where[1][0]:where[1][1]]


def _subject_words(weights: dict[str, float], title: frozenset[str]) -> list[str]:
    """The question's words (of ``weights``) that do not only ask whether something is
    covered or excluded, nor name the document by its ``title``: what it is about."""
    return [t for t in weights if t not in _ASKS_COVER_WORDS and t not in title]


def _rarest_subject(weights: dict[str, float], title: frozenset[str]) -> str | None:
    """The rarest of ``_subject_words`` (the highest weight in the document); None when
    none is left."""
    subject = _subject_words(weights, title)
    return max(subject, key=weights.__getitem__) if subject else None


def _naming_rarest(candidates: list[_Scored], weights: dict[str, float],
                   title: frozenset[str]) -> list[_Scored]:
    """The candidates that may answer (``_may_answer_cover``) and name, in their own
    sentence or their clause's heading, the rarest word of what a cover question is about
    (the highest weight in the document, of the question's words that do not only ask
    whether it is covered or excluded, nor name the document by its ``title``: "Does the
    add-on cover ...?" of an add-on's wording), where any does; else all."""
    rarest = _rarest_subject(weights, title)
    if rarest is None:
        return candidates
    naming = [c for c in candidates if _may_answer_cover(c) and (
        rarest in token_set(c.clause.text[c.span[0]:c.span[1]])
        or rarest in _context_words(c.clause))]
    # of those, the clauses titled with it are about it ("C2.1 Theft, including car
    # hacking"), where any is; one that mentions it is about something else ("C6 Personal
    # belongings in the vehicle": "Theft is only insured if these items were locked inside").
    # Not a table's: its caption may be the sentence before it ("Period for harvesting of
    # the organ donated ..., provided that")
    titled = [c for c in naming if c.clause.kind != "table" and rarest in _title_words(c.clause)]
    # of the rest, a bulleted item that only names it ("▪ Cosmetic surgery") before the
    # list's opening line whose clause names it only below ("Excluded services:")
    listed = [c for c in naming if _bare_bullets(c.clause.text[c.span[0]:c.span[1]])
              and rarest in token_set(c.clause.text[c.span[0]:c.span[1]])]
    return titled or listed or naming or candidates


def _title_words(clause: Clause) -> frozenset[str]:
    """The words of a clause's heading, or of its title line: the line its number opens
    (a section's heading merged into its first clause comes before it: "Part B
    Comprehensive cover" / "2.1 Theft, including car hacking" / "The insurance covers
    ..."), else its first line, when it reads as a title as the segmenter reads one
    (``segment.clauses.reads_as_title``) and the line after it does not go on from it ("14.
    Any Treatment or medical services taken outside" / "the geographical boundaries")."""
    if clause.heading:
        return token_set(clause.heading)
    lines = [line.strip() for line in clause.text.split("\n") if line.strip()]
    number = clause.number or ""
    own = next((i for i, line in enumerate(lines[:_TITLE_LINES])
                if number and line.startswith(number)), 0)
    if own + 1 >= len(lines):
        return frozenset()
    line = lines[own]
    if number and line.startswith(number):
        line = line[len(number):].lstrip(".):-–— ")
    if not reads_as_title(line) or wraps_on(lines[own + 1]):
        return frozenset()
    return token_set(line)


def _may_answer_cover(candidate: _Scored) -> bool:
    """A sentence that grants or refuses cover, or an item of a list (which its lead-in may
    grant or refuse: "Other expenses: ... (ii) Dental treatment", or a run of bulleted
    items under "Other Covered Services"); not a title line
    ("Endorsement 16 - Personal accident to unnamed passengers"), which states nothing."""
    clause = candidate.clause
    return candidate.has_value or (clause.number is not None and bare_item(clause.text)) \
        or _bare_bullets(clause.text[candidate.span[0]:candidate.span[1]])


def _context_words(clause: Clause) -> frozenset[str]:
    """The words of a clause's heading and its last two sections' titles, which its
    sentences are read with."""
    return token_set(" ".join([*clause.section_path[-2:], clause.heading or ""]))


def _quotable(text: str, span: Span) -> bool:
    """Whether a quote shows ``text[span]`` whole: a longer one is cut at
    ``MAX_SENTENCE_CHARS`` (``_line``), and a sentence read with the one before it would
    lose its own end, where the value asked often is ("... will be deemed to be the SUM
    INSURED ... for each insured vehicle." + "The IDV ... is to be fixed on the basis of
    the manufacturer's listed selling price")."""
    limit = MAX_SENTENCE_CHARS + _CUT_SLACK
    # folding whitespace only shortens: a span within the limit as stored is within it
    return span[1] - span[0] <= limit or len(" ".join(text[span[0]:span[1]].split())) <= limit


def _worked_example(text: str, span: Span) -> bool:
    """Whether ``text[span]`` is a worked example: it opens with "For example", "e.g.",
    "Example:" or follows a line that does ("Example:" / "If insured has travelled ...")."""
    return _EXAMPLE_OPENS.match(text, span[0], span[1]) is not None or \
        _EXAMPLE_BEFORE.search(text, max(0, span[0] - 24), span[0]) is not None


@lru_cache(maxsize=32768)
def token_set(text: str) -> frozenset[str]:
    """The words of a heading or a sentence. Cached: each answer scores the same retrieved
    clauses (and their headings) several times."""
    return frozenset(answer_tokens(text))


@lru_cache(maxsize=8192)
def _sentence_tokens(
    text: str, by_line: bool = False, by_party: bool = False
) -> tuple[tuple[Span, frozenset[str]], ...]:
    """Each sentence of a clause with its words, a rule and its inline proviso apart
    (``by_party``: a preamble's parties apart too). Cached: every answer scores the same
    retrieved clauses again, twice when it also ranks them."""
    if by_line:  # a table clause: each line is one row ("row | column: value | ...")
        return tuple((span, frozenset(answer_tokens(text[span[0]:span[1]])))
                     for span in _line_spans(text))
    parts = [part for sentence in split_sentences(text)
             for part in _split_proviso(text, sentence) if part]
    if by_party:
        parts = [part for span in parts for part in _split_parties(text, span)]
    return tuple((span, frozenset(answer_tokens(text[span[0]:span[1]]))) for span in parts)


def _split_parties(text: str, span: Span) -> list[Span]:
    """``span`` cut after each party a preamble introduces ("Equidata, Inc., a corporation
    organized under the laws of Virginia ... ("Equidata"), and National Credit Report.com,
    LLC a Corporation organized under the laws of Florida ... ("Marketing Affiliate")"):
    where each party is organized is read with that party's name."""
    start, end = span
    cuts = [m.end() for m in _PARTY_END.finditer(text, start, end)]
    bounds = [start, *cuts, end]
    return [_trim(text, (a, b)) for a, b in zip(bounds, bounds[1:], strict=False)
            if text[a:b].strip()]


def _split_proviso(text: str, span: Span) -> tuple[Span, Span | None]:
    """``span`` cut before an inline proviso ("...; provided, however, that ..."), and the
    proviso; the span whole when it holds none past its first ``_MIN_RULE_CHARS``."""
    start, end = span
    match = _INLINE_PROVISO.search(text, start + _MIN_RULE_CHARS, end)
    if match is None:
        return span, None
    return (start, match.start() + 1), _trim(text, (match.start() + 1, end))


def _proviso_span(clause: Clause, answer_start: int, shown_end: int) -> Span | None:
    """The answering clause's own exception: the first sentence after the quoted answer
    that carves something out of it ("Notwithstanding the foregoing, ...", "Provided
    that ...", "This exclusion shall not apply to ..."). ``answer_start`` and
    ``shown_end`` are document offsets; the span returned is in the clause's text."""
    for (a, b), _ in _sentence_tokens(clause.text):
        start = clause.document_span(a, b)[0]
        if start > answer_start and start >= shown_end and _PROVISO.match(clause.text, a):
            return a, b
    return None


def _defines_asked(text: str, span: Span, asked: frozenset[str]) -> bool:
    """Whether the definition in ``text[span]`` defines the asked term: the words before
    its first "means", near the start, hold a question word as written ("Affiliate"
    means ..., not "Claim" means ... (other than an Affiliate); "Hospital" is not
    "Hospitalization", though both stem alike). A term set on a line of its own above its
    definition ("“Copayment” or “Copay”\n“Copayment” or “Copay” shall mean ...") is read
    from the start of the definition's line."""
    start, end = span
    verb = _VALUE_PATTERNS["definition"].search(text, start, end)
    if verb is None:
        return False
    opens = text.rfind("\n", start, verb.start()) + 1 \
        if text.count("\n", start, verb.start()) == 1 else start
    if verb.start() - max(start, opens) > _DEFINED_TERM_CHARS:
        return False
    return not asked.isdisjoint(asked_words(text[start:verb.start()]))


@lru_cache(maxsize=4096)
def asked_words(text: str) -> frozenset[str]:
    """The words of ``text`` as written (case folded, a plural's "s" dropped), but not the
    words every question uses."""
    words = (w.casefold() for w in _WORD_RE.findall(text))
    return frozenset(w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words
                     if not set(answer_tokens(w)) <= _GENERIC)


def _states_only_starts(candidate: _Scored) -> bool:
    """Whether the values of a duration that ``candidate``'s sentence holds are all dates
    it states as the day something starts (text/term.py: ``starts_on``), and it says
    nothing else of when a term ends ("shall commence on 26 September 2019 and shall
    continue unless and until either party gives notice" states an open-ended term)."""
    text = candidate.clause.text
    start, end = candidate.span
    values = [v for v in extract_values(text) if start <= v.start and v.end <= end
              and value_answers("duration", v)]
    return bool(values) and all(starts_on(text, v) for v in values) \
        and term_end(text[start:end]) is None and event_end(text[start:end]) is None


@lru_cache(maxsize=32768)
def _holds_value(kind: str, text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` holds a value of ``kind`` (cached like the sentences)."""
    return bool(_value_spans(kind, text, start, end))


def _line_spans(text: str) -> list[Span]:
    spans, start = [], 0
    for line in text.split("\n"):
        if line.strip():
            spans.append(_trim(text, (start, start + len(line))))
        start += len(line) + 1
    return spans


def _value_list_title(terms: DocumentTerms, clause: Clause, kind: str | None) -> str:
    """The list title the sentence scores read for a short item, only when the question
    asks a value a title can hold (the title is looked up per clause: not for nothing)."""
    if kind not in _VALUE_KINDS or not _titled_items(terms, clause):
        return ""
    title = _value_title_line(terms, clause, kind)
    return _quoted_text(title)


def _value_title_line(terms: DocumentTerms, clause: Clause, kind: str
                      ) -> tuple[Clause, Span] | None:
    """Where the value of ``clause``'s list is stated: its list title when that holds one
    ("24 Months waiting period" over "9. Cataract"), else the rule its section states for
    the list ("... the listed Conditions ... shall be excluded until the expiry of 24
    months"), else its list title (which holds no value)."""
    title = terms.list_title_line(clause)
    if title is not None and _holds_value(kind, title[0].text, *title[1]):
        return title
    rules = terms.list_rules(clause)
    rule = next((r for r in rules if _holds_value(kind, r[0].text, *r[1])), None) or \
        next((r for r in rules if _defers_value(kind, r[0].text, *r[1])), None)
    return title if rule is None else rule


def _defers_value(kind: str | None, text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` gives a value of ``kind`` by pointing to where it is
    stated ("until the expiry of number of months ... as mentioned in Certificate of
    Insurance") or leaves it blank for the schedule ("within ... days"). A pointer for a
    number of months gives no amount."""
    if kind not in _VALUE_KINDS:
        return False
    if _BLANK_VALUE.search(text, start, end) is not None:
        return True
    pointer = DEFERRED.search(text, start, end)
    if pointer is None:
        return False
    named = text[max(start, pointer.start() - _POINTED_CHARS):pointer.start()]
    return kind != "amount" or _PERIOD_UNIT.search(named) is None


# what a pointer gives is named just before it ("number of months of continuous coverage
# as mentioned in ..."): a bound on how far back that is looked for
_POINTED_CHARS = 60
_PERIOD_UNIT = re.compile(r"\b(?:hours?|days?|weeks?|months?|years?)\b", re.IGNORECASE)


def _value_title(terms: DocumentTerms, best: _Scored, kind: str | None
                 ) -> tuple[Clause, Span] | None:
    """The title of ``best``'s list when it holds the asked value that ``best`` lacks
    ("24 Months waiting period" for "9. Cataract and age related eye ailments")."""
    if not _asks_value(kind) or _holds_value(kind, best.clause.text, *best.span):
        return None
    title = _value_title_line(terms, best.clause, kind) if kind in _VALUE_KINDS \
        else terms.list_title_line(best.clause)
    if title is None:
        return None
    if _holds_value(kind, title[0].text, *title[1]):
        return title
    # a rule that points to where its list's value is stated gives it for the item, as
    # the item's own pointer would ("as mentioned in Certificate of Insurance")
    own_pointer = _defers_value(kind, best.clause.text, *best.span)
    return title if not own_pointer and _defers_value(kind, title[0].text, *title[1]) else None


def _exclusion_titles(terms: DocumentTerms, best: _Scored, excluded: bool
                      ) -> list[tuple[Clause, Span]]:
    """Where it is written that ``best``'s list is excluded, when the item does not say so
    itself ("i. Medical treatment expenses traceable to childbirth"): the nearest heading
    of its section path that refuses cover ("What we don't pay for"), then its list's own
    title ("Maternity Expenses (Code - Excl 18)"). A reader must tell cover from exclusion."""
    if not excluded or refuses_cover(best.clause.text[best.span[0]:best.span[1]]):
        return []
    # the lead-in that refuses the list ("The Company shall not be liable to make any
    # payment in respect of:-") says more than a bare label title ("5."); refused a level
    # up ("... not be liable in respect of:" / "3. any loss ... whilst the vehicle is" /
    # "(b) being driven by ..."), the item's own list title is read after it
    refusing = _refusing_lead_in(terms, best.clause)
    title = terms.list_title_line(best.clause)
    titles = [t for t in (refusing, title) if t is not None]
    if refusing and title and (refusing[0] is title[0]
                               or refusing[0] is terms.list_holder(best.clause)):
        titles = [refusing]  # the item's own list refuses: its label title adds nothing
    heading = excluding_section(best.clause)
    if heading and refusing is None \
            and not (titles and exclusion_heading(terms.list_title(best.clause))):
        found = terms.find_before(best.clause, heading)
        if found is not None and found not in titles:
            titles.insert(0, found)
    # a title already quoted by the answer's own sentence is not repeated
    return [(clause, span) for clause, span in titles
            if not (clause is best.clause and span[1] > best.span[0])]


def _opening_lead_in(best: _Scored) -> Span | None:
    """The sentence a clause opens with when ``best`` quotes an item of the list that
    follows it in the same clause, and that sentence says what the list is: it refuses
    cover ("Services Your Plan Generally Does NOT Cover"), names covered services ("Other
    Covered Services"), or ends in a colon. None otherwise."""
    text, (start, _) = best.clause.text, best.span
    line_start = text.rfind("\n", 0, start) + 1
    if line_start == 0 or _LINE_ITEM.match(text, line_start) is None:
        return None
    opening = _opening_line(text)
    if opening is None or opening[1] > line_start:
        return None
    return opening if _says_what_list_is(text[opening[0]:opening[1]]) else None


def _opening_line(text: str) -> Span | None:
    """The sentence a clause opens with, or its whole first line when that line goes on
    past the sentence ("Other Covered Services (Limitations may apply to these services.
    This isn't a complete list.)": a box's title with its note)."""
    spans = split_sentences(text)
    if not spans:
        return None
    first = _trim(text, spans[0])
    line_end = text.find("\n", first[0])
    line_end = len(text) if line_end < 0 else line_end
    return _trim(text, (first[0], line_end)) if line_end > first[1] else first


def _says_what_list_is(opening: str) -> bool:
    """Whether a list's opening line says what its items are: not covered ("Services Your
    Plan Generally Does NOT Cover"), covered ("Other Covered Services"), or announced by a
    colon ("The following details are to be provided:")."""
    return REFUSING_HEADING.search(opening) is not None \
        or GRANTING_TITLE.search(opening) is not None or opening.rstrip().endswith(":")


def _granting_lead_in(terms: DocumentTerms, item: Clause) -> tuple[Clause, Span] | None:
    """The sentence of the clause holding ``item``'s list that grants cover for the list
    ("The Company will indemnify the insured against loss or damage to the vehicle insured
    ... :" over "ii. by burglary housebreaking or theft ;"), when the item names things
    without a verb of its own; None when the holder refuses or does not grant."""
    if not (bare_item(item.text) or _enumerated_item(item.text)):
        return None
    holder = terms.list_holder(item)
    read = _lead_in_reading(holder)
    if read is False:
        return None
    return read or _section_grant(terms, item) or _attachment_grant(terms, item)


def _attachment_grant(terms: DocumentTerms, item: Clause) -> tuple[Clause, Span] | None:
    """The sentence that grants cover for the attachment ``item`` is listed in ("We will
    pay ... for the Modern Treatment Methods as mentioned in Annexure III"), when no
    sentence that refers to it refuses (a list of items not payable is referred to by an
    exclusion); None when one does or none grants."""
    readings = terms.attachment_references(item)
    if not readings or any(_refuses_attachment(clause, span) for clause, span in readings):
        return None
    return next(((clause, span) for clause, span in readings
                 if AFFIRMS_COVER.search(clause.text[span[0]:span[1]]) is not None), None)


def _attachment_refusal(terms: DocumentTerms, item: Clause) -> tuple[Clause, Span] | None:
    """The sentence that refuses cover for the attachment a bare ``item`` is listed in
    ("We will not pay for any of the non-medical items listed in Annexure I", or an
    exclusion that refers to it), when every sentence that refers to it refuses."""
    if not (bare_item(item.text) or _enumerated_item(item.text)):
        return None
    readings = terms.attachment_references(item)
    if not readings or not all(_refuses_attachment(clause, span) for clause, span in readings):
        return None
    return readings[0]


def _refusal_lines(terms: DocumentTerms, refusal: tuple[Clause, Span]
                   ) -> list[tuple[Clause, Span]]:
    """The sentence that refuses an attachment's list, after the heading that excludes it
    when the sentence does not refuse in words of its own ("Exclusions" over "23. Any
    expenses ... as set out in Annexure I")."""
    clause, span = refusal
    if refuses_cover(clause.text[span[0]:span[1]]):
        return [refusal]
    heading = excluding_section(clause)
    found = terms.find_before(clause, heading) if heading else None
    return [found, refusal] if found is not None else [refusal]


def _refuses_attachment(clause: Clause, span: Span) -> bool:
    """Whether a sentence that refers to an attachment refuses what it lists: in so many
    words, or by standing under a heading that excludes ("Exclusions" / "23. Any expenses
    ... as set out in Annexure I")."""
    return refuses_cover(clause.text[span[0]:span[1]]) or excluding_section(clause) is not None


def _bullets_title(terms: DocumentTerms, clause: Clause) -> list[tuple[Clause, Span]]:
    """For a run of bulleted items (``_bare_bullets``), the opening sentence of the clause
    that holds them when it says what the list is (``_says_what_list_is``): "Other Covered
    Services (...)" over "• Acupuncture • Bariatric surgery"; else none."""
    if not _bare_bullets(clause.text):
        return []
    holder = terms.list_holder(clause) or terms.parent(clause) or _path_clause(terms, clause)
    opening = _opening_line(holder.text) if holder is not None else None
    if opening is None:
        return []
    return [(holder, opening)] if _says_what_list_is(holder.text[opening[0]:opening[1]]) else []


def _listed_under_title(terms: DocumentTerms, best: _Scored, subject: list[str],
                        opening: Span | None) -> bool:
    """Whether ``best`` is a bulleted item that names every ``subject`` word of a cover
    question (``_subject_words``) under an opening that says what its list is (its own
    clause's ``opening``, from ``_opening_lead_in``, or ``_bullets_title``)."""
    line = best.clause.text[best.span[0]:best.span[1]]
    if not subject or _BULLETS.match(line.lstrip()) is None:
        return False
    named = {t[:FAMILY_PREFIX] for t in token_set(line)}
    if not {t[:FAMILY_PREFIX] for t in subject} <= named:
        return False
    return opening is not None or bool(_bullets_title(terms, best.clause))


def _lists_other_things(clause: Clause, rarest: str | None) -> bool:
    """Whether ``clause`` is a list of bulleted items that each only name something (under
    its opening line, if any), none of them ``rarest``."""
    opening = _opening_line(clause.text)
    items = clause.text[opening[1]:] if opening is not None and \
        _BULLETS.match(clause.text[opening[1]:].lstrip()) else clause.text
    return rarest is not None and _bare_bullets(items) and rarest not in token_set(items)


def _path_clause(terms: DocumentTerms, clause: Clause) -> Clause | None:
    """The clause the last entry of ``clause``'s section path names by its own id (an
    unnumbered paragraph that holds the items after it: "preamble¶13")."""
    if not clause.section_path:
        return None
    entry = f"{clause.clause_id.rsplit(':', 1)[0]}:{clause.section_path[-1]}"
    clauses = terms.index.clauses
    return clauses.clause(entry) if clauses.has_clause(entry) else None


def _bare_bullets(text: str) -> bool:
    """Whether ``text`` is one or more bulleted items that each only name things ("•
    Acupuncture (if prescribed for rehabilitation purposes) • Bariatric surgery • Hearing
    aids", short items the segmenter joins into one clause; not the end of a sentence set
    as a bullet, "• before having the USA in Your region of cover")."""
    items = [" ".join(item.split()) for item in _BULLETS.split(text) if item.strip()]
    return bool(items) and _BULLETS.match(text.lstrip()) is not None \
        and all(bare_item(item) and len(item.split()) <= _BULLET_WORDS
                and not item[0].islower() for item in items)


def _enumerated_item(text: str) -> bool:
    """Whether ``text`` opens with an item of a running enumeration, a few words with no
    verb that end in a semicolon ("9. Whilst in transit by road rail inland-waterway lift
    elevator or air;"), whatever the segmenter left joined to it (the next item's
    unpunctuated number, the lead-in of the list after it)."""
    spans = split_sentences(text)
    if not spans:
        return False
    first = text[spans[0][0]:spans[0][1]].rstrip()
    return first.endswith(";") and bare_item(first)


def _lead_in_reading(holder: Clause | None) -> tuple[Clause, Span] | bool | None:
    """``holder``'s last sentence when it grants cover, False when it refuses cover, None
    when it does neither (a heading, a rule of another kind) or there is no holder."""
    spans = split_sentences(holder.text) if holder is not None else []
    if not spans:
        return None
    if refusing_close(holder) is not None:
        return False
    last = spans[-1]
    sentence = holder.text[last[0]:last[1]]
    if refuses_cover(sentence):
        return False
    return (holder, last) if AFFIRMS_COVER.search(sentence) is not None else None


def _section_grant(terms: DocumentTerms, item: Clause) -> tuple[Clause, Span] | None:
    """The grant of the section ``item``'s list sits in, through a heading the outline
    kept only as a path ("4.1. Hospitalization The Company shall indemnify Medical Expense
    ... for," / "4.1.1. Other expenses" / "ii. Dental treatment, necessitated due to disease
    or injury"): the first section of the item's last ``_REFUSING_LEVELS`` path entries
    that is a clause of its own, if it grants."""
    for entry in reversed(item.section_path[-_REFUSING_LEVELS:]):
        section = terms.section_clause(item, entry)
        if section is not None:
            return _lead_in_reading(section) or None
    return None


def _refusing_lead_in(terms: DocumentTerms, item: Clause) -> tuple[Clause, Span] | None:
    """The sentence of the clause holding ``item``'s list, or the list that list is an item
    of, that refuses the list ("The Company shall not be liable to make any payment in
    respect of:-", "... We will not cover" before an unnested "1. Any infertility
    treatments"; "... not be liable in respect of:" over "3. any loss ... whilst the vehicle
    is" over "(b) being driven by ...")."""
    current = item
    for _ in range(_REFUSING_LEVELS):
        holder = terms.list_holder(current) or terms.before_siblings(current)
        if holder is None:
            return None
        close = refusing_close(holder)
        if close is not None:
            return holder, close
        current = holder
    return None


def _pointed_row(index: IndexReader, best: _Scored, question: str, kind: str | None
                 ) -> tuple[Clause, Span] | None:
    """The table row that states the value ``best`` points to ("up to the limit as shown
    in the Table of Benefits" -> "Ambulance (...) | PLAN A: Up to INR 2,500 | ..."): in a
    table of the same document named as the pointer names it, the row whose label best
    matches the question and the clause's heading (by word overlap), holding a value of
    the asked kind."""
    if kind not in _VALUE_KINDS:
        return None
    text = best.clause.text
    pointer = DEFERRED.search(text, *best.span)
    if pointer is None:
        return None
    target = token_set(pointer.group("target")) - _TARGET_GENERIC
    if not target:
        return None
    asked = token_set(question) | token_set(best.clause.heading or "")
    found, best_overlap = None, 0.0
    for clause in index.clauses.document_clauses(best.clause.doc_id):
        if clause.kind != "table" or not target <= token_set(
                " ".join([clause.heading or "", *clause.section_path[-1:],
                          clause.text.split("\n", 1)[0]])):
            continue
        for span in _line_spans(clause.text):
            row = clause.text[span[0]:span[1]]
            label = token_set(row.split(CELL_SEPARATOR, 1)[0].split("(", 1)[0])
            if not label or CELL_SEPARATOR not in row or not _holds_value(kind, clause.text, *span):
                continue
            overlap = len(label & asked) / len(label | asked)
            if overlap > best_overlap:
                found, best_overlap = (clause, span), overlap
    return found


def _condition_span(best: _Scored, question: str) -> Span | None:
    """The first sentence after ``best`` in its clause that states a condition, when the
    question asks for the conditions (a grant's own "subject to the limit" is rarely the
    condition asked about, so the next one is added even then)."""
    text = best.clause.text
    if not _ASKS_CONDITIONS.search(question):
        return None
    return next(((a, b) for a, b in split_sentences(text)
                 if a >= best.span[1] and _CONDITION.search(text[a:b])), None)


def _parallel_items(terms: DocumentTerms, candidates: list[_Scored], best: _Scored,
                    kind: str | None, question: str = "") -> list[_Scored]:
    """The other short items of ``best``'s list that state another value of the asked kind
    and hold the same share of the question's words as ``best`` (they differ from it only
    by words the question does not use), at most ``_PARALLEL_ITEMS``, in document order."""
    if kind not in _VALUE_KINDS or not best.has_value or best.pair \
            or not best.clause.section_path:
        return []
    stated = _stated_values(kind, best)
    if _is_row(best):
        # a figure in the question ("loss of one limb", "after five claim-free years")
        # picks its row
        return [] if _figures(question) else _parallel_rows(
            candidates, best, kind, stated, frozenset(content_tokens(question)))
    own: dict[str, _Scored] = {}
    for c in candidates:
        if c.clause.clause_id == best.clause.clause_id or not c.has_value or c.pair \
                or abs(c.words - best.words) > 1e-9 or len(c.clause.text) > _LIST_HEADING_CHARS \
                or not _same_list(terms, c.clause, best.clause):
            continue
        # an item that restates the best's figure adds nothing
        if _stated_values(kind, c) <= stated:
            continue
        kept = own.get(c.clause.clause_id)
        if kept is None or c.score > kept.score:
            own[c.clause.clause_id] = c
    return sorted(own.values(), key=lambda c: c.clause.order)[:_PARALLEL_ITEMS]


def _introduced(text: str, span: Span) -> Span | None:
    """What the sentence at ``span`` introduces in its clause ("... as under:", "... of
    below mentioned Modern Treatment Methods"): the sentences after it, while the whole
    stays within twice ``MAX_SENTENCE_CHARS``; None when none follows."""
    after = [(a, b) for a, b in split_sentences(text) if a >= span[1]]
    end = span[1]
    for _, b in after:
        if b - span[0] > 2 * MAX_SENTENCE_CHARS:
            break
        end = b
    return (after[0][0], end) if end > span[1] else None


def _announcing(candidates: list[_Scored], noun: frozenset[str]) -> list[_Scored]:
    """The candidates whose sentence names ``noun`` and announces a list in so many words
    (``_ANNOUNCES_LIST``: "the following documents", "List of Claim documents:"). (A
    clause that merely has items is no announcement: "COVER FOR VEHICLES IMPORTED ..."
    with its numbered conditions names "country" in passing.)"""
    if not noun:
        return []
    return [c for c in candidates if _announces(c.clause.text, c.span, noun)]


def _announces(text: str, span: Span, noun: frozenset[str]) -> bool:
    """Whether the sentence at ``span`` announces a list of ``noun`` near its cue ("the
    following documents", "List of Claim documents:"), not a list of anything else with
    the noun elsewhere in it."""
    return any(noun <= token_set(text[max(span[0], cue.start() - _CUE_REACH):
                                      min(span[1], cue.end() + _CUE_REACH)])
               for cue in _ANNOUNCES_LIST.finditer(text, span[0], span[1]))


def _list_lines(index: IndexReader, terms: DocumentTerms, best: _Scored) -> list[AnswerLine]:
    """The list ``best``'s clause heads or is an item of, or the one its sentence announces,
    as answer lines: what announces it first (read under), then its items in order, at most
    ``_LISTED_ITEMS``, the quoted item among them; empty when there is none."""
    clause = best.clause
    whole = _trim(clause.text, (0, len(clause.text)))
    items = terms.list_items(clause)
    if len(items) >= 2:
        return _listed(index, (clause, whole), items, clause)
    sibling = _sibling_list(terms, clause)
    if sibling is not None:
        return _listed(index, *sibling, clause)
    if _ANNOUNCES_LIST.search(clause.text, best.span[0], best.span[1]) is None:
        return []
    # the quoted sentence announces the list its section goes on with ("... of below
    # mentioned Modern Treatment Methods" / "• Oral Chemotherapy" / ...: its bullets, in
    # clauses of their own), or the rest of its own clause holds it
    items = terms.section_items(clause)
    if items:
        return _listed(index, (clause, best.span), items, clause)
    rest = _introduced(clause.text, best.span)
    return [] if rest is None else [
        _line(index, clause, best.span).model_copy(update={"heads": True}),
        _line(index, clause, rest, limit=False)]


def _sibling_list(terms: DocumentTerms, clause: Clause
                  ) -> tuple[tuple[Clause, Span] | None, list[Clause]] | None:
    """(what announces it, its items) when ``clause`` is an item of a list: short numbered
    lines under words that announce them ("the following documents:", "List of specific
    diseases"). Numbered paragraphs of a section (its definitions, its covers) are no list
    an answer quotes whole."""
    items = terms.list_siblings(clause)
    if len(items) < 2 or len(clause.text) > _LIST_HEADING_CHARS or \
            sum(len(item.text) for item in items) > _LIST_HEADING_CHARS * len(items):
        return None
    holder = terms.parent(clause) or terms.headed_parent(clause)
    head = (holder, _trim(holder.text, (0, len(holder.text)))) \
        if holder is not None and len(holder.text) <= _LIST_HEADING_CHARS \
        else terms.list_title_line(clause)
    announcing = " ".join([*clause.section_path, "" if head is None else
                           head[0].text[head[1][0]:head[1][1]]])
    return (head, items) if _ANNOUNCES_LIST.search(announcing) else None


def _listed(index: IndexReader, head: tuple[Clause, Span] | None, items: list[Clause],
            quoted: Clause) -> list[AnswerLine]:
    """``head`` (read under) and ``items``, at most ``_LISTED_ITEMS`` of them, the
    ``quoted`` one kept among them."""
    shown = items[:_LISTED_ITEMS]
    if any(item.clause_id == quoted.clause_id for item in items[_LISTED_ITEMS:]):
        shown = [*shown[:-1], quoted]
    lines = [] if head is None else [_line(index, *head).model_copy(update={"heads": True})]
    return lines + [_line(index, item, _trim(item.text, (0, len(item.text)))) for item in shown]


def _completing_items(terms: DocumentTerms, best: _Scored) -> list[Clause]:
    """The list items that complete ``best``'s sentence: it is the last of its clause, ends
    with no stop (or with a colon), and the clause heads a list; at most
    ``_COMPLETING_ITEMS`` of them."""
    text = best.clause.text
    if text[best.span[1]:].strip() or _is_row(best):
        return []
    if text[best.span[0]:best.span[1]].rstrip().endswith((".", ";", "?", "!")):
        return []
    items = terms.list_items(best.clause) or terms.continuing_items(best.clause)
    return items[:_COMPLETING_ITEMS]


def _parallel_rows(candidates: list[_Scored], best: _Scored, kind: str | None,
                   stated: frozenset[str], asked: frozenset[str] = frozenset()
                   ) -> list[_Scored]:
    """The other rows of ``best``'s table that state another value of the asked kind and
    hold the same share of the question's words ("What refund is paid on cancellation?" of
    "Up to one month | 75%" ... "Exceeding six months | Nil": the question picks no row),
    at most ``_PARALLEL_ITEMS``, in the table's order. A row whose own words lack an
    ``asked`` word that ``best``'s hold is no parallel one, however its table's heading
    holds the word ("... Half Yearly, Quarterly or Monthly": "What is the grace period for
    monthly instalments?" picks the row "Monthly | 15 days")."""
    picked = asked & _own_words(best)
    rows = {c.span: c for c in candidates
            if c.clause is best.clause and c.span != best.span and c.has_value and not c.pair
            and _is_row(c) and abs(c.words - best.words) <= 1e-9
            and not _stated_values(kind, c) <= stated and picked <= _own_words(c)}
    return sorted(rows.values(), key=lambda c: c.span)[:_PARALLEL_ITEMS]


def _own_words(scored: _Scored) -> frozenset[str]:
    """The words of a candidate's own sentence (not its heading's or its list's)."""
    return token_set(scored.clause.text[scored.span[0]:scored.span[1]])


def _stated_values(kind: str | None, scored: _Scored) -> frozenset[str]:
    """The values of the asked kind a candidate sentence states, as written (spaces
    folded, lower case)."""
    text = scored.clause.text
    return frozenset(" ".join(text[a:b].lower().split())
                     for a, b in _value_spans(kind, text, *scored.span))


def _same_list(terms: DocumentTerms, one: Clause, other: Clause) -> bool:
    """Whether two clauses are items of one list: the same numbered parent, or (items
    without numbers, "•") the same section path."""
    parent, other_parent = terms.parent(one), terms.parent(other)
    if parent is not None or other_parent is not None:
        return parent is not None and other_parent is not None and \
            parent.clause_id == other_parent.clause_id
    return one.section_path == other.section_path


def _companion(candidates: list[_Scored], best: _Scored, kind: str | None) -> _Scored | None:
    """The sentence before ``best`` in its clause when ``best`` lacks the asked value."""
    if not _asks_value(kind) or _holds_value(kind, best.clause.text, *best.span):
        return None
    same = [c for c in candidates if c.clause is best.clause and c.span[1] <= best.span[0]]
    for previous in reversed(same):
        if _holds_value(kind, previous.clause.text, *previous.span):
            return previous
    return None


def _focus(text: str, span: Span, weights: dict[str, float], kind: str | None,
           notice: bool = False) -> Span:
    """A long sentence cut to the stretch of ``MAX_SENTENCE_CHARS`` that holds the most
    question weight (and the asked value, when there is one: of a duration asked as
    ``notice``, the notice period): a whole list is no answer."""
    start, end = span
    if end - start <= MAX_SENTENCE_CHARS:
        return span
    words = [(m.start(), m.end(), (answer_tokens(m.group()) or [""])[0])
             for m in _WORD_RE.finditer(text, start, end)]
    values = _notice_spans(text, start, end) if notice and kind == "duration" else []
    values = values or _value_spans(kind, text, start, end)
    best_score, best = -1.0, (start, min(end, start + MAX_SENTENCE_CHARS))
    # the first stretch starts where the sentence does ("(i) the other Party ..."), not at
    # its first word
    for left in [start, *(w[0] for w in words[1:])]:
        right = left + MAX_SENTENCE_CHARS
        # fsum: the same total in any order of the set, so equal stretches tie the same
        # way on every run (a plain sum over a set varies with the hash seed)
        held = math.fsum(weights.get(stem, 0.0) for stem in {w[2] for w in words
                                                             if left <= w[0] and w[1] <= right})
        # the stretch that holds more of the sentence's values of the asked kind (every way
        # to reach someone: "For website: ...; For email: ...; For phone: ...")
        inside = sum(1 for a, b in values if left <= a and b <= right)
        if inside:
            held += 0.3 * (sum(weights.values()) or 1.0) * inside
        # of equal stretches, one that starts a phrase reads better than one that starts
        # mid-phrase ("either Party may terminate ...", not "Section 10.4]) that ...")
        if left == start or text[start:left].rstrip()[-1:] in (",", ";", ":"):
            held += 0.01 * (sum(weights.values()) or 1.0)
        if held > best_score:
            best_score, best = held, (left, min(end, right))
    left, right = best
    while right < end and not text[right - 1].isspace() and not text[right].isspace():
        right -= 1
    return left, right


def _notice_spans(text: str, start: int, end: int) -> list[Span]:
    """The notice periods ``text[start:end]`` states ("ninety (90) days before the end of
    the Initial Term"), not the term's or a renewal's length beside them."""
    return [(start + v.start, start + v.end) for v in notice_durations(text[start:end])]


def _word_start(text: str, position: int, floor: int) -> int:
    while position > floor and not text[position - 1].isspace():
        position -= 1
    return position


def _best_span(clause: Clause, weights: dict[str, float], total: float) -> Span:
    """The clause's sentence that best matches the question; of sentences that match
    equally (often: none of them does), one that states something, not a label line such
    as "xiv. Code- Excl17:" before the rest."""
    scored = _score_sentences(clause, 0, weights, total, None)
    if not scored:
        return _lead_span(clause)
    best = max(scored, key=lambda s: (s.score, _states(clause.text, s.span))).span
    line = clause.text[best[0]:best[1]].rstrip()
    if clause.kind == "table" or not bare_item(line) or line.endswith((".", ";", ":")):
        return best
    # a title line ("3. 30-day waiting period (Excl03)") names what the sentence after it
    # states ("a) Expenses related to the treatment of any illness within 30 days ... shall
    # be excluded"): quoted alone it says nothing of what the exception is. (An item ends
    # as a sentence does, "g. Report of total loss or theft of the vehicle."; a lead-in
    # ends in a colon.)
    after = next((span for span in split_sentences(clause.text) if span[0] >= best[1]), None)
    return best if after is None else (best[0], after[1])


def _with_statement(text: str, span: Span) -> Span:
    """A heading that opens its clause as a sentence of its own ("10.2.", "5. Featured
    Guests.", "(ii) Exercise.") quoted with the sentence after it, which states what the
    heading names. (A title ending in a colon is read with what follows it elsewhere; a
    list item is a short line, not a heading.)"""
    heading = text[span[0]:span[1]]
    words = [t for t in token_set(heading) if not t.isdigit()]
    if len(words) >= _STATEMENT_WORDS or not heading.rstrip().endswith("."):
        return span
    sentences = split_sentences(text)
    if len(sentences) < 2 or sentences[0] != span:
        return span
    return span[0], sentences[1][1]


def _states(text: str, span: Span) -> bool:
    """Whether ``text[span]`` says something: a few words, not a label."""
    return len(token_set(text[span[0]:span[1]])) >= _STATEMENT_WORDS


def _lead_span(clause: Clause) -> Span:
    spans = split_sentences(clause.text)
    return spans[0] if spans else (0, len(clause.text))


def _focused_line(index: IndexReader, clause: Clause, span: Span, weights: dict[str, float],
                  kind: str | None, notice: bool = False) -> AnswerLine:
    """The part of a long sentence that holds the answer, marked where it was cut."""
    start, end = _focus(clause.text, span, weights, kind, notice)
    line = _line(index, clause, (start, end))
    if clause.text[span[0]:start].strip():
        line.cut_before = True
    if clause.text[end:span[1]].strip(" \n\t.;,:"):
        line.cut_after = True
    return line


def _line(index: IndexReader, clause: Clause, span: Span, limit: bool = True) -> AnswerLine:
    start, end = span
    text = " ".join(clause.text[start:end].split())
    cut = False
    if limit and len(text) > MAX_SENTENCE_CHARS + _CUT_SLACK:
        end = start + len(clause.text[start:start + MAX_SENTENCE_CHARS].rsplit(" ", 1)[0])
        text = " ".join(clause.text[start:end].split())
        cut = True
    # a line ending in "... DOMESTIC COVER UNDER" goes on past the quote (a wrapped heading)
    cut = cut or ends_mid_phrase(text)
    document = index.clauses.document(clause.doc_id)
    span = clause.document_span(start, end)
    # the pages the quote is on, not all of its clause's (a row of a benefit table in a
    # section that runs over ten pages is cited on its own page)
    pages = [page for page in document.pages_of(span) if page in clause.pages] \
        if document.pages else []
    return AnswerLine(
        clause_id=clause.clause_id, label=clause.label, document=document.title, text=text,
        span=span, pages=pages or clause.pages, cut_after=cut,
    )
