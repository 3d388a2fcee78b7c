from django.contrib import admin

from .models import Penalty, Result, Standing


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):
    list_display = (
        "session",
        "board_number",
        "round_number",
        "table_number",
        "version",
        "vists",
        "matchpoints",
    )
    list_filter = ("session__tournament", "session")
    raw_id_fields = ("seat_n", "seat_e", "seat_s", "seat_w")


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    list_display = ("session", "participant", "matchpoints", "reason")
    raw_id_fields = ("participant",)


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin):
    list_display = ("tournament", "rank", "participant", "matchpoints", "max", "percent")
    list_filter = ("tournament",)
