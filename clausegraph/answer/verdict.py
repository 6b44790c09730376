"""A short verdict over the direct answer: "No: 36-month waiting period", "90 days", "Yes".

An analyst asking "Is knee replacement covered in the first two years?" wants the answer
before the quote. The verdict is read offline from the quoted sentence(s) of the direct
answer: the values they state (``clausegraph.text.values``) and their polarity (does the
clause refuse what is asked, or allow it, and on what condition). It says "Cannot tell"
whenever the quote does not decide: a wrong "Yes" costs an analyst more than no verdict.

What the question asks is read from its grammar, not from any document's wording:

- a question that opens with an auxiliary verb ("Is", "Does", "Can", ...) asks yes or no;
- "how long", "how much", "how many", "when", "what percentage", "how old" ask for a
  value of a kind (duration, money or percentage, count, date or duration, percentage, age).
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from itertools import accumulate, pairwise

from clausegraph.answer.direct import (AFFIRMS_COVER, ASKS_DATE, ASKS_END, ASKS_EXCLUSION,
                                       ASKS_NOTICE, ASKS_YES_NO, CONTINUES_COVER, DEFERRED,
                                       FAMILY_PREFIX, GRANTING_TITLE, NIL, PROPORTIONAL,
                                       REFUSES_ITEMS, REFUSING_HEADING,
                                       VALUE_QUESTION_KINDS, WHILE_NEEDED,
                                       asks_contents, content_tokens, question_kind,
                                       refuses_cover, split_sentences, value_answers)
from clausegraph.models import CELL_SEPARATOR, Answer, DirectAnswer, Verdict
from clausegraph.text.documents import DOCUMENT_NOUN
from clausegraph.models.document import Span
from clausegraph.segment.headings import CONNECTORS
from clausegraph.text.term import (EFFECTIVE_DATE, NAMES_EFFECTIVE, RENEWS, TermEnd,
                                   date_by_name, event_end, format_length, notice_period,
                                   renewal_length, starts_on, term_end, term_length)
from clausegraph.text.tokenize import tokenize
from clausegraph.text.values import (DAYS_PER_UNIT, FIRST_WINDOW, AskedTime, Value, asked_time,
                                     bound_side,
                                     bracket_figure, extract_values, figure, left_blank,
                                     meets_figures, stated_figures)

# The dates of a document a term may count from (answer/dates.py), by document id.
DatesOf = Callable[[str], Mapping[str, str | None]]

# the value kinds each way of asking wants, in order of preference
_ASKS_VALUE: tuple[tuple[re.Pattern, tuple[str, ...]], ...] = (
    (re.compile(r"\b(law|laws|jurisdiction)\b.*\bgovern|\bgovern\w*\b.*\b(law|laws)\b|"
                r"\bgoverning law\b", re.I), ("jurisdiction",)),
    (re.compile(r"\bhow old\b|\bage\b", re.I), ("age", "duration")),
    (re.compile(r"\bwhat (percentage|percent)\b|\bhow many percent\b", re.I), ("percent",)),
    (re.compile(r"\bhow long\b|\bhow many (days|weeks|months|years)\b|\bwithin how\b|"
                r"\b(period|duration|notice)\b", re.I), ("duration", "date")),
    # "When does it end?", "... and when can it be released?"; not "when" joining a
    # condition ("What happens to the bonus when the vehicle is transferred?")
    (re.compile(r"(?:^|[,;]|\band\b|\bor\b|\b(?:by|until|till|since|from)\b)\s*when\b|"
                r"\bwhat date\b|\bon what date\b", re.I), ("date", "duration")),
    (re.compile(r"\bhow much\b|\b(amount|limit|cap|sum|fee|premium|price|deductible|refunds?)\b",
                re.I), ("money", "percent")),
    # a distance, an engine's capacity, a weight: "How far ...?", "How many kilometres ...?"
    (re.compile(r"\bhow far\b|\bhow many (?:km|kms|kilomet\w+|miles|cc|kg|tonnes)\b|"
                r"\b(?:distance|radius|cubic capacity)\b", re.I), ("measure",)),
    (re.compile(r"\bhow many\b", re.I), ("number", "measure")),
)
_ASKS_COVER = re.compile(r"\b(covered|cover|covers|payable|pay for|pays for|paid\s+for|reimburs\w*|"
                         r"included|indemnif\w*|claim\w*|(?:be|is|are|get|gets)\s+insured|"
                         # "Can I get hernia surgery paid ...?"
                         r"get\s+(?:[\w'-]+\s+){1,4}?paid|"
                         # "Is emergency dental treatment abroad paid?" (not "Can the
                         # premium be paid in instalments?", which asks leave)
                         r"(?<!\bbe )paid)\b", re.IGNORECASE)
# a table cell that marks what its row names covered or not ("Organ Donor | Plan A:
# Covered"; "Acupuncture | Not covered")
_CELL_COVERED = re.compile(r"^(?:covered|included|available|payable)\b", re.I)
_CELL_REFUSED = re.compile(r"^(?:not\s+(?:covered|included|available|payable)|excluded)\b",
                           re.I)
_LETTERS = re.compile(r"[A-Za-z]{2}")
# a title at the head of a quoted line, numbered or not, ending in a colon ("5. Renewal
# Benefits: a) A 10% cumulative bonus ...")
_LEADING_TITLE = re.compile(r"^\s*(?:[\dA-Za-z]{1,4}[.)]\s+)?[A-Z][^.:;]{0,60}:\s+")
# where the phrase a row label opens with ends: a preposition or a bracket or dash after it
_LABEL_PHRASE_END = re.compile(r"\s(?:after|for|of|in|with|under|during|to|by|from|on|at|per|"
                               r"including|excluding|upto|up to)\s|[(,;:–—]|\s-\s", re.I)
# a column whose cells state the benefit itself ("Hearing Aids | Benefits: 90% of the
# Allowable Charge, after Deductible")
# (a column of limits caps what is paid: "Sub limits: 10% of SI, up to INR 50,000")
_BENEFIT_COLUMN = re.compile(r"\b(?:benefits?|cover(?:age|ed)?|(?:sub[\s-]?)?limits?)\b", re.I)
# "Does coverage continue during FMLA leave?", "Is cover maintained while abroad?"
_ASKS_CONTINUE = re.compile(r"\b(?:continues?|continued|maintained|remains?)\b", re.I)
_PERMISSION = re.compile(r"^\s*(can|could|may|might|is \w+ (allowed|permitted|entitled))\b",
                         re.I)
_EXISTS = re.compile(r"^\s*(is|are) there\b|^\s*(does|do) (the|this|it|either|any|a|an)\b.*\b("
                     r"contain|include|have|provide|require|grant|impose|apply|applies)\w*\b|"
                     # "Is a grace period allowed?", "Is an engine protect add-on available?"
                     r"^\s*(is|are) (a|an|any)\b.{1,60}\b(available|allowed|permitted|offered|"
                     r"provided)\b|"
                     # "Is cumulative bonus available?", "Are teleconsultations offered?"
                     r"^\s*(is|are)\s+(?!there\b)(?:[\w'’-]+\s+){1,5}(available|allowed|"
                     r"permitted|offered|provided)\s*\?*\s*$", re.I)
# "Is there a/an/any <phrase> on/for/in ...?": the provision asked about, up to the first
# word that relates it to something else
_PROVISION_ASKED = re.compile(r"^\s*(?:is|are)\s+there\s+(?:a|an|any)\s+(?P<phrase>(?:(?!(?:on|"
                              r"for|in|of|under|to|if|when|after|before|that|which|with|by|"
                              r"from|at|per|during)\b)[\w'’]+\s*){1,6})", re.I)
# a provision named by its kind alone ("clause", "provision") says nothing the quote must name
_GENERIC_PROVISIONS = frozenset({"claus", "provis", "term", "section", "requir", "restrict",
                                 "right", "oblig", "condit", "rule"})
# words every clause of a policy may use for what it pays: asked whether a provision
# exists, no subject of their own beside a word that says which ("maternity benefits")
_GENERIC_SUBJECTS = frozenset({"benef", "expen", "charg", "cost", "treat", "servi"})
# ... nor one a figure names ("Is there a cap on liability?": "shall not exceed $1,000,000";
# "Is there a waiting period ...?": "excluded until 48 months")
_NAMED_BY_FIGURE = frozenset({"cap", "limit", "maximum", "minimum", "ceil", "sublimit",
                              "amount", "threshold", "wait", "period"})
_CAP_WORDS = frozenset({"cap", "limit", "ceil", "sublimit"})
# ... or by the words that set one ("shall not exceed", "up to", "limited to")
_SETS_LIMIT = re.compile(r"\b(?:exceed\w*|up\s*to|upto|maximum|max|not\s+more\s+than|"
                         r"(?:limited|restricted|capped)\s+(?:to|at)|ceiling)\b", re.I)
_WORD = re.compile(r"[A-Za-z0-9]+")
# "Is cataract treatment limited?", "Are ambulance charges capped under the policy?", "Is
# room rent subject to a sub-limit?": whether a limit on the subject exists, asked as "Is
# there a limit on ...?" is. (Not "Is treatment restricted to network hospitals?", which
# asks where, nor "Is the policy limited to India?")
_LIMITED = re.compile(
    r"^\s*(?:is|are)\s+(?P<subject>(?!there\b)[^?]{2,80}?)\s+(?:(?:sub[\s-]?)?limited|capped|"
    r"restricted|subject\s+to\s+(?:a|an|any)\s+(?:(?:sub[\s-]?)?limit|cap|ceiling|maximum))"
    r"(?P<rest>(?:\s+(?:under|in|by)\s+(?:the|this|my|your)\s+\w+)?)\s*\??\s*$",
    re.IGNORECASE)
# what an exclusion excepts from itself: the rest of its sentence after "other than",
# "except (for)", "save for"
_CARVE_OUT = re.compile(r"\b(?:other\s+than|except(?:\s+for)?|save\s+for)\b", re.I)
_CARVE_END = re.compile(r"[.;](?:\s|$)|\n\s*\n")
# the persons an age is stated of, and how far before an age the one it is stated of stands
_PERSON = re.compile(r"\b(?:(?:grand)?child(?:ren)?|kids?|(?:grand)?(?:sons?|daughters?)|"
                     r"depend[ae]nts?|spouses?|wife|"
                     r"husband|partners?|parents?|fathers?|mothers?|in-laws?|adults?|proposers?|"
                     r"insured|members?|employees?|new\s*borns?|bab(?:y|ies)|infants?|seniors?|"
                     r"drivers?|siblings?)\b", re.I)
_PERSON_REACH = 60
_HYPHENATED = re.compile(r"(?<=[A-Za-z])-(?=[A-Za-z])")
# the quote names what is asked but neither grants, refuses, allows nor forbids it
_NEITHER = "Cannot tell from the quote"
# how far before a value the word naming it is read ("ICU - Up to 2%")
_SUBJECT_REACH = 40
_ACRONYM = re.compile(r"\b[A-Z]{2,5}\b")
# what a value is stated for, written right after it: "$500 / individual", "$500 per
# person", "Rs. 2,000 for each insured", "$2,500 individual"
_STATED_FOR = re.compile(r"[ \t]*(?:/|per\b|for\b|each\b|every\b)?[ \t]*"
                         r"(?:(?:each|every|an?|the|one)[ \t]+)?(?P<word>[A-Za-z]+)")
# the figures a provision is stated with: a period, a share, a sum
_PROVISION_FIGURES = ("duration", "percent", "money")
# a document that restates the question and answers it ("Do you need a referral to see a
# specialist? | Answers: Yes.", as a US Summary of Benefits and Coverage does)
_STATED_ANSWER = re.compile(
    r"\?\s*(?:\|\s*)?(?:answers?\s*:\s*)?(?P<answer>yes|no)(?=\s*(?:[.,;:!|]|$))", re.I)
# two lengths of time this close (in days) are the same: 12 months and one year, 52 weeks
# and 364 days
_SAME_DAY = 1.5
# cover that waits for a period to run ("excluded until the expiry of ...")
_EXPIRY = re.compile(r"\buntil\s+(?:the\s+)?(?:expiry|completion|end)\s+of\b", re.IGNORECASE)
# what joins alternative periods: "90 days/ one year", "24 months or 36 months"
_ALTERNATIVE = re.compile(r"\s*(?:/|,|\bor\b|\band/or\b)\s*", re.IGNORECASE)
_EXAMPLE = re.compile(r"\bfor\s+(?:example|instance)\b|\be\.\s?g\.|\bexample\b|\billustrat\w*",
                      re.I)
_BEFORE = re.compile(r"\s*(?:prior\s+to|before|in\s+advance\s+of)\b", re.I)
# ... and a length a bound sets (text.values.bound_side: "a continuous period of less than
# 24 hours", "up to 60 days", "a minimum period of 24 consecutive hours") is how long a stay
# or a benefit lasts, as is a period counted from an event of the claim ("60 days after
# discharge", "until 30 days following birth of the new born")
_AFTER_EVENT = re.compile(r"\s*(?:immediately\s+)?(?:after|following|from|of)\s+(?:the\s+)?"
                          r"(?:date\s+of\s+)?(?:discharge|admission|hospitali[sz]ation|birth|"
                          r"delivery|(?:the\s+)?(?:accident|injury|surgery))\b", re.I)
_WAIT = re.compile(r"\b(waiting|wait|until|till|after|expiry|completion|continuous(ly)?)\b",
                   re.I)
_FORBIDS = re.compile(
    # ("shall not exceed" caps a figure; it forbids nothing asked)
    r"\b(shall|will|may|must|can)\s+not\b(?!\s+(?:exceed|be\s+(?:more|less|greater)\s+than))|"
    r"\bcannot\b|\b(neither|no)\s+(party|person|one)\b|"
    # "Neither this Agreement nor any interest hereunder shall be assignable ..."
    r"\bneither\b[^.;]{1,80}?\bnor\b[^.;]{1,80}?\b(shall|will|may|can)\b|"
    r"\bnot\s+be\s+(entitled|permitted|allowed|assignable)\b|\bprohibit\w*\b|\bnot\s+"
    r"(assign|transfer|terminate)\w*\b", re.I)
_ALLOWS = re.compile(r"\b(may|can|is entitled to|shall be entitled to|has the right to|"
                     r"shall have the right to|is permitted to)\b", re.I)
# the two sides of an insurance contract, as a question or a wording names them
_INSURER_SIDE = r"insurers?|company|underwriters?|we|us"
_INSURED_SIDE = r"policy\s*holders?|insured(?:\s+persons?)?|proposers?|members?|you|i"
# whom a question asks a right of: "... be cancelled by the insurer?", "Can the insurer
# cancel ...?"
_ASKED_SIDE = re.compile(rf"\bby\s+(?:the\s+)?(?:(?P<insurer>{_INSURER_SIDE})|(?P<insured>"
                         rf"{_INSURED_SIDE}))\b|^\s*(?:can|could|may)\s+(?:the\s+)?(?:(?P<"
                         rf"insurer2>{_INSURER_SIDE})|(?P<insured2>{_INSURED_SIDE}))\b", re.I)
# who a quote gives a right to: "The Policyholder may cancel this policy ...", "The Company
# may cancel the policy ..."
# (not "i": "(i) may be ..." is a list label)
_RIGHT_OF = re.compile(rf"\b(?:the\s+)?(?:(?P<insurer>{_INSURER_SIDE})|(?P<insured>"
                       rf"{_INSURED_SIDE.removesuffix('|i')}))\s+(?:may|can|"
                       rf"(?:is|are|shall\s+be)\s+entitled\s+to|"
                       rf"(?:has|have|shall\s+have)\s+the\s+(?:right|option)\s+to)\b", re.I)
_CONDITION = re.compile(r"\b(without|unless|except|provided that|provided, however|subject to|"
                        r"only if|only with|upon|after)\b", re.I)
# a question about cover outside a place, and a grant limited to within one
_ASKS_ABROAD = re.compile(r"\b(?:outside|abroad|overseas)\b", re.I)
# a sum insured named right before a figure by the words of a band ("Sum Insured up to",
# "sum insured above"; within _BAND_REACH characters), or before a figure the band's words
# follow ("Sum Insured of INR 5 lakh and above", "is $100,000 or more"): the figure is the
# sum insured of the plans a cover applies to. "within the sum insured of Rs 50,000 under
# the Maternity extension" is the cover's own limit.
_SUM_INSURED = r"\bsums?\s+insured\s+"
_SUM_INSURED_BAND = re.compile(
    _SUM_INSURED + r"(?:is\s+|opted\s+)?(?:up\s*to|upto|above|below|over|under|between|from|"
    r"exceeding|more\s+than|less\s+than|equal\s+to|till)\s*(?:rs\.?|inr|usd|₹|\$|£|€)?\s*$",
    re.I)
_SUM_INSURED_BEFORE = re.compile(
    _SUM_INSURED + r"(?:is|of|opted)?\s*(?:rs\.?|inr|usd|₹|\$|£|€)?\s*$", re.I)
_BAND_AFTER = re.compile(r"\s*(?:and|or)\s+(?:above|over|more|higher|below|less|lower)\b", re.I)
_BAND_REACH = 40
# an exclusion of what does not meet conditions it lists ("Expenses related to the surgical
# treatment of obesity that does not fulfil all the below conditions:", "unless all the
# following conditions are met"): what meets them is covered
_EXCLUDED_UNLESS_MET = re.compile(
    r"\b(?:that|which|who)\s+(?:does|do|did)\s+not\s+(?:fulfil+|meet|satisfy|comply\s+with|"
    r"conform\s+to)\b[^.;]{0,40}\bconditions?\b|\bunless\b[^.;]{0,40}\bconditions?\b[^.;]{0,30}"
    r"\b(?:are|is|have\s+been|has\s+been)\s+(?:met|fulfil+ed|satisfied|complied\s+with)\b", re.I)
# an optional cover that applies on a condition ("This cover is applicable if it is shown on
# your schedule", "This Benefit is available only if ...", "The extension shall be operative
# provided that ..."): cover, on that condition, where no sentence promises it outright
_APPLIES_IF = re.compile(
    r"\b(?:this|the|such)\s+(?:cover(?:age)?|benefit|extension|add[- ]?on|section|endorsement|"
    r"option)\s+(?:is|shall\s+be|will\s+be)\s+(?:only\s+)?(?:applicable|available|operative|"
    r"in\s+force|valid|effective)\s+(?:only\s+)?(?P<condition>(?:if|when|where|provided)\b"
    r"[^.;:]{3,120})", re.I)
_ONLY_WITHIN = re.compile(
    r"\b(?:in|within)\s+(?:the\s+)?(?P<place>[A-Z][\w]*(?:\s+[A-Z][\w]*){0,2})\s+only\b"
    r"|\bonly\s+(?:in|within)\s+(?:the\s+)?(?P<place2>[A-Z][\w]*(?:\s+[A-Z][\w]*){0,2})",
    re.I)
# "How much notice must be given to stop the agreement from renewing?": the notice period,
# not the renewal's length beside it
# "On what date does the agreement take effect?", "What is the effective date?"
ASKS_EFFECTIVE = re.compile(r"\b(?:effective\s+date|takes?\s+effect|becomes?\s+effective|"
                            r"go(?:es)?\s+into\s+effect)\b", re.IGNORECASE)
# "Who are the parties to this agreement?", "Between whom is the contract made?"
ASKS_PARTIES = re.compile(
    r"\bwho\s+(?:are|were)\s+the\s+(?:contracting\s+)?parties\b|\bbetween\s+whom\b|"
    r"\b(?:which|what)\s+(?:are\s+the\s+)?(?:contracting\s+)?parties\s+(?:to|of|in)\s+"
    r"(?:this|the)\s+(?:agreement|contract)\b|\bwho\s+(?:signed|entered\s+into)\b",
    re.IGNORECASE)
_DOCUMENT = DOCUMENT_NOUN.pattern
# a question about the length of the document's own term: "What is the term of the
# agreement?", "What is the duration of the lease?", "How long does the contract last?"
_ASKS_TERM = re.compile(rf"\bterm\b(?!\s+(?:of\s+)?(?:notice|cover|renewal))|"
                        rf"\bduration\s+of\s+(?:the|this)\s+{_DOCUMENT}\b|"
                        rf"\bhow\s+long\s+(?:does|will|is)\s+(?:the|this)\s+(?:\w+\s+)?{_DOCUMENT}"
                        r"\s+(?:last|run|remain|continue|in\s+force|valid)\b", re.I)
# a question about renewing: "renew", or extending a term ("Can the term be extended by a
# year?"); extending a place or a cover is not renewing ("Can the geographical area be
# extended to neighbouring countries?" was read "Renews; not said to be automatic")
_ASKS_RENEWAL = re.compile(
    r"\brenew\w*|\b(?:extend\w*|extension)\b(?=[^?]*\b(?:term|period|duration|years?|"
    r"months?)\b)|\b(?:term|period|duration|agreement|contract)\b[^?]*\b(?:extend\w*|"
    r"extension)\b", re.I)
# ... not what happens at a renewal ("Can the sum insured be increased at renewal?", "Is
# there a discount for a claim-free renewal?", "the renewal premium"): asked yes or no of
# those, whether the policy renews is no answer
_AT_RENEWAL = re.compile(r"\b(?:at|on|upon|for|during|after|before)\s+(?:the\s+|a\s+|an\s+|"
                         r"each\s+|every\s+|its\s+)?(?:[\w-]+\s+)?renewal\b|"
                         r"\brenewal\s+(?:premium|discount|bonus|date)s?\b", re.I)
_AUTOMATIC = re.compile(r"\bautomatic\w*|\bunless\b[^.;]{0,120}\b(?:notice|notif\w*)\b", re.I)
_BY_CHOICE = re.compile(r"\b(?:mutual\w*|option|may\s+be\s+(?:renewed|extended)|may\s+"
                        r"(?:renew|extend)|(?:upon|by)\s+(?:the\s+)?(?:written\s+)?agreement)\b",
                        re.I)


def attach_verdicts(answer: Answer, asked: str, dates_of: DatesOf | None = None) -> None:
    """A verdict for each document's direct answer, and the answer's own: the lead's, or,
    when several documents answer equally well, theirs if they agree. ``dates_of`` gives a
    document's dates a term counts from (answer/dates.py)."""
    clauses = {e.clause_id: e.text for e in answer.evidence}
    for document in answer.per_document:
        document.verdict = verdict(asked, document, dates_of, clauses.get)
    leads = answer.answering_documents() or ([answer.direct] if answer.direct else [])
    texts = {d.verdict.text for d in leads if d.verdict}
    if not texts:
        answer.verdict = verdict(asked, None) if not leads else None
        return
    labels = {d.verdict.label for d in leads if d.verdict}
    if len(texts) > 1 and len(labels) == 1 and labels <= {"yes", "no"}:
        # "No: 2-year waiting period" and "No: 24-month waiting period": every document
        # answers no, each for its own reason
        said = "Yes" if labels == {"yes"} else "No"
        answer.verdict = Verdict(label=labels.pop(), text=f"{said}: see each document's answer",
                                 basis="the documents answer alike, each on its own terms")
    elif len(texts) > 1:
        answer.verdict = Verdict(label="cannot_tell", text="Depends on the document: see each "
                                 "document's answer", basis="the documents answer differently")
    else:
        answer.verdict = leads[0].verdict if leads else verdict(asked, None)


