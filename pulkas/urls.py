"""Pulka events: the players' sheet by table code, the director's pages and the public results."""

from django.urls import include, path

from pulkas.views import director_urls, public_urls, table_urls

app_name = "pulkas"
urlpatterns = [
    path("pulka/", include(table_urls)),
    path("director/<slug:slug>/pulka/", include(director_urls)),
    path("t/<slug:slug>/pulka/", include(public_urls)),
]
