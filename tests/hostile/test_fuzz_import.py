"""Fuzzing the participants import with huge numbers, long and control-character cells and broken files:
never a crash, every kept line within the bounds (hypothesis)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from preferans.bundle.bounds import PARTICIPANT_NUMBER_MAX, control_characters
from tournaments.errors import UserError
from tournaments.participant_fields import FEDERATION_ID_MAX, NAME_MAX
from tournaments.participant_file import read_participants_file

pytestmark = pytest.mark.django_db

cells = st.one_of(
    st.text(max_size=30),
    st.integers(-(10**40), 10**40).map(str),
    st.sampled_from(
        ["2147483648", "9" * 5000, "0", "-1", "1.", "１２", "\x00", "\x07\x1b", "\u202eИванов", ";", '"']
    ),
    st.text(st.characters(codec="utf-8"), min_size=190, max_size=260),
)
rows = st.lists(st.lists(cells, min_size=1, max_size=5), min_size=1, max_size=12)
delimiters = st.sampled_from([";", ",", "\t"])


def _csv(table: list[list[str]], sep: str) -> bytes:
    return "\n".join(sep.join(row) for row in table).encode("utf-8", "surrogatepass")


@settings(max_examples=120, deadline=None)
@given(table=rows, sep=delimiters)
def test_every_line_kept_is_within_the_bounds(table, sep):
    try:
        preview = read_participants_file(filename="list.csv", content=_csv(table, sep))
    except UserError:
        return
    for line in preview.good:
        assert 1 <= (line.number or 0) <= PARTICIPANT_NUMBER_MAX
        assert 0 < len(line.name) <= NAME_MAX and len(line.club) <= NAME_MAX
        assert len(line.federation_id) <= FEDERATION_ID_MAX
        assert not any(control_characters(t) for t in (line.name, line.club, line.federation_id))


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(table=rows, sep=delimiters, name=st.sampled_from(["list.csv", "list.xlsx", "list.txt", "list.pdf"]))
def test_the_upload_page_never_fails(tournament, dclient, table, sep, name):
    url = reverse("director:participants_import", kwargs={"slug": tournament.slug})
    response = dclient.post(url, {"file": SimpleUploadedFile(name, _csv(table, sep))})
    assert response.status_code == 200
