"""Irregularities, rulings, appeals and corrections (rules §1, §10–§13, Appendix B)."""
