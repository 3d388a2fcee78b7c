"""URLs of the director pages of pulka events (mounted by pulkas.urls at /director/<slug>/pulka/)."""

from django.urls import URLPattern, path

from . import director, director_rounds, director_sheet, director_standings

urlpatterns: list[URLPattern] = [
    path("", director_rounds.rounds_page, name="director_rounds"),
    path("draw/", director_rounds.draw, name="director_draw"),
    path("r<int:number>/", director_rounds.round_action, name="director_round_action"),
    path("r<int:number>/t<int:table>/", director_sheet.table_sheet, name="director_table"),
    path("r<int:number>/t<int:table>/tie/", director_rounds.decide_tie, name="director_tie"),
    path("settings/", director.settings, name="director_settings"),
    path("standings/", director_standings.standings, name="director_standings"),
]