def stated_answer(answer: Answer) -> str | None:
    """``answer.direct_answer`` as a reader takes it: each answering document's verdict, when
    it states a fact, before the sentence it rests on ("24 months — “24 Months waiting period
    ... 9. Cataract ...”"). A fact the verdict computes (an end date from a start and a term,
    a law read as its jurisdiction) is in no quote: a reader of the direct answer alone
    missed it (CUAD dev values, session 32: the quote states CUAD's answer for 282 of 372,
    quote and verdict for 315). "Cannot tell" adds nothing to the quote and is left out."""
    if answer.direct_quote is None:
        return None
    leads = answer.answering_documents()
    if len(leads) <= 1:
        lead = leads[0] if leads else answer.direct
        return _stated(lead.verdict if lead else answer.verdict, answer.direct_quote)
    return "\n".join(d.named(_stated(d.verdict, d.text)) for d in leads)


def _stated(read: Verdict | None, quote: str) -> str:
    if read is None or read.label == "cannot_tell" or not read.text.strip():
        return quote
    return f"{read.text.strip()} — “{quote}”"


# the verdict's basis when the quote holds no value of the kind the question asks
NO_ASKED_VALUE = "no value of the kind asked in the quote"


def states_no_amount(question: str, direct: DirectAnswer) -> bool:
    """Whether ``question`` asks an amount and ``direct`` quotes none: no figure, no share of
    one, no pointer to where it is stated ("What premium does the employer pay?" answered by
    "In consideration of the payment of additional premium ..."). Such a quote names the
    subject without answering it. Amounts only: a contract states a term in ways no figure
    reader knows ("until the end of the Term"; for durations the same test lowered CUAD dev
    not-found precision 92.0 -> 89.2, docs/policies_bench.md, session 22)."""
    if asked_value_kinds(question)[:1] != ("money",):
        return False
    read = verdict(question, direct)
    return read is not None and read.basis == NO_ASKED_VALUE


