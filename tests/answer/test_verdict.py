"""The short verdict over a direct answer (issue 27): the same wording in other number,
currency and modal styles gives the same verdict; an undecided quote gives "Cannot tell"."""

from __future__ import annotations

import pytest

from clausegraph.answer.verdict import asked_value_kinds, attach_verdicts, stated_answer, verdict
from clausegraph.models import Answer, AnswerLine, DirectAnswer


def _direct(text: str) -> DirectAnswer:
    line = AnswerLine(clause_id="doc:6.3(f)", label="6.3(f)", document="Policy", text=text,
                      span=(0, len(text)), pages=[4])
    return DirectAnswer(found=True, text=text, lines=[line])


WAITING = "Expenses related to cataract surgery and knee replacement shall be excluded until " \
          "the expiry of {period} of continuous coverage after the date of inception."
LISTED = "Expenses related to the treatment of the listed conditions shall be excluded until " \
         "the expiry of 24 months of continuous coverage after the date of inception."


@pytest.mark.parametrize("period", ["36 months", "thirty six (36) months", "36 (thirty six) months",
                                    "three years", "3 (three) years", "thirty-six months"])
def test_a_waiting_period_longer_than_asked_is_a_no(period):
    result = verdict("Is knee replacement covered in the first two years?",
                     _direct(WAITING.format(period=period)))
    assert result.label == "no"
    assert result.text in ("No: 36-month waiting period", "No: 3-year waiting period")
    assert result.clause_id == "doc:6.3(f)"


@pytest.mark.parametrize("question", ["Is cataract covered in the first 4 years?",
                                      "Is cataract covered during the first five policy years?"])
def test_a_waiting_period_within_the_time_asked_is_a_yes(question):
    result = verdict(question, _direct(WAITING.format(period="twenty four (24) months")))
    assert result.label == "yes" and result.text == "Yes, after a 24-month waiting period"


def test_cover_with_a_waiting_period_and_no_time_asked_is_conditional():
    result = verdict("Is cataract surgery covered?", _direct(WAITING.format(period="2 years")))
    assert result.label == "conditional" and result.text == "Yes, after a 2-year waiting period"


@pytest.mark.parametrize("refusal", [
    "We will not pay for cosmetic or plastic surgery.",
    "Cosmetic or plastic surgery is not covered.",
    "Expenses for cosmetic or plastic surgery are excluded.",
])
def test_a_refusal_is_a_no(refusal):
    result = verdict("Is cosmetic surgery covered?", _direct(refusal))
    assert (result.label, result.text) == ("no", "No: excluded")


@pytest.mark.parametrize("limit,shown", [("$500", "$500"), ("£ 500", "£ 500"),
                                          ("INR 5,000", "INR 5,000"), ("₹5,000", "₹5,000"),
                                          ("2% of the Sum Insured", "2%")])
def test_granted_cover_states_its_limit(limit, shown):
    result = verdict("Is room rent covered?",
                     _direct(f"We will pay room rent up to {limit} per day."))
    assert result.label == "yes" and result.text == f"Yes, up to {shown}"


@pytest.mark.parametrize("stated", ["thirty (30) days", "30 (thirty) days", "30 days",
                                    "thirty days"])
def test_how_long_gives_the_duration_in_any_number_style(stated):
    result = verdict("How long is the notice period for termination?",
                     _direct(f"Either party may terminate this Agreement on {stated}' prior "
                             "written notice to the other party."))
    assert (result.label, result.text) == ("value", "30 days")


@pytest.mark.parametrize("question", ["What is the maximum distance covered for towing?",
                                      "How many kilometres of towing are paid for?",
                                      "How far will the insurer tow the car?"])
@pytest.mark.parametrize("stated", ["50 km", "fifty (50) kms", "50 kilometres"])
def test_a_distance_question_gives_the_distance_not_the_sum(question, stated):
    result = verdict(question, _direct(f"We will pay up to Rs. 2,500 for towing the vehicle "
                                       f"to the nearest garage within {stated} of the accident."))
    assert (result.label, result.text) == ("value", stated)


@pytest.mark.parametrize("wording", [
    "Licensee may not assign this Agreement without the prior written consent of Licensor.",
    "Neither party may assign this Agreement without the other party's prior written consent.",
    ("This Agreement shall not be assigned by either party, unless the other party agrees in "
    "writing."),
    ("Neither this Agreement nor any interest hereunder shall be assignable by a Party without "
    "the prior written consent of the other Party."),
])
def test_a_prohibition_with_a_condition_is_conditional(wording):
    result = verdict("Can the agreement be assigned?", _direct(wording))
    assert result.label == "conditional"


def test_a_plain_permission_is_a_yes_and_a_plain_prohibition_a_no():
    assert verdict("Can either party terminate for convenience?", _direct(
        "Either party may terminate this Agreement for convenience.")).label == "yes"
    assert verdict("Can the Distributor sell competing products?", _direct(
        "The Distributor shall not sell any competing products in the Territory.")).label == "no"


def test_no_direct_answer_or_no_value_cannot_tell():
    assert verdict("How long is the warranty?", None).label == "cannot_tell"
    assert verdict("How long is the warranty?", DirectAnswer(found=False, text=None)).label \
        == "cannot_tell"
    undecided = verdict("How long is the warranty?",
                        _direct("The Supplier warrants that the Products conform to the "
                                "Specifications."))
    assert undecided.label == "cannot_tell"


def test_open_questions_get_no_verdict_and_law_questions_the_jurisdiction():
    assert verdict("What does the licence cover?", _direct(
        "The licence covers the use of the Software on one computer.")) is None
    # the parties a preamble introduces are the verdict of a question that asks for them
    parties = verdict("Who are the parties?", _direct("This Agreement is between Acme Tools "
                                                      'Inc. ("Acme") and Brill LLC ("Brill").'))
    assert parties.text == 'Acme Tools Inc. ("Acme"); Brill LLC ("Brill")'
    assert verdict("Who are the parties?", _direct("The parties shall meet monthly.")) is None
    result = verdict("Which state's law governs the agreement?", _direct(
        "This Agreement shall be governed by the laws of the State of New York, without "
        "regard to its conflict of laws principles."))
    assert (result.label, result.text) == ("value", "New York")


def test_how_long_is_answered_by_an_end_date():
    result = verdict("How long is the initial term?", _direct(
        "This Agreement shall commence on the Effective Date and terminate on December 31, "
        "2022."))
    assert result.label == "value" and result.text == "Until December 31, 2022"


def test_the_value_kinds_asked_come_from_the_question_grammar():
    assert asked_value_kinds("How long is the grace period?") == ("duration", "date")
    assert asked_value_kinds("How much is the deductible?") == ("money", "percent")
    assert asked_value_kinds("What percentage co-payment applies?") == ("percent",)
    assert asked_value_kinds("Who are the parties?") == ()


@pytest.mark.parametrize("question", ["Is maternity covered?",
                                      "Is maternity covered in the first 3 years?",
                                      "Is childbirth covered after the waiting period?"])
def test_a_cover_quote_that_does_not_name_the_subject_cannot_tell(question):
    """A rule for "the listed conditions" says nothing of maternity: no verdict, though the
    same rule answers for what it names."""
    assert verdict(question, _direct(LISTED)).label == "cannot_tell"
    named = LISTED.replace("the listed conditions", "maternity and childbirth")
    assert verdict(question, _direct(named)).label in ("yes", "no", "conditional")


RENEWAL = ("Thereafter, this Agreement shall automatically renew for successive {renewal} "
           "periods unless either party gives the other {notice} prior written notice of "
           "non-renewal.")


@pytest.mark.parametrize(("renewal", "notice", "renewal_shown", "notice_shown"), [
    ("one (1) year", "ninety (90) days'", "1 year", "90 days"),
    ("1 (one) year", "90 days", "1 year", "90 days"),
    ("twelve-month", "three (3) months'", "12 months", "3 months"),
])
def test_renewal_and_notice_questions_read_their_own_durations(renewal, notice, renewal_shown,
                                                               notice_shown):
    quote = _direct(RENEWAL.format(renewal=renewal, notice=notice))
    renews = verdict("Does the agreement renew automatically after the initial term, and for "
                     "how long?", quote)
    assert (renews.label, renews.text) == (
        "yes", f"Yes: renews automatically for {renewal_shown} at a time")
    stops = verdict("How much notice must be given to stop the agreement from renewing?", quote)
    assert (stops.label, stops.text) == ("value", notice_shown)
    length = verdict("How long is each renewal term?", quote)
    assert length.text == renewal_shown


