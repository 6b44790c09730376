"""When a term ends (clausegraph.text.term): the same term written in other number, date and
naming styles ends on the same day; notice periods and renewals are not the term."""

from __future__ import annotations

import pytest

from clausegraph.text.term import (
    AGREEMENT_DATE,
    EFFECTIVE_DATE,
    SIGNATURE_DATE,
    add_duration,
    date_by_name,
    defined_dates,
    named_date,
    notice_durations,
    notice_period,
    renewal_length,
    term_end,
)

STARTS = {EFFECTIVE_DATE: "2012-11-02", AGREEMENT_DATE: "2012-10-01"}


@pytest.mark.parametrize("length", ["three (3) years", "3 (three) years", "3 years",
                                    "three years", "thirty-six (36) months", "36 months"])
def test_a_length_counts_from_the_effective_date_it_names(length):
    text = (f"The term of this Agreement shall commence on the Effective Date and continue for "
            f"a period of {length} (the “Initial Term”).")
    end = term_end(text, STARTS)
    assert (end.end, end.start, end.start_name) == ("2015-11-02", "2012-11-02", EFFECTIVE_DATE)


@pytest.mark.parametrize("start", ["January 2, 2020", "2 January 2020", "2020-01-02",
                                   "the 2nd day of January, 2020", "01/02/2020"])
def test_a_length_counts_from_the_start_the_clause_states(start):
    text = f"This Agreement shall be in force commencing on {start} and remain in effect for " \
           "one (1) year or until the services are complete."
    end = term_end(text, STARTS)
    assert (end.end, end.start_name) == ("2021-01-02", None)


@pytest.mark.parametrize("wording", ["until the fifth (5th) anniversary of the Effective Date",
                                     "until the 5th anniversary of the Effective Date",
                                     "until the fifth anniversary of the Effective Date",
                                     "until the end of Year 5 after the Effective Date"])
def test_an_anniversary_is_so_many_years(wording):
    end = term_end(f"The initial term shall continue {wording}.", STARTS)
    assert end.end == "2017-11-02"


@pytest.mark.parametrize("stated", ["until December 31, 2022", "through 31 December 2022",
                                    "and expire on 2022-12-31", "ending on December 31, 2022"])
def test_a_stated_end_date_is_the_end(stated):
    end = term_end(f"The term shall commence on January 1, 2020 and continue {stated}.", STARTS)
    assert (end.end, end.length) == ("2022-12-31", None)


def test_notice_periods_and_renewals_are_not_the_term():
    text = ("This Agreement shall renew for successive one (1) year terms unless either party "
            "gives ninety (90) days prior written notice; the initial term is five (5) years "
            "from the Effective Date.")
    assert term_end(text, STARTS).end == "2017-11-02"
    window = "Notice must be given within Ninety (90) days of the end of the initial period."
    assert term_end(window, STARTS) is None


def test_a_term_without_an_end_is_perpetual_unless_it_has_a_length():
    assert term_end("This Agreement shall continue until terminated by either party.",
                    STARTS).perpetual
    bounded = term_end("This Agreement shall continue for an initial period of five years "
                       "until terminated in the manner described in Clause 16.", STARTS)
    assert not bounded.perpetual and bounded.end == "2017-11-02"


def test_the_date_of_the_agreement_and_other_named_starts():
    by_agreement = term_end("The initial term shall be 3 years from the date first written "
                            "above.", STARTS)
    assert (by_agreement.end, by_agreement.start_name) == ("2015-10-01", AGREEMENT_DATE)
    # a start the document dates elsewhere, by its own name
    other = "This Agreement remains in effect for 36 months following the Service Ready Date."
    assert term_end(other, {**STARTS, "Service Ready Date": "2020-03-01"}).end == "2023-03-01"
    # ... or never dates: the length, from no known day
    unknown = term_end(other, STARTS)
    assert (unknown.end, unknown.length) == (None, (36.0, "month"))
    # no start known at all
    assert term_end("The term shall be one (1) year.", {}).end is None


def test_only_start_dates_give_no_end():
    assert term_end("This Agreement is made and entered into as of March 20, 2018.",
                    STARTS) is None
    latest = term_end("The term shall last for the longer of the season and the period to "
                      "February 28, 2023.", STARTS)
    assert (latest.end, latest.latest) == ("2023-02-28", True)


def test_document_dates_by_name():
    assert named_date("This Agreement is entered into on October 1, 2019 and made effective "
                      "as of November 1, 2019 (the “Effective Date”).",
                      EFFECTIVE_DATE) == "2019-11-01"
    assert named_date("entered into on October 1, 2019 and effective November 1, 2019",
                      AGREEMENT_DATE) == "2019-10-01"
    assert defined_dates('commencing on 1 March 2020 (the "Commencement Date") and '
                         "April 2, 2020 (the “Launch Date”)") == {
        "Commencement Date": "2020-03-01", "Launch Date": "2020-04-02"}
    assert date_by_name("effective as of the date first written above", STARTS) == (
        "2012-10-01", AGREEMENT_DATE)
    assert date_by_name("It takes effect on the Effective Date.", STARTS) == (
        "2012-11-02", EFFECTIVE_DATE)
    assert date_by_name("It takes effect on signature.", STARTS) is None
    # the signature block's date, when the document gives one; "the date of execution" is
    # the date of the agreement its opening states
    signed = {**STARTS, SIGNATURE_DATE: "2020-01-27"}
    assert date_by_name("executed as of the date below", signed) == ("2020-01-27", SIGNATURE_DATE)
    assert date_by_name("effective on the date it is signed by both parties", signed)[1] == \
        SIGNATURE_DATE
    assert date_by_name("effective as of the date of its execution", signed) == (
        "2012-10-01", AGREEMENT_DATE)
    assert date_by_name("executed as of the date below", STARTS) is None


