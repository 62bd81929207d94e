"""The operators' admin site (/admin/): users, games (abort with a reason),
events (read-only: the store refuses changes anyway), notifications, webhook
deliveries, deadlines and heartbeats. Everything but users is read-only here:
game state changes only through the services, which record events."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.template.response import TemplateResponse
from knox.models import AuthToken

from events.models import StoredEvent
from games.models import Deadline, Game, Notification, Seat, WebhookDelivery
from games.services import audit
from games.services.errors import ServiceError
from heartbeats.models import Heartbeat

User = get_user_model()


class ReadOnlyAdmin(admin.ModelAdmin):
    """List, filter and view; no add, change or delete."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


# ---- users ---------------------------------------------------------------------------------

if admin.site.is_registered(User):
    admin.site.unregister(User)


@admin.register(User)
class OperatorUserAdmin(UserAdmin):
    """Django's user admin (its change page links to "reset password"), plus
    deactivation that also revokes the user's API tokens."""

    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_login")
    actions = ["deactivate", "activate"]

    @admin.action(description="Deactivate selected users and revoke their API tokens")
    def deactivate(self, request, queryset):
        ids = list(queryset.exclude(pk=request.user.pk).values_list("pk", flat=True))
        User.objects.filter(pk__in=ids).update(is_active=False)
        revoked, _ = AuthToken.objects.filter(user_id__in=ids).delete()
        self.message_user(
            request,
            f"{len(ids)} user(s) deactivated, {revoked} token(s) revoked"
            + (" (not yourself)" if queryset.filter(pk=request.user.pk).exists() else ""),
        )

    @admin.action(description="Reactivate selected users")
    def activate(self, request, queryset):
        n = queryset.update(is_active=True)
        self.message_user(request, f"{n} user(s) reactivated")


# ---- games ---------------------------------------------------------------------------------


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ("index", "user", "faction", "bot", "zombie", "misses")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "ruleset",
        "name",
        "status",
        "paused",
        "players",
        "version",
        "creator",
        "created_at",
    )
    list_filter = ("status", "ruleset", "paused")
    search_fields = ("id", "name", "creator__username")
    date_hierarchy = "created_at"
    exclude = ("seed",)  # secret until the game ends: the event stream reveals it then
    readonly_fields = (
        "id",
        "ruleset",
        "rules_version",
        "name",
        "players",
        "options",
        "time_control",
        "status",
        "creator",
        "version",
        "chain_head",
        "outcome",
        "paused",
        "created_at",
        "started_at",
        "finished_at",
    )
    inlines = [SeatInline]
    actions = ["abort_games"]

    @admin.action(description="Abort selected games (records the reason as an event)")
    def abort_games(self, request, queryset):
        games = list(queryset.exclude(status__in=[Game.Status.FINISHED, Game.Status.ABORTED]))
        reason = (request.POST.get("reason") or "").strip()
        if "apply" not in request.POST or not reason:
            if "apply" in request.POST:
                self.message_user(request, "a reason is required", messages.ERROR)
            return TemplateResponse(
                request,
                "admin/ops/abort_games.html",
                {
                    **self.admin_site.each_context(request),
                    "games": games,
                    "title": "Abort games",
                    "opts": self.model._meta,
                },
            )
        done = 0
        for g in games:
            try:
                audit.abort(g.id, request.user, reason, operator=True)
                done += 1
            except ServiceError as exc:
                self.message_user(request, f"{g.id}: {exc}", messages.ERROR)
        self.message_user(request, f"{done} game(s) aborted")
        return None


@admin.register(StoredEvent)
class StoredEventAdmin(ReadOnlyAdmin):
    list_display = ("stream", "seq", "type", "recorded_at", "private")
    list_filter = ("type",)
    search_fields = ("=stream",)
    ordering = ("stream", "seq")

    @admin.display(boolean=True)
    def private(self, obj):
        return obj.visible_to is not None


@admin.register(Notification)
class NotificationAdmin(ReadOnlyAdmin):
    list_display = ("id", "kind", "channel", "status", "user", "game", "attempts", "created_at", "sent_at")
    list_filter = ("channel", "status", "kind")
    search_fields = ("user__username", "=game__id")
    raw_id_fields = ("user", "game")


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnlyAdmin):
    list_display = ("id", "notification", "user", "attempt", "status_code", "ok", "duration_ms", "created_at")
    list_filter = ("ok",)
    search_fields = ("user__username", "url")


@admin.register(Deadline)
class DeadlineAdmin(ReadOnlyAdmin):
    list_display = ("id", "game", "seat", "kind", "status", "due_at", "frozen", "closed_at")
    list_filter = ("status", "frozen")
    search_fields = ("=game__id",)


@admin.register(Heartbeat)
class HeartbeatAdmin(ReadOnlyAdmin):
    list_display = ("role", "node", "pid", "started_at", "beat_at")