def test_a_renewal_by_agreement_is_conditional():
    result = verdict("Does the agreement renew automatically?", _direct(
        "The Agreement may be renewed for a further two (2) years by mutual written agreement "
        "of the parties."))
    assert (result.label, result.text) == ("conditional",
                                           "Only by option or agreement: 2 years at a time")


def _under(heading: str, item: str) -> DirectAnswer:
    lines = [AnswerLine(clause_id="doc:4", label="4", document="Policy", text=heading,
                        span=(0, len(heading)), pages=[9], heads=True),
             AnswerLine(clause_id="doc:4(xv)", label="4(xv)", document="Policy", text=item,
                        span=(100, 100 + len(item)), pages=[10])]
    return DirectAnswer(found=True, text=f"{heading} {item}", lines=lines)


ITEM = "xv. Maternity: medical treatment expenses traceable to childbirth, including " \
       "caesarean sections incurred during hospitalisation."


@pytest.mark.parametrize("heading", ["GENERAL EXCLUSIONS", "Permanent Exclusions",
                                     "What is not covered", "What we don't pay for",
                                     "SECTION D) EXCLUSIONS– SPECIFIC EXCLUSIONS APPLICABLE TO"])
def test_an_item_quoted_under_a_heading_that_excludes_it_is_a_no(heading):
    # the item says no verb of refusal; the list it is quoted under does
    result = verdict("Is maternity covered?", _under(heading, ITEM))
    assert (result.label, result.text) == ("no", "No: excluded")
    assert result.clause_id == "doc:4(xv)"


@pytest.mark.parametrize("heading", ["LIMITATIONS", "What is covered", "Maternity benefit"])
def test_an_item_under_a_heading_that_does_not_exclude_it_is_not_read_as_excluded(heading):
    result = verdict("Is maternity covered?", _under(heading, ITEM))
    assert result.label != "no"


def test_an_exclusion_heading_in_the_answering_sentence_is_not_a_heading_above_it():
    # "subject to the exclusions of Section 4" names the exclusions; it is not listed under them
    text = "Maternity expenses are payable up to the limit, subject to the exclusions of Section 4."
    assert verdict("Is maternity covered?", _direct(text)).label != "no"


@pytest.mark.parametrize("question", ["Is maternity excluded?", "Are maternity expenses excluded?",
                                      "Is maternity an exclusion?", "Is maternity not covered?"])
@pytest.mark.parametrize("heading", ["GENERAL EXCLUSIONS", "What we don't pay for"])
def test_an_exclusion_question_is_answered_yes_for_an_excluded_item(question, heading):
    # cover asked the other way round: the same quote that is "No: excluded" to "Is it
    # covered?" is "Yes: excluded" here, never "Cannot tell"
    result = verdict(question, _under(heading, ITEM))
    assert (result.label, result.text) == ("yes", "Yes: excluded")


@pytest.mark.parametrize("quote,expected", [
    ("Cosmetic or plastic surgery is not covered.", ("yes", "Yes: excluded")),
    ("We will pay for cosmetic surgery up to $500 following an accident.",
     ("no", "No: covered, up to $500")),
    (WAITING.format(period="24 months").replace("cataract surgery and knee replacement",
                                                 "cosmetic surgery"),
     ("conditional", "Yes, until a 24-month waiting period has run")),
    ("Dental treatment is not covered.",
     ("cannot_tell", "Cannot tell: the quote does not name what is asked about")),
])
def test_an_exclusion_question_reads_the_cover_verdict_the_other_way(quote, expected):
    result = verdict("Is cosmetic surgery excluded?", _direct(quote))
    assert (result.label, result.text) == expected


# An extension of the area a motor policy covers, for an additional premium (Indian motor
# wordings, IMT endorsement style), and a contract's term extended year by year.
AREA = ("In consideration of the payment of an additional premium of {premium}, the "
        "geographical area of this policy shall be extended to {countries}.")
TERM = ("The term of this Agreement shall be extended automatically for successive periods "
        "of {period} unless either party gives notice of non-renewal.")


@pytest.mark.parametrize("premium", ["Rs. 500", "INR 1,000", "$25"])
@pytest.mark.parametrize("countries", ["Nepal, Bhutan and Sri Lanka", "the neighbouring countries"])
@pytest.mark.parametrize("question", [
    "Can the geographical area be extended to neighbouring countries?",
    "Which countries can the geographical area be extended to?",
    "Is an extension of cover to Nepal available?",
])
def test_extending_a_place_is_not_renewing(premium, countries, question):
    result = verdict(question, _direct(AREA.format(premium=premium, countries=countries)))
    assert result is None or "enew" not in result.text, result


@pytest.mark.parametrize(("period", "shown"), [("one (1) year", "1 year"),
                                               ("twelve months", "12 months")])
@pytest.mark.parametrize("question", ["Is the term extended automatically?",
                                      "Will the agreement be extended after the initial term?"])
def test_extending_a_term_is_renewing(period, shown, question):
    result = verdict(question, _direct(TERM.format(period=period)))
    assert (result.label, result.text) == ("yes", f"Yes: renews automatically for {shown} at a time")


# A contract any party may end before it expires (a Swiss motor wording's ordinary
# termination, in three time styles): the time before expiry is a deadline, not a wait.
ENDING = ("Either contracting party may terminate the contract in writing up to {time} "
          "{before} its expiry.")


@pytest.mark.parametrize("time", ["three months", "3 months", "90 days"])
@pytest.mark.parametrize("before", ["prior to", "before", "in advance of"])
def test_a_time_before_expiry_is_no_waiting_period(time, before):
    result = verdict("Can the contract be terminated after a claim?",
                     _direct(ENDING.format(time=time, before=before)))
    assert "waiting period" not in result.text, result


# How long a stay or a benefit lasts is no wait for cover: a day-care stay "of less than 24
# hours", post-hospitalisation expenses "up to 60 days after discharge" (a Max Bupa group
# wording's day care was read "Yes, after a 24-hour waiting period"), in other styles.
LASTING = [("Day-care treatment", ("We will cover Medical Expenses for Day-Care Treatment "
                                    "undertaken in a Hospital for a continuous period of "
                                    "{bound} 24 hours.")),
           ("post-hospitalisation", ("We will cover post-hospitalisation expenses incurred "
                                     "{bound} 60 days after discharge.")),
           ("post-hospitalisation", ("The Company shall indemnify post-hospitalisation "
                                     "expenses for a period of {bound} sixty (60) days "
                                     "following hospitalisation."))]


@pytest.mark.parametrize("case", range(len(LASTING)))
@pytest.mark.parametrize("bound", ["less than", "up to", "not exceeding", "a maximum of"])
def test_how_long_a_stay_or_benefit_lasts_is_no_waiting_period(case, bound):
    subject, quote = LASTING[case]
    result = verdict(f"Is {subject} covered?", _direct(quote.format(bound=bound)))
    assert result.text == "Yes", result


# "Is there a <provision> ...?" of a quote that names the rest of the question but not the
# provision ("Is there a co-payment for insured persons above a certain age?" of a health
# check-up row "Upto 1% of Sum Insured per Insured Person" was "Yes: 1%").
@pytest.mark.parametrize(("question", "quote"), [
    ("Is there a co-payment for insured persons above a certain age?",
     "Health check-up: up to 1% of the Sum Insured per Insured Person above 45 years of age."),
    ("Is there a deductible for members over 60?",
     "Members over 60 years are covered for cataract surgery up to INR 40,000 per eye."),
    ("Is there an excess on own damage claims?",
     "Own damage claims are settled within 30 days of the surveyor's report."),
])
def test_a_quote_that_does_not_name_the_provision_asked_is_no_yes(question, quote):
    result = verdict(question, _direct(quote))
    assert result.text == "Cannot tell: the quote does not name what is asked about", result


@pytest.mark.parametrize(("question", "quote", "expected"), [
    ("Is there a co-payment for insured persons above a certain age?",
     "A co-payment of 20% applies to each claim of an Insured Person aged above 60.", "Yes: 20%"),
    ("Is there a copayment for older members?",
     "Members aged 61 or more bear a co-payment of 10% of each claim.", "Yes: 10%"),
    ("Is there a cap on liability?",
     "In no event shall either party's liability exceed $1,000,000.", "Yes: $1,000,000"),
    ("Is there a waiting period for pre-existing diseases?",
     ("Pre-existing diseases are excluded until the expiry of 48 months of continuous "
      "coverage."), "Yes: 48 months"),
])
def test_a_quote_naming_the_provision_or_its_figure_says_yes(question, quote, expected):
    assert verdict(question, _direct(quote)).text == expected


