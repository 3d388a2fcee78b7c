"""Results pages under ``t/<slug>/``, either form: standings, boards, personal cards, frequencies, pictures, exports, and the
playing hall's projector."""

from django.urls import path

from results import views, views_boards, views_cards, views_exports, views_hall, views_pulka

app_name = "results"
urlpatterns = [
    path("standings/", views.standings, name="standings"),
    path("boards/", views_boards.board_list, name="boards"),
    path("boards/<int:number>/", views_boards.board_detail, name="board"),
    path("boards/<int:number>/chart.svg", views_boards.board_chart, name="board-chart"),
    path("players/<int:number>/", views_cards.player_card, name="player"),
    path("players/<int:number>/chart.svg", views_cards.player_chart, name="player-chart"),
    path("frequencies/", views_boards.frequency_list, name="frequencies"),
    path("projector/", views_hall.projector, name="projector"),
    path("projector/data.json", views_hall.projector_data, name="projector-data"),
    path("exports/", views_exports.exports, name="exports"),
    path("exports/<int:pk>/status/", views_exports.export_status, name="export-status"),
    path("exports/<int:pk>/download/", views_exports.export_download, name="export-download"),
    # Events played in pulkas: standings, the Olympic bracket, a round's tables, a player's pulkas.
    path("pulka/", views_pulka.standings, name="pulka-standings"),
    path("pulka/bracket/", views_pulka.bracket, name="pulka-bracket"),
    path("pulka/round/<int:number>/", views_pulka.round_detail, name="pulka-round"),
    path("pulka/player/<int:number>/", views_pulka.player, name="pulka-player"),
]
