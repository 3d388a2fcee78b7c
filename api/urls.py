"""The REST API (``/api/``), its OpenAPI 3 schema and a readable documentation page."""

from django.urls import include, path, re_path
from rest_framework.routers import DefaultRouter

from api import urls_pulka

from . import docs, errors, views_penalties, views_publication, views_reference, views_results

app_name = "api"

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.include_format_suffixes = False  # «/api/results/5.json» is no route of the API: 404, not a 500
router.register("tournaments", views_reference.TournamentViewSet, basename="tournament")
router.register("sessions", views_reference.SessionViewSet, basename="session")
router.register("rounds", views_reference.RoundViewSet, basename="round")
router.register("tables", views_reference.TableViewSet, basename="table")
router.register("seatings", views_reference.SeatingViewSet, basename="seating")
router.register("boards", views_reference.BoardViewSet, basename="board")
router.register("results", views_results.ResultViewSet, basename="result")
router.register("adjustments", views_penalties.AdjustmentViewSet, basename="adjustment")
router.register("penalties", views_penalties.PenaltyViewSet, basename="penalty")

urlpatterns = [
    path("schema/", docs.SchemaView.as_view(), name="schema"),
    path("docs/", docs.docs, name="docs"),
    path(
        "tournaments/<slug:slug>/publication/",
        views_publication.PublicationView.as_view(),
        name="publication",
    ),
    path("", include(router.urls)),
    path("", include(urls_pulka)),
    re_path(r"^.*$", errors.not_found, name="not-found"),
]