@pytest.mark.parametrize("bound", ["not more than", "up to"])
def test_a_bounded_period_called_a_waiting_period_is_one(bound):
    quote = f"Maternity expenses are covered after a waiting period of {bound} 9 months."
    result = verdict("Is maternity covered?", _direct(quote))
    assert "9-month waiting period" in result.text, result


@pytest.mark.parametrize("period", ["36 months", "3 years"])
def test_a_wait_after_a_deadline_is_still_read(period):
    quote = ("Claims must be notified 30 days before discharge. Expenses related to knee "
             f"replacement shall be excluded until the expiry of {period} of continuous "
             "coverage.")
    result = verdict("Is knee replacement covered?", _direct(quote))
    assert result.text == f"Yes, after a {period.replace(' ', '-')[:-1]} waiting period", result


@pytest.mark.parametrize("question", [
    "What happens to the no claim bonus when the vehicle is transferred?",
    "What happens to the insurance when the vehicle is sold?",
    "How does the restore benefit work when the sum is used up?",
])
def test_when_joining_a_condition_asks_no_date(question):
    assert "date" not in asked_value_kinds(question)


@pytest.mark.parametrize("question", [
    "When does the policy end?",
    "Must the source code be placed in escrow, and when can it be released?",
    "By when must a claim be notified?",
    "Until when is the newborn covered?",
])
def test_when_asking_a_time_asks_a_date(question):
    assert asked_value_kinds(question)[0] == "date"


@pytest.mark.parametrize("marker", ["For e.g.", "For example,", "Illustration:"])
@pytest.mark.parametrize("premium", ["Rs. 10000", "$1,000", "EUR 800"])
def test_the_figures_of_a_worked_example_are_not_the_answer(marker, premium):
    quote = ("In the event of cancellation by the insured the refund shall be on a pro-rata "
             f"basis. {marker} if the premium for a one year policy is {premium} and the "
             "policy is cancelled after 243 days, the refund is one third of the premium.")
    result = verdict("How much is refunded when the policy is cancelled?", _direct(quote))
    assert premium.split()[-1].lstrip("$") not in result.text, result
    # the rule's own share is the answer, not the example's figure
    assert result.text == "Pro-rata basis", result


@pytest.mark.parametrize("premium", ["Rs. 10000", "$1,000"])
def test_a_figure_before_an_example_is_still_read(premium):
    quote = (f"The policyholder is refunded {premium} on cancellation. For example, a policy "
             "cancelled in its first month is refunded in full.")
    result = verdict("How much is refunded when the policy is cancelled?", _direct(quote))
    assert result.label == "value" and premium.split()[-1].lstrip("$") in result.text, result


@pytest.mark.parametrize("question", [
    "How is the refund worked out if the policy is cancelled?",
    "How is the refund calculated when the insured cancels?",
])
def test_a_method_question_gets_no_verdict_without_a_figure(question):
    """ "How is the refund worked out?" is answered by the quote's method: with no figure or
    share in it, the verdict line says nothing rather than "the quote states no money"."""
    quote = "The refund shall be worked out on the short period scale in the table below."
    assert verdict(question, _direct(quote)) is None
    share = "The refund shall be made on a pro rata basis for the unexpired period."
    assert verdict(question, _direct(share)).text == "Pro rata basis for the unexpired period"


@pytest.mark.parametrize("question", [
    "What refund is given if the insured cancels the policy?",
    "What refund does the insured get on cancelling the policy?",
])
@pytest.mark.parametrize(("quote", "shown"), [
    (("the insured will be entitled to a pro-rata refund of premium for the unexpired period "
     "in which the policy was in force"),
     "Pro-rata refund of premium for the unexpired period"),
    ("the Company shall refund proportionate premium for the unexpired period in force.",
     "Proportionate premium for the unexpired period in force"),
    ("the Company shall refund 75% of the annual premium if cancelled within one month.",
     "75%"),
])
def test_a_refund_question_asks_an_amount(question, quote, shown):
    assert verdict(question, _direct(quote)).text == shown


@pytest.mark.parametrize(("question", "quote", "shown"), [
    ("Is accidental death while travelling covered?",
     ("The Policy will pay up to the limit of the Sum Insured if accidental injury results in "
     "death while travelling as a passenger."), "Yes"),
    ("Is damage to a parked vehicle covered?",
     "The insurance covers damage caused to the parked vehicle by unknown persons.", "Yes"),
    ("Are lost vehicle keys covered?",
     "This cover shall reimburse the cost of replacing lost vehicle keys up to CHF 1,000.",
     "Yes, up to CHF 1,000"),
    ("Is dental treatment during a trip covered?",
     "This Policy shall pay for dental treatment during a trip up to ₹ 25,000.",
     "Yes, up to ₹ 25,000"),
])
def test_a_grant_by_the_contract_itself_is_a_yes(question, quote, shown):
    """Cover is granted by the insurer ("We will pay") or by the contract ("The Policy will
    pay", "The insurance covers", "This cover shall reimburse")."""
    result = verdict(question, _direct(quote))
    assert result.label == "yes" and result.text == shown, result


@pytest.mark.parametrize(("quote", "place"), [
    ("This Policy covers Allopathic and AYUSH treatments taken in India ONLY.", "India"),
    ("The insurance covers treatment received only within the United Kingdom.",
     "United Kingdom"),
    ("We will pay for hospital treatment in Switzerland only.", "Switzerland"),
])
@pytest.mark.parametrize("asked", ["outside {place}", "abroad", "overseas"])
def test_cover_only_within_a_place_is_no_outside_it(quote, place, asked):
    question = f"Is treatment {asked.format(place=place)} covered?"
    result = verdict(question, _direct(quote))
    assert result.label == "no" and result.text == f"No: only in {place}", result
    inside = verdict(f"Is treatment in {place} covered?", _direct(quote))
    assert inside.label == "yes", inside


@pytest.mark.parametrize(("quote", "label"), [
    (("Do you need a referral to see a specialist? | Answers: Yes. | Why This Matters: This "
     "plan will pay some or all of the costs to see a specialist."), "yes"),
    ("Will you pay less if you use a network provider? Yes. See the list of providers.", "yes"),
    (("Are there services covered before you meet your deductible? | Answers: No. | Why This "
     "Matters: You must pay all of the costs up to the deductible amount."), "no"),
])
def test_an_answer_the_document_states_to_its_own_question(quote, label):
    question = quote.split("?")[0].replace("you", "I") + "?"
    result = verdict(question, _direct(quote))
    assert result.label == label and result.text == label.capitalize(), result


def test_a_question_mark_before_a_sentence_opening_with_no_is_no_answer():
    quote = ("What happens to the bonus? No claim bonus shall be forfeited if the policy is not "
             "renewed within 30 days of its expiry.")
    result = verdict("Is there a no claim bonus?", _direct(quote))
    assert result.basis != "the document states the answer to the question it restates", result


GRACE = "We will allow a grace period of 30 days from the due date of the renewal premium."


@pytest.mark.parametrize(("question", "quote"), [
    ("Is a grace period allowed for premium payment?", GRACE),
    ("Is an engine protect add-on available?",
     "The Engine Protect add-on is available on payment of an additional premium."),
    ("Does the first 30 days waiting period apply?",
     "Expenses related to the treatment of any illness within 30 days from the first policy "
     "commencement date shall be excluded."),
])
def test_asking_whether_a_provision_is_available_or_applies_is_a_yes_when_found(question,
                                                                               quote):
    assert verdict(question, _direct(quote)).label == "yes"


def test_a_provision_asked_of_a_quote_on_another_is_no_yes():
    """"Is an engine protect add-on available?" of a grace-period clause: the quote does
    not name what is asked, so it says nothing of its existence."""
    assert verdict("Is an engine protect add-on available?", _direct(GRACE)).label == \
        "cannot_tell"


@pytest.mark.parametrize(("question", "quote", "shown"), [
    ("How long is the waiting period for pre-existing diseases?",
     ("Expenses related to pre-existing diseases shall be excluded until the expiry of the "
     "number of months of continuous coverage as specified in the Policy Schedule."),
     "As stated in the Policy Schedule"),
    ("How much does the policy pay for road ambulance?",
     "We shall cover the costs incurred up to the limits set out in the Table of Benefits.",
     "As stated in the Table of Benefits"),
    ("What is the compulsory deductible?",
     ("The Company shall not be liable for each and every claim in respect of the deductible "
     "stated in the Certificate of Insurance."), "As stated in the Certificate of Insurance"),
])
def test_a_figure_given_by_pointing_to_the_schedule(question, quote, shown):
    result = verdict(question, _direct(quote))
    assert result.label == "value" and result.text == shown, result


