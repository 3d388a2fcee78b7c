from django.contrib import admin

from appeals.models import (
    Appeal,
    AppealMember,
    AppealSettings,
    CommitteeMember,
    Correction,
    Irregularity,
    ScoreChange,
)


class AppealMemberInline(admin.TabularInline):
    model = AppealMember
    extra = 0


class ScoreChangeInline(admin.TabularInline):
    model = ScoreChange
    extra = 0
    fields = ("kind", "board_number", "round_number", "table_number", "values", "status", "audit_entry")
    readonly_fields = fields
    can_delete = False


@admin.register(Appeal)
class AppealAdmin(admin.ModelAdmin):
    list_display = ("number", "tournament", "appellant", "board_number", "round_number", "status", "filed_at")
    list_filter = ("status", "tournament")
    inlines = [AppealMemberInline]
    readonly_fields = ("status",)


@admin.register(Irregularity)
class IrregularityAdmin(admin.ModelAdmin):
    list_display = (
        "kind",
        "tournament",
        "board_number",
        "round_number",
        "table_number",
        "status",
        "recorded_at",
    )
    list_filter = ("kind", "status")
    readonly_fields = ("status",)


@admin.register(Correction)
class CorrectionAdmin(admin.ModelAdmin):
    list_display = ("kind", "tournament", "board_number", "status", "requested_at")
    readonly_fields = ("status",)


@admin.register(ScoreChange)
class ScoreChangeAdmin(admin.ModelAdmin):
    """Read-only: score changes are made by rulings, appeals and corrections, never by hand."""

    list_display = ("kind", "tournament", "board_number", "status", "applied_at")
    list_filter = ("kind", "status")

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


admin.site.register(AppealSettings)
admin.site.register(CommitteeMember)
