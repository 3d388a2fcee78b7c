"""Results pages under ``t/<slug>/``, either form: standings, boards, personal cards, frequencies, pictures, exports, and the
playing hall's projector."""

from django.urls import path

from results import views, views_pulka

app_name = "results"
urlpatterns = [
    path("standings/", views.standings, name="standings"),
    path("boards/", views.board_list, name="boards"),
    path("boards/<int:number>/", views.board_detail, name="board"),
    path("boards/<int:number>/chart.svg", views.board_chart, name="board-chart"),
    path("players/<int:number>/", views.player_card, name="player"),
    path("players/<int:number>/chart.svg", views.player_chart, name="player-chart"),
    path("frequencies/", views.frequency_list, name="frequencies"),
    path("projector/", views.projector, name="projector"),
    path("projector/data.json", views.projector_data, name="projector-data"),
    path("exports/", views.exports, name="exports"),
    path("exports/<int:pk>/status/", views.export_status, name="export-status"),
    path("exports/<int:pk>/download/", views.export_download, name="export-download"),
    # Events played in pulkas: standings, the Olympic bracket, a round's tables, a player's pulkas.
    path("pulka/", views_pulka.standings, name="pulka-standings"),
    path("pulka/bracket/", views_pulka.bracket, name="pulka-bracket"),
    path("pulka/round/<int:number>/", views_pulka.round_detail, name="pulka-round"),
    path("pulka/player/<int:number>/", views_pulka.player, name="pulka-player"),
]