def test_add_duration_keeps_the_day_within_the_month():
    assert add_duration("2020-01-31", 1, "month") == "2020-02-29"
    assert add_duration("2019-06-21", 2, "week") == "2019-07-05"
    assert add_duration("2019-06", 1, "year") is None  # no exact end for a partial date


@pytest.mark.parametrize("length, years", [("Five (5) years", 5.0), ("three years", 3.0),
                                           ("a period of 24 months", 2.0)])
@pytest.mark.parametrize("verb", ["shall extend for", "will extend for"])
def test_a_term_that_shall_extend_for_a_length_has_that_length(length, years, verb):
    """"This Agreement shall commence on the Effective Date and shall extend for a period of
    Five (5) years thereafter": the term's own length, not a renewal (it read no end)."""
    text = f"This Agreement shall commence on the Effective Date and {verb} {length} " \
           "thereafter, unless terminated earlier."
    end = term_end(text, {"Effective Date": "2018-02-13"})
    assert end is not None and end.end == f"{2018 + int(years)}-02-13", end


@pytest.mark.parametrize("renewal", [
    "The term may be extended for one (1) year by mutual agreement.",
    "Either party may extend the term for a period of two (2) years.",
    "The term shall be extended for successive periods of one (1) year.",
])
def test_an_extension_is_a_renewal_not_the_term(renewal):
    assert term_end(renewal, {"Effective Date": "2018-02-13"}) is None


RUNS_UNTIL_A_PARTY_ENDS_IT = [
    ("The term of this Agreement will commence on the date of signature and will end when "
     "terminated by either party."),
    "This Agreement shall remain in effect perpetually as long as the fees are paid.",
    ("Your employment shall commence on 26 September 2019 and shall continue unless and "
     "until either party gives notice to the other."),
    ("The Appointment may be terminated by either party giving the other at least 12 "
     "months' notice in writing."),
    ("This Agreement shall govern the relations between the parties thereafter, unless "
     "terminated as set forth in Section 6."),
    ("This Agreement shall terminate upon either party giving one hundred twenty (120) "
     "days' written notice to the other."),
]


@pytest.mark.parametrize("runs_until", RUNS_UNTIL_A_PARTY_ENDS_IT)
def test_a_term_that_runs_until_a_party_ends_it_is_perpetual(runs_until):
    end = term_end(runs_until, STARTS)
    assert end is not None and end.perpetual and end.end is None


@pytest.mark.parametrize("bounded, iso", [
    (("This Agreement shall continue until March 31, 2020 unless terminated earlier by "
      "either party."), "2020-03-31"),
    (("The term is three (3) years from 1 May 2018, unless terminated by either party on "
      "notice."), "2021-05-01"),
    ("The term is 36 months from May 1, 2018, unless terminated earlier.", "2021-05-01"),
])
def test_a_stated_end_or_length_wins_over_until_terminated(bounded, iso):
    end = term_end(bounded, STARTS)
    assert end is not None and not end.perpetual and end.end == iso


@pytest.mark.parametrize("renewal, length", [
    (("The term ends at April 30, 2029 (the “Term”), with automatic renewals each for a "
      "period of five (5) years (a “Renewal Term”) unless notice is given pursuant to 5.2."),
     (5.0, "year")),
    (("This Agreement renews automatically for successive periods of two (2) years unless "
      "notice of non-renewal is given."), (2.0, "year")),
])
def test_a_renewal_ended_by_notice_is_no_notice_period(renewal, length):
    """"five (5) years ... unless notice is given": the years are the renewal's, the notice
    what ends it."""
    assert renewal_length(renewal) == length
    assert notice_period("either party may end it on ninety (90) days prior written "
                         "notice") == (90.0, "day")


@pytest.mark.parametrize(("notice", "text"), [
    ("ninety (90) days", "ninety (90) days"), ("90 days", "90 days"),
    ("three (3) months", "three (3) months"), ("sixty days", "sixty days"),
    ("90 (ninety) days", "90 (ninety) days")])
def test_the_notice_durations_of_a_term_sentence_leave_its_lengths_out(notice, text):
    """Where in a sentence its notice period is written ("... renew for additional one (1)
    year terms ... unless either party gives Notice ... {notice} before the end"): the
    answer's cut reads it to keep the notice, not the term's or renewal's length."""
    sentence = ("the term of this Agreement shall begin on the Effective Date and continue for "
                "three (3) years thereafter and shall automatically renew for additional one "
                "(1) year terms unless either party gives the other Party Notice of its "
                f"intention to terminate this Agreement {notice} before the end of the Term.")
    found = notice_durations(sentence)
    assert [sentence[v.start:v.end] for v in found][:1] == [text]
    assert notice_period(sentence) == (found[0].amount, found[0].unit)
