"""Pages of players across events under ``/players/``, one URL list per area (namespace ``players:``)."""

from django.urls import include, path

app_name = "players"
urlpatterns = [
    path("", include("players.urls_register")),  # the register: the director's pages
    path("", include("players.urls_person")),  # a person's public page
    path("", include("players.urls_series")),  # series of events and their tables
]