def test_a_stated_figure_wins_over_a_pointer():
    quote = ("We will pay up to Rs. 2,000 per hospitalisation for road ambulance, subject to "
             "the terms specified in the Policy Schedule.")
    result = verdict("How much does the policy pay for road ambulance?", _direct(quote))
    assert result.text == "Rs. 2,000", result


@pytest.mark.parametrize(("question", "quote", "shown"), [
    ("Is there a co-payment?", "This policy will be subject to 50% base co-payment on every "
     "claim.", "Yes: 50%"),
    ("Is there a free look period, and how long is it?", "You will have a free look period "
     "of thirty days from the date of receipt of the policy document.", "Yes: 30 days"),
    ("Is there a cap on room rent per day?", "Room rent is payable up to 2% of the Sum "
     "Insured per day.", "Yes: 2%"),
    ("Is there an excess for own damage?", "A compulsory excess of EUR 250 applies to "
     "each own damage claim.", "Yes: EUR 250"),
])
def test_a_provision_found_is_shown_with_its_figure(question, quote, shown):
    result = verdict(question, _direct(quote))
    assert result.label == "yes" and result.text == shown, result


def test_a_provision_without_a_figure_is_a_plain_yes():
    result = verdict("Is there a grievance procedure?",
                     _direct("The insured may lodge a grievance with the Grievance Cell."))
    assert result.text == "Yes", result


@pytest.mark.parametrize(("quote", "room", "icu"), [
    ("Room/ ICU Charges (per day) | PLAN A: Room - Up to 1% of SI or actual, whichever is "
     "lower ICU – Up to 2% of SI or actual, whichever is lower", "1%", "2%"),
    ("Room rent is payable up to Rs. 5,000 per day and ICU charges up to Rs. 10,000 per day.",
     "Rs. 5,000", "Rs. 10,000"),
    ("We pay for a hospital room up to $200 a day, and for the ICU up to $600 a day.",
     "$200", "$600"),
])
def test_the_value_read_is_the_one_the_subject_names(quote, room, icu):
    """Of two figures in one quote, the verdict reads the one the question's subject
    precedes ("What limit applies to ICU charges?" -> the ICU's), not the first."""
    assert verdict("What limit applies to ICU charges?", _direct(quote)).text == icu
    assert verdict("What is the room rent limit?", _direct(quote)).text == room


@pytest.mark.parametrize(("limit", "shown"), [
    ("Rs. 1,500", "Rs. 1,500"), ("$300", "$300"), ("EUR 250", "EUR 250")])
def test_the_insurer_bearing_a_cost_grants_cover_up_to_its_limit(limit, shown):
    quote = ("In the event of the vehicle being disabled the Company will bear the reasonable "
             f"cost of removal to the nearest repairer, not exceeding in all {limit}.")
    result = verdict("Is towing to the nearest repairer covered, and up to how much?",
                     _direct(quote))
    assert result.label == "yes" and result.text == f"Yes, up to {shown}", result


def test_the_value_asked_second_answers_when_the_yes_or_no_is_not_said():
    quote = ("In the event of cancellation initiated by the insured, the refund will be on a "
             "pro rata basis, provided no claim has been made during the policy period.")
    result = verdict("Can the insured cancel the policy, and what refund is given?",
                     _direct(quote))
    assert result.text == "Pro rata basis", result
    # a quote that does not name what is asked stays "Cannot tell", figure or not
    other = ("Expenses related to the treatment of the listed conditions shall be excluded "
             "until the expiry of 24 months of continuous coverage.")
    assert verdict("Is maternity covered, and after what waiting period?",
                   _direct(other)).label == "cannot_tell"


@pytest.mark.parametrize("provision, quote, shown", [
    ("co-payment", "10% Co-payment on each admissible claim under the Policy.", "Yes: 10%"),
    ("co-payment", "A copayment of 20 per cent applies to each and every claim.", "Yes: 20 per cent"),
    ("deductible", "A deductible of Rs. 5,000 applies to each and every claim.",
     "Yes: Rs. 5,000"),
    ("deductible", "Each claim is subject to an excess (deductible) of £250.", "Yes: £250"),
])
@pytest.mark.parametrize("asked", ["Is there a {p} on claims?", "Does a {p} apply to claims?",
                                   "Does the {p} apply to each claim?"])
def test_a_provision_applied_to_claims_is_asked_whether_it_exists(provision, quote, shown,
                                                                   asked):
    """"Is there a co-payment on claims?" asks whether a provision exists: "claims" names what
    it applies to, not cover the quote must grant (it read "Cannot tell from the quote")."""
    found = verdict(asked.format(p=provision), _direct(quote))
    assert found is not None and found.text == shown, found


@pytest.mark.parametrize("asked", ["Is there a co-payment on claims?",
                                   "Does a co-payment apply to claims?"])
def test_a_provision_the_quote_does_not_name_cannot_tell(asked):
    """A clause on interest for a late "payment of a claim" names no co-payment."""
    quote = ("In the case of delay in the payment of a claim, the Company shall pay interest "
             "at a rate 2% above the bank rate.")
    found = verdict(asked, _direct(quote))
    assert found is not None and found.label == "cannot_tell", found


@pytest.mark.parametrize(("quote", "single", "family"), [
    ("What is the overall deductible? | Answers: $500 / individual or $1,000 / family",
     "$500", "$1,000"),
    ("The deductible is £250 per individual and £750 per family each year.", "£250", "£750"),
    ("A deductible of Rs. 5,000 for each individual, Rs. 12,000 for the family, applies.",
     "Rs. 5,000", "Rs. 12,000"),
    ("Out-of-pocket limit: $2,500 individual / $5,000 family", "$2,500", "$5,000"),
    ("Deductible: Individual - EUR 400; Family - EUR 900", "EUR 400", "EUR 900"),
])
def test_the_value_read_is_the_one_stated_for_the_subject(quote, single, family):
    """A qualifier written after each figure ("$500 / individual or $1,000 / family") names
    that figure, not the next one; written before it, it names the one it precedes."""
    assert verdict("What is the deductible for an individual?", _direct(quote)).text == single
    assert verdict("What is the deductible for a family?", _direct(quote)).text == family


@pytest.mark.parametrize(("limit", "rule"), [
    ("25% of Sum Insured or INR 40,000 per eye", "whichever is lower"),
    ("1% of the sum insured or Rs. 5,000 per day", "whichever is less"),
    ("$10,000 or 10% of the eligible expenses", "whichever is greater"),
    ("twenty per cent (20%) of the Sum Insured or £2,500", "whichever is the lower"),
])
def test_a_limit_that_is_the_lower_of_two_figures_states_both(limit, rule):
    quote = f"Cataract treatment is paid subject to a limit of {limit}, {rule}, per policy year."
    result = verdict("What is the limit for cataract treatment?", _direct(quote))
    assert result.text == f"{limit}, {rule}", result


@pytest.mark.parametrize(("question", "quote", "shown"), [
    ("Is there a cap on liability?",
     "Buyer shall give notice of any defect within ten (10) days. Seller's total liability "
     "shall not exceed $50,000.", "Yes: $50,000"),
    ("Is there a limit on liability?",
     "Notice is due within 30 days of receipt, and the liability of the Company is limited "
     "to 10% of the fees paid.", "Yes: 10%"),
    ("Is there a waiting period for hernia?",
     "Hernia is covered up to Rs. 50,000 after a waiting period of 24 months.",
     "Yes: 24 months"),
])
def test_the_figure_beside_yes_is_of_the_kind_asked(question, quote, shown):
    assert verdict(question, _direct(quote)).text == shown


@pytest.mark.parametrize(("inside", "outside", "read_in", "read_out"), [
    ("$50 copay/visit", "40% coinsurance", "$50", "40%"),
    ("£30 per visit", "£90 per visit", "£30", "£90"),
    ("20% coinsurance", "EUR 120 per visit", "20%", "EUR 120")])
def test_the_value_is_read_from_the_column_asked(inside, outside, read_in, read_out):
    row = (f"Specialist visit | Network Provider (You will pay the least): {inside} | "
           f"Out-of-Network Provider (You will pay the most): {outside} | Limitations, "
           "Exceptions, & Other Important Information: Preauthorization is required.")
    assert verdict("How much do I pay for a specialist visit out of network?",
                   _direct(row)).text == read_out
    assert verdict("How much do I pay for a specialist visit in network?",
                   _direct(row)).text == read_in


