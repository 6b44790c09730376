"""CUAD v1's 41 clause categories, in the order of CUAD's own label file (``cuad_labels.json``
``meta.categories``, the column order of its ``master_clauses.csv``).

CUAD: The Atticus Project, CC BY 4.0 (Hendrycks et al., NeurIPS 2021).
"""

from __future__ import annotations

CUAD_CATEGORIES: tuple[str, ...] = (
    "Document Name",
    "Parties",
    "Agreement Date",
    "Effective Date",
    "Expiration Date",
    "Renewal Term",
    "Notice Period to Terminate Renewal",
    "Governing Law",
    "Most Favored Nation",
    "Competitive Restriction Exception",
    "Non-Compete",
    "Exclusivity",
    "No-Solicit of Customers",
    "No-Solicit of Employees",
    "Non-Disparagement",
    "Termination for Convenience",
    "Rofr/Rofo/Rofn",
    "Change of Control",
    "Anti-Assignment",
    "Revenue/Profit Sharing",
    "Price Restrictions",
    "Minimum Commitment",
    "Volume Restriction",
    "IP Ownership Assignment",
    "Joint IP Ownership",
    "License Grant",
    "Non-Transferable License",
    "Affiliate License-Licensor",
    "Affiliate License-Licensee",
    "Unlimited/All-You-Can-Eat-License",
    "Irrevocable or Perpetual License",
    "Source Code Escrow",
    "Post-Termination Services",
    "Audit Rights",
    "Uncapped Liability",
    "Cap on Liability",
    "Liquidated Damages",
    "Warranty Duration",
    "Insurance",
    "Covenant Not to Sue",
    "Third Party Beneficiary",
)



