from django.contrib import admin

from .models import AuditEntry, Participant, Room, Round, Seating, Session, Strike, Table, Tournament


class ParticipantInline(admin.TabularInline):
    model = Participant
    extra = 0


class SessionInline(admin.TabularInline):
    model = Session
    extra = 0
    fields = ("number", "status", "scored_at", "changed_at")
    readonly_fields = ("scored_at", "changed_at")


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "variant", "players_per_table", "status", "publication", "starts_on")
    list_filter = ("variant", "status", "publication", "players_per_table")
    search_fields = ("name", "slug", "venue")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("directors",)
    inlines = [SessionInline, ParticipantInline]


@admin.register(Participant)
class ParticipantAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "name", "club", "federation_id")
    list_filter = ("tournament",)
    search_fields = ("name", "club", "federation_id")


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "status", "scored_at", "changed_at")
    list_filter = ("tournament", "status")


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("at", "tournament", "user", "actor", "action", "object_repr")
    list_filter = ("tournament", "action")
    search_fields = ("object_repr", "reason")
    readonly_fields = [f.name for f in AuditEntry._meta.fields]

    def has_add_permission(self, request):  # the trail is written by services only
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("session", "number", "status", "started_at", "ended_at")
    list_filter = ("session__tournament", "status")


@admin.register(Seating)
class SeatingAdmin(admin.ModelAdmin):
    list_display = (
        "session",
        "round_number",
        "room",
        "table_number",
        "set_number",
        "seat_n",
        "seat_e",
        "seat_s",
        "seat_w",
    )
    list_filter = ("session__tournament",)
    raw_id_fields = ("seat_n", "seat_e", "seat_s", "seat_w")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("session", "room", "number", "code")
    list_filter = ("session__tournament",)


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ("session", "number", "name")
    list_filter = ("session__tournament",)


@admin.register(Strike)
class StrikeAdmin(admin.ModelAdmin):
    """Counted failed tries (PINs, table codes, logins): an administrator clears one by deleting it
    (docs/deployment.md §7); nothing here is typed in by hand."""

    list_display = ("key", "count", "started")
    search_fields = ("key",)
    readonly_fields = ("key", "count", "started")

    def has_add_permission(self, request) -> bool:  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False