@pytest.mark.parametrize(("question", "quote", "shown"), [
    ("What is the term of the agreement?",
     "The initial term of this Agreement shall be for a period of five (5) years from the "
     "Effective Date.", "5 years"),
    ("What is the term of the lease?",
     "The Lease shall run for 36 months from the commencement date.", "36 months"),
    ("What depreciation applies to glass parts?", "For all parts made of glass - Nil", "Nil"),
    ("What excess applies to windscreen claims?", "Windscreen claims | Excess: NIL", "Nil"),
])
def test_a_value_asked_in_other_words_is_read_by_the_question_kind(question, quote, shown):
    """No pattern of ``asked_value_kinds`` knows "term" or "depreciation": the learned
    question kind says a period or an amount is asked, and the verdict reads it."""
    assert verdict(question, _direct(quote)).text == shown


def _lines(*texts: str) -> DirectAnswer:
    lines = [AnswerLine(clause_id="doc:9.3", label="9.3", document="Policy", text=text,
                        span=(0, len(text)), pages=[4]) for text in texts]
    return DirectAnswer(found=True, text=" ".join(texts), lines=lines)


@pytest.mark.parametrize(("older", "younger", "shown"), [
    ("15%", "5%", "15% or 5%"), ("twenty per cent", "ten per cent", "twenty per cent or ten per cent"),
    ("Rs. 2,000", "Rs. 1,000", "Rs. 2,000 or Rs. 1,000")])
def test_figures_of_two_conditions_are_both_stated(older, younger, shown):
    """Two quoted items state the figure asked, each on its own condition, and nothing in
    the question picks one: the verdict states both, not the first."""
    direct = _lines(f"• Co-payment of {older} on all claims for an Insured Person aged above "
                    "75 years", f"• Co-payment of {younger} on all claims for an Insured "
                    "Person aged 75 years or less")
    result = verdict("What co-payment applies to every claim?", direct)
    assert result.text == f"{shown} (each on its condition, quoted)", result


def test_the_sentence_holding_more_of_the_question_decides():
    direct = _lines("3.1.2 Pre Hospitalisation The Company shall indemnify the medical expenses "
                    "incurred up to thirty days immediately before the insured is hospitalised,",
                    "3.1.3 Post Hospitalisation The Company shall indemnify the medical expenses "
                    "incurred up to sixty days immediately after the insured is discharged,")
    assert verdict("For how many days before admission are medical expenses covered?",
                   direct).text == "30 days"
    assert verdict("For how many days after discharge are medical expenses covered?",
                   direct).text == "60 days"


@pytest.mark.parametrize(("quote", "shown"), [
    ("The initial term of this Agreement shall be for a period of five (5) years from the date "
     "first set forth above and shall thereafter automatically renew for additional two (2) "
     "year terms unless a party gives notice of non-renewal.", "5 years"),
    ("This Agreement shall continue for 3 years unless terminated by either party on ninety "
     "(90) days' prior written notice.", "3 years"),
    ("Either party may end this Agreement by giving thirty (30) days' prior written notice; "
     "it otherwise continues until the end of the fifteenth Contract Year.",
     "Cannot tell: the quote states no length of the term"),
])
def test_the_term_is_its_own_length_not_a_renewal_or_a_notice(quote, shown):
    for question in ("What is the term of the agreement?", "How long does the agreement last?"):
        assert verdict(question, _direct(quote)).text == shown, question


@pytest.mark.parametrize("notice", ["three months", "3 months", "ninety (90) days"])
def test_a_notice_before_expiry_is_not_how_long_a_contract_is_valid(notice):
    quote = ("The insurance is valid for the term specified in the policy. Unless the insurance "
             f"contract is terminated {notice} prior to expiry, it is automatically renewed for "
             "another year.")
    result = verdict("How long is the insurance contract valid?", _direct(quote))
    assert result.label == "cannot_tell", result


@pytest.mark.parametrize(("share", "cap", "shown"), [
    ("2% of the sum insured", "Rs. 5,000/-per day", "2% of the sum insured subject to maximum of Rs. 5,000/-per day"),
    ("1% of the Sum Insured", "$100 per day", "1% of the Sum Insured, subject to a maximum of $100 per day"),
    ("one per cent of the Sum Insured", "EUR 150 per day",
     "one per cent of the Sum Insured, subject to a maximum of EUR 150 per day"),
])
def test_a_share_capped_by_an_amount_is_stated_with_its_cap(share, cap, shown):
    joiner = " subject to maximum of " if cap.startswith("Rs") else ", subject to a maximum of "
    quote = f"Room rent, boarding and nursing expenses are paid up to {share}{joiner}{cap}."
    assert verdict("What is the room rent limit?", _direct(quote)).text == shown


def test_a_date_asked_is_one_date_even_when_the_quote_states_several():
    """Dates are not figures of a provision on conditions: "When is the agreement effective?"
    over two quoted lines that each state a date reads the first, as before session 31."""
    direct = _lines("Signed by the parties on January 10, 2020.",
                    "Prices as revised on December 11, 2018 apply.")
    assert verdict("What is the effective date?", direct).text == "January 10, 2020"


def _answered(*documents: DirectAnswer) -> Answer:
    answer = Answer(question="What is the waiting period for cataract?", answer="",
                    mode="extractive", evidence=[], chain=[], found=True,
                    per_document=list(documents), direct=documents[0],
                    direct_answer_documents=[d.doc_id for d in documents])
    answer.direct_quote = documents[0].text if len(documents) == 1 else "\n".join(
        f"{d.document} ({d.file}): {d.text}" for d in documents)
    attach_verdicts(answer, answer.question)
    return answer


@pytest.mark.parametrize("period", ["24 months", "twenty four (24) months", "2 years"])
def test_the_direct_answer_states_the_verdict_before_the_quote(period):
    quote = LISTED.replace("24 months", period)
    direct = _direct(quote).model_copy(update={"doc_id": "a", "document": "A", "file": "a.pdf"})
    answer = _answered(direct)
    assert answer.verdict is not None and answer.verdict.label == "value"
    stated = stated_answer(answer)
    assert stated == f"{answer.verdict.text} — “{quote}”"
    assert answer.direct_quote == quote  # the quote itself stays verbatim


def test_a_cannot_tell_verdict_leaves_the_quote_alone():
    quote = "The Company shall pay the claim within a reasonable time."
    answer = _answered(_direct(quote).model_copy(update={"doc_id": "a"}))
    answer = answer.model_copy(update={"question": "Is the air ambulance covered?"})
    attach_verdicts(answer, "Is the air ambulance covered?")
    assert answer.verdict is not None and answer.verdict.label == "cannot_tell"
    assert stated_answer(answer) == quote


def test_documents_answering_equally_state_each_ones_verdict():
    first = _direct(LISTED).model_copy(update={"doc_id": "a", "document": "A", "file": "a.pdf"})
    second = _direct(LISTED.replace("24 months", "36 months")).model_copy(
        update={"doc_id": "b", "document": "B", "file": "b.pdf"})
    lines = stated_answer(_answered(first, second)).split("\n")
    assert lines[0].startswith("A (a.pdf): 24 months — “") and "24 months of" in lines[0]
    assert lines[1].startswith("B (b.pdf): 36 months — “") and "36 months of" in lines[1]


@pytest.mark.parametrize("first, second, said", [
    ("24 months", "36 months", "No"),
    ("two (2) years", "thirty-six (36) months", "No"),
])
def test_documents_that_answer_alike_for_their_own_reasons(first, second, said):
    """Asked of the first year, one policy waits 24 months and another 36: no in both, each
    document's line saying why; one that does not wait that long makes it depend."""
    question = "Is cataract surgery covered in the first policy year?"
    named = LISTED.replace("the listed conditions", "cataract")
    one = _direct(named.replace("24 months", first)).model_copy(
        update={"doc_id": "a", "document": "A", "file": "a.pdf"})
    other = _direct(named.replace("24 months", second)).model_copy(
        update={"doc_id": "b", "document": "B", "file": "b.pdf"})
    answer = _answered(one, other)
    attach_verdicts(answer, question)
    assert answer.verdict is not None and answer.verdict.label == said.lower()
    assert answer.verdict.text == f"{said}: see each document's answer"
    short = _direct(named.replace("24 months", "30 days")).model_copy(
        update={"doc_id": "c", "document": "C", "file": "c.pdf"})
    mixed = _answered(one, short)
    attach_verdicts(mixed, question)
    assert mixed.verdict is not None and mixed.verdict.label == "cannot_tell"


@pytest.mark.parametrize("period", ["12 months", "twelve (12) months", "12 (twelve) months",
                                    "one year", "1 (one) year", "365 days"])
@pytest.mark.parametrize("asked", ["Is cataract surgery covered in the first year?",
                                   "Is cataract surgery covered during the first policy year?",
                                   "Is cataract covered in the first 12 months?"])
def test_a_waiting_period_as_long_as_the_time_asked_is_a_no(period, asked):
    """A waiting period that lasts the whole time asked about leaves none of it covered."""
    result = verdict(asked, _direct(WAITING.format(period=period)))
    assert result.label == "no" and result.text.startswith("No: "), result.text