# CUAD's own description of each category (the CUAD paper's appendix, as in its label file):
# the wording a question about the category is matched to (classify/questions.py).
CUAD_DESCRIPTIONS: dict[str, str] = {
    "Document Name":
        "The name of the contract.",
    "Parties":
        "The two or more parties who signed the contract.",
    "Agreement Date":
        "The date of the contract.",
    "Effective Date":
        "The date when the contract is effective.",
    "Expiration Date":
        "On what date will the contract's initial term expire?",
    "Renewal Term": (
        "What is the renewal term after the initial term expires? This includes automatic "
        "extensions and unilateral extensions with prior notice."),
    "Notice Period to Terminate Renewal":
        "What is the notice period required to terminate renewal?",
    "Governing Law":
        "Which state/country's law governs the interpretation of the contract?",
    "Most Favored Nation": (
        "Is there a clause that if a third party gets better terms on the licensing or sale "
        "of technology/goods/services described in the contract, the buyer of such "
        "technology/goods/services under the contract shall be entitled to those better "
        "terms?"),
    "Competitive Restriction Exception": (
        "This category includes the exceptions or carveouts to Non-Compete, Exclusivity and "
        "No-Solicit of Customers above."),
    "Non-Compete": (
        "Is there a restriction on the ability of a party to compete with the counterparty or"
        " operate in a certain geography or business or technology sector?"),
    "Exclusivity": (
        "Is there an exclusive dealing commitment with the counterparty? This includes a "
        "commitment to procure all requirements from one party of certain technology, goods, "
        "or services or a prohibition on licensing or selling technology, goods or services "
        "to third parties, or a prohibition on collaborating or working with other parties, "
        "whether during the contract or after the contract ends (or both)."),
    "No-Solicit of Customers": (
        "Is a party restricted from contracting or soliciting customers or partners of the "
        "counterparty, whether during the contract or after the contract ends (or both)?"),
    "No-Solicit of Employees": (
        "Is there a restriction on a party's soliciting or hiring employees and/or "
        "contractors from the counterparty, whether during the contract or after the contract"
        " ends (or both)?"),
    "Non-Disparagement":
        "Is there a requirement on a party not to disparage the counterparty?",
    "Termination for Convenience": (
        "Can a party terminate this contract without cause (solely by giving a notice and "
        "allowing a waiting period to expire)?"),
    "Rofr/Rofo/Rofn": (
        "Is there a clause granting one party a right of first refusal, right of first offer "
        "or right of first negotiation to purchase, license, market, or distribute equity "
        "interest, technology, assets, products or services?"),
    "Change of Control": (
        "Does one party have the right to terminate or is consent or notice required of the "
        "counterparty if such party undergoes a change of control, such as a merger, stock "
        "sale, transfer of all or substantially all of its assets or business, or assignment "
        "by operation of law?"),
    "Anti-Assignment": (
        "Is consent or notice required of a party if the contract is assigned to a third "
        "party?"),
    "Revenue/Profit Sharing": (
        "Is one party required to share revenue or profit with the counterparty for any "
        "technology, goods, or services?"),
    "Price Restrictions": (
        "Is there a restriction on the ability of a party to raise or reduce prices of "
        "technology, goods, or services provided?"),
    "Minimum Commitment": (
        "Is there a minimum order size or minimum amount or units per-time period that one "
        "party must buy from the counterparty under the contract?"),
    "Volume Restriction": (
        "Is there a fee increase or consent requirement, etc. if one party's use of the "
        "product/services exceeds certain threshold?"),
    "IP Ownership Assignment": (
        "Does intellectual property created by one party become the property of the "
        "counterparty, either per the terms of the contract or upon the occurrence of certain"
        " events?"),
    "Joint IP Ownership": (
        "Is there any clause providing for joint or shared ownership of intellectual property"
        " between the parties to the contract?"),
    "License Grant":
        "Does the contract contain a license granted by one party to its counterparty?",
    "Non-Transferable License": (
        "Does the contract limit the ability of a party to transfer the license being granted"
        " to a third party?"),
    "Affiliate License-Licensor": (
        "Does the contract contain a license grant by affiliates of the licensor or that "
        "includes intellectual property of affiliates of the licensor?"),
    "Affiliate License-Licensee": (
        "Does the contract contain a license grant to a licensee (incl. sublicensor) and the "
        "affiliates of such licensee/sublicensor?"),
    "Unlimited/All-You-Can-Eat-License": (
        "Is there a clause granting one party an \"enterprise,\" \"all you can eat\" or unlimited"
        " usage license?"),
    "Irrevocable or Perpetual License":
        "Does the contract contain a license grant that is irrevocable or perpetual?",
    "Source Code Escrow": (
        "Is one party required to deposit its source code into escrow with a third party, "
        "which can be released to the counterparty upon the occurrence of certain events "
        "(bankruptcy, insolvency, etc.)?"),
    "Post-Termination Services": (
        "Is a party subject to obligations after the termination or expiration of a contract,"
        " including any post-termination transition, payment, transfer of IP, wind-down, "
        "last-buy, or similar commitments?"),
    "Audit Rights": (
        "Does a party have the right to audit the books, records, or physical locations of "
        "the counterparty to ensure compliance with the contract?"),
    "Uncapped Liability": (
        "Is a party's liability uncapped upon the breach of its obligation in the contract? "
        "This also includes uncap liability for a particular type of breach such as IP "
        "infringement or breach of confidentiality obligation."),
    "Cap on Liability": (
        "Does the contract include a cap on liability upon the breach of a party's "
        "obligation? This includes time limitation for the counterparty to bring claims or "
        "maximum amount for recovery."),
    "Liquidated Damages": (
        "Does the contract contain a clause that would award either party liquidated damages "
        "for breach or a fee upon the termination of a contract (termination fee)?"),
    "Warranty Duration": (
        "What is the duration of any warranty against defects or errors in technology, "
        "products, or services provided under the contract?"),
    "Insurance": (
        "Is there a requirement for insurance that must be maintained by one party for the "
        "benefit of the counterparty?"),
    "Covenant Not to Sue": (
        "Is a party restricted from contesting the validity of the counterparty's ownership "
        "of intellectual property or otherwise bringing a claim against the counterparty for "
        "matters unrelated to the contract?"),
    "Third Party Beneficiary": (
        "Is there a non-contracting party who is a beneficiary to some or all of the clauses "
        "in the contract and therefore can enforce its rights against a contracting party?"),
}
