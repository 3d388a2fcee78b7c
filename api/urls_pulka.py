"""The pulka routes of the API (mounted by ``api.urls`` before its catch-all)."""

from django.urls import path

from api import views_pulka_event, views_pulka_table

EVENT = "tournaments/<slug:slug>/pulka/"
TABLE = "pulka/tables/<str:code>/"

urlpatterns = [
    path(EVENT, views_pulka_event.PulkaEventView.as_view(), name="pulka-event"),
    path(f"{EVENT}rounds/", views_pulka_event.PulkaRoundsView.as_view(), name="pulka-rounds"),
    path(f"{EVENT}rounds/<int:number>/", views_pulka_event.PulkaRoundView.as_view(), name="pulka-round"),
    path(
        f"{EVENT}rounds/<int:number>/start/",
        views_pulka_event.PulkaRoundStartView.as_view(),
        name="pulka-round-start",
    ),
    path(
        f"{EVENT}rounds/<int:number>/stop/",
        views_pulka_event.PulkaRoundStopView.as_view(),
        name="pulka-round-stop",
    ),
    path(
        f"{EVENT}rounds/<int:number>/end/",
        views_pulka_event.PulkaRoundEndView.as_view(),
        name="pulka-round-end",
    ),
    path(
        f"{EVENT}rounds/<int:number>/tables/<int:table>/tie/",
        views_pulka_event.PulkaTieView.as_view(),
        name="pulka-tie",
    ),
    path(f"{EVENT}standings/", views_pulka_event.PulkaStandingsView.as_view(), name="pulka-standings"),
    path(TABLE, views_pulka_table.PulkaSheetView.as_view(), name="pulka-sheet"),
    path(f"{TABLE}deals/", views_pulka_table.PulkaDealsView.as_view(), name="pulka-deals"),
    path(
        f"{TABLE}deals/<int:number>/confirm/",
        views_pulka_table.PulkaConfirmView.as_view(),
        name="pulka-deal-confirm",
    ),
    path(
        f"{TABLE}deals/<int:number>/correct/",
        views_pulka_table.PulkaCorrectView.as_view(),
        name="pulka-deal-correct",
    ),
]
