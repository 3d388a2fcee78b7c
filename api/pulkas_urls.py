"""The pulka routes of the API (mounted by ``api.urls`` before its catch-all)."""

from django.urls import path

from api import pulkas, pulkas_table

EVENT = "tournaments/<slug:slug>/pulka/"
TABLE = "pulka/tables/<str:code>/"

urlpatterns = [
    path(EVENT, pulkas.PulkaEventView.as_view(), name="pulka-event"),
    path(f"{EVENT}rounds/", pulkas.PulkaRoundsView.as_view(), name="pulka-rounds"),
    path(f"{EVENT}rounds/<int:number>/", pulkas.PulkaRoundView.as_view(), name="pulka-round"),
    path(
        f"{EVENT}rounds/<int:number>/start/", pulkas.PulkaRoundStartView.as_view(), name="pulka-round-start"
    ),
    path(f"{EVENT}rounds/<int:number>/stop/", pulkas.PulkaRoundStopView.as_view(), name="pulka-round-stop"),
    path(f"{EVENT}rounds/<int:number>/end/", pulkas.PulkaRoundEndView.as_view(), name="pulka-round-end"),
    path(
        f"{EVENT}rounds/<int:number>/tables/<int:table>/tie/", pulkas.PulkaTieView.as_view(), name="pulka-tie"
    ),
    path(f"{EVENT}standings/", pulkas.PulkaStandingsView.as_view(), name="pulka-standings"),
    path(TABLE, pulkas_table.PulkaSheetView.as_view(), name="pulka-sheet"),
    path(f"{TABLE}deals/", pulkas_table.PulkaDealsView.as_view(), name="pulka-deals"),
    path(
        f"{TABLE}deals/<int:number>/confirm/",
        pulkas_table.PulkaConfirmView.as_view(),
        name="pulka-deal-confirm",
    ),
    path(
        f"{TABLE}deals/<int:number>/correct/",
        pulkas_table.PulkaCorrectView.as_view(),
        name="pulka-deal-correct",
    ),
]
