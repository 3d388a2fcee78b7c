from django.contrib import admin
from django.urls import include, path

from results import views_event

handler500 = "config.unavailable.server_error"  # the database out of reach: 503 with Retry-After

urlpatterns = [
    path("", views_event.home, name="home"),
    path("healthz", views_event.healthz, name="healthz"),
    path("t/<slug:slug>/", views_event.tournament_detail, name="tournament-detail"),
    # Public results pages, either form: standings, protocols, personal cards, pulka sheets, downloads.
    path("t/<slug:slug>/", include("results.urls")),
    # The director's pages, either form.
    path("director/", include("director.urls")),
    # Rulings, appeals and corrections.
    path("appeals/", include("appeals.urls")),
    # Players at the table, either form: a duplicate table's rows (/table/<code>/), a pulka's sheet (/pulka/<code>/).
    path("", include("table.urls")),
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