def misses_stated_figure(question: str, direct: DirectAnswer) -> bool:
    """Whether ``question`` states a figure ("Which illnesses have a two-year waiting
    period?", "What premium is charged for a 45-year-old?") that the quote neither states
    nor brackets (``text.values.meets_figures``): a 30-day waiting period does not answer
    for the two-year one, and a quote naming no age does not answer for a 45-year-old."""
    stated = stated_figures(question)
    if not stated or not direct.found or not direct.lines:
        return False
    text = " ".join(line.text for line in direct.lines)
    if ASKS_YES_NO.search(question) and _bracket(question, text, "") is not None:
        return False  # "Can a 70-year-old buy it?" of "aged 18 to 65 years": answered No
    return not meets_figures(stated, text)


# "If I bought the policy 6 months ago, can I claim for cataract?": a yes or no asked after
# the condition it is asked on
_ASKS_AFTER_IF = re.compile(r"^\s*if\b[^?]*?,\s*(?:is|are|can|could|will|would|does|do|may|"
                            r"shall|should|must)\b", re.IGNORECASE)


def asks_yes_no(question: str) -> bool:
    """Whether ``question`` asks yes or no, opening with the verb or after a condition."""
    return ASKS_YES_NO.search(question) is not None or \
        _ASKS_AFTER_IF.search(question) is not None


def verdict(question: str, direct: DirectAnswer | None,
            dates_of: DatesOf | None = None,
            clause_text: Callable[[str], str | None] | None = None) -> Verdict | None:
    """The verdict of one document's direct answer to ``question``; None for an open
    question ("What does the licence cover?"), which the quote itself answers.
    ``clause_text`` gives a quoted clause's whole text (the parties a preamble introduces
    are read from all of it, the quote being cut)."""
    if ASKS_PARTIES.search(question):
        return _parties(direct, clause_text)
    limited = _LIMITED.match(question)
    if limited is not None:
        question = f"Is there a limit on {limited.group('subject')}{limited.group('rest')}?"
    kinds = asked_value_kinds(question)
    if not kinds and NAMES_EFFECTIVE.search(question):
        kinds = ("date",)  # "What is the effective date?" asks a date without "when"
    yes_no = asks_yes_no(question)
    if not (yes_no or kinds):
        # a value asked in words the patterns above do not know ("What is the term of the
        # agreement?"): the value kinds of the learned question kind
        kinds = _KIND_VALUES.get(question_kind(question) or "", ())
    if not (yes_no or kinds):
        return None
    if direct is None or not direct.found or not direct.lines:
        return Verdict(label="cannot_tell", text="Cannot tell: the documents do not answer this",
                       basis="no direct answer")
    text = " ".join(line.text for line in direct.lines)
    clause_id = (direct.answering_line() or direct.lines[0]).clause_id
    if yes_no:
        text = _without_unquoted_refusals(direct) or text
        # what renews is read from the quote's statements, not from a title over them or
        # at their head ("5. Renewal Benefits:" over a cumulative bonus)
        stated = " ".join(_LEADING_TITLE.sub("", line.text) for line in direct.lines
                          if not line.heads) or text
        renewal = _renewal(stated, clause_id) if _ASKS_RENEWAL.search(question) \
            and not _AT_RENEWAL.search(question) else None
        # the quoted rows of a table, each read on its own for what its cells say
        rows = [line.text for line in direct.lines
                if not line.heads and CELL_SEPARATOR in line.text]
        # the answering clause whole: a right the quote gives one side may be given to the
        # other further on ("The Policyholder may cancel ..." / "The Company may cancel ...")
        whole = clause_text(clause_id) if clause_text else None
        answer = renewal or _yes_no(question, text, clause_id, _read_under_exclusion(direct),
                                    _reviewed_type(direct, clause_id), rows,
                                    _read_under_grant(direct), whole)
        if answer.text == _NEITHER and kinds:
            # "Can the insured cancel, and what refund is given?": the value asked second
            # is an answer where the yes or no is not said in so many words
            value = _value(text, kinds, clause_id, question)
            if value.label == "value":
                return value
        return answer
    if kinds == ("jurisdiction",):
        from clausegraph.review.jurisdiction import governing_jurisdiction

        place = governing_jurisdiction(text)
        return Verdict(label="value", text=place, value=place, clause_id=clause_id,
                       basis="the law the quoted clause names") if place else Verdict(
            label="cannot_tell", text="Cannot tell: the quote names no law",
            clause_id=clause_id, basis="no jurisdiction in the quote")
    if "date" in kinds and ASKS_DATE.search(question) and ASKS_END.search(question):
        starts = dates_of(direct.doc_id) if dates_of and direct.doc_id else {}
        end = term_end(text, starts)
        if end is None:  # the quote's dates are when things start, not when the term ends
            return _event_end(text, clause_id) or Verdict(
                label="cannot_tell", text="Cannot tell: the quote states no end",
                clause_id=clause_id, basis="no end date, length, event or open-ended term "
                "in the quote")
        return _term_verdict(end, clause_id, getattr(starts, "where", {}))
    if kinds[0] == "date" and dates_of and direct.doc_id and ASKS_EFFECTIVE.search(question):
        defined = _defined_effective(text, clause_id, dates_of(direct.doc_id))
        if defined is not None:
            return defined
    if kinds[0] == "date" and dates_of and direct.doc_id and \
            not any(v.kind == "date" for v in extract_values(text)):
        # "effective as of the date first written above": the date it names, stated elsewhere
        starts = dates_of(direct.doc_id)
        named = date_by_name(text, starts)
        if named is not None:
            where = getattr(starts, "where", {})
            cited = f", {where[named[1]]}" if named[1] in where else ""
            return Verdict(label="value", text=f"{_long_date(named[0])} (the {named[1]}{cited})",
                           value=named[0], clause_id=clause_id,
                           basis=f"the quote names the document's {named[1]}, stated in "
                           "another clause")
    if "duration" in kinds and _ASKS_TERM.search(question) \
            and not (ASKS_NOTICE.search(question) or _ASKS_RENEWAL.search(question)):
        # "What is the term of the agreement?": the term's own length, not a renewal's or a
        # notice period the same sentence states ("five (5) years ... renew for two (2) year
        # terms ... ninety (90) days' notice")
        length = term_length(text)
        if length is None:
            # a term stated by its end ("... and terminate on December 31, 2022"), by an open
            # end ("shall commence on 26 September 2019 and shall continue unless and until
            # either party gives notice": perpetual, not "Until 26 September 2019") or by
            # where it is stated ("valid for the term specified in the policy")
            starts = dates_of(direct.doc_id) if dates_of and direct.doc_id else {}
            ended = term_end(text, starts)
            if ended is not None and ended.perpetual and not ended.end:
                return _term_verdict(ended, clause_id, getattr(starts, "where", {}))
            end = _value(text, ("date",), clause_id, question)
            if end.label == "value" and end.basis.startswith("the date"):
                # the first date that starts nothing ("commences on January 1, 2020 and
                # expires on December 31, 2022"); none: the quote only says when it starts
                last = next((v for v in extract_values(text)
                             if v.kind == "date" and not starts_on(text, v)), None)
                if last is None:
                    return _starts_not_length(clause_id)
                return end.model_copy(update={"text": f"Until {display(last)}",
                                              "value": last.text})
            if end.label == "value":
                return end
            return Verdict(label="cannot_tell", text="Cannot tell: the quote states no length "
                           "of the term", clause_id=clause_id,
                           basis="no duration in the quote other than a notice or a renewal")
        return Verdict(label="value", text=format_length(*length), value=format_length(*length),
                       clause_id=clause_id, basis="the length of the term the quoted clause "
                       "states")
    if "duration" in kinds and (ASKS_NOTICE.search(question) or
                                _ASKS_RENEWAL.search(question)):
        notice = ASKS_NOTICE.search(question) is not None
        length = notice_period(text) if notice else renewal_length(text)
        if length is not None:
            what = "notice period" if notice else "length of a renewal"
            return Verdict(label="value", text=format_length(*length),
                           value=format_length(*length),
                           clause_id=clause_id, basis=f"the {what} the quoted clause states")
    # where each quoted line after the first starts in ``text`` (joined by one space)
    starts = tuple(accumulate(len(line.text) + 1 for line in direct.lines[:-1]))
    found = _value(text, kinds, clause_id, question, starts)
    if found.label == "cannot_tell" and question_kind(question) == "method":
        return None  # "How is the refund worked out?": the quote states how, not a figure
    return found


