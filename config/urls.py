from django.contrib import admin
from django.urls import include, path

from tournaments import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("t/<slug:slug>/", views.tournament_detail, name="tournament-detail"),
    # Public results pages: standings, protocols, personal cards, downloads.
    path("t/<slug:slug>/", include("results.urls")),
    # The director's application.
    path("director/", include("tournaments.director.urls")),
    # Rulings, appeals and corrections.
    path("appeals/", include("appeals.urls")),
    # Players at the table: entry and confirmation of protocol rows by table code.
    path("table/", include("table.urls")),
    # Events played in pulkas (Olympic, compensation, Swiss): the sheet at the table, director's and public pages.
    path("", include("pulkas.urls")),
    # Players across events: the register, a person's page, series.
    path("players/", include("players.urls")),
    # REST API and its documentation.
    path("api/", include("api.urls")),
    path("accounts/", include("config.login_throttle")),  # django.contrib.auth.urls, the login throttled
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
# MEDIA_ROOT (generated exports: protocols of boards still in play, table cards with the table codes, unpublished
# standings) is never served as such, not even in DEBUG: files are downloaded through results:export-download,
# which only directors may open.
