"""The value extractor (clausegraph/text/values.py) on the styles contracts and policies use."""

from __future__ import annotations

import pytest

from clausegraph.text.values import (
    Value,
    bracket_figure,
    extract_values,
    figure,
    meets_figures,
    parse_date,
    parse_duration,
    stated_figures,
)


def only(text: str) -> Value:
    """The one value of ``text`` (fails when there are none or several)."""
    values = extract_values(text)
    assert len(values) == 1, [(v.kind, v.text) for v in values]
    return values[0]


@pytest.mark.parametrize("text, amount", [
    ("30 (thirty)", 30), ("thirty (30)", 30), ("30", 30), ("thirty", 30),
    ("thirteen", 13), ("fourteen", 14), ("fifty", 50), ("seventy", 70), ("Seventy-Five", 75),
    ("one hundred", 100), ("one hundred and twenty", 120), ("two thousand five hundred", 2500),
    ("1,00,000", 100000), ("10,000.50", 10000.5), ("1,234,567", 1234567),
])
def test_numbers_in_every_style(text, amount):
    value = only(f"the parties agree to {text} of them")
    assert (value.kind, value.amount, value.text) == ("number", amount, text)


def test_number_words_follow_their_grammar():
    """"two one-year terms" is two numbers, not three years."""
    values = extract_values("renew for two one-year terms")
    assert [(v.kind, v.amount) for v in values] == [("number", 2), ("duration", 1)]


@pytest.mark.parametrize("text, amount, code", [
    ("$500", 500, "USD"), ("$ 500", 500, "USD"), ("£500", 500, "GBP"), ("£ 500", 500, "GBP"),
    ("₹500", 500, "INR"), ("₹ 500", 500, "INR"), ("€1,250", 1250, "EUR"),
    ("INR 5 lakhs", 500000, "INR"), ("$1 million", 1e6, "USD"), ("Rs. 10,000/-", 10000, "INR"),
    ("USD 2,500.00", 2500, "USD"), ("EUR 3.5 million", 3.5e6, "EUR"), ("5 crore", 5e7, "INR"),
    ("US$1.2 million", 1.2e6, "USD"), ("10,000 Dollars", 10000, "USD"), ("500 USD", 500, "USD"),
    ("GBP 75", 75, "GBP"), ("Rs 750", 750, "INR"), ("$5k", 5000, "USD"), ("$.05", 0.05, "USD"),
    ("Fifty Thousand Dollars ($50,000)", 50000, "USD"),
    ("Rs. 5,00,000/- (Rupees Five Lakhs only)", 500000, "INR"),
    # scale words as headings and schedules capitalise them
    ("Rs.2.5 Lacs", 250000, "INR"), ("Rs. 2.5 LAKHS", 250000, "INR"),
    ("USD 2 Million", 2e6, "USD"), ("INR 5 Crores", 5e7, "INR"),
])
def test_money_in_any_currency(text, amount, code):
    value = only(f"a fee of {text} is payable")
    assert (value.kind, value.amount, value.unit, value.text) == ("money", amount, code, text)


@pytest.mark.parametrize("text, amount", [
    ("10%", 10), ("10 %", 10), ("ten percent", 10), ("10 per cent", 10), ("2.5 percent", 2.5),
    ("five percent (5%)", 5), ("Twenty Percent", 20),
])
def test_percentages(text, amount):
    value = only(f"a royalty of {text} of Net Sales")
    assert (value.kind, value.amount, value.text) == ("percent", amount, text)


@pytest.mark.parametrize("text, iso", [
    ("2019-03-05", "2019-03-05"), ("March 5, 2019", "2019-03-05"), ("5 March 2019", "2019-03-05"),
    ("5th day of March, 2019", "2019-03-05"), ("first day of January, 2020", "2020-01-01"),
    ("Mar. 5, 2019", "2019-03-05"), ("MARCH 5, 2019", "2019-03-05"),
    ("5th March, 2019", "2019-03-05"), ("2019/03/05", "2019-03-05"),
    ("twenty-first day of June 2021", "2021-06-21"), ("March 2019", "2019-03"),
    ("Sept. 30, 2011", "2011-09-30"), ("03/05/2019", "2019-03-05"), ("12/31/20", "2020-12-31"),
])
def test_dates_in_common_forms(text, iso):
    value = only(f"made and entered into as of {text} by the parties")
    assert (value.kind, value.iso, value.text) == ("date", iso, text)


@pytest.mark.parametrize("text, iso", [
    ("September __, 2018", "2018-09"), ("JULY ___, 2000", "2000-07"), ("Feb. ____ 2017", "2017-02"),
    ("[ ] day of March, 2020", "2020-03"), ("____ day of October 2015", "2015-10"),
    ("___ day of _________, 2004", "2004"), ("______________, 1996", "1996"),
    ("[___], 2020", "2020"), ("[\u00b7], 2019", "2019"), ("[ ] day of [ ], 2021", "2021"),
])
def test_dates_left_blank_give_the_parts_they_state(text, iso):
    """A draft or filed contract leaves the day (or day and month) to be filled in."""
    value = only(f"made and entered into as of {text} by the parties")
    assert (value.kind, value.iso, value.text) == ("date", iso, text)


