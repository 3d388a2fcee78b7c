"""Deadlines of §1 with the clock pinned: the edges are inclusive."""

from __future__ import annotations

import datetime as dt

import pytest

from preferans.duplicate.deadlines import (
    check_correction,
    check_filing,
    check_notice,
    correction_deadline,
    filing_deadline,
)

T = dt.datetime(2026, 3, 14, 18, 0, tzinfo=dt.UTC)
US = dt.timedelta(microseconds=1)
M30 = dt.timedelta(minutes=30)


@pytest.mark.parametrize(
    "now, ok, code",
    [
        (T, True, "in_time"),
        (T + M30 - US, True, "in_time"),
        (T + M30, True, "in_time"),
        (T + M30 + US, False, "filing_late"),
        (T + dt.timedelta(days=1), False, "filing_late"),
    ],
)
def test_filing_closes_30_minutes_after_the_session(now, ok, code):
    check = check_filing(now=now, session_ended_at=T, minutes=30)
    assert (bool(check), check.code, check.deadline) == (ok, code, T + M30)


def test_filing_minutes_are_configurable_and_open_while_playing():
    assert check_filing(now=T + dt.timedelta(minutes=45), session_ended_at=T, minutes=45).ok
    assert not check_filing(now=T + dt.timedelta(minutes=45), session_ended_at=T, minutes=44).ok
    assert check_filing(now=T, session_ended_at=None, minutes=30).code == "session_running"
    assert filing_deadline(None, 30) is None and correction_deadline(None, 30) is None


def test_no_filing_once_final():
    assert check_filing(now=T, session_ended_at=None, minutes=30, publication="final").code == "results_final"


@pytest.mark.parametrize(
    "publication, official_at, now, arithmetic, ok, code",
    [
        ("draft", None, T, False, True, "provisional"),
        ("provisional", None, T + dt.timedelta(days=2), False, True, "provisional"),
        ("official", T, T, False, True, "in_time"),
        ("official", T, T + M30, False, True, "in_time"),
        ("official", T, T + M30 + US, False, False, "correction_late"),
        ("official", T, T + M30 + US, True, True, "arithmetic"),
        ("final", T, T + M30 - US, False, False, "results_final"),
        ("final", T, T + dt.timedelta(days=30), True, True, "arithmetic"),
    ],
)
def test_correction_period(publication, official_at, now, arithmetic, ok, code):
    check = check_correction(
        now=now, publication=publication, official_at=official_at, minutes=30, arithmetic=arithmetic
    )
    assert (bool(check), check.code) == (ok, code)


@pytest.mark.parametrize(
    "notice, started, ok",
    [(T - US, T, True), (T, T, False), (T + US, T, False), (T, None, True)],
)
def test_notice_before_the_next_deal(notice, started, ok):
    assert check_notice(notice_at=notice, next_deal_started_at=started).ok is ok


def test_notice_cannot_follow_the_filing():
    assert check_notice(notice_at=T + US, next_deal_started_at=None, filed_at=T).code == "notice_after_filing"