def _parties(direct: DirectAnswer | None,
             clause_text: Callable[[str], str | None] | None) -> Verdict | None:
    """The parties the answering clause introduces, with their defined names
    (review/parties.py); None when it introduces fewer than two (the quote answers)."""
    from clausegraph.review.parties import parties_answer

    line = direct.answering_line() if direct is not None and direct.found else None
    if line is None:
        return None
    text = (clause_text(line.clause_id) if clause_text else None) or \
        " ".join(other.text for other in direct.lines)
    names = parties_answer([text])
    if names is None:
        return None
    return Verdict(label="value", text=names, value=names, clause_id=line.clause_id,
                   basis="the parties the quoted clause introduces")


def _defined_effective(text: str, clause_id: str,
                       starts: Mapping[str, str | None]) -> Verdict | None:
    """The date the document defines as its Effective Date ("shall commence as of April 1,
    2018 (the "Effective Date")"), when the quote states another or none (a preamble's date
    of signing); None when the document defines none or the quote states it."""
    defined = getattr(starts, "defined", {}).get(EFFECTIVE_DATE)
    if not defined or any(v.iso == defined for v in extract_values(text) if v.kind == "date"):
        return None
    where = getattr(starts, "defined_where", {}).get(EFFECTIVE_DATE)
    cited = f", {where}" if where else ""
    return Verdict(label="value", text=f"{_long_date(defined)} (the Effective Date{cited})",
                   value=defined, clause_id=clause_id,
                   basis="the date the document defines as its Effective Date")


def _renewal(text: str, clause_id: str) -> Verdict | None:
    """"Does the agreement renew automatically, and for how long?": "Yes: renews
    automatically for 1 year at a time", "Only by option or agreement: 3 years"; None when
    the quote says nothing of renewing."""
    if not RENEWS.search(text):
        return None
    length = renewal_length(text)
    shown = format_length(*length) if length else None
    if _BY_CHOICE.search(text):
        return Verdict(label="conditional", text="Only by option or agreement" +
                       (f": {shown} at a time" if shown else ""), value=shown,
                       clause_id=clause_id, basis="the quoted clause renews it only by choice")
    if _AUTOMATIC.search(text):
        return Verdict(label="yes", text="Yes: renews automatically" +
                       (f" for {shown} at a time" if shown else ""), value=shown,
                       clause_id=clause_id, basis="the quoted clause renews it unless stopped")
    return Verdict(label="cannot_tell", text="Renews" + (f" for {shown} at a time" if shown
                                                          else "") + "; not said to be automatic",
                   value=shown, clause_id=clause_id,
                   basis="the quoted clause renews it without saying how")


def _event_end(text: str, clause_id: str) -> Verdict | None:
    """"Until the end of the calendar month he or she turns 26 years of age": an end the
    quote ties to an event rather than to a date; None when it names none."""
    event = event_end(text)
    return None if event is None else Verdict(
        label="value", text=f"Until {event}", value=event, clause_id=clause_id,
        basis="the event the quoted clause ends it with")


def _term_verdict(end: TermEnd, clause_id: str, where: Mapping[str, str]) -> Verdict:
    """"Ends on 2 November 2015: 3 years from the Effective Date (2 November 2012,
    preamble¶1)"; ``where`` names the clause each document date was read from."""
    if end.perpetual:
        return Verdict(label="value", text="No fixed end (perpetual): it runs until terminated",
                       value="perpetual", clause_id=clause_id,
                       basis="the quoted clause sets a term without an end")
    if end.end is None:  # a length from a date the document does not state
        since = f"the {end.start_name} (a date the documents do not state)" \
            if end.start_name else "a start the quote does not date"
        return Verdict(label="value",
                       text=f"{format_length(*(end.length or (0.0, 'day')))} from {since}",
                       clause_id=clause_id,
                       basis="the term's length, from a date not found in the document")
    shown = f"Ends on {_long_date(end.end)}"
    if end.latest:
        basis = "the latest date the quoted clause states that is not its start"
    elif end.length is None:
        basis = "the end date the quoted clause states"
    else:
        length = format_length(*end.length)
        cited = f", {where[end.start_name]}" if end.start_name in where else ""
        counted = f"the {end.start_name} ({_long_date(end.start)}{cited})" \
            if end.start_name else _long_date(end.start)
        shown += f": {length} from {counted}"
        basis = ("the term's length counted from the document's " + end.start_name
                 if end.start_name else "the term's length counted from its stated start")
    return Verdict(label="value", text=shown, value=end.end, clause_id=clause_id, basis=basis)


def _long_date(iso: str | None) -> str:
    """2015-11-02 -> "2 November 2015", 2023-02 -> "February 2023"."""
    parts = (iso or "").split("-")
    try:
        if len(parts) == 2:
            return f"{calendar.month_name[int(parts[1])]} {parts[0]}"
        day = date.fromisoformat(iso or "")
    except (ValueError, IndexError):
        return iso or ""
    return f"{day.day} {calendar.month_name[day.month]} {day.year}"


def names_subject(question: str, text: str, every: bool = False, specific: bool = False) -> bool:
    """Whether the quote names what the question is about: a word of the question left
    when the words that only ask (the auxiliary, "covered", "how long", "in the first two
    years", the kind of value) are taken out, or a word of its family (the same first
    FAMILY_PREFIX letters: "warranty" / "warrants"); with ``every``, each such word; with
    ``specific``, only words other than ``_GENERIC_SUBJECTS`` where the question has any."""
    wanted = _subject_words(question)
    if not wanted:
        return True
    if specific:
        wanted = [t for t in wanted if t[:FAMILY_PREFIX] not in _GENERIC_SUBJECTS] or wanted
    # a common word the question writes in lower case is not named by an acronym the quote
    # writes only in capitals ("hearing aids" / "HIV/ AIDS Cover")
    acronyms = _acronyms(text) - {word.lower() for word in _WORD.findall(question)
                                  if word.isupper()}
    quoted = {t[:FAMILY_PREFIX] for t in tokenize(" ".join(
        word for word in _WORD.findall(text) if word.lower() not in acronyms))}
    named = (t[:FAMILY_PREFIX] in quoted for t in wanted)
    return all(named) if every else any(named)


def _acronyms(text: str) -> set[str]:
    """The words ``text`` writes only as short capitals inside lines written mostly in
    lower case ("AIDS" of "HIV/ AIDS Cover The Company shall indemnify ..."), lower-cased; a
    line set in capitals ("EACH PARTY'S LIABILITY ... SHALL NOT EXCEED") holds none."""
    found: set[str] = set()
    for line in text.splitlines() or [text]:
        words = _WORD.findall(line)
        if 2 * sum(word.isupper() for word in words) < len(words):
            found.update(word.lower() for word in _ACRONYM.findall(line))
    return found - {word.lower() for word in _WORD.findall(text) if not word.isupper()}


def _subject_words(question: str) -> list[str]:
    """The words of the question left when the words that only ask are taken out."""
    asking = [ASKS_YES_NO, _ASKS_COVER, _WAIT, FIRST_WINDOW, _PERMISSION, _EXISTS,
              *(pattern for pattern, _ in _ASKS_VALUE)]
    subject = question
    asked = asked_time(subject, ending=False)
    if asked is not None:  # "within 12 months of buying the policy" names no subject
        subject = subject[:asked.span[0]] + " " + subject[asked.span[1]:]
    for pattern in asking:
        subject = pattern.sub(" ", subject)
    return [t for t in content_tokens(subject) if not t.isdigit() and t not in _PARTICLES]


# the particle of a compound ("check-up", "top-up", "follow-up", "write-off"): a quote's
# "covered up to" does not name a health check-up
_PARTICLES = frozenset({"up", "off", "down", "out"})
# a question for a limit's upper or lower end ("What is the maximum age to buy the
# policy?", "What is the minimum entry age?")
_ASKS_UPPER = re.compile(r"\b(?:maximum|max|highest|oldest|upper|at\s+most|up\s+to\s+what)\b",
                         re.IGNORECASE)
_ASKS_LOWER = re.compile(r"\b(?:minimum|min|lowest|youngest|at\s+least)\b", re.IGNORECASE)


def _asked_end(found: list[Value], text: str, question: str | None) -> Value | None:
    """Of the values the quote states (of the kinds asked: "3 months" is read as an age
    after "the age of", "65 years" as a duration after "not older than"), the one that
    bounds what is asked on the side the question asks for ("not older than 65 years" for
    the maximum age of "an Insured ... has attained the age of 3 months and is not older
    than 65 years"), when the quote sets exactly one; else None."""
    if not question or len(found) < 2:
        return None
    upper, lower = _ASKS_UPPER.search(question), _ASKS_LOWER.search(question)
    if bool(upper) == bool(lower):
        return None
    side = "below" if upper else "above"
    bounded = [v for v in found if bound_side(text, v) == side]
    return bounded[0] if len(bounded) == 1 else None


def _nearest_subject(found: list[Value], text: str, question: str | None) -> Value | None:
    """Of the values the quote states, the one a word of the question's subject most
    closely precedes, within ``_SUBJECT_REACH`` characters ("What limit applies to ICU
    charges?" / "Room - Up to 1% of SI ... ICU - Up to 2% of SI" -> 2%), or follows as
    what it is stated for ("$500 / individual"); None when no word of the subject decides."""
    # a short word names little ("out" of "out-of-pocket" is in "out-of-network" too); an
    # acronym does ("ICU", "OPD")
    wanted = _wanted_words(question)

    def names(word: str) -> bool:
        return (tokenize(word) or [""])[0][:FAMILY_PREFIX] in wanted

    stated_for = _stated_for_subject(found, text, wanted)
    if stated_for is not None:
        return stated_for
    places = [m.end() for m in _WORD.finditer(text) if names(m.group())] if wanted else []
    reach = [(min((v.start - p for p in places if 0 <= v.start - p <= _SUBJECT_REACH),
                  default=None), i) for i, v in enumerate(found)]
    near = sorted((gap, i) for gap, i in reach if gap is not None)
    if not near or (len(near) > 1 and near[1][0] == near[0][0]
                    and found[near[1][1]].text != found[near[0][1]].text):
        return None  # no word, or the same words the same way before each ("Co-payment of")
    return found[near[0][1]]


