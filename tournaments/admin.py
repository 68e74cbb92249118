"""Django admin for superusers: browse everything; score fields stay read-only.

Games are entered and corrected through the secretaries' pages (services keep the computed
values and the history); here they can only be read.
"""

from django.contrib import admin

from tournaments import models


@admin.register(models.Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city"]
    search_fields = ["name", "city"]
    filter_horizontal = ["secretaries"]


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "team", "category", "federation_number"]
    list_filter = ["club", "category"]
    search_fields = ["name", "team", "federation_number"]


@admin.register(models.Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "club", "slug", "status"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(models.League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors", "clubs"]


class RosterInline(admin.TabularInline):
    model = models.RosterEntry
    extra = 0
    autocomplete_fields = ["player"]
    readonly_fields = ["season"]


@admin.register(models.Team)
class TeamAdmin(admin.ModelAdmin):
    """Read here; rosters are kept through the season's pages (`leagues.services` checks
    a player's one team per season and the roster limits)."""

    list_display = ["name", "club", "season"]
    list_filter = ["season"]
    inlines = [RosterInline]

    def has_change_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False


@admin.register(models.Venue)
class VenueAdmin(admin.ModelAdmin):
    list_display = ["name", "tournament", "secretary"]
    autocomplete_fields = ["secretary"]


class RegistrationInline(admin.TabularInline):
    model = models.Registration
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(models.Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "club", "rules", "status", "published"]
    list_filter = ["rules", "status", "published", "club"]
    search_fields = ["name", "slug"]
    date_hierarchy = "date"
    inlines = [RegistrationInline]
    readonly_fields = ["rules"]


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(models.Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["table", "number", "declarer", "game", "value", "score", "is_won"]
    list_filter = ["game", "table__series__tournament"]
    list_select_related = ["table__series__tournament"]


@admin.register(models.GameChange)
class GameChangeAdmin(ReadOnlyAdmin):
    list_display = ["table", "game_number", "action", "user", "at"]
    list_filter = ["action"]


@admin.register(models.Prize)
class PrizeAdmin(admin.ModelAdmin):
    list_display = ["tournament", "scope", "series_number", "category", "rank", "amount", "share"]
    list_filter = ["scope", "category"]
    list_select_related = ["tournament"]


@admin.register(models.Payment)
class PaymentAdmin(ReadOnlyAdmin):
    """Payments are recorded on the money page (signed by kind); here they are read or deleted."""

    list_display = ["registration", "kind", "amount", "note", "user", "at"]
    list_filter = ["kind", "registration__tournament"]
    list_select_related = ["registration__player", "registration__tournament", "user"]


@admin.register(models.Invitation)
class InvitationAdmin(ReadOnlyAdmin):
    """Invitations are made, withdrawn and accepted on the site's People pages; here, for
    emergencies, they are read or deleted (a deleted invitation's link stops working)."""

    list_display = ["role", "club", "league", "venue", "email", "created_by", "expires_at"]
    list_filter = ["role"]
    exclude = ["token_hash"]