@pytest.mark.parametrize("period", ["12 months", "one year"])
def test_a_waiting_period_run_by_the_time_asked_is_a_yes(period):
    result = verdict("Is cataract surgery covered after two years?",
                     _direct(WAITING.format(period=period)))
    assert result.label == "yes", result.text


@pytest.mark.parametrize("periods", ["90 days/ one year/ two years/ three years",
                                     "thirty (30) days, one (1) year or two (2) years",
                                     "24 months or 36 months", "3 months / 6 months / 1 year"])
def test_alternative_waiting_periods_give_no_verdict(periods):
    """Which of several periods applies to the thing asked is stated elsewhere (the list
    the condition is in): the first of them is not its answer."""
    result = verdict("Is cataract surgery covered in the first year?",
                     _direct(WAITING.format(period=periods)))
    assert result.label == "cannot_tell", result.text


@pytest.mark.parametrize("period", ["24 months or until the next renewal",
                                    "24 months, whichever is later"])
def test_one_waiting_period_with_a_condition_is_read(period):
    result = verdict("Is cataract surgery covered in the first year?",
                     _direct(WAITING.format(period=period)))
    assert result.text == "No: 24-month waiting period", result.text


@pytest.mark.parametrize(("question", "quote", "label"), [
    # a claim named as the time of what is asked: leave to terminate, read as such
    ("Can the contract be terminated after a claim?",
     ("After a claim for which we provide benefits, the contract may be terminated by either "
      "party in writing."), "yes"),
    ("May the insurer cancel the policy following any claim?",
     "The insurer shall not cancel the policy on the ground that a claim was made.", "no"),
    # a claim made for something is still a question of cover
    ("Can a claim be made for dental treatment?",
     "We will pay for dental treatment needed because of an accident.", "yes"),
])
def test_a_claim_named_as_the_time_of_what_is_asked_is_no_cover_question(question, quote,
                                                                          label):
    read = verdict(question, _direct(quote))
    assert read is not None and read.label == label, read


@pytest.mark.parametrize("question", [
    "Are my glasses or contact lenses paid for?",
    "Can I get my spectacles paid by the policy?",
    "Will I get glasses paid in the second year?",
])
@pytest.mark.parametrize("quote, said", [
    ("The following are excluded: prescribed glasses, spectacles and contact lenses.",
     "No: excluded"),
    ("We will pay for spectacles and glasses up to INR 5,000 in a policy year.",
     "Yes, up to INR 5,000"),
])
def test_paid_for_asks_cover(question, quote, said):
    """"Paid for" and "get ... paid" ask for cover as "covered" does."""
    assert verdict(question, _direct(quote)).text == said


def test_a_payment_asked_of_the_premium_is_no_cover_question():
    read = verdict("Is the premium paid monthly?",
                   _direct("The premium is payable annually in advance."))
    assert read is None or not read.text.startswith(("Yes, up to", "No: excluded")), read


# A promise in the passive: "shall be reimbursable", "will be paid by the Plan" (an Oriental
# group wording's ambulance clause read "Cannot tell from the quote"); a premium that "is
# paid" in instalments is a condition, not cover.
@pytest.mark.parametrize("promise", ["shall be reimbursable", "will be reimbursable",
                                     "shall be paid by the Company", "will be indemnified"])
def test_a_passive_promise_covers(promise):
    quote = (f"Ambulance services up to 1% of the sum insured or Rs 2,000, whichever is less, "
             f"{promise} when the patient is shifted to a hospital.")
    assert verdict("Is ambulance cost covered?", _direct(quote)).text.startswith("Yes"), quote


@pytest.mark.parametrize("condition", ["is paid", "are paid"])
def test_a_premium_paid_in_instalments_is_no_cover(condition):
    quote = (f"Where the premium {condition} in instalments, the sum insured for ambulance "
             "services is stated in the schedule.")
    assert not verdict("Is ambulance cost covered?", _direct(quote)).text.startswith("Yes")


# A bracketed aside that names kinds of a thing ("Facility fee (e.g., ambulatory surgery
# center)") is no worked example: the figures after it are the row's own (a US summary's
# outpatient surgery row was "Cannot tell: the quote states no money", then not found).
# Asked a word two kinds of value may state ("coinsurance"), the value stated for that word
# is read ("40% coinsurance", not the "$100/day copay" before it).
ROW = ("If you have outpatient surgery | Services You May Need: Facility fee ({aside} "
       "ambulatory surgery center) | Network Provider: $100/day copay | Out-of-Network "
       "Provider: 40% coinsurance")


@pytest.mark.parametrize("aside", ["e.g.,", "e.g.", "for example,", "for instance"])
@pytest.mark.parametrize(("asked", "expected"), [("coinsurance", "40%"), ("copay", "$100")])
def test_an_aside_naming_kinds_is_no_worked_example(aside, asked, expected):
    quote = ROW.format(aside=aside)
    result = verdict(f"What is the {asked} for an outpatient surgery facility fee?",
                     _direct(quote))
    assert result.text == expected, result


def test_a_worked_example_after_the_figure_is_still_left_out():
    quote = ("The refund is 50% of the premium. For e.g. If Policy Premium is Rs. 10000, the "
             "refund is Rs. 5000.")
    assert verdict("What percentage of the premium is refunded?", _direct(quote)).text == "50%"


# What an exclusion excepts from itself is not excluded by it: "Treatment for any other
# system other than modern medicine (allopathy) and AYUSH therapies" under an exclusions
# heading answered "Are AYUSH treatments covered?" with "No: excluded" (a Bajaj Allianz
# mediclaim wording). The same in other carve-out words; a subject named outside the
# carve-out too is still excluded.
def _under_exclusions(text: str) -> DirectAnswer:
    heading = AnswerLine(clause_id="doc:D", label="D", document="Policy",
                         text="SECTION D) EXCLUSIONS UNDER THE POLICY", span=(0, 38), pages=[6],
                         heads=True)
    item = AnswerLine(clause_id="doc:D/10", label="D/10", document="Policy", text=text,
                      span=(40, 40 + len(text)), pages=[6])
    return DirectAnswer(found=True, text=text, lines=[heading, item])


@pytest.mark.parametrize("carve", ["other than", "except", "except for", "save for"])
def test_what_an_exclusion_excepts_is_not_excluded_by_it(carve):
    quote = f"10. Treatment for any other system {carve} modern medicine and AYUSH therapies."
    result = verdict("Are AYUSH treatments covered?", _under_exclusions(quote))
    assert result.text == "Not excluded by the quote: its exclusion excepts what is asked", \
        result
    result = verdict("Is acupuncture treatment covered?", _under_exclusions(quote))
    assert result.text == "No: excluded", result


@pytest.mark.parametrize("carve", ["other than", "except"])
def test_a_subject_named_outside_the_carve_out_is_still_excluded(carve):
    quote = f"Dental treatment of any kind is excluded, {carve} dental treatment after an accident."
    assert verdict("Is dental treatment covered?", _direct(quote)).text == "No: excluded"


# Asked what happens at a renewal, whether the policy renews is no answer: "Can the sum
# insured be increased at renewal?" and "Is there a discount for a claim-free renewal?"
# read "Renews; not said to be automatic" (HDFC Easy Health, Arogya Sanjeevani).
RENEWED = "The policy shall ordinarily be renewed except on grounds of fraud or misrepresentation."


@pytest.mark.parametrize("question", [
    "Can the sum insured be increased at renewal?",
    "Is a medical check-up needed on renewal?",
    "Is there a discount for a claim-free renewal?",
    "Is the renewal premium the same as the first year's?",
])
def test_what_happens_at_a_renewal_is_not_whether_it_renews(question):
    assert not verdict(question, _direct(RENEWED)).text.startswith("Renews"), question


@pytest.mark.parametrize("question", ["Is the policy renewable?", "Can the policy be renewed?",
                                      "Is renewal guaranteed for life?"])
def test_whether_it_renews_is_still_read(question):
    assert verdict(question, _direct(RENEWED)).text == "Renews; not said to be automatic"


# A right asked of one side is not given by the quote that gives it to the other: "Can the
# group policy be cancelled by the insurer?" of "The Policyholder may cancel this policy
# ..." read "Yes" (Reliance group health).
BY_POLICYHOLDER = ("17. Cancellation The Policyholder may cancel this policy by giving 7 days' "
                   "written notice to the Company, and the Company shall refund the premium.")
BY_INSURER = ("The Company may cancel the policy on grounds of misrepresentation or fraud by "
              "sending 15 days' notice to the insured.")


