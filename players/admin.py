from django.contrib import admin

from players.models import MasterPointAward, Person, RatingEntry, Series, SeriesEvent


@admin.register(Person)
class PersonAdmin(admin.ModelAdmin):
    list_display = ("name", "federation_id", "club", "city", "merged_into")
    search_fields = ("name", "federation_id", "club", "city")


admin.site.register(Series)
admin.site.register(SeriesEvent)
admin.site.register(MasterPointAward)
admin.site.register(RatingEntry)
