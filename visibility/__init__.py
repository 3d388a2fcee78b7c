"""Who sees what of an event's results, and when: one rule for every channel, either form.

Every channel asks here — the public results pages, the players' phone pages, the API, the projector in the
playing hall and the exports page — so that at any moment they agree (``tests/events/test_visibility_matrix.py``).
Who asks is a :class:`Viewer`: the public (nobody logged in), a director of the tournament (or a superuser), a
player identified at a table (the phone page's remembered device, or the API's ``Player`` header) with his
participant, or the projector of the playing hall.

The rules (rules §1, §12.2.4, §13; ``docs/rules-fidelity.md``):

* **Directors see everything, always.** Nobody else sees any result before the first publication.
* **A protocol row** of a duplicate session (contract, tricks, vists): to the players who sat on it at once;
  to everybody else once the results are published **and the session is over** — comparing results with other
  participants during the session is an offence (§12.2.4), so no channel offers it. Its matchpoints (a
  comparison with the other tables) only under the second rule, the players of the row included.
* **A board's layout**, its hand record and its double-dummy analysis: once published and the session is over.
* **A pulka table's sheet** (its deals, the scores and totals, who goes on): to the players seated at it at
  once; to everybody else once the results are published **and its round has ended**.
* **The standings** (either form, and every total made of them): once published, **while no round is being
  played** — between rounds and after play; during a round they would compare the results in play.
* **The seating** is public: it is posted in the hall.
* **Generated files** are downloaded by the directors only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from boards.models import Board
from pulkas.models import PulkaRound, PulkaTable
from scoring.models import Result
from tournaments.models import Participant, Publication, Round, Session, Tournament
from tournaments.permissions import can_direct

SEAT_FIELDS = ("seat_n_id", "seat_e_id", "seat_s_id", "seat_w_id")


@dataclass(frozen=True)
class Viewer:
    """Who asks: ``user`` (a Django user; ``None`` or anonymous: the public), ``participant`` (a player identified
    at a table), ``hall`` (the projector of the playing hall, which is public and directs nothing)."""

    user: Any = None
    participant: Participant | None = None
    hall: bool = False
    _directs: dict[int, bool] = field(default_factory=dict, compare=False, hash=False, repr=False)

    @classmethod
    def public(cls) -> Viewer:
        return cls()

    @classmethod
    def of(cls, user: Any) -> Viewer:
        """A visitor of a page: a director, or the public (``request.user``)."""
        return cls(user=user)

    @classmethod
    def at_table(cls, participant: Participant | None, user: Any = None) -> Viewer:
        """A player identified at a table (his device, or his PIN); ``user`` is whoever is logged in besides."""
        return cls(user=user, participant=participant)

    @classmethod
    def projector(cls) -> Viewer:
        return cls(hall=True)

    def directs(self, tournament: Tournament) -> bool:
        """A director of this tournament (``tournaments.permissions.can_direct``); asked once per tournament."""
        if self.hall or self.user is None:
            return False
        if tournament.pk not in self._directs:
            self._directs[tournament.pk] = can_direct(self.user, tournament)
        return self._directs[tournament.pk]

    def sits_on(self, tournament_id: int, seat_ids: Any) -> bool:
        """Whether the identified player is one of these seats (participant ids) of this tournament."""
        p = self.participant
        return p is not None and p.tournament_id == tournament_id and p.pk in set(seat_ids)


class _HasStatus(Protocol):
    @property
    def status(self) -> str: ...


# -- the facts the rules read ---------------------------------------------------------------------------
def published(tournament: Tournament) -> bool:
    """The director has published the results (provisional, official or final): rules §13."""
    return tournament.publication != Publication.DRAFT


def in_play(tournament: Tournament) -> bool:
    """A round is being played: a duplicate session's round, or a pulka round."""
    if tournament.plays_pulkas:
        return PulkaRound.objects.filter(tournament=tournament, status=PulkaRound.Status.RUNNING).exists()
    return Round.objects.filter(session__tournament=tournament, status=Round.Status.RUNNING).exists()


def session_over(session: _HasStatus) -> bool:
    """A duplicate session is over (a model's or the results data's ``status``)."""
    return str(session.status) == Session.Status.FINISHED


# -- the results as a whole -----------------------------------------------------------------------------
def can_see_results(viewer: Viewer, tournament: Tournament) -> bool:
    """The public results pages open at all (else their «not published» page): published, or a director."""
    return viewer.directs(tournament) or published(tournament)


def standings_hidden(viewer: Viewer, tournament: Tournament) -> str:
    """Why the standings are not shown to this viewer now, in the active language ("" when they are)."""
    if viewer.directs(tournament):
        return ""
    if not published(tournament):
        return _("The results are not published yet.")
    if in_play(tournament):
        return _(
            "The standings are shown between rounds: a round is being played now, and results are not "
            "compared during play (rules §12.2.4)."
        )
    return ""