def _age_of_another(value: Value, text: str, question: str | None) -> bool:
    """Whether ``question`` names the person it asks the age of ("the insured", "a
    dependent child") and the person named nearest before the age ``value`` in ``text``
    (within ``_PERSON_REACH`` characters) is another ("children" before "aged below 17
    years")."""
    asked = {m.group().lower()[:FAMILY_PREFIX] for m in _PERSON.finditer(question or "")}
    if not asked:
        return False
    before = list(_PERSON.finditer(text, max(0, value.start - _PERSON_REACH), value.start))
    return bool(before) and before[-1].group().lower()[:FAMILY_PREFIX] not in asked


def _wanted_words(question: str | None) -> set[str]:
    """The word families of the question's subject a value may be stated for: a short word
    names little ("out" of "out-of-pocket" is in "out-of-network" too); an acronym does
    ("ICU", "OPD")."""
    if not question:
        return set()
    acronyms = {a.lower() for a in _ACRONYM.findall(question)}
    return {t[:FAMILY_PREFIX] for t in _subject_words(question) if len(t) > 3 or t in acronyms}


def _stated_for_subject(found: list[Value], text: str, wanted: set[str]) -> Value | None:
    """The first of ``found`` stated for a word of the question's subject (``wanted``,
    from :func:`_wanted_words`), the word right after it: "$500 / individual or $1,000 /
    family", "$100/day copay | ... 40% coinsurance" (of "What is the coinsurance ...?")."""
    for value in found if wanted else ():
        after = _STATED_FOR.match(text, value.end)
        if after is not None and (tokenize(after.group("word")) or [""])[0][:FAMILY_PREFIX] \
                in wanted:
            return value
    return None


def _sentence_of(value: Value, sentences: list[Span], line_starts: tuple[int, ...]) -> Span:
    """The sentence ``value`` is stated in, within its quoted line (the quote's lines are
    joined by a space: a line's end ends its sentence)."""
    start, end = next(((a, b) for a, b in sentences if a <= value.start < b),
                      (0, value.end))
    before = [s for s in line_starts if s <= value.start]
    after = [s for s in line_starts if s > value.start]
    return max(start, *before) if before else start, min(end, *after) if after else end


def _by_sentence(found: list[Value], text: str, question: str | None,
                 unit: Callable[[Value], Span]) -> Value | None:
    """The value whose sentence holds more of the question's words than the sentence of
    any other ("For how many days before admission ...?": "... thirty days immediately
    before the insured person is hospitalised", not "... sixty days after discharge");
    None when no one sentence does."""
    if not question:
        return None
    # every word of the question: "before" and "after" tell the sentences apart here
    asked = {t[:FAMILY_PREFIX] for t in tokenize(question)}
    spans = {unit(v): v for v in reversed(found)}
    if len(spans) < 2:
        return None

    def overlap(span: Span) -> int:
        return len(asked & {t[:FAMILY_PREFIX] for t in tokenize(text[span[0]:span[1]])})
    ranked = sorted(spans, key=overlap, reverse=True)
    return spans[ranked[0]] if overlap(ranked[0]) > overlap(ranked[1]) else None


def _by_condition(found: list[Value], unit: Callable[[Value], Span]) -> str | None:
    """"15% or 5% (each on its condition, quoted)" when the quote's sentences state
    different figures of the kind asked and no word of the question says which: "Co-payment
    of 15% ... aged greater than 75 years" / "Co-payment of 5% ... aged 75 years or less".
    None when one sentence states them all (a limit and its cap: "Rs. 5,000 per day up to
    Rs. 50,000") or they are the same figure."""
    shown = list(dict.fromkeys(display(v) for v in found))
    if len(shown) < 2 or len(shown) > 3 or len({unit(v) for v in found}) < 2:
        return None
    return f"{' or '.join(shown)} (each on its condition, quoted)"


# the value kinds each learned question kind asks for, best first (answer/kinds.py)
_KIND_VALUES = {"duration": ("duration", "date"), "amount": ("money", "percent"),
                "count": ("number", "measure")}


def asked_value_kinds(question: str) -> tuple[str, ...]:
    """The value kinds a question asks for, best first (empty: it asks for none, as when it
    asks what a figure includes or leaves out)."""
    if asks_contents(question):
        return ()
    for pattern, kinds in _ASKS_VALUE:
        if pattern.search(question):
            return kinds
    return ()


def _value(text: str, kinds: tuple[str, ...], clause_id: str,
           question: str | None = None, line_starts: tuple[int, ...] = ()) -> Verdict:
    # the figures of a worked example ("For e.g. If Policy Premium ... is Rs. 10000") are
    # not the document's: values are read before it
    example = _worked_example(text)
    values = extract_values(text[:example.start()] if example else text)
    # the column the question names ("out of network") holds the figure asked, when it
    # holds one of an asked kind
    cell = _asked_cell(text, question) if question else None
    inside = [v for v in values if cell and cell[0] <= v.start and v.end <= cell[1]]
    read = inside if any(v.kind in kinds for v in inside) else values
    # an age stated of another person than the one asked about ("age limit for the insured"
    # of "the Insured Person's minor children aged below 17 years") is not the age asked
    others = [v for v in read if v.kind == "age" and _age_of_another(v, text, question)]
    read = [v for v in read if v not in others]
    if others and not any(v.kind in kinds for v in read):
        return Verdict(label="cannot_tell", text="Cannot tell: the quote states the age of "
                       "another person", clause_id=clause_id,
                       basis="the quote's ages are of persons the question does not ask about")
    sentences: list[Span] = []

    def unit(value: Value) -> Span:  # split only when no word of the subject decides
        if not sentences:
            sentences.extend(split_sentences(text))
        return _sentence_of(value, sentences, line_starts)
    end = _asked_end([v for v in read if v.kind in kinds], text, question)
    if end is not None:
        return Verdict(label="value", text=display(end), value=end.text, clause_id=clause_id,
                       basis=f"the {end.kind} the quoted clause sets as the end asked")
    # asked two kinds ("coinsurance": an amount or a share), the value stated for the word
    # asked ("40% coinsurance") is read before the first kind's other figures ("$100 copay")
    labelled = _stated_for_subject([v for v in read if v.kind in kinds], text,
                                   _wanted_words(question)) \
        if len(kinds) > 1 else None
    if labelled is not None:
        return Verdict(label="value", text=display(labelled), value=labelled.text,
                       clause_id=clause_id, basis=f"the {labelled.kind} the quoted clause "
                       "states for what is asked")
    for kind in kinds:
        found = [v for v in read if v.kind == kind]
        if found:
            value = _nearest_subject(found, text, question) or \
                _by_sentence(found, text, question, unit)
            if value is None and kind in _PROVISION_FIGURES:
                # figures of a provision on conditions; a date asked is one date, the first
                several = _by_condition(found, unit)
                if several is not None:
                    return Verdict(label="value", text=several, value=several,
                                   clause_id=clause_id, basis=f"the {kind}s the quoted "
                                   "sentences state, each on its own condition")
            if value is None:
                value = found[0]
            # "How long is the term?" answered by its end: "until December 31, 2022" (not by
            # the day it starts: "entered into on October 1, 2019")
            if kind == "date" and kinds[0] == "duration" and starts_on(text, value):
                return _starts_not_length(clause_id)
            shown = f"Until {display(value)}" if kind == "date" and kinds[0] == "duration" \
                else _alternatives(text, value, values) or display(value)
            return Verdict(label="value", text=shown, value=value.text, clause_id=clause_id,
                           basis=f"the {kind} the quoted clause states")
    share = PROPORTIONAL.search(text) if kinds[0] == "money" else None
    if share is not None:
        # "refund proportionate premium for unexpired policy period": the amount is a share
        shown = _phrase(text, share.start())
        return Verdict(label="value", text=shown[0].upper() + shown[1:], value=shown,
                       clause_id=clause_id, basis="the share of an amount the quoted clause "
                       "states, in place of a figure")
    needed = WHILE_NEEDED.search(text) if kinds[0] == "duration" else None
    if needed is not None:
        # "We will only keep your personal information for the shortest time required for
        # the purposes ...": a period stated by what it serves
        stop = _PHRASE_END.search(text, needed.end())
        shown = " ".join(text[needed.start():stop.start() if stop else len(text)].split()[:16])
        return Verdict(label="value", text=shown[0].upper() + shown[1:], value=shown,
                       clause_id=clause_id, basis="the period the quoted clause states by "
                       "what it serves, in place of a figure")
    if kinds[0] == "money" and NIL.search(text):
        # "For all parts made of glass - Nil": an amount of nothing
        return Verdict(label="value", text="Nil", value="Nil", clause_id=clause_id,
                       basis="the quoted clause states a nil amount or rate")
    pointer = DEFERRED.search(text)
    if pointer is not None:
        # "up to the limits as specified in the Policy Schedule": the wording gives the figure
        # by pointing to where it is stated
        target = " ".join(pointer.group("target").split())
        target = target[0].upper() + target[1:]
        return Verdict(label="value", text=f"As stated in the {target}", value=target,
                       clause_id=clause_id, basis="the quote points to where the figure is "
                       "stated")
    return Verdict(label="cannot_tell", text=f"Cannot tell: the quote states no {kinds[0]}",
                   clause_id=clause_id, basis=NO_ASKED_VALUE)


# "25% of Sum Insured or INR 40,000 per eye, whichever is lower": neither figure alone is
# the limit
_WHICHEVER = re.compile(r",?\s*whichever\s+is\s+(?:the\s+)?(?:lower|less|lesser|least|lowest|"
                        r"higher|greater|more|most|highest|earlier|earliest|later|latest)\b", re.I)
# "2% of the sum insured subject to a maximum of Rs. 5,000 per day": a share capped by an
# amount; the cap and what it is counted per are read with it
_CAPPED_BY = re.compile(r",?\s*(?:subject\s+to|up\s+to)\s+(?:a\s+)?(?:maximum|max\.?|ceiling|"
                        r"cap)\s+(?:of\s+)?$", re.I)
_PER_AFTER = re.compile(r"\s*(?:/-)?\s*(?:-\s*)?per\s+(?:each\s+)?[A-Za-z]+", re.I)
_ALTERNATIVE_REACH = 120


def _capped(text: str, value: Value, values: list[Value]) -> str | None:
    """A share and the amount that caps it, when ``value`` is either: "2% of the sum insured
    subject to maximum of Rs. 5,000/- per day" (the verdict "Rs. 5,000/-" alone drops the
    share that applies below the cap)."""
    figures = [v for v in values if v.kind in _PROVISION_FIGURES]
    for share, cap in pairwise(figures):
        if value not in (share, cap) or cap.start - share.end > _ALTERNATIVE_REACH:
            continue
        between = text[share.end:cap.start]
        if _CAPPED_BY.search(between) and not re.search(r";|\.\s+[A-Z(]", between):
            per = _PER_AFTER.match(text, cap.end)
            return " ".join(text[share.start:per.end() if per else cap.end].split())
    return None


