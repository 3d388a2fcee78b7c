"""The director's application: /director/…"""

from django.urls import path

from . import (
    views_analysis,
    views_draw,
    views_event,
    views_gaps,
    views_layout,
    views_participants,
    views_publish,
    views_pulka_olympic,
    views_pulka_rounds,
    views_pulka_settings,
    views_pulka_sheet,
    views_pulka_standings,
    views_results,
    views_rounds,
    views_sanctions,
)

app_name = "director"

S = "<slug:slug>/s<int:session>/"  # a session of a duplicate event
P = "<slug:slug>/pulka/"  # an event played in pulkas (Olympic, compensation, Swiss)

urlpatterns = [
    path("", views_event.index, name="index"),
    path("new/", views_event.create, name="create"),
    path("<slug:slug>/", views_rounds.dashboard, name="dashboard"),
    path("<slug:slug>/settings/", views_event.settings, name="settings"),
    path("<slug:slug>/directors/", views_event.directors, name="directors"),
    path("<slug:slug>/sessions/add/", views_event.add_session, name="add_session"),
    path("<slug:slug>/participants/", views_participants.participants, name="participants"),
    path(
        "<slug:slug>/participants/import/", views_participants.participants_upload, name="participants_import"
    ),
    path("<slug:slug>/participants/pins/", views_participants.pins, name="pins"),
    path("<slug:slug>/participants/pins/unlock/", views_participants.pin_unlock, name="pin_unlock"),
    path("<slug:slug>/participants/draw/", views_draw.draw, name="draw"),
    path("<slug:slug>/participants/<int:number>/", views_participants.participant_edit, name="participant"),
    path("<slug:slug>/sanctions/", views_sanctions.sanctions, name="sanctions"),
    path("<slug:slug>/sanctions/<int:pk>/delete/", views_sanctions.sanction_delete, name="sanction_delete"),
    path("<slug:slug>/standings/", views_publish.standings, name="standings"),
    path("<slug:slug>/rescore/", views_publish.rescore, name="rescore"),
    path("<slug:slug>/publication/", views_publish.publication, name="publication"),
    path("<slug:slug>/audit/", views_publish.audit, name="audit"),
    path(S, views_rounds.dashboard, name="session_dashboard"),
    path(S + "movement/", views_rounds.movement, name="movement"),
    path(S + "seating/", views_rounds.seating, name="seating"),
    path(S + "round/<int:number>/start/", views_rounds.start_round, name="start_round"),
    path(S + "round/<int:number>/end/", views_rounds.end_round, name="end_round"),
    path(S + "round/<int:number>/handover/", views_rounds.handover_page, name="handover"),
    path(S + "r<int:round>/t<int:table>/", views_results.table_round, name="table_round"),
    path(S + "r<int:round>/t<int:table>/b<int:board>/", views_results.board_entry, name="board_entry"),
    path(S + "r<int:round>/t<int:table>/b<int:board>/assign/", views_gaps.missing_row, name="missing_row"),
    path(S + "r<int:round>/t<int:table>/late/", views_gaps.late_board, name="late_board"),
    path(S + "r<int:round>/t<int:table>/duplication/", views_gaps.duplication, name="duplication"),
    path(S + "boards/", views_results.boards, name="boards"),
    path(S + "boards/analysis/", views_analysis.analysis, name="analysis"),
    path(S + "boards/<int:board>/", views_results.board_detail, name="board_detail"),
    path(S + "boards/<int:board>/layout/", views_layout.board_layout, name="board_layout"),
    path(S + "boards/<int:board>/fouled/", views_layout.board_fouled, name="board_fouled"),
    path(S + "penalties/", views_publish.penalties, name="penalties"),
    path(S + "penalties/<int:pk>/delete/", views_publish.penalty_delete, name="penalty_delete"),
    # Events played in pulkas: rounds and draws, a table's sheet, ties, settings, standings.
    path(P, views_pulka_rounds.rounds_page, name="pulka_rounds"),
    path(P + "draw/", views_pulka_rounds.draw, name="pulka_draw"),
    path(P + "r<int:number>/", views_pulka_rounds.round_action, name="pulka_round_action"),
    path(P + "r<int:number>/t<int:table>/", views_pulka_sheet.table_sheet, name="pulka_table"),
    path(P + "r<int:number>/t<int:table>/tie/", views_pulka_rounds.decide_tie, name="pulka_tie"),
    path(P + "olympic-decision/", views_pulka_olympic.decision, name="pulka_olympic_decision"),
    path(P + "settings/", views_pulka_settings.settings, name="pulka_settings"),
    path(P + "standings/", views_pulka_standings.standings, name="pulka_standings"),
]