def can_see_standings(viewer: Viewer, tournament: Tournament) -> bool:
    """The standings, and every total made of them (a player's card, the projector's list, the API's): once
    published while no round is being played; directors always."""
    return not standings_hidden(viewer, tournament)


# -- duplicate: rows and boards -------------------------------------------------------------------------
def session_rows_public(tournament: Tournament, session: _HasStatus) -> bool:
    """Every row of the session is public: the results are published and the session is over (§12.2.4)."""
    return published(tournament) and session_over(session)


def can_see_session_rows(viewer: Viewer, tournament: Tournament, session: _HasStatus) -> bool:
    """All the rows of a session (a board's protocol, its frequencies, a player's card): the public rule."""
    return viewer.directs(tournament) or session_rows_public(tournament, session)


def can_see_row(viewer: Viewer, result: Result) -> bool:
    """One protocol row: its players at once, everybody once the session's rows are public."""
    session = result.session
    tournament = session.tournament
    if viewer.directs(tournament) or session_rows_public(tournament, session):
        return True
    return viewer.sits_on(tournament.pk, [getattr(result, f) for f in SEAT_FIELDS if getattr(result, f)])


def can_see_scores(viewer: Viewer, result: Result) -> bool:
    """A row's matchpoints and top (a comparison with the other tables): the session's public rule."""
    session = result.session
    return can_see_session_rows(viewer, session.tournament, session)


def can_see_layouts(viewer: Viewer, tournament: Tournament, session: _HasStatus) -> bool:
    """The layouts of a session's boards, their hand records and double-dummy analyses (and what is drawn from
    them: a player's tricks taken against tricks possible): when its rows are public, the layout being what
    every row was played from; directors always."""
    return can_see_session_rows(viewer, tournament, session)


def can_see_board(viewer: Viewer, board: Board) -> bool:
    """A board's layout, hand record and double-dummy analysis (:func:`can_see_layouts`)."""
    session = board.session
    return can_see_layouts(viewer, session.tournament, session)


def directed_q(user: Any, tournament_path: str) -> Q:
    """The objects of tournaments ``user`` directs (``tournament_path``: the lookup to the tournament)."""
    if (
        user is None
        or not getattr(user, "is_authenticated", False)
        or not hasattr(user, "directed_tournaments")
    ):
        return Q(pk__in=[])
    if user.is_superuser:  # every tournament's (not ``Q()``: OR-ed with another Q, an empty Q is dropped)
        return Q(**{f"{tournament_path}__isnull": False})
    return Q(**{f"{tournament_path}__in": user.directed_tournaments.all()})


def visible_rows(rows: QuerySet[Result], viewer: Viewer) -> QuerySet[Result]:
    """The rows of ``rows`` this viewer may see (:func:`can_see_row`), filtered in SQL."""
    visible = Q(session__status=Session.Status.FINISHED) & ~Q(
        session__tournament__publication=Publication.DRAFT
    )
    visible |= directed_q(viewer.user, "session__tournament")
    p = viewer.participant
    if p is not None:
        visible |= Q(session__tournament_id=p.tournament_id) & (
            Q(seat_n=p) | Q(seat_e=p) | Q(seat_s=p) | Q(seat_w=p)
        )
    return rows.filter(visible)


# -- pulkas: a table's sheet ----------------------------------------------------------------------------
def round_public(tournament: Tournament, pulka_round: _HasStatus) -> bool:
    """Every sheet of the round is public: the results are published and the round has ended."""
    return published(tournament) and str(pulka_round.status) == PulkaRound.Status.ENDED


def can_see_round_sheets(viewer: Viewer, tournament: Tournament, pulka_round: _HasStatus) -> bool:
    """Every sheet of a round, and its tables' figures (vists, rating, place, who goes on): once the round's
    sheets are public; directors always."""
    return viewer.directs(tournament) or round_public(tournament, pulka_round)


def can_see_sheet(viewer: Viewer, table: PulkaTable) -> bool:
    """A pulka table's sheet, its deals, scores and who goes on: its players at once, everybody once the round's
    sheets are public (:func:`can_see_round_sheets`)."""
    pulka_round = table.round
    tournament = pulka_round.tournament
    if can_see_round_sheets(viewer, tournament, pulka_round):
        return True
    return viewer.sits_on(tournament.pk, table.seat_ids().values())


# -- files ----------------------------------------------------------------------------------------------
def can_download_exports(viewer: Viewer, tournament: Tournament) -> bool:
    """The generated files (they hold everything, published or not): the directors only."""
    return viewer.directs(tournament)
