"""URLs of the series pages (included by players/urls.py, namespace players:)."""

from django.urls import URLPattern, path

from players.views import series

urlpatterns: list[URLPattern] = [
    path("series/", series.series_list, name="series_list"),
    path("series/new/", series.series_new, name="series_new"),
    path("series/<slug:slug>/", series.series_table, name="series"),
    path("series/<slug:slug>/edit/", series.series_edit, name="series_edit"),
    path("series/<slug:slug>/events/", series.series_events, name="series_events"),
]