def test_blanks_that_are_no_dates():
    assert parse_date("Signature: ______ 2019 Plan") is None
    assert parse_date("see Section [3], 2019 edition") is None
    assert parse_date("Name: ________ Title: ________") is None


def test_ambiguous_numeric_dates_follow_the_unambiguous_ones_of_the_text():
    """Day-first when another date of the text can only be day-first, else month-first."""
    assert [v.iso for v in extract_values("from 13/05/2019 to 03/06/2019")] == \
        ["2019-05-13", "2019-06-03"]
    assert [v.iso for v in extract_values("from 05/13/2019 to 03/06/2019")] == \
        ["2019-05-13", "2019-03-06"]
    assert parse_date("dated 03/05/2019") == "2019-03-05"


def test_impossible_dates_and_the_verb_may_are_no_dates():
    assert parse_date("on February 30, 2019") is None
    assert parse_date("the Licensee may 2019 units") is None
    assert parse_date("Section 3.1.14 applies") is None


@pytest.mark.parametrize("text, amount, unit", [
    ("thirty (30) days", 30, "day"), ("30 (thirty) days", 30, "day"), ("30 days", 30, "day"),
    ("thirty days", 30, "day"), ("2 years", 2, "year"), ("24 months", 24, "month"),
    ("one (1) year", 1, "year"), ("ninety days", 90, "day"), ("12 calendar months", 12, "month"),
    ("ten business days", 10, "day"), ("30-day", 30, "day"), ("Thirty (30) Days", 30, "day"),
    ("six weeks", 6, "week"), ("one hundred and eighty (180) days", 180, "day"),
])
def test_durations(text, amount, unit):
    value = only(f"upon {text} prior written notice")
    assert (value.kind, value.amount, value.unit, value.text) == ("duration", amount, unit, text)
    assert parse_duration(text) == (amount, unit)


@pytest.mark.parametrize("sentence, amount", [
    ("persons up to 65 years of age", 65), ("children aged 18 or younger", 18),
    ("members 18 years and above", 18), ("children aged below 17 years", 17),
    ("no workers under the age of 15", 15), ("Can a 70-year-old buy it?", 70),
    ("a 70 - year - old proposer", 70),
])
def test_ages(sentence, amount):
    ages = [v for v in extract_values(sentence) if v.kind == "age"]
    assert [(v.amount, v.unit) for v in ages] == [(amount, "year")]


@pytest.mark.parametrize("text, amount, unit, size", [
    ("150 km", 150, "km", 150), ("150 kms", 150, "km", 150), ("150kms", 150, "km", 150),
    ("one hundred and fifty (150) kilometres", 150, "km", 150), ("5 miles", 5, "mile", 8.05),
    ("1500 cc", 1500, "cc", 1500), ("1.5 litres", 1.5, "litre", 1500),
    ("7.5 tonnes", 7.5, "tonne", 7500), ("750 kg", 750, "kg", 750), ("75 HP", 75, "hp", 55.9),
])
def test_measures_in_their_unit_compared_in_their_dimensions(text, amount, unit, size):
    value = only(f"a vehicle of {text} or less")
    assert (value.kind, value.amount, value.unit, value.text) == ("measure", amount, unit, text)
    assert figure(value)[1] == pytest.approx(size, rel=0.01)
    # a plain number is no measure, nor is money in the same digits
    assert only("Rs. 1500/- per car").kind == "money" and only("for 5 members").kind == "number"


def test_offsets_slice_the_text():
    text = "Licensee shall pay £ 500 within 30 (thirty) days of 5 March 2019, plus 2.5% interest."
    values = extract_values(text)
    assert [v.kind for v in values] == ["money", "duration", "date", "percent"]
    assert all(text[v.start:v.end] == v.text for v in values)


def test_nothing_in_text_without_values():
    assert extract_values("The Agreement is governed by the laws of England.") == []
    assert parse_date("no date here") is None
    assert parse_duration("no period here") is None


# a co-payment by age, in the styles policies write its bounds
OVER_75 = ["aged greater than 75 years", "aged above 75 years", "over 75 years of age",
           "aged more than seventy-five (75) years", "aged 75 years and above"]
UP_TO_75 = ["aged less than equal to 75 years", "aged up to 75 years",
            "aged less than or equal to seventy-five years", "not older than 75 years",
            "aged 75 years or below"]


@pytest.mark.parametrize("bound", OVER_75)
@pytest.mark.parametrize("question, meets", [
    ("What is the co-payment for a 78 year old?", True),
    ("What co-payment applies to an insured aged 40?", False),
])
def test_an_age_meets_a_lower_bound_above_it(bound, question, meets):
    text = f"Co-payment of 15% on all claims for Insured Person {bound} on policy inception"
    assert meets_figures(stated_figures(question), text) is meets