@pytest.mark.parametrize(("question", "quote", "expected"), [
    ("Can the group policy be cancelled by the insurer?", BY_POLICYHOLDER,
     "Cannot tell: the quote gives that right to the policyholder"),
    ("Can the insurer cancel the policy?", BY_POLICYHOLDER,
     "Cannot tell: the quote gives that right to the policyholder"),
    ("Can I cancel the policy?", BY_INSURER,
     "Cannot tell: the quote gives that right to the insurer"),
    ("Can the policy be cancelled by the policyholder?", BY_POLICYHOLDER, "Yes"),
    ("Can the insurer cancel the policy?", BY_INSURER, "Yes"),
    ("Can the policy be cancelled?", BY_POLICYHOLDER, "Yes"),
])
def test_a_right_is_read_for_the_side_asked(question, quote, expected):
    assert verdict(question, _direct(quote)).text == expected


@pytest.mark.parametrize("event", ["birth of the new born", "delivery", "the accident"])
def test_a_period_counted_from_an_event_of_the_claim_is_no_wait(event):
    quote = f"Routine preventive care is covered until 30 days following {event}."
    assert verdict("Is routine preventive care covered?", _direct(quote)).text == "Yes"


# "shall not exceed" caps a figure; asked whether something may be done, it says no
# ("Can the sum insured be increased at renewal?" of a loading clause read "No").
@pytest.mark.parametrize("cap", ["shall not exceed", "will not be more than"])
def test_a_cap_on_a_figure_forbids_nothing(cap):
    quote = (f"The risk loading {cap} 100% per condition; loadings apply from the renewal or "
             "on a request to increase the sum insured.")
    assert verdict("Can the sum insured be increased?", _direct(quote)).text != "No"


def test_a_right_the_whole_clause_gives_the_side_asked_is_not_refused():
    # the quote cut after the policyholder's right; the clause goes on with the insurer's
    result = verdict("Can the insurer cancel the policy?", _direct(BY_POLICYHOLDER),
                     clause_text=lambda clause_id: f"{BY_POLICYHOLDER} {BY_INSURER}")
    assert result.text == "Yes", result


# "Is there a limit on ...?" is answered yes by a figure, the words that set a limit or the
# schedule it is left to; an item of a waiting-period list ("• Cataract • NIL") names no
# limit (HDFC Easy Health's read "Yes").
@pytest.mark.parametrize(("question", "quote", "expected"), [
    ("Is there a limit on cataract surgery per eye?", "f. Eye • Cataract • NIL",
     "Cannot tell: the quote does not name what is asked about"),
    ("Is there a limit on cataract surgery per eye?",
     "Cataract treatment is covered up to 25% of the Sum Insured or INR 40,000 per eye.",
     "Yes: 25%"),
    ("Is there a limit on room rent?",
     "We will cover Reasonable and Customary Charges for Room Rent as shown in the Schedule.",
     "Yes"),
    ("Is there a cap on liability?",
     "In no event shall either party's liability exceed the fees paid in the twelve months.",
     "Yes"),
])
def test_a_limit_is_named_by_its_figure_or_the_words_that_set_it(question, quote, expected):
    assert verdict(question, _direct(quote)).text == expected


# "Is X limited?" asks what "Is there a limit on X?" asks, in any of the words that say it
# ("Is cataract treatment limited?" of Arogya's "subject to a limit of 25% of Sum Insured"
# read "Cannot tell from the quote"); "restricted to ..." asks where or to whom, not a limit.
@pytest.mark.parametrize("question", [
    "Is cataract surgery limited?", "Is cataract surgery capped?",
    "Is cataract surgery sub-limited under the policy?",
    "Is cataract surgery subject to a sublimit?", "Is cataract surgery restricted?",
    "Is cataract surgery subject to any limit in this policy?",
])
@pytest.mark.parametrize(("quote", "expected"), [
    ("Cataract surgery is covered subject to a limit of 25% of the Sum Insured.", "Yes: 25%"),
    ("Cataract surgery: reimbursed up to £ 2,000 per eye.", "Yes: £ 2,000"),
    ("Cataract surgery is covered up to the amount shown in the Schedule.", "Yes"),
])
def test_asked_whether_a_subject_is_limited_the_limit_is_read(question, quote, expected):
    assert verdict(question, _direct(quote)).text == expected


def test_restricted_to_a_place_asks_no_limit():
    quote = "Treatment is covered up to INR 50,000 in network hospitals."
    assert verdict("Is treatment restricted to network hospitals?",
                   _direct(quote)).text != "Yes: INR 50,000"


# A common word asked in lower case is not named by an acronym the quote writes only in
# capitals: "Are hearing aids covered?" of the HIV/AIDS cover read "Yes" (an Oriental group
# wording). Asked in capitals, or named in lower case by the quote, it is.
HIV_COVER = ("HIV/ AIDS Cover The Company shall indemnify the Medical Expenses related to the "
             "following stages of HIV infection.")


@pytest.mark.parametrize(("question", "quote", "expected"), [
    ("Are hearing aids covered?", HIV_COVER,
     "Cannot tell: the quote does not name what is asked about"),
    ("Is AIDS treatment covered?", HIV_COVER, "Yes"),
    ("Are hearing aids covered?", "Hearing aids are covered up to $1,000 a year.",
     "Yes, up to $1,000"),
    ("Are icu charges covered?", "ICU charges are payable up to 2% of the sum insured.",
     "Yes, up to 2%"),
    # a clause set in capitals holds no acronyms: its words name what they say
    ("Is there a maximum amount a party can be liable for?",
     "EXCEPT FOR ITS INDEMNITIES, EACH PARTY'S LIABILITY FOR DAMAGES HEREUNDER SHALL NOT "
     "EXCEED $1,000,000.", "Yes: $1,000,000"),
])
def test_an_acronym_does_not_name_a_common_word(question, quote, expected):
    assert verdict(question, _direct(quote)).text == expected


@pytest.mark.parametrize("quote", [
    "(C) One (1) day at a community event, on a date the Parties agree.",
    "Buyer shall order at least 500 units in each quarter.",
])
def test_a_minimum_is_named_by_a_count_or_a_length(quote):
    result = verdict("Is there a minimum purchase or order quantity that a party must meet?",
                     _direct(quote))
    assert result.text.startswith("Yes"), result


# An age stated of another person than the one asked about is not the age asked: "What is
# the age limit for the insured?" of a child escort cover ("... Insured Person's minor
# children aged below 17 years") read "17 years" (Chola travel).
ESCORT = ("The policy shall reimburse the travelling expenses of the Insured Person's minor "
          "{who} aged below {age} for their return home.")


@pytest.mark.parametrize("who", ["children", "dependants", "grandchildren"])
@pytest.mark.parametrize("age", ["17 years", "seventeen (17) years"])
def test_an_age_of_another_person_is_not_the_age_asked(who, age):
    quote = ESCORT.format(who=who, age=age)
    result = verdict("What is the age limit for the insured?", _direct(quote))
    assert result.text == "Cannot tell: the quote states the age of another person", result


@pytest.mark.parametrize("age", ["17 years", "seventeen (17) years"])
def test_an_age_of_the_person_asked_is_read(age):
    quote = ESCORT.format(who="children", age=age)
    assert verdict("Up to what age are children covered?", _direct(quote)).text == "17 years"


# An optional cover that applies on a condition ("TA15- Key Replacement ... This cover is
# applicable if it is shown on your schedule") read "Cannot tell from the quote" (Tata AIG
# motor, fresh questions of session 44): it is cover, on that condition.
@pytest.mark.parametrize(("quote", "said"), [
    ("TA15- Key Replacement. This cover is applicable if it is shown on your schedule.",
     "Yes, if it is shown on your schedule"),
    ("Section 7 - Key Replacement. The benefit shall be available only if the Schedule shows it.",
     "Yes, if the Schedule shows it"),
    ("Key replacement extension: this Extension is operative provided that an additional "
     "premium of $25 has been paid.", "Yes, provided that an additional premium of $25 has "
     "been paid"),
    ("KEY REPLACEMENT - This add-on will be applicable when opted for in the proposal form.",
     "Yes, when opted for in the proposal form"),
])
def test_a_cover_that_applies_on_a_condition_is_a_conditional_yes(quote, said):
    result = verdict("Is key replacement covered?", _direct(quote))
    assert result.text == said and result.label == "conditional", result


def test_a_cover_applicable_on_a_condition_of_something_else_is_not_asked():
    quote = "Roadside assistance. This cover is applicable if it is shown on your schedule."
    assert verdict("Is key replacement covered?", _direct(quote)).text.startswith(
        "Cannot tell: the quote does not name")