def _alternatives(text: str, value: Value, values: list[Value]) -> str | None:
    """The figures a limit is the lower (or higher) of, as the quote states them, when
    ``value`` is one of them: "25% of Sum Insured or INR 40,000 per eye, whichever is lower"
    (the verdict "INR 40,000" alone would drop the other half of the limit)."""
    capped = _capped(text, value, values)
    if capped is not None:
        return capped
    rule = _WHICHEVER.search(text, value.end, value.end + _ALTERNATIVE_REACH)
    if rule is None:
        return None
    # the figures of this rule only: after the rule before it ("Room - Up to 1% of SI or
    # actual, whichever is lower ICU - Up to 2% ...")
    since = max((m.end() for m in _WHICHEVER.finditer(text, 0, value.start)), default=0)
    figures = [v for v in values if v.kind in _PROVISION_FIGURES and v.start >= since
               and rule.start() - _ALTERNATIVE_REACH <= v.start < rule.start()]
    first = min(figures, key=lambda v: v.start, default=value)
    between = text[first.start:rule.start()]
    if len(figures) < 2 or value not in figures or re.search(r"\bor\b", between) is None \
            or re.search(r";|\.\s+[A-Z(]", between):
        return None
    return " ".join(text[first.start:rule.end()].split())


_CELL = re.compile(rf"(?:^|(?<={re.escape(CELL_SEPARATOR)}))(?P<header>[^|:\n]{{2,120}}?):\s"
                   rf"(?P<value>[^|\n]*?)(?={re.escape(CELL_SEPARATOR)}|\s*$)", re.M)


def _asked_cell(text: str, question: str) -> Span | None:
    """Where the value of the column a question names is, in a table row rendered "label |
    Header: value | Header: value": the cell whose header holds the most words of the
    question ("How much for a specialist visit out of network?" -> "Out-of-Network
    Provider: 40% coinsurance", not "Network Provider: $50 copay"); None when the text is
    no such row or no one header names more of the question than every other."""
    if CELL_SEPARATOR not in text:
        return None
    asked = {t[:FAMILY_PREFIX] for t in tokenize(question)}

    def named(header: str) -> tuple[int, int]:
        # the words of the question it holds, then the fewest others: "Network Provider"
        # for "in network", where "Out-of-Network Provider" holds "out" too
        words = {t[:FAMILY_PREFIX] for t in tokenize(header)}
        return len(asked & words), -len(words - asked)
    cells = sorted(((named(m.group("header")), m.span("value")) for m in _CELL.finditer(text)),
                   reverse=True)
    if len(cells) < 2 or cells[0][0][0] == 0 or cells[0][0] == cells[1][0]:
        return None
    return cells[0][1]


# (a comma or stop between digits is part of a number: "INR 30,000", "2.5%")
_PHRASE_END = re.compile(r"(?<!\d)[,.]|[,.](?!\d)|[;:()\n]|"
                         r"\s(?:and|or|if|which|where|subject|provided|shall|will|is|are)\b",
                         re.I)


def _worked_example(text: str) -> re.Match[str] | None:
    """Where a worked example of the document's figures starts ("For e.g. If Policy Premium
    ... is Rs. 10000"): the first example cue that is not an aside in brackets naming kinds
    of a thing ("Facility fee (e.g., ambulatory surgery center) | ... $100/day copay": the
    figures after it are the row's own)."""
    for match in _EXAMPLE.finditer(text):
        close = text.find(")", match.end())
        opened = text.rfind("(", 0, match.start())
        aside = opened >= 0 and text.rfind(")", opened, match.start()) < 0 and close >= 0 \
            and not any(char.isdigit() for char in text[match.end():close])
        if not aside:
            return match
    return None


def _phrase(text: str, start: int, words: int = 8) -> str:
    """The words of ``text`` from ``start`` to the end of its phrase (a comma, a stop, a
    bracket or the verb or conjunction that goes on), at most ``words`` of them."""
    end = _PHRASE_END.search(text, start)
    kept = text[start:end.start() if end else len(text)].split()[:words]
    while len(kept) > 1 and kept[-1].lower() in CONNECTORS:  # "... for the unexpired period in"
        kept.pop()
    return " ".join(kept)


def _without_unquoted_refusals(direct: DirectAnswer) -> str:
    """The quote's lines without a lead-in quoted after the answer that refuses a list not
    quoted ("Subject however to the condition that Domiciliary Hospitalisation benefit shall
    not cover" below the grant of domiciliary hospitalisation, its items left out): it
    refuses those items, not what the answer grants. Above a quoted item (a title line),
    it refuses the item and stays."""
    answering = direct.answering_line()
    return " ".join(line.text for line in direct.lines
                    if line.heads or line is answering
                    or REFUSES_ITEMS.search(line.text.rstrip()) is None)


def _read_under_exclusion(direct: DirectAnswer) -> bool:
    """Whether the answer quotes, above its sentence, a heading that excludes it ("GENERAL
    EXCLUSIONS" over "xv. Maternity: Medical treatment expenses traceable to childbirth"):
    the item refuses cover by the list it is in, not by a verb of its own."""
    # ("Limitations" limits cover, it does not refuse it: not REFUSING_HEADING); a promise
    # quoted above the item ("We will pay ... as mentioned in Annexure III subject to the
    # ... exclusions contained ... in this Policy") names exclusions without refusing it
    return any(line.heads and REFUSING_HEADING.search(line.text)
               and not (AFFIRMS_COVER.search(line.text) and not refuses_cover(line.text))
               for line in direct.lines)


def _read_under_grant(direct: DirectAnswer) -> bool:
    """Whether the answer quotes, above its sentence, a title that lists what is covered
    ("Other Covered Services" over "• Bariatric surgery") and none that refuses."""
    heads = [line.text for line in direct.lines if line.heads]
    return any(GRANTING_TITLE.search(text) for text in heads) and \
        not any(REFUSING_HEADING.search(text) for text in heads)


def _reviewed_type(direct: DirectAnswer, clause_id: str) -> str | None:
    """The CUAD clause type the question asks about when the contract review finds it in
    the document and reads the quoted clause as that type ("Is there an anti-assignment
    clause?" of "This Agreement may not be assigned without ... consent"), else None."""
    check = direct.type_check
    if check is None or check.present is not True:
        return None
    return check.category if clause_id in (check.clause_id, check.lead_clause_id) else None


def _reviewed_yes(category: str, clause_id: str) -> Verdict:
    return Verdict(label="yes", text=f"Yes: {category} clause (quoted)", clause_id=clause_id,
                   basis=f"the contract review reads the quoted clause as {category}")


def _yes_no(question: str, text: str, clause_id: str, excluded: bool = False,
            reviewed: str | None = None, rows: Sequence[str] = (),
            granted: bool = False, whole: str | None = None) -> Verdict:
    stated = _STATED_ANSWER.search(text)
    if stated is not None:
        answer = stated.group("answer").capitalize()
        return Verdict(label=answer.lower(), text=answer, clause_id=clause_id,
                       basis="the document states the answer to the question it restates")
    bracket = _bracket(question, text, clause_id)
    if bracket is not None:
        return bracket
    if ASKS_EXCLUSION.search(question):
        return _exclusion(question, text, clause_id, excluded, rows, granted)
    if _ASKS_COVER.search(question) and not _claims_not_asked(question):
        return _cover(question, text, clause_id, excluded, rows, granted)
    if _PERMISSION.search(question):
        other = _right_of_other_side(question, text, whole)
        if other is not None:
            return Verdict(label="cannot_tell", text=f"Cannot tell: the quote gives that right "
                           f"to the {other}", clause_id=clause_id,
                           basis="the quote allows it to the other side than the one asked of")
        if _FORBIDS.search(text):
            if _CONDITION.search(text[_FORBIDS.search(text).end():]):
                return Verdict(label="conditional", text="Only on conditions (quoted below)",
                               clause_id=clause_id,
                               basis="the clause forbids it except on a condition")
            return Verdict(label="no", text="No", clause_id=clause_id,
                           basis="the clause forbids it")
        if _ALLOWS.search(text):
            return Verdict(label="yes", text="Yes", clause_id=clause_id,
                           basis="the clause allows it")
    if _ASKS_CONTINUE.search(question) and CONTINUES_COVER.search(text):
        return Verdict(label="yes", text="Yes", clause_id=clause_id,
                       basis="the clause says cover goes on")
    if _EXISTS.search(question):
        # the quote's words as written and with hyphenated words joined ("co-payment")
        # "Is there a waiting period for maternity benefits?" is not answered by "Benefits
        # will not be available for Pre-Existing Diseases until 48 months ..."
        if not names_subject(_joined(question), f"{text} {_joined(text)}", specific=True) \
                or not _names_provision(question, text):
            if reviewed is not None:
                # a clause type is seldom named by its own name: the review reads the
                # quoted clause as the type asked (the clause-type model, fitted on CUAD)
                return _reviewed_yes(reviewed, clause_id)
            # "Is there a co-payment on claims?" of a clause on interest for a late payment
            return Verdict(label="cannot_tell",
                           text="Cannot tell: the quote does not name what is asked about",
                           clause_id=clause_id,
                           basis="no word of the question's subject in the quote")
        # "Is there a co-payment?" / "... 50% co-payment ...": the provision's own figure
        # is what an analyst reads next ("Yes: 50%")
        # "Is there a cap on liability?" is not answered "Yes: 10 days" by the notice period
        # the quote states first: the figure is of the kind asked, when a kind is asked
        kind = question_kind(question)
        example = _worked_example(text)
        figure = next((v for v in extract_values(text[:example.start()] if example else text)
                       if v.kind in _PROVISION_FIGURES
                       and (kind not in VALUE_QUESTION_KINDS or value_answers(kind, v))), None)
        return Verdict(label="yes", text=f"Yes: {display(figure)}" if figure else "Yes",
                       value=figure.text if figure else None, clause_id=clause_id,
                       basis="the document has a clause that provides for it")
    if reviewed is not None:
        # "Are the licenses granted non-transferable?" of "grants ... a non-transferable
        # license": the review reads the quoted clause as the type the question asks of
        return _reviewed_yes(reviewed, clause_id)
    return Verdict(label="cannot_tell", text=_NEITHER, clause_id=clause_id,
                   basis="the quote neither allows nor forbids what is asked in so many words")


# a quote that grants cover or entry to those its range holds ("can be availed by persons
# between ...", "Children aged between 91 days and 25 years can be covered", "Entry age ...
# should be between 3 months to 90 years"), beside the insurer's promise (AFFIRMS_COVER)
_GRANTS_ENTRY = re.compile(r"\b(?:can|may|shall|will)\s+(?:be\s+)?(?:availed|covered|insured|"
                           r"enrolled|accepted|included|enrol|join|apply)\b|\beligib\w*|"
                           r"\bentry\s+age\b|\bage\s+(?:at|of)\s+entry\b", re.IGNORECASE)
# ... or refuses it ("Persons aged above 80 years are not eligible", "shall not be
# insured"; "not covered" is refuses_cover's)
_REFUSES_ENTRY = re.compile(r"\b(?:not|in)\s*eligible\b|\bnot\s+(?:be\s+)?(?:insured|accepted|"
                            r"enrolled)\b", re.IGNORECASE)