@pytest.mark.parametrize("bound", UP_TO_75)
@pytest.mark.parametrize("question, meets", [
    ("What is the co-payment for a 78 year old?", False),
    ("What co-payment applies to an insured aged 40?", True),
    ("What is the co-pay for someone who is 75 years old?", True),
])
def test_an_age_meets_an_upper_bound_at_or_above_it(bound, question, meets):
    text = f"Co-payment of 5% on all claims for Insured Person {bound} on policy inception"
    assert meets_figures(stated_figures(question), text) is meets


@pytest.mark.parametrize("row, meets", [
    ("Exceeding 1 year but not exceeding 2 years | % of Depreciation: 20%", False),
    ("Exceeding 2 years but not exceeding 3 years | % of Depreciation: 30%", True),
    ("Exceeding 3 years but not exceeding 4 years | % of Depreciation: 40%", False),
    ("Not exceeding 6 months | % of Depreciation: 5%", False),
])
def test_a_band_of_a_schedule_meets_the_age_inside_it(row, meets):
    assert meets_figures(stated_figures("What depreciation applies to a 2.5 year old car?"),
                         row) is meets


def test_a_stated_range_meets_the_band_it_overlaps_not_the_one_it_touches():
    stated = stated_figures("Which rate applies between 24 months and 36 months of cover?")
    assert len(stated) == 2
    assert meets_figures(stated, "exceeding 24 months but not exceeding 36 months: 30%")
    assert not meets_figures(stated, "exceeding 12 months but not exceeding 24 months: 20%")
    assert meets_figures(stated, "a waiting period of 30 months")
    assert not meets_figures(stated, "a waiting period of 48 months")


def test_a_bound_meets_only_a_figure_in_its_own_unit():
    stated = stated_figures("What co-payment applies to a 40-year-old insured?")
    assert not meets_figures(stated, "apply for migration at least 30 days before renewal")
    assert meets_figures(stated, "Co-payment of 5% for persons aged up to 75 years")


def test_a_figure_a_few_percent_off_is_another_figure():
    # 78 years is not 75 years; 30 days is a month
    assert not meets_figures(stated_figures("for a 78 year old"), "persons aged 75 years")
    assert meets_figures(stated_figures("within 30 days"), "within one month")


# the ranges a wording sets, in the styles policies write them
ADULTS = ["between 18 years and 65 years",
          "between the age of eighteen (18) years and sixty-five (65) years",
          "from 18 to 65 years", "18 years to 65 years", "18 - 65 years"]


@pytest.mark.parametrize("written", ADULTS)
@pytest.mark.parametrize("question, inside", [
    ("Can a 70-year-old buy this policy?", False), ("Is a person aged 40 eligible?", True),
    ("Can someone who is 65 years old join?", True), ("Can a 17 year old apply?", False),
])
def test_an_age_is_read_against_the_range_a_wording_sets(written, question, inside):
    bracket = bracket_figure(stated_figures(question),
                             f"The policy can be availed by persons aged {written}.")
    assert bracket is not None and bracket.inside is inside
    assert "65" in bracket.shown or "sixty-five" in bracket.shown


def test_a_range_is_read_against_an_age_of_its_scale_only():
    text = "Adults aged between 18 years and 65 years; children between 91 days and 25 years."
    baby = bracket_figure(stated_figures("Can a 2-month-old be covered?"), text)
    assert baby is not None and not baby.inside and baby.shown == "91 days to 25 years"
    child = bracket_figure(stated_figures("Can a child aged 2 be covered?"), text)
    assert child is not None and child.inside and child.shown == "91 days to 25 years"
    old = bracket_figure(stated_figures("Can a 70-year-old be covered?"), text)
    assert old is not None and not old.inside
    assert old.shown == "18 years to 65 years; 91 days to 25 years"


def test_bounds_together_make_one_range_and_rows_of_alternatives_do_not():
    one = "Members must be not less than 18 years and not more than 65 years of age."
    assert not bracket_figure(stated_figures("Can a 70-year-old join?"), one).inside
    assert bracket_figure(stated_figures("Can a 30-year-old join?"), one).inside
    rows = ("Co-payment of 5% for persons aged up to 75 years. "
            "Co-payment of 15% for persons aged greater than 75 years.")
    over = bracket_figure(stated_figures("Does an 80-year-old pay a co-payment?"), rows)
    assert over.inside and over.shown == "over 75 years"


def test_figures_not_written_as_a_range_are_none():
    # a grace period of 15 days for one instalment and 30 for another admits no 20 days
    assert bracket_figure(stated_figures("Is a 20-day grace period allowed?"),
                          "A grace period of 15 days for monthly instalments and 30 days "
                          "for all others") is None
    assert bracket_figure(stated_figures("Can a 70-year-old buy this policy?"),
                          "The policy is renewed for 1 year at a time.") is None
    # two figures asked are a range of their own, not one figure to place
    assert bracket_figure(stated_figures("Is cover given between 18 years and 65 years?"),
                          "persons aged 18 to 65 years") is None