# "Is a health check-up covered every year?" read "Yes, up to 75 Lakh rupees" from "...
# applicable for Sum Insured up to 75 Lakh rupees" (Aditya Birla Activ Health, session 44):
# the sum insured of the plans a cover applies to is no limit of the cover.
@pytest.mark.parametrize("band", ["for Sum Insured up to 75 Lakh rupees",
                                  "for policies with a sum insured above INR 5,00,000",
                                  "where the Sum Insured is $100,000 or more",
                                  "for sums insured of £50,000 and over"])
def test_a_sum_insured_band_is_no_limit_of_the_cover(band):
    quote = f"We will cover one health check-up in a Policy Year, {band}."
    assert verdict("Is a health check-up covered?", _direct(quote)).text == "Yes"


@pytest.mark.parametrize(("limit", "shown"), [("up to 1% of the Sum Insured", "1%"),
                                              ("up to Rs. 5,000", "Rs. 5,000")])
def test_a_limit_stated_of_the_sum_insured_is_still_read(limit, shown):
    quote = f"We will cover one health check-up in a Policy Year, {limit}."
    assert verdict("Is a health check-up covered?", _direct(quote)).text == f"Yes, up to {shown}"


def test_the_sum_insured_of_the_cover_itself_is_its_limit():
    quote = ("Newly born child shall be covered from day one and expenses shall only be payable "
             "within the specified sum insured of Rs 50,000/- under Maternity benefit extension.")
    assert verdict("Is a newly born child covered?", _direct(quote)).text == \
        "Yes, up to Rs 50,000/-"


# "Is treatment of obesity covered?" read "No: excluded" from "Obesity / Weight Control
# (Code- Excl06) Expenses related to the surgical treatment of obesity that does not fulfil
# all the below conditions:" (Aditya Birla Activ Health, session 44): what meets the
# conditions is covered.
@pytest.mark.parametrize("quote", [
    "6. Obesity / Weight Control (Code- Excl06) Expenses related to the surgical treatment of "
    "obesity that does not fulfil all the below conditions:",
    "(f) Weight control: we will not pay for surgery for obesity which does not meet each of "
    "the following conditions -",
    "Obesity treatment is excluded unless all of the conditions in Schedule 2 have been met.",
])
def test_an_exclusion_of_what_fails_its_conditions_is_conditional(quote):
    result = verdict("Is treatment of obesity covered?", _under_exclusions(quote))
    assert result.label == "conditional", result


def test_an_exclusion_with_an_unrelated_condition_word_still_excludes():
    quote = "Obesity treatment is excluded. Claims are paid subject to the policy conditions."
    assert verdict("Is treatment of obesity covered?", _direct(quote)).text == "No: excluded"


# "Misuse of app / information is however not covered including any consequential loss"
# read "Cannot tell from the quote" (SBI General motor, session 44): an adverb between the
# verb and its negation still refuses.
@pytest.mark.parametrize("adverb", ["however", "also", "therefore", "further"])
def test_a_refusal_with_an_adverb_before_not_is_read(adverb):
    quote = f"Misuse of the app is {adverb} not covered, including any consequential loss."
    assert verdict("Is consequential loss covered?", _direct(quote)).text == "No: excluded"


# "Is there a waiting period for maternity benefits?" read "Yes: 48 months" from "Benefits
# will not be available for Pre-Existing Diseases until 48 months ..." (Max Bupa group
# health, session 44): "benefits" says what is paid, not which.
@pytest.mark.parametrize(("asked", "generic"), [("maternity", "benefits"),
                                                ("ambulance", "charges"),
                                                ("dental", "treatment")])
def test_a_provision_is_not_named_by_a_generic_word_alone(asked, generic):
    quote = (f"{generic.capitalize()} will not be available for Pre-Existing Diseases until 48 "
             "months of continuous coverage have elapsed.")
    result = verdict(f"Is there a waiting period for {asked} {generic}?", _direct(quote))
    assert result.text == "Cannot tell: the quote does not name what is asked about", result
    named = quote.replace("Pre-Existing Diseases", f"{asked} {generic}")
    assert verdict(f"Is there a waiting period for {asked} {generic}?",
                   _direct(named)).text == "Yes: 48 months"


def _lines(*texts: str, heads: tuple[bool, ...] = ()) -> DirectAnswer:
    lines, start = [], 0
    for number, text in enumerate(texts):
        lines.append(AnswerLine(clause_id=f"doc:{number}", label=str(number), document="Policy",
                                text=text, span=(start, start + len(text)), pages=[2],
                                heads=number < len(heads) and heads[number]))
        start += len(text) + 1
    return DirectAnswer(found=True, text=" ".join(texts), lines=lines)


# "Is domiciliary hospitalisation covered?" read "No: excluded": below the grant the answer
# quoted "Subject however to the condition that Domiciliary Hospitalisation benefit shall not
# cover" without the list it refuses (Oriental group mediclaim, session 44).
@pytest.mark.parametrize("refusal", [
    "Subject however to the condition that Domiciliary Hospitalisation benefit shall not cover",
    "Domiciliary hospitalisation benefit will not cover:",
    "The following are excluded from the domiciliary hospitalisation benefit:-",
])
def test_a_refusing_lead_in_quoted_below_a_grant_refuses_its_list_not_the_grant(refusal):
    grant = ("The policy reimburses the payment of Hospitalisation and / or Domiciliary "
             "Hospitalisation expenses for illness contracted by the Insured Persons.")
    assert verdict("Is domiciliary hospitalisation covered?",
                   _lines(grant, refusal)).text == "Yes"
    # above a quoted item, as its title, it refuses the item
    item = "c. Domiciliary hospitalisation for treatment of asthma."
    assert verdict("Is domiciliary hospitalisation for asthma covered?",
                   _lines(refusal, item, heads=(True,))).text == "No: excluded"


# "Is cumulative bonus available?" read "Cannot tell from the quote" of "Cumulative Bonus
# will be increased by 5% in respect of each claim free Policy Period" (Arogya Sanjeevani,
# session 44): asked with no article, whether the provision exists was not read.
@pytest.mark.parametrize("question", ["Is cumulative bonus available?",
                                      "Is a cumulative bonus available?",
                                      "Are cumulative bonuses offered?",
                                      "Is no-claim cumulative bonus provided?"])
def test_whether_a_provision_is_available_is_read_with_or_without_an_article(question):
    quote = ("5. CUMULATIVE BONUS (CB) Cumulative Bonus will be increased by 5% in respect of "
             "each claim free Policy Period, subject to a maximum of 50% of the sum insured.")
    assert verdict(question, _direct(quote)).text == "Yes: 5%"


def test_an_availability_question_about_something_else_is_not_answered_by_the_provision():
    quote = "Cumulative Bonus will be increased by 5% in respect of each claim free Policy Period."
    assert verdict("Is teleconsultation available?", _direct(quote)).text.startswith(
        "Cannot tell")


# "Is a health check-up covered?" read "Yes" from "In-patient Treatment for Mental Illness
# shall be covered up to Base Sum Insured" (Bajaj Allianz mediclaim, session 44): the "up"
# of "check-up" was a word of the subject, and "covered up to" named it.
@pytest.mark.parametrize("compound", ["health check-up", "top-up", "follow-up consultation"])
def test_the_particle_of_a_compound_names_nothing(compound):
    quote = ("In-patient Treatment for Mental Illness shall be covered up to Base Sum Insured "
             "subject to Policy Terms.")
    result = verdict(f"Is a {compound} covered?", _direct(quote))
    assert result.text == "Cannot tell: the quote does not name what is asked about", result
    named = f"A {compound} shall be covered up to Rs 5,000 in a policy year."
    assert verdict(f"Is a {compound} covered?", _direct(named)).text == "Yes, up to Rs 5,000"


# "Is routine preventive care for the mother covered?" read "Cannot tell from the quote" of
# "Well mother Cover Covers routine medical care provided to an insured female ..."
# (Edelweiss add-on, session 44): a cover named by its title, then what it does, grants.
@pytest.mark.parametrize("quote", [
    "Well mother Cover Covers routine medical care, including routine preventive care.",
    "Well Mother Benefit pays for routine medical care, including routine preventive care.",
    "WELL MOTHER EXTENSION: This extension reimburses routine preventive care of the mother.",
])
def test_a_cover_named_by_its_title_then_what_it_does_grants(quote):
    assert verdict("Is routine preventive care covered?", _direct(quote)).text == "Yes"


def test_a_title_followed_by_a_noun_grants_nothing():
    quote = "Well mother Cover options: routine preventive care may be chosen at renewal."
    assert verdict("Is routine preventive care covered?", _direct(quote)).text == \
        "Cannot tell from the quote"