# where a question names its document ("under the group domestic travel policy"): its kind
# ("travel") is not what is asked of the figure
_NAMES_DOCUMENT = re.compile(rf"\b(?:under|in|of|for|by|to)\s+(?:the|this|my|our|your|a|an)\s+"
                             rf"(?:[\w'’-]+\s+){{0,6}}?{_DOCUMENT}\b", re.IGNORECASE)
# the words a stated age or period is written with, besides its number ("aged 2", "a
# 70-year-old", "age of 3 months"), and the words for anyone it may describe ("a person
# aged 85"): no subject of the question
_FIGURE_WORDS = re.compile(r"\b(?:aged?|ages|old|years?|months?|weeks?|days?|persons?|people|"
                           r"someone|anyone|individuals?)\b", re.IGNORECASE)


def _bracket(question: str, text: str, clause_id: str) -> Verdict | None:
    """"Can a 70-year-old buy this policy?" of "can be availed by persons between 18 years
    and 65 years": the figure the question states read against the ranges and bounds the
    quote sets at its scale (``text.values.bracket_figure``). Of a range the quote grants
    cover or entry for, inside is yes and outside no; of one it refuses, inside is no and
    outside cannot tell; of one it sets a condition for ("Any person beyond 45 years of age
    ... has to submit medical reports"), the verdict says whether the condition applies,
    not yes or no. None when the quote sets no range of the figure's scale, or is not about
    what the question asks of the figure (a question that names nothing but the figure asks
    who the policy takes: only a quote of entry answers it)."""
    stated = stated_figures(question)
    bracket = bracket_figure(stated, text)
    if bracket is None:
        return None
    # the quote must be about what is asked of the figure ("Can a child aged 2 be
    # covered?" is not answered by "The member has to be 18 years of age or older" of a
    # surgery's conditions): a word of the question besides the figure's own
    unstated = question
    for value in reversed(stated):
        unstated = unstated[:value.start] + " " + unstated[value.end:]
    unstated = _NAMES_DOCUMENT.sub(" ", _FIGURE_WORDS.sub(" ", unstated))
    if not names_subject(unstated, text):
        return None
    entry = _GRANTS_ENTRY.search(text) is not None
    if not entry and not _subject_words(unstated):
        # asked of nothing but the figure ("Can a person aged 85 be insured?"), the question
        # is who the policy takes: a range of one benefit ("minor children aged below 17
        # years" for a travel-expenses cover) does not answer it
        return None
    asked = display(next(v for v in stated if figure(v) is not None))
    sets = f"the quote sets {bracket.shown}"
    if refuses_cover(text) or _REFUSES_ENTRY.search(text):
        if bracket.inside:
            return Verdict(label="no", text=f"No: excluded; {sets}", clause_id=clause_id,
                           basis=f"the quoted clause refuses the range {asked} lies in")
        return Verdict(label="cannot_tell", text=f"Cannot tell: the quote refuses only "
                       f"{bracket.shown}", clause_id=clause_id,
                       basis=f"{asked} lies outside the range the quoted clause refuses")
    if not (entry or AFFIRMS_COVER.search(text)):
        where = "within" if bracket.inside else "outside"
        applies = "applies" if bracket.inside else "does not apply"
        return Verdict(label="conditional", text=f"{asked} is {where} the range the quote "
                       f"sets ({bracket.shown}): the quoted condition {applies}",
                       clause_id=clause_id,
                       basis="the quoted clause sets a condition for a range of the figure")
    if bracket.inside:
        return Verdict(label="yes", text=f"Yes: {sets}; {asked} is within it",
                       clause_id=clause_id, basis="the figure asked lies in the range the "
                       "quoted clause grants")
    return Verdict(label="no", text=f"No: {sets}; {asked} is outside it", clause_id=clause_id,
                   basis="the figure asked lies outside the range the quoted clause grants")


def _names_provision(question: str, text: str) -> bool:
    """Whether the quote names the provision "Is there a ...?" asks about: a word of the
    phrase after the article ("co-payment" of "Is there a co-payment for insured persons
    above a certain age?", "compulsory deductible"), or of its word family. A limit or a
    period is named by its figure as well as by its name ("cap", "maximum", "waiting
    period"), a provision named by its kind alone ("a clause") names nothing to look for, and
    a question that names no such phrase asks nothing of this kind (True)."""
    asked = _PROVISION_ASKED.search(_joined(question))
    if asked is None:
        return True
    words = [t for t in content_tokens(asked.group("phrase")) if not t.isdigit()]
    if not words or words[-1] in _GENERIC_PROVISIONS:
        return True
    quoted = {t[:FAMILY_PREFIX] for t in tokenize(f"{text} {_joined(text)}")}
    if any(word[:FAMILY_PREFIX] in quoted for word in words):
        return True
    # a limit named by its figure (an amount or a share, the words that set one, the
    # schedule it is left to) and a wait by its duration ("• Cataract • NIL" of a waiting-
    # period list names no limit on cataract surgery)
    named = _NAMED_BY_FIGURE.intersection(words)
    if not named:
        return False
    if named & {"wait", "period"}:
        return any(v.kind == "duration" for v in extract_values(text))
    # a cap or limit by an amount or a share; a minimum or maximum of anything by its count
    # or length too ("One (1) day at a community event")
    kinds = ("money", "percent") if named <= _CAP_WORDS else \
        ("money", "percent", "number", "duration")
    return _SETS_LIMIT.search(text) is not None or DEFERRED.search(text) is not None or \
        any(v.kind in kinds for v in extract_values(text))


def _starts_not_length(clause_id: str) -> Verdict:
    """Asked how long, a quote whose date is the day something starts ("entered into on
    October 1, 2019"): no length, and no "Until" that date."""
    return Verdict(label="cannot_tell", text="Cannot tell: the quote states when it starts, "
                   "not how long it lasts", clause_id=clause_id,
                   basis="the quote's date is one something starts on")


def _joined(text: str) -> str:
    """``text`` with its hyphenated words joined ("co-payment" -> "copayment"): a provision
    is named by the compound, not by its last part ("payment")."""
    return _HYPHENATED.sub("", text)


# a claim named as the time of something else ("after a claim", "following any claim"): "Can
# the contract be terminated after a claim?" asks leave to terminate, not cover ("Can a
# claim be made for OPD?" asks cover)
_CLAIM_EVENT = re.compile(r"\b(?:after|before|following|upon|since)\s+(?:(?:a|an|the|any|each|"
                          r"every|my|your|his|her|their|our)\s+)?claims?\b", re.IGNORECASE)


def _claims_not_asked(question: str) -> bool:
    """Whether ``question`` names claims only as what something else applies to, not as the
    cover it asks about: whether a provision exists for them ("Is there a co-payment on
    claims?", "Does a deductible apply to each claim?"), or leave to do something at the
    time of one ("Can the contract be terminated after a claim?"). Neither is a cover
    question, whose quote must grant or refuse cover ("Can I claim for dental treatment?"
    is one)."""
    asked = list(_ASKS_COVER.finditer(question))
    if not asked or not all(m.group().lower().startswith("claim") for m in asked):
        return False
    if _EXISTS.search(question) is not None:
        return True
    return _PERMISSION.search(question) is not None and all(
        _CLAIM_EVENT.search(question, max(0, m.start() - 24), m.end()) is not None
        for m in asked)


# "except claims arising due to an accident", "unless arising from accident": a refusal or
# a waiting period the wording does not apply to an accident
_EXCEPTS_ACCIDENTS = re.compile(
    r"\b(?:except|unless|other\s+than|excluding|save|not\s+(?:be\s+)?appl\w*\s+(?:to|for))\b"
    r"[^.;]{0,60}?\baccident", re.IGNORECASE)
_ASKS_ACCIDENT = re.compile(r"\baccident\w*|\binjur(?:y|ies|ed)\b", re.IGNORECASE)


def excepts_accidents(question: str, text: str) -> bool:
    """Whether ``question`` asks about an accident or an injury and ``text`` excepts
    accidents from what it refuses or defers ("... within 30 days ... shall be excluded
    except claims arising due to an accident")."""
    return _ASKS_ACCIDENT.search(question) is not None and \
        _EXCEPTS_ACCIDENTS.search(text) is not None


def _right_of_other_side(question: str, text: str, whole: str | None = None) -> str | None:
    """The side ("policyholder", "insurer") the quote gives a right to when the question
    asks it of the other side and neither the quote nor its whole clause (``whole``) gives
    it to the asked side ("Can the group policy be cancelled by the insurer?" of "The
    Policyholder may cancel this policy by giving 7 days' written notice"); None
    otherwise."""
    asked = _ASKED_SIDE.search(question)
    if asked is None:
        return None
    side = "insurer" if asked.group("insurer") or asked.group("insurer2") else "insured"
    given = {"insurer" if m.group("insurer") else "insured" for m in _RIGHT_OF.finditer(text)}
    whole_gives = {"insurer" if m.group("insurer") else "insured"
                   for m in _RIGHT_OF.finditer(whole or "")}
    if not given or side in given | whole_gives:
        return None
    return "insurer" if "insurer" in given else "policyholder"


def _carved_out(question: str, text: str) -> bool:
    """Whether a word of the question's subject stands in what an exclusion excepts (the
    rest of its sentence after "other than", "except (for)", "save for") and nowhere else in
    ``text``: "Treatment for any other system other than modern medicine (allopathy) and
    AYUSH therapies" names AYUSH only as what it does not exclude; "Dental treatment ... is
    excluded, except treatment needed after an accident" names dental treatment outside."""
    wanted = {t[:FAMILY_PREFIX] for t in _subject_words(question)}
    carves = [(m.end(), _CARVE_END.search(text, m.end())) for m in _CARVE_OUT.finditer(text)]
    spans = [(start, end.start() if end else len(text)) for start, end in carves]
    inside: set[str] = set()
    outside: set[str] = set()
    for match in _WORD.finditer(text):
        family = (tokenize(match.group()) or [""])[0][:FAMILY_PREFIX]
        if family in wanted:
            carved = any(a <= match.start() < b for a, b in spans)
            (inside if carved else outside).add(family)
    return bool(inside - outside)


