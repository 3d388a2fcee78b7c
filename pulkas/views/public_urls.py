"""URLs of the public pages of pulka events (mounted by pulkas.urls at ``t/<slug>/pulka/``)."""

from django.urls import URLPattern, path

from pulkas.views import public

urlpatterns: list[URLPattern] = [
    path("", public.standings, name="public-standings"),
    path("bracket/", public.bracket, name="public-bracket"),
    path("round/<int:number>/", public.round_detail, name="public-round"),
    path("player/<int:number>/", public.player, name="public-player"),
]