def _cover(question: str, text: str, clause_id: str, excluded: bool = False,
           rows: Sequence[str] = (), granted: bool = False) -> Verdict:
    """Cover questions: refused, refused for a waiting period, or paid; none when the quote
    does not name what is asked about ("Is maternity covered?" answered by a rule for "the
    listed conditions")."""
    if not names_subject(question, text):
        return Verdict(label="cannot_tell",
                       text="Cannot tell: the quote does not name what is asked about",
                       clause_id=clause_id, basis="no word of the question's subject in the quote")
    refused = refuses_cover(text)
    if excepts_accidents(question, text) and (refused or excluded or
                                              waiting_period(text) is not None):
        return Verdict(label="yes", text="Yes: accidents are excepted", clause_id=clause_id,
                       basis="the quoted refusal or waiting period excepts accidents")
    if (refused or excluded) and _carved_out(question, text):
        return Verdict(label="cannot_tell",
                       text="Not excluded by the quote: its exclusion excepts what is asked",
                       clause_id=clause_id, basis="the question's subject is named only in "
                       "what the quoted exclusion excepts ('other than ...')")
    if (refused or excluded) and _EXCLUDED_UNLESS_MET.search(text):
        return Verdict(label="conditional",
                       text="Only when the conditions it lists are met: excluded otherwise",
                       clause_id=clause_id, basis="the quoted exclusion applies where its "
                       "conditions are not met")
    wait = waiting_period(text)
    asked = _asked_time(question)
    if wait is not None and _among_alternatives(text, wait):
        # "excluded until the expiry of 90 days/ one year/ two years (as specified against
        # each disease)": which one applies is stated elsewhere, not by the first
        return Verdict(label="cannot_tell",
                       text="Cannot tell: the quote states several waiting periods",
                       clause_id=clause_id, basis="alternative waiting periods in the quote")
    if wait is not None:
        shown = display(wait, adjective=True)
        # asked of the first year, a 12-month waiting period covers none of it; asked of a
        # time ("after one year"), a wait that has run by then does not stand in the way
        if asked is not None and (_days(wait) > asked.end or
                                  (asked.window and _days(wait) >= asked.end - _SAME_DAY)):
            return Verdict(label="no", text=f"No: {shown} waiting period", value=wait.text,
                           clause_id=clause_id,
                           basis="the waiting period is longer than the time asked about")
        # asked of no time, the benefit's limit is part of the answer ("Yes, up to 25%,
        # after a 24-month waiting period")
        limit = None if asked is not None or not AFFIRMS_COVER.search(text) else \
            _benefit_limit(text)
        said = f"Yes, up to {display(limit)}, after" if limit else "Yes, after"
        return Verdict(label="yes" if asked is not None else "conditional",
                       text=f"{said} a {shown} waiting period", value=wait.text,
                       clause_id=clause_id, basis="covered once the waiting period has run")
    deferred = DEFERRED.search(text) if wait is None and _EXPIRY.search(text) else None
    if deferred is not None:
        # "excluded until the expiry of number of months (as specified in the Policy
        # Schedule)": a waiting period whose length the wording leaves to the schedule
        where = " ".join(deferred.group("target").split())
        if asked is not None:
            return Verdict(label="cannot_tell",
                           text=f"Cannot tell: the waiting period is stated in the {where}",
                           clause_id=clause_id, basis="a waiting period stated elsewhere")
        return Verdict(label="conditional",
                       text=f"Yes, after a waiting period stated in the {where}",
                       clause_id=clause_id, basis="covered once a waiting period stated "
                       "elsewhere has run")
    row = next((read for line in rows
                if (read := _row_cover(question, line, clause_id)) is not None), None)
    if row is not None:
        return row
    if refused:
        return Verdict(label="no", text="No: excluded", clause_id=clause_id,
                       basis="the clause refuses cover")
    if excluded:
        return Verdict(label="no", text="No: excluded", clause_id=clause_id,
                       basis="the quoted clause is listed under a heading that excludes it")
    only = _ONLY_WITHIN.search(text) if _ASKS_ABROAD.search(question) else None
    if only is not None:
        # "Is treatment outside India covered?" / "This Policy covers treatments taken in
        # India ONLY"
        place = " ".join((only.group("place") or only.group("place2")).split())
        return Verdict(label="no", text=f"No: only in {place}", value=place,
                       clause_id=clause_id, basis="the clause grants cover only within a place "
                       "the question asks about going outside of")
    if AFFIRMS_COVER.search(text) or granted:
        limit = _benefit_limit(text)
        return Verdict(label="yes", text=f"Yes, up to {display(limit)}" if limit else "Yes",
                       value=limit.text if limit else None, clause_id=clause_id,
                       basis="the clause grants cover")
    applies = _APPLIES_IF.search(text)
    if applies is not None:
        condition = " ".join(applies.group("condition").split()).rstrip(" ,")
        return Verdict(label="conditional", text=f"Yes, {condition}", clause_id=clause_id,
                       basis="the quoted cover applies on a condition")
    return Verdict(label="cannot_tell", text=_NEITHER, clause_id=clause_id,
                   basis="the quote neither grants nor refuses cover in so many words")


def _benefit_limit(text: str) -> Value | None:
    """The first amount or percentage the quote states, unless it is the sum insured of the
    plans the cover applies to ("applicable for Sum Insured up to 75 Lakh", "policies with
    a sum insured above INR 5 lakh"): a band of plans is no limit of the benefit."""
    return next((v for v in extract_values(text) if v.kind in ("money", "percent")
                 and not _plans_sum_insured(text, v)), None)


def _plans_sum_insured(text: str, value: Value) -> bool:
    before = max(0, value.start - _BAND_REACH)
    return _SUM_INSURED_BAND.search(text, before, value.start) is not None or (
        _SUM_INSURED_BEFORE.search(text, before, value.start) is not None
        and _BAND_AFTER.match(text, value.end) is not None)


def _row_cover(question: str, row: str, clause_id: str) -> Verdict | None:
    """The cover a quoted table row states in its cells: "Covered" or "Not covered" (per
    column: "Partly" when its columns differ), or a figure in a column of benefits ("Yes:
    90% of the Allowable Charge ..."); None when its cells say neither, or when what its
    label names is not what the question names ("AMBULANCE COLLAR | Not Payable" says
    nothing of "ambulance charges")."""
    cells = [cell.strip() for cell in row.split(CELL_SEPARATOR)]
    at = next((i for i, cell in enumerate(cells) if _LETTERS.search(cell)), None)
    if at is None or at + 1 >= len(cells):
        return None
    # what the row names is the last word of its label's first phrase: "collar" of
    # "Ambulance collar", "wigs" of "Wigs after chemotherapy"
    phrase = _LABEL_PHRASE_END.split(cells[at], maxsplit=1)[0]
    words = [t for t in content_tokens(phrase) if len(t) > 1 and not t.isdigit()]
    if not words or words[-1][:FAMILY_PREFIX] not in \
            {t[:FAMILY_PREFIX] for t in content_tokens(question)}:
        return None
    # ... and names at least half of what the question is about: "If your child needs
    # dental or eye care" is not the row of "routine foot care"
    subject = {t[:FAMILY_PREFIX] for t in _subject_words(question)}
    label = {t[:FAMILY_PREFIX] for t in content_tokens(cells[at])}
    if 2 * len(subject & label) < len(subject):
        return None
    named = [cell.rsplit(": ", 1) if ": " in cell else ["", cell] for cell in cells[at + 1:]]
    refused = [name for name, value in named if _CELL_REFUSED.match(value)]
    # beside a column that does not cover it, one that states a figure does ("PLAN A: Not
    # covered | PLAN B: Up to 5% of SI")
    covered = [name for name, value in named if _CELL_COVERED.match(value) or (
        refused and not _CELL_REFUSED.match(value)
        and any(v.kind in ("money", "percent") for v in extract_values(value)))]
    if covered and refused:
        where = "; ".join(f"{name or 'one column'}: not covered" for name in refused)
        return Verdict(label="conditional", text=f"Partly: {where}", clause_id=clause_id,
                       basis="the row's cells mark it covered in some columns, not in others")
    if refused:
        return Verdict(label="no", text="No: not covered", clause_id=clause_id,
                       basis="the row's cells mark it not covered")
    if covered:
        return Verdict(label="yes", text="Yes", clause_id=clause_id,
                       basis="the row's cells mark it covered")
    benefit = next((value for name, value in named
                    if _BENEFIT_COLUMN.search(name) and extract_values(value)), None)
    if benefit is None:
        return None
    return Verdict(label="yes", text=f"Yes: {_phrase(benefit, 0)}", clause_id=clause_id,
                   basis="the row gives it a benefit in a column of benefits")


def _exclusion(question: str, text: str, clause_id: str, excluded: bool,
               rows: Sequence[str] = (), granted: bool = False) -> Verdict:
    """"Is X excluded?": the cover verdict read the other way round. Refused is "Yes:
    excluded", paid is "No: covered" (with its limit), and a waiting period excludes until
    it has run."""
    cover = _cover(ASKS_EXCLUSION.sub(" ", question), text, clause_id, excluded, rows,
                   granted)
    wait = waiting_period(text) if cover.label != "cannot_tell" else None
    if wait is not None:
        return cover.model_copy(update={
            "label": "conditional",
            "text": f"Yes, until a {display(wait, adjective=True)} waiting period has run"})
    if cover.label == "no":
        return cover.model_copy(update={"label": "yes", "text": "Yes: excluded"})
    if cover.label == "yes":  # "Yes" or "Yes, up to $500"
        return cover.model_copy(update={"label": "no",
                                        "text": cover.text.replace("Yes", "No: covered", 1)})
    return cover


def waiting_period(text: str) -> Value | None:
    """A duration the quote makes cover wait for ("excluded until the expiry of 36 months");
    a time before something ("up to three months prior to its expiry") is a deadline, not a
    wait."""
    for value in extract_values(text):
        if value.kind == "duration" and _BEFORE.match(text, value.end) is None and \
                (bound_side(text, value) is None
                 or "waiting" in text[max(0, value.start - 40):value.start].lower()) and \
                _AFTER_EVENT.match(text, value.end) is None and \
                _WAIT.search(text[max(0, value.start - 80):value.end + 40]):
            return value
    return None


def _among_alternatives(text: str, period: Value) -> bool:
    """Whether ``period`` is one of several periods given as alternatives ("90 days/ one
    year/ two years", "24 months or 36 months"): another duration right after it, joined
    by a slash, a comma or "or"."""
    after = next((v for v in extract_values(text) if v.start >= period.end), None)
    return after is not None and after.kind == "duration" and \
        _ALTERNATIVE.fullmatch(text, period.end, after.start) is not None


def _asked_time(question: str) -> AskedTime | None:
    """The time from the start of cover a question asks about (``text.values.asked_time``:
    "in the first two years" -> 0 to 730.5 days); else the first duration it states, read
    as a moment ("Is hernia covered after two years?")."""
    asked = asked_time(question)
    if asked is not None:
        return asked
    durations = [v for v in extract_values(question) if v.kind == "duration"]
    return AskedTime(_days(durations[0]), _days(durations[0]), (durations[0].start,
                     durations[0].end)) if durations else None


def _days(value: Value) -> float:
    return (value.amount or 0.0) * DAYS_PER_UNIT.get(value.unit or "day", 1.0)


def display(value: Value, adjective: bool = False) -> str:
    """A value as a verdict states it: "36 months" ("36-month" before a noun), "$500"."""
    if value.kind in ("duration", "age") and value.amount is not None and value.unit:
        if adjective:
            return f"{value.amount:g}-{value.unit}"
        return format_length(value.amount, value.unit)
    blank = left_blank(value)
    if blank:  # "September __, 2018": a draft or filed copy left the day to be filled in
        return f"{' '.join(value.text.split())} (the {blank} left blank)"
    return " ".join(value.text.split())
